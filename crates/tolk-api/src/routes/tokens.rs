//! Tokens: a project's tokens (`/api/projects/{slug}/tokens/`), and one's
//! own personal token (`/api/users/{username}/token/`).

use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use tolk_service::project_tokens::NewProjectToken;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::token::{ProjectTokenCreate, ProjectTokenCreated, ProjectTokenDto, TokenKey};
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::reply::blocking;
use crate::routes::helpers::with_body;
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(tokens_list)
        .service(tokens_create)
        .service(tokens_delete)
        .service(token_rotate)
        .service(token_delete);
}

/// The tokens of a project (needs `project.permissions`).
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug")),
    responses(
        (status = 200, description = "The project's tokens", body = Vec<ProjectTokenDto>),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/projects/{slug}/tokens/")]
async fn tokens_list(
    caller: Caller,
    slug: web::Path<String>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Vec<ProjectTokenDto>>> {
    let service = state.service.clone();
    let found = blocking(move || service.tokens().list(&caller.0, &slug)).await?;
    Ok(web::Json(
        found
            .iter()
            .map(|t| ProjectTokenDto::new(t, &links))
            .collect(),
    ))
}

/// Makes a project token (needs `project.permissions`): a bot account in
/// one of the project's teams, which reaches this project only. The key is
/// in the answer, and nowhere else afterwards.
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug")),
    request_body = ProjectTokenCreate,
    responses(
        (status = 201, description = "Made", body = ProjectTokenCreated),
        (status = 400, description = "Invalid fields", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[post("/api/projects/{slug}/tokens/")]
async fn tokens_create(
    caller: Caller,
    slug: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let (token, key) = with_body(&req, payload, move |input, _| {
        let body = input.parse::<ProjectTokenCreate>()?;
        let new = NewProjectToken {
            name: body.name,
            team_id: body.team_id,
            expires: body.expires.map(|t| t.0),
        };
        service.tokens().create(&caller.0, &slug, new)
    })
    .await?;
    Ok(HttpResponse::Created().json(ProjectTokenCreated {
        token: ProjectTokenDto::new(&token, &links),
        token_key: key,
    }))
}

/// Revokes a project token (needs `project.permissions`): its key stops
/// working and its bot is deactivated.
#[utoipa::path(
    tag = "projects",
    params(
        ("slug" = String, Path, description = "Project slug"),
        ("id" = i64, Path, description = "Token id")
    ),
    responses(
        (status = 204, description = "Revoked"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/projects/{slug}/tokens/{id}/")]
async fn tokens_delete(
    caller: Caller,
    path: web::Path<(String, i64)>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let (slug, id) = path.into_inner();
    blocking(move || service.tokens().revoke(&caller.0, &slug, id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Replaces one's personal tokens with a new one (user managers may for
/// anybody); the key is in the answer only.
#[utoipa::path(
    tag = "users",
    params(("username" = String, Path, description = "Username")),
    responses(
        (status = 200, description = "The new key", body = TokenKey),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[post("/api/users/{username}/token/")]
async fn token_rotate(
    caller: Caller,
    username: web::Path<String>,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<TokenKey>> {
    let service = state.service.clone();
    let token = blocking(move || service.tokens().rotate_user_token(&caller.0, &username)).await?;
    Ok(web::Json(TokenKey { token }))
}

/// Revokes one's personal tokens (user managers may for anybody).
#[utoipa::path(
    tag = "users",
    params(("username" = String, Path, description = "Username")),
    responses(
        (status = 204, description = "Revoked"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/users/{username}/token/")]
async fn token_delete(
    caller: Caller,
    username: web::Path<String>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || service.tokens().revoke_user_tokens(&caller.0, &username)).await?;
    Ok(HttpResponse::NoContent().finish())
}
