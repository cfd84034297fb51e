//! JSON translation files: flat and nested key/value files (`json`,
//! `json-nested`), WebExtension `messages.json` (`webextension`), Flutter
//! ARB (`arb`), i18next v3 and v4 (`i18next`, `i18nextv4`) and go-i18n v1
//! and v2 (`go-i18n-json`, `go-i18n-json-v2`).
//!
//! The original text is kept; an edit replaces the string tokens that hold
//! the value's forms, so everything else (order, indentation, escapes) stays.

mod add;
mod entry;
mod flavors;
mod layout;
mod parse;
mod remove;
mod write;

pub use flavors::Flavor;
pub use layout::{Layout, relayout};
pub(crate) use parse::quote;
pub(crate) use write::write_new;

use entry::Entry;

use crate::edits::{SpanEdits, line_at, utf8};
use crate::error::{
    FormatError, cannot_add, ensure_new, single_new_value, stateless_forms, unit_at,
};
use crate::translation_file::TranslationFile;
use crate::unit::Unit;

/// A parsed JSON translation file.
#[derive(Debug, Clone)]
pub struct JsonFile {
    name: String,
    text: String,
    entries: Vec<Entry>,
    edits: SpanEdits,
    flavor: Flavor,
    /// The file writes non-ASCII characters as `\u` escapes.
    ascii_only: bool,
}

/// The member named `name` that holds a new string.
fn member(flavor: Flavor, ascii_only: bool, name: &str, unit: &Unit, value: &str) -> String {
    let key = quote(name, ascii_only);
    let value = quote(value, ascii_only);
    match flavor {
        Flavor::WebExtension => match unit.developer_notes.first() {
            Some(note) => format!(
                "{key}: {{\"message\": {value}, \"description\": {}}}",
                quote(note, ascii_only)
            ),
            None => format!("{key}: {{\"message\": {value}}}"),
        },
        _ => format!("{key}: {value}"),
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
        let entries = flavors::entries(&root, flavor)
            .map_err(|message| FormatError::new(name, 1, message))?;
        let ascii_only = text.is_ascii() && text.contains("\\u");
        Ok(JsonFile {
            name: name.to_owned(),
            text: text.to_owned(),
            entries: last_wins(entries),
            edits: SpanEdits::default(),
            flavor,
            ascii_only,
        })
    }
}

impl TranslationFile for JsonFile {
    fn units(&self) -> Vec<Unit> {
        self.entries
            .iter()
            .map(|e| {
                let notes = e.note.iter().cloned().collect();
                if e.plural {
                    let values = e.forms.iter().map(|(v, _)| v.clone()).collect();
                    Unit::keyed_plural(&e.key, values, notes)
                } else {
                    let first = e.forms.first().map_or("", |(v, _)| v.as_str());
                    Unit::keyed(&e.key, first, notes)
                }
            })
            .collect()
    }

    fn set_translation(
        &mut self,
        index: usize,
        target: &[String],
        fuzzy: bool,
    ) -> Result<(), FormatError> {
        let entry = unit_at(&mut self.entries, index, &self.name)?;
        let line = entry
            .forms
            .first()
            .map_or(0, |(_, span)| line_at(self.text.as_bytes(), span.start));
        stateless_forms(
            &self.name,
            line,
            "JSON",
            fuzzy,
            target.len(),
            entry.forms.len(),
        )?;
        for ((value, span), new) in entry.forms.iter_mut().zip(target) {
            value.clone_from(new);
            self.edits
                .replace(span.clone(), quote(new, self.ascii_only));
        }
        Ok(())
    }

    fn add_unit(&mut self, unit: &Unit) -> Result<(), FormatError> {
        ensure_new(&self.name, &self.units(), unit, true)?;
        let value = single_new_value(&self.name, "JSON", unit)?;
        let text = self.edits.apply(&self.text);
        let root = parse::parse(&text).map_err(|e| {
            FormatError::new(&self.name, line_at(text.as_bytes(), e.offset), e.message)
        })?;
        let (flavor, ascii_only) = (self.flavor, self.ascii_only);
        let new = add::NewMember {
            key: &unit.context,
            nests: flavor.nests(),
            quote: &|text| quote(text, ascii_only),
            leaf: &|name| member(flavor, ascii_only, name, unit, value),
        };
        let updated =
            add::insert(&text, &root, &new).map_err(|what| cannot_add(&self.name, &what))?;
        *self = JsonFile::parse(&self.name, updated.as_bytes(), self.flavor)?;
        Ok(())
    }

