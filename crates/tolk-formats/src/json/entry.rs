//! One string of a JSON file as read: key, forms with their spans, note.

use std::ops::Range;

/// One translatable value (one form of it per token) and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Entry {
    pub(super) key: String,
    /// Each form's text and the span of its token.
    pub(super) forms: Vec<(String, Range<usize>)>,
    pub(super) plural: bool,
    pub(super) note: Option<String>,
    /// The values whose object members go when the string is removed
    /// (its forms, or the object holding it and its metadata); none when
    /// it cannot be removed (an item of a list).
    pub(super) removal: Vec<Range<usize>>,
}

impl Entry {
    pub(super) fn single(
        key: String,
        (value, span): (String, Range<usize>),
        note: Option<String>,
    ) -> Self {
        Entry {
            key,
            forms: vec![(value, span.clone())],
            plural: false,
            note,
            removal: vec![span],
        }
    }
}
