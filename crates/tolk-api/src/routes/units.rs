//! `/api/units/`.

use actix_web::{HttpRequest, HttpResponse, delete, get, patch, put, web};
use tolk_service::units::UnitEdit;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::unit::{UnitDto, UnitPatch, UnitPut, UnitWritten};
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{LARGE, PageQuery, Paginated};
use crate::reply::blocking;
use crate::routes::helpers::{page_of, path_id, with_body};
use crate::routes::translations::UnitFilters;
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list)
        .service(detail)
        .service(translations)
        .service(replace)
        .service(modify)
        .service(remove);
}

/// Lists the units the caller may see, matching `q`, by id.
#[utoipa::path(
    tag = "units",
    params(UnitFilters, PageQuery),
    responses(
        (status = 200, description = "A page of units", body = Paginated<UnitDto>),
        (status = 400, description = "Invalid query", body = ErrorBody),
        (status = 404, description = "Invalid page", body = ErrorBody)
    )
)]
#[get("/api/units/")]
async fn list(
    caller: Caller,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<UnitDto>>> {
    let filters: UnitFilters = crate::query::parse(req.query_string())?;
    let service = state.service.clone();
    let fetch = move |request| {
        service
            .units()
            .list(&caller.0, None, filters.q.as_deref(), request)
    };
    page_of(&req, &links, LARGE, fetch, |u| UnitDto::new(u, &links)).await
}

/// One unit.
#[utoipa::path(
    tag = "units",
    params(("id" = i64, Path, description = "Unit id")),
    responses(
        (status = 200, description = "The unit", body = UnitDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/units/{id}/")]
async fn detail(
    caller: Caller,
    id: web::Path<String>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<UnitDto>> {
    let id = path_id(&id)?;
    let service = state.service.clone();
    let view = blocking(move || service.units().get(&caller.0, id)).await?;
    Ok(web::Json(UnitDto::new(view, &links)))
}

/// The units of the other languages of a source string (not paginated);
/// 400 for a unit that is not a source unit.
#[utoipa::path(
    tag = "units",
    params(("id" = i64, Path, description = "Unit id of a source string")),
    responses(
        (status = 200, description = "The string's units in the other languages", body = Vec<UnitDto>),
        (status = 400, description = "Not a source unit", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/units/{id}/translations/")]
async fn translations(
    caller: Caller,
    id: web::Path<String>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Vec<UnitDto>>> {
    let id = path_id(&id)?;
    let service = state.service.clone();
    let views = blocking(move || service.units().in_other_languages(&caller.0, id)).await?;
    Ok(web::Json(
        views.into_iter().map(|v| UnitDto::new(v, &links)).collect(),
    ))
}

/// Deletes a string (needs `unit.delete`, `manage_units` and a format that
/// can lose strings): a source unit's string leaves every translation, a
/// bilingual translation's unit leaves its own; monolingual components
/// delete through the source unit only. The files lose it at the next
/// commit (Weblate commits at once).
#[utoipa::path(
    tag = "units",
    params(("id" = i64, Path, description = "Unit id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 403, description = "Not allowed, or the format cannot remove strings", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/units/{id}/")]
async fn remove(
    caller: Caller,
    id: web::Path<String>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let id = path_id(&id)?;
    let service = state.service.clone();
    blocking(move || service.units().delete(&caller.0, id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

put_and_patch! {
    tag: "units",
    path: "/api/units/{id}/",
    params: [("id" = i64, Path, description = "Unit id")],
    key: String,
    create: UnitPut,
    patch: UnitPatch,
    response: UnitWritten,
    put: "Replaces a unit's writable fields (§10.3): `target` and `labels` are required; values equal to the current ones change nothing.",
    patch_doc: "Edits a unit (§10.3): `target` and `state` together translate it (it becomes pending until committed); `explanation`, `extra_flags` and `labels` set a source string's properties.",
}

/// PUT and PATCH (§10.3).
async fn change(
    caller: Caller,
    id: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<UnitWritten>> {
    let id = path_id(&id)?;
    let full = req.method() == actix_web::http::Method::PUT;
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, _| {
        let edit: UnitEdit = if full {
            match input.parse::<UnitPut>() {
                Ok(body) => body.into(),
                Err(errors) => {
                    // A missing or hidden unit is 404 whatever the body says.
                    service.units().get(&caller.0, id)?;
                    return Err(errors.into());
                }
            }
        } else {
            input.parse::<UnitPatch>()?.into()
        };
        service.units().edit(&caller.0, id, edit)
    })
    .await?;
    Ok(web::Json(UnitDto::new(view, &links).into()))
}
