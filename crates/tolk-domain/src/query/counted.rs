//! How many of a translation's strings a condition finds, where its kept
//! counters tell it without counting rows: the states (as the counters
//! group them), failing checks and suggestions, the searches translators
//! use most.

use super::{Attachment, Condition};
use crate::stats::Counters;
use crate::unit::UnitState;

impl Condition {
    /// The number of strings of a translation with `counters` that this
    /// condition matches, when the counters hold it; `None` otherwise.
    pub fn counted_by(&self, counters: &Counters) -> Option<i64> {
        match self {
            Condition::States(states) => states_count(states, counters),
            Condition::Check(None) => Some(counters.failing),
            Condition::Has(Attachment::Suggestion) => Some(counters.suggestions),
            _ => None,
        }
    }
}

/// The strings in `states`, if they are whole groups of the counters
/// (the three states needing editing are one).
fn states_count(states: &[UnitState], counters: &Counters) -> Option<i64> {
    let has = |state| states.contains(&state);
    let editing = [
        UnitState::Fuzzy,
        UnitState::NeedsRewriting,
        UnitState::NeedsChecking,
    ];
    let some_editing = editing.iter().filter(|s| has(**s)).count();
    if some_editing != 0 && some_editing != editing.len() {
        return None;
    }
    let c = counters;
    let empty = c.total.strings - c.translated.strings - c.fuzzy.strings;
    let translated = c.translated.strings - c.approved.strings - c.readonly.strings;
    let groups = [
        (has(UnitState::Empty), empty),
        (some_editing != 0, c.fuzzy.strings),
        (has(UnitState::Translated), translated),
        (has(UnitState::Approved), c.approved.strings),
        (has(UnitState::ReadOnly), c.readonly.strings),
    ];
    Some(groups.iter().filter(|(on, _)| *on).map(|(_, n)| n).sum())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::parse;
    use crate::stats::Count;

    fn count(strings: i64) -> Count {
        Count {
            strings,
            ..Count::default()
        }
    }

    #[test]
    fn the_common_searches_are_counted_by_the_counters() {
        let counters = Counters {
            total: count(100),
            translated: count(60),
            fuzzy: count(15),
            approved: count(10),
            readonly: count(5),
            failing: 7,
            suggestions: 3,
            ..Counters::default()
        };
        let now = chrono::NaiveDateTime::default();
        let counted = |q: &str| {
            parse(q)
                .unwrap()
                .unwrap()
                .condition(now)
                .unwrap()
                .counted_by(&counters)
        };
        assert_eq!(counted("state:<translated"), Some(40));
        assert_eq!(counted("is:needs-editing"), Some(15));
        // State 10 alone: the counters hold 10, 11 and 12 together.
        assert_eq!(counted("state:needs-editing"), None);
        assert_eq!(counted("state:empty"), Some(25));
        assert_eq!(counted("state:>=translated"), Some(60));
        assert_eq!(counted("state:translated"), Some(45));
        assert_eq!(counted("state:approved"), Some(10));
        assert_eq!(counted("has:check"), Some(7));
        assert_eq!(counted("has:suggestion"), Some(3));
        assert_eq!(counted("source:file"), None);
        assert_eq!(counted("check:end_stop"), None);
        assert_eq!(counted("state:<translated AND source:file"), None);
    }
}
