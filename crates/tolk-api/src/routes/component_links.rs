//! `/api/components/{project}/{component}/links/`: the projects a
//! component is shared into besides its own.

use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use serde::Deserialize;
use tolk_domain::validation::FieldErrors;
use utoipa::IntoParams;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::component::{ComponentDto, ComponentLinked, LinkCreate};
use crate::dto::project::ProjectDto;
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD};
use crate::reply::blocking;
use crate::routes::helpers::{page_of, with_body};
use crate::routes::paths::ComponentPath;
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(links_list)
        .service(links_create)
        .service(links_delete);
}

/// A link's place: `/api/components/{project}/{component}/links/{project_slug}/`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct LinkPath {
    /// Project slug of the component.
    pub project: String,
    /// Component slug (`category%252Fslug` in a category).
    #[serde(deserialize_with = "crate::routes::paths::component_segment")]
    pub component: String,
    /// Slug of the project the component is shared into.
    pub project_slug: String,
}

/// The projects the component is shared into besides its own; only
/// those the caller may see are listed.
#[utoipa::path(
    tag = "components",
    params(ComponentPath, PageQuery),
    responses(
        (status = 200, description = "A page of projects", body = Paginated<ProjectDto>),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/components/{project}/{component}/links/")]
async fn links_list(
    caller: Caller,
    path: web::Path<ComponentPath>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<ProjectDto>>> {
    let service = state.service.clone();
    let fetch = move |request| {
        service
            .components()
            .links(&caller.0, &path.project, &path.component, request)
    };
    page_of(&req, &links, STANDARD, fetch, |p| {
        ProjectDto::new(p, &links)
    })
    .await
}

/// Shares the component into another project (needs `component.edit`
/// here and `project.edit` on that project).
#[utoipa::path(
    tag = "components",
    params(ComponentPath),
    request_body = LinkCreate,
    responses(
        (status = 201, description = "Shared", body = ComponentLinked),
        (status = 400, description = "Unknown project, or shared there already", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[post("/api/components/{project}/{component}/links/")]
async fn links_create(
    caller: Caller,
    path: web::Path<ComponentPath>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let subject = caller.0.clone();
    let view = with_body(&req, payload, move |input, _| {
        let body = input.parse::<LinkCreate>()?;
        if let Some(id) = body.category_id {
            let mut errors = FieldErrors::default();
            errors.does_not_exist("category_id", &id.to_string());
            return Err(errors.into());
        }
        service.components().link(
            &caller.0,
            &path.project,
            &path.component,
            &body.project_slug,
        )
    })
    .await?;
    let data = ComponentDto::new(view, &links, true, &subject);
    Ok(HttpResponse::Created().json(ComponentLinked { data }))
}

/// Stops sharing the component into a project (needs `component.edit`);
/// 404 when it is not shared there.
#[utoipa::path(
    tag = "components",
    params(LinkPath),
    responses(
        (status = 204, description = "No longer shared"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing, hidden or not shared there", body = ErrorBody)
    )
)]
#[delete("/api/components/{project}/{component}/links/{project_slug}/")]
async fn links_delete(
    caller: Caller,
    path: web::Path<LinkPath>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || {
        service.components().unlink(
            &caller.0,
            &path.project,
            &path.component,
            &path.project_slug,
        )
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}
