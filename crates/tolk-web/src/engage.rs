//! The invitation to translate a project (`/engage/{project}/`), or one
//! language of it (`/engage/{project}/-/{language}/`, a translation's
//! `share_url`): how far it is, its status badge, and where to start.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use tolk_domain::stats::Counters;
use tolk_service::PageRequest;

use crate::error::WebError;
use crate::page::{Chrome, answer, blocking, render};
use crate::progress::ProgressLine;
use crate::site::Pages;
use crate::visitor::Visitor;

/// Registers the engage pages.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/engage/{project}/", web::get().to(project))
        .route("/engage/{project}/-/{language}/", web::get().to(language));
}

#[derive(Template)]
#[template(path = "engage.html")]
struct EngagePage {
    chrome: Chrome,
    project: String,
    /// The language invited to, if one.
    language: Option<String>,
    /// Progress, leading to where to start.
    progress: ProgressLine,
    /// Languages being translated (for the whole project).
    languages: usize,
    badge: String,
}

/// Only the count of the page of components is needed.
const ONE: PageRequest = PageRequest {
    number: Some(1),
    size: 1,
};

async fn project(
    visitor: Visitor,
    slug: web::Path<String>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let (service, subject) = (pages.service.clone(), visitor.subject.clone());
    let overview = blocking(move || service.projects().overview(&subject, &slug, ONE)).await??;
    let settings = overview.project.project.settings;
    let mut counters = Counters::default();
    for (_, summary) in &overview.languages {
        counters += summary.counters;
    }
    let href = format!("/projects/{}/", settings.slug);
    let page = EngagePage {
        chrome: Chrome::of(&pages, &visitor),
        language: None,
        languages: overview.languages.len(),
        badge: format!("/widget/{}/svg-badge.svg", settings.slug),
        progress: ProgressLine::new(settings.name.clone(), href, &counters),
        project: settings.name,
    };
    let mut reply = answer(StatusCode::OK);
    visitor.keep_seed(&pages, &mut reply);
    render(reply, &page)
}

async fn language(
    visitor: Visitor,
    params: web::Path<(String, String)>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let (slug, code) = params.into_inner();
    let (service, subject) = (pages.service.clone(), visitor.subject.clone());
    let overview = blocking(move || {
        service
            .projects()
            .language_overview(&subject, &slug, &code, ONE)
    })
    .await??;
    let settings = overview.project.project.settings;
    let (language, summary) = overview.language;
    let href = format!("/projects/{}/-/{}/", settings.slug, language.code);
    let page = EngagePage {
        chrome: Chrome::of(&pages, &visitor),
        languages: 1,
        badge: format!(
            "/widget/{}/-/{}/svg-badge.svg",
            settings.slug, language.code
        ),
        progress: ProgressLine::new(settings.name.clone(), href, &summary.counters),
        language: Some(language.name),
        project: settings.name,
    };
    let mut reply = answer(StatusCode::OK);
    visitor.keep_seed(&pages, &mut reply);
    render(reply, &page)
}
