//! XLIFF 1.2 (`xliff`, `plainxliff`) and XLIFF 2.0 (`xliff2`): one unit per
//! `<trans-unit>` (1.2; a `x-gettext-plurals` group of them is one plural
//! unit) or per `<segment>` (2.0), with notes, source locations and the
//! translation state kept in the file's attributes.
//!
//! Inline markup (`<x id="1"/>`, `<pc>…</pc>`) stays in the text as written,
//! and a translation may carry it back. An edit rewrites the `<target>`
//! element (adding one after `<source>` when missing) and the one state
//! attribute; the rest of the file stays byte for byte as read.

mod entry;
mod read;
mod write;

use std::ops::Range;

pub use entry::Version;
pub use write::write_new;

use entry::{Entry, Target, V1_FUZZY};

use crate::edits::{SpanEdits, insert_child, line_at, removal_span, utf8};
use crate::error::{FormatError, ensure_new, same_forms, unit_at};
use crate::translation_file::TranslationFile;
use crate::unit::{State, Unit};
use crate::xml;

/// A parsed XLIFF file.
#[derive(Debug, Clone)]
pub struct XliffFile {
    name: String,
    text: String,
    version: Version,
    entries: Vec<Entry>,
    /// The entries of each unit: one, or the forms of a plural group.
    units: Vec<Range<usize>>,
    /// Where the last `</body>` (1.2) or `</file>` (2.0) starts.
    closer: Option<usize>,
    edits: SpanEdits,
}

impl XliffFile {
    /// Parses an XLIFF document of the given version.
    pub fn parse(name: &str, bytes: &[u8], version: Version) -> Result<XliffFile, FormatError> {
        let text = utf8(name, bytes)?;
        let read = read::entries(name, text, version)?;
        Ok(XliffFile {
            name: name.to_owned(),
            text: text.to_owned(),
            version,
            units: group_units(read.entries.len(), read.plurals),
            entries: read.entries,
            closer: read.closer,
            edits: SpanEdits::default(),
        })
    }

    /// The start tag of `<target>` for a new translation state.
    fn target_tag(&self, entry: &Entry, fuzzy: bool) -> String {
        let old = match &entry.slot {
            Target::Element { tag, .. } | Target::Empty { tag } => {
                let tag = &self.text[tag.clone()];
                tag.strip_suffix("/>").map_or_else(
                    || tag.to_owned(),
                    |t| format!("{}>", xml::trim_space_end(t)),
                )
            }
            Target::Missing { .. } => "<target>".to_owned(),
        };
        match (self.version, fuzzy) {
            (Version::V1, true) => xml::set_attribute(&old, "state", V1_FUZZY),
            (Version::V1, false) if entry.state_attr.is_some() => {
                xml::set_attribute(&old, "state", "translated")
            }
            _ => old,
        }
    }

    /// The new start tag of the element holding the state, when it changes.
    fn holder_tag(&self, entry: &Entry, fuzzy: bool) -> Option<String> {
        let tag = &self.text[entry.holder.clone()];
        match (self.version, fuzzy) {
            (Version::V1, true) if entry.approved => {
                Some(xml::set_attribute(tag, "approved", "no"))
            }
            (Version::V2, true) => Some(xml::set_attribute(tag, "state", "initial")),
            (Version::V2, false) if entry.state_attr.is_some() => {
                Some(xml::set_attribute(tag, "state", "translated"))
            }
            _ => None,
        }
    }
}

/// Splits `count` entries into units: each plural range (sorted here;
/// one overlapping an earlier one is ignored) is one unit, every other
/// entry a unit of its own.
fn group_units(count: usize, mut plurals: Vec<Range<usize>>) -> Vec<Range<usize>> {
    plurals.sort_by_key(|range| range.start);
    let mut plurals = plurals.into_iter().peekable();
    let mut units = Vec::with_capacity(count);
    let mut at = 0;
    while at < count {
        while plurals.next_if(|range| range.start < at).is_some() {}
        let end = plurals
            .next_if(|range| range.start == at)
            .map_or(at + 1, |r| r.end);
        units.push(at..end);
        at = end;
    }
    units
}

