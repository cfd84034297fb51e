//! `/api/languages/`.

use actix_web::{HttpRequest, HttpResponse, delete, get, post, route, web};
use serde::{Deserialize, Serialize};
use tolk_domain::language::{LanguageFields, default_direction, plural_source};
use tolk_domain::validation::FieldErrors;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::auth::Caller;
use crate::dto::language::LanguageDto;
use crate::dto::statistics::{StatisticsDto, Subject};
use crate::error::{ApiResult, ErrorBody};
use crate::input::{Field, Input, Kind};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD};
use crate::routes::{page_of, with_body};
use crate::state::AppState;
use crate::{blocking, created};

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list)
        .service(create)
        .service(detail)
        .service(update)
        .service(remove)
        .service(statistics);
}

const PLURAL_FIELDS: &[Field] = &[
    Field::required("number", Kind::Int),
    Field::required("formula", Kind::Str),
    Field::optional("source", Kind::Int),
];

const FIELDS: &[Field] = &[
    Field::required("code", Kind::Str),
    Field::required("name", Kind::Str),
    Field::optional("direction", Kind::Str),
    Field::optional("population", Kind::Int),
    Field::required("plural", Kind::Object(PLURAL_FIELDS)),
];

/// A language as a request body writes it.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct LanguageInput {
    code: String,
    name: String,
    direction: String,
    population: i64,
    plural: PluralInput,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct PluralInput {
    number: i32,
    formula: String,
    source: i32,
}

impl From<LanguageFields> for LanguageInput {
    fn from(f: LanguageFields) -> Self {
        Self {
            code: f.code,
            name: f.name,
            direction: f.direction,
            population: f.population,
            plural: PluralInput {
                number: f.plural_number,
                formula: f.plural_formula,
                source: f.plural_source,
            },
        }
    }
}

impl From<LanguageInput> for LanguageFields {
    fn from(i: LanguageInput) -> Self {
        let direction = if i.direction.is_empty() {
            default_direction(&i.code).to_owned()
        } else {
            i.direction
        };
        Self {
            code: i.code,
            name: i.name,
            direction,
            population: i.population,
            plural_number: i.plural.number,
            plural_formula: i.plural.formula,
            plural_source: i.plural.source,
        }
    }
}

fn apply(
    input: &Input,
    current: LanguageFields,
    partial: bool,
) -> Result<LanguageFields, FieldErrors> {
    input
        .apply(&LanguageInput::from(current), FIELDS, partial)
        .map(LanguageFields::from)
}

/// Lists languages: every defined language for language managers, the
/// languages in use for everybody else.
#[utoipa::path(
    tag = "languages",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of languages", body = Paginated<LanguageDto>),
        (status = 404, description = "Invalid page", body = ErrorBody)
    )
)]
#[get("/api/languages/")]
async fn list(
    caller: Caller,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<LanguageDto>>> {
    let service = state.service.clone();
    let fetch = move |request| service.languages(&caller.0, request);
    page_of(&req, &links, STANDARD, fetch, |l| {
        LanguageDto::new(l, &links)
    })
    .await
}

/// Defines a language (needs `language.edit`).
#[utoipa::path(
    tag = "languages",
    request_body(content = Object, description = "`code`, `name`, optional `direction` and `population`, and `plural` with `number`, `formula` and optional `source`"),
    responses(
        (status = 201, description = "Created", body = LanguageDto),
        (status = 400, description = "Invalid fields", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody)
    )
)]
#[post("/api/languages/")]
async fn create(
    caller: Caller,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let empty = LanguageFields {
        code: String::new(),
        name: String::new(),
        direction: String::new(),
        population: 0,
        plural_number: 0,
        plural_formula: String::new(),
        plural_source: plural_source::DEFAULT,
    };
    let service = state.service.clone();
    let language = with_body(&req, payload, move |input, _| {
        service.create_language(&caller.0, apply(&input, empty, false))
    })
    .await?;
    let dto = LanguageDto::new(language, &links);
    Ok(created(&dto.url.clone(), dto))
}

/// One language.
#[utoipa::path(
    tag = "languages",
    params(("code" = String, Path, description = "Language code")),
    responses(
        (status = 200, description = "The language", body = LanguageDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/languages/{code}/")]
async fn detail(
    caller: Caller,
    code: web::Path<String>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<LanguageDto>> {
    let service = state.service.clone();
    let language = blocking(move || service.language(&caller.0, &code)).await?;
    Ok(web::Json(LanguageDto::new(language, &links)))
}

/// Changes a language (needs `language.edit`): PUT sets every field;
/// PATCH changes only the given fields.
#[utoipa::path(
    tag = "languages",
    params(("code" = String, Path, description = "Language code")),
    request_body(content = Object, description = "Language fields"),
    responses(
        (status = 200, description = "Updated", body = LanguageDto),
        (status = 400, description = "Invalid fields", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[route("/api/languages/{code}/", method = "PUT", method = "PATCH")]
async fn update(
    caller: Caller,
    code: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<LanguageDto>> {
    let service = state.service.clone();
    let language = with_body(&req, payload, move |input, partial| {
        service.update_language(&caller.0, &code, |current| apply(&input, current, partial))
    })
    .await?;
    Ok(web::Json(LanguageDto::new(language, &links)))
}

/// Removes a language no translation uses (needs `language.edit`).
#[utoipa::path(
    tag = "languages",
    params(("code" = String, Path, description = "Language code")),
    responses(
        (status = 204, description = "Removed"),
        (status = 400, description = "The language is in use", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/languages/{code}/")]
async fn remove(
    caller: Caller,
    code: web::Path<String>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || service.delete_language(&caller.0, &code)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Statistics of a language over the projects the caller may see.
#[utoipa::path(
    tag = "languages",
    params(("code" = String, Path, description = "Language code")),
    responses(
        (status = 200, description = "Statistics", body = StatisticsDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/languages/{code}/statistics/")]
async fn statistics(
    caller: Caller,
    code: web::Path<String>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<StatisticsDto>> {
    let service = state.service.clone();
    let (language, summary) =
        blocking(move || service.language_statistics(&caller.0, &code)).await?;
    Ok(web::Json(StatisticsDto::new(
        &summary,
        Subject {
            name: &language.row.name,
            url: links.web(&["languages", &language.row.code]),
            code: None,
            translate_url: None,
            reviewed: true,
        },
    )))
}
