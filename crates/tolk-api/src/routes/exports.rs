//! `/exports/stats/…` (§28): the statistics exports old scripts still
//! call, per translation of a component or per language of a project, as
//! pretty-printed JSON or (`?format=csv`) as CSV with Weblate 5.x's columns.

use actix_web::http::header::{ContentDisposition, DispositionParam, DispositionType};
use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::statistics::StatisticsDto;
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::reply::blocking;
use crate::routes::paths::ComponentPath;
use crate::routes::projects::language_statistics;
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(component_stats).service(project_stats);
}

/// How an export is written.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// `csv` for CSV; anything else gives JSON.
    pub format: Option<String>,
}

/// One row of a statistics export, in Weblate 5.x's column order.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct StatsRow {
    /// Language name.
    pub name: String,
    /// Language code.
    pub code: Option<String>,
    /// All strings.
    pub total: i64,
    /// Translated strings.
    pub translated: i64,
    /// Percentage of translated strings.
    pub translated_percent: f64,
    /// Percentage of translated words.
    pub translated_words_percent: f64,
    /// Source words of all strings.
    pub total_words: i64,
    /// Words of translated strings.
    pub translated_words: i64,
    /// Source characters of all strings.
    pub total_chars: i64,
    /// Characters of translated strings.
    pub translated_chars: i64,
    /// Percentage of translated characters.
    pub translated_chars_percent: f64,
    /// Strings with failing checks.
    pub failing: i64,
    /// Percentage of strings with failing checks.
    pub failing_percent: f64,
    /// Strings needing editing.
    pub fuzzy: i64,
    /// Percentage of strings needing editing.
    pub fuzzy_percent: f64,
    /// Browser link to translate (the older name).
    pub url_translate: Option<String>,
    /// Browser link of the translation.
    pub url: String,
    /// Browser link to translate.
    pub translate_url: Option<String>,
    /// Time of the last change.
    pub last_change: Option<String>,
    /// Who made the last change, where known.
    pub last_author: Option<String>,
    /// Content changes within six hours before the last change.
    pub recent_changes: i64,
    /// Read-only strings.
    pub readonly: i64,
    /// Percentage of read-only strings.
    pub readonly_percent: f64,
    /// Approved strings.
    pub approved: i64,
    /// Percentage of approved strings.
    pub approved_percent: f64,
    /// Strings with suggestions.
    pub suggestions: i64,
    /// Strings with unresolved comments.
    pub comments: i64,
}

impl StatsRow {
    fn new(s: StatisticsDto, last_author: Option<String>) -> StatsRow {
        StatsRow {
            url_translate: s.translate_url.clone(),
            name: s.name,
            code: s.code,
            total: s.total,
            translated: s.translated,
            translated_percent: s.translated_percent,
            translated_words_percent: s.translated_words_percent,
            total_words: s.total_words,
            translated_words: s.translated_words,
            total_chars: s.total_chars,
            translated_chars: s.translated_chars,
            translated_chars_percent: s.translated_chars_percent,
            failing: s.failing,
            failing_percent: s.failing_percent,
            fuzzy: s.fuzzy,
            fuzzy_percent: s.fuzzy_percent,
            url: s.url,
            translate_url: s.translate_url,
            last_change: s.last_change,
            last_author,
            recent_changes: s.recent_changes,
            readonly: s.readonly,
            readonly_percent: s.readonly_percent,
            approved: s.approved,
            approved_percent: s.approved_percent,
            suggestions: s.suggestions,
            comments: s.comments,
        }
    }
}

/// The export of `rows` as JSON (two-space indent) or CSV (`stem.csv`).
fn export(req: &HttpRequest, stem: &str, mut rows: Vec<StatsRow>) -> ApiResult<HttpResponse> {
    let query: ExportQuery = crate::query::parse(req.query_string())?;
    rows.sort_by(|a, b| a.code.cmp(&b.code));
    let values: Vec<serde_json::Value> = rows
        .iter()
        .map(|row| serde_json::to_value(row).unwrap_or_default())
        .collect();
    if query.format.as_deref() != Some("csv") {
        let json = serde_json::to_string_pretty(&values).unwrap_or_default();
        return Ok(HttpResponse::Ok()
            .content_type("application/json")
            .body(json));
    }
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(format!("{stem}.csv"))],
        })
        .body(crate::csv::in_order(&values)))
}

/// Statistics of each translation of a component, by language code.
#[utoipa::path(
    tag = "exports",
    params(ComponentPath, ExportQuery),
    responses(
        (status = 200, description = "One row per translation", body = Vec<StatsRow>),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/exports/stats/{project}/{component}/")]
async fn component_stats(
    caller: Caller,
    path: web::Path<ComponentPath>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let stem = format!("stats-{}-{}", path.project, path.component);
    let all = tolk_service::PageRequest {
        number: Some(1),
        size: 100_000,
    };
    let page = blocking(move || {
        service.translations().component_statistics(
            &caller.0,
            (&path.project, &path.component),
            all,
        )
    })
    .await?;
    let rows = page
        .items
        .iter()
        .map(|(view, summary)| {
            let statistics = StatisticsDto::of_translation(view, summary, &links);
            StatsRow::new(statistics, view.last_author.clone())
        })
        .collect();
    export(&req, &stem, rows)
}

/// Statistics of each language of a project.
#[utoipa::path(
    tag = "exports",
    params(("project" = String, Path, description = "Project slug"), ExportQuery),
    responses(
        (status = 200, description = "One row per language", body = Vec<StatsRow>),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/exports/stats/{project}/")]
async fn project_stats(
    caller: Caller,
    project: web::Path<String>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let stem = format!("stats-{project}");
    let (project, languages) =
        blocking(move || service.projects().languages(&caller.0, &project)).await?;
    let rows = language_statistics(&project, &languages, &links)
        .into_iter()
        .map(|statistics| StatsRow::new(statistics, None))
        .collect();
    export(&req, &stem, rows)
}
