//! Reading XLIFF documents into entries with the spans edits need.

use std::ops::Range;

use quick_xml::events::{BytesStart, Event};

use super::entry::{Entry, Target, Version};
use crate::error::FormatError;
use crate::xml::{Scanner, attribute};

/// What a document holds: its entries, the ranges of entries that form
/// one plural unit (1.2 `x-gettext-plurals` groups of two or more), and
/// where the last element new units go into ends.
pub(super) struct Read {
    pub entries: Vec<Entry>,
    pub plurals: Vec<Range<usize>>,
    pub closer: Option<usize>,
}

/// Reads an XLIFF document of `version`.
pub(super) fn entries(name: &str, text: &str, version: Version) -> Result<Read, FormatError> {
    let mut xml = Scanner::new(name, text)?;
    match version {
        Version::V1 => xml.watch("body", 2),
        Version::V2 => xml.watch("file", 1),
    }
    let mut reader = Reader {
        xml,
        entries: Vec::new(),
        groups: Vec::new(),
        plurals: Vec::new(),
    };
    reader.document(version)?;
    Ok(Read {
        closer: reader.xml.watched(),
        entries: reader.entries,
        plurals: reader.plurals,
    })
}

struct Reader<'a> {
    xml: Scanner<'a>,
    entries: Vec<Entry>,
    /// The open 1.2 `<group>`s: for plural groups, their first entry.
    groups: Vec<Option<usize>>,
    plurals: Vec<Range<usize>>,
}

/// What a `<trans-unit>` or `<segment>` holds.
#[derive(Default)]
struct Parts {
    source: String,
    target: Option<(Target, String, Option<String>)>,
    notes: Vec<String>,
    locations: Vec<String>,
    /// Where `</source>` ends and where `<source>` starts.
    source_end: Option<(usize, usize)>,
}

