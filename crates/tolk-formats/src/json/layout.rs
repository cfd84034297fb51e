//! Rewriting a JSON file in a chosen layout (Weblate's "Customize JSON
//! output"): indentation by spaces or tabs, keys sorted or in file order.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::FormatError;

/// How a JSON file is laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Keys of every object sorted; otherwise in the file's order.
    pub sort_keys: bool,
    /// What indents one level (spaces or tabs; empty puts each member on
    /// its own line without indentation).
    pub indent: String,
}

/// Sorts the keys of every object in `value`.
fn sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, sorted(v)))
                    .collect::<Map<String, Value>>(),
            )
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// The JSON file `name` laid out as `layout` says, ending with a newline
/// when it did; `None` when it is laid out so already.
pub fn relayout(name: &str, bytes: &[u8], layout: &Layout) -> Result<Option<Vec<u8>>, FormatError> {
    let mut value: Value = serde_json::from_slice(bytes)
        .map_err(|e| FormatError::new(name, e.line(), e.to_string()))?;
    if layout.sort_keys {
        value = sorted(value);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let formatter = serde_json::ser::PrettyFormatter::with_indent(layout.indent.as_bytes());
    let mut writer = serde_json::Serializer::with_formatter(&mut out, formatter);
    value
        .serialize(&mut writer)
        .map_err(|e| FormatError::new(name, 0, e.to_string()))?;
    if bytes.ends_with(b"\n") {
        out.push(b'\n');
    }
    // The file must hold the same strings laid out anew (a repeated key
    // keeps its last value, as in every JSON reader): a layout that would
    // change one is refused rather than written.
    let strings = |text: &[u8]| -> Result<Vec<(String, Vec<String>)>, FormatError> {
        let mut units: Vec<(String, Vec<String>)> = crate::codecs::parse("json", name, text)?
            .units()
            .into_iter()
            .map(|u| (u.context, u.target))
            .collect();
        units.sort();
        Ok(units)
    };
    if strings(bytes)? != strings(&out)? {
        return Err(FormatError::new(
            name,
            0,
            "laid out anew, the file would hold other strings",
        ));
    }
    Ok((out != bytes).then_some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lays_out_with_tabs_and_sorted_keys() {
        let file = b"{\"b\": {\"y\": \"1\", \"x\": \"2\"}, \"a\": \"\xc4\x8d\"}\n";
        let layout = Layout {
            sort_keys: true,
            indent: "\t".into(),
        };
        let out = relayout("cs.json", file, &layout).unwrap().unwrap();
        assert_eq!(
            String::from_utf8(out.clone()).unwrap(),
            "{\n\t\"a\": \"\u{10d}\",\n\t\"b\": {\n\t\t\"x\": \"2\",\n\t\t\"y\": \"1\"\n\t}\n}\n"
        );
        assert_eq!(relayout("cs.json", &out, &layout).unwrap(), None);
        let kept = Layout {
            sort_keys: false,
            indent: "  ".into(),
        };
        let out = relayout("cs.json", file, &kept).unwrap().unwrap();
        assert!(
            String::from_utf8(out)
                .unwrap()
                .starts_with("{\n  \"b\": {\n    \"y\"")
        );
        assert!(relayout("cs.json", b"{", &kept).is_err());
        let repeated = b"{\"a\": \"1\", \"a\": \"2\"}";
        assert_eq!(
            relayout("cs.json", repeated, &kept).unwrap().unwrap(),
            b"{\n  \"a\": \"2\"\n}",
            "a repeated key keeps its last value, as JSON readers read it"
        );
    }
}
