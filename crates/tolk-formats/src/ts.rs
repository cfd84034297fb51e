//! Qt Linguist files (`ts`): `<message>`s grouped in `<context>`s, with
//! plural (`numerus`) forms, locations, comments and the `unfinished`,
//! `vanished` and `obsolete` translation types.
//!
//! A unit's context is the `<context>`'s name, followed by `|` and the
//! message's disambiguating `<comment>` when it has one. Vanished and
//! obsolete messages are kept in the file and counted, but are not units.
//! An edit rewrites the `<translation>` element's type and text only.

use std::ops::Range;

use quick_xml::events::Event;

use crate::edits::{SpanEdits, insert_child, line_at, removal_span, utf8};
use crate::error::{FormatError, ensure_new, same_forms, unit_at};
use crate::translation_file::TranslationFile;
use crate::unit::{State, Unit};
use crate::xml::{self, Scanner, Slot, attribute};

/// One `<message>`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Message {
    context: String,
    source: String,
    /// The whole `<message>` element.
    element: Range<usize>,
    /// The `<translation>` start tag, or the whole tag when it is empty.
    tag: Range<usize>,
    /// `<translation …/>`: nothing inside yet.
    empty: bool,
    /// The text slot, or one per `<numerusform>` for plurals.
    slots: Vec<Slot>,
    values: Vec<String>,
    plural: bool,
    unfinished: bool,
    developer_notes: Vec<String>,
    translator_notes: Vec<String>,
    locations: Vec<String>,
}

/// A parsed `.ts` file.
#[derive(Debug, Clone)]
pub struct TsFile {
    name: String,
    text: String,
    messages: Vec<Message>,
    obsolete: usize,
    /// Where `</TS>` starts.
    closer: Option<usize>,
    edits: SpanEdits,
}

/// A `<translation>` as read.
struct Translation {
    tag: Range<usize>,
    empty: bool,
    slots: Vec<Slot>,
    kind: Option<String>,
}

/// What the children of a `<message>` hold.
#[derive(Default)]
struct Parts {
    source: String,
    comment: Option<String>,
    translation: Option<Translation>,
    developer_notes: Vec<String>,
    translator_notes: Vec<String>,
    locations: Vec<String>,
}

impl TsFile {
    /// Parses a `.ts` file; `name` is used in error messages.
    pub fn parse(name: &str, bytes: &[u8]) -> Result<TsFile, FormatError> {
        let text = utf8(name, bytes)?;
        let mut scanner = Scanner::new(name, text)?;
        scanner.watch("TS", 0);
        let mut messages = Vec::new();
        let mut obsolete = 0;
        let mut context = String::new();
        let mut seen_root = false;
        loop {
            let before = scanner.position();
            match scanner.next()? {
                Event::Start(e) | Event::Empty(e) if !seen_root => {
                    if e.local_name().as_ref() != "TS" {
                        return Err(scanner.error(before, "the root element must be <TS>"));
                    }
                    seen_root = true;
                }
                Event::Start(e) => match e.local_name().as_ref() {
                    "context" => context.clear(),
                    "name" => context = scanner.text_content()?,
                    "message" => {
                        let plural = attribute(&e, "numerus").is_some_and(|n| n == "yes");
                        let parts = message_parts(&mut scanner, plural, before)?;
                        let element = before..scanner.position();
                        match message(&context, plural, element, parts, scanner.text()) {
                            Some(message) => messages.push(message),
                            None => obsolete += 1,
                        }
                    }
                    _ => {}
                },
                Event::Eof if seen_root => break,
                Event::Eof => return Err(scanner.error(before, "no <TS> element")),
                _ => {}
            }
        }
        Ok(TsFile {
            name: name.to_owned(),
            text: text.to_owned(),
            messages,
            obsolete,
            closer: scanner.watched(),
            edits: SpanEdits::default(),
        })
    }
}

/// The message, or `None` for a vanished or obsolete one.
fn message(
    context: &str,
    plural: bool,
    element: Range<usize>,
    parts: Parts,
    text: &str,
) -> Option<Message> {
    let Translation {
        tag,
        empty,
        slots,
        kind,
    } = parts.translation?;
    if matches!(kind.as_deref(), Some("vanished" | "obsolete")) {
        return None;
    }
    let values = slots.iter().map(|slot| slot.text(text)).collect();
    let mut developer_notes = parts.developer_notes;
    let context = match parts.comment {
        Some(comment) if !comment.is_empty() => {
            developer_notes.insert(0, comment.clone());
            format!("{context}|{comment}")
        }
        _ => context.to_owned(),
    };
    Some(Message {
        context,
        source: parts.source,
        element,
        tag,
        empty,
        slots,
        values,
        plural,
        unfinished: kind.as_deref() == Some("unfinished"),
        developer_notes,
        translator_notes: parts.translator_notes,
        locations: parts.locations,
    })
}