impl Reader<'_> {
    fn document(&mut self, version: Version) -> Result<(), FormatError> {
        let mut seen_root = false;
        let mut files = 0usize;
        let mut original = String::new();
        loop {
            let before = self.xml.position();
            match self.xml.next()? {
                Event::Start(e) | Event::Empty(e) if !seen_root => {
                    if e.local_name().as_ref() != "xliff" {
                        return Err(self.xml.error(before, "the root element must be <xliff>"));
                    }
                    seen_root = true;
                }
                Event::Start(e) => match (version, e.local_name().as_ref()) {
                    (_, "file") => {
                        files += 1;
                        original = attribute(&e, "original").unwrap_or_default();
                    }
                    (Version::V1, "trans-unit") => {
                        let tag = before..self.xml.position();
                        self.trans_unit(&e, tag, files, &original)?;
                    }
                    (Version::V1, "group") => {
                        let plural =
                            attribute(&e, "restype").is_some_and(|r| r == "x-gettext-plurals");
                        self.groups.push(plural.then_some(self.entries.len()));
                    }
                    (Version::V2, "unit") => self.unit(&e, before)?,
                    _ => {}
                },
                Event::End(e) if version == Version::V1 && e.local_name().as_ref() == "group" => {
                    if let Some(Some(first)) = self.groups.pop()
                        && self.entries.len() >= first + 2
                    {
                        self.plurals.push(first..self.entries.len());
                    }
                }
                Event::Eof if seen_root => return Ok(()),
                Event::Eof => return Err(self.xml.error(before, "no <xliff> element")),
                _ => {}
            }
        }
    }

    /// An XLIFF 1.2 `<trans-unit>`.
    fn trans_unit(
        &mut self,
        start: &BytesStart<'_>,
        tag: Range<usize>,
        files: usize,
        original: &str,
    ) -> Result<(), FormatError> {
        let id = attribute(start, "id").unwrap_or_default();
        let id = if files > 1 {
            format!("{original}///{id}")
        } else {
            id
        };
        let approved = attribute(start, "approved").is_some_and(|a| a == "yes");
        let translatable = attribute(start, "translate").is_none_or(|t| t != "no");
        let parts = self.parts(&tag)?;
        let element = tag.start..self.xml.position();
        self.push(id, tag, parts, approved, translatable);
        if let Some(entry) = self.entries.last_mut() {
            entry.element = Some(element);
        }
        Ok(())
    }

    /// An XLIFF 2.0 `<unit>` whose start tag begins at `from`: one entry
    /// per `<segment>`, the unit's notes on each.
    fn unit(&mut self, start: &BytesStart<'_>, from: usize) -> Result<(), FormatError> {
        let id = attribute(start, "id").unwrap_or_default();
        let first = self.entries.len();
        let mut notes = Vec::new();
        loop {
            let before = self.xml.position();
            match self.xml.next()? {
                Event::Start(e) if e.local_name().as_ref() == "segment" => {
                    let tag = before..self.xml.position();
                    let segment = attribute(&e, "id");
                    let parts = self.parts(&tag)?;
                    let id = match segment {
                        Some(segment) => format!("{id}/{segment}"),
                        None => format!("{id}/{}", self.entries.len() - first + 1),
                    };
                    let state = attribute(&e, "state");
                    self.push(id, tag, parts, false, true);
                    if let Some(entry) = self.entries.last_mut() {
                        entry.state_attr = state;
                    }
                }
                Event::Start(e) if e.local_name().as_ref() == "notes" => {
                    notes.extend(self.notes()?);
                }
                Event::Start(_) => {
                    self.xml.content()?;
                }
                Event::End(_) => break,
                Event::Eof => return Err(self.xml.truncated()),
                _ => {}
            }
        }
        let end = self.xml.position();
        let segments = &mut self.entries[first..];
        if let [only] = segments {
            only.id = id;
            only.element = Some(from..end);
        }
        for entry in segments {
            entry.notes.splice(0..0, notes.iter().cloned());
        }
        Ok(())
    }

    /// The `<note>`s of a 2.0 `<notes>`.
    fn notes(&mut self) -> Result<Vec<String>, FormatError> {
        let mut notes = Vec::new();
        loop {
            match self.xml.next()? {
                Event::Start(e) if e.local_name().as_ref() == "note" => {
                    let note = self.xml.text_content()?;
                    if !note.trim().is_empty() {
                        notes.push(note.trim().to_owned());
                    }
                }
                Event::Start(_) => {
                    self.xml.content()?;
                }
                Event::End(_) => return Ok(notes),
                Event::Eof => return Err(self.xml.truncated()),
                _ => {}
            }
        }
    }

    fn push(
        &mut self,
        id: String,
        holder: Range<usize>,
        parts: Parts,
        approved: bool,
        translatable: bool,
    ) {
        let (slot, target, state_attr) = match (parts.target, parts.source_end) {
            (Some(found), _) => found,
            (None, Some((at, source))) => (Target::Missing { at, source }, String::new(), None),
            (None, None) => (
                Target::Missing {
                    at: holder.end,
                    source: holder.end,
                },
                String::new(),
                None,
            ),
        };
        self.entries.push(Entry {
            id,
            source: parts.source,
            target,
            slot,
            holder,
            state_attr,
            approved,
            translatable,
            notes: parts.notes,
            locations: parts.locations,
            element: None,
        });
    }

    /// The children of a `<trans-unit>` or `<segment>` up to its end tag.
    fn parts(&mut self, holder: &Range<usize>) -> Result<Parts, FormatError> {
        let mut parts = Parts::default();
        loop {
            let before = self.xml.position();
            match self.xml.next()? {
                Event::Start(e) => match e.local_name().as_ref() {
                    "source" => {
                        parts.source = self.xml.text_content()?;
                        parts.source_end = Some((self.xml.position(), before));
                    }
                    "target" => {
                        let tag = before..self.xml.position();
                        let content = self.xml.content()?;
                        let text = crate::xml::inner_text(&self.xml.text()[content.clone()]);
                        let state = attribute(&e, "state");
                        parts.target = Some((Target::Element { tag, content }, text, state));
                    }
                    "note" => {
                        let note = self.xml.text_content()?;
                        if !note.trim().is_empty() {
                            parts.notes.push(note.trim().to_owned());
                        }
                    }
                    "context-group" => {
                        let purpose = attribute(&e, "purpose");
                        let location = self.context_group()?;
                        if purpose.as_deref() == Some("location") && !location.is_empty() {
                            parts.locations.push(location);
                        }
                    }
                    _ => {
                        self.xml.content()?;
                    }
                },
                Event::Empty(e) if e.local_name().as_ref() == "target" => {
                    let tag = before..self.xml.position();
                    parts.target =
                        Some((Target::Empty { tag }, String::new(), attribute(&e, "state")));
                }
                Event::End(_) => return Ok(parts),
                Event::Eof => {
                    return Err(self.xml.error(holder.start, "the element is not closed"));
                }
                _ => {}
            }
        }
    }

    /// `file:line` from a location `<context-group>`.
    fn context_group(&mut self) -> Result<String, FormatError> {
        let (mut file, mut line) = (String::new(), String::new());
        loop {
            match self.xml.next()? {
                Event::Start(e) if e.local_name().as_ref() == "context" => {
                    let kind = attribute(&e, "context-type").unwrap_or_default();
                    let value = self.xml.text_content()?;
                    match kind.as_str() {
                        "sourcefile" => file = value,
                        "linenumber" => line = value,
                        _ => {}
                    }
                }
                Event::Start(_) => {
                    self.xml.content()?;
                }
                Event::End(_) => break,
                Event::Eof => return Err(self.xml.truncated()),
                _ => {}
            }
        }
        Ok(match (file.is_empty(), line.is_empty()) {
            (false, false) => format!("{file}:{line}"),
            _ => file,
        })
    }
}
