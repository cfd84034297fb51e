//! The front page: the projects the visitor may see (public ones for
//! anonymous visitors), each with how much of it is translated, a page at
//! a time, and where the API and its documentation are.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;

use crate::error::WebError;
use crate::forms::PageQuery;
use crate::page::{Chrome, answer, render};
use crate::progress::ProgressLine;
use crate::site::Pages;
use crate::visitor::Visitor;

/// Projects on one page of the front page.
const PAGE_SIZE: u64 = 50;

/// Registers the front page.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(dashboard));
}

#[derive(Template)]
#[template(path = "dashboard.html")]
struct DashboardPage {
    chrome: Chrome,
    projects: Vec<ProgressLine>,
    page: u64,
    last_page: u64,
}

async fn dashboard(
    visitor: Visitor,
    query: web::Query<PageQuery>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let (service, subject) = (pages.service.clone(), visitor.subject.clone());
    let request = query.request(PAGE_SIZE);
    let found = web::block(move || service.projects().list_with_counters(&subject, request))
        .await
        .map_err(|_| WebError::Internal)??;
    let page = DashboardPage {
        chrome: Chrome::of(&pages, &visitor),
        page: found.number,
        last_page: found.last_number(),
        projects: found
            .items
            .into_iter()
            .map(|(view, counters)| {
                let settings = view.project.settings;
                let href = format!("/projects/{}/", settings.slug);
                ProgressLine::new(settings.name, href, &counters)
            })
            .collect(),
    };
    let mut reply = answer(StatusCode::OK);
    visitor.keep_seed(&pages, &mut reply);
    render(reply, &page)
}
