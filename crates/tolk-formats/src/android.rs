//! Android string resources (`aresource`): `<string>` and `<plurals>` in
//! `<resources>`, with the comment above each as its developer note.
//! `<string-array>` elements are kept but give no units (as in Weblate).
//!
//! The original text is kept; an edit replaces only the inner text of the
//! element (or of its `<item>`s). Entities declared in a DOCTYPE are left
//! as written and never expanded, so no external entity is ever resolved.

use quick_xml::events::Event;

use crate::edits::utf8;
use crate::error::FormatError;
use crate::keyed::{Dialect, KeyedEntry, KeyedXmlFile};
use crate::unit::Unit;
use crate::xml::{self, Scanner, Slot, attribute};

/// The value of an element's inner XML as Android's resource compiler
/// reads it: CDATA and entities resolved; double quotes that no backslash
/// escapes removed, white space inside them kept and elsewhere trimmed and
/// collapsed; backslash escapes resolved. Inner markup stays as text.
fn android_value(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quoted = false;
    let mut in_tag = false;
    let mut space = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        let literal = match c {
            '\\' => match chars.next() {
                Some('n') => '\n',
                Some('t') => '\t',
                Some('u') => {
                    let hex: String = chars.by_ref().take(4).collect();
                    match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                        Some(c) => c,
                        None => {
                            flush(&mut out, &mut space);
                            out.push_str(&format!("\\u{hex}"));
                            continue;
                        }
                    }
                }
                Some(other) => other,
                None => '\\',
            },
            // Inside markup, quotes and spaces are the markup's own.
            '"' if !in_tag => {
                quoted = !quoted;
                continue;
            }
            c if c.is_whitespace() && !quoted && !in_tag => {
                space = true;
                continue;
            }
            '<' => {
                in_tag = true;
                '<'
            }
            '>' => {
                in_tag = false;
                '>'
            }
            c => c,
        };
        flush(&mut out, &mut space);
        out.push(literal);
    }
    out
}

/// Writes the one space a run of collapsed white space leaves, unless at the start.
fn flush(out: &mut String, space: &mut bool) {
    if std::mem::take(space) && !out.is_empty() {
        out.push(' ');
    }
}

/// Writes a value as element text: Android's escapes, then XML's.
fn android_text(value: &str) -> String {
    xml::escape(&android_escape(value), &[])
}

/// A value with Android's escapes (backslashes, quotes, line breaks, a
/// leading `@` or `?`), in quotes when its white space must be kept; what
/// a CDATA section holds.
fn android_escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 8);
    for (i, c) in value.chars().enumerate() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '@' | '?' if i == 0 => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    let keeps_space = value.starts_with(' ') || value.ends_with(' ') || value.contains("  ");
    if keeps_space {
        format!("\"{out}\"")
    } else {
        out
    }
}

/// Reads the XML and collects entries.
struct EntryReader<'a> {
    xml: Scanner<'a>,
}

impl EntryReader<'_> {
    /// The `<item>`s of a `<plurals>`.
    fn items(&mut self) -> Result<Vec<Slot>, FormatError> {
        let mut slots = Vec::new();
        loop {
            let before = self.xml.position();
            match self.xml.next()? {
                Event::Start(e) if e.local_name().as_ref() == "item" => {
                    slots.push(Slot::Inner(self.xml.content()?));
                }
                Event::Empty(e) if e.local_name().as_ref() == "item" => {
                    slots.push(Slot::Empty(before..self.xml.position()));
                }
                Event::Start(_) => {
                    self.xml.content()?;
                }
                Event::End(_) => return Ok(slots),
                Event::Eof => return Err(self.xml.truncated()),
                _ => {}
            }
        }
    }

    fn entries(&mut self) -> Result<Vec<KeyedEntry>, FormatError> {
        let mut entries = Vec::new();
        let mut depth = 0usize;
        let mut seen_root = false;
        let mut note: Option<String> = None;
        loop {
            let before = self.xml.position();
            let event = self.xml.next()?;
            match event {
                Event::Start(ref e) | Event::Empty(ref e) if depth == 0 => {
                    if seen_root || e.local_name().as_ref() != "resources" {
                        return Err(self
                            .xml
                            .error(before, "the root element must be one <resources>"));
                    }
                    seen_root = true;
                    depth = usize::from(matches!(event, Event::Start(_)));
                }
                Event::Comment(c) if depth == 1 => {
                    note = Some(c[..].trim().to_owned());
                }
                Event::Start(ref e) | Event::Empty(ref e) if depth == 1 => {
                    let is_empty = matches!(event, Event::Empty(_));
                    let tag = e.local_name().as_ref().to_owned();
                    let name = attribute(e, "name").unwrap_or_default();
                    let translatable = attribute(e, "translatable").is_none_or(|t| t != "false");
                    let (slots, plural) = match (tag.as_str(), is_empty) {
                        ("string", false) => (vec![Slot::Inner(self.xml.content()?)], false),
                        ("string", true) => (vec![Slot::Empty(before..self.xml.position())], false),
                        ("plurals", false) => (self.items()?, true),
                        (_, false) => {
                            self.xml.content()?;
                            note = None;
                            continue;
                        }
                        (_, true) => {
                            note = None;
                            continue;
                        }
                    };
                    let values = slots
                        .iter()
                        .map(|slot| android_value(&slot.text(self.xml.text())))
                        .collect();
                    entries.push(KeyedEntry {
                        key: name,
                        slots,
                        values,
                        plural,
                        translatable,
                        note: note.take(),
                        element: Some(before..self.xml.position()),
                    });
                }
                Event::End(_) if depth == 1 => depth = 0,
                Event::Eof if seen_root => break,
                Event::Eof => return Err(self.xml.error(before, "no <resources> element")),
                _ => {}
            }
        }
        Ok(entries)
    }
}

