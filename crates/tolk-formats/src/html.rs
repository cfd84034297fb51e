//! HTML documents (`html`): every run of text between block boundaries
//! (a paragraph, a heading, a list item, a table cell, the text of a
//! `<div>` around its blocks, the title) is a string, with its inline
//! markup (`<a>`, `<em>`, `<code>`, entities) kept as written. Scripts,
//! styles, SVG and templates are never translated; attributes (`alt`,
//! `title`) are not read.
//!
//! Keys, pairing with the template and writing are those of every
//! document (`document`). HTML is read as browsers read it where
//! it matters here: unclosed `<p>`, `<li>`, `<td>` and their kin end where
//! the next block begins.

use std::collections::HashMap;
use std::ops::Range;

use crate::document::{Block, Dialect, DocumentFile};
use crate::edits::utf8;
use crate::error::FormatError;

/// Block-level elements: their start and end split the text into strings.
const BLOCKS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "caption",
    "dd",
    "details",
    "dialog",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "html",
    "legend",
    "li",
    "main",
    "nav",
    "ol",
    "optgroup",
    "option",
    "p",
    "pre",
    "section",
    "select",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "ul",
];

/// Elements whose content is never translated (skipped whole).
const OPAQUE: &[&str] = &[
    "script", "style", "svg", "math", "template", "noscript", "textarea",
];

/// Whether an element of this (lower-case) name is a block of HTML, so
/// that a line of another format starting with it starts HTML.
pub(crate) fn starts_html_block(name: &str) -> bool {
    BLOCKS.contains(&name) || OPAQUE.contains(&name) || name == "hr"
}

/// Parses an HTML document; `name` is used in error messages.
pub fn parse(name: &str, bytes: &[u8]) -> Result<DocumentFile, FormatError> {
    let text = utf8(name, bytes)?;
    let blocks = Scanner::new(text).blocks();
    Ok(DocumentFile::new(name, text, blocks, &HTML))
}

/// How HTML translations are checked and written.
const HTML: Dialect = Dialect {
    kind: "HTML",
    check: |text, _| structure_problem(text),
};

/// Why a translation cannot go into a block: it would open or close a
/// block, hide text in an opaque element or leave a comment open.
fn structure_problem(text: &str) -> Option<String> {
    let mut scanner = Scanner::new(text);
    while let Some(token) = scanner.next_token() {
        match token {
            Token::Start { name, .. } | Token::End { name, .. }
                if BLOCKS.contains(&name.as_str()) || OPAQUE.contains(&name.as_str()) =>
            {
                return Some(format!(
                    "a translation may hold inline markup only, not <{name}>"
                ));
            }
            Token::Unclosed => return Some("a translation leaves a comment or tag open".into()),
            _ => {}
        }
    }
    None
}

/// A piece of HTML markup.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    /// Text up to the next markup.
    Text,
    /// A start tag, lower-cased name; `at` is its `<`, `end` after its `>`.
    Start {
        name: String,
        at: usize,
        end: usize,
        closed: bool,
    },
    /// An end tag.
    End { name: String, at: usize, end: usize },
    /// A comment, doctype or processing instruction.
    Other,
    /// Markup that runs to the end of the input.
    Unclosed,
}

/// Reads tokens and the document's blocks.
struct Scanner<'a> {
    text: &'a str,
    at: usize,
}

