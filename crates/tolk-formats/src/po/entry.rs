//! One entry of a PO file as read: its lines, comments, flags, context,
//! source and translation, and the unit it stands for.

use std::ops::Range;

use crate::unit::{State, Unit};

/// One entry: comments, context, source and translation.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct Entry {
    /// Lines of the file this entry spans, trailing blank lines included.
    pub(super) lines: Range<usize>,
    pub(super) obsolete: bool,
    pub(super) translator_comments: Vec<String>,
    pub(super) extracted_comments: Vec<String>,
    pub(super) references: Vec<String>,
    pub(super) flags: Vec<String>,
    /// Index of the `#,` line.
    pub(super) flags_line: Option<usize>,
    pub(super) previous_msgid: Option<String>,
    pub(super) msgctxt: Option<String>,
    pub(super) msgid: String,
    pub(super) msgid_plural: Option<String>,
    pub(super) msgstr: Vec<String>,
    /// Lines of the `msgstr` keywords and their continuations.
    pub(super) msgstr_lines: Range<usize>,
    /// Replacement text of `lines`, once edited.
    pub(super) edited: Option<Vec<String>>,
}

impl Entry {
    pub(super) fn is_header(&self) -> bool {
        !self.obsolete && self.msgctxt.is_none() && self.msgid.is_empty()
    }

    pub(super) fn is_fuzzy(&self) -> bool {
        self.flags.iter().any(|f| f == "fuzzy")
    }

    pub(super) fn unit(&self) -> Unit {
        let mut source = vec![self.msgid.clone()];
        source.extend(self.msgid_plural.clone());
        let has_text = self.msgstr.iter().any(|s| !s.is_empty());
        let state = if self.is_fuzzy() {
            State::Fuzzy
        } else if has_text {
            State::Translated
        } else {
            State::Untranslated
        };
        Unit {
            context: self.msgctxt.clone().unwrap_or_default(),
            source,
            target: self.msgstr.clone(),
            state,
            developer_notes: self.extracted_comments.clone(),
            translator_notes: self.translator_comments.clone(),
            locations: self
                .references
                .iter()
                .flat_map(|r| r.split_whitespace().map(str::to_owned))
                .collect(),
            flags: self
                .flags
                .iter()
                .filter(|f| *f != "fuzzy")
                .cloned()
                .collect(),
            previous_source: self.previous_msgid.clone(),
        }
    }
}
