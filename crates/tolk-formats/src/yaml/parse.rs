//! A reader for the block YAML that translation files use (mappings,
//! sequences, plain, quoted and block scalars, comments, `---`), keeping
//! where every scalar is so that an edit replaces just that scalar.
//!
//! Flow collections (`[a, b]`, `{a: b}`) and aliases are read past and kept,
//! but give no values. Anchors and tags before a scalar are skipped.

/// YAML's white space: spaces and tabs (and the line break), never other
/// Unicode spaces such as U+00A0, which are content.
const BLANK: &[char] = &[' ', '\t', '\r', '\n'];

use std::ops::Range;

/// Deepest nesting accepted; keeps hostile input from exhausting the stack.
pub(super) const MAX_DEPTH: usize = 64;

/// How a scalar is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Plain,
    Single,
    Double,
    /// `|` or `>` with its body on the following lines.
    Block,
    /// `key:` with nothing after it: the span is where a value would go.
    Missing,
}

/// A YAML node with the spans edits need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// A block mapping.
    Map {
        /// Keys and values in order.
        members: Vec<(String, Node)>,
        /// The column its keys start at.
        column: usize,
        /// The end of its last line (before the line break).
        end: usize,
        /// Each member's lines: from the start of its key's line to the
        /// end of its value's last line (before the line break).
        extents: Vec<Range<usize>>,
    },
    Seq(Vec<Node>),
    Scalar {
        value: String,
        span: Range<usize>,
        style: Style,
    },
    /// A null, a flow collection or an alias, kept as written.
    Opaque,
}

/// A syntax error at a 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub line: usize,
    pub message: String,
}

/// One line of the document.
#[derive(Debug, Clone, Copy)]
struct Line {
    /// Offset of the first byte after the indentation.
    start: usize,
    /// Offset of the line's end (before `\r\n` or `\n`).
    end: usize,
    indent: usize,
}

struct Parser<'a> {
    text: &'a str,
    lines: Vec<Line>,
    /// The next line to read.
    at: usize,
    depth: usize,
}

/// Parses a document; an empty document is an empty mapping.
pub fn parse(text: &str) -> Result<Node, SyntaxError> {
    let mut lines = Vec::new();
    let mut offset = usize::from(text.starts_with('\u{feff}')) * 3;
    for raw in text[offset..].split_inclusive('\n') {
        let body = raw.trim_end_matches('\n').trim_end_matches('\r');
        let indent = body.len() - body.trim_start_matches(' ').len();
        lines.push(Line {
            start: offset + indent,
            end: offset + body.len(),
            indent,
        });
        offset += raw.len();
    }
    let mut parser = Parser {
        text,
        lines,
        at: 0,
        depth: 0,
    };
    parser.skip_blank();
    if parser
        .peek()
        .is_some_and(|l| l.indent == 0 && is_marker(parser.content(l), "---"))
    {
        parser.at += 1;
        parser.skip_blank();
    }
    let Some(first) = parser.peek() else {
        return Ok(Node::Map {
            members: Vec::new(),
            column: 0,
            end: text.len(),
            extents: Vec::new(),
        });
    };
    let root = parser.block(first.indent)?;
    parser.skip_blank();
    match parser.peek() {
        Some(line) if line.indent == 0 && is_marker(parser.content(line), "...") => Ok(root),
        Some(line) => Err(parser.error_at(line, "unexpected text after the document")),
        None => Ok(root),
    }
}