/// Parses a `strings.xml`; `name` is used in error messages.
pub fn parse(name: &str, bytes: &[u8]) -> Result<KeyedXmlFile, FormatError> {
    let text = utf8(name, bytes)?;
    let mut xml = Scanner::new(name, text)?;
    xml.watch("resources", 0);
    let mut reader = EntryReader { xml };
    let entries = reader.entries()?;
    Ok(KeyedXmlFile::new(
        name,
        text,
        DIALECT,
        entries,
        reader.xml.watched(),
    ))
}

const DIALECT: Dialect = Dialect {
    kind: "Android resource",
    escape: android_text,
    raw: android_escape,
    parse,
    new_unit: Some(new_string),
};

/// A new resources file of single-valued keyed `units`.
pub(crate) fn write_new(units: &[Unit]) -> Result<String, String> {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n");
    for unit in units {
        out.push_str(&new_string(unit, "    ")?);
    }
    out.push_str("</resources>\n");
    Ok(out)
}

/// A new `<string>` element.
fn new_string(unit: &Unit, indent: &str) -> Result<String, String> {
    if unit.target.len() > 1 {
        return Err("plural strings without their quantities".into());
    }
    let value = unit.target.first().map_or("", String::as_str);
    Ok(format!(
        "{indent}<string name=\"{}\">{}</string>\n",
        xml::escape_attribute(&unit.context),
        android_text(value)
    ))
}

#[cfg(test)]
mod tests {

    #[test]
    fn unescaped_quotes_are_removed_as_the_resource_compiler_does() {
        let file = b"<resources>\n<string name=\"a\">Say \"hi\"  there</string>\n<string name=\"b\">\"  keep  \"</string>\n<string name=\"c\">a \\\"b\\\"</string>\n<string name=\"d\"><xliff:g id=\"x\">%s</xliff:g> \"q\"</string>\n<string name=\"e\">x \" y  z\" w</string>\n</resources>\n";
        let parsed = super::parse("strings.xml", file).unwrap();
        let values: Vec<String> = parsed
            .units()
            .into_iter()
            .map(|u| u.target[0].clone())
            .collect();
        assert_eq!(
            values,
            [
                "Say hi there",
                "  keep  ",
                "a \"b\"",
                "<xliff:g id=\"x\">%s</xliff:g> q",
                "x  y  z w"
            ]
        );
    }

    #[test]
    fn untranslatable_template_strings_are_read_only_in_translations() {
        let template = super::parse(
            "values/strings.xml",
            b"<resources>\n<string name=\"app\" translatable=\"false\">Tolk</string>\n<string name=\"hi\">Hi</string>\n</resources>\n",
        )
        .unwrap()
        .units();
        let translation = super::parse(
            "values-cs/strings.xml",
            b"<resources>\n<string name=\"app\">Tolk</string>\n<string name=\"hi\">Ahoj</string>\n</resources>\n",
        )
        .unwrap()
        .units();
        let units = crate::with_template(&template, &translation);
        let states: Vec<crate::State> = units.iter().map(|u| u.state).collect();
        assert_eq!(states, [crate::State::ReadOnly, crate::State::Translated]);
        let missing = crate::with_template(&template, &[]);
        assert_eq!(
            missing[0].state,
            crate::State::ReadOnly,
            "even when not in the file"
        );
    }

    use super::*;
    use crate::{State, TranslationFile};

