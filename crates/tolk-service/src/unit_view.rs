//! A unit as the use-cases read it: the stored unit with its translation
//! and the labels of its string.

use std::sync::Arc;

use tolk_domain::unit::PLURAL_SEPARATOR;
use tolk_store::labels::Label;
use tolk_store::units::UnitRow;

use crate::translations::TranslationView;

/// A unit with its translation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitView {
    /// The stored unit.
    pub unit: UnitRow,
    /// Its translation, shared by the units of one list (without its
    /// `last_author`, which units do not show).
    pub translation: Arc<TranslationView>,
    /// The labels of the string (of its source unit), by id.
    pub labels: Vec<Label>,
}

impl UnitView {
    /// Whether this is the unit of the source language, which holds the
    /// string's labels, explanation and extra flags.
    pub fn is_source(&self) -> bool {
        self.unit.source_unit_id.is_none_or(|id| id == self.unit.id)
    }

    /// The id of the unit that holds the string's labels.
    pub(crate) fn source_id(&self) -> i64 {
        self.unit.source_unit_id.unwrap_or(self.unit.id)
    }

    /// Number of target forms: the language's plural count for plural
    /// strings, else one.
    pub fn forms(&self) -> usize {
        if self.unit.source.contains(PLURAL_SEPARATOR) {
            usize::try_from(self.translation.language.plural.number.max(1)).unwrap_or(1)
        } else {
            1
        }
    }
}
