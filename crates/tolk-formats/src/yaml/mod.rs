//! YAML translation files: `yaml` (nested keys) and `ruby-yaml` (Rails
//! i18n: one top-level key naming the language, and plural forms as
//! mappings of CLDR categories such as `one`/`other`).
//!
//! Keys of nested mappings are joined with `->` and sequence items are
//! named `->[0]`, `->[1]`, … (translate-toolkit's and Weblate's naming).
//! Null values (`key:`, `- `, `~`) are not units, as in translate-toolkit.
//! The original text is kept; an edit replaces one scalar, keeping its
//! quoting style when the new value allows it.

mod parse;

use std::ops::Range;

use parse::{Node, Style};

use crate::edits::{SpanEdits, line_at, removal_span, utf8};
use crate::error::{
    FormatError, cannot_add, ensure_new, single_new_value, stateless_forms, unit_at,
};
use crate::translation_file::TranslationFile;
use crate::unit::Unit;

/// Plural categories of CLDR in their usual order.
const CATEGORIES: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

/// The YAML dialects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// Plain nested keys (`yaml`).
    Plain,
    /// Rails i18n (`ruby-yaml`): the language key is dropped from unit keys
    /// and CLDR-category mappings are plurals.
    Ruby,
}

impl Flavor {
    /// The flavor of a Weblate format id.
    pub fn for_format(format: &str) -> Option<Flavor> {
        match format {
            "yaml" => Some(Flavor::Plain),
            "ruby-yaml" => Some(Flavor::Ruby),
            _ => None,
        }
    }
}

/// One scalar form of an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Form {
    value: String,
    span: Range<usize>,
    style: Style,
}

/// One unit: a scalar, or the forms of a plural.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    key: String,
    forms: Vec<Form>,
    plural: bool,
    /// The lines of the mapping member holding the string, which go when
    /// it is removed; none for strings in sequences.
    removal: Option<Range<usize>>,
}

/// A parsed YAML translation file.
#[derive(Debug, Clone)]
pub struct YamlFile {
    name: String,
    text: String,
    flavor: Flavor,
    entries: Vec<Entry>,
    edits: SpanEdits,
}

fn form(node: &Node) -> Option<Form> {
    match node {
        Node::Scalar { value, span, style } => Some(Form {
            value: value.clone(),
            span: span.clone(),
            style: *style,
        }),
        _ => None,
    }
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_owned()
    } else {
        format!("{prefix}->{key}")
    }
}

/// The forms of a mapping of CLDR categories to scalars, as
/// translate-toolkit reads Rails files: two or more categories are a
/// plural; `other` alone is a plain string under the mapping's own key.
fn plural_forms(members: &[(String, Node)]) -> Option<Vec<Form>> {
    let alone = matches!(members, [(key, _)] if key == "other");
    if !alone
        && (members.len() < 2
            || !members
                .iter()
                .all(|(k, _)| CATEGORIES.contains(&k.as_str())))
    {
        return None;
    }
    CATEGORIES
        .iter()
        .filter_map(|c| members.iter().find(|(k, _)| k == c))
        .map(|(_, node)| form(node))
        .collect()
}

/// Where a node sits: its key's path, the lines of the mapping member
/// holding it, and whether it is inside a sequence (whose items cannot go
/// alone).
#[derive(Default)]
struct At<'a> {
    prefix: &'a str,
    member: Option<Range<usize>>,
    in_list: bool,
}

fn flatten(at: At<'_>, node: &Node, flavor: Flavor, out: &mut Vec<Entry>) {
    let removal = at.member.filter(|_| !at.in_list);
    match node {
        Node::Map {
            members, extents, ..
        } => {
            if flavor == Flavor::Ruby
                && let Some(forms) = plural_forms(members)
            {
                out.push(Entry {
                    key: at.prefix.to_owned(),
                    plural: forms.len() > 1,
                    forms,
                    removal,
                });
                return;
            }
            for ((key, value), extent) in members.iter().zip(extents) {
                let key = join(at.prefix, key);
                let inner = At {
                    prefix: &key,
                    member: Some(extent.clone()),
                    in_list: at.in_list,
                };
                flatten(inner, value, flavor, out);
            }
        }
        Node::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                let key = join(at.prefix, &format!("[{i}]"));
                let inner = At {
                    prefix: &key,
                    member: None,
                    in_list: true,
                };
                flatten(inner, item, flavor, out);
            }
        }
        Node::Scalar {
            style: Style::Missing,
            ..
        }
        | Node::Opaque => {}
        Node::Scalar { .. } => out.extend(form(node).map(|f| Entry {
            key: at.prefix.to_owned(),
            forms: vec![f],
            plural: false,
            removal,
        })),
    }
}

