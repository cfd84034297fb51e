//! `…/repository/` of projects, components and translations (§24): the
//! status of the repositories and the operations on them.

use actix_web::{HttpRequest, get, post, web};
use tolk_service::repository::{Operation, OperationResult};
use tolk_service::{Service, ServiceResult};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::repository::{OperationBody, OperationResultDto, RepositoryDto};
use crate::error::{ApiResult, ErrorBody};
use crate::links::{Links, nested};
use crate::reply::blocking;
use crate::routes::helpers::with_body;
use crate::routes::paths::{ComponentPath, TranslationPath};
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(project_status)
        .service(project_operation)
        .service(component_status)
        .service(component_operation)
        .service(translation_status)
        .service(translation_operation);
}

/// Reads the operation a body names.
fn operation_of(
    input: &crate::input::Input,
) -> Result<Operation, tolk_domain::validation::FieldErrors> {
    Ok(input.parse::<OperationBody>()?.operation)
}

/// Reads the operation from the body, runs `act` with it off the async
/// workers and answers its outcome.
async fn operate(
    req: &HttpRequest,
    payload: web::Payload,
    state: &AppState,
    act: impl FnOnce(&Service, Operation) -> ServiceResult<OperationResult> + Send + 'static,
) -> ApiResult<web::Json<OperationResultDto>> {
    let service = state.service.clone();
    let (result, detail) = with_body(req, payload, move |input, _| {
        act(&service, operation_of(&input)?)
    })
    .await?;
    Ok(web::Json(OperationResultDto { result, detail }))
}

/// The repositories of a project, summed (needs a `vcs.*` permission on each component).
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug")),
    responses(
        (status = 200, description = "The status", body = RepositoryDto),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/projects/{slug}/repository/")]
async fn project_status(
    caller: Caller,
    slug: web::Path<String>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<RepositoryDto>> {
    let url = links.api(&["projects", &slug, "repository"]);
    let service = state.service.clone();
    let status = blocking(move || service.repository().project_status(&caller.0, &slug)).await?;
    Ok(web::Json(RepositoryDto::of_project(status, url)))
}

/// Runs an operation on every repository of a project.
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug")),
    request_body = OperationBody,
    responses(
        (status = 200, description = "The outcome", body = OperationResultDto),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody),
        (status = 423, description = "A repository is busy", body = ErrorBody)
    )
)]
#[post("/api/projects/{slug}/repository/")]
async fn project_operation(
    caller: Caller,
    slug: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<OperationResultDto>> {
    operate(&req, payload, &state, move |service, operation| {
        service
            .repository()
            .project_operation(&caller.0, &slug, operation)
    })
    .await
}

/// The repository of a component (needs a `vcs.*` permission).
#[utoipa::path(
    tag = "components",
    params(ComponentPath),
    responses(
        (status = 200, description = "The status", body = RepositoryDto),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody),
        (status = 423, description = "The repository is busy", body = ErrorBody)
    )
)]
#[get("/api/components/{project}/{component}/repository/")]
async fn component_status(
    caller: Caller,
    path: web::Path<ComponentPath>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<RepositoryDto>> {
    let url = links.api(&[
        "components",
        &path.project,
        &nested(&path.component),
        "repository",
    ]);
    let service = state.service.clone();
    let status = blocking(move || {
        service
            .repository()
            .status(&caller.0, &path.project, &path.component)
    })
    .await?;
    Ok(web::Json(RepositoryDto::of_component(status, url)))
}

/// Runs an operation on the repository of a component.
#[utoipa::path(
    tag = "components",
    params(ComponentPath),
    request_body = OperationBody,
    responses(
        (status = 200, description = "The outcome", body = OperationResultDto),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody),
        (status = 423, description = "The repository is busy", body = ErrorBody)
    )
)]
#[post("/api/components/{project}/{component}/repository/")]
async fn component_operation(
    caller: Caller,
    path: web::Path<ComponentPath>,
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<OperationResultDto>> {
    operate(&req, payload, &state, move |service, operation| {
        service
            .repository()
            .operation(&caller.0, &path.project, &path.component, operation)
    })
    .await
}

/// The repository of a translation's component (needs a `vcs.*` permission).
#[utoipa::path(
    tag = "translations",
    params(TranslationPath),
    responses(
        (status = 200, description = "The status", body = RepositoryDto),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody),
        (status = 423, description = "The repository is busy", body = ErrorBody)
    )
)]
#[get("/api/translations/{project}/{component}/{language}/repository/")]
async fn translation_status(
    caller: Caller,
    path: web::Path<TranslationPath>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<RepositoryDto>> {
    let url = links.api(&[
        "translations",
        &path.project,
        &nested(&path.component),
        &path.language,
        "repository",
    ]);
    let service = state.service.clone();
    let status = blocking(move || {
        service.translations().get(&caller.0, path.parts())?;
        service
            .repository()
            .status(&caller.0, &path.project, &path.component)
    })
    .await?;
    Ok(web::Json(RepositoryDto::of_component(status, url)))
}

/// Runs an operation on the repository of a translation's component.
#[utoipa::path(
    tag = "translations",
    params(TranslationPath),
    request_body = OperationBody,
    responses(
        (status = 200, description = "The outcome", body = OperationResultDto),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody),
        (status = 423, description = "The repository is busy", body = ErrorBody)
    )
)]
#[post("/api/translations/{project}/{component}/{language}/repository/")]
async fn translation_operation(
    caller: Caller,
    path: web::Path<TranslationPath>,
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<OperationResultDto>> {
    operate(&req, payload, &state, move |service, operation| {
        service.translations().get(&caller.0, path.parts())?;
        service
            .repository()
            .operation(&caller.0, &path.project, &path.component, operation)
    })
    .await
}
