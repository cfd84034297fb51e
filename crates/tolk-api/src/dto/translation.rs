//! Translations.

use serde::{Deserialize, Serialize};
use tolk_domain::permission::Subject;
use tolk_domain::stats::percent;
use tolk_service::translations::TranslationView;
use utoipa::ToSchema;

use crate::dto::component::ComponentDto;
use crate::dto::language::LanguageDto;
use crate::links::{Links, nested, timestamp};

/// One language of a component (§9.1), with the counts it keeps up to date.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct TranslationDto {
    /// Its language.
    pub language: LanguageDto,
    /// Its component (left out in a component's translation list).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub component: Option<Box<ComponentDto>>,
    /// The language code as the file name writes it.
    pub language_code: String,
    /// Id.
    pub id: i64,
    /// Path of the file in the repository.
    pub filename: String,
    /// Hash of the file's last read state.
    pub revision: String,
    /// Browser link.
    pub web_url: String,
    /// Browser link to share.
    pub share_url: String,
    /// Browser link to translate.
    pub translate_url: String,
    /// API link.
    pub url: String,
    /// Whether this translation is the monolingual base file.
    pub is_template: bool,
    /// Whether this is the source language's translation.
    pub is_source: bool,
    /// All strings.
    pub total: i64,
    /// Source words of all strings.
    pub total_words: i64,
    /// Translated strings (approved and read-only included).
    pub translated: i64,
    /// Words of translated strings.
    pub translated_words: i64,
    /// Percentage of translated strings.
    pub translated_percent: f64,
    /// Strings needing editing.
    pub fuzzy: i64,
    /// Words of strings needing editing.
    pub fuzzy_words: i64,
    /// Percentage of strings needing editing.
    pub fuzzy_percent: f64,
    /// Strings with failing checks.
    pub failing_checks: i64,
    /// Words of strings with failing checks.
    pub failing_checks_words: i64,
    /// Percentage of strings with failing checks.
    pub failing_checks_percent: f64,
    /// Strings with suggestions.
    pub have_suggestion: i64,
    /// Strings with unresolved comments.
    pub have_comment: i64,
    /// Time of the last change, or null.
    #[schema(format = DateTime)]
    pub last_change: Option<String>,
    /// Display name of the last author, or null.
    pub last_author: Option<String>,
    /// Repository status and operations.
    pub repository_url: String,
    /// The file.
    pub file_url: String,
    /// Statistics.
    pub statistics_url: String,
    /// Changes.
    pub changes_list_url: String,
    /// Units.
    pub units_list_url: String,
    /// Its announcements.
    pub announcements_url: String,
}

impl TranslationDto {
    /// Serialises a translation; with `component_for`, nests its component
    /// as that caller sees it.
    pub fn new(view: TranslationView, links: &Links, component_for: Option<&Subject>) -> Self {
        let c = &view.component;
        let (project, component) = (&c.project.settings.slug, &nested(&c.component.path));
        let code = &view.language.row.code;
        let api = |part: Option<&str>| {
            let mut segments = vec!["translations", project.as_str(), component.as_str(), code];
            segments.extend(part);
            links.api(&segments)
        };
        let counters = view.translation.counters;
        let total = counters.total.strings;
        Self {
            language_code: view.translation.language_code.clone(),
            id: view.translation.id,
            is_template: view.is_template(),
            is_source: view.is_source(),
            filename: view.translation.filename.clone(),
            revision: view.translation.revision.clone(),
            web_url: links.web(&["projects", project, &c.component.path, code]),
            share_url: links.web(&["engage", project, "-", code]),
            translate_url: links.web(&["translate", project, &c.component.path, code]),
            url: api(None),
            total,
            total_words: counters.total.words,
            translated: counters.translated.strings,
            translated_words: counters.translated.words,
            translated_percent: percent(counters.translated.strings, total, true),
            fuzzy: counters.fuzzy.strings,
            fuzzy_words: counters.fuzzy.words,
            fuzzy_percent: percent(counters.fuzzy.strings, total, false),
            failing_checks: counters.failing,
            // Quality checks are not run yet, so no string fails one.
            failing_checks_words: counters.failing_words,
            failing_checks_percent: percent(counters.failing, total, false),
            have_suggestion: counters.suggestions,
            have_comment: counters.comments,
            last_change: view.translation.last_change.map(timestamp),
            repository_url: api(Some("repository")),
            file_url: api(Some("file")),
            statistics_url: api(Some("statistics")),
            changes_list_url: api(Some("changes")),
            units_list_url: api(Some("units")),
            announcements_url: api(Some("announcements")),
            language: LanguageDto::new(view.language.clone(), links),
            last_author: view.last_author.clone(),
            component: component_for
                .map(|subject| Box::new(ComponentDto::new(view.component, links, true, subject))),
        }
    }
}

/// The body of `POST /api/components/{p}/{c}/translations/`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
pub struct TranslationCreate {
    /// The language to add, e.g. `de` or `pt_BR`.
    #[schema(min_length = 1, max_length = 50)]
    pub language_code: String,
}

/// What adding a translation answers.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct TranslationCreated {
    /// The new translation (without its component).
    pub data: TranslationDto,
}
