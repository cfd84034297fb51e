//! What the XML codecs share: a reader that reports errors with lines and
//! skips elements by span, and the escaping rules of element text.
//!
//! Entities other than the five predefined ones and character references
//! are never expanded, so no external entity is ever resolved.

use std::ops::Range;

use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};

use crate::edits::line_at;
use crate::error::FormatError;

/// An attribute's value with entities resolved.
pub(crate) fn attribute(start: &BytesStart<'_>, key: &str) -> Option<String> {
    start.try_get_attribute(key).ok().flatten().and_then(|a| {
        a.normalized_value(XmlVersion::Implicit1_0)
            .ok()
            .map(|v| v.into_owned())
    })
}

/// Replaces the predefined and numeric XML entities; others stay as written.
pub(crate) fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let Some(end) = rest.find(';') else { break };
        let entity = &rest[1..end];
        let resolved = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            e if e.starts_with("#x") => u32::from_str_radix(&e[2..], 16)
                .ok()
                .and_then(char::from_u32),
            e if e.starts_with('#') => e[1..].parse().ok().and_then(char::from_u32),
            _ => None,
        };
        match resolved {
            Some(c) => out.push(c),
            None => out.push_str(&rest[..=end]),
        }
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The text of an element's inner XML: CDATA sections taken as they are,
/// entities resolved elsewhere; inner markup stays as written.
pub(crate) fn inner_text(inner: &str) -> String {
    let mut text = String::with_capacity(inner.len());
    let mut rest = inner;
    // Markup is searched by its first byte (fast), then checked for CDATA.
    let cdata_at = |rest: &str| {
        rest.match_indices('<')
            .map(|(at, _)| at)
            .find(|at| rest[*at..].starts_with("<![CDATA["))
    };
    while let Some(at) = cdata_at(rest) {
        text.push_str(&unescape(&rest[..at]));
        let body = &rest[at + 9..];
        let end = body
            .match_indices(']')
            .map(|(at, _)| at)
            .find(|at| body[*at..].starts_with("]]>"))
            .unwrap_or(body.len());
        text.push_str(&body[..end]);
        rest = body.get(end + 3..).unwrap_or("");
    }
    text.push_str(&unescape(rest));
    text
}

/// True when `inner` is one CDATA section, which an edit keeps.
pub(crate) fn is_cdata(inner: &str) -> bool {
    let inner = inner.trim();
    inner.starts_with("<![CDATA[") && inner.ends_with("]]>")
}

/// `value` as one CDATA section.
pub(crate) fn cdata(value: &str) -> String {
    format!("<![CDATA[{}]]>", value.replace("]]>", "]]]]><![CDATA[>"))
}

/// Escapes `value` as element text. Tags of the elements named in `inline`
/// (XLIFF placeholders such as `<x id="1"/>`) are kept as markup.
pub(crate) fn escape(value: &str, inline: &[&str]) -> String {
    let mut out = String::with_capacity(value.len() + 8);
    let mut rest = value;
    while let Some(at) = rest.find(['&', '<', '>']) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if rest.starts_with('<')
            && let Some(len) = inline_tag(rest, inline)
        {
            out.push_str(&rest[..len]);
            rest = &rest[len..];
            continue;
        }
        out.push_str(match rest.as_bytes()[0] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            _ => "&gt;",
        });
        rest = &rest[1..];
    }
    out.push_str(rest);
    out
}

/// `value` escaped for a double-quoted attribute.
pub(crate) fn escape_attribute(value: &str) -> String {
    escape(value, &[]).replace('"', "&quot;")
}

/// The length of the start, end or empty tag of an `inline` element at
/// the start of `text`.
fn inline_tag(text: &str, inline: &[&str]) -> Option<usize> {
    let body = text[1..].strip_prefix('/').unwrap_or(&text[1..]);
    let name_len = body
        .find(|c: char| c.is_whitespace() || c == '/' || c == '>')
        .unwrap_or(body.len());
    if !inline.contains(&&body[..name_len]) {
        return None;
    }
    let mut quote = None;
    for (at, c) in text.char_indices().skip(1) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '>') => return Some(at + 1),
            (None, '<') => return None,
            _ => {}
        }
    }
    None
}

