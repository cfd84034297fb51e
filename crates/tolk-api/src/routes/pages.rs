//! The browser links Tolk hands out (`web_url`, `translate_url`, the
//! `Translate-URL:` of commit messages): each answers. Until tolk-web
//! serves a page for one, a page of Weblate's site leads (302) to the
//! browsable API view of the same object, where every link is
//! clickable. These are pages, not API operations: they are not in the
//! OpenAPI document.

use actix_web::http::header::LOCATION;
use actix_web::{HttpResponse, web};

use crate::caller::Caller;
use crate::error::ApiResult;
use crate::links::{Links, nested};
use crate::state::AppState;

/// Registers the pages on the application.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/projects/{rest:.*}", web::get().to(projects))
        .route("/translate/{rest:.*}", web::get().to(translate))
        .route("/engage/{rest:.*}", web::get().to(engage))
        .route("/languages/{code}/", web::get().to(language));
}

/// A path's non-empty segments.
fn segments(rest: &str) -> Vec<&str> {
    rest.split('/').filter(|s| !s.is_empty()).collect()
}

/// A 302 to `url`'s browsable view.
fn to_view(url: &str) -> HttpResponse {
    HttpResponse::Found()
        .insert_header((LOCATION, format!("{url}?format=api")))
        .finish()
}

/// The API link of a translation (`component` may be a path of slugs).
fn translation_api(links: &Links, project: &str, component: &[&str], code: &str) -> String {
    links.api(&["translations", project, &nested(&component.join("/")), code])
}

/// `/projects/P/` (a project), `/projects/P/-/LANG/` (its languages),
/// `/projects/P/PATH/` (a component, `PATH` being its category path) and
/// `/projects/P/PATH/LANG/` (a translation).
async fn projects(
    caller: Caller,
    rest: web::Path<String>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let parts: Vec<String> = segments(&rest).into_iter().map(str::to_owned).collect();
    let Some((project, inside)) = parts.split_first() else {
        return Ok(to_view(&links.api(&["projects"])));
    };
    let inside: Vec<&str> = inside.iter().map(String::as_str).collect();
    let url = match inside.as_slice() {
        [] => links.api(&["projects", project]),
        ["-", ..] => links.api(&["projects", project, "languages"]),
        [single] => links.api(&["components", project, single]),
        [component @ .., code] => {
            // A category path and a component path look alike: what the
            // caller can see of the project tells them apart.
            let path = inside.join("/");
            let service = state.service.clone();
            let (subject, owner) = (caller.0, project.clone());
            let is_component = crate::reply::blocking(move || {
                Ok(service.components().get(&subject, &owner, &path).is_ok())
            })
            .await?;
            if is_component {
                links.api(&["components", project, &nested(&inside.join("/"))])
            } else {
                translation_api(&links, project, component, code)
            }
        }
    };
    Ok(to_view(&url))
}

/// `/translate/P/PATH/LANG/` (and a unit's `?checksum=`): the
/// translation's strings.
async fn translate(rest: web::Path<String>, links: Links) -> HttpResponse {
    let parts = segments(&rest);
    match parts.as_slice() {
        [project, component @ .., code] if !component.is_empty() => {
            let translation = translation_api(&links, project, component, code);
            to_view(&format!("{translation}units/"))
        }
        _ => to_view(&links.api(&["translations"])),
    }
}

/// `/engage/P/…`: the project.
async fn engage(rest: web::Path<String>, links: Links) -> HttpResponse {
    match segments(&rest).first() {
        Some(project) => to_view(&links.api(&["projects", project])),
        None => to_view(&links.api(&["projects"])),
    }
}

/// `/languages/CODE/`: the language.
async fn language(code: web::Path<String>, links: Links) -> HttpResponse {
    to_view(&links.api(&["languages", &code]))
}
