//! TermBase eXchange glossaries (`tbx`): each `<termEntry>` is a unit whose
//! source is the term of the source language's `<langSet>` (the one named
//! by the document's `xml:lang`, else the first) and whose target is the
//! term of another `<langSet>`. Definitions and notes become developer notes.
//!
//! An edit replaces the target term's text, or adds a `<langSet>` for the
//! target language after the source one.

use std::ops::Range;

use quick_xml::events::{BytesStart, Event};

use crate::edits::{SpanEdits, insert_child, line_at, utf8};
use crate::error::{FormatError, cannot_add, ensure_new, single_value, unit_at};
use crate::translation_file::TranslationFile;
use crate::unit::Unit;
use crate::xml::{self, Scanner, Slot, attribute};

/// One `<langSet>`: its language, term and where it ends.
#[derive(Debug, Clone, PartialEq, Eq)]
struct LangSet {
    lang: String,
    term: Option<Slot>,
    end: usize,
    indent: String,
}

/// One `<termEntry>`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    id: String,
    source: String,
    target: String,
    slot: TargetSlot,
    notes: Vec<String>,
}

/// Where an edit of an entry's target goes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum TargetSlot {
    /// The text of the target term.
    Term(Slot),
    /// There is no target `<langSet>`: one is added at this offset, with
    /// this indentation.
    NewLangSet(usize, String),
    /// The target `<langSet>` ending here has no `<term>` to edit.
    NoTerm(usize),
}

/// A parsed TBX file.
#[derive(Debug, Clone)]
pub struct TbxFile {
    name: String,
    text: String,
    source_language: String,
    target_language: String,
    entries: Vec<Entry>,
    /// Where the last `</body>` starts.
    closer: Option<usize>,
    edits: SpanEdits,
}

fn lang_of(start: &BytesStart<'_>) -> String {
    attribute(start, "xml:lang")
        .or_else(|| attribute(start, "lang"))
        .unwrap_or_default()
}

impl TbxFile {
    /// Parses a TBX file; `name` is used in error messages.
    pub fn parse(name: &str, bytes: &[u8]) -> Result<TbxFile, FormatError> {
        let text = utf8(name, bytes)?;
        let mut scanner = Scanner::new(name, text)?;
        scanner.watch("body", 2);
        let mut source_language = None;
        let mut raw = Vec::new();
        loop {
            let before = scanner.position();
            match scanner.next()? {
                Event::Start(e) if source_language.is_none() => {
                    let root = e.local_name();
                    if root.as_ref() != "martif" && root.as_ref() != "tbx" {
                        return Err(scanner.error(before, "the root element must be <martif>"));
                    }
                    source_language = Some(lang_of(&e));
                }
                Event::Start(e) if e.local_name().as_ref() == "termEntry" => {
                    let id = attribute(&e, "id");
                    raw.push((id, term_entry(&mut scanner, before)?));
                }
                Event::Eof if source_language.is_some() => break,
                Event::Eof => return Err(scanner.error(before, "no <martif> element")),
                _ => {}
            }
        }
        let source_language = source_language.unwrap_or_default();
        let is_source = |set: &LangSet| {
            set.lang == source_language
                || set.lang.split(['-', '_']).next() == Some(&source_language)
        };
        let target_language = raw
            .iter()
            .flat_map(|(_, entry)| entry.sets.iter())
            .find(|set| !set.lang.is_empty() && !is_source(set))
            .map_or_else(|| "und".to_owned(), |set| set.lang.clone());
        let entries = raw
            .into_iter()
            .enumerate()
            .map(|(i, (id, entry))| {
                let TermEntry { sets, notes, end } = entry;
                let source = sets
                    .iter()
                    .find(|s| is_source(s))
                    .or_else(|| sets.iter().find(|s| s.lang != target_language));
                let target = sets
                    .iter()
                    .find(|s| s.lang == target_language && Some(*s) != source);
                let term = |set: Option<&LangSet>| {
                    set.and_then(|s| s.term.as_ref())
                        .map_or_else(String::new, |slot| slot.text(text))
                };
                Entry {
                    id: id.unwrap_or_else(|| format!("{}", i + 1)),
                    source: term(source),
                    target: term(target),
                    slot: match (target, source) {
                        (Some(set), _) => match &set.term {
                            Some(slot) => TargetSlot::Term(slot.clone()),
                            None => TargetSlot::NoTerm(set.end),
                        },
                        (None, Some(set)) => TargetSlot::NewLangSet(set.end, set.indent.clone()),
                        (None, None) => TargetSlot::NewLangSet(end, String::new()),
                    },
                    notes,
                }
            })
            .collect();
        Ok(TbxFile {
            name: name.to_owned(),
            text: text.to_owned(),
            source_language,
            target_language,
            entries,
            closer: scanner.watched(),
            edits: SpanEdits::default(),
        })
    }
}

