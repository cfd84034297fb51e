//! The browser links Tolk hands out (`web_url`, `translate_url`, the
//! `Translate-URL:` of commit messages): each answers. Those tolk-web
//! does not serve (the list of projects, a language) lead (302) to the
//! browsable API view of the same object, where every link is clickable.
//! These are pages, not API operations: they are not in the OpenAPI
//! document.

use actix_web::http::header::LOCATION;
use actix_web::{HttpResponse, web};

use crate::links::Links;

/// Registers the pages on the application.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/projects/", web::get().to(projects))
        .route("/languages/{code}/", web::get().to(language));
}

/// A 302 to `url`'s browsable view.
fn to_view(url: &str) -> HttpResponse {
    HttpResponse::Found()
        .insert_header((LOCATION, format!("{url}?format=api")))
        .finish()
}

/// `/projects/` (the projects); tolk-web serves the pages of projects,
/// their languages, components and translations.
async fn projects(links: Links) -> HttpResponse {
    to_view(&links.api(&["projects"]))
}

/// `/languages/CODE/`: the language.
async fn language(code: web::Path<String>, links: Links) -> HttpResponse {
    to_view(&links.api(&["languages", &code]))
}