/// An open block element.
struct Open {
    name: String,
    path: String,
    /// Where its current run of inline content began.
    run_start: usize,
    /// How many runs it had so far.
    runs: usize,
    /// Block children seen, by name, to number them.
    children: HashMap<String, usize>,
    /// Inside a `<pre>`: white space is kept.
    pre: bool,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Scanner { text, at: 0 }
    }

    fn next_token(&mut self) -> Option<Token> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        if start >= bytes.len() {
            return None;
        }
        if bytes[start] != b'<' || !self.markup_at(start) {
            // A `<` that starts no markup is one byte of text.
            let from = start + usize::from(bytes[start] == b'<');
            let next = self.text[from..]
                .find('<')
                .map_or(bytes.len(), |i| from + i);
            self.at = next;
            return Some(Token::Text);
        }
        let rest = &self.text[start..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            return Some(match comment.find("-->") {
                Some(i) => {
                    self.at = start + 4 + i + 3;
                    Token::Other
                }
                None => {
                    self.at = bytes.len();
                    Token::Unclosed
                }
            });
        }
        if rest.starts_with("<!") || rest.starts_with("<?") {
            return Some(match rest.find('>') {
                Some(i) => {
                    self.at = start + i + 1;
                    Token::Other
                }
                None => {
                    self.at = bytes.len();
                    Token::Unclosed
                }
            });
        }
        let closing = rest.as_bytes()[1] == b'/';
        let name_start = start + if closing { 2 } else { 1 };
        let name_end = self.text[name_start..]
            .find(|c: char| c.is_ascii_whitespace() || c == '/' || c == '>')
            .map_or(bytes.len(), |i| name_start + i);
        let name = self.text[name_start..name_end].to_ascii_lowercase();
        // The end of the tag: the first `>` outside quoted attribute
        // values (a quote opens a value only right after `=`).
        let mut quote = None;
        let mut after_equals = false;
        let mut end = None;
        for (i, b) in bytes.iter().enumerate().skip(name_end) {
            match (quote, *b) {
                (Some(q), b) if b == q => quote = None,
                (Some(_), _) => {}
                (None, b'"' | b'\'') if after_equals => quote = Some(*b),
                (None, b'>') => {
                    end = Some(i + 1);
                    break;
                }
                (None, b) if b.is_ascii_whitespace() => continue,
                _ => {}
            }
            after_equals = bytes[i] == b'=';
        }
        let Some(end) = end else {
            self.at = bytes.len();
            return Some(Token::Unclosed);
        };
        self.at = end;
        Some(if closing {
            Token::End {
                name,
                at: start,
                end,
            }
        } else {
            Token::Start {
                closed: bytes[end - 2] == b'/',
                name,
                at: start,
                end,
            }
        })
    }

    /// Whether the `<` at `i` starts markup (a letter, `/` and a letter,
    /// `!` or `?`); otherwise it is text.
    fn markup_at(&self, i: usize) -> bool {
        let bytes = self.text.as_bytes();
        match bytes.get(i + 1) {
            Some(b) if b.is_ascii_alphabetic() || *b == b'!' || *b == b'?' => true,
            Some(b'/') => bytes.get(i + 2).is_some_and(u8::is_ascii_alphabetic),
            _ => false,
        }
    }

    /// Skips the content of an opaque element up to its end tag; the
    /// position after it.
    fn skip_opaque(&mut self, name: &str) -> usize {
        let bytes = self.text.as_bytes();
        let closer = self.text[self.at..].match_indices("</").find(|(i, _)| {
            let from = self.at + i + 2;
            bytes
                .get(from..from + name.len())
                .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()))
        });
        self.at = match closer {
            Some((i, _)) => {
                let from = self.at + i;
                self.text[from..]
                    .find('>')
                    .map_or(self.text.len(), |j| from + j + 1)
            }
            None => self.text.len(),
        };
        self.at
    }

    /// Every translatable run of the document, in document order.
    fn blocks(mut self) -> Vec<Block> {
        let mut blocks = Vec::new();
        let mut stack = vec![Open {
            name: String::new(),
            path: String::new(),
            run_start: 0,
            runs: 0,
            children: HashMap::new(),
            pre: false,
        }];
        while let Some(token) = self.next_token() {
            match token {
                Token::Start {
                    name,
                    at,
                    end,
                    closed,
                } if BLOCKS.contains(&name.as_str()) => {
                    self.close_implied(&mut stack, &name, at, &mut blocks);
                    let Some(parent) = stack.last_mut() else {
                        break;
                    };
                    self.end_run(parent, at, &mut blocks);
                    parent.runs += 1;
                    let n = parent.children.entry(name.clone()).or_insert(0);
                    *n += 1;
                    let path = if parent.path.is_empty() {
                        format!("{name}[{n}]")
                    } else {
                        format!("{}/{name}[{n}]", parent.path)
                    };
                    let pre = parent.pre || name == "pre";
                    if closed {
                        parent.run_start = end;
                    } else {
                        stack.push(Open {
                            name,
                            path,
                            run_start: end,
                            runs: 0,
                            children: HashMap::new(),
                            pre,
                        });
                    }
                }
                Token::Start {
                    name, at, closed, ..
                } if OPAQUE.contains(&name.as_str()) || name == "hr" => {
                    self.close_implied(&mut stack, &name, at, &mut blocks);
                    let Some(parent) = stack.last_mut() else {
                        break;
                    };
                    self.end_run(parent, at, &mut blocks);
                    parent.runs += 1;
                    parent.run_start = if closed || name == "hr" {
                        self.at
                    } else {
                        self.skip_opaque(&name)
                    };
                }
                Token::End { name, at, end } if BLOCKS.contains(&name.as_str()) => {
                    let Some(depth) = stack.iter().rposition(|o| o.name == name) else {
                        continue; // A stray end tag.
                    };
                    if depth == 0 {
                        continue;
                    }
                    while stack.len() > depth
                        && let Some(open) = stack.pop()
                    {
                        self.end_run(&open, at, &mut blocks);
                        if let Some(parent) = stack.last_mut() {
                            parent.run_start = at;
                        }
                    }
                    if let Some(parent) = stack.last_mut() {
                        parent.run_start = end;
                    }
                }
                _ => {}
            }
        }
        let end = self.text.len();
        while let Some(open) = stack.pop() {
            self.end_run(&open, end, &mut blocks);
            if let Some(parent) = stack.last_mut() {
                parent.run_start = end;
            }
        }
        blocks
    }

    /// Ends the open elements that a start tag of `next` at `at` closes.
    fn close_implied(&self, stack: &mut Vec<Open>, next: &str, at: usize, blocks: &mut Vec<Block>) {
        while stack.len() > 1
            && closes(&stack[stack.len() - 1].name, next)
            && let Some(open) = stack.pop()
        {
            self.end_run(&open, at, blocks);
            if let Some(parent) = stack.last_mut() {
                parent.run_start = at;
            }
        }
    }

    /// Records the run of `open` that ends at `end`, if it has text.
    fn end_run(&self, open: &Open, end: usize, blocks: &mut Vec<Block>) {
        let span = without_edges(self.text, open.run_start.min(end)..end);
        let trimmed = &self.text[span.clone()];
        if trimmed.is_empty() || !has_text(trimmed) {
            return;
        }
        let start = span.start;
        let text = if open.pre {
            trimmed.to_owned()
        } else {
            trimmed.split_whitespace().collect::<Vec<_>>().join(" ")
        };
        let path = if open.runs == 0 {
            open.path.clone()
        } else {
            format!("{}#{}", open.path, open.runs + 1)
        };
        blocks.push(Block {
            path,
            element: if open.name.is_empty() {
                "text".into()
            } else {
                open.name.clone()
            },
            span: start..start + trimmed.len(),
            line: 0,
            text,
            // Line breaks are white space in HTML.
            continuation: Some(String::new()),
        });
    }
}

