//! `/api/screenshots/` and a component's `screenshots/` (§13).

use actix_web::http::header::{ContentDisposition, DispositionParam, DispositionType};
use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, put, route, web};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::screenshot::{
    ScreenshotChange, ScreenshotCreatedDto, ScreenshotDto, ScreenshotFields, ScreenshotImage,
    ScreenshotPatch, ScreenshotUpload, UnitIdBody,
};
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD};
use crate::reply::{blocking, created};
use crate::routes::files::streamed;
use crate::routes::helpers::{page_of, with_body};
use crate::routes::paths::ComponentPath;
use crate::schemas::FileBytes;
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list)
        .service(create)
        .service(detail)
        .service(replace)
        .service(modify)
        .service(remove)
        .service(image)
        .service(replace_image)
        .service(add_unit)
        .service(remove_unit)
        .service(screenshots);
}

/// The screenshots the caller sees, by id.
#[utoipa::path(
    tag = "screenshots",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of screenshots", body = Paginated<ScreenshotDto>),
        (status = 404, description = "Invalid page", body = ErrorBody)
    )
)]
#[get("/api/screenshots/")]
async fn list(
    caller: Caller,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<ScreenshotDto>>> {
    let service = state.service.clone();
    let fetch = move |request| service.screenshots().list(&caller.0, None, request);
    page_of(&req, &links, STANDARD, fetch, |s| {
        ScreenshotDto::new(s, &links)
    })
    .await
}

/// The screenshots of a component's translations, by id.
#[utoipa::path(
    tag = "components",
    params(ComponentPath, PageQuery),
    responses(
        (status = 200, description = "A page of screenshots", body = Paginated<ScreenshotDto>),
        (status = 404, description = "Missing or hidden component, or invalid page", body = ErrorBody)
    )
)]
#[get("/api/components/{project}/{component}/screenshots/")]
async fn screenshots(
    caller: Caller,
    path: web::Path<ComponentPath>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<ScreenshotDto>>> {
    let service = state.service.clone();
    let fetch = move |request| {
        let place = (path.project.as_str(), path.component.as_str());
        service.screenshots().list(&caller.0, Some(place), request)
    };
    page_of(&req, &links, STANDARD, fetch, |s| {
        ScreenshotDto::new(s, &links)
    })
    .await
}

/// Uploads a screenshot of a translation (needs `screenshot.add` on it):
/// multipart `image` (PNG, JPEG, WebP or GIF) with `name`,
/// `project_slug`, `component_slug` and `language_code`.
#[utoipa::path(
    tag = "screenshots",
    request_body(content((ScreenshotUpload = "multipart/form-data"))),
    responses(
        (status = 201, description = "Uploaded", body = ScreenshotCreatedDto),
        (status = 400, description = "Missing fields, unknown translation, or not an image", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 413, description = "The image is too large", body = ErrorBody)
    )
)]
#[post("/api/screenshots/")]
async fn create(
    caller: Caller,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, _| {
        let fields = input.parse::<ScreenshotFields>()?;
        let new = tolk_service::screenshots::NewImage {
            name: fields.name,
            project_slug: fields.project_slug,
            component_slug: fields.component_slug,
            language_code: fields.language_code,
            repository_filename: fields.repository_filename,
            image: input
                .file("image")
                .map(|(name, bytes)| (name.to_owned(), bytes.to_vec())),
        };
        service.screenshots().create(&caller.0, new)
    })
    .await?;
    let dto = ScreenshotDto::new(view, &links);
    Ok(created(&dto.url.clone(), ScreenshotCreatedDto::from(dto)))
}

