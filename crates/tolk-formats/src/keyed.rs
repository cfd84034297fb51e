//! Monolingual XML files whose units are elements named by a key (Android
//! resources, RESX, stringsdict): the entries a dialect's reader found and
//! the edits that rewrite only their element text.

use std::ops::Range;

use crate::edits::{SpanEdits, insert_child, line_at, removal_span};
use crate::error::{FormatError, cannot_add, ensure_new, stateless_forms, unit_at};
use crate::translation_file::TranslationFile;
use crate::unit::{State, Unit};
use crate::xml::Slot;

/// One keyed value: one slot for a string, one per form for plurals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeyedEntry {
    pub key: String,
    pub slots: Vec<Slot>,
    pub values: Vec<String>,
    pub plural: bool,
    pub translatable: bool,
    pub note: Option<String>,
    /// The whole element, when the string can be removed by removing it.
    pub element: Option<Range<usize>>,
}

/// Writes the element of a new unit at an indentation, or says why not.
pub(crate) type NewUnit = fn(&Unit, &str) -> Result<String, String>;

/// What distinguishes one keyed XML format from another.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dialect {
    /// The format's name in messages.
    pub kind: &'static str,
    /// How a value is written as element text.
    pub escape: fn(&str) -> String,
    /// How a value is written inside a CDATA section: the format's own
    /// escapes, without XML's.
    pub raw: fn(&str) -> String,
    /// Reads a file of this dialect.
    pub parse: fn(&str, &[u8]) -> Result<KeyedXmlFile, FormatError>,
    /// The lines of a new unit at an indentation; `None` when the format
    /// cannot take new units.
    pub new_unit: Option<NewUnit>,
}

/// A parsed keyed XML file.
#[derive(Debug, Clone)]
pub struct KeyedXmlFile {
    name: String,
    text: String,
    dialect: Dialect,
    entries: Vec<KeyedEntry>,
    /// Where the root's end tag starts; new units go before it.
    closer: Option<usize>,
    edits: SpanEdits,
}

impl KeyedXmlFile {
    /// A file of `dialect` named `name` with its original `text` whose
    /// root ends at `closer`.
    pub(crate) fn new(
        name: &str,
        text: &str,
        dialect: Dialect,
        entries: Vec<KeyedEntry>,
        closer: Option<usize>,
    ) -> Self {
        KeyedXmlFile {
            name: name.to_owned(),
            text: text.to_owned(),
            dialect,
            entries,
            closer,
            edits: SpanEdits::default(),
        }
    }
}

impl TranslationFile for KeyedXmlFile {
    fn units(&self) -> Vec<Unit> {
        self.entries
            .iter()
            .map(|e| {
                let notes = e.note.iter().cloned().collect();
                let mut unit = if e.plural {
                    Unit::keyed_plural(&e.key, e.values.clone(), notes)
                } else {
                    Unit::keyed(&e.key, e.values.first().map_or("", String::as_str), notes)
                };
                if !e.translatable {
                    unit.state = State::ReadOnly;
                    unit.flags.push("read-only".into());
                }
                unit
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
        let line = entry
            .slots
            .first()
            .map_or(0, |slot| line_at(self.text.as_bytes(), slot.start()));
        stateless_forms(
            &self.name,
            line,
            self.dialect.kind,
            fuzzy,
            target.len(),
            entry.slots.len(),
        )?;
        for (slot, value) in entry.slots.iter().zip(target) {
            let (span, replacement) =
                slot.replacement(&self.text, value, self.dialect.escape, self.dialect.raw);
            self.edits.replace(span, replacement);
        }
        entry.values = target.to_vec();
        Ok(())
    }

    fn remove_unit(&mut self, index: usize) -> Result<(), FormatError> {
        let entry = unit_at(&mut self.entries, index, &self.name)?;
        let Some(element) = entry.element.clone() else {
            return Err(FormatError::new(
                &self.name,
                line_at(
                    self.text.as_bytes(),
                    entry.slots.first().map_or(0, Slot::start),
                ),
                format!(
                    "this string shares its entry with others and cannot be removed alone from {} files",
                    self.dialect.kind
                ),
            ));
        };
        let mut next = self.clone();
        next.edits
            .replace(removal_span(&self.text, element), String::new());
        *self = (self.dialect.parse)(&self.name, &next.to_bytes()?)?;
        Ok(())
    }

    fn add_unit(&mut self, unit: &Unit) -> Result<(), FormatError> {
        crate::xml::storable_unit(&self.name, unit)?;
        ensure_new(&self.name, &self.units(), unit, true)?;
        let kind = self.dialect.kind;
        let lines = self
            .dialect
            .new_unit
            .ok_or_else(|| cannot_add(&self.name, &format!("strings to {kind} files")))?;
        if unit.context.is_empty() {
            return Err(cannot_add(&self.name, "a string without a key"));
        }
        let mut failure = None;
        let text = insert_child(&self.name, &self.text, &self.edits, self.closer, |indent| {
            lines(unit, indent).unwrap_or_else(|e| {
                failure = Some(e);
                String::new()
            })
        })?;
        if let Some(message) = failure {
            return Err(cannot_add(&self.name, &message));
        }
        *self = (self.dialect.parse)(&self.name, text.as_bytes())?;
        Ok(())
    }

    fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        Ok(self.edits.apply(&self.text).into_bytes())
    }
}
