//! A project's page (`/projects/{project}/`: its components and its
//! languages) and one language of it (`/projects/{project}/-/{language}/`:
//! its components in that language), each line with its progress, as the
//! visitor may see them.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;

use crate::error::WebError;
use crate::forms::PageQuery;
use crate::page::{Chrome, answer, blocking, render};
use crate::progress::ProgressLine;
use crate::site::Pages;
use crate::visitor::Visitor;

/// Components on one page of a project's page.
const PAGE_SIZE: u64 = 100;

/// Registers the project page.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/projects/{project}/", web::get().to(project))
        .route("/projects/{project}/-/{language}/", web::get().to(language));
}

#[derive(Template)]
#[template(path = "project.html")]
struct ProjectPage {
    chrome: Chrome,
    name: String,
    website: String,
    /// The page's own address, for the pager.
    base: String,
    components: Vec<ProgressLine>,
    languages: Vec<ProgressLine>,
    page: u64,
    last_page: u64,
}

async fn project(
    visitor: Visitor,
    slug: web::Path<String>,
    query: web::Query<PageQuery>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let (service, subject) = (pages.service.clone(), visitor.subject.clone());
    let request = query.request(PAGE_SIZE);
    let overview =
        blocking(move || service.projects().overview(&subject, &slug, request)).await??;
    let settings = overview.project.project.settings;
    let base = format!("/projects/{}/", settings.slug);
    let page = ProjectPage {
        chrome: Chrome::of(&pages, &visitor),
        page: overview.components.number,
        last_page: overview.components.last_number(),
        components: overview
            .components
            .items
            .into_iter()
            .map(|(view, counters)| {
                let href = format!("{base}{}/", view.component.path);
                ProgressLine::new(view.component.settings.name, href, &counters)
            })
            .collect(),
        languages: overview
            .languages
            .into_iter()
            .map(|(language, summary)| {
                let href = format!("{base}-/{}/", language.code);
                ProgressLine::new(language.name, href, &summary.counters)
            })
            .collect(),
        name: settings.name,
        website: settings.web,
        base,
    };
    let mut reply = answer(StatusCode::OK);
    visitor.keep_seed(&pages, &mut reply);
    render(reply, &page)
}

#[derive(Template)]
#[template(path = "project_language.html")]
struct LanguagePage {
    chrome: Chrome,
    project: String,
    project_href: String,
    language: ProgressLine,
    base: String,
    components: Vec<ProgressLine>,
    page: u64,
    last_page: u64,
}

async fn language(
    visitor: Visitor,
    params: web::Path<(String, String)>,
    query: web::Query<PageQuery>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let (slug, code) = params.into_inner();
    let (service, subject) = (pages.service.clone(), visitor.subject.clone());
    let request = query.request(PAGE_SIZE);
    let overview = blocking(move || {
        service
            .projects()
            .language_overview(&subject, &slug, &code, request)
    })
    .await??;
    let settings = overview.project.project.settings;
    let (language, summary) = overview.language;
    let project_href = format!("/projects/{}/", settings.slug);
    let page = LanguagePage {
        chrome: Chrome::of(&pages, &visitor),
        base: format!("{project_href}-/{}/", language.code),
        components: overview
            .translations
            .into_iter()
            .map(|(view, counters)| {
                let href = format!("{project_href}{}/{}/", view.component.path, language.code);
                ProgressLine::new(view.component.settings.name, href, &counters)
            })
            .collect(),
        language: ProgressLine::new(language.name, String::new(), &summary.counters),
        project: settings.name,
        project_href,
        page: overview.page,
        last_page: overview.last_page,
    };
    let mut reply = answer(StatusCode::OK);
    visitor.keep_seed(&pages, &mut reply);
    render(reply, &page)
}
