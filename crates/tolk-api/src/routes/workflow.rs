//! `/api/projects/{slug}/languages/{language}/workflow/`: the workflow
//! settings of a project's language.

use actix_web::{HttpRequest, HttpResponse, delete, get, patch, web};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::workflow::{WorkflowDto, WorkflowPatch};
use crate::error::{ApiResult, ErrorBody};
use crate::reply::blocking;
use crate::routes::helpers::with_body;
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(projects_languages_workflow_retrieve)
        .service(projects_languages_workflow_partial_update)
        .service(projects_languages_workflow_destroy);
}

/// A language of a project: `/api/projects/{slug}/languages/{language}/…`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
struct WorkflowPath {
    /// Project slug.
    slug: String,
    /// Language code.
    language: String,
}

/// A language's own workflow settings in a project; 404 when it has none
/// (its strings then follow the project's `translation_review` and the
/// components' suggestion settings).
#[utoipa::path(
    tag = "projects",
    params(WorkflowPath),
    responses(
        (status = 200, description = "The settings", body = WorkflowDto),
        (status = 404, description = "Missing or hidden project, unknown language, or no settings", body = ErrorBody)
    )
)]
#[get("/api/projects/{slug}/languages/{language}/workflow/")]
async fn projects_languages_workflow_retrieve(
    caller: Caller,
    path: web::Path<WorkflowPath>,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<WorkflowDto>> {
    let service = state.service.clone();
    let WorkflowPath {
        slug,
        language: code,
    } = path.into_inner();
    let (code, workflow) =
        blocking(move || service.projects().workflow(&caller.0, &slug, &code)).await?;
    Ok(web::Json(WorkflowDto::new(code, workflow)))
}

/// Sets some of a language's workflow settings in a project (needs
/// `project.edit`); they then hold for its strings in every component
/// of the project.
#[utoipa::path(
    tag = "projects",
    params(WorkflowPath),
    request_body = WorkflowPatch,
    responses(
        (status = 200, description = "The settings", body = WorkflowDto),
        (status = 400, description = "Invalid fields", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden project, or unknown language", body = ErrorBody)
    )
)]
#[patch("/api/projects/{slug}/languages/{language}/workflow/")]
async fn projects_languages_workflow_partial_update(
    caller: Caller,
    path: web::Path<WorkflowPath>,
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<WorkflowDto>> {
    let service = state.service.clone();
    let WorkflowPath {
        slug,
        language: code,
    } = path.into_inner();
    let (code, workflow) = with_body(&req, payload, move |input, _| {
        let body = input.parse::<WorkflowPatch>()?;
        service
            .projects()
            .set_workflow(&caller.0, &slug, &code, |w| Ok(body.apply(w)))
    })
    .await?;
    Ok(web::Json(WorkflowDto::new(code, workflow)))
}

/// Removes a language's workflow settings from a project (needs
/// `project.edit`).
#[utoipa::path(
    tag = "projects",
    params(WorkflowPath),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden project, unknown language, or no settings", body = ErrorBody)
    )
)]
#[delete("/api/projects/{slug}/languages/{language}/workflow/")]
async fn projects_languages_workflow_destroy(
    caller: Caller,
    path: web::Path<WorkflowPath>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let WorkflowPath {
        slug,
        language: code,
    } = path.into_inner();
    blocking(move || service.projects().remove_workflow(&caller.0, &slug, &code)).await?;
    Ok(HttpResponse::NoContent().finish())
}