/// Reads the children of a `<message>` started at `start`.
fn message_parts(
    scanner: &mut Scanner<'_>,
    plural: bool,
    start: usize,
) -> Result<Parts, FormatError> {
    let mut parts = Parts::default();
    loop {
        let before = scanner.position();
        match scanner.next()? {
            Event::Start(e) => match e.local_name().as_ref() {
                "source" => parts.source = scanner.text_content()?,
                "comment" => parts.comment = Some(scanner.text_content()?),
                "extracomment" => parts.developer_notes.push(scanner.text_content()?),
                "translatorcomment" => parts.translator_notes.push(scanner.text_content()?),
                "translation" => {
                    let tag = before..scanner.position();
                    let kind = attribute(&e, "type");
                    let slots = if plural {
                        numerus_forms(scanner)?
                    } else {
                        vec![Slot::Inner(scanner.content()?)]
                    };
                    parts.translation = Some(Translation {
                        tag,
                        empty: false,
                        slots,
                        kind,
                    });
                }
                _ => {
                    scanner.content()?;
                }
            },
            Event::Empty(e) => match e.local_name().as_ref() {
                "location" => {
                    let file = attribute(&e, "filename").unwrap_or_default();
                    parts.locations.push(match attribute(&e, "line") {
                        Some(line) => format!("{file}:{line}"),
                        None => file,
                    });
                }
                "translation" => {
                    let tag = before..scanner.position();
                    parts.translation = Some(Translation {
                        tag,
                        empty: true,
                        slots: Vec::new(),
                        kind: attribute(&e, "type"),
                    });
                }
                _ => {}
            },
            Event::End(_) => return Ok(parts),
            Event::Eof => return Err(scanner.error(start, "<message> is not closed")),
            _ => {}
        }
    }
}

/// The `<numerusform>` slots of a plural `<translation>`.
fn numerus_forms(scanner: &mut Scanner<'_>) -> Result<Vec<Slot>, FormatError> {
    let mut slots = Vec::new();
    loop {
        let before = scanner.position();
        match scanner.next()? {
            Event::Start(e) if e.local_name().as_ref() == "numerusform" => {
                slots.push(Slot::Inner(scanner.content()?));
            }
            Event::Empty(e) if e.local_name().as_ref() == "numerusform" => {
                slots.push(Slot::Empty(before..scanner.position()));
            }
            Event::Start(_) => {
                scanner.content()?;
            }
            Event::End(_) => return Ok(slots),
            Event::Eof => return Err(scanner.truncated()),
            _ => {}
        }
    }
}

/// Text as lupdate writes it: the five XML entities escaped.
fn escape(value: &str) -> String {
    xml::escape(value, &[])
        .replace('\'', "&apos;")
        .replace('"', "&quot;")
}

impl TranslationFile for TsFile {
    fn units(&self) -> Vec<Unit> {
        self.messages
            .iter()
            .map(|m| {
                let translated = m.values.iter().any(|v| !v.is_empty());
                let mut target = m.values.clone();
                if target.is_empty() {
                    target.push(String::new());
                }
                let source = vec![m.source.clone(); if m.plural { 2 } else { 1 }];
                Unit {
                    state: State::from_marks(translated, m.unfinished),
                    developer_notes: m.developer_notes.clone(),
                    translator_notes: m.translator_notes.clone(),
                    locations: m.locations.clone(),
                    ..Unit::new(m.context.clone(), source, target)
                }
            })
            .collect()
    }

    fn obsolete_count(&self) -> usize {
        self.obsolete
    }