impl<'a> Parser<'a> {
    fn content(&self, line: Line) -> &'a str {
        &self.text[line.start..line.end]
    }

    fn line_number(&self, offset: usize) -> usize {
        self.lines.partition_point(|l| l.end < offset) + 1
    }

    fn error_at(&self, line: Line, message: &str) -> SyntaxError {
        SyntaxError {
            line: self.line_number(line.start),
            message: message.to_owned(),
        }
    }

    /// Skips blank and comment-only lines.
    fn skip_blank(&mut self) {
        while let Some(line) = self.lines.get(self.at) {
            let content = self.content(*line);
            if content.trim_matches(BLANK).is_empty() || content.starts_with('#') {
                self.at += 1;
            } else {
                break;
            }
        }
    }

    fn peek(&self) -> Option<Line> {
        self.lines.get(self.at).copied()
    }

    /// The node whose lines start at the current line, at `indent`.
    fn block(&mut self, indent: usize) -> Result<Node, SyntaxError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let line = self.peek().unwrap_or(self.lines[0]);
            return Err(self.error_at(line, "the document is nested too deeply"));
        }
        let node = match self.peek() {
            Some(line) if is_item(self.content(line)) => self.sequence(indent),
            _ => self.mapping(indent),
        };
        self.depth -= 1;
        node
    }

    fn sequence(&mut self, indent: usize) -> Result<Node, SyntaxError> {
        let mut items = Vec::new();
        loop {
            self.skip_blank();
            let Some(line) = self.peek() else { break };
            if line.indent != indent || !is_item(self.content(line)) {
                if line.indent > indent {
                    return Err(self.error_at(line, "unexpected indentation"));
                }
                break;
            }
            let rest = self.content(line)[1..].trim_start_matches([' ', '\t']);
            let rest_start = line.end - rest.len();
            if rest.is_empty() || rest.starts_with('#') {
                self.at += 1;
                items.push(self.nested_or_missing(indent, rest_start, true)?);
            } else if is_item(rest) || key_split(rest).is_some() {
                // A compact nested node: continue as if it started its own line.
                self.lines[self.at] = Line {
                    start: rest_start,
                    end: line.end,
                    indent: indent + (rest_start - line.start),
                };
                let inner = self.lines[self.at].indent;
                self.depth += 1;
                items.push(self.block(inner)?);
                self.depth -= 1;
            } else {
                items.push(self.scalar(rest_start, indent)?);
            }
        }
        Ok(Node::Seq(items))
    }

    fn mapping(&mut self, indent: usize) -> Result<Node, SyntaxError> {
        let mut members = Vec::new();
        let mut extents = Vec::new();
        let mut end = self.peek().map_or(self.text.len(), |line| line.end);
        loop {
            self.skip_blank();
            let Some(line) = self.peek() else { break };
            if line.indent < indent || (line.indent == indent && is_item(self.content(line))) {
                break;
            }
            if line.indent > indent {
                return Err(self.error_at(line, "unexpected indentation"));
            }
            let content = self.content(line);
            let Some((key, value_at)) = key_split(content) else {
                return Err(self.error_at(line, "expected `key: value`"));
            };
            let key = unquote_key(key);
            if members.iter().any(|(k, _)| *k == key) {
                return Err(self.error_at(line, "a key repeated in one mapping"));
            }
            let value_start = line.start + value_at;
            let rest = self.text[value_start..line.end].trim_start_matches([' ', '\t']);
            let value_start = line.end - rest.len();
            let node = if rest.is_empty() || rest.starts_with('#') {
                self.at += 1;
                self.nested_or_missing(indent, line.start + key_end(content) + 1, false)?
            } else {
                self.scalar(value_start, indent)?
            };
            members.push((key, node));
            end = self.lines[self.at.max(1) - 1].end;
            extents.push(line.start - line.indent..end);
        }
        Ok(Node::Map {
            members,
            column: indent,
            end,
            extents,
        })
    }

    /// The node on the lines after a `key:` or `-` with nothing after it,
    /// or a missing value to be written at `at`.
    fn nested_or_missing(
        &mut self,
        indent: usize,
        at: usize,
        in_sequence: bool,
    ) -> Result<Node, SyntaxError> {
        self.skip_blank();
        match self.peek() {
            Some(next) if next.indent > indent => {
                let content = self.content(next);
                if is_item(content) || key_split(content).is_some() {
                    self.block(next.indent)
                } else {
                    self.scalar(next.start, indent)
                }
            }
            Some(next) if !in_sequence && next.indent == indent && is_item(self.content(next)) => {
                self.block(indent)
            }
            _ => Ok(Node::Scalar {
                value: String::new(),
                span: at..at,
                style: Style::Missing,
            }),
        }
    }

    /// A scalar starting at `start` on the current line, in a node at
    /// `indent`; moves past every line it uses.
    fn scalar(&mut self, start: usize, indent: usize) -> Result<Node, SyntaxError> {
        let line = self.lines[self.at];
        let mut start = start;
        // Tags and anchors come before the value.
        loop {
            let rest = &self.text[start..line.end];
            if !(rest.starts_with('!') || rest.starts_with('&')) {
                break;
            }
            match rest.find(' ') {
                Some(space) => {
                    let after = rest[space..].trim_start_matches([' ', '\t']);
                    start = line.end - after.len();
                }
                None => {
                    self.at += 1;
                    return self.nested_or_missing(indent, line.end, false);
                }
            }
        }
        let rest = &self.text[start..line.end];
        match rest.as_bytes().first() {
            Some(b'"') => self.quoted(start, b'"'),
            Some(b'\'') => self.quoted(start, b'\''),
            Some(b'|' | b'>') => self.block_scalar(start, indent),
            Some(b'[' | b'{') => self.flow(start),
            Some(b'*') => {
                self.at += 1;
                Ok(Node::Opaque)
            }
            _ => Ok(self.plain(start, indent)),
        }
    }

    fn plain(&mut self, start: usize, indent: usize) -> Node {
        let line = self.lines[self.at];
        let first = strip_comment(&self.text[start..line.end]).trim_end_matches(BLANK);
        let mut value = first.to_owned();
        let mut end = start + first.len();
        self.at += 1;
        // Continuation lines, deeper than the node, fold into one line.
        while let Some(next) = self.peek() {
            let content = self.content(next);
            if next.indent <= indent
                || content.starts_with('#')
                || content.trim_matches(BLANK).is_empty()
            {
                break;
            }
            if key_split(content).is_some() {
                break;
            }
            let part = strip_comment(content).trim_end_matches(BLANK);
            value.push(' ');
            value.push_str(part);
            end = next.start + part.len();
            self.at += 1;
        }
        if matches!(value.as_str(), "~" | "null" | "Null" | "NULL") {
            return Node::Opaque;
        }
        Node::Scalar {
            value,
            span: start..end,
            style: Style::Plain,
        }
    }

    fn quoted(&mut self, start: usize, quote: u8) -> Result<Node, SyntaxError> {
        let bytes = self.text.as_bytes();
        let mut at = start + 1;
        let mut raw = String::new();
        loop {
            match bytes.get(at) {
                None => {
                    return Err(SyntaxError {
                        line: self.line_number(start),
                        message: "the quoted string is not closed".into(),
                    });
                }
                Some(b'\\') if quote == b'"' => {
                    let next = self.text[at + 1..].chars().next().map_or(0, char::len_utf8);
                    raw.push_str(&self.text[at..at + 1 + next]);
                    at += 1 + next;
                }
                Some(b'\'') if quote == b'\'' && bytes.get(at + 1) == Some(&b'\'') => {
                    raw.push_str("''");
                    at += 2;
                }
                Some(b) if *b == quote => break,
                Some(_) => {
                    let c = self.text[at..].chars().next().unwrap_or(' ');
                    raw.push(c);
                    at += c.len_utf8();
                }
            }
        }
        let end = at + 1;
        let value = if quote == b'"' {
            unescape_double(&fold(&raw)).map_err(|message| SyntaxError {
                line: self.line_number(start),
                message,
            })?
        } else {
            fold(&raw).replace("''", "'")
        };
        self.at = self.lines.partition_point(|l| l.end < end) + 1;
        Ok(Node::Scalar {
            value,
            span: start..end,
            style: if quote == b'"' {
                Style::Double
            } else {
                Style::Single
            },
        })
    }

    fn block_scalar(&mut self, start: usize, indent: usize) -> Result<Node, SyntaxError> {
        let header_line = self.lines[self.at];
        let header = strip_comment(&self.text[start..header_line.end]).trim_end_matches(BLANK);
        let literal = header.starts_with('|');
        let chomp = if header.contains('-') {
            '-'
        } else if header.contains('+') {
            '+'
        } else {
            ' '
        };
        self.at += 1;
        let mut body: Vec<&str> = Vec::new();
        let mut end = header_line.end;
        let mut content_indent = None;
        while let Some(line) = self.peek() {
            let content = self.content(line);
            if content.trim_matches(BLANK).is_empty() {
                body.push("");
                self.at += 1;
                continue;
            }
            let wanted = *content_indent.get_or_insert(line.indent);
            if line.indent <= indent || line.indent < wanted {
                break;
            }
            let from = line.start - (line.indent - wanted);
            body.push(&self.text[from..line.end]);
            end = line.end;
            self.at += 1;
        }
        // Trailing blank lines after the last text belong to what follows.
        let kept = body
            .iter()
            .rposition(|l| !l.is_empty())
            .map_or(0, |i| i + 1);
        let trailing = body.len() - kept;
        self.at -= trailing.min(self.at);
        body.truncate(kept);
        let mut value = if literal {
            body.join("\n")
        } else {
            fold_block(&body)
        };
        match chomp {
            '-' => {}
            '+' => value.push_str(&"\n".repeat(trailing + 1)),
            _ if !value.is_empty() => value.push('\n'),
            _ => {}
        }
        Ok(Node::Scalar {
            value,
            span: start..end,
            style: Style::Block,
        })
    }

    /// Skips a flow collection, which may span lines.
    fn flow(&mut self, start: usize) -> Result<Node, SyntaxError> {
        let mut depth = 0usize;
        let mut quote: Option<char> = None;
        for (i, c) in self.text[start..].char_indices() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '[' | '{') => depth += 1,
                (None, ']' | '}') => {
                    depth -= 1;
                    if depth == 0 {
                        let end = start + i + 1;
                        self.at = self.lines.partition_point(|l| l.end < end) + 1;
                        return Ok(Node::Opaque);
                    }
                }
                _ => {}
            }
        }
        Err(SyntaxError {
            line: self.line_number(start),
            message: "the flow collection is not closed".into(),
        })
    }
}

