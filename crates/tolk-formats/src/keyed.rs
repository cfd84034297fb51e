//! Monolingual XML files whose units are elements named by a key (Android
//! resources, RESX, stringsdict): the entries a dialect's reader found and
//! the edits that rewrite only their element text.

use crate::edits::{SpanEdits, line_at};
use crate::error::{FormatError, same_forms, stateless, unit_at};
use crate::file::TranslationFile;
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
}

/// A parsed keyed XML file.
#[derive(Debug, Clone)]
pub struct KeyedXmlFile {
    name: String,
    text: String,
    /// The format's name in messages.
    kind: &'static str,
    /// How a value is written as element text.
    escape: fn(&str) -> String,
    entries: Vec<KeyedEntry>,
    edits: SpanEdits,
}

impl KeyedXmlFile {
    /// A file of format `kind` named `name` with its original `text`.
    pub(crate) fn new(
        name: &str,
        text: &str,
        kind: &'static str,
        escape: fn(&str) -> String,
        entries: Vec<KeyedEntry>,
    ) -> Self {
        KeyedXmlFile {
            name: name.to_owned(),
            text: text.to_owned(),
            kind,
            escape,
            entries,
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
        let entry = unit_at(&mut self.entries, index, &self.name)?;
        let line = entry
            .slots
            .first()
            .map_or(0, |slot| line_at(self.text.as_bytes(), slot.start()));
        stateless(&self.name, line, self.kind, fuzzy)?;
        same_forms(&self.name, line, target.len(), entry.slots.len())?;
        for (slot, value) in entry.slots.iter().zip(target) {
            let (span, replacement) = slot.replacement(&self.text, value, self.escape);
            self.edits.replace(span, replacement);
        }
        entry.values = target.to_vec();
        Ok(())
    }

    fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        Ok(self.edits.apply(&self.text).into_bytes())
    }
}
