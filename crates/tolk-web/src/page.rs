//! What every page shares: the frame around its content (site name, who
//! is signed in, sign-out) and the answer's headers: a Content-Security-
//! Policy that runs no inline script and loads nothing from elsewhere,
//! no framing, no referrer to other sites, and no caching of pages that
//! are someone's own.

use actix_web::http::StatusCode;
use actix_web::http::header::LOCATION;
use actix_web::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use actix_web::{HttpResponse, HttpResponseBuilder, web};
use tolk_service::ServiceError;
use tolk_service::accounts::Person;

use crate::error::WebError;
use crate::site::Pages;
use crate::visitor::Visitor;

/// The policy of every page: scripts, styles and images of this site
/// only, no inline script, forms posted only here, never in a frame.
pub const CONTENT_SECURITY_POLICY_VALUE: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; \
     frame-ancestors 'none'; base-uri 'none'";

/// The frame of a page, as its template shows it.
#[derive(Debug, Clone)]
pub struct Chrome {
    /// The site's name.
    pub site_title: String,
    /// Who is signed in.
    pub person: Option<Person>,
    /// The anti-forgery token of the page's forms.
    pub csrf: String,
}

impl Chrome {
    /// The frame for a visitor.
    pub fn of(pages: &Pages, visitor: &Visitor) -> Chrome {
        Chrome {
            site_title: pages.service.config().site_title.clone(),
            person: visitor.person().cloned(),
            csrf: visitor.csrf_token(pages),
        }
    }
}

/// An answer with a page's headers, before its body.
pub fn answer(status: StatusCode) -> HttpResponseBuilder {
    let mut answer = HttpResponse::build(status);
    answer
        .insert_header((CONTENT_TYPE, "text/html; charset=utf-8"))
        .insert_header((CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY_VALUE))
        .insert_header((X_FRAME_OPTIONS, "DENY"))
        .insert_header((X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((REFERRER_POLICY, "same-origin"))
        .insert_header((CACHE_CONTROL, "no-store"));
    answer
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