/// The unit of `entries`: one entry, or the forms of a plural group, whose
/// first two sources are the singular and plural source strings and whose
/// id is the first form's without its `[0]`.
fn unit_of(entries: &[Entry], version: Version) -> Unit {
    let first = &entries[0];
    let states: Vec<State> = entries.iter().map(|e| e.state(version)).collect();
    let state = if states.contains(&State::ReadOnly) {
        State::ReadOnly
    } else if states.contains(&State::Untranslated) {
        State::Untranslated
    } else if states.contains(&State::Fuzzy) {
        State::Fuzzy
    } else if states.iter().all(|s| *s == State::Approved) {
        State::Approved
    } else {
        State::Translated
    };
    let (id, source) = match entries.get(1) {
        None => (first.id.clone(), vec![first.source.clone()]),
        Some(second) => (
            first.id.strip_suffix("[0]").unwrap_or(&first.id).to_owned(),
            vec![first.source.clone(), second.source.clone()],
        ),
    };
    Unit {
        state,
        developer_notes: first.notes.clone(),
        locations: first.locations.clone(),
        flags: if first.translatable {
            Vec::new()
        } else {
            vec!["read-only".to_owned()]
        },
        ..Unit::new(
            id,
            source,
            entries.iter().map(|e| e.target.clone()).collect(),
        )
    }
}

impl TranslationFile for XliffFile {
    fn units(&self) -> Vec<Unit> {
        self.units
            .iter()
            .map(|range| unit_of(&self.entries[range.clone()], self.version))
            .collect()
    }

    fn set_translation(
        &mut self,
        index: usize,
        target: &[String],
        fuzzy: bool,
    ) -> Result<(), FormatError> {
        crate::xml::storable(&self.name, 0, target)?;
        let range = unit_at(&mut self.units, index, &self.name)?.clone();
        let line = line_at(self.text.as_bytes(), self.entries[range.start].holder.start);
        same_forms(&self.name, line, target.len(), range.len())?;
        for (entry, value) in range.zip(target) {
            self.set_entry(entry, value, fuzzy);
        }
        Ok(())
    }

    fn add_unit(&mut self, unit: &Unit) -> Result<(), FormatError> {
        crate::xml::storable_unit(&self.name, unit)?;
        ensure_new(&self.name, &self.units(), unit, true)?;
        let id = write::unit_id(unit, self.units.len());
        let text = insert_child(&self.name, &self.text, &self.edits, self.closer, |indent| {
            write::element(self.version, indent, &id, unit)
        })?;
        *self = XliffFile::parse(&self.name, text.as_bytes(), self.version)?;
        Ok(())
    }

    fn remove_unit(&mut self, index: usize) -> Result<(), FormatError> {
        let range = unit_at(&mut self.units, index, &self.name)?.clone();
        let entry = &self.entries[range.start];
        let element = entry.element.clone().filter(|_| range.len() == 1);
        let Some(element) = element else {
            return Err(FormatError::new(
                &self.name,
                line_at(self.text.as_bytes(), entry.holder.start),
                "a plural group or a segment of a unit of several cannot be removed alone",
            ));
        };
        let mut next = self.clone();
        next.edits
            .replace(removal_span(&self.text, element), String::new());
        *self = XliffFile::parse(&self.name, &next.to_bytes()?, self.version)?;
        Ok(())
    }

    fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        Ok(self.edits.apply(&self.text).into_bytes())
    }
}

impl XliffFile {
    /// Writes `value` into entry `index` and its state.
    fn set_entry(&mut self, index: usize, value: &str, fuzzy: bool) {
        let entry = self.entries[index].clone();
        let start = self.target_tag(&entry, fuzzy);
        let end = format!("</{}>", xml::tag_name(&start));
        let body = match &entry.slot {
            Target::Element { content, .. } if xml::is_cdata(&self.text[content.clone()]) => {
                xml::cdata(value)
            }
            _ => xml::escape(value, self.version.inline()),
        };
        match &entry.slot {
            Target::Element { tag, content } => {
                self.edits.replace(tag.clone(), start);
                self.edits.replace(content.clone(), body);
            }
            Target::Empty { tag } => self
                .edits
                .replace(tag.clone(), format!("{start}{body}{end}")),
            Target::Missing { at, source } => {
                let indent = indent_before(&self.text, *source);
                self.edits
                    .replace(*at..*at, format!("\n{indent}{start}{body}{end}"));
            }
        }
        if let Some(holder) = self.holder_tag(&entry, fuzzy) {
            self.edits.replace(entry.holder.clone(), holder);
        }
        let updated = &mut self.entries[index];
        updated.target = value.to_owned();
        updated.approved &= !fuzzy;
        updated.state_attr = match (self.version, fuzzy) {
            (Version::V1, true) => Some(V1_FUZZY.to_owned()),
            (Version::V2, true) => Some("initial".to_owned()),
            (_, false) => entry.state_attr.map(|_| "translated".to_owned()),
        };
    }
}

/// The white space before `offset` when it starts its line, else nothing.
fn indent_before(text: &str, offset: usize) -> &str {
    let line_start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
    let lead = &text[line_start..offset];
    if lead.chars().all(char::is_whitespace) {
        lead
    } else {
        ""
    }
}

#[cfg(test)]
mod tests;
