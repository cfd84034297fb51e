//! `/api/components/` and `/api/projects/{slug}/components/`.

use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, put, web};
use tolk_domain::component::{ComponentCopy, ComponentCreate, ComponentPatch};
use tolk_domain::validation::FieldErrors;
use tolk_service::changes::ChangeScope;
use tolk_service::components::{ComponentEdit, CreateOptions};
use tolk_service::files::ComponentFile;
use tolk_service::upload::{Upload, guess_filemask};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::change::ChangeDto;
use crate::dto::component::{ComponentCreateBody, ComponentDto, ComponentUpload};
use crate::dto::repository::{LockBody, LockDto};
use crate::dto::statistics::StatisticsDto;
use crate::dto::translation::{TranslationCreate, TranslationCreated, TranslationDto};
use crate::error::{ApiResult, ErrorBody};
use crate::input::Input;
use crate::links::Links;
use crate::pagination::{LARGE, PageQuery, Paginated, STANDARD, page_request, paginated};
use crate::reply::{blocking, created};
use crate::routes::changes::{ChangeFilters, change_query};
use crate::routes::files::{ArchiveQuery, archive_download, download};
use crate::routes::helpers::{page_of, with_body};
use crate::routes::paths::ComponentPath;
use crate::schemas::FileBytes;
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list)
        .service(components_list)
        .service(components_create)
        .service(detail)
        .service(replace)
        .service(modify)
        .service(remove)
        .service(translations)
        .service(add_translation)
        .service(statistics)
        .service(changes)
        .service(lock_status)
        .service(lock)
        .service(monolingual_base)
        .service(new_template)
        .service(archive);
}

