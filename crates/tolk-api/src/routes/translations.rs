//! `/api/translations/`.

use actix_web::{HttpRequest, HttpResponse, ResponseError, delete, get, patch, post, route, web};
use serde::Deserialize;
use tolk_service::bulk::{BulkEdit, BulkOutcome};
use tolk_service::changes::ChangeScope;
use tolk_service::file_upload::FileUpload;
use utoipa::IntoParams;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::autotranslate::{AutoTranslateBody, AutoTranslateStarted};
use crate::dto::change::ChangeDto;
use crate::dto::statistics::StatisticsDto;
use crate::dto::translation::TranslationDto;
use crate::dto::unit::{BulkUnitEdits, BulkUnitResult, BulkUnitResults, UnitCreate, UnitDto};
use crate::dto::upload::{TranslationUpload, UploadOptions, UploadResultDto};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD};
use crate::reply::blocking;
use crate::routes::changes::{ChangeFilters, change_query};
use crate::routes::files::{FileQuery, download};
use crate::routes::helpers::{page_of, with_body};
use crate::routes::paths::TranslationPath;
use crate::schemas::FileBytes;
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list)
        .service(detail)
        .service(remove)
        .service(statistics)
        .service(changes)
        .service(units)
        .service(units_bulk)
        .service(units_create)
        .service(autotranslate)
        .service(file)
        .service(file_upload);
}

/// Filters of unit lists, as the query string gives them.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UnitFilters {
    /// A search query (§30): words (in source, translation or context),
    /// `field:value` terms such as `source:hello`, `state:>=translated`,
    /// `has:plural`, `position:[1 to 10]`, joined by `AND`, `OR`, `NOT`
    /// and parentheses.
    #[param(max_length = 2000)]
    pub q: Option<String>,
}

/// Lists the translations the caller may see.
#[utoipa::path(
    tag = "translations",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of translations", body = Paginated<TranslationDto>),
        (status = 404, description = "Invalid page", body = ErrorBody)
    )
)]
#[get("/api/translations/")]
async fn list(
    caller: Caller,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<TranslationDto>>> {
    let service = state.service.clone();
    let subject = caller.0.clone();
    let fetch = move |request| service.translations().list(&caller.0, None, request);
    page_of(&req, &links, STANDARD, fetch, |t| {
        TranslationDto::new(t, &links, Some(&subject))
    })
    .await
}

/// One translation.
#[utoipa::path(
    tag = "translations",
    params(TranslationPath),
    responses(
        (status = 200, description = "The translation", body = TranslationDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/translations/{project}/{component}/{language}/")]
async fn detail(
    caller: Caller,
    path: web::Path<TranslationPath>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<TranslationDto>> {
    let service = state.service.clone();
    let subject = caller.0.clone();
    let view = blocking(move || service.translations().get(&caller.0, path.parts())).await?;
    Ok(web::Json(TranslationDto::new(view, &links, Some(&subject))))
}

/// Removes a translation (needs `translation.delete`; never the source
/// language's): its file is removed from the repository in a commit.
#[utoipa::path(
    tag = "translations",
    params(TranslationPath),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody),
        (status = 423, description = "The repository is busy", body = ErrorBody)
    )
)]
#[delete("/api/translations/{project}/{component}/{language}/")]
async fn remove(
    caller: Caller,
    path: web::Path<TranslationPath>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || service.translations().delete(&caller.0, path.parts())).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Statistics of a translation.
