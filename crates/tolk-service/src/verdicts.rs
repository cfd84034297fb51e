//! Verdicts of the checks judged across strings (`inconsistent`,
//! `reused`), which the checks of one unit cannot decide: a unit's list
//! of failing checks with one such check added or taken out, written with
//! its translation's counters, and a translated string that fails an
//! enforced one sent back for editing.

use std::collections::HashMap;

use chrono::NaiveDateTime;

use tolk_domain::change::Action;
use tolk_domain::checks::dismissals;
use tolk_domain::permission::Subject;
use tolk_domain::stats::Counters;
use tolk_domain::unit::UnitState;
use tolk_store::changes::{self, NewChange};
use tolk_store::{DbConnection, time, translations, units};

use crate::ServiceResult;
use crate::unit_plan::unit_change;
use crate::unit_view::UnitView;

/// A unit's list of failing checks after a verdict changed it, and its
/// new state when an enforced check sent it back for editing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Verdict {
    /// The failing checks, as stored.
    pub(crate) failing: String,
    /// The state it was put in, if any.
    pub(crate) state: Option<i32>,
}

/// Writes the verdicts of `check` on units (each with whether it fails
/// the check), in the caller's transaction; the units whose list of
/// failing checks changed, with the new list.
pub(crate) fn apply(
    conn: &mut DbConnection,
    check: &'static str,
    judged: &[(&UnitView, bool)],
) -> ServiceResult<HashMap<i64, Verdict>> {
    let now = time::now();
    let mut verdicts = HashMap::new();
    let mut enforced: Vec<&UnitView> = Vec::new();
    let mut deltas: HashMap<i64, (Counters, NaiveDateTime)> = HashMap::new();
    for &(view, fails) in judged {
        let old = &view.unit.failing;
        if fails == dismissals::holds(old, check) {
            continue;
        }
        let new = dismissals::with_id(old, check, fails);
        let state = UnitState::from_code(view.unit.state).unwrap_or(UnitState::Empty);
        // An enforced failing check sends the string back for editing.
        let sent_back = fails && state.is_translated() && is_enforced(view, check);
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
        let entry = deltas
            .entry(translation.id)
            .or_insert_with(|| (Counters::default(), translation.last_change.unwrap_or(now)));
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
    send_back(conn, &enforced, check, now)?;
    for (id, (delta, last_change)) in deltas {
        translations::add_counters(conn, id, &delta, last_change)?;
    }
    Ok(verdicts)
}

/// Adds the verdicts of a later refresh (which read what the earlier one
/// wrote) to those of an earlier one.
pub(crate) fn merge(into: &mut HashMap<i64, Verdict>, later: HashMap<i64, Verdict>) {
    for (id, verdict) in later {
        let state = verdict
            .state
            .or_else(|| into.get(&id).and_then(|earlier| earlier.state));
        into.insert(
            id,
            Verdict {
                failing: verdict.failing,
                state,
            },
        );
    }
}

/// Whether `check` applies to a unit: translated or needing editing, not
/// turned off by its flags or its component's, nor dismissed on it.
pub(crate) fn checked(view: &UnitView, check: &str) -> bool {
    let state = UnitState::from_code(view.unit.state).unwrap_or(UnitState::Empty);
    state.is_checked()
        && !dismissals::holds(&view.unit.dismissed, check)
        && !crate::unit_plan::flags_of(view).ignores(check)
}

/// Whether the component of a unit enforces `check`.
fn is_enforced(view: &UnitView, check: &str) -> bool {
    let component = &view.translation.component;
    component
        .component
        .settings
        .enforced_checks_in(component.inherited())
        .iter()
        .any(|id| id == check)
}

/// Puts translated strings that fail the enforced `check` at *needs
/// rewriting*, pending for their files, each with Weblate's change
/// "Applied enforced check" (done by the system, none of its users).
fn send_back(
    conn: &mut DbConnection,
    views: &[&UnitView],
    check: &str,
    at: NaiveDateTime,
) -> ServiceResult<()> {
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
                "check": check,
            }),
            ..unit_change(view, Action::ENFORCED_CHECK, &Subject::System)
        })
        .collect();
    changes::record_many(conn, changes.iter().collect(), at)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_verdicts_keep_an_earlier_change_of_state() {
        let verdict = |failing: &str, state| Verdict {
            failing: failing.into(),
            state,
        };
        let mut verdicts = HashMap::from([(1, verdict("inconsistent", Some(10)))]);
        merge(
            &mut verdicts,
            HashMap::from([
                (1, verdict("inconsistent,reused", None)),
                (2, verdict("reused", None)),
            ]),
        );
        assert_eq!(verdicts[&1], verdict("inconsistent,reused", Some(10)));
        assert_eq!(verdicts[&2], verdict("reused", None));
    }
}