/// One screenshot.
#[utoipa::path(
    tag = "screenshots",
    params(("id" = i64, Path, description = "Screenshot id")),
    responses(
        (status = 200, description = "The screenshot", body = ScreenshotDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/screenshots/{id}/")]
async fn detail(
    caller: Caller,
    id: web::Path<i64>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<ScreenshotDto>> {
    let service = state.service.clone();
    let view = blocking(move || service.screenshots().get(&caller.0, *id)).await?;
    Ok(web::Json(ScreenshotDto::new(view, &links)))
}

put_and_patch! {
    tag: "screenshots",
    path: "/api/screenshots/{id}/",
    params: [("id" = i64, Path, description = "Screenshot id")],
    key: i64,
    create: ScreenshotChange,
    patch: ScreenshotPatch,
    response: ScreenshotDto,
    put: "Renames a screenshot and sets its repository file (needs `screenshot.edit`).",
    patch_doc: "Changes some fields of a screenshot (needs `screenshot.edit`).",
    operation: "screenshots",
}

/// PUT and PATCH.
async fn change(
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<ScreenshotDto>> {
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, partial| {
        let body = input.parse_change::<ScreenshotChange, ScreenshotPatch>(partial)?;
        service
            .screenshots()
            .update(&caller.0, *id, body.name, body.repository_filename)
    })
    .await?;
    Ok(web::Json(ScreenshotDto::new(view, &links)))
}

/// Removes a screenshot and its image (needs `screenshot.delete`).
#[utoipa::path(
    tag = "screenshots",
    params(("id" = i64, Path, description = "Screenshot id")),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/screenshots/{id}/")]
async fn remove(
    caller: Caller,
    id: web::Path<i64>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || service.screenshots().delete(&caller.0, *id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The screenshot's image, streamed as an attachment (as Weblate,
/// `application/binary`).
#[utoipa::path(
    tag = "screenshots",
    params(("id" = i64, Path, description = "Screenshot id")),
    responses(
        (status = 200, description = "The image", content_type = "application/binary", body = FileBytes),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/screenshots/{id}/file/")]
async fn image(
    caller: Caller,
    id: web::Path<i64>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let (path, name) = blocking(move || service.screenshots().image(&caller.0, *id)).await?;
    let body = streamed(move |out| {
        let mut file = std::fs::File::open(&path)?;
        std::io::copy(&mut file, out)?;
        Ok(())
    });
    Ok(HttpResponse::Ok()
        .content_type("application/binary")
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(name)],
        })
        .streaming(body))
}

/// Replaces the screenshot's image (needs `screenshot.edit`): multipart
/// `image`; POST and PUT alike.
#[utoipa::path(
    method(post, put),
    tag = "screenshots",
    params(("id" = i64, Path, description = "Screenshot id")),
    request_body(content((ScreenshotImage = "multipart/form-data"))),
    responses(
        (status = 200, description = "Replaced", body = crate::dto::repository::OperationResultDto),
        (status = 400, description = "Missing or not an image", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody),
        (status = 413, description = "The image is too large", body = ErrorBody)
    )
)]
#[route("/api/screenshots/{id}/file/", method = "POST", method = "PUT")]
async fn replace_image(
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<crate::dto::repository::OperationResultDto>> {
    let service = state.service.clone();
    with_body(&req, payload, move |input, _| {
        let given = input
            .file("image")
            .map(|(name, bytes)| (name.to_owned(), bytes.to_vec()));
        service.screenshots().replace_image(&caller.0, *id, given)
    })
    .await?;
    Ok(web::Json(crate::dto::repository::OperationResultDto {
        result: true,
        detail: None,
    }))
}

/// Links a unit of the screenshot's translation to it (needs
/// `screenshot.edit`); the screenshot as it is then.
#[utoipa::path(
    tag = "screenshots",
    params(("id" = i64, Path, description = "Screenshot id")),
    request_body = UnitIdBody,
    responses(
        (status = 200, description = "Linked", body = ScreenshotDto),
        (status = 400, description = "Missing unit, or not of the screenshot's translation", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[post("/api/screenshots/{id}/units/")]
async fn add_unit(
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<ScreenshotDto>> {
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, _| {
        let body = input.parse::<UnitIdBody>()?;
        service.screenshots().add_unit(&caller.0, *id, body.unit_id)
    })
    .await?;
    Ok(web::Json(ScreenshotDto::new(view, &links)))
}

/// Unlinks a unit from a screenshot (needs `screenshot.edit`); 404 when
/// it is not linked.
#[utoipa::path(
    tag = "screenshots",
    params(
        ("id" = i64, Path, description = "Screenshot id"),
        ("unit_id" = i64, Path, description = "Unit id")
    ),
    responses(
        (status = 204, description = "Unlinked"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing, hidden or not linked", body = ErrorBody)
    )
)]
#[delete("/api/screenshots/{id}/units/{unit_id}/")]
async fn remove_unit(
    caller: Caller,
    path: web::Path<(i64, i64)>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let (id, unit) = path.into_inner();
    blocking(move || service.screenshots().remove_unit(&caller.0, id, unit)).await?;
    Ok(HttpResponse::NoContent().finish())
}
