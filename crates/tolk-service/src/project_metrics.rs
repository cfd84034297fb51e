//! A project's metrics (`GET /api/projects/{slug}/metrics/`, §21.2): the
//! counters of every translation of its components (and of those shared
//! into it) that the caller sees, by component path and language, read
//! from the kept counters in three statements.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use tolk_domain::permission::Subject;
use tolk_domain::stats::Counters;
use tolk_store::languages::{self, LanguageRow};
use tolk_store::{components, translations};

use crate::ServiceResult;
use crate::projects::{Projects, visible_project};

/// One translation's figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranslationMetrics {
    /// Its language.
    pub language: LanguageRow,
    /// Its counters.
    pub counters: Counters,
    /// Its last change.
    pub last_change: Option<NaiveDateTime>,
    /// Whether its strings are reviewed (the project's setting, or its
    /// language's workflow).
    pub reviewed: bool,
}

/// The figures of a component's translations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentMetrics {
    /// Its path in the project (`category/slug`); a shared component
    /// whose path one of the project's own takes gets `@{id}` after it.
    pub path: String,
    /// Its translations, by language name.
    pub translations: Vec<TranslationMetrics>,
}

impl Projects<'_> {
    /// The metrics of the project `slug`, by component path.
    pub fn metrics(&self, subject: &Subject, slug: &str) -> ServiceResult<Vec<ComponentMetrics>> {
        self.store.read(|conn| {
            let project = visible_project(conn, subject, slug)?;
            let found = components::in_project(conn, &subject.project_visibility(), project.id)?;
            let ids: Vec<i64> = found.iter().map(|c| c.id).collect();
            let mut rows: HashMap<i64, Vec<translations::Translation>> = HashMap::new();
            let mut language_ids = Vec::new();
            for row in translations::of_components(conn, &ids)? {
                language_ids.push(row.language_id);
                rows.entry(row.component_id).or_default().push(row);
            }
            language_ids.sort_unstable();
            language_ids.dedup();
            let names: HashMap<i64, LanguageRow> = languages::get_by_ids(conn, &language_ids)?
                .into_iter()
                .map(|l| (l.id, l))
                .collect();
            let own: Vec<&str> = found
                .iter()
                .filter(|c| c.project_id == project.id)
                .map(|c| c.path.as_str())
                .collect();
            let mut metrics: Vec<ComponentMetrics> = found
                .iter()
                .map(|component| {
                    let mut list: Vec<TranslationMetrics> = rows
                        .remove(&component.id)
                        .unwrap_or_default()
                        .into_iter()
                        .filter_map(|t| {
                            let language = names.get(&t.language_id)?.clone();
                            let reviewed = project
                                .workflows
                                .0
                                .get(&language.code)
                                .map_or(project.settings.translation_review, |w| {
                                    w.translation_review
                                });
                            Some(TranslationMetrics {
                                language,
                                counters: t.counters,
                                last_change: t.last_change,
                                reviewed,
                            })
                        })
                        .collect();
                    list.sort_by(|a, b| a.language.name.cmp(&b.language.name));
                    let shared = component.project_id != project.id;
                    let path = if shared && own.contains(&component.path.as_str()) {
                        format!("{}@{}", component.path, component.id)
                    } else {
                        component.path.clone()
                    };
                    ComponentMetrics {
                        path,
                        translations: list,
                    }
                })
                .collect();
            metrics.sort_by(|a, b| a.path.cmp(&b.path));
            Ok(metrics)
        })
    }
}
