//! `/api/users/`.

use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, put, web};
use serde::Deserialize;
use tolk_domain::user::{UserCreate, UserFields, UserPatch};
use tolk_service::users::{Detail, UserQuery, UserState, UserView};
use utoipa::IntoParams;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::translation::TranslationDto;
use crate::dto::user::UserDto;
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD, page_request, paginated};
use crate::query;
use crate::reply::{blocking, created};
use crate::routes::helpers::{page_of, with_body};
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list)
        .service(create)
        .service(detail)
        .service(replace)
        .service(modify)
        .service(remove)
        .service(join_group)
        .service(leave_group)
        .service(statistics)
        .service(contributions);
}

/// The account `current` with the body's changes: user managers change
/// every field, others only their own name, e-mail and profile.
fn edited(current: &UserState, mut patch: UserPatch, level: Detail) -> UserState {
    if level == Detail::Basic {
        patch.username = None;
        patch.is_superuser = None;
        patch.is_active = None;
        patch.is_bot = None;
        patch.date_expires = None;
    }
    let mut next = current.clone();
    if let Some(mut profile) = patch.profile.take() {
        for (given, kept) in [
            (profile.languages.take(), &mut next.languages),
            (
                profile.secondary_languages.take(),
                &mut next.secondary_languages,
            ),
            (profile.watched.take(), &mut next.watched),
        ] {
            if let Some(given) = given {
                *kept = given;
            }
        }
        profile.apply(&mut next.settings);
    }
    patch.apply(&mut next.fields);
    next
}

/// Filters of the user list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct UserFilters {
    /// Usernames starting with this (at least two characters for non-managers).
    username: Option<String>,
    /// Only this id.
    id: Option<i64>,
    /// Only active or inactive accounts.
    is_active: Option<bool>,
    /// E-mail, without case (user managers only).
    email: Option<String>,
}

fn shape(view: &UserView, level: Detail, links: &Links) -> UserDto {
    match level {
        Detail::Full => UserDto::full(view, links),
        Detail::Basic => UserDto::basic(view),
    }
}

/// Lists accounts: all for user managers, oneself (or username prefix
/// matches of two characters or more) for other users, none for anonymous callers.
#[utoipa::path(
    tag = "users",
    params(UserFilters, PageQuery),
    responses(
        (status = 200, description = "A page of accounts", body = Paginated<UserDto>),
        (status = 404, description = "Invalid page", body = ErrorBody)
    )
)]
#[get("/api/users/")]
async fn list(
    caller: Caller,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<UserDto>>> {
    let filters: UserFilters = query::parse(req.query_string())?;
    let query = UserQuery {
        id: filters.id,
        username: filters.username,
        is_active: filters.is_active,
        email: filters.email,
    };
    let request = page_request(&req, STANDARD)?;
    let service = state.service.clone();
    let (page, level) = blocking(move || service.users().list(&caller.0, query, request)).await?;
    Ok(web::Json(paginated(&req, &links, page, |v| {
        shape(&v, level, &links)
    })))
}

/// Creates an account (needs `user.edit`); a profile given here is ignored.
#[utoipa::path(
    tag = "users",
    request_body = UserCreate,
    responses(
        (status = 201, description = "Created", body = UserDto),
        (status = 400, description = "Invalid fields", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody)
    )
)]
#[post("/api/users/")]
async fn create(
    caller: Caller,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, _| {
        let fields = input.parse::<UserCreate>().map(|body| {
            let mut fields = UserFields::default();
            body.apply(&mut fields);
            fields
        });
        service.users().create(&caller.0, fields)
    })
    .await?;
    let url = links.api(&["users", &view.row.username]);
    Ok(created(&url, UserDto::full(&view, &links)))
}

