//! The glossary terms strings are checked against (`check_glossary`):
//! the strings, in a translation's language, of its project's glossary
//! components (`is_glossary`) of the same source language. They are read
//! only for strings whose flags ask for the check, once per translation.
//! Their sources are what `has:glossary` looks for.

use std::collections::HashMap;

use tolk_domain::checks::Flags;
use tolk_domain::checks::glossary::{Glossary, NO_GLOSSARY, Term};
use tolk_domain::query::Condition;
use tolk_store::{DbConnection, components, translations, units};

use crate::ServiceResult;
use crate::translations::TranslationView;
use crate::unit_view::UnitView;

/// The flag that turns the glossary check on.
pub(crate) const CHECK_GLOSSARY: &str = "check-glossary";

/// The terms of `project_id`'s glossaries from `source_language_id` in
/// `language_id`; three statements (none past the first when the project
/// has no glossary).
pub(crate) fn terms_of(
    conn: &mut DbConnection,
    project_id: i64,
    source_language_id: i64,
    language_id: i64,
) -> ServiceResult<Glossary> {
    let glossaries: Vec<i64> = components::of_project(conn, project_id)?
        .into_iter()
        .filter(|c| c.settings.is_glossary && c.source_language_id == source_language_id)
        .map(|c| c.id)
        .collect();
    if glossaries.is_empty() {
        return Ok(Glossary::new(Vec::new()));
    }
    let terms = units::terms_in(conn, language_id, &glossaries)?
        .into_iter()
        .map(|(source, target, flags)| {
            let flags = Flags::parse([flags.as_str()]);
            Term {
                source,
                target,
                forbidden: flags.has("forbidden"),
                untranslatable: flags.has("read-only"),
            }
        })
        .collect();
    Ok(Glossary::new(terms))
}

/// `condition` with `has:glossary` looking for the terms of `project`'s
/// glossaries (the translated strings of their source translations, as
/// Weblate); outside a project it matches nothing. Three statements when
/// the condition asks, none otherwise.
pub(crate) fn resolve_search(
    conn: &mut DbConnection,
    condition: Option<Condition>,
    project: Option<i64>,
) -> ServiceResult<Option<Condition>> {
    let Some(condition) = condition else {
        return Ok(None);
    };
    let Some(project_id) = project.filter(|_| condition.asks_glossary()) else {
        return Ok(Some(condition));
    };
    let glossaries: Vec<(i64, i64)> = components::of_project(conn, project_id)?
        .into_iter()
        .filter(|c| c.settings.is_glossary)
        .map(|c| (c.id, c.source_language_id))
        .collect();
    let ids: Vec<i64> = glossaries.iter().map(|(id, _)| *id).collect();
    let sources: Vec<i64> = translations::of_components(conn, &ids)?
        .into_iter()
        .filter(|t| glossaries.contains(&(t.component_id, t.language_id)))
        .map(|t| t.id)
        .collect();
    let terms = units::terms_of_translations(conn, &sources)?;
    Ok(Some(condition.with_glossary(&terms)))
}

/// Glossary terms read as strings need them, kept by translation.
#[derive(Debug, Default)]
pub(crate) struct GlossaryTerms {
    read: HashMap<i64, Glossary>,
}

impl GlossaryTerms {
    /// The terms `view`'s text is checked against: none unless its flags
    /// turn the check on (the unit's, its string's, its component's and
    /// project's).
    pub(crate) fn for_unit(
        &mut self,
        conn: &mut DbConnection,
        view: &UnitView,
    ) -> ServiceResult<&Glossary> {
        if !crate::unit_plan::flags_of(view).has(CHECK_GLOSSARY) {
            return Ok(&NO_GLOSSARY);
        }
        self.of(conn, &view.translation)
    }

    /// The terms of `translation`'s language (none for the source
    /// language's strings).
    pub(crate) fn of(
        &mut self,
        conn: &mut DbConnection,
        translation: &TranslationView,
    ) -> ServiceResult<&Glossary> {
        let id = translation.translation.id;
        if let std::collections::hash_map::Entry::Vacant(slot) = self.read.entry(id) {
            let terms = if translation.is_source() {
                Glossary::new(Vec::new())
            } else {
                terms_of(
                    conn,
                    translation.component.project.id,
                    translation.component.component.source_language_id,
                    translation.language.row.id,
                )?
            };
            slot.insert(terms);
        }
        Ok(self.read.get(&id).unwrap_or(&NO_GLOSSARY))
    }
}
