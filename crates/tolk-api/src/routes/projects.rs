//! `/api/projects/`.

use actix_web::{HttpRequest, HttpResponse, delete, get, post, route, web};
use tolk_domain::project::ProjectSettings;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::Caller;
use crate::dto::change::ChangeDto;
use crate::dto::project::ProjectDto;
use crate::dto::statistics::{StatisticsDto, Subject};
use crate::error::{ApiResult, ErrorBody};
use crate::input::{Field, Kind};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD};
use crate::routes::changes::{ChangeFilters, change_query};
use crate::routes::{page_of, with_body};
use crate::state::AppState;
use crate::{blocking, created};

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list)
        .service(create)
        .service(detail)
        .service(update)
        .service(remove)
        .service(statistics)
        .service(languages)
        .service(changes);
}

/// Writable project fields; `name`, `slug` and `web` are required.
const FIELDS: &[Field] = &[
    Field::required("name", Kind::Str),
    Field::required("slug", Kind::Str),
    Field::required("web", Kind::Str),
    Field::optional("instructions", Kind::Str),
    Field::optional("check_flags", Kind::Str),
    Field::optional("translation_review", Kind::Bool),
    Field::optional("source_review", Kind::Bool),
    Field::optional("commit_policy", Kind::Int),
    Field::optional("enable_hooks", Kind::Bool),
    Field::optional("language_aliases", Kind::Str),
    Field::optional("access_control", Kind::Int),
    Field::optional("public_sharing", Kind::Bool),
    Field::optional("use_shared_tm", Kind::Bool),
    Field::optional("contribute_shared_tm", Kind::Bool),
    Field::optional("autoclean_tm", Kind::Bool),
    Field::optional("license", Kind::Str),
    Field::optional("agreement", Kind::Str),
    Field::optional("new_lang", Kind::Str),
    Field::optional("language_code_style", Kind::Str),
    Field::optional("secondary_language", Kind::OptId),
    Field::optional("commit_message", Kind::Str),
    Field::optional("add_message", Kind::Str),
    Field::optional("delete_message", Kind::Str),
    Field::optional("merge_message", Kind::Str),
    Field::optional("addon_message", Kind::Str),
    Field::optional("pull_message", Kind::Str),
    Field::optional("enforced_2fa", Kind::Bool),
    Field::optional("enforced_checks", Kind::StrList),
];

/// Lists the projects the caller may see.
#[utoipa::path(
    tag = "projects",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of projects", body = Paginated<ProjectDto>),
        (status = 404, description = "Invalid page", body = ErrorBody)
    )
)]
#[get("/api/projects/")]
async fn list(
    caller: Caller,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<ProjectDto>>> {
    let service = state.service.clone();
    let fetch = move |request| service.projects(&caller.0, request);
    page_of(&req, &links, STANDARD, fetch, |p| {
        ProjectDto::new(p, &links)
    })
    .await
}

/// Creates a project (needs `project.add`).
#[utoipa::path(
    tag = "projects",
    request_body(content = Object, description = "`name`, `slug` and `web`, and any other writable project field"),
    responses(
        (status = 201, description = "Created", body = ProjectDto),
        (status = 400, description = "Invalid fields", body = ErrorBody),
        (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody)
    )
)]
#[post("/api/projects/")]
async fn create(
    caller: Caller,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, _| {
        let settings = input.apply(&ProjectSettings::default(), FIELDS, false);
        service.create_project(&caller.0, settings)
    })
    .await?;
    let dto = ProjectDto::new(view, &links);
    Ok(created(&dto.url.clone(), dto))
}

/// One project.
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug")),
    responses(
        (status = 200, description = "The project", body = ProjectDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/projects/{slug}/")]
async fn detail(
    caller: Caller,
    slug: web::Path<String>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<ProjectDto>> {
    let service = state.service.clone();
    let view = blocking(move || service.project(&caller.0, &slug)).await?;
    Ok(web::Json(ProjectDto::new(view, &links)))
}

/// Changes a project (needs `project.edit`): PUT sets every field and
/// needs `name`, `slug` and `web`; PATCH changes only the given fields.
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug")),
    request_body(content = Object, description = "Writable project fields"),
    responses(
        (status = 200, description = "Updated", body = ProjectDto),
        (status = 400, description = "Invalid fields", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[route("/api/projects/{slug}/", method = "PUT", method = "PATCH")]
async fn update(
    caller: Caller,
    slug: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<ProjectDto>> {
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, partial| {
        service.update_project(&caller.0, &slug, |current| {
            input.apply(current, FIELDS, partial)
        })
    })
    .await?;
    Ok(web::Json(ProjectDto::new(view, &links)))
}

/// Removes a project and everything in it (needs `project.edit`).
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug")),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/projects/{slug}/")]
async fn remove(
    caller: Caller,
    slug: web::Path<String>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || service.delete_project(&caller.0, &slug)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Translation statistics of a project.
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug")),
    responses(
        (status = 200, description = "Statistics", body = StatisticsDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/projects/{slug}/statistics/")]
async fn statistics(
    caller: Caller,
    slug: web::Path<String>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<StatisticsDto>> {
    let service = state.service.clone();
    let (project, summary) = blocking(move || service.project_statistics(&caller.0, &slug)).await?;
    let s = &project.settings;
    Ok(web::Json(StatisticsDto::new(
        &summary,
        Subject {
            name: &s.name,
            url: links.web(&["projects", &s.slug]),
            code: None,
            translate_url: None,
            reviewed: s.translation_review,
        },
    )))
}

/// Statistics of each language of a project (not paginated).
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug")),
    responses(
        (status = 200, description = "One statistics object per language", body = Vec<StatisticsDto>),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/projects/{slug}/languages/")]
async fn languages(
    caller: Caller,
    slug: web::Path<String>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Vec<StatisticsDto>>> {
    let service = state.service.clone();
    let (project, rows) = blocking(move || service.project_languages(&caller.0, &slug)).await?;
    let s = &project.settings;
    let result = rows
        .iter()
        .map(|(language, summary)| {
            StatisticsDto::new(
                summary,
                Subject {
                    name: &language.name,
                    url: links.web(&["projects", &s.slug, "-", &language.code]),
                    code: Some(&language.code),
                    translate_url: Some(links.web(&["translate", &s.slug, "-", &language.code])),
                    reviewed: s.translation_review,
                },
            )
        })
        .collect();
    Ok(web::Json(result))
}

/// Changes in a project, newest first.
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug"), ChangeFilters, PageQuery),
    responses(
        (status = 200, description = "A page of changes", body = Paginated<ChangeDto>),
        (status = 400, description = "Invalid filter", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/projects/{slug}/changes/")]
async fn changes(
    caller: Caller,
    slug: web::Path<String>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<ChangeDto>>> {
    let mut query = change_query(&req)?;
    query.project = Some(slug.into_inner());
    crate::routes::changes::respond(caller, query, req, links, state).await
}
