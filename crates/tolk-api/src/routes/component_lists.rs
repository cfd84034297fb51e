//! `/api/component-lists/` (§15).

use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, put, web};
use tolk_domain::component_list::{ComponentListCreate, ComponentListPatch};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::component::ComponentDto;
use crate::dto::component_list::ComponentListDto;
use crate::dto::group::ComponentIdBody;
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
        .service(components)
        .service(add_component)
        .service(remove_component);
}

/// Lists the component lists the caller may know of: those that are
/// empty or hold a component the caller sees.
#[utoipa::path(
    tag = "component-lists",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of component lists", body = Paginated<ComponentListDto>),
        (status = 404, description = "Invalid page", body = ErrorBody)
    )
)]
#[get("/api/component-lists/")]
async fn list(
    caller: Caller,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<ComponentListDto>>> {
    let service = state.service.clone();
    let fetch = move |request| service.component_lists().list(&caller.0, request);
    page_of(&req, &links, STANDARD, fetch, |l| {
        ComponentListDto::new(l, &links)
    })
    .await
}

/// Makes a component list (needs `componentlist.edit`).
#[utoipa::path(
    tag = "component-lists",
    request_body = ComponentListCreate,
    responses(
        (status = 201, description = "Made", body = ComponentListDto),
        (status = 400, description = "Invalid fields", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody)
    )
)]
#[post("/api/component-lists/")]
async fn create(
    caller: Caller,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, _| {
        service.component_lists().create(
            &caller.0,
            input.parse_change::<ComponentListCreate, ComponentListPatch>(false),
        )
    })
    .await?;
    let dto = ComponentListDto::new(view, &links);
    Ok(created(&dto.url.clone(), dto))
}

/// One component list.
#[utoipa::path(
    tag = "component-lists",
    params(("slug" = String, Path, description = "Component list slug")),
    responses(
        (status = 200, description = "The list", body = ComponentListDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/component-lists/{slug}/")]
async fn detail(
    caller: Caller,
    slug: web::Path<String>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<ComponentListDto>> {
    let service = state.service.clone();
    let view = blocking(move || service.component_lists().get(&caller.0, &slug)).await?;
    Ok(web::Json(ComponentListDto::new(view, &links)))
}

put_and_patch! {
    tag: "component-lists",
    path: "/api/component-lists/{slug}/",
    params: [("slug" = String, Path, description = "Component list slug")],
    key: String,
    create: ComponentListCreate,
    patch: ComponentListPatch,
    response: ComponentListDto,
    put: "Replaces a component list's fields (needs `componentlist.edit`); rules given replace its rules.",
    patch_doc: "Changes some fields of a component list (needs `componentlist.edit`).",
    operation: "component_lists",
}

/// PUT and PATCH.
async fn change(
    caller: Caller,
    slug: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<ComponentListDto>> {
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, partial| {
        let body = input.parse_change::<ComponentListCreate, ComponentListPatch>(partial);
        service.component_lists().update(&caller.0, &slug, body)
    })
    .await?;
    Ok(web::Json(ComponentListDto::new(view, &links)))
}

/// Removes a component list (needs `componentlist.edit`).
#[utoipa::path(
    tag = "component-lists",
    params(("slug" = String, Path, description = "Component list slug")),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/component-lists/{slug}/")]
async fn remove(
    caller: Caller,
    slug: web::Path<String>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || service.component_lists().delete(&caller.0, &slug)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The components of a list the caller sees, by id.
#[utoipa::path(
    tag = "component-lists",
    params(("slug" = String, Path, description = "Component list slug"), PageQuery),
    responses(
        (status = 200, description = "A page of components", body = Paginated<ComponentDto>),
        (status = 404, description = "Missing or hidden list, or invalid page", body = ErrorBody)
    )
)]
#[get("/api/component-lists/{slug}/components/")]
async fn components(
    caller: Caller,
    slug: web::Path<String>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<ComponentDto>>> {
    let service = state.service.clone();
    let subject = caller.0.clone();
    let fetch = move |request| {
        service
            .component_lists()
            .components(&caller.0, &slug, request)
    };
    page_of(&req, &links, STANDARD, fetch, |c| {
        ComponentDto::new(c, &links, true, &subject)
    })
    .await
}

/// Puts a component in a list (needs `componentlist.edit`); the list as it is then.
#[utoipa::path(
    tag = "component-lists",
    params(("slug" = String, Path, description = "Component list slug")),
    request_body = ComponentIdBody,
    responses(
        (status = 200, description = "Added", body = ComponentListDto),
        (status = 400, description = "Missing or unknown component", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden list", body = ErrorBody)
    )
)]
#[post("/api/component-lists/{slug}/components/")]
async fn add_component(
    caller: Caller,
    slug: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<ComponentListDto>> {
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, _| {
        let body = input.parse::<ComponentIdBody>()?;
        service
            .component_lists()
            .add(&caller.0, &slug, body.component_id)
    })
    .await?;
    Ok(web::Json(ComponentListDto::new(view, &links)))
}

/// Takes a component, named by its slug, out of a list (needs
/// `componentlist.edit`); 404 when it is not in it.
#[utoipa::path(
    tag = "component-lists",
    params(
        ("slug" = String, Path, description = "Component list slug"),
        ("component_slug" = String, Path, description = "Slug of the component to take out")
    ),
    responses(
        (status = 204, description = "Taken out"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden list, or component not in it", body = ErrorBody)
    )
)]
#[delete("/api/component-lists/{slug}/components/{component_slug}/")]
async fn remove_component(
    caller: Caller,
    path: web::Path<(String, String)>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let (slug, component) = path.into_inner();
    blocking(move || {
        service
            .component_lists()
            .remove(&caller.0, &slug, &component)
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}