/// True for a sequence item line (`- x` or `-`).
/// True when `line` is the document marker `marker` (`---` or `...`):
/// the marker alone or followed by white space, not a key that starts
/// with it.
pub fn is_marker(line: &str, marker: &str) -> bool {
    line.strip_prefix(marker)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
}

fn is_item(content: &str) -> bool {
    content == "-" || content.starts_with("- ")
}

/// Splits `key: value` into the key text and the offset after the colon.
fn key_split(content: &str) -> Option<(&str, usize)> {
    let end = key_end(content);
    let after = content.get(end..)?;
    if after.starts_with(": ") || after == ":" || after.starts_with(":\t") {
        Some((content[..end].trim_end_matches(BLANK), end + 1))
    } else {
        None
    }
}

/// Where a line's key ends (the offset of its colon, or of the line's end).
fn key_end(content: &str) -> usize {
    let bytes = content.as_bytes();
    if let Some(quote @ (b'"' | b'\'')) = bytes.first().copied() {
        let mut at = 1;
        while at < bytes.len() {
            if bytes[at] == b'\\' && quote == b'"' {
                at += 2;
                continue;
            }
            if bytes[at] == quote {
                return (at + 1).min(bytes.len());
            }
            at += 1;
        }
        return bytes.len();
    }
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b':' && (at + 1 == bytes.len() || matches!(bytes[at + 1], b' ' | b'\t')) {
            return at;
        }
        if bytes[at] == b' ' && bytes.get(at + 1) == Some(&b'#') {
            return bytes.len();
        }
        at += 1;
    }
    bytes.len()
}

