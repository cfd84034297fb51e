//! `/api/projects/`.

use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, put, web};
use tolk_domain::project::{ProjectCreate, ProjectPatch, ProjectSettings};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::change::ChangeDto;
use crate::dto::project::ProjectDto;
use crate::dto::repository::{LockBody, LockDto};
use crate::dto::statistics::{StatisticsDto, Subject};
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD};
use crate::reply::{blocking, created};
use crate::routes::changes::{ChangeFilters, change_query};
use crate::routes::files::{ArchiveQuery, LanguageArchiveQuery, archive_download};
use crate::routes::helpers::{page_of, with_body};
use crate::schemas::FileBytes;
use crate::state::AppState;
use tolk_service::changes::ChangeScope;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list)
        .service(create)
        .service(detail)
        .service(replace)
        .service(modify)
        .service(remove)
        .service(statistics)
        .service(languages)
        .service(changes)
        .service(archive)
        .service(language_archive)
        .service(lock_status)
        .service(lock);
}

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
    let fetch = move |request| service.projects().list(&caller.0, request);
    page_of(&req, &links, STANDARD, fetch, |p| {
        ProjectDto::new(p, &links)
    })
    .await
}

/// Creates a project (needs `project.add`).
#[utoipa::path(
    tag = "projects",
    request_body = ProjectCreate,
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
        let settings = input.parse::<ProjectCreate>().map(|body| {
            let mut settings = ProjectSettings::default();
            body.apply(&mut settings);
            settings
        });
        service.projects().create(&caller.0, settings)
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
    let view = blocking(move || service.projects().get(&caller.0, &slug)).await?;
    Ok(web::Json(ProjectDto::new(view, &links)))
}

put_and_patch! {
    tag: "projects",
    path: "/api/projects/{slug}/",
    params: [("slug" = String, Path, description = "Project slug")],
    key: String,
    create: ProjectCreate,
    patch: ProjectPatch,
    response: ProjectDto,
    put: "Replaces a project's settings (needs `project.edit`): `name`, `slug` and `web` must be given; settings left out keep their values.",
    patch_doc: "Changes the given settings of a project (needs `project.edit`).",
}

/// PUT and PATCH: the body's settings over the current ones.
async fn change(
    caller: Caller,
    slug: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<ProjectDto>> {
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, partial| {
        service.projects().update(&caller.0, &slug, |current| {
            let patch = input.parse_change::<ProjectCreate, ProjectPatch>(partial)?;
            let mut settings = current.clone();
            patch.apply(&mut settings);
            Ok(settings)
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
    blocking(move || service.projects().delete(&caller.0, &slug)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The translation files of every component of the project the caller may
/// download, as one ZIP archive streamed as it is written (§8.5); with
/// `format=zip:CONVERTER` each translation converted.
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug"), ArchiveQuery),
    responses(
        (status = 200, description = "The archive", content_type = "application/zip", body = FileBytes),
        (status = 403, description = "Not allowed to download", body = ErrorBody),
        (status = 404, description = "Missing or hidden, or an unknown converter", body = ErrorBody)
    )
)]
#[get("/api/projects/{slug}/file/")]
async fn archive(
    caller: Caller,
    slug: web::Path<String>,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    archive_download::<ArchiveQuery>(&req, state.service.clone(), move |service, request| {
        service.files().project_archive(&caller.0, &slug, request)
    })
    .await
}

/// The translation files of one language in every component of the
/// project the caller may download, as one ZIP archive named
/// `{project}-{code}.zip` (§8.5); `filter` keeps components whose slug
/// holds its text. A language the project lacks gives an empty archive.
#[utoipa::path(
    tag = "projects",
    params(
        ("slug" = String, Path, description = "Project slug"),
        ("code" = String, Path, description = "Language code"),
        LanguageArchiveQuery
    ),
    responses(
        (status = 200, description = "The archive", content_type = "application/zip", body = FileBytes),
        (status = 403, description = "Not allowed to download", body = ErrorBody),
        (status = 404, description = "Missing or hidden project, unknown language or converter", body = ErrorBody)
    )
)]
#[get("/api/projects/{slug}/languages/{code}/file/")]
async fn language_archive(
    caller: Caller,
    path: web::Path<(String, String)>,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let (slug, code) = path.into_inner();
    archive_download::<LanguageArchiveQuery>(
        &req,
        state.service.clone(),
        move |service, request| {
            service
                .files()
                .project_language_archive(&caller.0, &slug, &code, request)
        },
    )
    .await
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
    let (project, summary) =
        blocking(move || service.projects().statistics(&caller.0, &slug)).await?;
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
    let (project, rows) = blocking(move || service.projects().languages(&caller.0, &slug)).await?;
    Ok(web::Json(language_statistics(&project, &rows, &links)))
}

/// The statistics of each language of a project, with its links.
pub(crate) fn language_statistics(
    project: &tolk_service::Project,
    rows: &[(tolk_service::LanguageRow, tolk_service::Summary)],
    links: &Links,
) -> Vec<StatisticsDto> {
    let s = &project.settings;
    rows.iter()
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
        .collect()
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
    query.scope = ChangeScope::Project(slug.into_inner());
    crate::routes::changes::respond(caller, query, req, links, state).await
}

/// Whether a project is locked: it has components and all are locked.
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug")),
    responses(
        (status = 200, description = "The lock state", body = LockDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/projects/{slug}/lock/")]
async fn lock_status(
    caller: Caller,
    slug: web::Path<String>,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<LockDto>> {
    let service = state.service.clone();
    let locked = blocking(move || service.projects().lock(&caller.0, &slug, None)).await?;
    Ok(web::Json(LockDto { locked }))
}

/// Locks or unlocks every component of a project (needs `project.edit`);
/// locked components refuse edits.
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug")),
    request_body = LockBody,
    responses(
        (status = 200, description = "The lock state", body = LockDto),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[post("/api/projects/{slug}/lock/")]
async fn lock(
    caller: Caller,
    slug: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<LockDto>> {
    let service = state.service.clone();
    let locked = with_body(&req, payload, move |input, _| {
        let body = input.parse::<LockBody>()?;
        service.projects().lock(&caller.0, &slug, Some(body.lock))
    })
    .await?;
    Ok(web::Json(LockDto { locked }))
}
