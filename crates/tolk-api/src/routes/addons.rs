//! `/api/addons/` and the `addons/` of components and projects (§14).

use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, put, web};
use tolk_domain::addon::{AddonChange, AddonCreate};
use tolk_service::addons::AddonPlace;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::addon::AddonDto;
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD};
use crate::reply::{blocking, created};
use crate::routes::helpers::{page_of, with_body};
use crate::routes::paths::ComponentPath;
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list)
        .service(detail)
        .service(replace)
        .service(modify)
        .service(remove)
        .service(trigger)
        .service(install_on_component)
        .service(install_on_project);
}

/// The add-ons the caller may manage (`component.edit` on their
/// component, `project.edit` on their project), by id.
#[utoipa::path(
    tag = "addons",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of add-ons", body = Paginated<AddonDto>),
        (status = 404, description = "Invalid page", body = ErrorBody)
    )
)]
#[get("/api/addons/")]
async fn list(
    caller: Caller,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<AddonDto>>> {
    let service = state.service.clone();
    let fetch = move |request| service.addons().list(&caller.0, request);
    page_of(&req, &links, STANDARD, fetch, |a| AddonDto::new(a, &links)).await
}

/// One add-on the caller may manage.
#[utoipa::path(
    tag = "addons",
    params(("id" = i64, Path, description = "Add-on id")),
    responses(
        (status = 200, description = "The add-on", body = AddonDto),
        (status = 404, description = "Missing, or not the caller's to manage", body = ErrorBody)
    )
)]
#[get("/api/addons/{id}/")]
async fn detail(
    caller: Caller,
    id: web::Path<i64>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<AddonDto>> {
    let service = state.service.clone();
    let view = blocking(move || service.addons().get(&caller.0, *id)).await?;
    Ok(web::Json(AddonDto::new(view, &links)))
}

put_and_patch! {
    tag: "addons",
    path: "/api/addons/{id}/",
    params: [("id" = i64, Path, description = "Add-on id")],
    key: i64,
    create: AddonChange,
    patch: AddonChange,
    response: AddonDto,
    put: "Replaces an add-on's configuration; its name cannot change.",
    patch_doc: "Changes an add-on's configuration; its name cannot change.",
    operation: "addons",
}

/// PUT and PATCH.
async fn change(
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<AddonDto>> {
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, _| {
        service
            .addons()
            .configure(&caller.0, *id, input.parse::<AddonChange>())
    })
    .await?;
    Ok(web::Json(AddonDto::new(view, &links)))
}

/// Uninstalls an add-on.
#[utoipa::path(
    tag = "addons",
    params(("id" = i64, Path, description = "Add-on id")),
    responses(
        (status = 204, description = "Uninstalled"),
        (status = 404, description = "Missing, or not the caller's to manage", body = ErrorBody)
    )
)]
#[delete("/api/addons/{id}/")]
async fn remove(
    caller: Caller,
    id: web::Path<i64>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || service.addons().uninstall(&caller.0, *id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Runs an add-on on demand. Weblate allows it for the add-ons that
/// extract POT files from source code, which Tolk does not run: every
/// add-on answers Weblate's refusal.
#[utoipa::path(
    tag = "addons",
    params(("id" = i64, Path, description = "Add-on id")),
    responses(
        (status = 400, description = "The add-on cannot be triggered manually", body = ErrorBody),
        (status = 404, description = "Missing, or not the caller's to manage", body = ErrorBody)
    )
)]
#[post("/api/addons/{id}/trigger/")]
async fn trigger(
    caller: Caller,
    id: web::Path<i64>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || service.addons().trigger(&caller.0, *id)).await?;
    Ok(HttpResponse::Accepted().finish())
}

/// Installs an add-on on a component (needs `component.edit`); its first
/// run is queued as a task.
#[utoipa::path(
    tag = "components",
    params(ComponentPath),
    request_body = AddonCreate,
    responses(
        (status = 201, description = "Installed", body = AddonDto),
        (status = 400, description = "Unknown, refused, incompatible or already installed add-on, or invalid configuration", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden component", body = ErrorBody)
    )
)]
#[post("/api/components/{project}/{component}/addons/")]
async fn install_on_component(
    caller: Caller,
    path: web::Path<ComponentPath>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let place = AddonPlace::Component(path.project.clone(), path.component.clone());
    install(caller, place, req, payload, links, state).await
}

/// Installs an add-on on a project, for all its components (needs
/// `project.edit`); its first run is queued as a task.
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug")),
    request_body = AddonCreate,
    responses(
        (status = 201, description = "Installed", body = AddonDto),
        (status = 400, description = "Unknown, refused, component-only or already installed add-on, or invalid configuration", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden project", body = ErrorBody)
    )
)]
#[post("/api/projects/{slug}/addons/")]
async fn install_on_project(
    caller: Caller,
    project: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let place = AddonPlace::Project(project.into_inner());
    install(caller, place, req, payload, links, state).await
}

/// Installs an add-on at `place`.
async fn install(
    caller: Caller,
    place: AddonPlace,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, _| {
        service
            .addons()
            .install(&caller.0, &place, input.parse::<AddonCreate>())
    })
    .await?;
    let dto = AddonDto::new(view, &links);
    Ok(created(&dto.url.clone(), dto))
}