/// One account; anonymous callers see none.
#[utoipa::path(
    tag = "users",
    params(("username" = String, Path, description = "Username")),
    responses(
        (status = 200, description = "The account", body = UserDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/users/{username}/")]
async fn detail(
    caller: Caller,
    username: web::Path<String>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<UserDto>> {
    let service = state.service.clone();
    let (view, level) = blocking(move || service.users().get(&caller.0, &username)).await?;
    Ok(web::Json(shape(&view, level, &links)))
}

put_and_patch! {
    tag: "users",
    path: "/api/users/{username}/",
    params: [("username" = String, Path, description = "Username")],
    key: String,
    create: UserCreate,
    patch: UserPatch,
    response: UserDto,
    put: "Replaces an account (own account, or `user.edit`): `username`, `full_name` and `email` must be given; fields left out keep their values, and `profile` is merged.",
    patch_doc: "Changes the given fields of an account (own account, or `user.edit`); `profile` is merged.",
}

/// PUT and PATCH: the body's fields over the current ones.
async fn change(
    caller: Caller,
    username: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<UserDto>> {
    let service = state.service.clone();
    let (view, level) = with_body(&req, payload, move |input, partial| {
        service
            .users()
            .update(&caller.0, &username, |current, level| {
                let patch = input.parse_change::<UserCreate, UserPatch>(partial)?;
                Ok(edited(current, patch, level))
            })
    })
    .await?;
    Ok(web::Json(match level {
        Detail::Full => UserDto::full(&view, &links),
        Detail::Basic => UserDto::own(&view, &links),
    }))
}

/// Anonymises and deactivates an account (needs `user.edit`).
#[utoipa::path(
    tag = "users",
    params(("username" = String, Path, description = "Username")),
    responses(
        (status = 204, description = "Removed"),
        (status = 400, description = "The last active superuser", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/users/{username}/")]
async fn remove(
    caller: Caller,
    username: web::Path<String>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || service.users().delete(&caller.0, &username)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// A team to put a user in or take them out of.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
pub struct UserGroupBody {
    /// The team's id.
    pub group_id: Option<i64>,
    /// Language codes to limit the membership to: the team's roles reach
    /// the user in these languages only (none: every language of the team).
    pub limit_language_codes: Option<Vec<String>>,
}

/// Puts a user in a team or takes them out (needs `user.edit`).
async fn membership(
    caller: Caller,
    username: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
    member: bool,
) -> ApiResult<web::Json<UserDto>> {
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, _| {
        let body = input.parse::<UserGroupBody>()?;
        let languages = body.limit_language_codes.unwrap_or_default();
        service
            .groups()
            .set_user_groups(&caller.0, &username, body.group_id, &languages, member)
    })
    .await?;
    Ok(web::Json(UserDto::full(&view, &links)))
}

/// Puts a user in a team (needs `user.edit`).
#[utoipa::path(
    tag = "users",
    params(("username" = String, Path, description = "Username")),
    request_body = UserGroupBody,
    responses(
        (status = 200, description = "The user", body = UserDto),
        (status = 400, description = "Missing or unknown team", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[post("/api/users/{username}/groups/")]
async fn join_group(
    caller: Caller,
    username: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<UserDto>> {
    membership(caller, username, req, payload, links, state, true).await
}

/// Takes a user out of a team (needs `user.edit`); the team is named in
/// the body, as Weblate has it. A project token keeps one team.
#[utoipa::path(
    tag = "users",
    params(("username" = String, Path, description = "Username")),
    request_body = UserGroupBody,
    responses(
        (status = 200, description = "The user", body = UserDto),
        (status = 400, description = "Missing or unknown team, or a token's last team", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/users/{username}/groups/")]
async fn leave_group(
    caller: Caller,
    username: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<UserDto>> {
    membership(caller, username, req, payload, links, state, false).await
}

/// A user's contribution counters (§3.3).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct UserStatisticsDto {
    /// Strings translated.
    pub translated: i64,
    /// Suggestions made.
    pub suggested: i64,
    /// Files uploaded.
    pub uploaded: i64,
    /// Comments posted.
    pub commented: i64,
    /// Languages in the profile.
    pub languages: i64,
}

/// A user's contribution counters, kept up to date as they work.
#[utoipa::path(
    tag = "users",
    params(("username" = String, Path, description = "Username")),
    responses(
        (status = 200, description = "The counters", body = UserStatisticsDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/users/{username}/statistics/")]
async fn statistics(
    caller: Caller,
    username: web::Path<String>,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<UserStatisticsDto>> {
    let service = state.service.clone();
    let found = blocking(move || service.users().statistics(&caller.0, &username)).await?;
    Ok(web::Json(UserStatisticsDto {
        translated: found.translated,
        suggested: found.suggested,
        uploaded: found.uploaded,
        commented: found.commented,
        languages: found.languages,
    }))
}

/// The translations a user changed content in (translated, uploaded,
/// accepted suggestions, added or edited strings...), among those the
/// caller sees, by id.
#[utoipa::path(
    tag = "users",
    params(("username" = String, Path, description = "Username"), PageQuery),
    responses(
        (status = 200, description = "A page of translations", body = Paginated<TranslationDto>),
        (status = 404, description = "Missing or hidden user, or invalid page", body = ErrorBody)
    )
)]
#[get("/api/users/{username}/contributions/")]
async fn contributions(
    caller: Caller,
    username: web::Path<String>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<TranslationDto>>> {
    let service = state.service.clone();
    let subject = caller.0.clone();
    let fetch = move |request| service.users().contributions(&caller.0, &username, request);
    page_of(&req, &links, STANDARD, fetch, |t| {
        TranslationDto::new(t, &links, Some(&subject))
    })
    .await
}
