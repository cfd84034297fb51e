//! The `translated` check where strings are written: at each edit that
//! leaves a string untranslated, and at each read of the files, from the
//! string's recorded history (see [`tolk_domain::checks::history`]).

use std::collections::HashMap;

use tolk_domain::change::Action;
use tolk_domain::checks::Flags;
use tolk_domain::checks::dismissals;
use tolk_domain::checks::history::{PastChange, TRACKED, TRANSLATED, translated_before};
use tolk_domain::stats::Counters;
use tolk_domain::unit::UnitState;
use tolk_store::DbConnection;
use tolk_store::changes::{self, HistoryOf, UnitHistoryRow};

use crate::ServiceResult;
use crate::unit_plan::{Planned, flags_of, size};
use crate::unit_view::UnitView;

/// Recorded changes of strings, by unit id, newest first.
#[derive(Debug, Default)]
pub(crate) struct Histories {
    by_unit: HashMap<i64, Vec<UnitHistoryRow>>,
}

impl Histories {
    /// The changes the check reads of every string of `translation_id`;
    /// one statement.
    pub(crate) fn of_translation(
        conn: &mut DbConnection,
        translation_id: i64,
    ) -> ServiceResult<Histories> {
        read(conn, HistoryOf::Translation(translation_id))
    }

    /// The changes the check reads of the strings `unit_ids`; one
    /// statement per thousand strings.
    pub(crate) fn of_units(conn: &mut DbConnection, unit_ids: &[i64]) -> ServiceResult<Histories> {
        let mut all = Histories::default();
        for chunk in unit_ids.chunks(CHUNK) {
            all.by_unit
                .extend(read(conn, HistoryOf::Units(chunk))?.by_unit);
        }
        Ok(all)
    }

    /// Whether the string `unit_id`, now `target` in `state`, fails the
    /// check (after `latest`, a change about to be recorded, if any).
    pub(crate) fn fails(
        &self,
        unit_id: i64,
        state: UnitState,
        target: &str,
        latest: Option<PastChange<'_>>,
    ) -> bool {
        let recorded = self.by_unit.get(&unit_id).into_iter().flatten();
        translated_before(state, target, latest.into_iter().chain(recorded.map(past)))
    }
}

/// Strings whose history one statement reads.
const CHUNK: usize = 1_000;

/// Reads the changes the check looks at.
fn read(conn: &mut DbConnection, of: HistoryOf<'_>) -> ServiceResult<Histories> {
    let actions: Vec<i32> = TRACKED.iter().map(|a| a.0).collect();
    let mut by_unit: HashMap<i64, Vec<UnitHistoryRow>> = HashMap::new();
    for row in changes::unit_history(conn, of, &actions)? {
        by_unit.entry(row.0).or_default().push(row);
    }
    Ok(Histories { by_unit })
}

/// A stored change as the check reads it.
fn past(row: &UnitHistoryRow) -> PastChange<'_> {
    let state = serde_json::from_str::<serde_json::Value>(&row.3)
        .ok()
        .and_then(|details| details["state"].as_i64())
        .and_then(|state| i32::try_from(state).ok());
    PastChange {
        action: Action(row.1),
        target: &row.2,
        state,
    }
}

/// `failing` (a unit's checks as stored) with the check added, unless the
/// string's `flags` ignore it.
pub(crate) fn add_to(failing: &mut String, flags: &Flags) {
    if flags.ignores(TRANSLATED) {
        return;
    }
    if !failing.is_empty() {
        failing.push(',');
    }
    failing.push_str(TRANSLATED);
}

impl Planned {
    /// Whether the check needs the string's history: the edit leaves it
    /// untranslated without marking it for editing.
    pub(crate) fn needs_history(&self) -> bool {
        !self.state.is_translated() && self.change.action != Action::MARKED_EDIT
    }

    /// Adds the check to an edit of `view` that leaves its string
    /// untranslated where `histories` (holding the string's, when
    /// [`Self::needs_history`]) show it translated before.
    pub(crate) fn judge_history(&mut self, histories: &Histories, view: &UnitView) {
        if !self.needs_history() || dismissals::holds(&view.unit.dismissed, TRANSLATED) {
            return;
        }
        let latest = PastChange {
            action: self.change.action,
            target: &self.text,
            state: Some(self.state.code()),
        };
        if !histories.fails(view.unit.id, self.state, &self.text, Some(latest)) {
            return;
        }
        let before = self.failing.clone();
        add_to(&mut self.failing, &flags_of(view));
        let (words, chars) = size(&view.unit.source, view.unit.num_words);
        let unit = Counters::of_unit(self.state, words, chars);
        self.delta += Counters::delta(unit.with_failing(&before), unit.with_failing(&self.failing));
    }
}
