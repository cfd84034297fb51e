//! The `reused` check (Weblate's): a string fails it when a translated
//! string of another source holds the same text in the same language, in
//! its component or another component of its project with the same source
//! language, where the components share translations
//! (`allow_translation_propagation`). Sources that differ only in case
//! count as one in languages without letter case; languages with a single
//! plural form are not checked, as Weblate leaves them out for the false
//! alarms they give. Like `inconsistent` it needs other strings, so it is
//! kept up to date apart from the checks of one unit: after each edit for
//! the old and new texts, after each scan for every repeated text.

use std::collections::HashMap;

use tolk_domain::checks::catalogue::REUSED;
use tolk_domain::language::is_case_sensitive;
use tolk_domain::unit::{UnitState, split_plurals};
use tolk_store::languages::Language;
use tolk_store::{DbConnection, unit_texts};

use crate::cache::Generation;
use crate::consistency::shares;
use crate::unit_view::UnitView;
use crate::verdicts::{self, Verdict};
use crate::{Service, ServiceResult};

impl Service {
    /// Brings the `reused` verdicts of the units holding some texts
    /// (each with its language; plural forms joined: the old and new
    /// texts of edited strings) in the translations of a project up to
    /// date, in the caller's transaction; `also` names a component that
    /// has stopped sharing translations, whose verdicts are cleared. The
    /// units whose failing checks changed.
    pub(crate) fn refresh_reused(
        &self,
        conn: &mut DbConnection,
        generation: Generation,
        (project_id, also): (i64, Option<i64>),
        texts: &[(i64, String)],
    ) -> ServiceResult<HashMap<i64, Verdict>> {
        let languages = texts.iter().map(|(language, _)| *language).collect();
        let languages = self.checked_languages(conn, generation, languages)?;
        let mut texts: Vec<String> = texts
            .iter()
            .filter(|(language, _)| languages.binary_search(language).is_ok())
            .map(|(_, text)| text.clone())
            .filter(|text| !text.is_empty())
            .collect();
        texts.sort_unstable();
        texts.dedup();
        if texts.is_empty() {
            return Ok(HashMap::new());
        }
        let mut components = self.cache.propagating(generation, conn, project_id)?;
        components.extend(also.filter(|id| !components.contains(id)));
        if components.is_empty() {
            return Ok(HashMap::new());
        }
        let checked_from = UnitState::Fuzzy.code();
        let found = unit_texts::holding(conn, &components, &languages, &texts, checked_from)?;
        let views = self.unit_views(conn, generation, found, false)?;
        verdicts::apply(conn, REUSED, &judge(&views))
    }

    /// After a scan of `component`: the `reused` verdicts of every text
    /// held twice, or failing the check, in its languages (the source
    /// language left out) across the components of its project that share
    /// translations, and of its own failing strings when it shares with
    /// none; one transaction, three statements when no text repeats.
    pub(crate) fn refresh_component_reuse(
        &self,
        component: &tolk_store::components::Component,
        source_language: i64,
    ) -> ServiceResult<()> {
        self.store.write(|conn| {
            let generation = self.cache.sync(conn)?;
            let mut components = self
                .cache
                .propagating(generation, conn, component.project_id)?;
            components.push(component.id);
            let languages: Vec<i64> = tolk_store::translations::of_component(conn, component.id)?
                .iter()
                .map(|t| t.language_id)
                .filter(|id| *id != source_language)
                .collect();
            let languages = self.checked_languages(conn, generation, languages)?;
            if languages.is_empty() {
                return Ok(());
            }
            let found = unit_texts::repeated_or_failing(
                conn,
                &components,
                &languages,
                UnitState::Fuzzy.code(),
                REUSED,
            )?;
            let place = (component.project_id, Some(component.id));
            self.refresh_reused(conn, generation, place, &found)?;
            Ok(())
        })
    }

    /// Of some languages, those whose strings are checked for reuse,
    /// sorted: no verdict is ever given in the others, so there is none
    /// to look up or clear there.
    fn checked_languages(
        &self,
        conn: &mut DbConnection,
        generation: Generation,
        mut languages: Vec<i64>,
    ) -> ServiceResult<Vec<i64>> {
        languages.sort_unstable();
        languages.dedup();
        let known = self.cache.languages(generation, conn, &languages)?;
        languages.retain(|id| known.get(id).is_some_and(checks_language));
        Ok(languages)
    }
}

/// Whether each unit fails the check, among units holding its text.
fn judge(views: &[UnitView]) -> Vec<(&UnitView, bool)> {
    let key = |view: &UnitView| {
        (
            view.translation.translation.language_id,
            view.translation.component.component.source_language_id,
            view.translation.translation.plural_id,
            view.unit.target.clone(),
        )
    };
    let mut holders: HashMap<_, Vec<&UnitView>> = HashMap::new();
    for view in views.iter().filter(|view| shares(view)) {
        holders.entry(key(view)).or_default().push(view);
    }
    let translated = UnitState::Translated.code();
    views
        .iter()
        .map(|view| {
            let fold = !is_case_sensitive(&view.translation.language.row.code);
            let differs = |other: &str| {
                if fold {
                    other.to_lowercase() != view.unit.source.to_lowercase()
                } else {
                    other != view.unit.source
                }
            };
            let fails = applies(view)
                && holders[&key(view)]
                    .iter()
                    .any(|other| other.unit.state >= translated && differs(&other.unit.source));
            (view, fails)
        })
        .collect()
}

/// Whether the check applies to a unit: checked, in a component sharing
/// translations, in a language whose strings are checked for reuse, with
/// some text.
fn applies(view: &UnitView) -> bool {
    verdicts::checked(view, REUSED)
        && shares(view)
        && checks_language(&view.translation.language)
        && split_plurals(&view.unit.target)
            .iter()
            .any(|form| !form.is_empty())
}

/// Whether strings in `language` are checked for reuse: not in languages
/// of a single plural form, which Weblate leaves out for the false alarms
/// they give.
fn checks_language(language: &Language) -> bool {
    language.plural.number > 1
}
