//! The status badges (Weblate's widgets) at Weblate's addresses:
//! `/widget/{project}/svg-badge.svg`, `/widget/{project}/{component}/svg-badge.svg`
//! and `/widget/{project}/-/{language}/svg-badge.svg`, with `?capitalize=1`
//! for a capital first letter. A badge is an image for anyone's README:
//! it shows what an anonymous visitor may see (a private project's badge
//! is not found), and may be cached for an hour by anyone.

use actix_web::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use tolk_domain::stats::percent;
use tolk_service::Service;
use tolk_service::badges::BadgeOf;

use crate::badge::Badge;
use crate::error::WebError;

/// Registers the badge routes.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/widget/{project}/svg-badge.svg", web::get().to(project))
        .route(
            "/widget/{project}/-/{language}/svg-badge.svg",
            web::get().to(project_language),
        )
        .route(
            "/widget/{project}/{component}/svg-badge.svg",
            web::get().to(component),
        );
}

/// The query a badge takes.
#[derive(Debug, Default, Deserialize)]
pub struct BadgeQuery {
    /// `1` for `Translated` instead of `translated`.
    pub capitalize: Option<String>,
}

async fn project(
    path: web::Path<String>,
    query: web::Query<BadgeQuery>,
    service: web::Data<Service>,
) -> Result<HttpResponse, WebError> {
    answer(&service, &query, Shown::Project(path.into_inner())).await
}

async fn component(
    path: web::Path<(String, String)>,
    query: web::Query<BadgeQuery>,
    service: web::Data<Service>,
) -> Result<HttpResponse, WebError> {
    let (project, component) = path.into_inner();
    answer(&service, &query, Shown::Component(project, component)).await
}

async fn project_language(
    path: web::Path<(String, String)>,
    query: web::Query<BadgeQuery>,
    service: web::Data<Service>,
) -> Result<HttpResponse, WebError> {
    let (project, language) = path.into_inner();
    answer(&service, &query, Shown::ProjectLanguage(project, language)).await
}

/// What a badge shows, as its address names it.
enum Shown {
    Project(String),
    Component(String, String),
    ProjectLanguage(String, String),
}

impl Shown {
    fn of(&self) -> BadgeOf<'_> {
        match self {
            Shown::Project(project) => BadgeOf::Project(project),
            Shown::Component(project, component) => BadgeOf::Component(project, component),
            Shown::ProjectLanguage(project, language) => {
                BadgeOf::ProjectLanguage(project, language)
            }
        }
    }
}

/// Reads the counters off the async workers, as an anonymous visitor, and
/// answers the badge.
async fn answer(
    service: &Service,
    query: &BadgeQuery,
    shown: Shown,
) -> Result<HttpResponse, WebError> {
    let service = service.clone();
    let counters = web::block(move || {
        let subject = service.auth().anonymous()?;
        service.badges().counters(&subject, shown.of())
    })
    .await
    .map_err(|_| WebError::Internal)??;
    let share = percent(counters.translated.strings, counters.total.strings, true);
    let badge = Badge::translated(share, query.capitalize.as_deref() == Some("1"));
    Ok(HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, "image/svg+xml"))
        .insert_header((CACHE_CONTROL, "public, max-age=3600"))
        .body(badge.svg()))
}
