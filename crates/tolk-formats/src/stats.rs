//! Counts of a file's units, as `tolk file stats` prints them.

use crate::unit::{State, Unit};

/// Unit counts of one file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileStats {
    /// Translatable units (without header and obsolete entries).
    pub units: usize,
    /// Units translated and not needing editing.
    pub translated: usize,
    /// Units needing editing.
    pub fuzzy: usize,
    /// Obsolete entries kept in the file.
    pub obsolete: usize,
    /// Units with plural forms.
    pub plural_units: usize,
    /// Units with any translation text, whatever their state.
    pub nonempty_target: usize,
}

impl FileStats {
    /// Counts the units of a file with `obsolete` obsolete entries.
    pub fn count(units: &[Unit], obsolete: usize) -> Self {
        let mut stats = FileStats {
            units: units.len(),
            obsolete,
            ..FileStats::default()
        };
        for unit in units {
            let has_text = unit.target.first().is_some_and(|t| !t.is_empty());
            match unit.state {
                State::Fuzzy => stats.fuzzy += 1,
                State::Translated | State::Approved | State::ReadOnly if has_text => {
                    stats.translated += 1;
                }
                _ => {}
            }
            if unit.has_plurals() {
                stats.plural_units += 1;
            }
            if unit.target.iter().any(|t| !t.is_empty()) {
                stats.nonempty_target += 1;
            }
        }
        stats
    }

    /// The counts as a JSON object.
    pub fn to_json(&self) -> String {
        format!(
            "{{\"units\": {}, \"translated\": {}, \"fuzzy\": {}, \"obsolete\": {}, \"plural_units\": {}, \"nonempty_target\": {}}}",
            self.units,
            self.translated,
            self.fuzzy,
            self.obsolete,
            self.plural_units,
            self.nonempty_target
        )
    }
}