fn unquote_key(key: &str) -> String {
    let key = key.trim_matches(BLANK);
    if key.len() >= 2 && key.starts_with('"') && key.ends_with('"') {
        unescape_double(&key[1..key.len() - 1]).unwrap_or_else(|_| key.to_owned())
    } else if key.len() >= 2 && key.starts_with('\'') && key.ends_with('\'') {
        key[1..key.len() - 1].replace("''", "'")
    } else {
        key.to_owned()
    }
}

/// A plain scalar without its trailing ` # comment`.
fn strip_comment(text: &str) -> &str {
    match text.find(" #") {
        Some(at) => &text[..at],
        None if text.starts_with('#') => "",
        None => text,
    }
}

/// Line folding of quoted scalars: a line break and the indentation around
/// it become one space; each blank line becomes a newline.
fn fold(raw: &str) -> String {
    if !raw.contains('\n') {
        return raw.to_owned();
    }
    let lines: Vec<&str> = raw.split('\n').collect();
    let mut out = String::new();
    let last = lines.len() - 1;
    let mut pending_space = false;
    for (i, line) in lines.iter().enumerate() {
        let line = line.trim_end_matches('\r');
        let text = match (i == 0, i == last) {
            (true, _) => line.trim_end_matches(BLANK),
            (false, true) => line.trim_start_matches(BLANK),
            _ => line.trim_matches(BLANK),
        };
        if i > 0 && text.is_empty() && i != last {
            out.push('\n');
            pending_space = false;
            continue;
        }
        if pending_space {
            out.push(' ');
        }
        out.push_str(text);
        pending_space = true;
    }
    out
}

/// Folding of `>` block scalars: lines join with spaces, blank lines give
/// newlines, more-indented lines keep their breaks.
fn fold_block(body: &[&str]) -> String {
    let mut out = String::new();
    for (i, line) in body.iter().enumerate() {
        if i > 0 {
            let previous = body[i - 1];
            let literal = line.starts_with(' ') || previous.starts_with(' ');
            if line.is_empty() || previous.is_empty() || literal {
                out.push('\n');
            } else {
                out.push(' ');
            }
        }
        out.push_str(line);
    }
    out
}

