//! `/api/projects/{slug}/labels/` (§17.1).

use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::unit::{LabelCreate, LabelDto};
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD};
use crate::reply::blocking;
use crate::routes::helpers::{page_of, with_body};
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(labels_list)
        .service(labels_create)
        .service(labels_delete);
}

/// The labels of a project, by id.
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug"), PageQuery),
    responses(
        (status = 200, description = "A page of labels", body = Paginated<LabelDto>),
        (status = 404, description = "Missing or hidden project, or invalid page", body = ErrorBody)
    )
)]
#[get("/api/projects/{slug}/labels/")]
async fn labels_list(
    caller: Caller,
    slug: web::Path<String>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<LabelDto>>> {
    let service = state.service.clone();
    let fetch = move |request| service.labels().list(&caller.0, &slug, request);
    page_of(&req, &links, STANDARD, fetch, |l| LabelDto::from(&l)).await
}

/// Makes a label of a project (needs `project.edit`).
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug")),
    request_body = LabelCreate,
    responses(
        (status = 201, description = "Made", body = LabelDto),
        (status = 400, description = "Invalid fields", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[post("/api/projects/{slug}/labels/")]
async fn labels_create(
    caller: Caller,
    slug: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let label = with_body(&req, payload, move |input, _| {
        let body = input.parse::<LabelCreate>()?;
        service
            .labels()
            .create(&caller.0, &slug, &body.name, &body.description, &body.color)
    })
    .await?;
    Ok(HttpResponse::Created().json(LabelDto::from(&label)))
}

/// Removes a label from a project and its strings (needs `project.edit`).
#[utoipa::path(
    tag = "projects",
    params(
        ("slug" = String, Path, description = "Project slug"),
        ("id" = i64, Path, description = "Label id")
    ),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/projects/{slug}/labels/{id}/")]
async fn labels_delete(
    caller: Caller,
    path: web::Path<(String, i64)>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let (slug, id) = path.into_inner();
    blocking(move || service.labels().delete(&caller.0, &slug, id)).await?;
    Ok(HttpResponse::NoContent().finish())
}
