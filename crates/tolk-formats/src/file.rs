//! One interface over the codecs, chosen by format id.

use crate::error::FormatError;
use crate::json::{Flavor, JsonFile};
use crate::mo::MoFile;
use crate::po::PoFile;
use crate::properties::PropertiesFile;
use crate::stats::FileStats;
use crate::unit::Unit;
use crate::xliff::{Version, XliffFile};

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

/// Format ids with a codec so far.
pub const SUPPORTED: &[&str] = &[
    "po",
    "po-mono",
    "mo",
    "properties",
    "aresource",
    "resx",
    "strings",
    "stringsdict",
    "ts",
    "tbx",
    "json",
    "json-nested",
    "webextension",
    "arb",
    "i18next",
    "i18nextv4",
    "go-i18n-json",
    "go-i18n-json-v2",
    "xliff",
    "plainxliff",
    "poxliff",
    "apple-xliff",
    "xliff2",
    "xliff2-placeables",
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
    if let Some(flavor) = crate::yaml::Flavor::for_format(format) {
        return Ok(Box::new(crate::yaml::YamlFile::parse(name, bytes, flavor)?));
    }
    if let Some(version) = Version::for_format(format) {
        return Ok(Box::new(XliffFile::parse(name, bytes, version)?));
    }
    match format {
        "po" => Ok(Box::new(PoFile::parse(name, bytes)?)),
        "po-mono" => Ok(Box::new(PoFile::parse_monolingual(name, bytes)?)),
        "mo" => Ok(Box::new(MoFile::parse(name, bytes)?)),
        "properties" => Ok(Box::new(PropertiesFile::parse(name, bytes)?)),
        "aresource" => Ok(Box::new(crate::android::parse(name, bytes)?)),
        "resx" => Ok(Box::new(crate::resx::parse(name, bytes)?)),
        "strings" => Ok(Box::new(crate::strings::StringsFile::parse(name, bytes)?)),
        "laravel" => Ok(Box::new(crate::php::PhpFile::parse(name, bytes)?)),
        "stringsdict" => Ok(Box::new(crate::stringsdict::parse(name, bytes)?)),
        "ts" => Ok(Box::new(crate::ts::TsFile::parse(name, bytes)?)),
        "tbx" => Ok(Box::new(crate::tbx::TbxFile::parse(name, bytes)?)),
        "csv" | "csv-simple" => Ok(Box::new(crate::csv::CsvFile::parse(name, bytes)?)),
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

/// Format ids new files can be written in (conversions).
pub const WRITABLE: &[&str] = &[
    "po",
    "mo",
    "xliff",
    "xliff11",
    "xliff12",
    "xliff2",
    "tbx",
    "csv",
    "xlsx",
    "json",
    "json-nested",
    "aresource",
    "strings",
];

/// Writes `units` as a new file of format `format`, with `header` for the
/// formats that have one.
pub fn write_new(
    format: &str,
    name: &str,
    header: Option<&str>,
    units: &[Unit],
) -> Result<Vec<u8>, FormatError> {
    let header = utf8_header(
        header
            .filter(|h| !h.is_empty())
            .unwrap_or(crate::po::DEFAULT_HEADER),
    );
    let header = header.as_str();
    match format {
        "po" => Ok(crate::po::write_new(header, units).into_bytes()),
        "po-mono" => {
            let entries: Vec<Unit> = units.iter().map(crate::po::keyed_entry).collect();
            Ok(crate::po::write_new(header, &entries).into_bytes())
        }
        "mo" => MoFile::from_units(name, header, units).to_bytes(),
        "xliff" | "xliff11" | "xliff12" => Ok(xliff_new(Version::V1, header, units)),
        "xliff2" => Ok(xliff_new(Version::V2, header, units)),
        "csv" => Ok(crate::csv::write_new(units).into_bytes()),
        "ts" => Ok(crate::ts::write_new(target_language(header), units).into_bytes()),
        "xlsx" => crate::xlsx::write_new(name, target_language(header), units),
        "json" | "json-nested" | "aresource" | "strings" => monolingual_new(format, name, units),
        "tbx" => Ok(crate::tbx::write_new("en", target_language(header), units).into_bytes()),
        other => Err(FormatError::new(
            name,
            0,
            format!(
                "writing new {other} files is not supported yet (supported: {})",
                WRITABLE.join(", ")
            ),
        )),
    }
}

/// A monolingual file (`json`, `json-nested`, `aresource` or `strings`)
/// of `units` keyed by context, else source; plural units are left out.
fn monolingual_new(format: &str, name: &str, units: &[Unit]) -> Result<Vec<u8>, FormatError> {
    let mut keys = std::collections::HashSet::new();
    let mut keyed = Vec::with_capacity(units.len());
    for unit in units.iter().filter(|u| !u.has_plurals()) {
        let unit = Unit {
            context: unit.context_or_source().to_owned(),
            ..unit.clone()
        };
        if unit.context.is_empty() {
            continue;
        }
        if !keys.insert(unit.context.clone()) {
            return Err(crate::error::already_there(name, &unit));
        }
        keyed.push(unit);
    }
    let text = match format {
        "json" | "json-nested" => crate::json::write_new(&keyed, format == "json-nested"),
        "aresource" => {
            crate::android::write_new(&keyed).map_err(|e| FormatError::new(name, 0, e))?
        }
        _ => crate::strings::write_new(&keyed),
    };
    Ok(text.into_bytes())
}

/// An XLIFF document into the language the gettext `header` names.
fn xliff_new(version: Version, header: &str, units: &[Unit]) -> Vec<u8> {
    crate::xliff::write_new(version, "en", target_language(header), units).into_bytes()
}

/// The language a gettext `header` names, or `und`.
fn target_language(header: &str) -> &str {
    header_field(header, "Language").unwrap_or("und")
}

/// The value of a field of a gettext header.
fn header_field<'a>(header: &'a str, field: &str) -> Option<&'a str> {
    header.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim().eq_ignore_ascii_case(field) && !value.trim().is_empty()).then(|| value.trim())
    })
}

/// New files are written in UTF-8, so the header says so.
fn utf8_header(header: &str) -> String {
    header
        .split_inclusive('\n')
        .map(|line| {
            if line.to_ascii_lowercase().starts_with("content-type:") {
                "Content-Type: text/plain; charset=UTF-8\n"
            } else {
                line
            }
        })
        .collect()
}