    fn remove_unit(&mut self, index: usize) -> Result<(), FormatError> {
        let mut text = self.edits.apply(&self.text);
        let fresh = JsonFile::parse(&self.name, text.as_bytes(), self.flavor)?;
        let entry = fresh
            .entries
            .get(index)
            .ok_or_else(|| FormatError::new(&self.name, 0, format!("no unit {index}")))?;
        let line = entry
            .forms
            .first()
            .map_or(0, |(_, span)| line_at(text.as_bytes(), span.start));
        let refused = || {
            FormatError::new(
                &self.name,
                line,
                "a string kept as an item of a list cannot be removed alone (the items after it would move)",
            )
        };
        let mut spans = entry.removal.clone();
        if spans.is_empty() {
            return Err(refused());
        }
        spans.sort_by_key(|s| s.start);
        // From the last span back: each cut leaves the earlier spans in place.
        for span in spans.into_iter().rev() {
            let gone = remove::member_span(&text, span).ok_or_else(refused)?;
            text.replace_range(gone, "");
        }
        *self = JsonFile::parse(&self.name, text.as_bytes(), self.flavor)?;
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
    fn nested_files_take_new_strings_in_their_objects() {
        let text = "{\n  \"a\": {\n    \"x\": \"1\"\n  },\n  \"s\": \"2\"\n}\n";
        let add = |flavor, keys: &[&str]| {
            let mut json = JsonFile::parse("t.json", text.as_bytes(), flavor).unwrap();
            for key in keys {
                json.add_unit(&Unit::keyed(key, "v", vec![])).unwrap();
            }
            String::from_utf8(json.to_bytes().unwrap()).unwrap()
        };
        assert_eq!(
            add(Flavor::Nested, &["a.b", "c.d.e", "s.t"]),
            "{\n  \"a\": {\n    \"x\": \"1\",\n    \"b\": \"v\"\n  },\n  \"s\": \"2\",\n  \"c\": {\n    \"d\": {\n      \"e\": \"v\"\n    }\n  },\n  \"s.t\": \"v\"\n}\n"
        );
        assert_eq!(
            add(Flavor::KeyValue, &["a.b"]),
            "{\n  \"a\": {\n    \"x\": \"1\"\n  },\n  \"s\": \"2\",\n  \"a.b\": \"v\"\n}\n"
        );
        let mut json = JsonFile::parse("t.json", text.as_bytes(), Flavor::Nested).unwrap();
        let taken = json.add_unit(&Unit::keyed("a", "v", vec![])).unwrap_err();
        assert_eq!(taken.message, "cannot add \"a\": the key names an object");
        let keys: Vec<String> = json.units().into_iter().map(|u| u.context).collect();
        assert_eq!(keys, ["a.x", "s"]);
        // A key of 100,000 names (a member name full of dots, say) would
        // nest deeper than any file Tolk reads back: refused, not recursed.
        let deep = vec!["k"; 100_000].join(".");
        let refused = json.add_unit(&Unit::keyed(&deep, "v", vec![])).unwrap_err();
        assert!(
            refused.message.ends_with("more than 128 objects deep"),
            "{refused:?}"
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

    #[test]
    fn i18next_plural_keys_are_one_unit() {
        let v3 = r#"{"a": {"file": "1 file", "file_plural": "{{count}} files", "x": "X"}}"#;
        let units = JsonFile::parse("v3.json", v3.as_bytes(), Flavor::I18nextV3)
            .unwrap()
            .units();
        let shape: Vec<(&str, usize)> = units
            .iter()
            .map(|u| (u.context.as_str(), u.target.len()))
            .collect();
        assert_eq!(shape, vec![("a.file", 2), ("a.x", 1)]);
        assert_eq!(units[0].target, vec!["1 file", "{{count}} files"]);

        let v4 = r#"{"n_other": "many", "n_one": "one", "n_few": "few", "plain": "p"}"#;
        let mut file = JsonFile::parse("v4.json", v4.as_bytes(), Flavor::I18nextV4).unwrap();
        let units = file.units();
        assert_eq!(units[0].context, "n");
        assert_eq!(units[0].target, vec!["one", "few", "many"]);
        file.set_translation(0, &["1".into(), "2".into(), "5".into()], false)
            .unwrap();
        assert_eq!(
            file.to_bytes().unwrap(),
            br#"{"n_other": "5", "n_one": "1", "n_few": "2", "plain": "p"}"#
        );
    }

    #[test]
    fn go_i18n_v1_and_v2() {
        let v2 = r#"{"bot": {"hash": "sha1-1", "other": "Bot"}, "n": {"description": "count", "one": "{{.C}} poll", "other": "{{.C}} polls"}, "s": "plain"}"#;
        let units = JsonFile::parse("v2.json", v2.as_bytes(), Flavor::GoI18n)
            .unwrap()
            .units();
        let shape = crate::unit::keyed_targets(&units);
        assert_eq!(
            shape,
            vec![
                ("bot", vec!["Bot"]),
                ("n", vec!["{{.C}} poll", "{{.C}} polls"]),
                ("s", vec!["plain"]),
            ]
        );
        assert_eq!(units[1].developer_notes, vec!["count"]);
        let v1 = r#"[{"id": "a", "translation": ""}, {"id": "b", "translation": {"one": "x", "other": "y"}}]"#;
        let stats = JsonFile::parse("v1.json", v1.as_bytes(), Flavor::GoI18n)
            .unwrap()
            .stats();
        assert_eq!(
            (stats.units, stats.translated, stats.plural_units),
            (2, 1, 1)
        );
        assert!(JsonFile::parse("v1.json", b"[1]", Flavor::GoI18n).is_err());
    }

    /// Removes unit `index` of `text` read as `flavor`; the text after.
    fn removed(text: &str, flavor: Flavor, index: usize) -> Result<String, FormatError> {
        let mut file = JsonFile::parse("t.json", text.as_bytes(), flavor).unwrap();
        file.remove_unit(index)?;
        Ok(String::from_utf8(file.to_bytes().unwrap()).unwrap())
    }

    #[test]
    fn strings_leave_with_what_holds_them() {
        // ARB: the string's metadata goes too; the file's own stays.
        let arb = "{\n  \"@@locale\": \"cs\",\n  \"a\": \"A\",\n  \"@a\": {\"description\": \"x\"},\n  \"b\": \"B\"\n}\n";
        assert_eq!(
            removed(arb, Flavor::Arb, 0).unwrap(),
            "{\n  \"@@locale\": \"cs\",\n  \"b\": \"B\"\n}\n"
        );
        assert_eq!(
            removed(arb, Flavor::Arb, 1).unwrap(),
            "{\n  \"@@locale\": \"cs\",\n  \"a\": \"A\",\n  \"@a\": {\"description\": \"x\"}\n}\n"
        );
        // WebExtension and go-i18n v2: the whole message object.
        let web = r#"{"a": {"message": "A", "description": "d"}, "b": {"message": "B"}}"#;
        assert_eq!(
            removed(web, Flavor::WebExtension, 0).unwrap(),
            r#"{"b": {"message": "B"}}"#
        );
        let v2 = r#"{"n": {"one": "1", "other": "n"}, "s": "plain"}"#;
        assert_eq!(removed(v2, Flavor::GoI18n, 0).unwrap(), r#"{"s": "plain"}"#);
        assert_eq!(
            removed(v2, Flavor::GoI18n, 1).unwrap(),
            r#"{"n": {"one": "1", "other": "n"}}"#
        );
        // go-i18n v1 keeps its strings in a list: refused, file unchanged.
        let v1 = r#"[{"id": "a", "translation": "A"}, {"id": "b", "translation": "B"}]"#;
        let mut file = JsonFile::parse("v1.json", v1.as_bytes(), Flavor::GoI18n).unwrap();
        assert!(file.remove_unit(0).is_err());
        assert_eq!(file.to_bytes().unwrap(), v1.as_bytes());
    }
}
