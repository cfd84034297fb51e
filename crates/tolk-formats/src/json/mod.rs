//! Monolingual JSON files: flat and nested key/value files (`json`,
//! `json-nested`), WebExtension `messages.json` (`webextension`) and
//! Flutter ARB (`arb`).
//!
//! The original text is kept; an edit replaces the one string token that
//! holds the value, so everything else (order, indentation, escapes) stays.

mod parse;

use std::ops::Range;

use parse::{Value, quote};

use crate::edits::{SpanEdits, line_at, utf8};
use crate::error::{FormatError, single_value, unit_at};
use crate::file::TranslationFile;
use crate::unit::Unit;

/// The JSON dialects this codec reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// Key/value pairs; nested objects give dotted keys (`json`, `json-nested`).
    KeyValue,
    /// `{"key": {"message": …, "description": …}}` (`webextension`).
    WebExtension,
    /// Flutter ARB: `"key": "value"` with `"@key": {"description": …}` metadata (`arb`).
    Arb,
}

impl Flavor {
    /// The flavor of a Weblate format id.
    pub fn for_format(format: &str) -> Option<Flavor> {
        match format {
            "json" | "json-nested" => Some(Flavor::KeyValue),
            "webextension" => Some(Flavor::WebExtension),
            "arb" => Some(Flavor::Arb),
            _ => None,
        }
    }
}

/// One translatable value and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    key: String,
    value: String,
    /// Span of the value's token in the text.
    span: Range<usize>,
    note: Option<String>,
}

/// A parsed JSON translation file.
#[derive(Debug, Clone)]
pub struct JsonFile {
    name: String,
    text: String,
    entries: Vec<Entry>,
    edits: SpanEdits,
    /// The file writes non-ASCII characters as `\u` escapes.
    ascii_only: bool,
}

fn leaf(value: &Value) -> Option<(String, Range<usize>)> {
    match value {
        Value::String(s, span) => Some((s.clone(), span.clone())),
        Value::Scalar(s, span) => Some((s.clone(), span.clone())),
        _ => None,
    }
}

/// Every leaf under `value`, with dotted keys (`a.b`, `list[0]`).
fn flatten(prefix: &str, value: &Value, out: &mut Vec<Entry>) {
    match value {
        Value::Object(members) => {
            for (key, value) in members {
                let key = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                flatten(&key, value, out);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                flatten(&format!("{prefix}[{i}]"), item, out);
            }
        }
        _ => {
            if let Some((value, span)) = leaf(value) {
                out.push(Entry {
                    key: prefix.to_owned(),
                    value,
                    span,
                    note: None,
                });
            }
        }
    }
}

fn member<'a>(members: &'a [(String, Value)], key: &str) -> Option<&'a Value> {
    members.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn text_of(value: Option<&Value>) -> Option<String> {
    match value {
        Some(Value::String(s, _)) => Some(s.clone()),
        _ => None,
    }
}

/// A key given twice means its last value, as for every JSON reader; the
/// unit keeps the position of the first occurrence.
fn last_wins(entries: Vec<Entry>) -> Vec<Entry> {
    let mut positions: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut unique: Vec<Entry> = Vec::with_capacity(entries.len());
    for entry in entries {
        match positions.get(&entry.key) {
            Some(&at) => unique[at] = entry,
            None => {
                positions.insert(entry.key.clone(), unique.len());
                unique.push(entry);
            }
        }
    }
    unique
}

impl JsonFile {
    /// Parses a JSON translation file of the given flavor.
    pub fn parse(name: &str, bytes: &[u8], flavor: Flavor) -> Result<JsonFile, FormatError> {
        let text = utf8(name, bytes)?;
        let root = parse::parse(text)
            .map_err(|e| FormatError::new(name, line_at(bytes, e.offset), e.message))?;
        let Value::Object(members) = &root else {
            return Err(FormatError::new(
                name,
                1,
                "the file must hold a JSON object",
            ));
        };
        let mut entries = Vec::new();
        match flavor {
            Flavor::KeyValue => flatten("", &root, &mut entries),
            Flavor::WebExtension => {
                for (key, value) in members {
                    let Value::Object(fields) = value else {
                        return Err(FormatError::new(
                            name,
                            0,
                            format!("message {key:?} is not an object"),
                        ));
                    };
                    if let Some((message, span)) = member(fields, "message").and_then(leaf) {
                        entries.push(Entry {
                            key: key.clone(),
                            value: message,
                            span,
                            note: text_of(member(fields, "description")),
                        });
                    }
                }
            }
            Flavor::Arb => {
                for (key, value) in members.iter().filter(|(k, _)| !k.starts_with('@')) {
                    if let Some((text, span)) = leaf(value) {
                        let note = match member(members, &format!("@{key}")) {
                            Some(Value::Object(meta)) => text_of(member(meta, "description")),
                            _ => None,
                        };
                        entries.push(Entry {
                            key: key.clone(),
                            value: text,
                            span,
                            note,
                        });
                    }
                }
            }
        }
        let entries = last_wins(entries);
        let ascii_only = text.is_ascii() && text.contains("\\u");
        Ok(JsonFile {
            name: name.to_owned(),
            text: text.to_owned(),
            entries,
            edits: SpanEdits::default(),
            ascii_only,
        })
    }
}

