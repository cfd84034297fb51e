//! Errors of reading and writing translation files.

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
    if fuzzy {
        return Err(FormatError::new(
            name,
            line,
            format!("{kind} files cannot mark a string as needing editing"),
        ));
    }
    match target {
        [value] => Ok(value),
        _ => Err(FormatError::new(
            name,
            line,
            format!("{} translation forms given, the value has 1", target.len()),
        )),
    }
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
