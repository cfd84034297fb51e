//! `/api/suggestions/` (§11) and a unit's `suggestions/` and `comments/`
//! (§10.2, §10.4).

use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use tolk_service::ServiceError;
use tolk_service::suggestions::{CommentScope, Suggested};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::suggestion::{
    CommentCreate, CommentDto, SuggestionAccept, SuggestionAccepted, SuggestionCreate,
    SuggestionDto, SuggestionVote, SuggestionVoted,
};
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{LARGE, PageQuery, Paginated, STANDARD};
use crate::reply::blocking;
use crate::routes::helpers::{page_of, path_id, with_body};
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(suggestions_list)
        .service(suggestions_read)
        .service(suggestions_delete)
        .service(suggestions_accept)
        .service(suggestions_vote)
        .service(units_suggestions_list)
        .service(units_suggestions_create)
        .service(units_comments_list)
        .service(units_comments_create);
}

/// The suggestions the caller may see, newest first.
#[utoipa::path(
    tag = "suggestions",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of suggestions", body = Paginated<SuggestionDto>),
        (status = 404, description = "Invalid page", body = ErrorBody)
    )
)]
#[get("/api/suggestions/")]
async fn suggestions_list(
    caller: Caller,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<SuggestionDto>>> {
    let service = state.service.clone();
    let fetch = move |request| service.suggestions().list(&caller.0, None, request);
    page_of(&req, &links, LARGE, fetch, |s| {
        SuggestionDto::new(s, &links)
    })
    .await
}

/// One suggestion.
#[utoipa::path(
    tag = "suggestions",
    params(("id" = i64, Path, description = "Suggestion id")),
    responses(
        (status = 200, description = "The suggestion", body = SuggestionDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/suggestions/{id}/")]
async fn suggestions_read(
    caller: Caller,
    id: web::Path<String>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<SuggestionDto>> {
    let id = path_id(&id)?;
    let service = state.service.clone();
    let found = blocking(move || service.suggestions().get(&caller.0, id)).await?;
    Ok(web::Json(SuggestionDto::new(found, &links)))
}

/// Removes a suggestion (its author, or with `suggestion.delete`).
#[utoipa::path(
    tag = "suggestions",
    params(("id" = i64, Path, description = "Suggestion id")),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/suggestions/{id}/")]
async fn suggestions_delete(
    caller: Caller,
    id: web::Path<String>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let id = path_id(&id)?;
    let service = state.service.clone();
    blocking(move || service.suggestions().delete(&caller.0, id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Votes on a suggestion (needs `suggestion.vote` and the component's
/// `suggestion_voting`); enough votes (`suggestion_autoaccept`) accept it.
#[utoipa::path(
    tag = "suggestions",
    params(("id" = i64, Path, description = "Suggestion id")),
    request_body = SuggestionVote,
    responses(
        (status = 200, description = "Voted, or accepted", body = SuggestionVoted),
        (status = 400, description = "Not 1 or -1", body = ErrorBody),
        (status = 403, description = "Not allowed, or voting is off", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[post("/api/suggestions/{id}/vote/")]
async fn suggestions_vote(
    caller: Caller,
    id: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<SuggestionVoted>> {
    let id = path_id(&id)?;
    let service = state.service.clone();
    let voted = with_body(&req, payload, move |input, _| {
        let body = input.parse::<SuggestionVote>()?;
        service.suggestions().vote(&caller.0, id, body.value)
    })
    .await?;
    Ok(web::Json(SuggestionVoted::new(voted, &links)))
}

/// Accepts a suggestion: it becomes the unit's translation (approved with
/// `approve`, which needs `unit.review`) and is removed.
#[utoipa::path(
    tag = "suggestions",
    params(("id" = i64, Path, description = "Suggestion id")),
    request_body = SuggestionAccept,
    responses(
        (status = 200, description = "Accepted", body = SuggestionAccepted),
        (status = 400, description = "The translation breaks a rule", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[post("/api/suggestions/{id}/accept/")]
async fn suggestions_accept(
    caller: Caller,
    id: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<SuggestionAccepted>> {
    let id = path_id(&id)?;
    let service = state.service.clone();
    with_body(&req, payload, move |input, _| {
        let body = input.parse::<SuggestionAccept>()?;
        service.suggestions().accept(&caller.0, id, body.approve)
    })
    .await?;
    Ok(web::Json(SuggestionAccepted {
        result: "accepted".into(),
    }))
}

/// The suggestions of a unit, newest first.
#[utoipa::path(
    tag = "units",
    params(("id" = i64, Path, description = "Unit id"), PageQuery),
    responses(
        (status = 200, description = "A page of suggestions", body = Paginated<SuggestionDto>),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/units/{id}/suggestions/")]
async fn units_suggestions_list(
    caller: Caller,
    id: web::Path<String>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<SuggestionDto>>> {
    let id = path_id(&id)?;
    let service = state.service.clone();
    let fetch = move |request| service.suggestions().list(&caller.0, Some(id), request);
    page_of(&req, &links, LARGE, fetch, |s| {
        SuggestionDto::new(s, &links)
    })
    .await
}

/// Suggests a translation of a unit (needs `suggestion.add`).
#[utoipa::path(
    tag = "units",
    params(("id" = i64, Path, description = "Unit id")),
    request_body = SuggestionCreate,
    responses(
        (status = 201, description = "Made (with the author's vote where voting is on)", body = SuggestionDto),
        (status = 200, description = "Someone else's suggestion of the same text got the caller's vote, \
            or the votes accepted it at once", body = SuggestionVoted),
        (status = 400, description = "Invalid, the current translation, or one's own again", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[post("/api/units/{id}/suggestions/")]
async fn units_suggestions_create(
    caller: Caller,
    id: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let id = path_id(&id)?;
    let service = state.service.clone();
    let made = with_body(&req, payload, move |input, _| {
        let body = input.parse::<SuggestionCreate>()?;
        service.suggestions().add(&caller.0, id, body.target)
    })
    .await?;
    Ok(match made {
        Suggested::Made(made) => HttpResponse::Created().json(SuggestionDto::new(made, &links)),
        Suggested::Voted(voted) => {
            HttpResponse::Ok().json(SuggestionVoted::new(Some(voted), &links))
        }
        Suggested::Accepted => HttpResponse::Ok().json(SuggestionVoted::new(None, &links)),
    })
}

/// The comments on a unit and on its string, by id.
#[utoipa::path(
    tag = "units",
    params(("id" = i64, Path, description = "Unit id"), PageQuery),
    responses(
        (status = 200, description = "A page of comments", body = Paginated<CommentDto>),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/units/{id}/comments/")]
async fn units_comments_list(
    caller: Caller,
    id: web::Path<String>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<CommentDto>>> {
    let id = path_id(&id)?;
    let service = state.service.clone();
    let fetch = move |request| service.suggestions().comments(&caller.0, id, request);
    page_of(&req, &links, STANDARD, fetch, |c| {
        CommentDto::new(c, &links)
    })
    .await
}

/// Comments on a unit (needs `comment.add`).
#[utoipa::path(
    tag = "units",
    params(("id" = i64, Path, description = "Unit id")),
    request_body = CommentCreate,
    responses(
        (status = 201, description = "Made", body = CommentDto),
        (status = 400, description = "Invalid fields", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[post("/api/units/{id}/comments/")]
async fn units_comments_create(
    caller: Caller,
    id: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let id = path_id(&id)?;
    let service = state.service.clone();
    let made = with_body(&req, payload, move |input, _| {
        let body = input.parse::<CommentCreate>()?;
        let scope = CommentScope::parse(&body.scope).ok_or_else(|| {
            ServiceError::invalid(
                "scope",
                &format!("\"{}\" is not a valid choice.", body.scope),
            )
        })?;
        service
            .suggestions()
            .add_comment(&caller.0, id, scope, &body.comment)
    })
    .await?;
    Ok(HttpResponse::Created().json(CommentDto::new(made, &links)))
}
