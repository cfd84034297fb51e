//! How each JSON dialect lays out its keys, values, plural forms and notes.

use std::collections::HashMap;
use std::ops::Range;

use super::entry::Entry;
use super::parse::Value;

/// The JSON dialects this codec reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// Key/value pairs; nested objects give dotted keys, new ones are
    /// written flat (`json`).
    KeyValue,
    /// Key/value pairs in nested objects, dotted keys both read and written
    /// as nesting (`json-nested`).
    Nested,
    /// `{"key": {"message": …, "description": …}}` (`webextension`).
    WebExtension,
    /// Flutter ARB: `"key": "value"` with `"@key": {"description": …}` metadata (`arb`).
    Arb,
    /// i18next v3: nested keys; `key` and `key_plural` (or `key_0`, `key_1`, …)
    /// are the forms of one plural.
    I18nextV3,
    /// i18next v4: nested keys; `key_one`, `key_few`, `key_other`, … are the
    /// forms of one plural.
    I18nextV4,
    /// go-i18n: v2 objects of `{"other": …, "one": …, "description": …}` or
    /// plain strings, or the v1 list of `{"id", "translation"}`.
    GoI18n,
}

impl Flavor {
    /// The flavor of a Weblate format id.
    pub fn for_format(format: &str) -> Option<Flavor> {
        match format {
            "json" => Some(Flavor::KeyValue),
            "json-nested" => Some(Flavor::Nested),
            "webextension" => Some(Flavor::WebExtension),
            "arb" => Some(Flavor::Arb),
            "i18next" => Some(Flavor::I18nextV3),
            "i18nextv4" => Some(Flavor::I18nextV4),
            "go-i18n-json" | "go-i18n-json-v2" => Some(Flavor::GoI18n),
            _ => None,
        }
    }

    /// Whether dots in keys are nested objects when strings are added.
    pub(super) fn nests(self) -> bool {
        matches!(self, Flavor::Nested | Flavor::I18nextV3 | Flavor::I18nextV4)
    }
}

/// Plural categories of CLDR in their usual order.
const CATEGORIES: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

/// The entries of a parsed document, or why the document does not fit.
pub(super) fn entries(root: &Value, flavor: Flavor) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    match (flavor, root) {
        (Flavor::GoI18n, Value::Array(items)) => go_i18n_v1(items, &mut entries)?,
        (_, Value::Object(members, _)) => match flavor {
            Flavor::KeyValue | Flavor::Nested => flatten("", root, &mut entries),
            Flavor::WebExtension => web_extension(members, &mut entries)?,
            Flavor::Arb => arb(members, &mut entries),
            Flavor::I18nextV3 | Flavor::I18nextV4 => {
                flatten("", root, &mut entries);
                entries = plural_groups(entries, flavor);
            }
            Flavor::GoI18n => go_i18n_v2(members, &mut entries),
        },
        (Flavor::GoI18n, _) => return Err("the file must hold a JSON object or list".into()),
        _ => return Err("the file must hold a JSON object".into()),
    }
    Ok(entries)
}

