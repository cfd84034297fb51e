//! `/api/projects/{slug}/metrics/` (§21.2): the figures of every
//! translation of a project, as JSON, CSV or OpenMetrics text.

use actix_web::http::header::CONTENT_TYPE;
use actix_web::{HttpRequest, HttpResponse, get, web};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::project_metrics::{TranslationMetricsDto, csv, json, openmetrics};
use crate::error::{ApiResult, ErrorBody};
use crate::reply::blocking;
use crate::routes::root::{MetricsQuery, OPENMETRICS};
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(projects_metrics_retrieve);
}

/// The figures of every translation of a project's components (and of
/// those shared into it) the caller sees: by component path (with its
/// categories; `@id` after a shared one whose path the project uses) and
/// language code.
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug"), MetricsQuery),
    responses(
        (status = 200, description = "The figures", content(
            (std::collections::BTreeMap<String, std::collections::BTreeMap<String, TranslationMetricsDto>> = "application/json"),
            (String = "text/csv"),
            (String = "application/openmetrics-text")
        )),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/projects/{slug}/metrics/")]
async fn projects_metrics_retrieve(
    caller: Caller,
    slug: web::Path<String>,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query: MetricsQuery = crate::query::parse(req.query_string())?;
    let service = state.service.clone();
    let metrics = blocking(move || service.projects().metrics(&caller.0, &slug)).await?;
    Ok(
        if crate::negotiate::wants_openmetrics(&req, query.format.as_deref()) {
            HttpResponse::Ok()
                .insert_header((CONTENT_TYPE, OPENMETRICS))
                .body(openmetrics(&metrics))
        } else if crate::negotiate::wants_csv(&req) {
            HttpResponse::Ok()
                .insert_header((CONTENT_TYPE, "text/csv; charset=utf-8"))
                .body(csv(&metrics))
        } else {
            HttpResponse::Ok().json(json(&metrics))
        },
    )
}
