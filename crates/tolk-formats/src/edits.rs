//! Pending replacements of spans of a file's original text.

use std::collections::BTreeMap;
use std::ops::Range;

/// Replacement texts keyed by the start of the span they replace; a later
/// edit of the same span replaces the earlier one.
#[derive(Debug, Clone, Default)]
pub(crate) struct SpanEdits(BTreeMap<usize, (Range<usize>, String)>);

impl SpanEdits {
    /// Replaces `span` of the original text with `text`.
    pub(crate) fn replace(&mut self, span: Range<usize>, text: String) {
        self.0.insert(span.start, (span, text));
    }

    /// The original text with every replacement made.
    pub(crate) fn apply(&self, original: &str) -> String {
        let mut out = String::with_capacity(original.len() + 64);
        let mut at = 0;
        for (span, text) in self.0.values() {
            if span.start < at {
                continue;
            }
            out.push_str(&original[at..span.start]);
            out.push_str(text);
            at = span.end;
        }
        out.push_str(&original[at..]);
        out
    }
}

/// The 1-based line of a byte offset.
pub(crate) fn line_at(text: &[u8], offset: usize) -> usize {
    text[..offset.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// The bytes of file `name` as UTF-8 text (without a byte order mark check),
/// or an error at the line of the first invalid byte.
pub(crate) fn utf8<'a>(name: &str, bytes: &'a [u8]) -> Result<&'a str, crate::FormatError> {
    std::str::from_utf8(bytes).map_err(|e| {
        crate::FormatError::new(name, line_at(bytes, e.valid_up_to()), "not valid UTF-8")
    })
}
