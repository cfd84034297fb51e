//! `/hooks/{service}/`: push notifications from Git hosts (§26), and the
//! deprecated `/hooks/update/…` that older integrations still call. Off
//! unless `TOLK_ENABLE_HOOKS=true` (then 405, as in Weblate).

use actix_web::http::header::CONTENT_TYPE;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde_json::Value;
use tolk_domain::hooks::{self, EventHeaders, HookError, SERVICES};
use tolk_domain::validation::FieldError;
use tolk_service::hooks::HookOutcome;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::dto::hook::{HookAnswer, HookForm, HookPayload, MatchStatus};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::input::Input;
use crate::reply::blocking;

/// Largest notification body taken: Git hosts send a few kilobytes (a
/// push of many commits some hundreds), and anyone may send one.
pub const HOOK_MAX_BODY: usize = 1024 * 1024;
use crate::links::Links;
use crate::routes::paths::ComponentPath;
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(receive)
        .service(update_project)
        .service(update_component);
}

fn refuse_unless_enabled(state: &AppState, method: &str) -> Result<(), ApiError> {
    if state.enable_hooks {
        Ok(())
    } else {
        Err(ApiError::TurnedOff {
            method: method.into(),
            why: "notifications from Git hosts are off on this server; \
                  set TOLK_ENABLE_HOOKS=true to accept them.",
        })
    }
}

/// A payload that is not what the service sends.
fn invalid(error: &HookError) -> ApiError {
    ApiError::Validation(vec![FieldError {
        attr: None,
        code: "invalid".into(),
        detail: error.to_string(),
    }])
}

/// The event: the JSON body, or the JSON text of the form field `payload`.
async fn payload_of(req: &HttpRequest, body: web::Payload) -> Result<Value, ApiError> {
    let json = req
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.split(';').next().unwrap_or("").trim() == "application/json");
    if json {
        let bytes = body
            .to_bytes_limited(HOOK_MAX_BODY)
            .await
            .map_err(|_| ApiError::TooLarge(HOOK_MAX_BODY))?
            .map_err(|e| ApiError::Parse(format!("Could not read the request body: {e}")))?;
        let value: Value = serde_json::from_slice(&bytes)
            .map_err(|e| ApiError::Parse(format!("JSON parse error - {e}")))?;
        return without_nul(value);
    }
    let form = Input::read_limited(req, body, HOOK_MAX_BODY)
        .await?
        .parse::<HookForm>()?;
    serde_json::from_str(&form.payload)
        .map_err(|_| ApiError::field("payload", "invalid", "Value must be valid JSON."))
        .and_then(without_nul)
}

/// The payload, unless a text of it holds a NUL character (`\u0000`):
/// no repository, branch or name has one, and no database stores one.
fn without_nul(payload: Value) -> Result<Value, ApiError> {
    fn holds_nul(value: &Value) -> bool {
        match value {
            Value::String(text) => text.contains('\0'),
            Value::Array(items) => items.iter().any(holds_nul),
            Value::Object(fields) => fields.iter().any(|(k, v)| k.contains('\0') || holds_nul(v)),
            _ => false,
        }
    }
    if holds_nul(&payload) {
        return Err(ApiError::field(
            "payload",
            "null_characters_not_allowed",
            crate::fields::NUL_MESSAGE,
        ));
    }
    Ok(payload)
}

fn answer(outcome: HookOutcome, links: &Links) -> HttpResponse {
    let names: Vec<String> = outcome
        .updated
        .iter()
        .map(|(p, c)| format!("{p}/{c}"))
        .collect();
    let urls: Vec<String> = outcome
        .updated
        .iter()
        .map(|(p, c)| links.api(&["components", p, &crate::links::nested(c)]))
        .collect();
    let match_status = Some(MatchStatus {
        repository_matches: outcome.repository_matches,
        branch_matches: outcome.branch_matches,
        enabled_hook_matches: outcome.updated.len() + outcome.hidden,
    });
    if names.is_empty() && outcome.hidden > 0 {
        // Updated, but nothing the caller may see is named.
        return HttpResponse::Ok().json(HookAnswer {
            message: "Update triggered.".into(),
            status: "success".into(),
            match_status,
            updated_components: Some(Vec::new()),
        });
    }
    if names.is_empty() {
        return HttpResponse::Accepted().json(HookAnswer {
            message: "No matching repositories found!".into(),
            status: "failure".into(),
            match_status,
            updated_components: None,
        });
    }
    HttpResponse::Ok().json(HookAnswer {
        message: format!("Update triggered: {}", names.join(", ")),
        status: "success".into(),
        match_status,
        updated_components: Some(urls),
    })
}

