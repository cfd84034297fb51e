//! `/api/units/{id}/screenshots/`: the screenshots showing a unit's
//! string, linked and unlinked from the unit's side.

use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::screenshot::{ScreenshotDto, ScreenshotIdBody};
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD};
use crate::reply::blocking;
use crate::routes::helpers::{page_of, with_body};
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(units_screenshots_list)
        .service(units_screenshots_create)
        .service(units_screenshots_destroy);
}

/// The screenshots showing a unit's string (its source string's, for a
/// translation), by id.
#[utoipa::path(
    tag = "units",
    params(("id" = i64, Path, description = "Unit id"), PageQuery),
    responses(
        (status = 200, description = "A page of screenshots", body = Paginated<ScreenshotDto>),
        (status = 404, description = "Missing or hidden unit, or invalid page", body = ErrorBody)
    )
)]
#[get("/api/units/{id}/screenshots/")]
async fn units_screenshots_list(
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<ScreenshotDto>>> {
    let service = state.service.clone();
    let fetch = move |request| service.screenshots().of_unit(&caller.0, *id, request);
    page_of(&req, &links, STANDARD, fetch, |s| {
        ScreenshotDto::new(s, &links)
    })
    .await
}

/// Shows a unit's string on a screenshot (needs `screenshot.edit` on the
/// screenshot's translation); the screenshot as it is then.
#[utoipa::path(
    tag = "units",
    params(("id" = i64, Path, description = "Unit id")),
    request_body = ScreenshotIdBody,
    responses(
        (status = 200, description = "Linked", body = ScreenshotDto),
        (status = 400, description = "Missing or unknown screenshot, or of another component", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden unit", body = ErrorBody)
    )
)]
#[post("/api/units/{id}/screenshots/")]
async fn units_screenshots_create(
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<ScreenshotDto>> {
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, _| {
        let body = input.parse::<ScreenshotIdBody>()?;
        service
            .screenshots()
            .link_unit(&caller.0, *id, body.screenshot_id)
    })
    .await?;
    Ok(web::Json(ScreenshotDto::new(view, &links)))
}

/// Takes a unit's string off a screenshot (needs `screenshot.edit`); 404
/// when it is not on it.
#[utoipa::path(
    tag = "units",
    params(
        ("id" = i64, Path, description = "Unit id"),
        ("screenshot_id" = i64, Path, description = "Screenshot id")
    ),
    responses(
        (status = 204, description = "Unlinked"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing, hidden or not linked", body = ErrorBody)
    )
)]
#[delete("/api/units/{id}/screenshots/{screenshot_id}/")]
async fn units_screenshots_destroy(
    caller: Caller,
    path: web::Path<(i64, i64)>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let (id, screenshot) = path.into_inner();
    blocking(move || service.screenshots().unlink_unit(&caller.0, id, screenshot)).await?;
    Ok(HttpResponse::NoContent().finish())
}
