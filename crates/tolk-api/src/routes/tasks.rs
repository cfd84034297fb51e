//! `/api/tasks/{id}/`: background tasks (there is no list, as in Weblate).

use actix_web::{get, web};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::repository::TaskDto;
use crate::error::{ApiResult, ErrorBody};
use crate::reply::blocking;
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(detail);
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
