//! Site metrics.

use serde::Serialize;
use tolk_service::metrics::Metrics;
use utoipa::ToSchema;

/// Site-wide counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct MetricsDto {
    /// Strings in all translations.
    pub units: i64,
    /// Translated strings.
    pub units_translated: i64,
    /// Accounts.
    pub users: i64,
    /// Recorded changes.
    pub changes: i64,
    /// Projects.
    pub projects: i64,
    /// Components.
    pub components: i64,
    /// Translations.
    pub translations: i64,
    /// Defined languages.
    pub languages: i64,
    /// Failing checks.
    pub checks: i64,
    /// Configuration errors.
    pub configuration_errors: i64,
    /// Pending suggestions.
    pub suggestions: i64,
    /// Unfinished background tasks per queue.
    #[schema(value_type = std::collections::BTreeMap<String, i64>)]
    pub celery_queues: serde_json::Map<String, serde_json::Value>,
    /// Site name.
    pub name: String,
    /// Tolk's version.
    pub version: String,
}

impl MetricsDto {
    /// Serialises site metrics.
    pub fn new(metrics: Metrics, site_title: &str) -> Self {
        let c = metrics.counts;
        Self {
            units: c.units,
            units_translated: c.units_translated,
            users: c.users,
            changes: c.changes,
            projects: c.projects,
            components: c.components,
            translations: c.translations,
            languages: c.languages,
            checks: c.checks,
            configuration_errors: 0,
            suggestions: c.suggestions,
            celery_queues: metrics
                .queues
                .into_iter()
                .map(|(queue, length)| (queue, length.into()))
                .collect(),
            name: site_title.to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
        }
    }

    /// The OpenMetrics text exposition of the same numbers.
    pub fn openmetrics(&self) -> String {
        let gauges: [(&str, &str, i64); 11] = [
            ("units", "Number of translation units.", self.units),
            (
                "units_translated",
                "Number of translated units.",
                self.units_translated,
            ),
            ("users", "Number of users.", self.users),
            ("changes", "Number of changes.", self.changes),
            ("projects", "Number of projects.", self.projects),
            ("components", "Number of components.", self.components),
            ("translations", "Number of translations.", self.translations),
            ("languages", "Number of languages.", self.languages),
            ("checks", "Number of failing checks.", self.checks),
            (
                "configuration_errors",
                "Number of configuration errors.",
                self.configuration_errors,
            ),
            (
                "suggestions",
                "Number of translation suggestions.",
                self.suggestions,
            ),
        ];
        let mut out = String::new();
        for (name, help, value) in gauges {
            out.push_str(&format!(
                "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}\n"
            ));
        }
        out.push_str("# HELP celery_queues Number of tasks in each background queue.\n# TYPE celery_queues gauge\n");
        for (queue, length) in &self.celery_queues {
            out.push_str(&format!(
                "celery_queues{{queue=\"{}\"}} {length}\n",
                escape_label(queue)
            ));
        }
        out.push_str(&format!(
            "# HELP tolk_info Tolk build information.\n# TYPE tolk_info gauge\ntolk_info{{version=\"{}\"}} 1\n# EOF\n",
            escape_label(&self.version)
        ));
        out
    }
}

pub(crate) fn escape_label(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('"', "\\\"")
}