/// What a `<termEntry>` holds.
struct TermEntry {
    sets: Vec<LangSet>,
    notes: Vec<String>,
    /// Where its end tag starts.
    end: usize,
}

/// The `<langSet>`s and notes of a `<termEntry>` started at `start`.
fn term_entry(scanner: &mut Scanner<'_>, start: usize) -> Result<TermEntry, FormatError> {
    let mut sets: Vec<LangSet> = Vec::new();
    let mut notes = Vec::new();
    let mut depth = 0usize;
    loop {
        let before = scanner.position();
        match scanner.next()? {
            Event::Start(e) => match e.local_name().as_ref() {
                "langSet" => {
                    let text = scanner.text();
                    let line_start = text[..before].rfind('\n').map_or(0, |at| at + 1);
                    let lead = &text[line_start..before];
                    sets.push(LangSet {
                        lang: lang_of(&e),
                        term: None,
                        end: before,
                        indent: if lead.trim().is_empty() {
                            lead.to_owned()
                        } else {
                            String::new()
                        },
                    });
                    depth += 1;
                }
                "term" => {
                    let slot = Slot::Inner(scanner.content()?);
                    if let Some(set) = sets.last_mut().filter(|s| s.term.is_none()) {
                        set.term = Some(slot);
                    }
                }
                "descrip" | "note" | "termNote" => {
                    let kind = attribute(&e, "type");
                    let note = scanner.text_content()?;
                    if !note.trim().is_empty() && kind.as_deref() != Some("administrativeStatus") {
                        notes.push(note.trim().to_owned());
                    }
                }
                _ => depth += 1,
            },
            Event::End(_) if depth == 0 => {
                return Ok(TermEntry {
                    sets,
                    notes,
                    end: before,
                });
            }
            Event::End(e) => {
                depth -= 1;
                if e.local_name().as_ref() == "langSet"
                    && let Some(set) = sets.last_mut()
                {
                    set.end = scanner.position();
                }
            }
            Event::Eof => return Err(scanner.error(start, "<termEntry> is not closed")),
            _ => {}
        }
    }
}

fn escape(value: &str) -> String {
    xml::escape(value, &[])
}

impl TranslationFile for TbxFile {
    fn units(&self) -> Vec<Unit> {
        self.entries
            .iter()
            .map(|e| Unit {
                developer_notes: e.notes.clone(),
                ..Unit::new(e.id.clone(), vec![e.source.clone()], vec![e.target.clone()])
            })
            .collect()
    }

    fn set_translation(
        &mut self,
        index: usize,
        target: &[String],
        fuzzy: bool,
    ) -> Result<(), FormatError> {
        crate::xml::storable(&self.name, 0, target)?;
        let entry = unit_at(&mut self.entries, index, &self.name)?;
        let at = match &entry.slot {
            TargetSlot::Term(slot) => slot.start(),
            TargetSlot::NewLangSet(at, _) | TargetSlot::NoTerm(at) => *at,
        };
        let line = line_at(self.text.as_bytes(), at);
        let value = single_value(&self.name, line, "TBX", target, fuzzy)?;
        let (span, text): (Range<usize>, String) = match &entry.slot {
            TargetSlot::Term(slot) => slot.replacement(&self.text, value, escape, str::to_owned),
            TargetSlot::NoTerm(_) => {
                return Err(FormatError::new(
                    &self.name,
                    line,
                    "the target <langSet> has no <term> to write to",
                ));
            }
            TargetSlot::NewLangSet(at, indent) => (
                *at..*at,
                format!(
                    "\n{indent}<langSet xml:lang=\"{}\">\n{indent}  <tig>\n{indent}    <term>{}</term>\n{indent}  </tig>\n{indent}</langSet>",
                    xml::escape_attribute(&self.target_language),
                    escape(value)
                ),
            ),
        };
        self.edits.replace(span, text);
        entry.target = value.clone();
        Ok(())
    }

    fn add_unit(&mut self, unit: &Unit) -> Result<(), FormatError> {
        crate::xml::storable_unit(&self.name, unit)?;
        ensure_new(&self.name, &self.units(), unit, false)?;
        if unit.source.len() > 1 || unit.target.len() > 1 {
            return Err(cannot_add(&self.name, "plural terms to TBX files"));
        }
        let text = insert_child(&self.name, &self.text, &self.edits, self.closer, |indent| {
            new_term_entry(indent, &self.source_language, &self.target_language, unit)
        })?;
        *self = TbxFile::parse(&self.name, text.as_bytes())?;
        Ok(())
    }

    fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        Ok(self.edits.apply(&self.text).into_bytes())
    }
}

/// A new TBX glossary of `units` from `source_language` into `target_language`.
pub fn write_new(source_language: &str, target_language: &str, units: &[Unit]) -> String {
    let attr = xml::escape_attribute;
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE martif PUBLIC \"ISO 12200:1999A//DTD MARTIF core (DXFcdV04)//EN\" \"TBXcdv04.dtd\">\n<martif type=\"TBX\" xml:lang=\"{}\">\n  <martifHeader>\n    <fileDesc>\n      <sourceDesc>\n        <p>Tolk</p>\n      </sourceDesc>\n    </fileDesc>\n  </martifHeader>\n  <text>\n    <body>\n",
        attr(source_language)
    );
    for unit in units {
        out.push_str(&new_term_entry(
            "      ",
            source_language,
            target_language,
            unit,
        ));
    }
    out.push_str("    </body>\n  </text>\n</martif>\n");
    out
}

/// A `<termEntry>` for `unit` at `indent`.
fn new_term_entry(
    indent: &str,
    source_language: &str,
    target_language: &str,
    unit: &Unit,
) -> String {
    let mut out = if unit.context.is_empty() {
        format!("{indent}<termEntry>\n")
    } else {
        format!(
            "{indent}<termEntry id=\"{}\">\n",
            xml::escape_attribute(&unit.context)
        )
    };
    for note in &unit.developer_notes {
        out.push_str(&format!(
            "{indent}  <descrip type=\"definition\">{}</descrip>\n",
            escape(note)
        ));
    }
    let forms = [
        (source_language, unit.source.first()),
        (target_language, unit.target.first()),
    ];
    for (lang, term) in forms {
        let Some(term) = term.filter(|t| !t.is_empty()) else {
            continue;
        };
        out.push_str(&format!(
            "{indent}  <langSet xml:lang=\"{}\">\n{indent}    <tig>\n{indent}      <term>{}</term>\n{indent}    </tig>\n{indent}  </langSet>\n",
            xml::escape_attribute(lang),
            escape(term)
        ));
    }
    out.push_str(&format!("{indent}</termEntry>\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<martif type="TBX" xml:lang="en">
  <text>
    <body>
      <termEntry id="t1">
        <descrip type="definition">Where URLs go</descrip>
        <langSet xml:lang="en">
          <tig><term>address bar</term></tig>
        </langSet>
        <langSet xml:lang="cs">
          <tig><term>adresní řádek</term></tig>
        </langSet>
      </termEntry>
      <termEntry>
        <langSet xml:lang="en">
          <tig><term>tab &amp; window</term></tig>
        </langSet>
      </termEntry>
    </body>
  </text>
</martif>
"#;

    #[test]
    fn reads_terms_and_adds_missing_language_sets() {
        let mut file = TbxFile::parse("g.tbx", SAMPLE.as_bytes()).unwrap();
        let units = file.units();
        let shape: Vec<(&str, &str, &str)> = units
            .iter()
            .map(|u| {
                (
                    u.context.as_str(),
                    u.source[0].as_str(),
                    u.target[0].as_str(),
                )
            })
            .collect();
        assert_eq!(
            shape,
            vec![
                ("t1", "address bar", "adresní řádek"),
                ("2", "tab & window", "")
            ]
        );
        assert_eq!(units[0].developer_notes, vec!["Where URLs go"]);
        assert_eq!(file.to_bytes().unwrap(), SAMPLE.as_bytes());
        file.set_translation(0, &["řádek <adresy>".into()], false)
            .unwrap();
        file.set_translation(1, &["panel".into()], false).unwrap();
        let written = String::from_utf8(file.to_bytes().unwrap()).unwrap();
        let again = TbxFile::parse("g.tbx", written.as_bytes()).unwrap();
        assert_eq!(again.units(), file.units());
        assert!(written.contains("<term>řádek &lt;adresy&gt;</term>"));
        assert!(written.contains(
            "</langSet>\n        <langSet xml:lang=\"cs\">\n          <tig>\n            <term>panel</term>"
        ));
        let new = write_new("en", "cs", &again.units());
        assert_eq!(
            TbxFile::parse("n.tbx", new.as_bytes()).unwrap().units(),
            again.units()
        );
    }
}