/// Lists the components the caller may see.
#[utoipa::path(
    tag = "components",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of components", body = Paginated<ComponentDto>),
        (status = 404, description = "Invalid page", body = ErrorBody)
    )
)]
#[get("/api/components/")]
async fn list(
    caller: Caller,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<ComponentDto>>> {
    let service = state.service.clone();
    let subject = caller.0.clone();
    let fetch = move |request| service.components().list(&caller.0, None, request);
    page_of(&req, &links, STANDARD, fetch, |c| {
        ComponentDto::new(c, &links, true, &subject)
    })
    .await
}

/// Lists the components of a project (without the nested project).
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug"), PageQuery),
    responses(
        (status = 200, description = "A page of components", body = Paginated<ComponentDto>),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/projects/{slug}/components/")]
async fn components_list(
    caller: Caller,
    slug: web::Path<String>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<ComponentDto>>> {
    let service = state.service.clone();
    let subject = caller.0.clone();
    let fetch = move |request| service.components().list(&caller.0, Some(&slug), request);
    page_of(&req, &links, STANDARD, fetch, |c| {
        ComponentDto::new(c, &links, false, &subject)
    })
    .await
}

/// Creates a component in a project (needs `project.edit`): from a
/// repository, from uploaded files (multipart `zipfile` or `docfile`) or as
/// a copy of another component (`from_component`). The answer comes at
/// once; cloning or storing the files and reading them run in the task
/// that `task_url` shows.
#[utoipa::path(
    tag = "projects",
    params(("slug" = String, Path, description = "Project slug")),
    request_body(content(
        (ComponentCreateBody = "application/json"),
        (ComponentUpload = "multipart/form-data")
    )),
    responses(
        (status = 201, description = "Created; its task clones and reads it", body = ComponentDto),
        (status = 400, description = "Invalid fields", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden project", body = ErrorBody)
    )
)]
#[post("/api/projects/{slug}/components/")]
async fn components_create(
    caller: Caller,
    slug: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let subject = caller.0.clone();
    let view = with_body(&req, payload, move |mut input, _| {
        if input.has("from_component") {
            let copy = input.parse::<ComponentCopy>()?;
            let overrides = input.parse::<ComponentPatch>()?;
            return service.components().copy(&caller.0, &slug, copy, overrides);
        }
        let upload = uploaded(&mut input);
        let (settings, options) = match input.parse::<ComponentCreate>() {
            Ok(body) => {
                let options = CreateOptions {
                    source_language: body.source_language.as_ref().map(|l| l.code().to_owned()),
                    disable_autoshare: body.disable_autoshare.unwrap_or(false),
                    upload,
                    category: body.category.clone().flatten(),
                };
                (Ok(body.settings()), options)
            }
            Err(errors) => (Err(errors), CreateOptions::default()),
        };
        service
            .components()
            .create(&caller.0, &slug, settings, options)
    })
    .await?;
    let dto = ComponentDto::new(view, &links, true, &subject);
    Ok(created(&dto.url.clone(), dto))
}

/// The files a create request uploads instead of naming a repository: a
/// document (`docfile`), whose file mask is guessed from its name when the
/// request gives none, or an archive (`zipfile`).
fn uploaded(input: &mut Input) -> Option<Upload> {
    if let Some((name, bytes)) = input.file("docfile") {
        let document = Upload::Document {
            name: name.to_owned(),
            bytes: bytes.to_vec(),
        };
        let guess = guess_filemask(
            input.text("slug").unwrap_or_default(),
            name,
            input.text("file_format").unwrap_or_default(),
        );
        input.fill("filemask", guess);
        return Some(document);
    }
    input
        .file("zipfile")
        .map(|(_, bytes)| Upload::Archive(bytes.to_vec()))
}

/// One component.
#[utoipa::path(
    tag = "components",
    params(ComponentPath),
    responses(
        (status = 200, description = "The component", body = ComponentDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/components/{project}/{component}/")]
async fn detail(
    caller: Caller,
    path: web::Path<ComponentPath>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<ComponentDto>> {
    let service = state.service.clone();
    let subject = caller.0.clone();
    let view = blocking(move || {
        service
            .components()
            .get(&caller.0, &path.project, &path.component)
    })
    .await?;
    Ok(web::Json(ComponentDto::new(view, &links, true, &subject)))
}

put_and_patch! {
    tag: "components",
    path: "/api/components/{project}/{component}/",
    params: [ComponentPath],
    key: ComponentPath,
    create: ComponentCreate,
    patch: ComponentPatch,
    response: ComponentDto,
    put: "Replaces a component's settings (needs `component.edit`): `name`, `slug`, `filemask` and `file_format` must be given; settings left out keep their values.",
    patch_doc: "Changes the given settings of a component (needs `component.edit`).",
}

/// PUT and PATCH: the body's settings over the current ones.
async fn change(
    caller: Caller,
    path: web::Path<ComponentPath>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<ComponentDto>> {
    let service = state.service.clone();
    let subject = caller.0.clone();
    let view = with_body(&req, payload, move |input, partial| {
        service
            .components()
            .update(&caller.0, &path.project, &path.component, |current| {
                let mut errors = FieldErrors::default();
                for field in ["zipfile", "docfile", "from_component"] {
                    if input.has(field) || input.file(field).is_some() {
                        errors.invalid(
                            field,
                            "This field is for creation only, use /file/ instead.",
                        );
                    }
                }
                errors.into_result()?;
                let patch = input.parse_change::<ComponentCreate, ComponentPatch>(partial)?;
                let source_language = patch.source_language.as_ref().map(|l| l.code().to_owned());
                let category = patch.category.clone();
                let mut settings = current.clone();
                patch.apply_inheriting(&mut settings);
                Ok(ComponentEdit {
                    settings,
                    source_language,
                    category,
                })
            })
    })
    .await?;
    Ok(web::Json(ComponentDto::new(view, &links, true, &subject)))
}

/// Removes a component with its translations (needs `component.edit`);
/// its work tree is removed by a background task.
#[utoipa::path(
    tag = "components",
    params(ComponentPath),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/components/{project}/{component}/")]
async fn remove(
    caller: Caller,
    path: web::Path<ComponentPath>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || {
        service
            .components()
            .delete(&caller.0, &path.project, &path.component)
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The translations of a component (without the nested component).
#[utoipa::path(
    tag = "components",
    params(
        ComponentPath,
        PageQuery
    ),
    responses(
        (status = 200, description = "A page of translations", body = Paginated<TranslationDto>),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/components/{project}/{component}/translations/")]
async fn translations(
    caller: Caller,
    path: web::Path<ComponentPath>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<TranslationDto>>> {
    let service = state.service.clone();
    let fetch = move |request| {
        service
            .translations()
            .list(&caller.0, Some((&path.project, &path.component)), request)
    };
    page_of(&req, &links, STANDARD, fetch, |t| {
        TranslationDto::new(t, &links, None)
    })
    .await
}

/// Adds a language to a component (needs `translation.add`): its file is
/// made, committed and read; the answer is the new translation.
#[utoipa::path(
    tag = "components",
    params(ComponentPath),
    request_body = TranslationCreate,
    responses(
        (status = 201, description = "Added", body = TranslationCreated),
        (status = 400, description = "A language that cannot be added", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody),
        (status = 423, description = "The repository is busy", body = ErrorBody)
    )
)]
#[post("/api/components/{project}/{component}/translations/")]
async fn add_translation(
    caller: Caller,
    path: web::Path<ComponentPath>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let view = with_body(&req, payload, move |input, _| {
        let body = input.parse::<TranslationCreate>()?;
        service.translations().add(
            &caller.0,
            &path.project,
            &path.component,
            &body.language_code,
        )
    })
    .await?;
    let data = TranslationDto::new(view, &links, None);
    Ok(created(&data.url.clone(), TranslationCreated { data }))
}

/// Statistics of each translation of a component, by id.
#[utoipa::path(
    tag = "components",
    params(
        ComponentPath,
        PageQuery
    ),
    responses(
        (status = 200, description = "A page of statistics", body = Paginated<StatisticsDto>),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/components/{project}/{component}/statistics/")]
async fn statistics(
    caller: Caller,
    path: web::Path<ComponentPath>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<StatisticsDto>>> {
    let request = page_request(&req, LARGE)?;
    let service = state.service.clone();
    let page = blocking(move || {
        service.translations().component_statistics(
            &caller.0,
            (&path.project, &path.component),
            request,
        )
    })
    .await?;
    Ok(web::Json(paginated(
        &req,
        &links,
        page,
        |(view, summary)| StatisticsDto::of_translation(&view, &summary, &links),
    )))
}

/// Changes in a component, newest first.
#[utoipa::path(
    tag = "components",
    params(
        ComponentPath,
        ChangeFilters,
        PageQuery
    ),
    responses(
        (status = 200, description = "A page of changes", body = Paginated<ChangeDto>),
        (status = 400, description = "Invalid filter", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/components/{project}/{component}/changes/")]
async fn changes(
    caller: Caller,
    path: web::Path<ComponentPath>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<ChangeDto>>> {
    let mut query = change_query(&req)?;
    query.scope = ChangeScope::Component(path.project.clone(), path.component.clone());
    crate::routes::changes::respond(caller, query, req, links, state).await
}

/// Whether a component is locked.
#[utoipa::path(
    tag = "components",
    params(ComponentPath),
    responses(
        (status = 200, description = "The lock state", body = LockDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/components/{project}/{component}/lock/")]
async fn lock_status(
    caller: Caller,
    path: web::Path<ComponentPath>,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<LockDto>> {
    let service = state.service.clone();
    let locked = blocking(move || {
        service
            .components()
            .lock(&caller.0, &path.project, &path.component, None)
    })
    .await?;
    Ok(web::Json(LockDto { locked }))
}

/// Locks or unlocks a component (needs `component.lock`); a locked
/// component refuses edits.
#[utoipa::path(
    tag = "components",
    params(ComponentPath),
    request_body = LockBody,
    responses(
        (status = 200, description = "The lock state", body = LockDto),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[post("/api/components/{project}/{component}/lock/")]
async fn lock(
    caller: Caller,
    path: web::Path<ComponentPath>,
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<LockDto>> {
    let service = state.service.clone();
    let locked = with_body(&req, payload, move |input, _| {
        let body = input.parse::<LockBody>()?;
        service
            .components()
            .lock(&caller.0, &path.project, &path.component, Some(body.lock))
    })
    .await?;
    Ok(web::Json(LockDto { locked }))
}

/// The monolingual base file of a component (needs `translation.download`);
/// 404 when it has none.
#[utoipa::path(
    tag = "components",
    params(ComponentPath),
    responses(
        (status = 200, description = "The file", content_type = "application/octet-stream", body = FileBytes),
        (status = 404, description = "Missing, hidden or no base file", body = ErrorBody)
    )
)]
#[get("/api/components/{project}/{component}/monolingual_base/")]
async fn monolingual_base(
    caller: Caller,
    path: web::Path<ComponentPath>,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    component_file(caller, path, req, state, ComponentFile::MonolingualBase).await
}

/// The file new translations of a component start from (needs
/// `translation.download`); 404 when it has none.
#[utoipa::path(
    tag = "components",
    params(ComponentPath),
    responses(
        (status = 200, description = "The file", content_type = "application/binary", body = FileBytes),
        (status = 404, description = "Missing, hidden or no base file", body = ErrorBody)
    )
)]
#[get("/api/components/{project}/{component}/new_template/")]
async fn new_template(
    caller: Caller,
    path: web::Path<ComponentPath>,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    component_file(caller, path, req, state, ComponentFile::NewTemplate).await
}

/// The component's translation files as one ZIP archive, streamed as it
/// is written (§8.5): the repository's files after pending edits are
/// committed, or with `format=zip:CONVERTER` each translation converted
/// (needs `translation.download`).
#[utoipa::path(
    tag = "components",
    params(ComponentPath, ArchiveQuery),
    responses(
        (status = 200, description = "The archive", content_type = "application/zip", body = FileBytes),
        (status = 403, description = "Not allowed to download", body = ErrorBody),
        (status = 404, description = "Missing or hidden, or an unknown converter", body = ErrorBody)
    )
)]
#[get("/api/components/{project}/{component}/file/")]
async fn archive(
    caller: Caller,
    path: web::Path<ComponentPath>,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    archive_download::<ArchiveQuery>(&req, state.service.clone(), move |service, request| {
        service
            .files()
            .component_archive(&caller.0, &path.project, &path.component, request)
    })
    .await
}

/// Serves one of a component's base files.
async fn component_file(
    caller: Caller,
    path: web::Path<ComponentPath>,
    req: HttpRequest,
    state: web::Data<AppState>,
    which: ComponentFile,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let file = blocking(move || {
        service
            .files()
            .component(&caller.0, &path.project, &path.component, which)
    })
    .await?;
    Ok(download(&req, file))
}
