//! The interface every codec gives its files: units, edits, bytes.

use crate::error::FormatError;
use crate::stats::FileStats;
use crate::unit::Unit;

/// A parsed translation file of any supported format.
pub trait TranslationFile {
    /// The translatable units, in file order.
    fn units(&self) -> Vec<Unit>;

    /// Obsolete entries kept in the file but not translatable.
    fn obsolete_count(&self) -> usize {
        0
    }

    /// Unit counts.
    fn stats(&self) -> FileStats {
        FileStats::count(&self.units(), self.obsolete_count())
    }

    /// Sets the translation of unit `index` and whether it needs editing.
    fn set_translation(
        &mut self,
        index: usize,
        target: &[String],
        fuzzy: bool,
    ) -> Result<(), FormatError>;

    /// Adds a string at the end of the file. Monolingual formats take the
    /// key from `unit.context` and the value from `unit.target`; bilingual
    /// ones take the source and the translation. The file is read again
    /// afterwards, so its units include the new one.
    fn add_unit(&mut self, unit: &Unit) -> Result<(), FormatError>;

    /// Removes unit `index` (with its comments) from the file; the units
    /// after it move up by one. Formats that cannot lose a string refuse.
    fn remove_unit(&mut self, index: usize) -> Result<(), FormatError> {
        Err(FormatError::new(
            "",
            index,
            "the file format does not support removing strings",
        ))
    }

    /// The file's bytes, unchanged parts exactly as read.
    fn to_bytes(&self) -> Result<Vec<u8>, FormatError>;

    /// The gettext header, for formats that have one.
    fn header_text(&self) -> Option<String> {
        None
    }

    /// Problems that do not stop the file from being read, such as plural
    /// entries with another number of forms than the file declares.
    fn warnings(&self) -> Vec<FormatError> {
        Vec::new()
    }
}
