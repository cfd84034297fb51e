//! Languages.

use serde::Serialize;
use tolk_service::Language;
use utoipa::ToSchema;

use crate::links::Links;

/// A language's default plural definition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct PluralDto {
    /// Id of the plural definition.
    pub id: i64,
    /// Where it comes from: 0 default, 1 gettext, 2 manual, 3–6 other sources.
    pub source: i32,
    /// Number of plural forms.
    pub number: i32,
    /// Gettext plural formula.
    pub formula: String,
    /// Plural type code (read-only, derived from the formula).
    #[serde(rename = "type")]
    pub kind: i32,
}

/// A language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct LanguageDto {
    /// Id.
    pub id: i64,
    /// Code, e.g. `pt_BR`.
    pub code: String,
    /// English name.
    pub name: String,
    /// Default plural.
    pub plural: PluralDto,
    /// Other codes naming this language.
    pub aliases: Vec<String>,
    /// `ltr` or `rtl`.
    pub direction: String,
    /// Number of speakers.
    pub population: i64,
    /// Browser link.
    pub web_url: String,
    /// API link.
    pub url: String,
    /// Statistics link.
    pub statistics_url: String,
}

impl LanguageDto {
    /// Serialises a stored language.
    pub fn new(language: Language, links: &Links) -> Self {
        let code = language.row.code;
        Self {
            id: language.row.id,
            plural: PluralDto {
                id: language.plural.id,
                source: language.plural.source,
                number: language.plural.number,
                formula: language.plural.formula,
                kind: language.plural.kind,
            },
            aliases: language.aliases,
            name: language.row.name,
            direction: language.row.direction,
            population: language.row.population,
            web_url: links.web(&["languages", &code]),
            url: links.api(&["languages", &code]),
            statistics_url: links.api(&["languages", &code, "statistics"]),
            code,
        }
    }
}
