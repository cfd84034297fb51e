//! What operators and their orchestrators ask: `/healthz` (the process
//! answers), `/readyz` (it can work: database, data directory, Git) and
//! `/metrics` (the server's own figures for Prometheus). None needs an
//! account, none reads a project's data; `/metrics` may be protected by a
//! bearer token of the configuration.

use actix_web::http::StatusCode;
use actix_web::http::header::{AUTHORIZATION, CONTENT_TYPE};
use actix_web::{HttpRequest, HttpResponse, get, web};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::info::Info;
use prometheus_client::registry::Registry;
use serde::Serialize;
use tolk_service::operations::{Operations, Readiness};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use super::root::OPENMETRICS;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::request_metrics::RequestMetrics;
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(healthz).service(readyz).service(metrics);
}

/// The answer of `/healthz`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Alive {
    /// Always `ok`.
    pub status: &'static str,
}

/// How one thing the server needs works: `ok` or `failing`.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum CheckState {
    /// It works.
    Ok,
    /// It does not (the log says why).
    Failing,
}

impl From<bool> for CheckState {
    fn from(works: bool) -> Self {
        if works { Self::Ok } else { Self::Failing }
    }
}

/// The checks of `/readyz`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReadyChecks {
    /// A statement on the database.
    pub database: CheckState,
    /// A file written in the data directory.
    pub data_directory: CheckState,
    /// The Git binary run.
    pub git: CheckState,
}

/// The answer of `/readyz`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Ready {
    /// `ready`, or `not ready` when a check fails.
    pub status: &'static str,
    /// Each check.
    pub checks: ReadyChecks,
}

impl From<Readiness> for Ready {
    fn from(found: Readiness) -> Self {
        Ready {
            status: if found.ready() { "ready" } else { "not ready" },
            checks: ReadyChecks {
                database: found.database.into(),
                data_directory: found.data_directory.into(),
                git: found.git.into(),
            },
        }
    }
}

/// Whether the process answers; reads nothing.
#[utoipa::path(
    tag = "operations",
    responses((status = 200, description = "Alive", body = Alive))
)]
#[get("/healthz")]
async fn healthz() -> web::Json<Alive> {
    web::Json(Alive { status: "ok" })
}

/// Whether the server can work: its database answers, its data directory
/// takes files and Git runs; 503 when one fails (the log says why).
#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, description = "Ready", body = Ready),
        (status = 503, description = "Not ready", body = Ready)
    )
)]
#[get("/readyz")]
async fn readyz(state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let found = crate::reply::blocking(move || Ok(service.site().readiness())).await?;
    let status = if found.ready() {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    Ok(HttpResponse::build(status).json(Ready::from(found)))
}

/// The server's own figures in the OpenMetrics text format (Prometheus's
/// classic text format to clients that accept `text/plain` and not
/// OpenMetrics): requests by route, method and status with their
/// durations, tasks by state, database connections and statements, Git
/// processes. With a metrics token configured, only for
/// `Authorization: Bearer TOKEN`.
#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, description = "Metrics: OpenMetrics, or Prometheus's classic text format for `Accept: text/plain`", content(
            (String = "application/openmetrics-text"),
            (String = "text/plain")
        )),
        (status = 401, description = "A metrics token is configured and was not given", body = ErrorBody)
    )
)]
#[get("/metrics")]
async fn metrics(req: HttpRequest, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    if let Some(token) = &state.metrics_token {
        let given = req
            .headers()
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or("");
        if !constant_time_eq::constant_time_eq(given.as_bytes(), token.as_bytes()) {
            return Err(ApiError::AuthenticationFailed(
                "Give the metrics token as Authorization: Bearer TOKEN.".into(),
            ));
        }
    }
    let service = state.service.clone();
    let found = crate::reply::blocking(move || service.site().operations()).await?;
    let text = exposition(&state.request_metrics, found)
        .map_err(|e| ApiError::Internal(format!("encoding metrics: {e}")))?;
    let (media, text) = if wants_classic_text(&req) {
        (PROMETHEUS_TEXT, classic_text(&text))
    } else {
        (OPENMETRICS, text)
    };
    Ok(HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, media))
        .body(text))
}