impl TranslationFile for JsonFile {
    fn units(&self) -> Vec<Unit> {
        self.entries
            .iter()
            .map(|e| Unit::keyed(&e.key, &e.value, e.note.iter().cloned().collect()))
            .collect()
    }

    fn set_translation(
        &mut self,
        index: usize,
        target: &[String],
        fuzzy: bool,
    ) -> Result<(), FormatError> {
        let entry = unit_at(&mut self.entries, index, &self.name)?;
        let line = line_at(self.text.as_bytes(), entry.span.start);
        let value = single_value(&self.name, line, "JSON", target, fuzzy)?;
        entry.value = value.clone();
        self.edits
            .replace(entry.span.clone(), quote(value, self.ascii_only));
        Ok(())
    }

    fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        Ok(self.edits.apply(&self.text).into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TranslationFile;

    #[test]
    fn nested_keys_arrays_and_scalars() {
        let text = "{\n  \"a\": {\"b\": \"B\", \"c\": [\"x\", \"\"]},\n  \"n\": 5\n}\n";
        let json = JsonFile::parse("t.json", text.as_bytes(), Flavor::KeyValue).unwrap();
        let keys: Vec<String> = json.units().into_iter().map(|u| u.context).collect();
        assert_eq!(keys, vec!["a.b", "a.c[0]", "a.c[1]", "n"]);
        let stats = json.stats();
        assert_eq!((stats.units, stats.translated), (4, 3));
        assert_eq!(json.to_bytes().unwrap(), text.as_bytes());
    }

    #[test]
    fn edits_replace_only_the_value() {
        let text = "{\n    \"hello\": \"Ahoj\",\n    \"bye\":\"Nashle\"\n}";
        let mut json = JsonFile::parse("t.json", text.as_bytes(), Flavor::KeyValue).unwrap();
        json.set_translation(1, &["Na \"shle\"\n".into()], false)
            .unwrap();
        assert_eq!(
            String::from_utf8(json.to_bytes().unwrap()).unwrap(),
            "{\n    \"hello\": \"Ahoj\",\n    \"bye\":\"Na \\\"shle\\\"\\n\"\n}"
        );
        assert!(json.set_translation(0, &["x".into()], true).is_err());
        assert!(
            json.set_translation(0, &["x".into(), "y".into()], false)
                .is_err()
        );
    }

    #[test]
    fn escaped_files_stay_escaped() {
        let text = r#"{"k": "\u00e9"}"#;
        let mut json = JsonFile::parse("t.json", text.as_bytes(), Flavor::KeyValue).unwrap();
        json.set_translation(0, &["čau".into()], false).unwrap();
        assert_eq!(json.to_bytes().unwrap(), br#"{"k": "\u010dau"}"#);
    }

    #[test]
    fn duplicate_keys_mean_the_last_value() {
        let text = r#"{"a": "1", "b": "2", "a": "3"}"#;
        let mut json = JsonFile::parse("t.json", text.as_bytes(), Flavor::KeyValue).unwrap();
        let units = json.units();
        assert_eq!(units.len(), 2);
        assert_eq!(
            (units[0].context.as_str(), units[0].target[0].as_str()),
            ("a", "3")
        );
        json.set_translation(0, &["4".into()], false).unwrap();
        assert_eq!(
            json.to_bytes().unwrap(),
            br#"{"a": "1", "b": "2", "a": "4"}"#
        );
    }

    #[test]
    fn webextension_and_arb() {
        let web =
            r#"{"extName": {"message": "uBlock", "description": "name"}, "x": {"message": ""}}"#;
        let units = JsonFile::parse("m.json", web.as_bytes(), Flavor::WebExtension)
            .unwrap()
            .units();
        assert_eq!(units.len(), 2);
        assert_eq!(units[0].developer_notes, vec!["name"]);
        let arb = r#"{"@@locale": "en", "hi": "Hi", "@hi": {"description": "greeting"}}"#;
        let units = JsonFile::parse("a.arb", arb.as_bytes(), Flavor::Arb)
            .unwrap()
            .units();
        assert_eq!(units.len(), 1);
        assert_eq!(units[0].developer_notes, vec!["greeting"]);
    }

    #[test]
    fn errors_name_the_line() {
        let err = JsonFile::parse(
            "bad.json",
            b"{\n  \"a\": \"b\",\n  \"c\" 1\n}",
            Flavor::KeyValue,
        )
        .unwrap_err();
        assert_eq!((err.file.as_str(), err.line), ("bad.json", 3));
        let err = JsonFile::parse("bad.json", b"[1]", Flavor::KeyValue).unwrap_err();
        assert!(err.message.contains("object"));
        assert!(JsonFile::parse("bad.json", b"{\"a\": \"\xff\"}", Flavor::KeyValue).is_err());
    }
}
