//! `/api/translations/`.

use actix_web::{HttpRequest, HttpResponse, delete, get, web};
use serde::Deserialize;
use tolk_service::changes::ChangeScope;
use utoipa::IntoParams;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::blocking;
use crate::caller::Caller;
use crate::dto::change::ChangeDto;
use crate::dto::statistics::StatisticsDto;
use crate::dto::translation::TranslationDto;
use crate::dto::unit::UnitDto;
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD};
use crate::routes::changes::{ChangeFilters, change_query};
use crate::routes::files::{FileBytes, download};
use crate::routes::page_of;
use crate::routes::paths::TranslationPath;
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list)
        .service(detail)
        .service(remove)
        .service(statistics)
        .service(changes)
        .service(units)
        .service(file);
}

/// Filters of unit lists, as the query string gives them.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UnitFilters {
    /// A search query (§30): words (in source, translation or context),
    /// `field:value` terms such as `source:hello`, `state:>=translated`,
    /// `has:plural`, `position:[1 to 10]`, joined by `AND`, `OR`, `NOT`
    /// and parentheses.
    #[param(max_length = 2000)]
    pub q: Option<String>,
}

/// Lists the translations the caller may see.
#[utoipa::path(
    tag = "translations",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of translations", body = Paginated<TranslationDto>),
        (status = 404, description = "Invalid page", body = ErrorBody)
    )
)]
#[get("/api/translations/")]
async fn list(
    caller: Caller,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<TranslationDto>>> {
    let service = state.service.clone();
    let subject = caller.0.clone();
    let fetch = move |request| service.translations(&caller.0, None, request);
    page_of(&req, &links, STANDARD, fetch, |t| {
        TranslationDto::new(t, &links, Some(&subject))
    })
    .await
}

/// One translation.
#[utoipa::path(
    tag = "translations",
    params(TranslationPath),
    responses(
        (status = 200, description = "The translation", body = TranslationDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/translations/{project}/{component}/{language}/")]
async fn detail(
    caller: Caller,
    path: web::Path<TranslationPath>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<TranslationDto>> {
    let service = state.service.clone();
    let subject = caller.0.clone();
    let view = blocking(move || service.translation(&caller.0, path.parts())).await?;
    Ok(web::Json(TranslationDto::new(view, &links, Some(&subject))))
}

/// Removes a translation (needs `translation.delete`; never the source
/// language's): its file is removed from the repository in a commit.
#[utoipa::path(
    tag = "translations",
    params(TranslationPath),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody),
        (status = 423, description = "The repository is busy", body = ErrorBody)
    )
)]
#[delete("/api/translations/{project}/{component}/{language}/")]
async fn remove(
    caller: Caller,
    path: web::Path<TranslationPath>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || service.delete_translation(&caller.0, path.parts())).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Statistics of a translation.
#[utoipa::path(
    tag = "translations",
    params(TranslationPath),
    responses(
        (status = 200, description = "Statistics", body = StatisticsDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/translations/{project}/{component}/{language}/statistics/")]
async fn statistics(
    caller: Caller,
    path: web::Path<TranslationPath>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<StatisticsDto>> {
    let service = state.service.clone();
    let (view, summary) =
        blocking(move || service.translation_statistics(&caller.0, path.parts())).await?;
    Ok(web::Json(StatisticsDto::of_translation(
        &view, &summary, &links,
    )))
}

/// Changes in a translation, newest first.
#[utoipa::path(
    tag = "translations",
    params(
        TranslationPath,
        ChangeFilters,
        PageQuery
    ),
    responses(
        (status = 200, description = "A page of changes", body = Paginated<ChangeDto>),
        (status = 400, description = "Invalid filter", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/translations/{project}/{component}/{language}/changes/")]
async fn changes(
    caller: Caller,
    path: web::Path<TranslationPath>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<ChangeDto>>> {
    let mut query = change_query(&req)?;
    query.scope = ChangeScope::Translation(
        path.project.clone(),
        path.component.clone(),
        path.language.clone(),
    );
    crate::routes::changes::respond(caller, query, req, links, state).await
}

/// The units of a translation matching `q`, by id.
#[utoipa::path(
    tag = "translations",
    params(
        TranslationPath,
        UnitFilters,
        PageQuery
    ),
    responses(
        (status = 200, description = "A page of units", body = Paginated<UnitDto>),
        (status = 400, description = "Invalid query", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/translations/{project}/{component}/{language}/units/")]
async fn units(
    caller: Caller,
    path: web::Path<TranslationPath>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<UnitDto>>> {
    let filters: UnitFilters = crate::query::parse(req.query_string())?;
    let service = state.service.clone();
    let fetch =
        move |request| service.units(&caller.0, Some(path.parts()), filters.q.as_deref(), request);
    page_of(&req, &links, STANDARD, fetch, |u| UnitDto::new(u, &links)).await
}

/// The translation's file as the repository holds it, with pending edits
/// committed first (needs `translation.download`).
#[utoipa::path(
    tag = "translations",
    params(TranslationPath),
    responses(
        (status = 200, description = "The file", content_type = "application/octet-stream", body = FileBytes),
        (status = 304, description = "Not modified since `If-Modified-Since`"),
        (status = 404, description = "Missing, hidden or without a file", body = ErrorBody),
        (status = 423, description = "The repository is busy", body = ErrorBody)
    )
)]
#[get("/api/translations/{project}/{component}/{language}/file/")]
async fn file(
    caller: Caller,
    path: web::Path<TranslationPath>,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let file = blocking(move || service.translation_file(&caller.0, path.parts())).await?;
    Ok(download(&req, file))
}
