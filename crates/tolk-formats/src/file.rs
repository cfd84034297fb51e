//! One interface over the codecs, chosen by format id.

use crate::error::FormatError;
use crate::json::{Flavor, JsonFile};
use crate::po::PoFile;
use crate::stats::FileStats;
use crate::unit::Unit;

/// A parsed translation file of any supported format.
pub trait TranslationFile {
    /// The translatable units, in file order.
    fn units(&self) -> Vec<Unit>;

    /// Unit counts.
    fn stats(&self) -> FileStats;

    /// Sets the translation of unit `index` and whether it needs editing.
    fn set_translation(
        &mut self,
        index: usize,
        target: &[String],
        fuzzy: bool,
    ) -> Result<(), FormatError>;

    /// The file's bytes, unchanged parts exactly as read.
    fn to_bytes(&self) -> Result<Vec<u8>, FormatError>;
}

impl TranslationFile for PoFile {
    fn units(&self) -> Vec<Unit> {
        PoFile::units(self)
    }

    fn stats(&self) -> FileStats {
        PoFile::stats(self)
    }

    fn set_translation(
        &mut self,
        index: usize,
        target: &[String],
        fuzzy: bool,
    ) -> Result<(), FormatError> {
        PoFile::set_translation(self, index, target, fuzzy)
    }

    fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        PoFile::to_bytes(self)
    }
}

impl TranslationFile for JsonFile {
    fn units(&self) -> Vec<Unit> {
        JsonFile::units(self)
    }

    fn stats(&self) -> FileStats {
        JsonFile::stats(self)
    }

    fn set_translation(
        &mut self,
        index: usize,
        target: &[String],
        fuzzy: bool,
    ) -> Result<(), FormatError> {
        JsonFile::set_translation(self, index, target, fuzzy)
    }

    fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        Ok(JsonFile::to_bytes(self))
    }
}

/// Format ids with a codec so far.
pub const SUPPORTED: &[&str] = &[
    "po",
    "po-mono",
    "json",
    "json-nested",
    "webextension",
    "arb",
];

/// Parses `bytes` (named `name` in errors) as a file of format `format`.
pub fn parse(
    format: &str,
    name: &str,
    bytes: &[u8],
) -> Result<Box<dyn TranslationFile>, FormatError> {
    if let Some(flavor) = Flavor::for_format(format) {
        return Ok(Box::new(JsonFile::parse(name, bytes, flavor)?));
    }
    match format {
        "po" | "po-mono" => Ok(Box::new(PoFile::parse(name, bytes)?)),
        other if crate::registry::find(other).is_some() => Err(FormatError::new(
            name,
            0,
            format!(
                "reading the {other} format is not supported yet (supported: {})",
                SUPPORTED.join(", ")
            ),
        )),
        other => Err(FormatError::new(
            name,
            0,
            format!("unknown format id {other:?}"),
        )),
    }
}
