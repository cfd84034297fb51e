//! New translation files for a language: a bilingual file made from the
//! component's base file (`new_base`, e.g. a POT) with its translations
//! emptied, or the empty file of a monolingual format, whose strings come
//! from the template and are added as they get translated.

use crate::codecs::{parse, write_new};
use crate::error::FormatError;
use crate::unit::{State, Unit};
use crate::xliff::Version;

/// The plural rule of the new file's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PluralRule<'a> {
    /// Number of forms.
    pub forms: usize,
    /// Gettext formula, e.g. `(n != 1)`.
    pub formula: &'a str,
}

/// A new file of `format` for `language`. Bilingual formats take the
/// units of `base` (read as the same format) with empty translations, with
/// as many forms as `plural` says for plural units; monolingual formats
/// give an empty file and ignore `base`; a document (`html`, `markdown`)
/// is a copy of `base`, its source document.
pub fn new_translation(
    format: &str,
    name: &str,
    language: &str,
    plural: Option<PluralRule<'_>>,
    base: Option<&[u8]>,
) -> Result<Vec<u8>, FormatError> {
    if crate::registry::is_document(format) {
        // A document's translation starts as a copy of the source
        // document: its strings read as untranslated until they differ.
        return Ok(match (base, format) {
            (Some(base), _) => base.to_vec(),
            (None, "html") => {
                format!("<!DOCTYPE html>\n<html lang=\"{language}\">\n</html>\n").into_bytes()
            }
            (None, _) => Vec::new(),
        });
    }
    if let Some(skeleton) = skeleton(format, language) {
        return Ok(skeleton.into_bytes());
    }
    let (header, units) = match base {
        Some(bytes) => {
            let file = parse(format, name, bytes)?;
            let forms = plural.map_or(2, |p| p.forms.max(1));
            let units = file
                .units()
                .into_iter()
                .map(|u| emptied(u, forms))
                .collect();
            (file.header_text(), units)
        }
        None => (None, Vec::new()),
    };
    let header = gettext_header(header.as_deref(), language, plural);
    match format {
        "po" | "po-mono" | "mo" | "csv" | "csv-simple" | "tbx" | "ts" => {
            let target = if format == "csv-simple" {
                "csv"
            } else {
                format
            };
            write_new(target, name, Some(&header), &units)
        }
        _ => match Version::for_format(format) {
            Some(version) => {
                Ok(crate::xliff::write_new(version, "en", language, &units).into_bytes())
            }
            None => Err(FormatError::new(
                name,
                0,
                format!("new {format} files are not supported"),
            )),
        },
    }
}

/// The empty file of a format whose strings come from a template.
fn skeleton(format: &str, language: &str) -> Option<String> {
    Some(match format {
        "aresource" => "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n</resources>\n".into(),
        "resx" => RESX.into(),
        "stringsdict" => "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<dict>\n</dict>\n</plist>\n".into(),
        "json" | "json-nested" | "webextension" | "i18next" | "i18nextv4" | "go-i18n-json"
        | "go-i18n-json-v2" => "{}\n".into(),
        "arb" => format!(
            "{{\n  \"@@locale\": {}\n}}\n",
            crate::json::quote(language, false)
        ),
        "properties" | "strings" | "yaml" => String::new(),
        "ruby-yaml" => format!("{language}:\n"),
        "laravel" => "<?php\n\nreturn [\n];\n".into(),
        _ => return None,
    })
}

/// The header of a new gettext file: the base's, with the language and
/// its plural rule set.
fn gettext_header(base: Option<&str>, language: &str, plural: Option<PluralRule<'_>>) -> String {
    let base = base
        .filter(|h| !h.is_empty())
        .unwrap_or(crate::po::DEFAULT_HEADER);
    let mut lines: Vec<String> = base
        .lines()
        .filter(|line| {
            let key = line.split(':').next().unwrap_or("").trim();
            let replaced = key.eq_ignore_ascii_case("Language")
                || (plural.is_some() && key.eq_ignore_ascii_case("Plural-Forms"));
            !replaced
        })
        .map(str::to_owned)
        .collect();
    lines.push(format!("Language: {language}"));
    if let Some(plural) = plural {
        lines.push(format!(
            "Plural-Forms: nplurals={}; plural={};",
            plural.forms, plural.formula
        ));
    }
    let mut header = lines.join("\n");
    header.push('\n');
    header
}

/// `unit` untranslated, with `forms` empty forms when it is a plural.
fn emptied(unit: Unit, forms: usize) -> Unit {
    let forms = if unit.has_plurals() { forms } else { 1 };
    Unit {
        target: vec![String::new(); forms],
        state: State::Untranslated,
        translator_notes: Vec::new(),
        flags: unit.flags.into_iter().filter(|f| f != "fuzzy").collect(),
        ..unit
    }
}

/// An empty .NET resource file with the usual headers.
const RESX: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<root>
  <resheader name="resmimetype">
    <value>text/microsoft-resx</value>
  </resheader>
  <resheader name="version">
    <value>2.0</value>
  </resheader>
  <resheader name="reader">
    <value>System.Resources.ResXResourceReader, System.Windows.Forms, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089</value>
  </resheader>
  <resheader name="writer">
    <value>System.Resources.ResXResourceWriter, System.Windows.Forms, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089</value>
  </resheader>
</root>
"#;
