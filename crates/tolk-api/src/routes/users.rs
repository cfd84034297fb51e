//! `/api/users/`.

use actix_web::{HttpRequest, HttpResponse, delete, get, post, route, web};
use chrono::NaiveDateTime;
use serde::{Deserialize, Serialize};
use tolk_domain::user::{ProfileSettings, UserFields};
use tolk_service::users::{Detail, UserQuery, UserState, UserView};
use utoipa::IntoParams;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::Caller;
use crate::dto::user::UserDto;
use crate::error::{ApiResult, ErrorBody};
use crate::input::{Field, Kind};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD, page_request, paginated};
use crate::query;
use crate::routes::with_body;
use crate::state::AppState;
use crate::{blocking, created};

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list)
        .service(create)
        .service(detail)
        .service(update)
        .service(remove);
}

const PROFILE_FIELDS: &[Field] = &[
    Field::optional("language", Kind::Str),
    Field::optional("languages", Kind::StrList),
    Field::optional("secondary_languages", Kind::StrList),
    Field::optional("theme", Kind::Str),
    Field::optional("hide_completed", Kind::Bool),
    Field::optional("secondary_in_zen", Kind::Bool),
    Field::optional("hide_source_secondary", Kind::Bool),
    Field::optional("wide_tables", Kind::Bool),
    Field::optional("listing_columns", Kind::StrList),
    Field::optional("editor_link", Kind::Str),
    Field::optional("translate_mode", Kind::Int),
    Field::optional("zen_mode", Kind::Int),
    Field::optional("special_chars", Kind::Str),
    Field::optional("nearby_strings", Kind::Int),
    Field::optional("auto_watch", Kind::Bool),
    Field::optional("contribute_personal_tm", Kind::Bool),
    Field::optional("dashboard_view", Kind::Int),
    Field::optional("watched", Kind::StrList),
    Field::optional("website", Kind::Str),
    Field::optional("contact", Kind::Str),
    Field::optional("liberapay", Kind::Str),
    Field::optional("fediverse", Kind::Str),
    Field::optional("codesite", Kind::Str),
    Field::optional("github", Kind::Str),
    Field::optional("twitter", Kind::Str),
    Field::optional("linkedin", Kind::Str),
    Field::optional("location", Kind::Str),
    Field::optional("company", Kind::Str),
    Field::optional("public_email", Kind::Str),
    Field::optional("commit_email", Kind::Str),
    Field::optional("commit_name", Kind::Int),
];

/// Fields user managers write.
const FULL_FIELDS: &[Field] = &[
    Field::required("username", Kind::Str),
    Field::required("full_name", Kind::Str),
    Field::required("email", Kind::Str),
    Field::optional("is_superuser", Kind::Bool),
    Field::optional("is_active", Kind::Bool),
    Field::optional("is_bot", Kind::Bool),
    Field::optional("date_expires", Kind::OptDateTime),
    Field::optional("profile", Kind::Object(PROFILE_FIELDS)),
];

/// Fields users write on their own account.
const OWN_FIELDS: &[Field] = &[
    Field::required("full_name", Kind::Str),
    Field::required("email", Kind::Str),
    Field::optional("profile", Kind::Object(PROFILE_FIELDS)),
];

/// An account as a request body writes it.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct UserInput {
    username: String,
    full_name: String,
    email: String,
    is_superuser: bool,
    is_active: bool,
    is_bot: bool,
    date_expires: Option<NaiveDateTime>,
    profile: ProfileInput,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct ProfileInput {
    #[serde(flatten)]
    settings: ProfileSettings,
    languages: Vec<String>,
    secondary_languages: Vec<String>,
    watched: Vec<String>,
}

impl From<&UserState> for UserInput {
    fn from(s: &UserState) -> Self {
        let f = &s.fields;
        Self {
            username: f.username.clone(),
            full_name: f.full_name.clone(),
            email: f.email.clone(),
            is_superuser: f.is_superuser,
            is_active: f.is_active,
            is_bot: f.is_bot,
            date_expires: f.date_expires,
            profile: ProfileInput {
                settings: s.settings.clone(),
                languages: s.languages.clone(),
                secondary_languages: s.secondary_languages.clone(),
                watched: s.watched.clone(),
            },
        }
    }
}

impl From<UserInput> for UserState {
    fn from(i: UserInput) -> Self {
        Self {
            fields: UserFields {
                username: i.username,
                full_name: i.full_name,
                email: i.email,
                is_superuser: i.is_superuser,
                is_active: i.is_active,
                is_bot: i.is_bot,
                date_expires: i.date_expires,
            },
            settings: i.profile.settings,
            languages: i.profile.languages,
            secondary_languages: i.profile.secondary_languages,
            watched: i.profile.watched,
        }
    }
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
    let (page, level) = blocking(move || service.users(&caller.0, query, request)).await?;
    Ok(web::Json(paginated(&req, &links, page, |v| {
        shape(&v, level, &links)
    })))
}

/// Creates an account (needs `user.edit`).
#[utoipa::path(
    tag = "users",
    request_body(content = Object, description = "`username`, `full_name`, `email`, optional `is_superuser`, `is_active`, `is_bot`, `date_expires`"),
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
    let empty = UserState {
        fields: UserFields {
            username: String::new(),
            full_name: String::new(),
            email: String::new(),
            is_superuser: false,
            is_active: true,
            is_bot: false,
            date_expires: None,
        },
        settings: ProfileSettings::default(),
        languages: Vec::new(),
        secondary_languages: Vec::new(),
        watched: Vec::new(),
    };
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, _| {
        let fields = input
            .apply(&UserInput::from(&empty), FULL_FIELDS, false)
            .map(|i| UserState::from(i).fields);
        service.create_user(&caller.0, fields)
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
    let (view, level) = blocking(move || service.user(&caller.0, &username)).await?;
    Ok(web::Json(shape(&view, level, &links)))
}

/// Changes an account (own account, or `user.edit`): PUT sets every
/// field; PATCH changes only the given fields. `profile` is always merged.
#[utoipa::path(
    tag = "users",
    params(("username" = String, Path, description = "Username")),
    request_body(content = Object, description = "Account fields"),
    responses(
        (status = 200, description = "Updated", body = UserDto),
        (status = 400, description = "Invalid fields", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[route("/api/users/{username}/", method = "PUT", method = "PATCH")]
async fn update(
    caller: Caller,
    username: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<UserDto>> {
    let service = state.service.clone();
    let (view, level) = with_body(&req, payload, move |input, partial| {
        service.update_user(&caller.0, &username, |current, level| {
            let fields = match level {
                Detail::Full => FULL_FIELDS,
                Detail::Basic => OWN_FIELDS,
            };
            input
                .apply(&UserInput::from(current), fields, partial)
                .map(UserState::from)
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
    blocking(move || service.delete_user(&caller.0, &username)).await?;
    Ok(HttpResponse::NoContent().finish())
}
