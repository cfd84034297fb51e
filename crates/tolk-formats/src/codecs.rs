//! The codecs by format id: which reads and writes each format, and the
//! entry points that pick one ([`parse`], [`write_new`]).

use crate::error::FormatError;
use crate::json::{Flavor, JsonFile};
use crate::mo::MoFile;
use crate::po::PoFile;
use crate::properties::PropertiesFile;
use crate::read_only::ReadOnlyFile;
use crate::translation_file::TranslationFile;
use crate::unit::Unit;
use crate::xliff::{Version, XliffFile};

/// Reads a file of format `id` (one reader may serve several ids), named
/// `name` in errors.
pub type Reader =
    fn(id: &str, name: &str, bytes: &[u8]) -> Result<Box<dyn TranslationFile>, FormatError>;

/// Writes a new file of format `id` holding `units`, with a gettext-style
/// `header` (UTF-8) for the formats that carry one or a language: its
/// `Language` names the translation's language and `X-Source-Language`
/// the source strings' (English when absent).
pub type Writer =
    fn(id: &str, name: &str, header: &str, units: &[Unit]) -> Result<Vec<u8>, FormatError>;

/// What Tolk can do with one format id: read it, write new files of it, or both.
#[derive(Debug, Clone, Copy)]
pub struct Codec {
    /// The format id (Weblate's, or a download format such as `mo`).
    pub id: &'static str,
    /// How files of the format are read, if they can be.
    pub read: Option<Reader>,
    /// How new files of the format are written, if they can be.
    pub write: Option<Writer>,
}

/// Every format id Tolk reads or writes, and how: [`parse`], [`write_new`],
/// the command line's help and the tests all follow this one table.
#[rustfmt::skip]
pub const CODECS: &[Codec] = &[
    Codec { id: "po", read: Some(read_po), write: Some(write_po) },
    Codec { id: "po-mono", read: Some(read_po), write: Some(write_po) },
    Codec { id: "mo", read: Some(read_mo), write: Some(write_mo) },
    Codec { id: "properties", read: Some(read_properties), write: None },
    Codec { id: "aresource", read: Some(read_android), write: Some(monolingual_new) },
    Codec { id: "resx", read: Some(read_resx), write: None },
    Codec { id: "strings", read: Some(read_strings), write: Some(monolingual_new) },
    Codec { id: "stringsdict", read: Some(read_stringsdict), write: None },
    Codec { id: "laravel", read: Some(read_laravel), write: None },
    Codec { id: "ts", read: Some(read_ts), write: Some(write_ts) },
    Codec { id: "tbx", read: Some(read_tbx), write: Some(write_tbx) },
    Codec { id: "tmx", read: Some(read_tmx), write: Some(write_tmx) },
    Codec { id: "csv", read: Some(read_csv), write: Some(write_csv) },
    Codec { id: "csv-simple", read: Some(read_csv), write: None },
    Codec { id: "csv-multi", read: None, write: Some(write_csv) },
    Codec { id: "xlsx", read: Some(read_xlsx), write: Some(write_xlsx) },
    Codec { id: "json", read: Some(read_json), write: Some(monolingual_new) },
    Codec { id: "json-nested", read: Some(read_json), write: Some(monolingual_new) },
    Codec { id: "webextension", read: Some(read_json), write: None },
    Codec { id: "arb", read: Some(read_json), write: None },
    Codec { id: "i18next", read: Some(read_json), write: None },
    Codec { id: "i18nextv4", read: Some(read_json), write: None },
    Codec { id: "go-i18n-json", read: Some(read_json), write: None },
    Codec { id: "go-i18n-json-v2", read: Some(read_json), write: None },
    Codec { id: "yaml", read: Some(read_yaml), write: None },
    Codec { id: "ruby-yaml", read: Some(read_yaml), write: None },
    Codec { id: "xliff", read: Some(read_xliff), write: Some(write_xliff) },
    Codec { id: "xliff11", read: None, write: Some(write_xliff) },
    Codec { id: "xliff12", read: None, write: Some(write_xliff) },
    Codec { id: "plainxliff", read: Some(read_xliff), write: None },
    Codec { id: "poxliff", read: Some(read_xliff), write: None },
    Codec { id: "apple-xliff", read: Some(read_xliff), write: None },
    Codec { id: "xliff2", read: Some(read_xliff), write: Some(write_xliff) },
    Codec { id: "xliff2-placeables", read: Some(read_xliff), write: None },
    Codec { id: "html", read: Some(read_html), write: None },
    Codec { id: "markdown", read: Some(read_markdown), write: None },
];

