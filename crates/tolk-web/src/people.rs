//! The people of the site for those who manage accounts
//! (`/manage/users/`): every account, a form adding a person, and for
//! each a one-time link to choose a password, shown to the administrator
//! to pass on (Tolk sends no mail). Others are refused.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use tolk_domain::user::{ANONYMOUS_USERNAME, UserFields};
use tolk_service::users::{UserQuery, manages_users};
use tolk_service::{PageRequest, ServiceError};

use crate::accounts::password_link_url;
use crate::error::{WebError, refusal};
use crate::extract::{Guarded, Posted};
use crate::forms::{FormErrors, PageQuery};
use crate::page::{Chrome, answer, blocking, render};
use crate::site::Pages;
use crate::visitor::Visitor;

/// The page's address.
const PEOPLE: &str = "/manage/users/";

/// People on one page.
const PAGE_SIZE: u64 = 50;

/// Registers the page.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route(PEOPLE, web::get().to(show))
        .route(PEOPLE, web::post().to(act));
}

/// An account as listed.
struct Listed {
    username: String,
    full_name: String,
    email: String,
    active: bool,
    superuser: bool,
    /// May be given a password link (an active person, not a bot nor the
    /// anonymous account).
    linkable: bool,
}

#[derive(Template)]
#[template(path = "people.html")]
struct PeoplePage {
    chrome: Chrome,
    people: Vec<Listed>,
    page: u64,
    last_page: u64,
    base: &'static str,
    /// A password link just made: for whom, and the link.
    link: Option<(String, String)>,
    /// What the form adding a person had typed, when refused.
    typed: PersonForm,
    errors: FormErrors,
    message: Option<String>,
}

/// What the page's forms post: `add` (a person) or `link` (a new
/// password link for `username`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PersonForm {
    csrfmiddlewaretoken: String,
    action: String,
    username: String,
    full_name: String,
    email: String,
}

impl Guarded for PersonForm {
    fn token(&self) -> &str {
        &self.csrfmiddlewaretoken
    }
}

/// Refused unless the visitor manages accounts.
fn manager(visitor: &Visitor) -> Result<(), WebError> {
    if manages_users(&visitor.subject) {
        Ok(())
    } else {
        Err(WebError::Forbidden(
            "Only those who manage accounts see this page.".into(),
        ))
    }
}

/// The page with the `request`ed page of accounts.
async fn people_page(
    pages: &web::Data<Pages>,
    visitor: &Visitor,
    request: PageRequest,
) -> Result<PeoplePage, WebError> {
    let (service, subject) = (pages.service.clone(), visitor.subject.clone());
    let (found, _) = blocking(move || {
        service
            .users()
            .list(&subject, UserQuery::default(), request)
    })
    .await??;
    Ok(PeoplePage {
        chrome: Chrome::of(pages, visitor),
        page: found.number,
        last_page: found.last_number(),
        people: found
            .items
            .into_iter()
            .map(|view| {
                let row = view.row;
                Listed {
                    linkable: row.is_active && !row.is_bot && row.username != ANONYMOUS_USERNAME,
                    username: row.username,
                    full_name: row.full_name,
                    email: row.email,
                    active: row.is_active,
                    superuser: row.is_superuser,
                }
            })
            .collect(),
        base: PEOPLE,
        link: None,
        typed: PersonForm::default(),
        errors: FormErrors::default(),
        message: None,
    })
}

async fn show(
    visitor: Visitor,
    query: web::Query<PageQuery>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    manager(&visitor)?;
    let page = people_page(&pages, &visitor, query.request(PAGE_SIZE)).await?;
    let mut reply = answer(StatusCode::OK);
    visitor.keep_seed(&pages, &mut reply);
    render(reply, &page)
}

async fn act(
    posted: Posted<PersonForm>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let Posted { visitor, form } = posted;
    manager(&visitor)?;
    let (service, subject) = (pages.service.clone(), visitor.subject.clone());
    let username = form.username.trim().to_owned();
    let fields = UserFields {
        username: username.clone(),
        full_name: form.full_name.trim().to_owned(),
        email: form.email.trim().to_owned(),
        is_superuser: false,
        is_active: true,
        is_bot: false,
        date_expires: None,
    };
    let adding = match form.action.as_str() {
        "add" => true,
        "link" => false,
        _ => return Err(WebError::BadForm),
    };
    let outcome = blocking(move || {
        if adding {
            service.users().create(&subject, Ok(fields))?;
        }
        service.accounts().password_link_by(&subject, &username)
    })
    .await?;
    let first = PageRequest {
        number: Some(1),
        size: PAGE_SIZE,
    };
    let (status, page) = match outcome {
        Ok(key) => {
            let mut page = people_page(&pages, &visitor, first).await?;
            let url = password_link_url(&pages.site_url, &key);
            page.link = Some((form.username.trim().to_owned(), url));
            (StatusCode::OK, page)
        }
        Err(ServiceError::Validation(errors)) => {
            let mut page = people_page(&pages, &visitor, first).await?;
            page.errors = FormErrors::new(errors);
            page.typed = form;
            (StatusCode::BAD_REQUEST, page)
        }
        Err(other) => {
            let (status, words) = refusal(other)?;
            let mut page = people_page(&pages, &visitor, first).await?;
            page.message = Some(words);
            (status, page)
        }
    };
    let mut reply = answer(status);
    visitor.keep_seed(&pages, &mut reply);
    render(reply, &page)
}
