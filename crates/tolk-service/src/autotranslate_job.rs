//! What an automatic translation task carries: the translation, the mode
//! of the strings it fills, the query, where translations come from and
//! the least similarity of a memory match.

use serde::{Deserialize, Serialize};
use tolk_domain::unit::UnitState;

/// What the filled strings become.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AutoMode {
    /// Suggestions.
    Suggest,
    /// Translated strings.
    Translate,
    /// Strings needing editing.
    Fuzzy,
    /// Approved strings (needs `unit.review`).
    Approved,
}

impl AutoMode {
    /// The mode a form value names.
    pub fn parse(value: &str) -> Option<AutoMode> {
        match value {
            "suggest" => Some(AutoMode::Suggest),
            "translate" => Some(AutoMode::Translate),
            "fuzzy" => Some(AutoMode::Fuzzy),
            "approved" => Some(AutoMode::Approved),
            _ => None,
        }
    }

    pub(crate) fn state(self) -> UnitState {
        match self {
            AutoMode::Fuzzy => UnitState::Fuzzy,
            AutoMode::Approved => UnitState::Approved,
            AutoMode::Suggest | AutoMode::Translate => UnitState::Translated,
        }
    }
}

/// Which other components' translations are offered. (An enum, not an
/// `Option<Option<i64>>`, which a task's JSON payload cannot carry: its
/// "all of them" reads back as "none".)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum OtherComponents {
    /// Every other component of the project.
    All,
    /// This one.
    Only(i64),
}

/// Where translations come from, checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Sources {
    /// Other components' translations.
    pub(crate) others: Option<OtherComponents>,
    /// The translation memory.
    pub(crate) memory: bool,
}

/// The job of an automatic translation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct AutoJob {
    /// The translation: project, component and language code.
    pub(crate) path: (String, String, String),
    /// Who asked.
    pub(crate) user_id: Option<i64>,
    pub(crate) mode: AutoMode,
    pub(crate) q: String,
    pub(crate) sources: Sources,
    pub(crate) threshold: i64,
}
