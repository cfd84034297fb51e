//! What every page shares: the frame around its content (site name, who
//! is signed in, sign-out), rendering into an answer with the pages'
//! headers (`headers`), redirects after posts, and use-cases run off the
//! async workers.

use actix_web::http::header::LOCATION;
use actix_web::{HttpResponse, HttpResponseBuilder, web};
use tolk_service::ServiceError;
use tolk_service::accounts::Person;

use crate::error::WebError;
pub use crate::headers::answer;
use crate::site::Pages;
use crate::visitor::Visitor;

/// The frame of a page, as its template shows it.
#[derive(Debug, Clone)]
pub struct Chrome {
    /// The site's name.
    pub site_title: String,
    /// Who is signed in.
    pub person: Option<Person>,
    /// The anti-forgery token of the page's forms.
    pub csrf: String,
    /// Whether the visitor manages accounts (the users page is theirs).
    pub manages_people: bool,
}

impl Chrome {
    /// The frame for a visitor.
    pub fn of(pages: &Pages, visitor: &Visitor) -> Chrome {
        Chrome {
            site_title: pages.service.config().site_title.clone(),
            person: visitor.person().cloned(),
            csrf: visitor.csrf_token(pages),
            manages_people: tolk_service::users::manages_users(&visitor.subject),
        }
    }
}

/// Renders a template into an answer already carrying its headers and cookies.
pub fn render(
    mut answer: HttpResponseBuilder,
    template: &impl askama::Template,
) -> Result<HttpResponse, WebError> {
    let body = template.render().map_err(|e| {
        tracing::error!("a page template failed: {e}");
        WebError::Internal
    })?;
    Ok(answer.body(body))
}

/// A 303 to `to`: where a posted form sends the browser.
pub fn see_other(to: &str) -> HttpResponseBuilder {
    let mut answer = HttpResponse::SeeOther();
    answer.insert_header((LOCATION, to.to_owned()));
    answer
}

/// Runs a use-case off the async workers.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ServiceError> + Send + 'static,
) -> Result<Result<T, ServiceError>, WebError> {
    web::block(work).await.map_err(|_| WebError::Internal)
}