/// The media type of Prometheus's classic text format (0.0.4).
const PROMETHEUS_TEXT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Whether the client asks for the classic text format rather than
/// OpenMetrics: it accepts `text/plain` and does not name OpenMetrics
/// (older Prometheus tools, such as `promtool` 2.42, read only that).
fn wants_classic_text(req: &HttpRequest) -> bool {
    req.headers()
        .get(actix_web::http::header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("text/plain") && !a.contains("application/openmetrics-text"))
}

/// The OpenMetrics exposition `openmetrics` in the classic text format:
/// an `info` family becomes a gauge named `…_info`, a counter family is
/// named as its `…_total` samples, and `# UNIT` and `# EOF` go; the
/// samples stay as they are.
fn classic_text(openmetrics: &str) -> String {
    let mut renamed: std::collections::HashMap<&str, (String, &str)> = Default::default();
    for line in openmetrics.lines() {
        if let Some((name, kind)) = line.strip_prefix("# TYPE ").and_then(|r| r.split_once(' ')) {
            let classic = match kind {
                "info" => (format!("{name}_info"), "gauge"),
                "counter" => (format!("{name}_total"), "counter"),
                other => (name.to_owned(), other),
            };
            renamed.insert(name, classic);
        }
    }
    let mut text = String::with_capacity(openmetrics.len());
    for line in openmetrics.lines() {
        if line == "# EOF" || line.starts_with("# UNIT ") {
            continue;
        }
        let comment = ["# TYPE ", "# HELP "]
            .into_iter()
            .find_map(|p| Some((p, line.strip_prefix(p)?.split_once(' ')?)));
        match comment {
            Some((prefix, (name, rest))) if renamed.contains_key(name) => {
                let (classic, kind) = &renamed[name];
                let rest = if prefix == "# TYPE " { kind } else { rest };
                text.push_str(&format!("{prefix}{classic} {rest}\n"));
            }
            _ => {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    text
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StateLabel {
    state: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct GitLabels {
    command: &'static str,
    outcome: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CommandLabel {
    command: &'static str,
}

/// The text of `/metrics`: the request figures kept since the start and
/// the others as they are now.
fn exposition(requests: &RequestMetrics, now: Operations) -> Result<String, std::fmt::Error> {
    let mut registry = Registry::with_prefix("tolk");
    registry.register(
        "build",
        "The running version",
        Info::new(vec![("version", env!("CARGO_PKG_VERSION"))]),
    );
    registry.register(
        "http_requests",
        "Requests answered, by route, method and status",
        requests.requests.clone(),
    );
    registry.register(
        "http_request_duration_seconds",
        "Time to answer a request, by route and method",
        requests.durations.clone(),
    );
    let tasks = Family::<StateLabel, Gauge>::default();
    for (state, count) in [
        ("queued", now.tasks.queued),
        ("running", now.tasks.running),
        ("failed", now.tasks.failed),
    ] {
        tasks.get_or_create(&StateLabel { state }).set(count);
    }
    registry.register("tasks", "Background tasks by state", tasks);
    let pool = Family::<StateLabel, Gauge>::default();
    let busy = now.pool.open.saturating_sub(now.pool.idle);
    for (state, count) in [("idle", now.pool.idle), ("in_use", busy)] {
        pool.get_or_create(&StateLabel { state })
            .set(i64::from(count));
    }
    registry.register("db_connections", "Open database connections", pool);
    let size = Gauge::<i64>::default();
    size.set(i64::from(now.pool.size));
    registry.register(
        "db_pool_size",
        "Database connections the pool may open",
        size,
    );
    let statements = Counter::<u64>::default();
    statements.inc_by(now.statements);
    registry.register("db_statements", "SQL statements run", statements);
    let processes = Family::<GitLabels, Counter>::default();
    let seconds = Family::<CommandLabel, Counter<f64>>::default();
    for (command, tally) in now.git {
        for (outcome, count) in [("success", tally.succeeded), ("failure", tally.failed)] {
            processes
                .get_or_create(&GitLabels { command, outcome })
                .inc_by(count);
        }
        seconds
            .get_or_create(&CommandLabel { command })
            .inc_by(tally.seconds);
    }
    registry.register(
        "git_processes",
        "Git processes run, by subcommand and outcome",
        processes,
    );
    registry.register(
        "git_process_seconds",
        "Time Git processes took, by subcommand",
        seconds,
    );
    let mut text = String::new();
    prometheus_client::encoding::text::encode(&mut text, &registry)?;
    Ok(text)
}