/// A start tag with attribute `key` set to `value` (added before the
/// tag's end when missing); the rest of the tag is kept as written.
pub(crate) fn set_attribute(tag: &str, key: &str, value: &str) -> String {
    let escaped = value.replace('&', "&amp;").replace('"', "&quot;");
    if let Some(span) = attribute_value_span(tag, key) {
        return format!("{}{}{}", &tag[..span.start], escaped, &tag[span.end..]);
    }
    let end = if tag.ends_with("/>") {
        tag.len() - 2
    } else {
        tag.len() - 1
    };
    let end = trim_space_end(&tag[..end]).len();
    format!("{} {key}=\"{escaped}\"{}", &tag[..end], &tag[end..])
}

/// A start tag without attribute `key`.
pub(crate) fn remove_attribute(tag: &str, key: &str) -> String {
    match attribute_value_span(tag, key) {
        Some(span) => {
            let name_start = tag[..span.start].rfind(key).unwrap_or(span.start);
            let start = trim_space_end(&tag[..name_start]).len();
            format!("{}{}", &tag[..start], &tag[span.end + 1..])
        }
        None => tag.to_owned(),
    }
}

/// The span of the value of attribute `key` inside a start tag.
fn attribute_value_span(tag: &str, key: &str) -> Option<Range<usize>> {
    let bytes = tag.as_bytes();
    let mut from = 0;
    while let Some(found) = tag[from..].find(key) {
        let at = from + found;
        from = at + key.len();
        let before_ok = at > 0 && bytes[at - 1].is_ascii_whitespace();
        let after = tag[from..].trim_start();
        if !before_ok || !after.starts_with('=') {
            continue;
        }
        let value = after[1..].trim_start();
        let quote = value.chars().next()?;
        if quote != '"' && quote != '\'' {
            continue;
        }
        let start = tag.len() - value.len() + 1;
        let end = start + tag[start..].find(quote)?;
        return Some(start..end);
    }
    None
}

/// Where an element's text is in the original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Slot {
    /// Between the start and end tags.
    Inner(Range<usize>),
    /// A self-closing element (`<value/>`): the whole tag, rewritten with
    /// an end tag on edit.
    Empty(Range<usize>),
}

impl Slot {
    /// Where the slot starts.
    pub(crate) fn start(&self) -> usize {
        match self {
            Slot::Inner(span) | Slot::Empty(span) => span.start,
        }
    }

    /// The text of the slot in `original`: CDATA and entities resolved,
    /// markup kept.
    pub(crate) fn text(&self, original: &str) -> String {
        match self {
            Slot::Inner(span) => inner_text(&original[span.clone()]),
            Slot::Empty(_) => String::new(),
        }
    }

    /// The span to replace and its new text to hold `value`, written by
    /// `escape`, or where the original was CDATA as a CDATA section of
    /// `raw` of it (the format's own escapes without XML's).
    pub(crate) fn replacement(
        &self,
        original: &str,
        value: &str,
        escape: impl Fn(&str) -> String,
        raw: impl Fn(&str) -> String,
    ) -> (Range<usize>, String) {
        match self {
            Slot::Inner(span) if is_cdata(&original[span.clone()]) => {
                (span.clone(), cdata(&raw(value)))
            }
            Slot::Inner(span) => (span.clone(), escape(value)),
            Slot::Empty(tag) => {
                let open = trim_space_end(original[tag.clone()].trim_end_matches("/>"));
                let name = tag_name(open);
                (tag.clone(), format!("{open}>{}</{name}>", escape(value)))
            }
        }
    }
}

/// `text` without the XML white space (not other Unicode spaces, which
/// would belong to a name) at its end.
pub(crate) fn trim_space_end(text: &str) -> &str {
    text.trim_end_matches([' ', '\t', '\r', '\n'])
}

/// The qualified name of a start tag (`<target …>` gives `target`).
pub(crate) fn tag_name(tag: &str) -> &str {
    let body = tag.get(1..).unwrap_or("");
    // XML white space only: other characters belong to the name, as the
    // reader sees it.
    let end = body
        .find([' ', '\t', '\r', '\n', '>', '/'])
        .unwrap_or(body.len());
    &body[..end]
}

/// Where the first control character XML forbids is. The characters are
/// all ASCII, so bytes are checked, a block at a time without branches,
/// which keeps this cheap on large files.
fn first_forbidden(bytes: &[u8]) -> Option<usize> {
    let bad = |b: u8| b < 0x20 && b != b'\t' && b != b'\n' && b != b'\r';
    let block = bytes
        .chunks(64)
        .position(|chunk| chunk.iter().fold(false, |found, &b| found | bad(b)))?;
    let start = block * 64;
    bytes[start..]
        .iter()
        .position(|&b| bad(b))
        .map(|at| start + at)
}

