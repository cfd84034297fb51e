//! The `inconsistent` check (Weblate's consistency check): a translated
//! string fails it when the same string (same key, or same source and
//! context) in the same language of another component of its project
//! that shares translations (`allow_translation_propagation`) holds
//! another text, or none. It needs the other components' units, so it is
//! kept up to date apart from the checks of one unit: after an edit has
//! propagated and after a scan, for the strings concerned, with the
//! translations' counters of failing strings.

use std::collections::HashMap;
use tolk_domain::checks::catalogue::INCONSISTENT;

use chrono::NaiveDateTime;

use tolk_domain::change::Action;
use tolk_domain::permission::Subject;
use tolk_domain::stats::Counters;
use tolk_domain::unit::UnitState;
use tolk_store::changes::{self, NewChange};
use tolk_store::{DbConnection, time, translations, units};

use crate::cache::Generation;
use crate::units::{UnitView, unit_change};
use crate::{Service, ServiceResult};

/// The components of a project that share translations with one of them.
pub(crate) struct Sharing {
    /// All of them, that one included.
    pub(crate) all: Vec<i64>,
    /// All but that one.
    pub(crate) others: Vec<i64>,
}

/// A unit's list of failing checks after its `inconsistent` verdict
/// changed, and its new state when the enforced check sent it back for
/// editing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Verdict {
    /// The failing checks, as stored.
    pub(crate) failing: String,
    /// The state it was put in, if any.
    pub(crate) state: Option<i32>,
}

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
    ) -> ServiceResult<HashMap<i64, Verdict>> {
        let found = units::same_strings(conn, sharing, language_id, id_hashes)?;
        let views = self.unit_views(conn, generation, found, false)?;
        let mut strings: HashMap<i64, Vec<&UnitView>> = HashMap::new();
        for view in &views {
            strings.entry(view.unit.id_hash).or_default().push(view);
        }
        let now = time::now();
        let mut verdicts = HashMap::new();
        let mut enforced: Vec<&UnitView> = Vec::new();
        let mut deltas: HashMap<i64, (Counters, NaiveDateTime)> = HashMap::new();
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
                // An enforced failing check sends the string back for editing.
                let sent_back = fails && state.is_translated() && is_enforced(view);
                let new_state = if sent_back {
                    enforced.push(view);
                    UnitState::NeedsRewriting
                } else {
                    state
                };
                let chars = i64::try_from(view.unit.source.chars().count()).unwrap_or(i64::MAX);
                let words = i64::from(view.unit.num_words);
                let delta = Counters::delta(
                    Counters::of_unit(state, words, chars).with_failing(old),
                    Counters::of_unit(new_state, words, chars).with_failing(&new),
                );
                let translation = &view.translation.translation;
                let entry = deltas.entry(translation.id).or_insert_with(|| {
                    (Counters::default(), translation.last_change.unwrap_or(now))
                });
                entry.0 += delta;
                if sent_back {
                    // Its change is the translation's last.
                    entry.1 = now;
                }
                let state = sent_back.then_some(new_state.code());
                verdicts.insert(
                    view.unit.id,
                    Verdict {
                        failing: new,
                        state,
                    },
                );
            }
        }
        let lists: Vec<(i64, String)> = verdicts
            .iter()
            .map(|(id, verdict)| (*id, verdict.failing.clone()))
            .collect();
        if !deltas.is_empty() {
            // The translations' rows first, as every writer of their units
            // takes them: concurrent writers queue instead of deadlocking.
            let touched: Vec<i64> = deltas.keys().copied().collect();
            translations::lock_all(conn, &touched)?;
        }
        units::set_failing(conn, &lists)?;
        send_back(conn, &enforced, now)?;
        for (id, (delta, last_change)) in deltas {
            translations::add_counters(conn, id, &delta, last_change)?;
        }
        Ok(verdicts)
    }
}

/// Whether the component of a unit enforces the check.
fn is_enforced(view: &UnitView) -> bool {
    let component = &view.translation.component;
    component
        .component
        .settings
        .enforced_checks_in(component.inherited())
        .iter()
        .any(|id| id == INCONSISTENT)
}

/// Puts translated strings that fail the enforced check at *needs
/// rewriting*, pending for their files, each with Weblate's change
/// "Applied enforced check" (done by the system, none of its users).
fn send_back(conn: &mut DbConnection, views: &[&UnitView], at: NaiveDateTime) -> ServiceResult<()> {
    if views.is_empty() {
        return Ok(());
    }
    let rewriting = UnitState::NeedsRewriting.code();
    let ids: Vec<i64> = views.iter().map(|view| view.unit.id).collect();
    units::set_states(conn, &ids, rewriting, at)?;
    let changes: Vec<NewChange> = views
        .iter()
        .map(|view| NewChange {
            old: view.unit.target.clone(),
            target: view.unit.target.clone(),
            details: serde_json::json!({
                "state": rewriting,
                "old_state": view.unit.state,
                "check": INCONSISTENT,
            }),
            ..unit_change(view, Action::ENFORCED_CHECK, &Subject::System)
        })
        .collect();
    changes::record_many(conn, changes.iter().collect(), at)?;
    Ok(())
}

/// Whether the check applies to a unit: translated or needing editing,
/// not turned off by its flags or its component's.
fn checked(view: &UnitView) -> bool {
    let state = UnitState::from_code(view.unit.state).unwrap_or(UnitState::Empty);
    state.is_checked() && !crate::units::flags_of(view).ignores(INCONSISTENT)
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
