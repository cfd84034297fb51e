//! Apple stringsdict files (`stringsdict`): a property list whose top-level
//! keys each hold a format string (`NSStringLocalizedFormatKey`) and one
//! dictionary of plural forms per variable it uses.
//!
//! As in translate-toolkit and Weblate, every variable is a plural unit
//! keyed `key:variable` with its CLDR forms in order (zero, one, two, few,
//! many, other), and a format string is a unit of its own (`key`) unless
//! it is just one variable reference (`%#@count@`).

use std::ops::Range;

use quick_xml::events::Event;

use crate::edits::utf8;
use crate::error::FormatError;
use crate::keyed::{Dialect, KeyedEntry, KeyedXmlFile};
use crate::xml::{self, Scanner, Slot};

/// Plural categories of CLDR in their usual order.
const CATEGORIES: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

/// A plist value as this codec needs it.
enum Item {
    /// A `<string>` and where its text is.
    String(Slot),
    /// A `<dict>`: keys with values.
    Dict(Vec<(String, Item, Range<usize>)>),
    /// Anything else (kept in the file, not translatable).
    Other,
}

/// Parses a `.stringsdict` file; `name` is used in error messages.
pub fn parse(name: &str, bytes: &[u8]) -> Result<KeyedXmlFile, FormatError> {
    let text = utf8(name, bytes)?;
    let mut scanner = Scanner::new(name, text)?;
    let root = loop {
        let before = scanner.position();
        match scanner.next()? {
            Event::Start(e) if e.local_name().as_ref() == "plist" => {}
            Event::Start(e) if e.local_name().as_ref() == "dict" => {
                break dict(&mut scanner, 0)?;
            }
            Event::Start(_) | Event::Empty(_) => {
                return Err(scanner.error(before, "expected a <plist> holding a <dict>"));
            }
            Event::Eof => return Err(scanner.error(before, "no <dict> in the file")),
            _ => {}
        }
    };
    let mut entries = Vec::new();
    for (key, item, lines) in &root {
        let Item::Dict(fields) = item else { continue };
        let first = entries.len();
        for (field, value, _) in fields {
            match value {
                Item::String(slot) if field == "NSStringLocalizedFormatKey" => {
                    let format = slot.text(text);
                    if !is_one_variable(&format) {
                        entries.push(entry(key.clone(), vec![(slot.clone(), format)], false));
                    }
                }
                Item::Dict(forms) => {
                    let forms: Vec<(Slot, String)> = CATEGORIES
                        .iter()
                        .filter_map(|c| match forms.iter().find(|(k, _, _)| k == c) {
                            Some((_, Item::String(slot), _)) => {
                                Some((slot.clone(), slot.text(text)))
                            }
                            _ => None,
                        })
                        .collect();
                    if !forms.is_empty() {
                        entries.push(entry(format!("{key}:{field}"), forms, true));
                    }
                }
                _ => {}
            }
        }
        // A string alone in its entry leaves with the entry's `<key>` and
        // `<dict>`; strings sharing an entry cannot go alone.
        if let [only] = &mut entries[first..] {
            only.element = Some(lines.clone());
        }
    }
    Ok(KeyedXmlFile::new(name, text, DIALECT, entries, None))
}

/// New units would need a format string and plural variables designed
/// together; stringsdict files take none.
const DIALECT: Dialect = Dialect {
    kind: "stringsdict",
    escape,
    raw: str::to_owned,
    parse,
    new_unit: None,
};

fn entry(key: String, forms: Vec<(Slot, String)>, plural: bool) -> KeyedEntry {
    let (slots, values) = forms.into_iter().unzip();
    KeyedEntry {
        key,
        slots,
        values,
        plural,
        translatable: true,
        note: None,
        element: None,
    }
}

/// True for a format string that only refers to one variable.
fn is_one_variable(format: &str) -> bool {
    let format = format.trim();
    format.starts_with("%#@") && format.ends_with('@') && format.matches("%#@").count() == 1
}

/// Deepest nesting of dictionaries accepted.
const MAX_DEPTH: usize = 16;