/// A push notification from a Git host: the components whose repository
/// and branch it names are updated in the background (pull and rescan).
/// No authentication; other events (pings) answer 201.
#[utoipa::path(
    tag = "hooks",
    params(("service" = String, Path, description = "github, gitlab, bitbucket, pagure, azure, gitea, forgejo or gitee")),
    request_body(content(
        (HookPayload = "application/json"),
        (HookForm = "application/x-www-form-urlencoded")
    )),
    responses(
        (status = 200, description = "Updates queued", body = HookAnswer),
        (status = 201, description = "Not a push: nothing to do", body = HookAnswer),
        (status = 202, description = "No component matches", body = HookAnswer),
        (status = 400, description = "Not a payload of the service", body = ErrorBody),
        (status = 404, description = "Unknown service", body = ErrorBody),
        (status = 405, description = "Notifications are off", body = ErrorBody)
    )
)]
#[post("/hooks/{service}/")]
async fn receive(
    service: web::Path<String>,
    req: HttpRequest,
    body: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    refuse_unless_enabled(&state, "POST")?;
    let service = service.into_inner();
    if !SERVICES.contains(&service.as_str()) {
        return Err(ApiError::NotFound(
            HookError::Unsupported(service).to_string(),
        ));
    }
    let payload = payload_of(&req, body).await?;
    let header = |name: &str| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let headers = EventHeaders {
        github_event: header("x-github-event"),
        bitbucket_event: header("x-event-key"),
    };
    let Some(event) = hooks::parse(&service, &headers, &payload).map_err(|e| invalid(&e))? else {
        return Ok(HttpResponse::Created().json(HookAnswer {
            message: "Hook working".into(),
            status: "success".into(),
            match_status: None,
            updated_components: None,
        }));
    };
    let service_state = state.service.clone();
    let outcome = blocking(move || service_state.hooks().notify(&service, &event)).await?;
    Ok(answer(outcome, &links))
}

/// Deprecated: updates every component of a project (pull and rescan).
#[utoipa::path(
    tag = "hooks",
    params(("project" = String, Path, description = "Project slug")),
    responses(
        (status = 200, description = "Updates queued", body = HookAnswer),
        (status = 202, description = "The project takes no notifications", body = HookAnswer),
        (status = 404, description = "Missing project", body = ErrorBody),
        (status = 405, description = "Notifications are off", body = ErrorBody)
    )
)]
#[get("/hooks/update/{project}/")]
async fn update_project(
    project: web::Path<String>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    refuse_unless_enabled(&state, "GET")?;
    let service = state.service.clone();
    let updated = blocking(move || service.hooks().notify_update(&project, None)).await?;
    Ok(legacy_answer(updated, &links))
}

/// Deprecated: updates one component (pull and rescan).
#[utoipa::path(
    tag = "hooks",
    params(ComponentPath),
    responses(
        (status = 200, description = "Update queued", body = HookAnswer),
        (status = 202, description = "The project takes no notifications", body = HookAnswer),
        (status = 404, description = "Missing component", body = ErrorBody),
        (status = 405, description = "Notifications are off", body = ErrorBody)
    )
)]
#[get("/hooks/update/{project}/{component}/")]
async fn update_component(
    path: web::Path<ComponentPath>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    refuse_unless_enabled(&state, "GET")?;
    let service = state.service.clone();
    let updated = blocking(move || {
        service
            .hooks()
            .notify_update(&path.project, Some(&path.component))
    })
    .await?;
    Ok(legacy_answer(updated, &links))
}

fn legacy_answer(updated: Vec<(String, String)>, links: &Links) -> HttpResponse {
    let count = updated.len();
    answer(
        HookOutcome {
            repository_matches: count,
            branch_matches: count,
            updated,
            hidden: 0,
        },
        links,
    )
}