/// The text a unit's key (`context`) of a file of `format` stands for,
/// for writing it in another format: keys of properties files are kept
/// as written, escapes and all; other formats' keys are their text.
pub fn key_text(format: &str, key: String) -> String {
    if format == "properties" {
        crate::properties::key_text(key)
    } else {
        key
    }
}

fn codec(id: &str) -> Option<&'static Codec> {
    CODECS.iter().find(|c| c.id == id)
}

/// Format ids whose files can lose a string
/// ([`TranslationFile::remove_unit`]); the others refuse it.
const REMOVABLE: &[&str] = &[
    "po",
    "po-mono",
    "properties",
    "strings",
    "aresource",
    "resx",
    "json",
    "json-nested",
    "i18next",
    "i18nextv4",
    "webextension",
    "arb",
    "go-i18n-json",
    "go-i18n-json-v2",
    "yaml",
    "ruby-yaml",
    "stringsdict",
    "csv",
    "csv-simple",
    "xliff",
    "plainxliff",
    "poxliff",
    "apple-xliff",
    "xliff2",
    "xliff2-placeables",
    "ts",
];

/// Whether strings can be removed from files of format `id`.
pub fn can_remove(id: &str) -> bool {
    REMOVABLE.contains(&id)
}

/// Format ids Tolk reads and edits (a component's files may be in
/// them), in [`CODECS`] order.
pub fn readable() -> Vec<&'static str> {
    CODECS
        .iter()
        .filter(|c| c.read.is_some() && !READ_FOR_UPLOADS_ONLY.contains(&c.id))
        .map(|c| c.id)
        .collect()
}

/// Formats read only as uploads: Tolk writes them whole, as downloads,
/// and never edits one, so no component keeps its files in them.
const READ_FOR_UPLOADS_ONLY: &[&str] = &["tmx", "xlsx"];

/// Format ids an uploaded file may be read in: those of [`readable`] and
/// those read for uploads only (TMX, XLSX), in [`CODECS`] order.
pub fn uploadable() -> Vec<&'static str> {
    CODECS
        .iter()
        .filter(|c| c.read.is_some())
        .map(|c| c.id)
        .collect()
}

/// Format ids Tolk writes new files of (conversions), in [`CODECS`] order.
pub fn writable() -> Vec<&'static str> {
    CODECS
        .iter()
        .filter(|c| c.write.is_some())
        .map(|c| c.id)
        .collect()
}

/// Parses `bytes` (named `name` in errors) as a file of format `format`.
pub fn parse(
    format: &str,
    name: &str,
    bytes: &[u8],
) -> Result<Box<dyn TranslationFile>, FormatError> {
    if let Some(read) = codec(format).and_then(|c| c.read) {
        return read(format, name, bytes);
    }
    let problem = if crate::registry::find(format).is_some() || codec(format).is_some() {
        format!(
            "reading the {format} format is not supported yet (supported: {})",
            readable().join(", ")
        )
    } else {
        format!("unknown format id {format:?}")
    };
    Err(FormatError::new(name, 0, problem))
}

fn read_po(id: &str, name: &str, bytes: &[u8]) -> Result<Box<dyn TranslationFile>, FormatError> {
    Ok(Box::new(if id == "po-mono" {
        PoFile::parse_monolingual(name, bytes)?
    } else {
        PoFile::parse(name, bytes)?
    }))
}

fn read_html(_: &str, name: &str, bytes: &[u8]) -> Result<Box<dyn TranslationFile>, FormatError> {
    Ok(Box::new(crate::html::parse(name, bytes)?))
}

fn read_markdown(
    _: &str,
    name: &str,
    bytes: &[u8],
) -> Result<Box<dyn TranslationFile>, FormatError> {
    Ok(Box::new(crate::markdown::parse(name, bytes)?))
}

fn read_mo(_: &str, name: &str, bytes: &[u8]) -> Result<Box<dyn TranslationFile>, FormatError> {
    Ok(Box::new(MoFile::parse(name, bytes)?))
}

fn read_tmx(_: &str, name: &str, bytes: &[u8]) -> Result<Box<dyn TranslationFile>, FormatError> {
    let units = crate::tmx::read(name, bytes)?;
    Ok(Box::new(ReadOnlyFile::new(name, "TMX", units)))
}