    fn set_translation(
        &mut self,
        index: usize,
        target: &[String],
        fuzzy: bool,
    ) -> Result<(), FormatError> {
        crate::xml::storable(&self.name, 0, target)?;
        let message = unit_at(&mut self.messages, index, &self.name)?;
        let line = line_at(self.text.as_bytes(), message.tag.start);
        let forms = if message.empty && message.plural {
            target.len()
        } else {
            message.slots.len().max(1)
        };
        same_forms(&self.name, line, target.len(), forms)?;
        let old = &self.text[message.tag.clone()];
        let open = xml::trim_space_end(old.trim_end_matches("/>").trim_end_matches('>'));
        let open = format!("{open}>");
        let start = if fuzzy {
            xml::set_attribute(&open, "type", "unfinished")
        } else {
            xml::remove_attribute(&open, "type")
        };
        if message.empty {
            let body: String = if message.plural {
                target
                    .iter()
                    .map(|v| format!("<numerusform>{}</numerusform>", escape(v)))
                    .collect()
            } else {
                escape(&target[0])
            };
            self.edits.replace(
                message.tag.clone(),
                format!("{start}{body}</{}>", xml::tag_name(&start)),
            );
        } else {
            self.edits.replace(message.tag.clone(), start);
            for (slot, value) in message.slots.iter().zip(target) {
                let (span, text) = slot.replacement(&self.text, value, escape, str::to_owned);
                self.edits.replace(span, text);
            }
        }
        message.values = target.to_vec();
        message.unfinished = fuzzy;
        Ok(())
    }

    fn add_unit(&mut self, unit: &Unit) -> Result<(), FormatError> {
        crate::xml::storable_unit(&self.name, unit)?;
        ensure_new(&self.name, &self.units(), unit, false)?;
        let text = insert_child(&self.name, &self.text, &self.edits, self.closer, |indent| {
            let (context, _) = split_context(unit);
            let mut out = format!(
                "{indent}<context>\n{indent}    <name>{}</name>\n",
                escape(context)
            );
            out.push_str(&message_element(&format!("{indent}    "), unit));
            out.push_str(&format!("{indent}</context>\n"));
            out
        })?;
        *self = TsFile::parse(&self.name, text.as_bytes())?;
        Ok(())
    }

    fn remove_unit(&mut self, index: usize) -> Result<(), FormatError> {
        let element = unit_at(&mut self.messages, index, &self.name)?
            .element
            .clone();
        let mut next = self.clone();
        next.edits
            .replace(removal_span(&self.text, element), String::new());
        *self = TsFile::parse(&self.name, &next.to_bytes()?)?;
        Ok(())
    }

    fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        Ok(self.edits.apply(&self.text).into_bytes())
    }
}

/// The context name and disambiguating comment a unit's context holds.
fn split_context(unit: &Unit) -> (&str, Option<&str>) {
    match unit.context.split_once('|') {
        Some((context, comment)) => (context, Some(comment)),
        None => (unit.context.as_str(), None),
    }
}

/// A `<message>` element for `unit` at `indent`.
fn message_element(indent: &str, unit: &Unit) -> String {
    let numerus = if unit.has_plurals() {
        " numerus=\"yes\""
    } else {
        ""
    };
    let mut out = format!("{indent}<message{numerus}>\n");
    for location in &unit.locations {
        let (file, line) = location.rsplit_once(':').unwrap_or((location, ""));
        let line = if line.is_empty() {
            String::new()
        } else {
            format!(" line=\"{}\"", escape(line))
        };
        out.push_str(&format!(
            "{indent}    <location filename=\"{}\"{line}/>\n",
            escape(file)
        ));
    }
    let source = unit.source.first().map_or("", String::as_str);
    out.push_str(&format!(
        "{indent}    <source>{}</source>\n",
        escape(source)
    ));
    if let (_, Some(comment)) = split_context(unit) {
        out.push_str(&format!(
            "{indent}    <comment>{}</comment>\n",
            escape(comment)
        ));
    }
    for note in &unit.developer_notes {
        out.push_str(&format!(
            "{indent}    <extracomment>{}</extracomment>\n",
            escape(note)
        ));
    }
    let translated = unit.target.iter().any(|t| !t.is_empty());
    let kind = if unit.state == State::Fuzzy || !translated {
        " type=\"unfinished\""
    } else {
        ""
    };
    let body: String = if unit.has_plurals() {
        unit.target
            .iter()
            .map(|t| format!("<numerusform>{}</numerusform>", escape(t)))
            .collect()
    } else {
        escape(unit.target.first().map_or("", String::as_str))
    };
    out.push_str(&format!(
        "{indent}    <translation{kind}>{body}</translation>\n{indent}</message>\n"
    ));
    out
}

