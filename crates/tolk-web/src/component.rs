//! A component's page (`/projects/{project}/{component path}/`: its
//! languages with their progress) and a translation's page
//! (`/projects/{project}/{component path}/{language}/`: its progress and
//! counts that open the editor on those strings). A category path and a
//! component path look alike: what the visitor can see of the project
//! tells them apart. `/projects/{project}/-/…` (a project's languages) is
//! not served here.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use tolk_domain::stats::percent;
use tolk_service::Page;
use tolk_service::ServiceError;
use tolk_service::components::ComponentView;
use tolk_service::translations::TranslationView;

use crate::error::WebError;
use crate::forms::PageQuery;
use crate::page::{Chrome, answer, blocking, render};
use crate::paths::TranslationPath;
use crate::progress::ProgressLine;
use crate::searches::COMMON;
use crate::site::Pages;
use crate::visitor::Visitor;

/// Languages on one page of a component's page.
const PAGE_SIZE: u64 = 100;

/// Registers the component and translation pages.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/projects/{project}/{rest:[^-].*|-[^/].*}",
        web::get().to(inside),
    );
}

/// What an address inside a project names.
enum Inside {
    Component(Box<ComponentView>, Page<TranslationView>),
    Translation(TranslationPath, Box<TranslationView>),
}

#[derive(Template)]
#[template(path = "component.html")]
struct ComponentPage {
    chrome: Chrome,
    project: String,
    project_href: String,
    name: String,
    base: String,
    languages: Vec<ProgressLine>,
    page: u64,
    last_page: u64,
}

/// A count of strings that opens the editor on them.
struct Count {
    label: &'static str,
    strings: i64,
    href: String,
}

#[derive(Template)]
#[template(path = "translation.html")]
struct TranslationPage {
    chrome: Chrome,
    project: String,
    project_href: String,
    component: String,
    component_href: String,
    language: String,
    translated: f64,
    translate_href: String,
    counts: Vec<Count>,
}

async fn inside(
    visitor: Visitor,
    params: web::Path<(String, String)>,
    query: web::Query<PageQuery>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let (project, rest) = params.into_inner();
    let (service, subject) = (pages.service.clone(), visitor.subject.clone());
    let request = query.request(PAGE_SIZE);
    let found = blocking(move || {
        let path = rest.trim_end_matches('/').to_owned();
        let translations = service
            .translations()
            .list(&subject, Some((&project, &path)), request);
        match translations {
            Ok(translations) => {
                // Its translations carry the component, unless it has none.
                let component = match translations.items.first() {
                    Some(first) => first.component.clone(),
                    None => service.components().get(&subject, &project, &path)?,
                };
                Ok(Inside::Component(Box::new(component), translations))
            }
            Err(ServiceError::NotFound) => {
                let path = TranslationPath::parse(&project, &rest).ok_or(ServiceError::NotFound)?;
                let translation = service.translations().brief(&subject, path.key())?;
                Ok(Inside::Translation(path, Box::new(translation)))
            }
            Err(other) => Err(other),
        }
    })
    .await??;
    let chrome = Chrome::of(&pages, &visitor);
    let mut reply = answer(StatusCode::OK);
    visitor.keep_seed(&pages, &mut reply);
    match found {
        Inside::Component(component, translations) => {
            render(reply, &component_page(chrome, &component, translations))
        }
        Inside::Translation(path, translation) => {
            render(reply, &translation_page(chrome, &path, &translation))
        }
    }
}

fn component_page(
    chrome: Chrome,
    component: &ComponentView,
    translations: Page<TranslationView>,
) -> ComponentPage {
    let project = &component.project.settings;
    let base = format!("/projects/{}/{}/", project.slug, component.component.path);
    ComponentPage {
        chrome,
        project: project.name.clone(),
        project_href: format!("/projects/{}/", project.slug),
        name: component.component.settings.name.clone(),
        page: translations.number,
        last_page: translations.last_number(),
        languages: translations
            .items
            .into_iter()
            .map(|t| {
                let href = format!("{base}{}/", t.language.row.code);
                ProgressLine::new(t.language.row.name, href, &t.translation.counters)
            })
            .collect(),
        base,
    }
}

fn translation_page(
    chrome: Chrome,
    path: &TranslationPath,
    translation: &TranslationView,
) -> TranslationPage {
    let counters = &translation.translation.counters;
    let total = counters.total.strings;
    TranslationPage {
        chrome,
        project: translation.component.project.settings.name.clone(),
        project_href: format!("/projects/{}/", path.project),
        component: translation.component.component.settings.name.clone(),
        component_href: path.component_page(),
        language: translation.language.row.name.clone(),
        translated: percent(counters.translated.strings, total, true),
        translate_href: path.editor(None, ""),
        counts: COMMON
            .iter()
            .map(|search| Count {
                label: search.label,
                strings: (search.count)(counters),
                href: path.editor(None, search.q),
            })
            .collect(),
    }
}
