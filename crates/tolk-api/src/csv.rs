//! `?format=csv`: a response as a table, the way Weblate's CSV renderer
//! writes it. A page is unwrapped to its items, each item is a row, nested
//! objects and lists are flattened into dotted columns (`project.slug`,
//! `groups.0`), the header is the sorted set of every column, `null` is an
//! empty cell and booleans are `True`/`False`; lines end in CRLF.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::reencode::unwrap_page;

/// The CSV text of flat rows whose columns are the first row's keys, in
/// their order (exports with a fixed column order).
pub fn in_order(rows: &[Value]) -> Vec<u8> {
    let Some(Value::Object(first)) = rows.first() else {
        return Vec::new();
    };
    let columns: Vec<&String> = first.keys().collect();
    let mut out = String::new();
    let header: Vec<String> = columns.iter().map(|c| cell(c)).collect();
    out.push_str(&header.join(","));
    out.push_str("\r\n");
    for row in rows {
        let flat = self::row(row);
        let cells: Vec<String> = columns
            .iter()
            .map(|c| cell(flat.get(*c).map_or("", String::as_str)))
            .collect();
        out.push_str(&cells.join(","));
        out.push_str("\r\n");
    }
    out.into_bytes()
}

/// The CSV text of a JSON body; a body that is not JSON is kept.
pub fn from_json(body: &[u8]) -> Vec<u8> {
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return body.to_vec();
    };
    let rows: Vec<BTreeMap<String, String>> = match unwrap_page(value) {
        Value::Array(items) => items.iter().map(row).collect(),
        other => vec![row(&other)],
    };
    let columns: BTreeSet<&String> = rows.iter().flat_map(|r| r.keys()).collect();
    if columns.is_empty() {
        return Vec::new();
    }
    let mut out = String::new();
    let line = |cells: Vec<&str>, out: &mut String| {
        let cells: Vec<String> = cells.into_iter().map(cell).collect();
        out.push_str(&cells.join(","));
        out.push_str("\r\n");
    };
    line(columns.iter().map(|c| c.as_str()).collect(), &mut out);
    for row in &rows {
        let cells = columns
            .iter()
            .map(|c| row.get(*c).map_or("", String::as_str))
            .collect();
        line(cells, &mut out);
    }
    out.into_bytes()
}

/// One item as columns and cell texts.
fn row(item: &Value) -> BTreeMap<String, String> {
    let mut cells = BTreeMap::new();
    flatten("", item, &mut cells);
    cells
}

fn flatten(prefix: &str, value: &Value, cells: &mut BTreeMap<String, String>) {
    let join = |key: &str| {
        if prefix.is_empty() {
            key.to_owned()
        } else {
            format!("{prefix}.{key}")
        }
    };
    let text = match value {
        Value::Object(members) => {
            for (key, value) in members {
                flatten(&join(key), value, cells);
            }
            return;
        }
        Value::Array(items) => {
            for (i, value) in items.iter().enumerate() {
                flatten(&join(&i.to_string()), value, cells);
            }
            return;
        }
        Value::Null => String::new(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
    };
    cells.insert(prefix.to_owned(), text);
}

/// A cell quoted where the text needs it.
pub(crate) fn cell(text: &str) -> String {
    if text.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_become_sorted_flat_tables() {
        let page = br#"{"count": 2, "next": null, "previous": null, "results": [
            {"slug": "a", "name": "A, \"quoted\"", "project": {"slug": "p"}, "groups": [3, 4], "locked": false, "web": null},
            {"slug": "b", "name": "B\nline", "locked": true, "extra": 1.5}
        ]}"#;
        assert_eq!(
            String::from_utf8(from_json(page)).unwrap(),
            "extra,groups.0,groups.1,locked,name,project.slug,slug,web\r\n\
             ,3,4,False,\"A, \"\"quoted\"\"\",p,a,\r\n\
             1.5,,,True,\"B\nline\",,b,\r\n"
        );
        assert_eq!(from_json(br#"{"a": 1}"#), b"a\r\n1\r\n");
        assert_eq!(from_json(br#"{"count": 0, "results": []}"#), b"");
        assert_eq!(from_json(b"not json"), b"not json");
    }
}