fn read_xlsx(_: &str, name: &str, bytes: &[u8]) -> Result<Box<dyn TranslationFile>, FormatError> {
    let units = crate::xlsx::read(name, bytes)?;
    Ok(Box::new(ReadOnlyFile::new(name, "XLSX", units)))
}

fn read_properties(
    _: &str,
    name: &str,
    bytes: &[u8],
) -> Result<Box<dyn TranslationFile>, FormatError> {
    Ok(Box::new(PropertiesFile::parse(name, bytes)?))
}

fn read_android(
    _: &str,
    name: &str,
    bytes: &[u8],
) -> Result<Box<dyn TranslationFile>, FormatError> {
    Ok(Box::new(crate::android::parse(name, bytes)?))
}

fn read_resx(_: &str, name: &str, bytes: &[u8]) -> Result<Box<dyn TranslationFile>, FormatError> {
    Ok(Box::new(crate::resx::parse(name, bytes)?))
}

fn read_strings(
    _: &str,
    name: &str,
    bytes: &[u8],
) -> Result<Box<dyn TranslationFile>, FormatError> {
    Ok(Box::new(crate::strings::StringsFile::parse(name, bytes)?))
}

fn read_stringsdict(
    _: &str,
    name: &str,
    bytes: &[u8],
) -> Result<Box<dyn TranslationFile>, FormatError> {
    Ok(Box::new(crate::stringsdict::parse(name, bytes)?))
}

fn read_laravel(
    _: &str,
    name: &str,
    bytes: &[u8],
) -> Result<Box<dyn TranslationFile>, FormatError> {
    Ok(Box::new(crate::php::PhpFile::parse(name, bytes)?))
}

fn read_ts(_: &str, name: &str, bytes: &[u8]) -> Result<Box<dyn TranslationFile>, FormatError> {
    Ok(Box::new(crate::ts::TsFile::parse(name, bytes)?))
}

fn read_tbx(_: &str, name: &str, bytes: &[u8]) -> Result<Box<dyn TranslationFile>, FormatError> {
    Ok(Box::new(crate::tbx::TbxFile::parse(name, bytes)?))
}

fn read_csv(_: &str, name: &str, bytes: &[u8]) -> Result<Box<dyn TranslationFile>, FormatError> {
    Ok(Box::new(crate::csv::CsvFile::parse(name, bytes)?))
}

fn read_json(id: &str, name: &str, bytes: &[u8]) -> Result<Box<dyn TranslationFile>, FormatError> {
    let flavor = Flavor::for_format(id).ok_or_else(|| unknown(id, name))?;
    Ok(Box::new(JsonFile::parse(name, bytes, flavor)?))
}

fn read_yaml(id: &str, name: &str, bytes: &[u8]) -> Result<Box<dyn TranslationFile>, FormatError> {
    let flavor = crate::yaml::Flavor::for_format(id).ok_or_else(|| unknown(id, name))?;
    Ok(Box::new(crate::yaml::YamlFile::parse(name, bytes, flavor)?))
}

fn read_xliff(id: &str, name: &str, bytes: &[u8]) -> Result<Box<dyn TranslationFile>, FormatError> {
    let version = Version::for_format(id).ok_or_else(|| unknown(id, name))?;
    Ok(Box::new(XliffFile::parse(name, bytes, version)?))
}

/// A table entry whose codec does not know its id: a mistake in [`CODECS`].
fn unknown(id: &str, name: &str) -> FormatError {
    FormatError::new(name, 0, format!("no codec for the format id {id:?}"))
}

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
    match codec(format).and_then(|c| c.write) {
        Some(write) => write(format, name, &header, units),
        None => Err(FormatError::new(
            name,
            0,
            format!(
                "writing new {format} files is not supported yet (supported: {})",
                writable().join(", ")
            ),
        )),
    }
}

fn write_po(id: &str, name: &str, header: &str, units: &[Unit]) -> Result<Vec<u8>, FormatError> {
    let text = if id == "po-mono" {
        // Keyed by context, else source, as the other monolingual formats.
        let entries: Vec<Unit> = units
            .iter()
            .map(|unit| {
                crate::po::keyed_entry(&Unit {
                    context: unit.context_or_source().to_owned(),
                    ..unit.clone()
                })
            })
            .collect();
        crate::po::write_new(header, &distinct(name, &entries)?)
    } else {
        crate::po::write_new(header, &distinct(name, units)?)
    };
    Ok(text.into_bytes())
}

fn write_mo(_: &str, name: &str, header: &str, units: &[Unit]) -> Result<Vec<u8>, FormatError> {
    MoFile::from_units(name, header, &distinct(name, units)?).to_bytes()
}

