//! `/api/categories/` and a project's `categories/` (§16).

use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, put, web};
use tolk_domain::category::{CategoryCreate, CategoryPatch};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::category::CategoryDto;
use crate::dto::statistics::{StatisticsDto, Subject};
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD};
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
        .service(statistics)
        .service(categories);
}

/// The categories of the projects the caller sees, by id.
#[utoipa::path(
    tag = "categories",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of categories", body = Paginated<CategoryDto>),
        (status = 404, description = "Invalid page", body = ErrorBody)
    )
)]
#[get("/api/categories/")]
async fn list(
    caller: Caller,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<CategoryDto>>> {
    let service = state.service.clone();
    let fetch = move |request| service.categories().list(&caller.0, None, request);
    page_of(&req, &links, STANDARD, fetch, |c| {
        CategoryDto::new(c, &links)
    })
    .await
}

/// The categories of a project, by id.
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug"), PageQuery),
    responses(
        (status = 200, description = "A page of categories", body = Paginated<CategoryDto>),
        (status = 404, description = "Missing or hidden project, or invalid page", body = ErrorBody)
    )
)]
#[get("/api/projects/{slug}/categories/")]
async fn categories(
    caller: Caller,
    slug: web::Path<String>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<CategoryDto>>> {
    let service = state.service.clone();
    let fetch = move |request| service.categories().list(&caller.0, Some(&slug), request);
    page_of(&req, &links, STANDARD, fetch, |c| {
        CategoryDto::new(c, &links)
    })
    .await
}

/// Makes a category of the project `project` links to (needs
/// `project.edit` there), inside the category `category` links to, if any.
#[utoipa::path(
    tag = "categories",
    request_body = CategoryCreate,
    responses(
        (status = 201, description = "Made", body = CategoryDto),
        (status = 400, description = "Invalid fields, unknown project or parent, or too deep", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody)
    )
)]
#[post("/api/categories/")]
async fn create(
    caller: Caller,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, _| {
        service.categories().create(
            &caller.0,
            input.parse_change::<CategoryCreate, CategoryPatch>(false),
        )
    })
    .await?;
    let dto = CategoryDto::new(view, &links);
    Ok(created(&dto.url.clone(), dto))
}

/// One category.
#[utoipa::path(
    tag = "categories",
    params(("id" = i64, Path, description = "Category id")),
    responses(
        (status = 200, description = "The category", body = CategoryDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/categories/{id}/")]
async fn detail(
    caller: Caller,
    id: web::Path<i64>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<CategoryDto>> {
    let service = state.service.clone();
    let view = blocking(move || service.categories().get(&caller.0, *id)).await?;
    Ok(web::Json(CategoryDto::new(view, &links)))
}

put_and_patch! {
    tag: "categories",
    path: "/api/categories/{id}/",
    params: [("id" = i64, Path, description = "Category id")],
    key: i64,
    create: CategoryCreate,
    patch: CategoryPatch,
    response: CategoryDto,
    put: "Replaces a category's settings (needs `project.edit`); without `category` it leaves its parent.",
    patch_doc: "Changes some of a category's settings, or moves it with `category` (needs `project.edit`).",
    operation: "categories",
}

/// PUT and PATCH.
async fn change(
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<CategoryDto>> {
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, partial| {
        let body = input.parse_change::<CategoryCreate, CategoryPatch>(partial);
        service.categories().update(&caller.0, *id, body, !partial)
    })
    .await?;
    Ok(web::Json(CategoryDto::new(view, &links)))
}

/// Removes a category with the categories and components inside (needs
/// `project.edit`).
#[utoipa::path(
    tag = "categories",
    params(("id" = i64, Path, description = "Category id")),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/categories/{id}/")]
async fn remove(
    caller: Caller,
    id: web::Path<i64>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || service.categories().delete(&caller.0, *id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Statistics of everything a category holds, at any depth.
#[utoipa::path(
    tag = "categories",
    params(("id" = i64, Path, description = "Category id")),
    responses(
        (status = 200, description = "The statistics", body = StatisticsDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/categories/{id}/statistics/")]
async fn statistics(
    caller: Caller,
    id: web::Path<i64>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<StatisticsDto>> {
    let service = state.service.clone();
    let (view, summary) = blocking(move || service.categories().statistics(&caller.0, *id)).await?;
    let mut web = vec!["projects", view.project.settings.slug.as_str()];
    web.extend(view.category.path.split('/'));
    Ok(web::Json(StatisticsDto::new(
        &summary,
        Subject {
            name: &view.category.settings.name,
            url: links.web(&web),
            code: None,
            translate_url: None,
            reviewed: view.project.settings.translation_review,
        },
    )))
}
