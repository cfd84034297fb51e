//! The statistics object of projects, languages and their combinations (§23).

use serde::Serialize;
use tolk_domain::stats::{Count, Counters, percent};
use tolk_service::Summary;
use utoipa::ToSchema;

use crate::links::timestamp;

/// Translation statistics of an object.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct StatisticsDto {
    /// All strings.
    pub total: i64,
    /// Source words of all strings.
    pub total_words: i64,
    /// Source characters of all strings.
    pub total_chars: i64,
    /// Time of the last change, or null.
    #[schema(format = DateTime)]
    pub last_change: Option<String>,
    /// Content changes within six hours before the last change.
    pub recent_changes: i64,
    /// Translated strings (including approved and read-only).
    pub translated: i64,
    /// Words of translated strings.
    pub translated_words: i64,
    /// Percentage of translated strings.
    pub translated_percent: f64,
    /// Percentage of translated words.
    pub translated_words_percent: f64,
    /// Characters of translated strings.
    pub translated_chars: i64,
    /// Percentage of translated characters.
    pub translated_chars_percent: f64,
    /// Strings needing editing.
    pub fuzzy: i64,
    /// Percentage of strings needing editing.
    pub fuzzy_percent: f64,
    /// Words of strings needing editing.
    pub fuzzy_words: i64,
    /// Percentage of words needing editing.
    pub fuzzy_words_percent: f64,
    /// Characters of strings needing editing.
    pub fuzzy_chars: i64,
    /// Percentage of characters needing editing.
    pub fuzzy_chars_percent: f64,
    /// Strings with failing checks.
    pub failing: i64,
    /// Percentage of strings with failing checks.
    pub failing_percent: f64,
    /// Approved strings.
    pub approved: i64,
    /// Percentage of approved strings.
    pub approved_percent: f64,
    /// Words of approved strings.
    pub approved_words: i64,
    /// Percentage of approved words.
    pub approved_words_percent: f64,
    /// Characters of approved strings.
    pub approved_chars: i64,
    /// Percentage of approved characters.
    pub approved_chars_percent: f64,
    /// Read-only strings.
    pub readonly: i64,
    /// Percentage of read-only strings.
    pub readonly_percent: f64,
    /// Words of read-only strings.
    pub readonly_words: i64,
    /// Percentage of read-only words.
    pub readonly_words_percent: f64,
    /// Characters of read-only strings.
    pub readonly_chars: i64,
    /// Percentage of read-only characters.
    pub readonly_chars_percent: f64,
    /// Strings with suggestions.
    pub suggestions: i64,
    /// Strings with unresolved comments.
    pub comments: i64,
    /// Language code (translations and per-language rows only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Name of the object or language.
    pub name: String,
    /// Browser link of the object.
    pub url: String,
    /// Browser link to translate (translations and per-language rows only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub translate_url: Option<String>,
}

/// What a statistics object describes besides its counts.
pub struct Subject<'a> {
    /// Name of the object or language.
    pub name: &'a str,
    /// Browser link of the object.
    pub url: String,
    /// Language code, for per-language rows.
    pub code: Option<&'a str>,
    /// Browser translate link, for per-language rows.
    pub translate_url: Option<String>,
    /// True when reviews are on (or for language-wide aggregates): then an
    /// empty object counts as fully approved rather than fully translated.
    pub reviewed: bool,
}

impl StatisticsDto {
    /// Builds the object from summed counters.
    pub fn new(summary: &Summary, subject: Subject<'_>) -> Self {
        let c: &Counters = &summary.counters;
        let pct = |count: Count, complete: bool| c.percents(count, complete);
        let translated = pct(c.translated, !subject.reviewed);
        let fuzzy = pct(c.fuzzy, false);
        let approved = pct(c.approved, subject.reviewed);
        let readonly = pct(c.readonly, false);
        Self {
            total: c.total.strings,
            total_words: c.total.words,
            total_chars: c.total.chars,
            last_change: summary.last_change.map(timestamp),
            recent_changes: summary.recent_changes,
            translated: c.translated.strings,
            translated_words: c.translated.words,
            translated_percent: translated.strings,
            translated_words_percent: translated.words,
            translated_chars: c.translated.chars,
            translated_chars_percent: translated.chars,
            fuzzy: c.fuzzy.strings,
            fuzzy_percent: fuzzy.strings,
            fuzzy_words: c.fuzzy.words,
            fuzzy_words_percent: fuzzy.words,
            fuzzy_chars: c.fuzzy.chars,
            fuzzy_chars_percent: fuzzy.chars,
            failing: c.failing,
            failing_percent: percent(c.failing, c.total.strings, false),
            approved: c.approved.strings,
            approved_percent: approved.strings,
            approved_words: c.approved.words,
            approved_words_percent: approved.words,
            approved_chars: c.approved.chars,
            approved_chars_percent: approved.chars,
            readonly: c.readonly.strings,
            readonly_percent: readonly.strings,
            readonly_words: c.readonly.words,
            readonly_words_percent: readonly.words,
            readonly_chars: c.readonly.chars,
            readonly_chars_percent: readonly.chars,
            suggestions: c.suggestions,
            comments: c.comments,
            code: subject.code.map(str::to_owned),
            name: subject.name.to_owned(),
            url: subject.url,
            translate_url: subject.translate_url,
        }
    }
}

impl StatisticsDto {
    /// The statistics of one translation, with its language and links.
    pub fn of_translation(
        view: &tolk_service::translations::TranslationView,
        summary: &Summary,
        links: &crate::links::Links,
    ) -> Self {
        let c = &view.component;
        let (project, component) = (&c.project.settings.slug, &c.component.path);
        let code = &view.language.row.code;
        Self::new(
            summary,
            Subject {
                name: &view.language.row.name,
                url: links.web(&["projects", project, component, code]),
                code: Some(code),
                translate_url: Some(links.web(&["translate", project, component, code])),
                reviewed: c.project.settings.translation_review,
            },
        )
    }
}
