//! Errors of reading and writing translation files.

use crate::unit::Unit;

/// A file could not be read or a change could not be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct FormatError {
    /// The file's name as given by the caller.
    pub file: String,
    /// 1-based line of the problem (0 when it concerns the whole file).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl FormatError {
    /// An error at `line` of `file`.
    pub fn new(file: &str, line: usize, message: impl Into<String>) -> Self {
        Self {
            file: file.to_owned(),
            line,
            message: message.into(),
        }
    }
}

/// Checks an edit of a unit with `expected` forms in a format (`kind`)
/// that has no translation state: it must give as many forms and must not
/// mark the string as needing editing.
pub(crate) fn stateless_forms(
    name: &str,
    line: usize,
    kind: &str,
    fuzzy: bool,
    given: usize,
    expected: usize,
) -> Result<(), FormatError> {
    if fuzzy {
        return Err(FormatError::new(
            name,
            line,
            format!("{kind} files cannot mark a string as needing editing"),
        ));
    }
    same_forms(name, line, given, expected)
}

/// Checks that an edit gives as many forms as the unit has.
pub(crate) fn same_forms(
    name: &str,
    line: usize,
    given: usize,
    expected: usize,
) -> Result<(), FormatError> {
    if given == expected {
        Ok(())
    } else {
        Err(FormatError::new(
            name,
            line,
            format!("{given} translation forms given, the unit has {expected}"),
        ))
    }
}

/// The one value of an edit to a file `name` whose format has neither
/// plural forms nor states (`kind` names it in messages), or why the edit
/// cannot be made.
pub(crate) fn single_value<'a>(
    name: &str,
    line: usize,
    kind: &str,
    target: &'a [String],
    fuzzy: bool,
) -> Result<&'a String, FormatError> {
    stateless_forms(name, line, kind, fuzzy, target.len(), 1)?;
    Ok(&target[0])
}

/// The item behind unit `index` of file `name`, or an error naming the index.
pub(crate) fn unit_at<'a, T>(
    items: &'a mut [T],
    index: usize,
    name: &str,
) -> Result<&'a mut T, FormatError> {
    items
        .get_mut(index)
        .ok_or_else(|| FormatError::new(name, 0, format!("no unit {index}")))
}

/// Refuses to add a unit of a kind a format cannot take (`what` says which).
pub(crate) fn cannot_add(name: &str, what: &str) -> FormatError {
    FormatError::new(name, 0, format!("cannot add {what}"))
}

/// The one value of a unit to add to a format without plurals.
pub(crate) fn single_new_value<'a>(
    name: &str,
    kind: &str,
    unit: &'a Unit,
) -> Result<&'a str, FormatError> {
    if unit.has_plurals() || unit.target.len() > 1 {
        return Err(cannot_add(name, &format!("plural strings to {kind} files")));
    }
    if unit.context.is_empty() {
        return Err(cannot_add(name, "a string without a key"));
    }
    Ok(unit.target.first().map_or("", String::as_str))
}

/// Refuses to add `unit` when `existing` has it already: a unit with the
/// same key where units are `keyed` (monolingual formats, XLIFF ids), else
/// with the same context and source.
pub(crate) fn ensure_new(
    name: &str,
    existing: &[Unit],
    unit: &Unit,
    keyed: bool,
) -> Result<(), FormatError> {
    let same = |other: &Unit| {
        other.context == unit.context && (keyed || other.source.first() == unit.source.first())
    };
    if existing.iter().any(same) {
        return Err(already_there(name, unit));
    }
    Ok(())
}

/// The error for adding a string the file has already.
pub(crate) fn already_there(name: &str, unit: &Unit) -> FormatError {
    cannot_add(
        name,
        &format!(
            "{:?}: the file has that string already",
            unit.context_or_source()
        ),
    )
}