/// A new `.ts` file for `language` holding `units`, grouped by context in
/// the order contexts first appear.
pub fn write_new(language: &str, units: &[Unit]) -> String {
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE TS>\n<TS version=\"2.1\" language=\"{}\">\n",
        xml::escape_attribute(language)
    );
    let mut contexts: Vec<&str> = Vec::new();
    for unit in units {
        let (context, _) = split_context(unit);
        if !contexts.contains(&context) {
            contexts.push(context);
        }
    }
    for context in contexts {
        out.push_str(&format!(
            "<context>\n    <name>{}</name>\n",
            escape(context)
        ));
        for unit in units.iter().filter(|u| split_context(u).0 == context) {
            out.push_str(&message_element("    ", unit));
        }
        out.push_str("</context>\n");
    }
    out.push_str("</TS>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="cs">
<context>
    <name>Main</name>
    <message>
        <location filename="../main.cpp" line="12"/>
        <source>Open &apos;%1&apos;</source>
        <translation>Otevřít &apos;%1&apos;</translation>
    </message>
    <message>
        <source>Close</source>
        <comment>verb</comment>
        <translation type="unfinished">Zavřít</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation type="unfinished"><numerusform></numerusform><numerusform></numerusform><numerusform></numerusform></translation>
    </message>
    <message>
        <source>Quit</source>
        <translation type="unfinished"/>
    </message>
    <message>
        <source>Gone</source>
        <translation type="vanished">Pryč</translation>
    </message>
</context>
</TS>
"#;

    #[test]
    fn reads_messages_states_and_plurals() {
        let file = TsFile::parse("cs.ts", SAMPLE.as_bytes()).unwrap();
        let units = file.units();
        let shape: Vec<(&str, &str, usize, State)> = units
            .iter()
            .map(|u| {
                (
                    u.context.as_str(),
                    u.source[0].as_str(),
                    u.target.len(),
                    u.state,
                )
            })
            .collect();
        assert_eq!(
            shape,
            vec![
                ("Main", "Open '%1'", 1, State::Translated),
                ("Main|verb", "Close", 1, State::Fuzzy),
                ("Main", "%n file(s)", 3, State::Untranslated),
                ("Main", "Quit", 1, State::Untranslated),
            ]
        );
        assert_eq!(units[0].locations, vec!["../main.cpp:12"]);
        assert_eq!(file.stats().obsolete, 1);
        assert_eq!(file.to_bytes().unwrap(), SAMPLE.as_bytes());
    }

    #[test]
    fn edits_rewrite_the_translation_only() {
        let mut file = TsFile::parse("cs.ts", SAMPLE.as_bytes()).unwrap();
        file.set_translation(1, &["Zavři \"to\"".into()], false)
            .unwrap();
        file.set_translation(
            2,
            &["%n soubor".into(), "%n soubory".into(), "%n souborů".into()],
            true,
        )
        .unwrap();
        file.set_translation(3, &["Konec".into()], false).unwrap();
        let written = String::from_utf8(file.to_bytes().unwrap()).unwrap();
        assert_eq!(
            written,
            SAMPLE
                .replace(
                    "<translation type=\"unfinished\">Zavřít</translation>",
                    "<translation>Zavři &quot;to&quot;</translation>"
                )
                .replace(
                    "<numerusform></numerusform><numerusform></numerusform><numerusform></numerusform>",
                    "<numerusform>%n soubor</numerusform><numerusform>%n soubory</numerusform><numerusform>%n souborů</numerusform>"
                )
                .replace(
                    "<translation type=\"unfinished\"/>",
                    "<translation>Konec</translation>"
                )
        );
        assert_eq!(
            TsFile::parse("cs.ts", written.as_bytes()).unwrap().units(),
            file.units()
        );
        assert!(file.set_translation(2, &["x".into()], false).is_err());
        assert!(TsFile::parse("cs.ts", b"<TS><context><message>").is_err());
    }

    #[test]
    fn removing_a_message_removes_its_lines_and_keeps_edits() {
        let mut file = TsFile::parse("cs.ts", SAMPLE.as_bytes()).unwrap();
        file.set_translation(3, &["Konec".into()], false).unwrap();
        file.remove_unit(1).unwrap();
        let written = String::from_utf8(file.to_bytes().unwrap()).unwrap();
        let close = "    <message>\n        <source>Close</source>\n        <comment>verb</comment>\n        \
                     <translation type=\"unfinished\">Zavřít</translation>\n    </message>\n";
        assert!(SAMPLE.contains(close));
        assert_eq!(
            written,
            SAMPLE.replace(close, "").replace(
                "<translation type=\"unfinished\"/>",
                "<translation>Konec</translation>"
            )
        );
        let sources: Vec<String> = file
            .units()
            .into_iter()
            .map(|u| u.source[0].clone())
            .collect();
        assert_eq!(sources, vec!["Open '%1'", "%n file(s)", "Quit"]);
        assert!(file.remove_unit(3).is_err(), "no fourth message left");
    }
}
