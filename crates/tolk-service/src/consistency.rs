//! The `inconsistent` check (Weblate's consistency check): a translated
//! string fails it when the same string (same key, or same source and
//! context) in the same language of another component of its project
//! that shares translations (`allow_translation_propagation`) holds
//! another text, or none. It needs the other components' units, so it is
//! kept up to date apart from the checks of one unit: after an edit has
//! propagated and after a scan, for the strings concerned, with the
//! translations' counters of failing strings.

use std::collections::HashMap;

use tolk_domain::checks::Flags;
use tolk_domain::stats::Counters;
use tolk_domain::unit::UnitState;
use tolk_store::{DbConnection, time, translations, units};

use crate::cache::Generation;
use crate::units::UnitView;
use crate::{Service, ServiceResult};

/// The components of a project that share translations with one of them.
pub(crate) struct Sharing {
    /// All of them, that one included.
    pub(crate) all: Vec<i64>,
    /// All but that one.
    pub(crate) others: Vec<i64>,
}

/// The check's id.
pub(crate) const INCONSISTENT: &str = "inconsistent";

impl Service {
    /// The components of a project sharing translations with `component_id`,
    /// when it shares with one or more; else `None`.
    pub(crate) fn sharing(
        &self,
        conn: &mut DbConnection,
        generation: Generation,
        project_id: i64,
        component_id: i64,
    ) -> ServiceResult<Option<Sharing>> {
        let all = self.cache.propagating(generation, conn, project_id)?;
        if all.len() < 2 || !all.contains(&component_id) {
            return Ok(None);
        }
        let others = all
            .iter()
            .copied()
            .filter(|id| *id != component_id)
            .collect();
        Ok(Some(Sharing { all, others }))
    }

    /// After strings (`id_hashes`) of a component changed or left in some
    /// `languages`: their `inconsistent` verdicts across the components
    /// of the project sharing translations with it, in the caller's
    /// transaction; nothing when it shares with none.
    pub(crate) fn refresh_strings(
        &self,
        conn: &mut DbConnection,
        (project_id, component_id): (i64, i64),
        languages: &[i64],
        id_hashes: &[i64],
    ) -> ServiceResult<()> {
        let generation = self.cache.latest_or_sync(conn)?;
        if let Some(sharing) = self.sharing(conn, generation, project_id, component_id)? {
            for language in languages {
                let hashes = Some(id_hashes);
                self.refresh_consistency(conn, generation, &sharing.all, *language, hashes)?;
            }
        }
        Ok(())
    }

    /// Brings the `inconsistent` verdicts of strings (`id_hashes`; all of
    /// them when `None`) in one language up to date across the components
    /// `sharing`; the units whose list of failing checks changed, with
    /// the new list.
    pub(crate) fn refresh_consistency(
        &self,
        conn: &mut DbConnection,
        generation: Generation,
        sharing: &[i64],
        language_id: i64,
        id_hashes: Option<&[i64]>,
    ) -> ServiceResult<HashMap<i64, String>> {
        let found = units::same_strings(conn, sharing, language_id, id_hashes)?;
        let views = self.unit_views(conn, generation, found, false)?;
        let mut strings: HashMap<i64, Vec<&UnitView>> = HashMap::new();
        for view in &views {
            strings.entry(view.unit.id_hash).or_default().push(view);
        }
        let mut lists = HashMap::new();
        let mut deltas: HashMap<i64, (Counters, chrono::NaiveDateTime)> = HashMap::new();
        for units in strings.values() {
            for view in units {
                let fails = checked(view)
                    && units.iter().any(|other| {
                        other.translation.component.component.id
                            != view.translation.component.component.id
                            && other.unit.target != view.unit.target
                    });
                let old = &view.unit.failing;
                if fails == old.split(',').any(|id| id == INCONSISTENT) {
                    continue;
                }
                let new = with_verdict(old, fails);
                let state = UnitState::from_code(view.unit.state).unwrap_or(UnitState::Empty);
                let chars = i64::try_from(view.unit.source.chars().count()).unwrap_or(i64::MAX);
                let counted = Counters::of_unit(state, i64::from(view.unit.num_words), chars);
                let delta = Counters::delta(counted.with_failing(old), counted.with_failing(&new));
                let translation = &view.translation.translation;
                let entry = deltas.entry(translation.id).or_insert_with(|| {
                    let last = translation.last_change.unwrap_or_else(time::now);
                    (Counters::default(), last)
                });
                entry.0 += delta;
                lists.insert(view.unit.id, new);
            }
        }
        let changed: Vec<(i64, String)> = lists.iter().map(|(id, l)| (*id, l.clone())).collect();
        units::set_failing(conn, &changed)?;
        for (id, (delta, last_change)) in deltas {
            translations::add_counters(conn, id, &delta, last_change)?;
        }
        Ok(lists)
    }
}

/// Whether the check applies to a unit: translated, not read-only, not
/// turned off by its flags or its component's.
fn checked(view: &UnitView) -> bool {
    let state = UnitState::from_code(view.unit.state).unwrap_or(UnitState::Empty);
    if !state.is_translated() || state == UnitState::ReadOnly {
        return false;
    }
    let component = &view.translation.component;
    let check_flags = component
        .component
        .settings
        .check_flags_in(&component.project.settings);
    let flags = Flags::parse([
        view.unit.flags.as_str(),
        view.unit.extra_flags.as_str(),
        view.unit.source_flags.as_str(),
        check_flags.as_str(),
    ]);
    !flags.ignores(INCONSISTENT)
}

/// A list of failing checks with `inconsistent` added or taken out.
fn with_verdict(list: &str, fails: bool) -> String {
    let mut ids: Vec<&str> = list
        .split(',')
        .filter(|id| !id.is_empty() && *id != INCONSISTENT)
        .collect();
    if fails {
        ids.push(INCONSISTENT);
    }
    ids.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verdict_joins_and_leaves_the_list() {
        assert_eq!(with_verdict("", true), "inconsistent");
        assert_eq!(with_verdict("end_stop", true), "end_stop,inconsistent");
        assert_eq!(with_verdict("end_stop,inconsistent", false), "end_stop");
        assert_eq!(with_verdict("inconsistent", false), "");
    }
}
