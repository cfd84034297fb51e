//! `translated`: a string that is not translated now although its
//! history holds a translation, as Weblate decides it. Only the changes
//! since its source last changed (or it was last marked for editing)
//! count, and an automatic translation that left it needing editing does
//! not.

use crate::change::Action;
use crate::unit::UnitState;

/// The check's id.
pub const TRANSLATED: &str = "translated";

/// The actions whose changes the check reads: those that write a
/// translation, and those that end the history it looks at.
pub const TRACKED: &[Action] = &[
    Action::CHANGE,
    Action::NEW,
    Action::AUTO,
    Action::ACCEPT,
    Action::REVERT,
    Action::UPLOAD,
    Action::REPLACE,
    Action::SOURCE_CHANGE,
    Action::APPROVE,
    Action::MARKED_EDIT,
    Action::STRING_REPO_UPDATE,
    Action::STRING_UPLOAD_UPDATE,
    Action::PROPAGATED_EDIT,
];

/// One recorded change of a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PastChange<'a> {
    /// What was done.
    pub action: Action,
    /// The translation it wrote.
    pub target: &'a str,
    /// The state it left, where the change says (automatic translations).
    pub state: Option<i32>,
}

/// Whether a string in `state` with the translation `target` fails the
/// check, given its changes newest first (`history`).
pub fn translated_before<'a>(
    state: UnitState,
    target: &str,
    history: impl IntoIterator<Item = PastChange<'a>>,
) -> bool {
    if state.is_translated() || state == UnitState::ReadOnly {
        return false;
    }
    for change in history {
        if matches!(change.action, Action::SOURCE_CHANGE | Action::MARKED_EDIT) {
            return false;
        }
        let unfinished_auto = change.action == Action::AUTO
            && change
                .state
                .is_some_and(|s| s < UnitState::Translated.code());
        if !unfinished_auto && !change.target.is_empty() && change.target != target {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(action: Action, target: &str) -> PastChange<'_> {
        PastChange {
            action,
            target,
            state: None,
        }
    }

    #[test]
    fn a_string_emptied_after_a_translation_fails() {
        let history = [change(Action::CHANGE, ""), change(Action::CHANGE, "Soubor")];
        assert!(translated_before(UnitState::Empty, "", history));
        assert!(translated_before(UnitState::Fuzzy, "Soub", history));
        assert!(!translated_before(UnitState::Translated, "", history));
        assert!(!translated_before(UnitState::Fuzzy, "Soubor", history));
        assert!(!translated_before(UnitState::Empty, "", []));
    }

    #[test]
    fn the_history_ends_where_the_source_changed_or_the_string_was_marked() {
        for end in [Action::SOURCE_CHANGE, Action::MARKED_EDIT] {
            let history = [change(end, "Soubor"), change(Action::CHANGE, "Soubor")];
            assert!(!translated_before(UnitState::Empty, "", history));
        }
    }

    #[test]
    fn an_automatic_translation_needing_editing_is_no_translation() {
        let auto = PastChange {
            action: Action::AUTO,
            target: "Soubor",
            state: Some(UnitState::Fuzzy.code()),
        };
        assert!(!translated_before(UnitState::Empty, "", [auto]));
        let finished = PastChange {
            state: Some(UnitState::Translated.code()),
            ..auto
        };
        assert!(translated_before(UnitState::Empty, "", [finished]));
    }
}
