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

/// The span that removing the text at `span` of `text` takes away: with
/// its whole lines when nothing else is on them (and a blank line after it
/// when one also precedes it), so no blank line is left behind; just
/// `span` otherwise.
pub(crate) fn removal_span(text: &str, span: Range<usize>) -> Range<usize> {
    let line_start = text[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = |from: usize| text[from..].find('\n').map_or(text.len(), |i| from + i + 1);
    let end = line_end(span.end);
    let blank = |range: Range<usize>| text[range].trim().is_empty();
    if !(blank(line_start..span.start) && blank(span.end..end)) {
        return span;
    }
    let previous_start = text[..line_start.saturating_sub(1)]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let blank_before = line_start > 0 && blank(previous_start..line_start);
    let after = line_end(end);
    if blank_before && end < text.len() && blank(end..after) {
        line_start..after
    } else {
        line_start..end
    }
}

/// Replaces the token at `span` of `text` (a value of a format without
/// plurals or states, `kind` in messages) with `quote` of the edit's one
/// value, and returns that value.
#[allow(clippy::too_many_arguments)]
pub(crate) fn set_token(
    name: &str,
    text: &str,
    edits: &mut SpanEdits,
    span: &Range<usize>,
    kind: &str,
    target: &[String],
    fuzzy: bool,
    quote: impl Fn(&str) -> String,
) -> Result<String, crate::FormatError> {
    let line = line_at(text.as_bytes(), span.start);
    let value = crate::error::single_value(name, line, kind, target, fuzzy)?;
    edits.replace(span.clone(), quote(value));
    Ok(value.clone())
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

/// Where a new child element goes in `text`, before the parent's end tag
/// at `closer`: the start of the end tag's line (or the tag itself when
/// other text precedes it on its line), and the indentation of children.
fn child_slot(text: &str, closer: usize) -> (usize, String) {
    let line_start = text[..closer].rfind('\n').map_or(0, |i| i + 1);
    let own_line = text[line_start..closer].trim().is_empty();
    let closer_indent = if own_line {
        &text[line_start..closer]
    } else {
        ""
    };
    let before = text[..line_start].trim_end();
    let previous = before.rsplit('\n').next().unwrap_or("");
    let previous_indent = &previous[..previous.len() - previous.trim_start().len()];
    let tag = &text[closer..];
    let name_end = tag.find(['>', ' ']).unwrap_or(tag.len());
    let opening = format!("<{}", &tag[2.min(name_end)..name_end]);
    let indent = if previous.trim_start().starts_with(&opening) {
        format!("{closer_indent}  ")
    } else {
        previous_indent.to_owned()
    };
    (if own_line { line_start } else { closer }, indent)
}

/// The text of a file with its `edits` made and `lines` (each ending in a
/// line break, given the children's indentation) inserted as the last
/// children of the element whose end tag starts at `closer`.
pub(crate) fn insert_child(
    name: &str,
    text: &str,
    edits: &SpanEdits,
    closer: Option<usize>,
    lines: impl FnOnce(&str) -> String,
) -> Result<String, crate::FormatError> {
    let closer = closer.ok_or_else(|| {
        crate::FormatError::new(name, 0, "the file has no element to add strings to")
    })?;
    let (at, indent) = child_slot(text, closer);
    let prefix = if text[..at].ends_with('\n') || at == 0 {
        ""
    } else {
        "\n"
    };
    let mut edits = edits.clone();
    edits.replace(at..at, format!("{prefix}{}", lines(&indent)));
    Ok(edits.apply(text))
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