/// `span` of `text` without white space and comments at either end.
fn without_edges(text: &str, mut span: Range<usize>) -> Range<usize> {
    loop {
        let part = &text[span.clone()];
        let start = span.start + (part.len() - part.trim_start().len());
        let end = span.start + part.trim_end().len();
        span = start..end.max(start);
        let part = &text[span.clone()];
        if let Some(rest) = part.strip_prefix("<!--")
            && let Some(i) = rest.find("-->")
        {
            span.start += 4 + i + 3;
            continue;
        }
        if let Some(body) = part.strip_suffix("-->")
            && let Some(i) = body.rfind("<!--")
            && !body[i + 4..].contains("-->")
        {
            span.end = span.start + i;
            continue;
        }
        return span;
    }
}

/// Whether a start tag of `next` ends the open element `open`, as HTML's
/// optional end tags go.
fn closes(open: &str, next: &str) -> bool {
    match open {
        "p" => {
            (BLOCKS.contains(&next) && !matches!(next, "html" | "head" | "body" | "title"))
                || next == "hr"
        }
        "li" => next == "li",
        "dt" | "dd" => matches!(next, "dt" | "dd"),
        "td" | "th" => matches!(next, "td" | "th" | "tr" | "thead" | "tbody" | "tfoot"),
        "tr" => matches!(next, "tr" | "thead" | "tbody" | "tfoot"),
        "thead" | "tbody" => matches!(next, "tbody" | "tfoot"),
        "option" => matches!(next, "option" | "optgroup"),
        "head" => next == "body",
        _ => false,
    }
}

