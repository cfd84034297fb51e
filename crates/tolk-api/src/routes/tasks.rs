//! `/api/tasks/{id}/`: background tasks (there is no list, as in Weblate).

use actix_web::{HttpResponse, delete, get, web};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::repository::TaskDto;
use crate::error::{ApiResult, ErrorBody};
use crate::reply::blocking;
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(detail).service(destroy);
}

/// A background task: whether it finished, how far it got, its result and
/// log. Seen by its starter and by whoever sees its project.
#[utoipa::path(
    tag = "tasks",
    params(("id" = String, Path, description = "Task id (a UUID)")),
    responses(
        (status = 200, description = "The task", body = TaskDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/tasks/{id}/")]
async fn detail(
    caller: Caller,
    id: web::Path<String>,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<TaskDto>> {
    let service = state.service.clone();
    let task = blocking(move || service.tasks().get(&caller.0, &id)).await?;
    Ok(web::Json(task.into()))
}

/// Cancels a task (needs `component.edit` on its component; tasks of no
/// component cannot be cancelled). A waiting task ends at once; a running
/// one stops at its next progress report where its work can stop
/// (automatic translation, between batches), else finishes and says so
/// in its log. A finished task is left as it is.
#[utoipa::path(
    tag = "tasks",
    params(("id" = String, Path, description = "Task id (a UUID)")),
    responses(
        (status = 204, description = "Cancelled, or finished already"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/tasks/{id}/")]
async fn destroy(
    caller: Caller,
    id: web::Path<String>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || service.tasks().cancel(&caller.0, &id)).await?;
    Ok(HttpResponse::NoContent().finish())
}