/// The members of a `<dict>` just started: key, value, and the span from
/// the `<key>` to the value's end.
fn dict(
    scanner: &mut Scanner<'_>,
    depth: usize,
) -> Result<Vec<(String, Item, Range<usize>)>, FormatError> {
    let mut members = Vec::new();
    let mut key: Option<(String, usize)> = None;
    loop {
        let before = scanner.position();
        let item = match scanner.next()? {
            Event::Start(e) if e.local_name().as_ref() == "key" => {
                key = Some((scanner.text_content()?, before));
                continue;
            }
            Event::Start(e) if e.local_name().as_ref() == "string" => {
                Item::String(Slot::Inner(scanner.content()?))
            }
            Event::Empty(e) if e.local_name().as_ref() == "string" => {
                Item::String(Slot::Empty(before..scanner.position()))
            }
            Event::Start(e) if e.local_name().as_ref() == "dict" => {
                if depth >= MAX_DEPTH {
                    return Err(scanner.error(before, "dictionaries are nested too deeply"));
                }
                Item::Dict(dict(scanner, depth + 1)?)
            }
            Event::Start(_) => {
                scanner.content()?;
                Item::Other
            }
            Event::Empty(_) => Item::Other,
            Event::End(_) => return Ok(members),
            Event::Eof => return Err(scanner.truncated()),
            _ => continue,
        };
        match key.take() {
            Some((key, start)) => members.push((key, item, start..scanner.position())),
            None => return Err(scanner.error(before, "a value without a <key>")),
        }
    }
}

fn escape(value: &str) -> String {
    xml::escape(value, &[])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TranslationFile;

    const SAMPLE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
  <key>files</key>
  <dict>
    <key>NSStringLocalizedFormatKey</key>
    <string>Found %#@count@ in %#@dirs@</string>
    <key>count</key>
    <dict>
      <key>NSStringFormatSpecTypeKey</key>
      <string>NSStringPluralRuleType</string>
      <key>other</key>
      <string>%d files</string>
      <key>one</key>
      <string>%d file</string>
    </dict>
    <key>dirs</key>
    <dict>
      <key>other</key>
      <string/>
    </dict>
  </dict>
</dict>
</plist>
"#;

    #[test]
    fn variables_are_plural_units() {
        let mut file = parse("L.stringsdict", SAMPLE.as_bytes()).unwrap();
        let units = file.units();
        let shape = crate::unit::keyed_targets(&units);
        assert_eq!(
            shape,
            vec![
                ("files", vec!["Found %#@count@ in %#@dirs@"]),
                ("files:count", vec!["%d file", "%d files"]),
                ("files:dirs", vec![""]),
            ]
        );
        assert_eq!(file.to_bytes().unwrap(), SAMPLE.as_bytes());
        file.set_translation(1, &["%d soubor".into(), "%d <souborů>".into()], false)
            .unwrap();
        assert_eq!(
            String::from_utf8(file.to_bytes().unwrap()).unwrap(),
            SAMPLE
                .replace("<string>%d file</string>", "<string>%d soubor</string>")
                .replace(
                    "<string>%d files</string>",
                    "<string>%d &lt;souborů&gt;</string>"
                )
        );
        assert!(parse("x", b"<plist><array/></plist>").is_err());
        assert!(parse("x", b"<plist><dict><string>a</string></dict></plist>").is_err());
    }

    #[test]
    fn a_string_alone_in_its_entry_leaves_with_it() {
        let one = |key: &str| {
            format!(
                "  <key>{key}</key>\n  <dict>\n    <key>NSStringLocalizedFormatKey</key>\n    \
                 <string>%#@n@</string>\n    <key>n</key>\n    <dict>\n      \
                 <key>other</key>\n      <string>%d {key}</string>\n    </dict>\n  </dict>\n"
            )
        };
        let text = |keys: &[&str]| {
            let body: String = keys.iter().map(|k| one(k)).collect();
            format!(
                "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n{body}</dict>\n</plist>\n"
            )
        };
        let mut file = parse("L.stringsdict", text(&["a", "b"]).as_bytes()).unwrap();
        file.remove_unit(0).unwrap();
        assert_eq!(
            String::from_utf8(file.to_bytes().unwrap()).unwrap(),
            text(&["b"])
        );
        // Three strings share the entry of SAMPLE: none goes alone.
        let mut shared = parse("L.stringsdict", SAMPLE.as_bytes()).unwrap();
        let refused = shared.remove_unit(1).unwrap_err().to_string();
        assert!(refused.contains("cannot be removed alone"), "{refused}");
        assert_eq!(shared.to_bytes().unwrap(), SAMPLE.as_bytes());
    }
}
