//! `/api/roles/` (§5).

use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, put, web};
use tolk_domain::teams::{RoleCreate, RolePatch};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::role::RoleDto;
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD};
use crate::reply::{blocking, created};
use crate::routes::helpers::{page_of, with_body};
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list)
        .service(create)
        .service(detail)
        .service(replace)
        .service(modify)
        .service(remove);
}

/// Lists roles: every role for those with `role.view` or `role.edit`,
/// else the roles of the caller's teams.
#[utoipa::path(
    tag = "roles",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of roles", body = Paginated<RoleDto>),
        (status = 404, description = "Invalid page", body = ErrorBody)
    )
)]
#[get("/api/roles/")]
async fn list(
    caller: Caller,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<RoleDto>>> {
    let service = state.service.clone();
    let fetch = move |request| service.roles().list(&caller.0, request);
    page_of(&req, &links, STANDARD, fetch, |r| RoleDto::new(r, &links)).await
}

/// Creates a role (needs `role.edit`).
#[utoipa::path(
    tag = "roles",
    request_body = RoleCreate,
    responses(
        (status = 201, description = "Created", body = RoleDto),
        (status = 400, description = "Invalid fields", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody)
    )
)]
#[post("/api/roles/")]
async fn create(
    caller: Caller,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let role = with_body(&req, payload, move |input, _| {
        service.roles().create(
            &caller.0,
            input.parse_change::<RoleCreate, RolePatch>(false),
        )
    })
    .await?;
    let dto = RoleDto::new(role, &links);
    Ok(created(&dto.url.clone(), dto))
}

/// One role, if the caller sees it.
#[utoipa::path(
    tag = "roles",
    params(("id" = i64, Path, description = "Role id")),
    responses(
        (status = 200, description = "The role", body = RoleDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/roles/{id}/")]
async fn detail(
    caller: Caller,
    id: web::Path<i64>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<RoleDto>> {
    let service = state.service.clone();
    let role = blocking(move || service.roles().get(&caller.0, *id)).await?;
    Ok(web::Json(RoleDto::new(role, &links)))
}

put_and_patch! {
    tag: "roles",
    path: "/api/roles/{id}/",
    params: [("id" = i64, Path, description = "Role id")],
    key: i64,
    create: RoleCreate,
    patch: RolePatch,
    response: RoleDto,
    put: "Replaces a role's name and permissions (needs `role.edit`).",
    patch_doc: "Renames a role or adds permissions to it (needs `role.edit`); as in Weblate, PATCH adds the permissions given to those it has.",
}

/// PUT and PATCH.
async fn change(
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<RoleDto>> {
    let service = state.service.clone();
    let role = with_body(&req, payload, move |input, partial| {
        let body = input.parse_change::<RoleCreate, RolePatch>(partial);
        service.roles().update(&caller.0, *id, body, !partial)
    })
    .await?;
    Ok(web::Json(RoleDto::new(role, &links)))
}

/// Removes a role (needs `role.edit`).
#[utoipa::path(
    tag = "roles",
    params(("id" = i64, Path, description = "Role id")),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/roles/{id}/")]
async fn remove(
    caller: Caller,
    id: web::Path<i64>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || service.roles().delete(&caller.0, *id)).await?;
    Ok(HttpResponse::NoContent().finish())
}
