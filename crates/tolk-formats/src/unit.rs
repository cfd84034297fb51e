//! The format-independent view of one translatable string.

/// How far a string's translation has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum State {
    /// No translation.
    Untranslated,
    /// Translated but needs editing (gettext's `fuzzy`).
    Fuzzy,
    /// Translated.
    Translated,
    /// Translated and reviewed.
    Approved,
    /// Not to be translated.
    ReadOnly,
}

impl State {
    /// The state of a string with or without text, marked as needing
    /// editing or not: a mark on an empty string means nothing.
    pub fn from_marks(has_text: bool, needs_editing: bool) -> State {
        match (has_text, needs_editing) {
            (false, _) => State::Untranslated,
            (true, true) => State::Fuzzy,
            (true, false) => State::Translated,
        }
    }
}

/// One translatable string of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// Disambiguating context (gettext `msgctxt`, or the key of monolingual formats).
    pub context: String,
    /// Source text; several forms for plurals.
    pub source: Vec<String>,
    /// Translation; several forms for plurals; empty strings when untranslated.
    pub target: Vec<String>,
    /// Translation state.
    pub state: State,
    /// Comments for translators from the developers (gettext `#.`).
    pub developer_notes: Vec<String>,
    /// Comments of translators (gettext `# `).
    pub translator_notes: Vec<String>,
    /// Source code locations (gettext `#:`).
    pub locations: Vec<String>,
    /// Flags such as `c-format` (gettext `#,`, without `fuzzy`).
    pub flags: Vec<String>,
    /// The source text before the last change upstream (gettext `#|`).
    pub previous_source: Option<String>,
}

impl Unit {
    /// A unit without notes, locations or flags; translated when any form
    /// of the target has text.
    pub fn new(context: String, source: Vec<String>, target: Vec<String>) -> Unit {
        Unit {
            context,
            source,
            state: if target.iter().any(|t| !t.is_empty()) {
                State::Translated
            } else {
                State::Untranslated
            },
            target,
            developer_notes: Vec::new(),
            translator_notes: Vec::new(),
            locations: Vec::new(),
            flags: Vec::new(),
            previous_source: None,
        }
    }

    /// A unit of a monolingual file: a key with its value; translated when
    /// the value is not empty.
    pub fn keyed(key: &str, value: &str, developer_notes: Vec<String>) -> Unit {
        Unit {
            developer_notes,
            ..Unit::new(key.to_owned(), vec![key.to_owned()], vec![value.to_owned()])
        }
    }

    /// A unit of a monolingual file whose value has plural forms; the key
    /// stands for the source's singular and plural (even when the language
    /// has a single form, as for gettext's `msgid_plural`).
    pub fn keyed_plural(key: &str, values: Vec<String>, developer_notes: Vec<String>) -> Unit {
        let source = vec![key.to_owned(); values.len().max(2)];
        Unit {
            developer_notes,
            ..Unit::new(key.to_owned(), source, values)
        }
    }

    /// The key of a monolingual unit, else its (first) source text: what
    /// names the unit in messages.
    pub fn context_or_source(&self) -> &str {
        if self.context.is_empty() {
            self.source.first().map_or("", String::as_str)
        } else {
            &self.context
        }
    }

    /// True when the source has plural forms.
    pub fn has_plurals(&self) -> bool {
        self.source.len() > 1
    }
}

/// Each unit's key with its translation forms, for comparisons in tests.
#[cfg(test)]
pub(crate) fn keyed_targets(units: &[Unit]) -> Vec<(&str, Vec<&str>)> {
    units
        .iter()
        .map(|u| {
            (
                u.context.as_str(),
                u.target.iter().map(String::as_str).collect(),
            )
        })
        .collect()
}

/// Each unit's key with its (first) translation, for comparisons in tests.
#[cfg(test)]
pub(crate) fn keyed_values(units: &[Unit]) -> Vec<(&str, &str)> {
    units
        .iter()
        .map(|u| {
            (
                u.context.as_str(),
                u.target.first().map_or("", String::as_str),
            )
        })
        .collect()
}
