//! `/api/changes/`.

use actix_web::{HttpRequest, get, web};
use tolk_domain::change::Action;
use tolk_domain::validation::FieldErrors;
use tolk_service::changes::ChangeQuery;
use utoipa::IntoParams;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::Caller;
use crate::blocking;
use crate::dto::change::ChangeDto;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::input::parse_datetime;
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD, page_request, paginated};
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list).service(detail);
}

/// Filters of change lists. Only describes the query for OpenAPI:
/// [`change_query`] reads it, because `action` may repeat.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct ChangeFilters {
    /// Only changes by this username.
    user: Option<String>,
    /// Only these action codes; repeat for several.
    action: Option<Vec<i32>>,
    /// Only changes at or after this ISO 8601 time.
    timestamp_after: Option<String>,
    /// Only changes at or before this ISO 8601 time.
    timestamp_before: Option<String>,
}

/// Reads the change filters from the query string; every bad one is reported.
pub fn change_query(req: &HttpRequest) -> Result<ChangeQuery, ApiError> {
    let mut query = ChangeQuery::default();
    let mut errors = FieldErrors::default();
    for (key, value) in form_urlencoded::parse(req.query_string().as_bytes()) {
        match key.as_ref() {
            "user" => query.user = Some(value.into_owned()),
            "action" => match value.parse::<i32>().ok().and_then(Action::from_code) {
                Some(action) => query.actions.push(action.0),
                None => errors.push(
                    "action",
                    "invalid_choice",
                    format!("Select a valid choice. {value} is not one of the available choices."),
                ),
            },
            "timestamp_after" | "timestamp_before" => match parse_datetime(&value) {
                Some(at) if key == "timestamp_after" => query.after = Some(at),
                Some(at) => query.before = Some(at),
                None => errors.invalid(&key, "Enter a valid date/time."),
            },
            _ => {}
        }
    }
    errors.into_result()?;
    Ok(query)
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
    let (page, refs) = blocking(move || service.changes(&caller.0, &query, request)).await?;
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
    let (row, refs) = blocking(move || service.change(&caller.0, id)).await?;
    Ok(web::Json(ChangeDto::new(row, &refs, &links)))
}
