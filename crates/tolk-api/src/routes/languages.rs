//! `/api/languages/`.

use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, put, web};
use serde::Deserialize;
use tolk_domain::language::{LanguageFields, default_direction, plural_source};
use tolk_domain::validation::FieldErrors;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::language::LanguageDto;
use crate::dto::statistics::{StatisticsDto, Subject};
use crate::error::{ApiResult, ErrorBody};
use crate::input::Input;
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
        .service(statistics);
}

/// A language as POST and PUT give it.
#[derive(Debug, Deserialize, ToSchema)]
pub struct LanguageCreate {
    /// Unique code, e.g. `pt_BR`.
    #[schema(max_length = 50, pattern = r"^[a-zA-Z0-9_@+-]+$")]
    code: String,
    /// English name.
    name: String,
    /// `ltr` or `rtl` (by default from the code).
    direction: Option<String>,
    /// Number of speakers.
    population: Option<i64>,
    /// The default plural definition.
    plural: PluralCreate,
}

/// A plural definition as POST and PUT give it.
#[derive(Debug, Deserialize, ToSchema)]
pub struct PluralCreate {
    /// Number of plural forms.
    #[schema(minimum = 1, maximum = 6)]
    number: i32,
    /// Gettext plural formula, e.g. `n != 1`.
    #[schema(example = "n != 1", pattern = r"^[n0-9 !=<>&|?:%()]+$")]
    formula: String,
    /// Where the definition comes from (`plural.source` code).
    source: Option<i32>,
}

/// Changes to a language (PATCH): any field may be left out.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct LanguagePatch {
    /// Unique code, e.g. `pt_BR`.
    code: Option<String>,
    /// English name.
    name: Option<String>,
    /// `ltr` or `rtl`.
    direction: Option<String>,
    /// Number of speakers.
    population: Option<i64>,
    /// Changes to the default plural definition.
    plural: Option<PluralPatch>,
}

/// Changes to a plural definition.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct PluralPatch {
    /// Number of plural forms.
    number: Option<i32>,
    /// Gettext plural formula.
    formula: Option<String>,
    /// Where the definition comes from (`plural.source` code).
    source: Option<i32>,
}

impl From<LanguageCreate> for LanguagePatch {
    fn from(c: LanguageCreate) -> Self {
        Self {
            code: Some(c.code),
            name: Some(c.name),
            direction: c.direction,
            population: c.population,
            plural: Some(PluralPatch {
                number: Some(c.plural.number),
                formula: Some(c.plural.formula),
                source: c.plural.source,
            }),
        }
    }
}

impl LanguagePatch {
    /// Writes the given fields over `fields`; an empty direction is the code's default.
    fn apply(self, mut fields: LanguageFields) -> LanguageFields {
        let plural = self.plural.unwrap_or_default();
        for (given, kept) in [(self.code, &mut fields.code), (self.name, &mut fields.name)] {
            if let Some(given) = given {
                *kept = given;
            }
        }
        fields.direction = self.direction.unwrap_or(fields.direction);
        fields.population = self.population.unwrap_or(fields.population);
        fields.plural_number = plural.number.unwrap_or(fields.plural_number);
        fields.plural_formula = plural.formula.unwrap_or(fields.plural_formula);
        fields.plural_source = plural.source.unwrap_or(fields.plural_source);
        if fields.direction.is_empty() {
            fields.direction = default_direction(&fields.code).to_owned();
        }
        fields
    }
}

fn apply(
    input: &Input,
    current: LanguageFields,
    partial: bool,
) -> Result<LanguageFields, FieldErrors> {
    Ok(input
        .parse_change::<LanguageCreate, LanguagePatch>(partial)?
        .apply(current))
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
    let fetch = move |request| service.languages().list(&caller.0, request);
    page_of(&req, &links, STANDARD, fetch, |l| {
        LanguageDto::new(l, &links)
    })
    .await
}

/// Defines a language (needs `language.edit`).
#[utoipa::path(
    tag = "languages",
    request_body = LanguageCreate,
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
        service
            .languages()
            .create(&caller.0, apply(&input, empty, false))
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
    let language = blocking(move || service.languages().get(&caller.0, &code)).await?;
    Ok(web::Json(LanguageDto::new(language, &links)))
}

put_and_patch! {
    tag: "languages",
    path: "/api/languages/{code}/",
    params: [("code" = String, Path, description = "Language code")],
    key: String,
    create: LanguageCreate,
    patch: LanguagePatch,
    response: LanguageDto,
    put: "Replaces a language (needs `language.edit`): `code`, `name` and `plural` must be given.",
    patch_doc: "Changes the given fields of a language (needs `language.edit`).",
}

/// PUT and PATCH: the body's fields over the current ones.
async fn change(
    caller: Caller,
    code: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<LanguageDto>> {
    let service = state.service.clone();
    let language = with_body(&req, payload, move |input, partial| {
        service
            .languages()
            .update(&caller.0, &code, |current| apply(&input, current, partial))
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
    blocking(move || service.languages().delete(&caller.0, &code)).await?;
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
        blocking(move || service.languages().statistics(&caller.0, &code)).await?;
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
