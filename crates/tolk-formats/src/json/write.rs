//! New key/value JSON files (downloads converted to JSON), written in one
//! pass: flat, or with dotted keys as nested objects.

use std::collections::HashMap;

use super::parse::{MAX_DEPTH, quote};
use crate::unit::Unit;

/// An object being built: members in order, and where each name is.
#[derive(Default)]
struct Object {
    members: Vec<(String, Member)>,
    index: HashMap<String, usize>,
}

enum Member {
    Value(String),
    Object(Object),
}

impl Object {
    /// Adds `value` under the names of `path`; false when a name on the
    /// way holds a value, or the last one is taken.
    fn put(&mut self, path: &[&str], value: &str) -> bool {
        let Some((name, rest)) = path.split_first() else {
            return false;
        };
        match (self.index.get(*name), rest.is_empty()) {
            (None, true) => {
                self.push(name, Member::Value(value.to_owned()));
                true
            }
            (None, false) => {
                let mut inner = Object::default();
                let placed = inner.put(rest, value);
                self.push(name, Member::Object(inner));
                placed
            }
            (Some(&at), false) => match &mut self.members[at].1 {
                Member::Object(inner) => inner.put(rest, value),
                Member::Value(_) => false,
            },
            (Some(_), true) => false,
        }
    }

    fn push(&mut self, name: &str, member: Member) {
        self.index.insert(name.to_owned(), self.members.len());
        self.members.push((name.to_owned(), member));
    }

    fn render(&self, indent: &str, out: &mut String) {
        if self.members.is_empty() {
            out.push_str("{}");
            return;
        }
        out.push_str("{\n");
        let inner = format!("{indent}  ");
        for (i, (name, member)) in self.members.iter().enumerate() {
            if i > 0 {
                out.push_str(",\n");
            }
            out.push_str(&inner);
            out.push_str(&quote(name, false));
            out.push_str(": ");
            match member {
                Member::Value(value) => out.push_str(&quote(value, false)),
                Member::Object(object) => object.render(&inner, out),
            }
        }
        out.push('\n');
        out.push_str(indent);
        out.push('}');
    }
}

/// A JSON file of single-valued `units` with unique keys: with `nested`,
/// dotted keys become nested objects unless a key is also the start of
/// another, or would nest deeper than a file may (then the file is
/// written flat, which holds any keys).
pub(crate) fn write_new(units: &[Unit], nested: bool) -> String {
    let value = |unit: &Unit| unit.target.first().map_or("", String::as_str).to_owned();
    let build = |split: bool| {
        let mut root = Object::default();
        for unit in units {
            let key = unit.context.as_str();
            let path: Vec<&str> = if split && key.split('.').all(|s| !s.is_empty()) {
                key.split('.').collect()
            } else {
                vec![key]
            };
            if path.len() > MAX_DEPTH || !root.put(&path, &value(unit)) {
                return None;
            }
        }
        Some(root)
    };
    let root = nested
        .then(|| build(true))
        .flatten()
        .or_else(|| build(false))
        .unwrap_or_default();
    let mut out = String::new();
    root.render("", &mut out);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(pairs: &[(&str, &str)]) -> Vec<Unit> {
        pairs
            .iter()
            .map(|(key, value)| Unit::keyed(key, value, Vec::new()))
            .collect()
    }

    #[test]
    fn dotted_keys_nest_unless_a_key_is_also_a_prefix() {
        let list = units(&[("a.b", "1"), ("c", "2"), ("a.d.e", "3"), (".x", "4")]);
        assert_eq!(
            write_new(&list, true),
            "{\n  \"a\": {\n    \"b\": \"1\",\n    \"d\": {\n      \"e\": \"3\"\n    }\n  },\n  \"c\": \"2\",\n  \".x\": \"4\"\n}\n"
        );
        assert_eq!(
            write_new(&list, false),
            "{\n  \"a.b\": \"1\",\n  \"c\": \"2\",\n  \"a.d.e\": \"3\",\n  \".x\": \"4\"\n}\n"
        );
        let clash = units(&[("a", "1"), ("a.b", "2")]);
        assert_eq!(write_new(&clash, true), write_new(&clash, false));
        let deep = units(&[(&vec!["k"; 100_000].join("."), "1")]);
        assert_eq!(write_new(&deep, true), write_new(&deep, false));
        assert_eq!(write_new(&[], true), "{}\n");
    }
}
