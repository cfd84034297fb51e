//! `/api/changes/`.

use actix_web::{HttpRequest, get, web};
use serde::Deserialize;
use tolk_service::changes::ChangeQuery;
use utoipa::IntoParams;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::change::ChangeDto;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD, page_request, paginated};
use crate::params::{ActionCode, Timestamp};
use crate::query;
use crate::reply::blocking;
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list).service(detail);
}

/// Filters of change lists, as the query string gives them.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ChangeFilters {
    /// Only changes by this username.
    user: Option<String>,
    /// Only these action codes; repeat for several.
    #[param(explode = true, inline)]
    action: Option<Vec<ActionCode>>,
    /// Only changes at or after this time (ISO 8601).
    #[param(inline)]
    timestamp_after: Option<Timestamp>,
    /// Only changes at or before this time (ISO 8601).
    #[param(inline)]
    timestamp_before: Option<Timestamp>,
}

/// Reads the change filters from the query string; every bad one is reported.
pub fn change_query(req: &HttpRequest) -> Result<ChangeQuery, ApiError> {
    let filters: ChangeFilters = query::parse(req.query_string())?;
    Ok(ChangeQuery {
        user: filters.user,
        actions: filters
            .action
            .unwrap_or_default()
            .into_iter()
            .map(|a| a.0.0)
            .collect(),
        after: filters.timestamp_after.map(|t| t.0),
        before: filters.timestamp_before.map(|t| t.0),
        ..ChangeQuery::default()
    })
}

/// Answers a change list for `query`.
pub async fn respond(
    caller: Caller,
    query: ChangeQuery,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<ChangeDto>>> {
    let request = page_request(&req, STANDARD)?;
    let service = state.service.clone();
    let (page, refs) = blocking(move || service.changes().list(&caller.0, &query, request)).await?;
    Ok(web::Json(paginated(&req, &links, page, |row| {
        ChangeDto::new(row, &refs, &links)
    })))
}

/// Changes the caller may see, newest first.
#[utoipa::path(
    tag = "changes",
    params(ChangeFilters, PageQuery),
    responses(
        (status = 200, description = "A page of changes", body = Paginated<ChangeDto>),
        (status = 400, description = "Invalid filter", body = ErrorBody)
    )
)]
#[get("/api/changes/")]
async fn list(
    caller: Caller,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<ChangeDto>>> {
    let query = change_query(&req)?;
    respond(caller, query, req, links, state).await
}

/// One change.
#[utoipa::path(
    tag = "changes",
    params(("id" = i64, Path, description = "Change id")),
    responses(
        (status = 200, description = "The change", body = ChangeDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/changes/{id}/")]
async fn detail(
    caller: Caller,
    id: web::Path<String>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<ChangeDto>> {
    let id: i64 = id.parse().map_err(|_| ApiError::not_found())?;
    let service = state.service.clone();
    let (row, refs) = blocking(move || service.changes().get(&caller.0, id)).await?;
    Ok(web::Json(ChangeDto::new(row, &refs, &links)))
}