    const SAMPLE: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE resources [ <!ENTITY app "Tolk"> ]>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <!-- Shown on the start screen -->
    <string name="hello">Hello, &app;!</string>
    <string name="quoted">"  spaced  "</string>
    <string name="escaped">It\'s a \"test\"\nnext &amp; last</string>
    <string name="cdata"><![CDATA[<b>bold</b>]]></string>
    <string name="empty"/>
    <string name="fixed" translatable="false">v1</string>
    <string name="markup">Say <xliff:g id="name">%s</xliff:g></string>
    <plurals name="files">
        <item quantity="one">%d file</item>
        <item quantity="other">%d files</item>
    </plurals>
    <string-array name="colors"><item>red</item></string-array>
</resources>
"#;

    fn parse() -> KeyedXmlFile {
        super::parse("strings.xml", SAMPLE.as_bytes()).unwrap()
    }

    #[test]
    fn reads_strings_plurals_and_notes() {
        let file = parse();
        let units = file.units();
        let values = crate::unit::keyed_targets(&units);
        assert_eq!(
            values,
            vec![
                ("hello", vec!["Hello, &app;!"]),
                ("quoted", vec!["  spaced  "]),
                ("escaped", vec!["It's a \"test\"\nnext & last"]),
                ("cdata", vec!["<b>bold</b>"]),
                ("empty", vec![""]),
                ("fixed", vec!["v1"]),
                ("markup", vec!["Say <xliff:g id=\"name\">%s</xliff:g>"]),
                ("files", vec!["%d file", "%d files"]),
            ]
        );
        assert_eq!(units[0].developer_notes, vec!["Shown on the start screen"]);
        assert_eq!(units[5].state, State::ReadOnly);
        let stats = file.stats();
        assert_eq!(
            (stats.units, stats.translated, stats.plural_units),
            (8, 7, 1)
        );
        assert_eq!(file.to_bytes().unwrap(), SAMPLE.as_bytes());
    }

    #[test]
    fn edits_touch_only_element_text() {
        let mut file = parse();
        file.set_translation(2, &["Ať je \"to\"\n& <ok>".into()], false)
            .unwrap();
        file.set_translation(3, &["<i>x</i> it's\\n".into()], false)
            .unwrap();
        file.set_translation(4, &["@now".into()], false).unwrap();
        file.set_translation(7, &["%d soubor".into(), "%d souborů".into()], false)
            .unwrap();
        let written = String::from_utf8(file.to_bytes().unwrap()).unwrap();
        let expected = SAMPLE
            .replace(
                r#"It\'s a \"test\"\nnext &amp; last"#,
                r#"Ať je \"to\"\n&amp; &lt;ok&gt;"#,
            )
            .replace("<![CDATA[<b>bold</b>]]>", r"<![CDATA[<i>x</i> it\'s\\n]]>")
            .replace(
                r#"<string name="empty"/>"#,
                r#"<string name="empty">\@now</string>"#,
            )
            .replace(">%d file<", ">%d soubor<")
            .replace(">%d files<", ">%d souborů<");
        assert_eq!(written, expected);
        let again = super::parse("strings.xml", written.as_bytes())
            .unwrap()
            .units();
        assert_eq!(again[2].target, vec!["Ať je \"to\"\n& <ok>"]);
        assert_eq!(
            again[3].target,
            vec!["<i>x</i> it's\\n"],
            "Android escapes in CDATA"
        );
        assert_eq!(again[4].target, vec!["@now"]);
        assert!(file.set_translation(7, &["x".into()], false).is_err());
        assert!(file.set_translation(0, &["x".into()], true).is_err());
    }

    #[test]
    fn broken_files_name_the_line_and_damage_never_panics() {
        let err = super::parse(
            "s.xml",
            b"<resources>\n<string name=\"a\">x</strin>\n</resources>",
        )
        .unwrap_err();
        assert_eq!(err.line, 2, "{err}");
        assert!(super::parse("s.xml", b"<other/>").is_err());
        let mut state: u64 = 5;
        let bytes = SAMPLE.as_bytes();
        for _ in 0..3_000 {
            let mut damaged = bytes.to_vec();
            for _ in 0..3 {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                let at = (state >> 33) as usize % damaged.len();
                damaged[at] = b"<>/\"'&;![]= x"[(state >> 13) as usize % 13];
            }
            if let Ok(mut file) = super::parse("s.xml", &damaged) {
                assert_eq!(file.to_bytes().unwrap(), damaged);
                if let Some(unit) = file.units().first() {
                    let forms = vec!["v".to_owned(); unit.target.len()];
                    file.set_translation(0, &forms, false).unwrap();
                }
            }
        }
    }
}