/// Whether markup holds text outside its tags and comments.
fn has_text(markup: &str) -> bool {
    let mut scanner = Scanner::new(markup);
    let mut from = 0;
    while let Some(token) = scanner.next_token() {
        if token == Token::Text && !markup[from..scanner.at].trim().is_empty() {
            return true;
        }
        from = scanner.at;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Paired;
    use crate::translation_file::TranslationFile;
    use crate::unit::{State, Unit};

    const PAGE: &str = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n  <meta charset=\"utf-8\">\n  <title>Tolk &amp; friends</title>\n  <style>p { color: red }</style>\n</head>\n<body>\n  <h1>Welcome</h1>\n  <!-- <p>not this</p> -->\n  <p>Translate <a href=\"/docs?a=1&b=2\" title=\"x > y\">the\n     documentation</a>, one paragraph at a time.\n  <p>Second paragraph.</p>\n  <ul>\n    <li>First\n    <li>Second <em>item</em>\n  </ul>\n  <div>Intro text\n    <p>Inside</p>\n    tail text\n  </div>\n  <script>document.write(\"<p>no</p>\")</script>\n  <pre>  keep   this\n  as is</pre>\n  <p>Second paragraph.</p>\n  <p>1 < 2</p>\n</body>\n</html>\n";

    fn shape(file: &DocumentFile) -> Vec<(String, String, String)> {
        file.blocks
            .iter()
            .zip(&file.keys)
            .map(|(b, k)| {
                (
                    b.path.clone(),
                    k.split(':').next().unwrap().to_owned(),
                    b.text.clone(),
                )
            })
            .collect()
    }

    #[test]
    fn blocks_are_the_runs_between_block_boundaries() {
        let file = parse("en.html", PAGE.as_bytes()).unwrap();
        let seen: Vec<(String, String)> = shape(&file)
            .into_iter()
            .map(|(path, _, text)| (path, text))
            .collect();
        let expected: Vec<(String, String)> = [
            ("html[1]/head[1]/title[1]", "Tolk &amp; friends"),
            ("html[1]/body[1]/h1[1]", "Welcome"),
            (
                "html[1]/body[1]/p[1]",
                "Translate <a href=\"/docs?a=1&b=2\" title=\"x > y\">the documentation</a>, one paragraph at a time.",
            ),
            ("html[1]/body[1]/p[2]", "Second paragraph."),
            ("html[1]/body[1]/ul[1]/li[1]", "First"),
            ("html[1]/body[1]/ul[1]/li[2]", "Second <em>item</em>"),
            ("html[1]/body[1]/div[1]", "Intro text"),
            ("html[1]/body[1]/div[1]/p[1]", "Inside"),
            ("html[1]/body[1]/div[1]#2", "tail text"),
            ("html[1]/body[1]/pre[1]", "keep   this\n  as is"),
            ("html[1]/body[1]/p[3]", "Second paragraph."),
            ("html[1]/body[1]/p[4]", "1 < 2"),
        ]
        .iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect();
        assert_eq!(seen, expected);
        let keys = &file.keys;
        assert!(keys[0].starts_with("title:"));
        assert_eq!(keys[10], format!("{}/2", keys[3]), "a repeat is numbered");
        assert_eq!(file.to_bytes().unwrap(), PAGE.as_bytes());
    }

    #[test]
    fn a_translation_fills_the_template_and_reads_back() {
        let mut template = parse("en.html", PAGE.as_bytes()).unwrap();
        let units = template.units();
        template
            .set_translation(1, &["Vítejte".into()], false)
            .unwrap();
        template
            .set_translation(5, &["Druhá <em>položka</em>".into()], false)
            .unwrap();
        template
            .set_translation(3, &[String::new()], false)
            .unwrap();
        let written = String::from_utf8(template.to_bytes().unwrap()).unwrap();
        assert_eq!(
            written,
            PAGE.replace("<h1>Welcome</h1>", "<h1>Vítejte</h1>")
                .replace("Second <em>item</em>", "Druhá <em>položka</em>")
        );
        let template = parse("en.html", PAGE.as_bytes()).unwrap();
        let translated = parse("cs.html", written.as_bytes()).unwrap();
        let Paired::Units(paired) = template.pair(&translated) else {
            panic!("same structure");
        };
        assert_eq!(paired.len(), units.len());
        let read: Vec<(&str, &str, State)> = paired
            .iter()
            .map(|u| (u.context.as_str(), u.target[0].as_str(), u.state))
            .collect();
        assert_eq!(
            read[1],
            (units[1].context.as_str(), "Vítejte", State::Translated)
        );
        assert_eq!(read[5].1, "Druhá <em>položka</em>");
        assert_eq!(
            read[3],
            (units[3].context.as_str(), "", State::Untranslated)
        );

        let restructured = parse("cs.html", "<p>Jiný</p><p>dokument</p>".as_bytes()).unwrap();
        let Paired::Stale(stale) = template.pair(&restructured) else {
            panic!("another structure");
        };
        assert_eq!(stale.len(), units.len());
        assert!(stale.iter().all(|u| u.state == State::Untranslated));
    }

    #[test]
    fn translations_may_hold_inline_markup_only() {
        let mut file = parse("en.html", PAGE.as_bytes()).unwrap();
        for bad in [
            "a</p><p>b",
            "<div>x</div>",
            "x <!-- open",
            "<script>x()</script>",
        ] {
            let error = file.set_translation(2, &[bad.into()], false).unwrap_err();
            assert_eq!(error.line, 11, "{bad}: {error}");
        }
        assert!(file.add_unit(&Unit::keyed("k", "v", vec![])).is_err());
        assert_eq!(file.to_bytes().unwrap(), PAGE.as_bytes());
    }

    #[test]
    fn keys_follow_text_not_position() {
        let before = parse("en.html", b"<p>One</p><p>Two</p>").unwrap();
        let after = parse("en.html", b"<p>New</p><p>One</p><h2>Two</h2>").unwrap();
        assert_eq!(after.keys[1], before.keys[0]);
        assert_ne!(
            after.keys[2], before.keys[1],
            "another element, another key"
        );
    }

    #[test]
    fn broken_markup_never_panics() {
        for text in [
            "",
            "<",
            "</",
            "<p",
            "<p>",
            "<p>text",
            "</p>text",
            "<!--",
            "<!",
            "<a href=\"x>y",
            "<p>a<li>b</ul></p>",
            "<script>",
            "<pre>x",
            "<\u{e9}>",
            "<p>é</p>é<",
            "<>",
            "< p>",
            "<table><tr><td>a<td>b<tr><td>c</table>",
            "<html><body>only</body>",
        ] {
            let file = parse("x.html", text.as_bytes()).unwrap();
            assert_eq!(file.to_bytes().unwrap(), text.as_bytes());
            for unit in file.units() {
                assert!(!unit.source[0].is_empty());
            }
        }
        let table = parse("t.html", b"<table><tr><td>a<td>b<tr><td>c</table>").unwrap();
        let texts: Vec<&str> = table.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(texts, ["a", "b", "c"]);
        assert!(parse("x.html", b"\xff").is_err());
    }
}
