//! `/api/memory/` (§18): translation memory entries, for signed-in callers.

use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::memory::{
    MemoryDto, MemoryFilters, MemoryLookupParams, MemoryLookupRequest, MemoryLookupResultDto,
};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{LARGE, PageQuery, Paginated};
use crate::reply::blocking;
use crate::routes::helpers::{page_of, path_id, with_body};
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(memory_list)
        .service(memory_lookup)
        .service(memory_read)
        .service(memory_delete);
}

/// The memory entries the caller may see (all with `memory.manage`; else
/// their own and those of the projects they see), by id.
#[utoipa::path(
    tag = "memory",
    params(MemoryFilters, PageQuery),
    responses(
        (status = 200, description = "A page of entries", body = Paginated<MemoryDto>),
        (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 404, description = "Invalid page", body = ErrorBody)
    )
)]
#[get("/api/memory/")]
async fn memory_list(
    caller: Caller,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<MemoryDto>>> {
    let filters: MemoryFilters = crate::query::parse(req.query_string())?;
    let filter = filters.into();
    let service = state.service.clone();
    let fetch = move |request| service.memory().list(&caller.0, &filter, request);
    page_of(&req, &links, LARGE, fetch, MemoryDto::from).await
}

/// One memory entry.
#[utoipa::path(
    tag = "memory",
    params(("id" = i64, Path, description = "Entry id")),
    responses(
        (status = 200, description = "The entry", body = MemoryDto),
        (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/memory/{id}/")]
async fn memory_read(
    caller: Caller,
    id: web::Path<String>,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<MemoryDto>> {
    let id = entry_id(&id, &req)?;
    let service = state.service.clone();
    let entry = blocking(move || service.memory().get(&caller.0, id)).await?;
    Ok(web::Json(entry.into()))
}

/// Deletes a memory entry: one's own, a project's with `memory.delete`,
/// any with `memory.manage`; others are 403 "Can not delete memory entry".
#[utoipa::path(
    tag = "memory",
    params(("id" = i64, Path, description = "Entry id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/memory/{id}/")]
async fn memory_delete(
    caller: Caller,
    id: web::Path<String>,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let id = entry_id(&id, &req)?;
    let service = state.service.clone();
    blocking(move || service.memory().delete(&caller.0, id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Looks up 1 to 100 texts at once: for each, in the order sent, the
/// newest exact match, else (unless `exact`) the entry whose source is
/// most alike from 80 percent, or null. Entries as for the list: those
/// the caller sees.
#[utoipa::path(
    tag = "memory",
    params(MemoryLookupParams),
    request_body = MemoryLookupRequest,
    responses(
        (status = 200, description = "The best match of each text", body = Vec<MemoryLookupResultDto>),
        (status = 400, description = "Missing or unknown language, unknown project, or bad texts", body = ErrorBody),
        (status = 401, description = "Not signed in", body = ErrorBody)
    )
)]
#[post("/api/memory/lookup/")]
async fn memory_lookup(
    caller: Caller,
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Vec<MemoryLookupResultDto>>> {
    let params: MemoryLookupParams = crate::query::parse(req.query_string())?;
    let query = params.into();
    let service = state.service.clone();
    let found = with_body(&req, payload, move |input, _| {
        let body = input.parse::<MemoryLookupRequest>()?;
        let matches = service.memory().lookup(&caller.0, &query, &body.strings)?;
        Ok(body
            .strings
            .into_iter()
            .zip(matches)
            .map(|(text, found)| MemoryLookupResultDto::new(text, found))
            .collect())
    })
    .await?;
    Ok(web::Json(found))
}

/// The id of an entry in the path. `lookup` names the lookup, which
/// answers POST alone (405 for other methods, as Weblate's router does);
/// anything else that is not a number names nothing (404).
fn entry_id(id: &str, req: &HttpRequest) -> ApiResult<i64> {
    if id == "lookup" {
        return Err(ApiError::MethodNotAllowed(req.method().to_string()));
    }
    path_id(id)
}