/// A mapping new strings may go into.
struct Place<'a> {
    members: &'a [(String, Node)],
    /// The column of its keys.
    column: usize,
    /// The end of its last line.
    end: usize,
}

impl<'a> Place<'a> {
    /// The place of a mapping node.
    fn of(node: &'a Node) -> Option<Place<'a>> {
        match node {
            Node::Map {
                members,
                column,
                end,
                ..
            } => Some(Place {
                members,
                column: *column,
                end: *end,
            }),
            _ => None,
        }
    }
}

/// The mapping new strings go into. That is the root mapping, or for Rails the
/// one under the language key (a language key without a value gets one);
/// `None` for a Rails file without its one language key.
fn strings_mapping(root: &Node, flavor: Flavor, text_len: usize) -> Option<Place<'_>> {
    let place = Place::of(root)?;
    match (flavor, place.members) {
        (Flavor::Plain, _) => Some(place),
        (Flavor::Ruby, [(_, Node::Map { .. })]) => Place::of(&place.members[0].1),
        (
            Flavor::Ruby,
            [
                (
                    _,
                    Node::Scalar {
                        style: Style::Missing,
                        ..
                    },
                ),
            ],
        ) => Some(Place {
            members: &[],
            column: place.column + 2,
            end: text_len,
        }),
        (Flavor::Ruby, _) => None,
    }
}

impl YamlFile {
    /// Parses a YAML translation file of the given flavor.
    pub fn parse(name: &str, bytes: &[u8], flavor: Flavor) -> Result<YamlFile, FormatError> {
        let text = utf8(name, bytes)?;
        let root = parse::parse(text).map_err(|e| FormatError::new(name, e.line, e.message))?;
        let mut entries = Vec::new();
        match (strings_mapping(&root, flavor, text.len()), &root) {
            (Some(_), Node::Map { members, .. }) if flavor == Flavor::Ruby => {
                flatten(At::default(), &members[0].1, flavor, &mut entries);
            }
            (_, Node::Map { .. }) => flatten(At::default(), &root, flavor, &mut entries),
            _ => {
                return Err(FormatError::new(
                    name,
                    1,
                    "the document must be a mapping of keys",
                ));
            }
        }
        Ok(YamlFile {
            name: name.to_owned(),
            text: text.to_owned(),
            flavor,
            entries,
            edits: SpanEdits::default(),
        })
    }
}

/// True when `value` can be written as a plain scalar and reads back as
/// the same string.
fn plain_safe(value: &str) -> bool {
    let Some(first) = value.chars().next() else {
        return false;
    };
    let looks_typed = matches!(
        value.to_ascii_lowercase().as_str(),
        "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "~" | "y" | "n"
    ) || value.parse::<f64>().is_ok();
    !looks_typed
        && !"-?:,[]{}#&*!|>'\"%@`".contains(first)
        && !first.is_whitespace()
        && !value.ends_with(char::is_whitespace)
        && !value.ends_with(':')
        && !value.contains(": ")
        && !value.contains(" #")
        && !value.chars().any(char::is_control)
}

/// `value` as a double-quoted scalar.
fn double_quoted(value: &str) -> String {
    crate::edits::backslash_quoted(value, |c| {
        c.is_control().then(|| format!("\\u{:04x}", c as u32))
    })
}

/// `value` written in `style` where it allows, else double-quoted.
fn render(value: &str, style: Style) -> String {
    match style {
        Style::Plain | Style::Missing if plain_safe(value) => value.to_owned(),
        Style::Single if !value.chars().any(char::is_control) => {
            format!("'{}'", value.replace('\'', "''"))
        }
        _ => double_quoted(value),
    }
}