/// The control characters XML 1.0 cannot hold, not even escaped.
fn forbidden(c: char) -> bool {
    matches!(c, '\0'..='\x08' | '\x0b' | '\x0c' | '\x0e'..='\x1f')
}

/// Refuses text for an XML file (`name`, at `line`) that XML cannot hold.
pub(crate) fn storable(name: &str, line: usize, values: &[String]) -> Result<(), FormatError> {
    if values.iter().any(|v| v.contains(forbidden)) {
        return Err(FormatError::new(
            name,
            line,
            "the text has a control character XML files cannot hold",
        ));
    }
    Ok(())
}

/// Refuses a unit to add to an XML file when any of its texts cannot be
/// stored.
pub(crate) fn storable_unit(name: &str, unit: &crate::unit::Unit) -> Result<(), FormatError> {
    let texts: Vec<String> = std::iter::once(&unit.context)
        .chain(&unit.source)
        .chain(&unit.target)
        .chain(&unit.developer_notes)
        .chain(&unit.locations)
        .cloned()
        .collect();
    storable(name, 0, &texts)
}

/// Reads XML events and spans, with errors naming the file and line.
pub(crate) struct Scanner<'a> {
    name: &'a str,
    text: &'a str,
    /// Where the reader's positions start in `text`: after byte order marks.
    base: usize,
    reader: Reader<&'a [u8]>,
    /// Elements started and not yet ended.
    open: usize,
    /// The element whose end tags are watched (name and number of
    /// ancestors), and where the last one starts.
    watched: Option<(&'static str, usize, Option<usize>)>,
}

impl<'a> Scanner<'a> {
    /// A scanner over the text of file `name`; end tags must match, and
    /// control characters XML does not allow are an error.
    pub(crate) fn new(name: &'a str, text: &'a str) -> Result<Self, FormatError> {
        if let Some(at) = first_forbidden(text.as_bytes()) {
            return Err(FormatError::new(
                name,
                line_at(text.as_bytes(), at),
                "a control character XML does not allow",
            ));
        }
        // The reader drops a byte order mark at the start of its input and
        // counts positions after it; one more is skipped here.
        let skipped = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let dropped = if text[skipped..].starts_with('\u{feff}') {
            3
        } else {
            0
        };
        let base = skipped + dropped;
        let mut reader = Reader::from_str(&text[skipped..]);
        reader.config_mut().check_end_names = true;
        Ok(Scanner {
            name,
            text,
            base,
            reader,
            open: 0,
            watched: None,
        })
    }