fn leaf(value: &Value) -> Option<(String, Range<usize>)> {
    match value {
        Value::String(s, span) | Value::Scalar(s, span) => Some((s.clone(), span.clone())),
        _ => None,
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

/// Every leaf under `value`, with dotted keys (`a.b`, `list[0]`).
fn flatten(prefix: &str, value: &Value, out: &mut Vec<Entry>) {
    match value {
        Value::Object(members, _) => {
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
            if let Some(found) = leaf(value) {
                out.push(Entry::single(prefix.to_owned(), found, None));
            }
        }
    }
}

fn web_extension(members: &[(String, Value)], out: &mut Vec<Entry>) -> Result<(), String> {
    for (key, value) in members {
        let Value::Object(fields, _) = value else {
            return Err(format!("message {key:?} is not an object"));
        };
        if let Some(found) = member(fields, "message").and_then(leaf) {
            let note = text_of(member(fields, "description"));
            out.push(Entry {
                removal: span_of(value).into_iter().collect(),
                ..Entry::single(key.clone(), found, note)
            });
        }
    }
    Ok(())
}

fn arb(members: &[(String, Value)], out: &mut Vec<Entry>) {
    for (key, value) in members.iter().filter(|(k, _)| !k.starts_with('@')) {
        if let Some(found) = leaf(value) {
            let metadata = member(members, &format!("@{key}"));
            let note = match metadata {
                Some(Value::Object(meta, _)) => text_of(member(meta, "description")),
                _ => None,
            };
            let mut entry = Entry::single(key.clone(), found, note);
            // The string's metadata goes with it.
            entry.removal.extend(metadata.and_then(span_of));
            out.push(entry);
        }
    }
}

/// The base key and the rank of the plural form a key names, if it names one.
fn plural_form(key: &str, flavor: Flavor) -> Option<(&str, usize)> {
    let (base, suffix) = key.rsplit_once('_')?;
    if base.is_empty() {
        return None;
    }
    match flavor {
        Flavor::I18nextV3 if suffix == "plural" => Some((base, 1)),
        Flavor::I18nextV3 => suffix
            .parse::<usize>()
            .ok()
            .filter(|n| *n < 10 && suffix.len() == 1)
            .map(|n| (base, n)),
        _ => CATEGORIES
            .iter()
            .position(|c| *c == suffix)
            .map(|rank| (base, rank)),
    }
}

/// Merges the keys that are forms of one plural into one entry, placed
/// where its first form is. In v3 the bare key is the singular form.
fn plural_groups(entries: Vec<Entry>, flavor: Flavor) -> Vec<Entry> {
    let mut ranked: Vec<(Entry, Option<(String, usize)>)> = entries
        .into_iter()
        .map(|e| {
            let form = plural_form(&e.key, flavor).map(|(b, r)| (b.to_owned(), r));
            (e, form)
        })
        .collect();
    if flavor == Flavor::I18nextV3 {
        // A bare key is the first form when a `_plural` or numbered form exists.
        let bases: std::collections::HashSet<String> = ranked
            .iter()
            .filter_map(|(_, form)| form.as_ref().map(|(b, _)| b.clone()))
            .collect();
        for (entry, form) in &mut ranked {
            if form.is_none() && bases.contains(&entry.key) {
                *form = Some((entry.key.clone(), 0));
            }
        }
    }
    let mut out: Vec<Entry> = Vec::new();
    let mut groups: HashMap<String, (usize, Vec<(usize, Entry)>)> = HashMap::new();
    for (entry, form) in ranked {
        match form {
            None => out.push(entry),
            Some((base, rank)) => {
                let at = out.len();
                let group = groups
                    .entry(base.clone())
                    .or_insert_with(|| (at, Vec::new()));
                if group.1.is_empty() {
                    out.push(Entry {
                        key: base,
                        forms: Vec::new(),
                        plural: true,
                        note: None,
                        removal: Vec::new(),
                    });
                }
                group.1.push((rank, entry));
            }
        }
    }
    for (at, mut forms) in groups.into_values() {
        forms.sort_by_key(|(rank, _)| *rank);
        for (_, entry) in forms {
            out[at].forms.extend(entry.forms);
            out[at].removal.extend(entry.removal);
        }
    }
    out
}

/// go-i18n v2: `"id": "text"` or `"id": {"one": …, "other": …, "description": …}`.
fn go_i18n_v2(members: &[(String, Value)], out: &mut Vec<Entry>) {
    for (key, value) in members {
        match value {
            Value::Object(fields, span) => {
                let note = text_of(member(fields, "description"));
                out.extend(go_i18n_entry(key.clone(), fields, note).map(|entry| Entry {
                    removal: vec![span.clone()],
                    ..entry
                }));
            }
            other => {
                if let Some(found) = leaf(other) {
                    out.push(Entry::single(key.clone(), found, None));
                }
            }
        }
    }
}

/// go-i18n v1: `[{"id": …, "translation": "text" | {"one": …, "other": …}}]`.
fn go_i18n_v1(items: &[Value], out: &mut Vec<Entry>) -> Result<(), String> {
    for (i, item) in items.iter().enumerate() {
        let Value::Object(fields, _) = item else {
            return Err(format!("list item {i} is not an object"));
        };
        let Some(id) = text_of(member(fields, "id")) else {
            return Err(format!("list item {i} has no \"id\""));
        };
        let note = text_of(member(fields, "description"));
        // Items of a list: they cannot be removed as members.
        match member(fields, "translation") {
            Some(Value::Object(forms, _)) => out.extend(go_i18n_entry(id, forms, note)),
            Some(value) => {
                if let Some(found) = leaf(value) {
                    out.push(Entry {
                        removal: Vec::new(),
                        ..Entry::single(id, found, note)
                    });
                }
            }
            None => {}
        }
    }
    Ok(())
}

/// An entry from an object of CLDR category keys (none without any);
/// plural when it has a category besides `other`.
fn go_i18n_entry(key: String, fields: &[(String, Value)], note: Option<String>) -> Option<Entry> {
    let forms: Vec<(String, Range<usize>)> = CATEGORIES
        .iter()
        .filter_map(|c| member(fields, c).and_then(leaf))
        .collect();
    let plural = CATEGORIES[..5].iter().any(|c| member(fields, c).is_some());
    (!forms.is_empty()).then_some(Entry {
        key,
        forms,
        plural,
        note,
        removal: Vec::new(),
    })
}

/// The span of a value's text (an object's from `{` to `}`); lists keep
/// none.
fn span_of(value: &Value) -> Option<Range<usize>> {
    match value {
        Value::Object(_, span) | Value::String(_, span) | Value::Scalar(_, span) => {
            Some(span.clone())
        }
        Value::Array(_) => None,
    }
}
