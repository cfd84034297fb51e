//! `/api/users/{username}/notifications/`: a user's subscriptions, managed
//! by the user (or a user manager).

use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, put, web};
use serde::Deserialize;
use tolk_domain::notification::{SubscriptionCreate, SubscriptionPatch};
use utoipa::IntoParams;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::notification::SubscriptionDto;
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD};
use crate::reply::blocking;
use crate::routes::helpers::{page_of, with_body};
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(notifications_list)
        .service(notifications_create)
        .service(notification_detail)
        .service(replace)
        .service(modify)
        .service(notification_delete);
}

/// A subscription's place.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct SubscriptionPath {
    /// Username.
    pub username: String,
    /// Subscription id.
    pub id: i64,
}

/// A user's subscriptions (oneself, or with `user.edit`).
#[utoipa::path(
    tag = "users",
    params(("username" = String, Path, description = "Username"), PageQuery),
    responses(
        (status = 200, description = "A page of subscriptions", body = Paginated<SubscriptionDto>),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/users/{username}/notifications/")]
async fn notifications_list(
    caller: Caller,
    username: web::Path<String>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<SubscriptionDto>>> {
    let service = state.service.clone();
    let fetch = move |request| service.notifications().list(&caller.0, &username, request);
    page_of(&req, &links, STANDARD, fetch, SubscriptionDto::new).await
}

/// Subscribes a user to a notification.
#[utoipa::path(
    tag = "users",
    params(("username" = String, Path, description = "Username")),
    request_body = SubscriptionCreate,
    responses(
        (status = 201, description = "Subscribed", body = SubscriptionDto),
        (status = 400, description = "Invalid fields, or subscribed already", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[post("/api/users/{username}/notifications/")]
async fn notifications_create(
    caller: Caller,
    username: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let stored = with_body(&req, payload, move |input, _| {
        let body = input.parse_change::<SubscriptionCreate, SubscriptionPatch>(false);
        service
            .notifications()
            .subscribe(&caller.0, &username, body)
    })
    .await?;
    Ok(HttpResponse::Created().json(SubscriptionDto::new(stored)))
}

/// One subscription of a user.
#[utoipa::path(
    tag = "users",
    params(SubscriptionPath),
    responses(
        (status = 200, description = "The subscription", body = SubscriptionDto),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/users/{username}/notifications/{id}/")]
async fn notification_detail(
    caller: Caller,
    path: web::Path<SubscriptionPath>,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<SubscriptionDto>> {
    let service = state.service.clone();
    let stored = blocking(move || {
        service
            .notifications()
            .get(&caller.0, &path.username, path.id)
    })
    .await?;
    Ok(web::Json(SubscriptionDto::new(stored)))
}

put_and_patch! {
    tag: "users",
    path: "/api/users/{username}/notifications/{id}/",
    params: [SubscriptionPath],
    key: SubscriptionPath,
    create: SubscriptionCreate,
    patch: SubscriptionPatch,
    response: SubscriptionDto,
    put: "Replaces a subscription's notification, scope and frequency.",
    patch_doc: "Changes the given fields of a subscription.",
    operation: "notification",
}

/// PUT and PATCH.
async fn change(
    caller: Caller,
    path: web::Path<SubscriptionPath>,
    req: HttpRequest,
    payload: web::Payload,
    _links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<SubscriptionDto>> {
    let service = state.service.clone();
    let stored = with_body(&req, payload, move |input, partial| {
        let body = input.parse_change::<SubscriptionCreate, SubscriptionPatch>(partial);
        service
            .notifications()
            .change(&caller.0, &path.username, path.id, body)
    })
    .await?;
    Ok(web::Json(SubscriptionDto::new(stored)))
}

/// Removes a subscription of a user.
#[utoipa::path(
    tag = "users",
    params(SubscriptionPath),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/users/{username}/notifications/{id}/")]
async fn notification_delete(
    caller: Caller,
    path: web::Path<SubscriptionPath>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || {
        service
            .notifications()
            .unsubscribe(&caller.0, &path.username, path.id)
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}