/// The units a gettext catalogue can hold, which is each context and
/// message once: a repeat with the same translation (Interface Builder's
/// `.strings` files repeat keys) is left out; one with another
/// translation is an error naming it, never a catalogue `msgfmt` refuses.
fn distinct<'a>(
    name: &str,
    units: &'a [Unit],
) -> Result<std::borrow::Cow<'a, [Unit]>, FormatError> {
    let mut seen: foldhash::HashMap<(&str, &str), &Unit> =
        foldhash::HashMap::with_capacity_and_hasher(units.len(), Default::default());
    let mut repeated = Vec::new();
    for (index, unit) in units.iter().enumerate() {
        let key = (
            unit.context.as_str(),
            unit.source.first().map_or("", String::as_str),
        );
        match seen.get(&key) {
            None => {
                seen.insert(key, unit);
            }
            Some(first) if first.target == unit.target => repeated.push(index),
            Some(_) => {
                let what = if key.0.is_empty() { key.1 } else { key.0 };
                return Err(FormatError::new(
                    name,
                    0,
                    format!(
                        "the string {what:?} is there twice with different translations; \
                         a gettext catalogue holds it once"
                    ),
                ));
            }
        }
    }
    if repeated.is_empty() {
        return Ok(std::borrow::Cow::Borrowed(units));
    }
    let kept = units
        .iter()
        .enumerate()
        .filter(|(index, _)| repeated.binary_search(index).is_err())
        .map(|(_, unit)| unit.clone())
        .collect();
    Ok(std::borrow::Cow::Owned(kept))
}

fn write_xliff(id: &str, _: &str, header: &str, units: &[Unit]) -> Result<Vec<u8>, FormatError> {
    let version = if id == "xliff2" {
        Version::V2
    } else {
        Version::V1
    };
    let (source, target) = (source_language(header), target_language(header));
    Ok(crate::xliff::write_new(version, source, target, units).into_bytes())
}

fn write_csv(_: &str, _: &str, _: &str, units: &[Unit]) -> Result<Vec<u8>, FormatError> {
    Ok(crate::csv::write_new(units).into_bytes())
}

fn write_ts(_: &str, _: &str, header: &str, units: &[Unit]) -> Result<Vec<u8>, FormatError> {
    Ok(crate::ts::write_new(target_language(header), units).into_bytes())
}

fn write_xlsx(_: &str, name: &str, header: &str, units: &[Unit]) -> Result<Vec<u8>, FormatError> {
    crate::xlsx::write_new(name, target_language(header), units)
}

fn write_tbx(_: &str, _: &str, header: &str, units: &[Unit]) -> Result<Vec<u8>, FormatError> {
    let (source, target) = (source_language(header), target_language(header));
    Ok(crate::tbx::write_new(source, target, units).into_bytes())
}

fn write_tmx(_: &str, _: &str, header: &str, units: &[Unit]) -> Result<Vec<u8>, FormatError> {
    let (source, target) = (source_language(header), target_language(header));
    Ok(crate::tmx::write_new(source, target, units).into_bytes())
}

/// A monolingual file (`json`, `json-nested`, `aresource` or `strings`)
/// of `units` keyed by context, else source; plural units are left out.
fn monolingual_new(
    format: &str,
    name: &str,
    _: &str,
    units: &[Unit],
) -> Result<Vec<u8>, FormatError> {
    // A key given again with the same value (Interface Builder's `.strings`
    // files repeat keys) is written once; with another value it is an error.
    let mut keys: std::collections::HashMap<String, Vec<String>> = Default::default();
    let mut keyed = Vec::with_capacity(units.len());
    for unit in units.iter().filter(|u| !u.has_plurals()) {
        let unit = Unit {
            context: unit.context_or_source().to_owned(),
            ..unit.clone()
        };
        if unit.context.is_empty() {
            continue;
        }
        match keys.get(&unit.context) {
            Some(target) if *target == unit.target => continue,
            Some(_) => return Err(crate::error::already_there(name, &unit)),
            None => {
                keys.insert(unit.context.clone(), unit.target.clone());
            }
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

/// The language a gettext `header` names, or `und`.
fn target_language(header: &str) -> &str {
    header_field(header, "Language").unwrap_or("und")
}

/// The source language a gettext `header` names (`X-Source-Language`),
/// else English.
fn source_language(header: &str) -> &str {
    header_field(header, "X-Source-Language").unwrap_or("en")
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
