//! Files Tolk reads for uploads but never edits (TMX memories and XLSX
//! workbooks, which it writes only whole, as downloads): their units,
//! and a clear error for any edit.

use crate::error::FormatError;
use crate::translation_file::TranslationFile;
use crate::unit::Unit;

/// The units of an uploaded file of a format Tolk does not edit.
#[derive(Debug, Clone)]
pub struct ReadOnlyFile {
    name: String,
    format: &'static str,
    units: Vec<Unit>,
}

impl ReadOnlyFile {
    /// `units` read from the file `name` of `format` (its name in errors).
    pub fn new(name: &str, format: &'static str, units: Vec<Unit>) -> Self {
        ReadOnlyFile {
            name: name.to_owned(),
            format,
            units,
        }
    }

    fn refused(&self) -> FormatError {
        FormatError::new(
            &self.name,
            0,
            format!(
                "{} files are read for uploads and written whole for downloads, not edited",
                self.format
            ),
        )
    }
}

impl TranslationFile for ReadOnlyFile {
    fn units(&self) -> Vec<Unit> {
        self.units.clone()
    }

    fn set_translation(&mut self, _: usize, _: &[String], _: bool) -> Result<(), FormatError> {
        Err(self.refused())
    }

    fn add_unit(&mut self, _: &Unit) -> Result<(), FormatError> {
        Err(self.refused())
    }

    fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        Err(self.refused())
    }
}