#[utoipa::path(
    tag = "translations",
    params(TranslationPath),
    responses(
        (status = 200, description = "Statistics", body = StatisticsDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/translations/{project}/{component}/{language}/statistics/")]
async fn statistics(
    caller: Caller,
    path: web::Path<TranslationPath>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<StatisticsDto>> {
    let service = state.service.clone();
    let (view, summary) =
        blocking(move || service.translations().statistics(&caller.0, path.parts())).await?;
    Ok(web::Json(StatisticsDto::of_translation(
        &view, &summary, &links,
    )))
}

/// Changes in a translation, newest first.
#[utoipa::path(
    tag = "translations",
    params(
        TranslationPath,
        ChangeFilters,
        PageQuery
    ),
    responses(
        (status = 200, description = "A page of changes", body = Paginated<ChangeDto>),
        (status = 400, description = "Invalid filter", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/translations/{project}/{component}/{language}/changes/")]
async fn changes(
    caller: Caller,
    path: web::Path<TranslationPath>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<ChangeDto>>> {
    let mut query = change_query(&req)?;
    query.scope = ChangeScope::Translation(
        path.project.clone(),
        path.component.clone(),
        path.language.clone(),
    );
    crate::routes::changes::respond(caller, query, req, links, state).await
}

/// The units of a translation matching `q`, by id.
#[utoipa::path(
    tag = "translations",
    params(
        TranslationPath,
        UnitFilters,
        PageQuery
    ),
    responses(
        (status = 200, description = "A page of units", body = Paginated<UnitDto>),
        (status = 400, description = "Invalid query", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/translations/{project}/{component}/{language}/units/")]
async fn units(
    caller: Caller,
    path: web::Path<TranslationPath>,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<UnitDto>>> {
    let filters: UnitFilters = crate::query::parse(req.query_string())?;
    let service = state.service.clone();
    let fetch = move |request| {
        service
            .units()
            .list(&caller.0, Some(path.parts()), filters.q.as_deref(), request)
    };
    page_of(&req, &links, STANDARD, fetch, |u| UnitDto::new(u, &links)).await
}

/// Adds a string to the component (§9.4) through this translation: it
/// reaches every translation, and every file at the next commit. Needs
/// `unit.add` and the component's `manage_units`; monolingual components
/// take strings on the source language only. Answers 200, as Weblate.
#[utoipa::path(
    tag = "translations",
    operation_id = "translations_units_create",
    params(TranslationPath),
    request_body = UnitCreate,
    responses(
        (status = 200, description = "The new unit", body = UnitDto),
        (status = 400, description = "Invalid fields or a string that exists", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[post("/api/translations/{project}/{component}/{language}/units/")]
async fn units_create(
    caller: Caller,
    path: web::Path<TranslationPath>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<UnitDto>> {
    let service = state.service.clone();
    let unit = with_body(&req, payload, move |input, _| {
        let body = input.parse::<UnitCreate>()?;
        service.units().add(&caller.0, path.parts(), body.into())
    })
    .await?;
    Ok(web::Json(UnitDto::new(unit, &links)))
}

/// Fills the strings `q` selects (§9.5) from other components of the
/// project and the translation memory (needs `translation.auto`). The
/// checks answer at once; the work runs as a background task, whose
/// result says how many strings were updated (Weblate works before
/// answering). Engines on the internet are refused.
#[utoipa::path(
    tag = "translations",
    params(TranslationPath),
    request_body = AutoTranslateBody,
    responses(
        (status = 200, description = "Started", body = AutoTranslateStarted),
        (status = 400, description = "Invalid fields", body = ErrorBody),
        (status = 403, description = "Not allowed, or the component is locked", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[post("/api/translations/{project}/{component}/{language}/autotranslate/")]
async fn autotranslate(
    caller: Caller,
    path: web::Path<TranslationPath>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<AutoTranslateStarted>> {
    let service = state.service.clone();
    let task = with_body(&req, payload, move |input, _| {
        let body = input.parse::<AutoTranslateBody>()?;
        service
            .translations()
            .autotranslate(&caller.0, path.parts(), body.into_request())
    })
    .await?;
    Ok(web::Json(AutoTranslateStarted {
        details: "Automatic translation started.".into(),
        task_url: links.api(&["tasks", &task]),
    }))
}

/// Translates many units of the translation at once (a Tolk extension):
/// up to 10,000 edits `{id, target, state}`, each with the rules of a
/// single unit PATCH, in one transaction. Refused edits change nothing
/// and are answered one by one; the others are applied.
#[utoipa::path(
    tag = "translations",
    operation_id = "translations_units_bulk_update",
    params(TranslationPath),
    request_body(content((BulkUnitEdits = "application/json"))),
    responses(
        (status = 200, description = "What became of each edit", body = BulkUnitResults),
        (status = 400, description = "Invalid body or too many edits", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[patch("/api/translations/{project}/{component}/{language}/units/")]
async fn units_bulk(
    caller: Caller,
    path: web::Path<TranslationPath>,
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<BulkUnitResults>> {
    let service = state.service.clone();
    let (ids, outcomes) = with_body(&req, payload, move |input, _| {
        let body = input.parse::<BulkUnitEdits>()?;
        let ids: Vec<i64> = body.units.iter().map(|e| e.id).collect();
        let edits = body
            .units
            .into_iter()
            .map(|e| BulkEdit {
                id: e.id,
                target: e.target,
                state: e.state,
            })
            .collect();
        Ok((
            ids,
            service.units().bulk_edit(&caller.0, path.parts(), edits)?,
        ))
    })
    .await?;
    let results: Vec<BulkUnitResult> = ids
        .into_iter()
        .zip(outcomes)
        .map(|(id, outcome)| match outcome {
            BulkOutcome::Applied => BulkUnitResult {
                id,
                result: "applied".into(),
                status: None,
                error: None,
            },
            BulkOutcome::Refused(refused) => {
                let error = ApiError::from(refused);
                BulkUnitResult {
                    id,
                    result: "refused".into(),
                    status: Some(error.status_code().as_u16()),
                    error: Some(error.body()),
                }
            }
        })
        .collect();
    let applied = results.iter().filter(|r| r.status.is_none()).count();
    Ok(web::Json(BulkUnitResults {
        applied,
        refused: results.len() - applied,
        results,
    }))
}

/// Merges an uploaded file (multipart `file`, any format Tolk reads) into
/// the translation by `method` (POST and PUT alike): all or nothing.
/// Answers Weblate's counts, and (a Tolk extension) why each string was
/// skipped or not found.
#[utoipa::path(
    method(post, put),
    tag = "translations",
    params(TranslationPath),
    request_body(content((TranslationUpload = "multipart/form-data"))),
    responses(
        (status = 200, description = "What the upload did", body = UploadResultDto),
        (status = 400, description = "Unreadable file, or a method or overwrite not allowed here", body = ErrorBody),
        (status = 403, description = "Not allowed to upload", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody),
        (status = 413, description = "The file is too large", body = ErrorBody)
    )
)]
#[route(
    "/api/translations/{project}/{component}/{language}/file/",
    method = "POST",
    method = "PUT"
)]
async fn file_upload(
    caller: Caller,
    path: web::Path<TranslationPath>,
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<UploadResultDto>> {
    let service = state.service.clone();
    let report = with_body(&req, payload, move |input, _| {
        let options = input.parse::<UploadOptions>()?;
        let (method, conflicts, fuzzy) = options.parts();
        let upload = FileUpload {
            file: input
                .file("file")
                .map(|(name, bytes)| (name.to_owned(), bytes.to_vec())),
            method,
            conflicts,
            fuzzy,
        };
        service.files().upload(&caller.0, path.parts(), upload)
    })
    .await?;
    Ok(web::Json(report.into()))
}

/// The translation's file as the repository holds it, with pending edits
/// committed first, or its units converted with `format` (those `q`
/// selects); needs `translation.download`.
#[utoipa::path(
    tag = "translations",
    params(TranslationPath, FileQuery),
    responses(
        (status = 200, description = "The file", content_type = "application/octet-stream", body = FileBytes),
        (status = 304, description = "Not modified since `If-Modified-Since`"),
        (status = 400, description = "Unknown or unfitting converter, or a bad query", body = ErrorBody),
        (status = 404, description = "Missing, hidden or without a file", body = ErrorBody),
        (status = 423, description = "The repository is busy", body = ErrorBody)
    )
)]
#[get("/api/translations/{project}/{component}/{language}/file/")]
async fn file(
    caller: Caller,
    path: web::Path<TranslationPath>,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let query: FileQuery = crate::query::parse(req.query_string())?;
    let service = state.service.clone();
    let file = blocking(move || {
        let (format, q) = (query.format.as_deref(), query.q.as_deref());
        service
            .files()
            .translation(&caller.0, path.parts(), format, q)
    })
    .await?;
    Ok(download(&req, file))
}
