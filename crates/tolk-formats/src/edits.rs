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

/// Where a new child element goes in `text`: the offset of the line of the
/// last `closer` (the end tag of the parent, e.g. `</resources>`), and the
/// indentation children have there.
pub(crate) fn child_slot(
    name: &str,
    text: &str,
    closer: &str,
) -> Result<(usize, String), crate::FormatError> {
    let at = text.rfind(closer).ok_or_else(|| {
        crate::FormatError::new(name, 0, format!("no {closer} to add a string before"))
    })?;
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let own_line = text[line_start..at].trim().is_empty();
    let closer_indent = if own_line { &text[line_start..at] } else { "" };
    let before = text[..line_start].trim_end();
    let previous = before.rsplit('\n').next().unwrap_or("");
    let previous_indent = &previous[..previous.len() - previous.trim_start().len()];
    let opening = format!("<{}", closer.trim_start_matches("</").trim_end_matches('>'));
    let indent = if previous.trim_start().starts_with(&opening) {
        format!("{closer_indent}  ")
    } else {
        previous_indent.to_owned()
    };
    Ok((if own_line { line_start } else { at }, indent))
}

/// `text` with `lines` (each ending in a line break) inserted as children
/// before the last `closer`.
pub(crate) fn insert_child(
    name: &str,
    text: &str,
    closer: &str,
    lines: impl FnOnce(&str) -> String,
) -> Result<String, crate::FormatError> {
    let (at, indent) = child_slot(name, text, closer)?;
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let prefix = if line_start == at { "" } else { "\n" };
    let mut out = String::with_capacity(text.len() + 128);
    out.push_str(&text[..at]);
    out.push_str(prefix);
    out.push_str(&lines(&indent));
    out.push_str(&text[at..]);
    Ok(out)
}

/// `text` in double quotes with backslash escapes for `"`, `\\`, line
/// breaks and tabs (as JSON, YAML and Apple .strings write them); `other`
/// gives the escape of any other character that needs one.
pub(crate) fn backslash_quoted(text: &str, other: impl Fn(char) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => match other(c) {
                Some(escape) => out.push_str(&escape),
                None => out.push(c),
            },
        }
    }
    out.push('"');
    out
}
