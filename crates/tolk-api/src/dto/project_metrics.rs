//! A project's metrics (§21.2): JSON by component and language, a CSV
//! table of one row per figure, and the OpenMetrics text format.

use serde::Serialize;
use tolk_service::project_metrics::{ComponentMetrics, TranslationMetrics};
use utoipa::ToSchema;

/// The figures of one translation, in Weblate's key order.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct TranslationMetricsDto {
    /// The language's name.
    pub name: String,
    /// Translated strings.
    pub translated: i64,
    /// Their source words.
    pub translated_words: i64,
    /// Their source characters.
    pub translated_chars: i64,
    /// All strings.
    pub total: i64,
    /// Their source words.
    pub total_words: i64,
    /// Their source characters.
    pub total_chars: i64,
    /// Strings needing editing.
    pub fuzzy: i64,
    /// Their source words.
    pub fuzzy_words: i64,
    /// Their source characters.
    pub fuzzy_chars: i64,
    /// Strings failing quality checks.
    pub failing: i64,
    /// Their source words.
    pub failing_words: i64,
    /// Their source characters.
    pub failing_chars: i64,
    /// Approved strings.
    pub approved: i64,
    /// Their source words.
    pub approved_words: i64,
    /// Their source characters.
    pub approved_chars: i64,
    /// Strings with suggestions.
    pub suggestions: i64,
    /// Strings with comments.
    pub comments: i64,
    /// Translated, in percent of the strings.
    pub translated_percent: f64,
    /// Translated, in percent of the words.
    pub translated_words_percent: f64,
    /// Translated, in percent of the characters.
    pub translated_chars_percent: f64,
    /// Approved, in percent of the strings.
    pub approved_percent: f64,
    /// Approved, in percent of the words.
    pub approved_words_percent: f64,
    /// Approved, in percent of the characters.
    pub approved_chars_percent: f64,
}

impl From<&TranslationMetrics> for TranslationMetricsDto {
    fn from(m: &TranslationMetrics) -> Self {
        let c = &m.counters;
        let translated = c.percents(c.translated, !m.reviewed);
        let approved = c.percents(c.approved, m.reviewed);
        Self {
            name: m.language.name.clone(),
            translated: c.translated.strings,
            translated_words: c.translated.words,
            translated_chars: c.translated.chars,
            total: c.total.strings,
            total_words: c.total.words,
            total_chars: c.total.chars,
            fuzzy: c.fuzzy.strings,
            fuzzy_words: c.fuzzy.words,
            fuzzy_chars: c.fuzzy.chars,
            failing: c.failing,
            failing_words: c.failing_words,
            failing_chars: c.failing_chars,
            approved: c.approved.strings,
            approved_words: c.approved.words,
            approved_chars: c.approved.chars,
            suggestions: c.suggestions,
            comments: c.comments,
            translated_percent: translated.strings,
            translated_words_percent: translated.words,
            translated_chars_percent: translated.chars,
            approved_percent: approved.strings,
            approved_words_percent: approved.words,
            approved_chars_percent: approved.chars,
        }
    }
}

/// The figures of one translation as `(metric, value)` pairs, in the
/// JSON's order, `name` left out.
fn figures(dto: &TranslationMetricsDto) -> Vec<(String, serde_json::Value)> {
    match serde_json::to_value(dto) {
        Ok(serde_json::Value::Object(map)) => {
            map.into_iter().filter(|(key, _)| key != "name").collect()
        }
        _ => Vec::new(),
    }
}

/// Every translation's figures with its component path and language code.
fn rows(metrics: &[ComponentMetrics]) -> Vec<(&str, &TranslationMetrics, TranslationMetricsDto)> {
    metrics
        .iter()
        .flat_map(|component| {
            component
                .translations
                .iter()
                .map(|t| (component.path.as_str(), t, TranslationMetricsDto::from(t)))
        })
        .collect()
}

/// The JSON answer: component path → language code → figures.
pub fn json(metrics: &[ComponentMetrics]) -> serde_json::Value {
    let mut by_component = serde_json::Map::new();
    for component in metrics {
        let mut by_language = serde_json::Map::new();
        for t in &component.translations {
            let dto = TranslationMetricsDto::from(t);
            by_language.insert(
                t.language.code.clone(),
                serde_json::to_value(dto).unwrap_or_default(),
            );
        }
        by_component.insert(component.path.clone(), by_language.into());
    }
    by_component.into()
}

/// The CSV answer: `component,language,metric,name,value`, one row per
/// figure.
pub fn csv(metrics: &[ComponentMetrics]) -> String {
    let mut out = String::from("component,language,metric,name,value\r\n");
    for (path, t, dto) in rows(metrics) {
        for (metric, value) in figures(&dto) {
            let cells = [
                path,
                &t.language.code,
                &metric,
                &dto.name,
                &value.to_string(),
            ];
            let line: Vec<String> = cells.iter().map(|c| crate::csv::cell(c)).collect();
            out.push_str(&line.join(","));
            out.push_str("\r\n");
        }
    }
    out
}

/// The OpenMetrics answer: an info series per translation, a gauge per
/// figure, and the time of the last change.
pub fn openmetrics(metrics: &[ComponentMetrics]) -> String {
    let all = rows(metrics);
    let labels = |path: &str, t: &TranslationMetrics| {
        format!(
            "component=\"{}\",language=\"{}\"",
            crate::dto::metrics::escape_label(path),
            crate::dto::metrics::escape_label(&t.language.code)
        )
    };
    let mut out = String::from(
        "# HELP weblate_translation_info Translation information.\n# TYPE weblate_translation_info info\n",
    );
    for (path, t, dto) in &all {
        out.push_str(&format!(
            "weblate_translation_info{{{},name=\"{}\"}} 1\n",
            labels(path, t),
            crate::dto::metrics::escape_label(&dto.name)
        ));
    }
    let table: Vec<Vec<(String, serde_json::Value)>> =
        all.iter().map(|(_, _, dto)| figures(dto)).collect();
    let names: Vec<String> = table
        .first()
        .map(|row| row.iter().map(|(m, _)| m.clone()).collect())
        .unwrap_or_default();
    for (n, metric) in names.iter().enumerate() {
        let series = match metric.as_str() {
            "suggestions" => "weblate_strings_with_suggestions".to_owned(),
            other => format!("weblate_{other}"),
        };
        out.push_str(&format!(
            "# HELP {series} The translation's {metric}.\n# TYPE {series} gauge\n"
        ));
        for ((path, t, _), row) in all.iter().zip(&table) {
            if let Some((_, value)) = row.get(n) {
                out.push_str(&format!("{series}{{{}}} {value}\n", labels(path, t)));
            }
        }
    }
    out.push_str("# HELP weblate_last_update_timestamp The translation's last change.\n# TYPE weblate_last_update_timestamp gauge\n");
    for (path, t, _) in &all {
        let at = t.last_change.map_or(0, |at| at.and_utc().timestamp());
        out.push_str(&format!(
            "weblate_last_update_timestamp{{{}}} {at}\n",
            labels(path, t)
        ));
    }
    out.push_str("# EOF\n");
    out
}