/// Resolves the escapes of a double-quoted scalar.
fn unescape_double(raw: &str) -> Result<String, String> {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let escaped = chars.next().ok_or("a backslash ends the string")?;
        let hex = |chars: &mut std::str::Chars<'_>, n: usize| -> Result<char, String> {
            let digits: String = chars.by_ref().take(n).collect();
            u32::from_str_radix(&digits, 16)
                .ok()
                .and_then(char::from_u32)
                .ok_or_else(|| format!("invalid escape \\{escaped}{digits}"))
        };
        out.push(match escaped {
            'n' => '\n',
            't' | '\t' => '\t',
            'r' => '\r',
            '0' => '\0',
            'a' => '\u{7}',
            'b' => '\u{8}',
            'e' => '\u{1b}',
            'f' => '\u{c}',
            'v' => '\u{b}',
            '_' => '\u{a0}',
            'N' => '\u{85}',
            'L' => '\u{2028}',
            'P' => '\u{2029}',
            ' ' => ' ',
            'x' => hex(&mut chars, 2)?,
            'u' => hex(&mut chars, 4)?,
            'U' => hex(&mut chars, 8)?,
            '\n' => continue,
            other => other,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(node: &Node) -> (&str, Style) {
        match node {
            Node::Scalar { value, style, .. } => (value.as_str(), *style),
            other => panic!("not a scalar: {other:?}"),
        }
    }

    #[test]
    fn reads_the_block_structures_of_translation_files() {
        let text = "---\nen:\n  a: plain # note\n  b: 'it''s'\n  c: \"tab\\there\"\n  list:\n  - one\n  - \n  - :sym\n  nested:\n    x: |\n      line 1\n      line 2\n    y: >-\n      folded\n      text\n    z:\n  items:\n    - k: v\n      l: w\n  flow: [1, 2]\n";
        let Node::Map {
            members: root,
            column: 0,
            end,
            extents,
        } = parse(text).unwrap()
        else {
            panic!()
        };
        assert_eq!(end, text.len() - 1);
        // The one member's lines: from `en:` to the end of the document.
        assert_eq!(extents, vec![4..text.len() - 1]);
        let Node::Map {
            members: en,
            column: 2,
            ..
        } = &root[0].1
        else {
            panic!()
        };
        let keys: Vec<&str> = en.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, vec!["a", "b", "c", "list", "nested", "items", "flow"]);
        assert_eq!(scalar(&en[0].1), ("plain", Style::Plain));
        assert_eq!(scalar(&en[1].1), ("it's", Style::Single));
        assert_eq!(scalar(&en[2].1), ("tab\there", Style::Double));
        let Node::Seq(list) = &en[3].1 else { panic!() };
        assert_eq!(scalar(&list[1]), ("", Style::Missing));
        assert_eq!(scalar(&list[2]), (":sym", Style::Plain));
        let Node::Map {
            members: nested,
            column: 4,
            end,
            ..
        } = &en[4].1
        else {
            panic!()
        };
        assert_eq!(scalar(&nested[0].1), ("line 1\nline 2\n", Style::Block));
        assert_eq!(scalar(&nested[1].1), ("folded text", Style::Block));
        assert_eq!(scalar(&nested[2].1), ("", Style::Missing));
        let Node::Seq(items) = &en[5].1 else { panic!() };
        assert_eq!(&text[..*end], &text[..text.find("    z:").unwrap() + 6]);
        assert!(matches!(&items[0], Node::Map { members, column: 6, .. } if members.len() == 2));
        assert_eq!(en[6].1, Node::Opaque);
    }

    #[test]
    fn errors_name_the_line_and_damage_never_panics() {
        assert_eq!(parse("a: 1\nb: 2\na: 3\n").unwrap_err().line, 3);
        let err = parse("a: b\n   c: d\n").unwrap_err();
        assert_eq!(err.line, 2);
        assert_eq!(parse("a: \"open\nb: c\n").unwrap_err().line, 1);
        assert_eq!(parse("a:\n  b\n c: d").unwrap_err().line, 3);
        let sample =
            "en:\n  a: 'x''y'\n  b: \"q\\u00e9\"\n  c: |\n    z\n  - d\n  e: [x, {y: z}]\n";
        let mut state: u64 = 11;
        for _ in 0..5_000 {
            let mut bytes = sample.as_bytes().to_vec();
            for _ in 0..3 {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                let at = (state >> 33) as usize % bytes.len();
                bytes[at] = b"-:'\"\\|>[]{}# \n!&*"[(state >> 13) as usize % 17];
            }
            if let Ok(text) = std::str::from_utf8(&bytes) {
                let _ = parse(text);
            }
        }
        let deep = "- ".repeat(200) + "x";
        assert!(parse(&deep).is_err());
    }
}
