//! The API root and site metrics.

use actix_web::http::header::CONTENT_TYPE;
use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::metrics::MetricsDto;
use crate::dto::root::ApiRootDto;
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::state::AppState;

/// Media type of the OpenMetrics text format.
pub(super) const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(api_root).service(metrics);
}

/// Links to every resource list.
#[utoipa::path(
    tag = "root",
    responses((status = 200, description = "Resource lists", body = ApiRootDto))
)]
#[get("/api/")]
async fn api_root(links: Links) -> web::Json<ApiRootDto> {
    web::Json(ApiRootDto::new(&links))
}

/// How metrics (the site's, a project's) are asked for.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MetricsQuery {
    /// `json` (the default), `api` (a browsable page), `csv` (a table; for
    /// a project one row per figure: `component,language,metric,name,value`)
    /// or `openmetrics` (the OpenMetrics text format).
    #[param(schema_with = metrics_formats)]
    pub format: Option<String>,
}

/// The representations of `/api/metrics/`.
fn metrics_formats() -> utoipa::openapi::schema::Object {
    crate::schemas::text_choices(["json", "api", "csv", "openmetrics"])
}

/// Site-wide counts, as JSON or (with `?format=openmetrics` or
/// `Accept: application/openmetrics-text`) as OpenMetrics text.
#[utoipa::path(
    tag = "root",
    params(MetricsQuery),
    responses(
        (status = 200, description = "Metrics", content(
            (MetricsDto = "application/json"),
            (String = "application/openmetrics-text")
        )),
        (status = 401, description = "Not signed in", body = ErrorBody)
    )
)]
#[get("/api/metrics/")]
async fn metrics(
    caller: Caller,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let found = crate::reply::blocking(move || service.site().metrics(&caller.0)).await?;
    let dto = MetricsDto::new(found, &state.service.config().site_title);
    let query: MetricsQuery = crate::query::parse(req.query_string())?;
    Ok(
        if crate::negotiate::wants_openmetrics(&req, query.format.as_deref()) {
            HttpResponse::Ok()
                .insert_header((CONTENT_TYPE, OPENMETRICS))
                .body(dto.openmetrics())
        } else {
            HttpResponse::Ok().json(dto)
        },
    )
}