impl TranslationFile for YamlFile {
    fn units(&self) -> Vec<Unit> {
        self.entries
            .iter()
            .map(|e| {
                if e.plural {
                    let values = e.forms.iter().map(|f| f.value.clone()).collect();
                    Unit::keyed_plural(&e.key, values, Vec::new())
                } else {
                    Unit::keyed(&e.key, &e.forms[0].value, Vec::new())
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
        let line = line_at(self.text.as_bytes(), entry.forms[0].span.start);
        stateless_forms(
            &self.name,
            line,
            "YAML",
            fuzzy,
            target.len(),
            entry.forms.len(),
        )?;
        for (form, value) in entry.forms.iter_mut().zip(target) {
            // A plain value run into what follows it (`key: # …` with no
            // value) would take that text in; quotes keep it apart.
            let runs_on = self.text[form.span.end..]
                .chars()
                .next()
                .is_some_and(|c| !c.is_whitespace());
            let style = if runs_on { Style::Double } else { form.style };
            let mut text = render(value, style);
            if runs_on {
                text.push(' ');
            }
            let after_space = self.text[..form.span.start].ends_with(' ');
            if form.style == Style::Missing && !after_space {
                text.insert(0, ' ');
            }
            self.edits.replace(form.span.clone(), text);
            form.value.clone_from(value);
        }
        Ok(())
    }

    fn add_unit(&mut self, unit: &Unit) -> Result<(), FormatError> {
        ensure_new(&self.name, &self.units(), unit, true)?;
        let value = single_new_value(&self.name, "YAML", unit)?;
        let key = unit.context.as_str();
        let path: Vec<&str> = key.split("->").collect();
        if path
            .iter()
            .any(|name| name.is_empty() || name.starts_with('['))
        {
            return Err(cannot_add(&self.name, "strings into YAML sequences"));
        }
        if path.len() > parse::MAX_DEPTH {
            return Err(cannot_add(
                &self.name,
                &format!("a key more than {} mappings deep", parse::MAX_DEPTH),
            ));
        }
        if self
            .entries
            .iter()
            .any(|e| key.starts_with(&format!("{}->", e.key)))
        {
            return Err(cannot_add(
                &self.name,
                &format!("{key:?}: a string holds a part of it"),
            ));
        }
        if self.text.lines().any(|line| parse::is_marker(line, "...")) {
            return Err(cannot_add(
                &self.name,
                "strings after the end of a YAML document",
            ));
        }
        let text = self.edits.apply(&self.text);
        let root =
            parse::parse(&text).map_err(|e| FormatError::new(&self.name, e.line, e.message))?;
        let Some(mut place) = strings_mapping(&root, self.flavor, text.len()) else {
            return Err(cannot_add(
                &self.name,
                "strings to a Rails file without its language key",
            ));
        };
        // Into the deepest mapping the key leads to.
        let mut rest = path.as_slice();
        while let Some((name, tail)) = rest.split_first() {
            let found = place.members.iter().find(|(k, _)| k == name);
            match found.map(|(_, node)| Place::of(node)) {
                None => break,
                Some(Some(inner)) if !tail.is_empty() => {
                    place = inner;
                    rest = tail;
                }
                Some(_) => {
                    return Err(cannot_add(
                        &self.name,
                        &format!("{key:?}: the key is taken"),
                    ));
                }
            }
        }
        if self.flavor == Flavor::Ruby && plural_forms(place.members).is_some() {
            return Err(cannot_add(
                &self.name,
                &format!("{key:?}: its mapping is a plural string"),
            ));
        }
        let lines: Vec<String> = rest
            .iter()
            .enumerate()
            .map(|(depth, name)| {
                let indent = " ".repeat(place.column + 2 * depth);
                let name = render(name, Style::Plain);
                if depth + 1 == rest.len() {
                    format!("{indent}{name}: {}", render(value, Style::Plain))
                } else {
                    format!("{indent}{name}:")
                }
            })
            .collect();
        let (before, after) = text.split_at(place.end);
        let lead = if before.is_empty() || before.ends_with('\n') {
            ""
        } else {
            "\n"
        };
        let trail = if after.is_empty() { "\n" } else { "" };
        let updated = format!("{before}{lead}{}{trail}{after}", lines.join("\n"));
        *self = YamlFile::parse(&self.name, updated.as_bytes(), self.flavor)?;
        Ok(())
    }

    fn remove_unit(&mut self, index: usize) -> Result<(), FormatError> {
        let text = self.edits.apply(&self.text);
        let fresh = YamlFile::parse(&self.name, text.as_bytes(), self.flavor)?;
        let entry = fresh
            .entries
            .get(index)
            .ok_or_else(|| FormatError::new(&self.name, 0, format!("no unit {index}")))?;
        let Some(lines) = entry.removal.clone() else {
            let line = line_at(text.as_bytes(), entry.forms[0].span.start);
            return Err(FormatError::new(
                &self.name,
                line,
                "a string kept as an item of a sequence cannot be removed alone (the items after it would move)",
            ));
        };
        let mut updated = text.clone();
        updated.replace_range(removal_span(&text, lines), "");
        *self = YamlFile::parse(&self.name, updated.as_bytes(), self.flavor)?;
        Ok(())
    }

    fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        Ok(self.edits.apply(&self.text).into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "---\nru:\n  date:\n    abbr_day_names:\n    - Вс\n    - \n    order:\n    - :day\n  count:\n    one: '%{count} файл'\n    few: \"%{count} файла\"\n    many: \"%{count} файлов\"\n    other: \"%{count} файла\"\n  empty: ''\n  none:\n";

    #[test]
    fn no_break_spaces_are_content_not_white_space() {
        let text =
            "plain: \u{a0}a b\u{a0}\nfolded: >\n  one\u{a0}\n  two\nliteral: |\n  \u{a0}x\u{a0}\n";
        let file = YamlFile::parse("nb.yml", text.as_bytes(), Flavor::Plain).unwrap();
        let units = file.units();
        let values = crate::unit::keyed_targets(&units);
        assert_eq!(
            values,
            vec![
                ("plain", vec!["\u{a0}a b\u{a0}"]),
                ("folded", vec!["one\u{a0} two\n"]),
                ("literal", vec!["\u{a0}x\u{a0}\n"]),
            ]
        );
    }

    #[test]
    fn rails_files_have_plurals_and_language_free_keys() {
        let mut file = YamlFile::parse("ru.yml", SAMPLE.as_bytes(), Flavor::Ruby).unwrap();
        let units = file.units();
        let shape = crate::unit::keyed_targets(&units);
        assert_eq!(
            shape,
            vec![
                ("date->abbr_day_names->[0]", vec!["Вс"]),
                ("date->order->[0]", vec![":day"]),
                (
                    "count",
                    vec![
                        "%{count} файл",
                        "%{count} файла",
                        "%{count} файлов",
                        "%{count} файла"
                    ]
                ),
                ("empty", vec![""]),
            ]
        );
        assert_eq!(file.to_bytes().unwrap(), SAMPLE.as_bytes());
        file.set_translation(1, &[":week".into()], false).unwrap();
        file.set_translation(
            2,
            &[
                "it's".into(),
                "a \"b\"".into(),
                "yes".into(),
                "plain".into(),
            ],
            false,
        )
        .unwrap();
        file.set_translation(3, &["x: y".into()], false).unwrap();
        let written = String::from_utf8(file.to_bytes().unwrap()).unwrap();
        assert_eq!(
            written,
            SAMPLE
                .replace("- :day", "- \":week\"")
                .replace("one: '%{count} файл'", "one: 'it''s'")
                .replace("few: \"%{count} файла\"", "few: \"a \\\"b\\\"\"")
                .replace("many: \"%{count} файлов\"", "many: \"yes\"")
                .replace("other: \"%{count} файла\"", "other: \"plain\"")
                .replace("  empty: ''", "  empty: 'x: y'")
        );
        let again = YamlFile::parse("ru.yml", written.as_bytes(), Flavor::Ruby).unwrap();
        assert_eq!(again.units(), file.units());
        let plain = YamlFile::parse("ru.yml", SAMPLE.as_bytes(), Flavor::Plain).unwrap();
        assert_eq!(plain.units()[0].context, "ru->date->abbr_day_names->[0]");
        assert!(YamlFile::parse("x.yml", b"- a\n- b\n", Flavor::Plain).is_err());
    }

    #[test]
    fn a_mapping_of_other_alone_is_a_plain_string_of_its_key() {
        let text =
            "en:\n  files:\n    other: \"%{count} files\"\n  only_one:\n    one: \"a file\"\n";
        let mut file = YamlFile::parse("en.yml", text.as_bytes(), Flavor::Ruby).unwrap();
        let units = file.units();
        let shape: Vec<(&str, usize, bool)> = units
            .iter()
            .map(|u| (u.context.as_str(), u.source.len(), u.has_plurals()))
            .collect();
        assert_eq!(shape, [("files", 1, false), ("only_one->one", 1, false)]);
        file.set_translation(0, &["%{count} soubory".into()], false)
            .unwrap();
        assert_eq!(
            String::from_utf8(file.to_bytes().unwrap()).unwrap(),
            text.replace("\"%{count} files\"", "\"%{count} soubory\"")
        );
    }

    #[test]
    fn nested_keys_go_into_their_mappings() {
        let mut file = YamlFile::parse("ru.yml", SAMPLE.as_bytes(), Flavor::Ruby).unwrap();
        for key in ["date->formats->short", "new->deep", "top"] {
            file.add_unit(&Unit::keyed(key, "v", vec![])).unwrap();
        }
        assert_eq!(
            String::from_utf8(file.to_bytes().unwrap()).unwrap(),
            SAMPLE
                .replace("    - :day\n", "    - :day\n    formats:\n      short: v\n")
                .replace("  none:\n", "  none:\n  new:\n    deep: v\n  top: v\n")
        );
        let refused = [
            ("date->order->[1]", "cannot add strings into YAML sequences"),
            (
                "count->zero",
                "cannot add \"count->zero\": a string holds a part of it",
            ),
            ("date", "cannot add \"date\": the key is taken"),
            (
                &vec!["k"; 100_000].join("->"),
                "cannot add a key more than 64 mappings deep",
            ),
        ];
        for (key, message) in refused {
            let error = file.add_unit(&Unit::keyed(key, "v", vec![])).unwrap_err();
            assert_eq!(error.message, message);
        }
        let mut bare = YamlFile::parse("cs.yml", b"cs:\n", Flavor::Ruby).unwrap();
        bare.add_unit(&Unit::keyed("a->b", "v", vec![])).unwrap();
        assert_eq!(bare.to_bytes().unwrap(), b"cs:\n  a:\n    b: v\n");
    }

    /// Removes the unit keyed `key` from `text`; the text after.
    fn without(text: &str, flavor: Flavor, key: &str) -> Result<String, FormatError> {
        let mut file = YamlFile::parse("t.yml", text.as_bytes(), flavor).unwrap();
        let index = file.units().iter().position(|u| u.context == key).unwrap();
        file.remove_unit(index)?;
        Ok(String::from_utf8(file.to_bytes().unwrap()).unwrap())
    }

    #[test]
    fn strings_leave_with_their_lines() {
        let text = "a:\n  b: x # note\n  c: |\n    multi\n    line\n  e: \"q\"\r\nd: y\n";
        // Each string's lines go, a block scalar's and a CRLF line's whole.
        let kept = [
            (
                "a->b",
                "a:\n  c: |\n    multi\n    line\n  e: \"q\"\r\nd: y\n",
            ),
            ("a->c", "a:\n  b: x # note\n  e: \"q\"\r\nd: y\n"),
            (
                "a->e",
                "a:\n  b: x # note\n  c: |\n    multi\n    line\nd: y\n",
            ),
            (
                "d",
                "a:\n  b: x # note\n  c: |\n    multi\n    line\n  e: \"q\"\r\n",
            ),
        ];
        for (key, rest) in kept {
            assert_eq!(without(text, Flavor::Plain, key).unwrap(), rest, "{key}");
        }
        // A Rails plural goes with its mapping; a sequence item is refused.
        let plural = without(SAMPLE, Flavor::Ruby, "count").unwrap();
        assert!(!plural.contains("count") && plural.contains("  empty: ''\n"));
        let mut file = YamlFile::parse("t.yml", SAMPLE.as_bytes(), Flavor::Ruby).unwrap();
        let item = file
            .units()
            .iter()
            .position(|u| u.context.ends_with("[0]"))
            .unwrap();
        assert!(file.remove_unit(item).is_err());
        assert_eq!(file.to_bytes().unwrap(), SAMPLE.as_bytes());
    }
}