    /// The text being read.
    pub(crate) fn text(&self) -> &'a str {
        self.text
    }

    /// An error at byte `offset`.
    pub(crate) fn error(&self, offset: usize, message: impl std::fmt::Display) -> FormatError {
        FormatError::new(
            self.name,
            line_at(self.text.as_bytes(), offset),
            message.to_string(),
        )
    }

    /// The byte offset after the last event read.
    pub(crate) fn position(&self) -> usize {
        usize::try_from(self.reader.buffer_position()).map_or(usize::MAX, |at| at + self.base)
    }

    /// Watches the end tags of elements named `name` with `ancestors`
    /// elements around them (0 for the root), so that a tag of the same
    /// name deeper in the text is not taken for them.
    pub(crate) fn watch(&mut self, name: &'static str, ancestors: usize) {
        self.watched = Some((name, ancestors, None));
    }

    /// Where the last end tag of the watched element starts.
    pub(crate) fn watched(&self) -> Option<usize> {
        self.watched.and_then(|(_, _, at)| at)
    }

    /// The next event; the end of the file while an element is open is
    /// an error.
    pub(crate) fn next(&mut self) -> Result<Event<'a>, FormatError> {
        let before = self.position();
        let event = self.reader.read_event().map_err(|e| {
            let at = usize::try_from(self.reader.error_position())
                .map_or(usize::MAX, |at| at + self.base);
            self.error(at, e)
        })?;
        match event {
            Event::Start(_) => self.open += 1,
            Event::End(ref end) => {
                self.open = self.open.saturating_sub(1);
                if let Some((name, ancestors, at)) = &mut self.watched
                    && self.open == *ancestors
                    && end.local_name().as_ref() == *name
                {
                    *at = Some(before);
                }
            }
            Event::Eof if self.open > 0 => return Err(self.truncated()),
            _ => {}
        }
        Ok(event)
    }

    /// The error for a file that ends inside an element.
    pub(crate) fn truncated(&self) -> FormatError {
        self.error(self.position(), "unexpected end of the file")
    }

    /// Reads to the end tag of the element just started; returns the span
    /// of its content.
    pub(crate) fn content(&mut self) -> Result<Range<usize>, FormatError> {
        let start = self.position();
        let mut depth = 0usize;
        loop {
            let before = self.position();
            match self.next()? {
                Event::Start(_) => depth += 1,
                Event::End(_) if depth == 0 => return Ok(start..before),
                Event::End(_) => depth -= 1,
                Event::Eof => return Err(self.truncated()),
                _ => {}
            }
        }
    }

    /// Reads to the end of the element just started and returns its text
    /// with CDATA and entities resolved and inner markup kept.
    pub(crate) fn text_content(&mut self) -> Result<String, FormatError> {
        let span = self.content()?;
        Ok(inner_text(&self.text[span]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_keeps_inline_tags_only() {
        assert_eq!(
            escape("a < b & <x id=\"1\"/> <g id='2'>c</g> <b>", &["x", "g"]),
            "a &lt; b &amp; <x id=\"1\"/> <g id='2'>c</g> &lt;b&gt;"
        );
        assert_eq!(escape("<x <x/>", &["x"]), "&lt;x <x/>");
        assert_eq!(
            escape("<x equiv=\"a > b\"/> c", &["x"]),
            "<x equiv=\"a > b\"/> c"
        );
        assert_eq!(
            inner_text("a &amp; <![CDATA[<b>]]> &custom;"),
            "a & <b> &custom;"
        );
    }

    #[test]
    fn external_entities_are_never_resolved() {
        let text = "<!DOCTYPE a [<!ENTITY secret SYSTEM \"file:///etc/hostname\">]>\n<a>&secret; &amp;</a>";
        let mut scanner = Scanner::new("t.xml", text).unwrap();
        let content = loop {
            if let Event::Start(_) = scanner.next().unwrap() {
                break scanner.text_content().unwrap();
            }
        };
        assert_eq!(content, "&secret; &");
    }

    #[test]
    fn control_characters_xml_cannot_hold_are_refused() {
        let err = Scanner::new("t.xml", "<a>\n<b>\u{0}</b></a>")
            .err()
            .unwrap();
        assert_eq!(
            (err.line, err.message.as_str()),
            (2, "a control character XML does not allow")
        );
        assert!(Scanner::new("t.xml", "<a>\t\r\n</a>").is_ok());
        assert!(storable("t.xml", 3, &["ok\n".into()]).is_ok());
        assert_eq!(
            storable("t.xml", 3, &["bell\u{7}".into()])
                .unwrap_err()
                .line,
            3
        );
    }

    #[test]
    fn positions_count_byte_order_marks() {
        for boms in 0..3 {
            let text = format!("{}<a>x</a>", "\u{feff}".repeat(boms));
            let mut scanner = Scanner::new("t.xml", &text).unwrap();
            match scanner.next() {
                Ok(Event::Start(_)) => {
                    let span = scanner.content().unwrap();
                    assert_eq!(&text[span], "x", "{boms} marks");
                }
                other => assert!(boms > 1, "{boms} marks: {other:?}"),
            }
        }
    }

    #[test]
    fn attributes_are_set_and_removed_in_place() {
        let tag = "<target  xml:lang=\"de\" state='new'>";
        assert_eq!(
            set_attribute(tag, "state", "translated"),
            "<target  xml:lang=\"de\" state='translated'>"
        );
        assert_eq!(
            set_attribute("<target>", "state", "a\"b"),
            "<target state=\"a&quot;b\">"
        );
        assert_eq!(
            set_attribute("<target />", "state", "x"),
            "<target state=\"x\" />"
        );
        assert_eq!(remove_attribute(tag, "state"), "<target  xml:lang=\"de\">");
        assert_eq!(
            remove_attribute("<translation type=\"unfinished\"/>", "type"),
            "<translation/>"
        );
        assert_eq!(
            set_attribute("<unit xstate=\"1\">", "state", "x"),
            "<unit xstate=\"1\" state=\"x\">"
        );
    }
}
