//! Markdown documents (`markdown`, CommonMark with GitHub's tables):
//! every paragraph, heading (ATX `#` and setext underlines), list item and
//! table cell is a string, inside block quotes and list items too, with its
//! inline markup (`*emphasis*`, `` `code` ``, links) as written. Code
//! (fenced and indented), HTML blocks, front matter and link reference
//! definitions are never translated.
//!
//! A paragraph's lines are one string, its line breaks kept; a translation
//! may break lines too, and they are written with the paragraph's own
//! prefix (a quote's `> `, a list item's indent). Keys, pairing with the
//! template and writing are those of every document (`document`).

use crate::document::{Block, Dialect, DocumentFile};
use crate::edits::utf8;
use crate::error::FormatError;

/// Parses a Markdown document; `name` is used in error messages.
pub fn parse(name: &str, bytes: &[u8]) -> Result<DocumentFile, FormatError> {
    let text = utf8(name, bytes)?;
    Ok(DocumentFile::new(name, text, blocks(text), &MARKDOWN))
}

/// How Markdown translations are checked.
const MARKDOWN: Dialect = Dialect {
    kind: "Markdown",
    check,
};

/// Why `text` cannot stand in `block`: read on its own it must be one
/// paragraph of inline Markdown, and a cell's holds no bare `|`.
fn check(text: &str, block: &Block) -> Option<String> {
    if matches!(block.element.as_str(), "th" | "td") && !pipes(text).is_empty() {
        return Some("a table cell's translation cannot hold an unescaped |".into());
    }
    match blocks(text).as_slice() {
        [only] if only.path == "p" && only.span == (0..text.len()) => None,
        _ => Some(
            "a translation must be one paragraph of inline Markdown \
             (no blank line, heading, list, quote, table, code block or HTML block)"
                .into(),
        ),
    }
}

/// A paragraph being read.
struct Paragraph {
    start: usize,
    end: usize,
    lines: Vec<String>,
    path: String,
    element: &'static str,
    continuation: String,
    quotes: usize,
}

/// The state of the line-by-line reading.
#[derive(Default)]
struct Reader {
    blocks: Vec<Block>,
    paragraph: Option<Paragraph>,
    /// In a fenced code block: its fence character and length.
    fence: Option<(char, usize)>,
    /// In an HTML block, until a blank line.
    html: bool,
    /// In a table's body.
    table: bool,
    /// The column where the current list item's content begins.
    item: Option<usize>,
    /// A blank line came last.
    after_blank: bool,
}

/// Every translatable block of `text`.
fn blocks(text: &str) -> Vec<Block> {
    let mut reader = Reader::default();
    let mut rows = lines(text).peekable();
    // Front matter (YAML between `---` lines at the very start).
    if let Some(&(0, end)) = rows.peek()
        && text[..end].trim_end() == "---"
    {
        let rest: Vec<(usize, usize)> = lines(text).skip(1).collect();
        if let Some(close) = rest
            .iter()
            .position(|&(s, e)| matches!(text[s..e].trim_end(), "---" | "..."))
        {
            for _ in 0..close + 2 {
                rows.next();
            }
        }
    }
    for (start, end) in rows {
        reader.line(text, start, end);
    }
    reader.close();
    reader.blocks
}

/// The lines of `text`: start and end (before `\r\n` or `\n`) offsets.
fn lines(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= text.len() {
            return None;
        }
        let start = at;
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        at = end + 1;
        let end = if text[start..end].ends_with('\r') {
            end - 1
        } else {
            end
        };
        Some((start, end))
    })
}

/// Columns of leading white space (a tab to the next multiple of four)
/// and the bytes they take.
fn indent(line: &str) -> (usize, usize) {
    let mut columns = 0;
    for (i, c) in line.char_indices() {
        match c {
            ' ' => columns += 1,
            '\t' => columns += 4 - columns % 4,
            _ => return (columns, i),
        }
    }
    (columns, line.len())
}

impl Reader {
    fn line(&mut self, text: &str, start: usize, end: usize) {
        let line = &text[start..end];
        // Block quote markers: `>` after at most three spaces, and one space.
        let (mut quotes, mut at) = (0, 0);
        loop {
            let (columns, bytes) = indent(&line[at..]);
            if columns <= 3 && line[at + bytes..].starts_with('>') {
                at += bytes + 1;
                if line[at..].starts_with(' ') {
                    at += 1;
                }
                quotes += 1;
            } else {
                break;
            }
        }
        let content = &line[at..];
        let (columns, bytes) = indent(content);
        let rest = content[bytes..].trim_end();
        let rest_start = start + at + bytes;
        if let Some((fence, length)) = self.fence {
            let closing = rest.chars().take_while(|c| *c == fence).count();
            if closing >= length && rest[closing..].trim().is_empty() {
                self.fence = None;
            }
            return;
        }
        if rest.is_empty() {
            self.close();
            self.html = false;
            self.table = false;
            self.after_blank = true;
            return;
        }
        let after_blank = std::mem::take(&mut self.after_blank);
        if self.html {
            return;
        }
        // A deeper quote begins a new block.
        if self.paragraph.as_ref().is_some_and(|p| quotes > p.quotes) {
            self.close();
        }
        // Out of a list item: a line left of its content after a blank.
        if let Some(item) = self.item
            && columns < item
            && (after_blank || self.paragraph.is_none())
            && list_marker(rest).is_none()
        {
            self.item = None;
        }
        let relative = match self.item {
            Some(item) if columns >= item => columns - item,
            _ => columns,
        };
        if relative >= 4 && self.paragraph.is_none() {
            return; // Indented code.
        }
        if let Some(fence) = fence_start(rest) {
            self.close();
            self.fence = Some(fence);
            return;
        }
        if let Some((level, heading)) = atx_heading(rest) {
            self.close();
            if !heading.is_empty() {
                let offset = rest_start + (heading.as_ptr() as usize - rest.as_ptr() as usize);
                self.push(
                    offset..offset + heading.len(),
                    heading.to_owned(),
                    &format!("h{level}"),
                    quotes,
                    None,
                );
            }
            return;
        }
        if let Some(paragraph) = self.paragraph.as_mut()
            && relative < 4
            && (rest.bytes().all(|b| b == b'=') || rest.bytes().all(|b| b == b'-'))
        {
            // A setext underline makes the paragraph a heading.
            paragraph.element = if rest.starts_with('=') { "h1" } else { "h2" };
            paragraph.path = format!("{}{}", "quote/".repeat(paragraph.quotes), paragraph.element);
            self.close();
            return;
        }
        if thematic_break(rest) {
            self.close();
            return;
        }
        if let Some(paragraph) = &self.paragraph
            && paragraph.lines.len() == 1
            && !pipes(&paragraph.lines[0]).is_empty()
            && delimiter_row(rest)
            && columns_of(&paragraph.lines[0]) == columns_of(rest)
            && let Some(header) = self.paragraph.take()
        {
            self.cells(text, header.start, header.end, "th", quotes);
            self.table = true;
            return;
        }
        if self.table {
            if !pipes(rest).is_empty() {
                self.cells(text, rest_start, rest_start + rest.len(), "td", quotes);
                return;
            }
            self.table = false;
        }
        // A list may interrupt a paragraph only with a bullet or `1.`;
        // inside a list every marker begins an item.
        if let Some((number, width)) = list_marker(rest)
            && (self.paragraph.is_none() || self.item.is_some() || number.is_none_or(|n| n == 1))
        {
            self.close();
            let item = &rest[width..];
            let (spaces, space_bytes) = indent(item);
            // Content indented five or more is code inside the item.
            let (spaces, skip) = if spaces > 4 || item.trim().is_empty() {
                (1, 1.min(item.len()))
            } else {
                (spaces, space_bytes)
            };
            self.item = Some(columns + width + spaces);
            let content = item[skip..].trim_end();
            let lead = content.len() - content.trim_start().len();
            if !content.is_empty() {
                let offset = rest_start + width + skip + lead;
                self.open(offset, &content[lead..], "li", quotes);
            }
            return;
        }
        if self.paragraph.is_none() && (html_block_start(rest) || link_definition(rest)) {
            self.html = html_block_start(rest);
            return;
        }
        match self.paragraph.as_mut() {
            Some(paragraph) => {
                paragraph.end = rest_start + rest.len();
                paragraph.lines.push(rest.to_owned());
            }
            None => {
                let element = if self.item.is_some() { "li/p" } else { "p" };
                self.open(rest_start, rest, element, quotes);
            }
        }
    }

    /// Begins a paragraph (or list item's text) at `start`.
    fn open(&mut self, start: usize, first: &str, element: &'static str, quotes: usize) {
        let mut continuation = "> ".repeat(quotes);
        if let Some(item) = self.item {
            continuation.push_str(&" ".repeat(item));
        }
        self.paragraph = Some(Paragraph {
            start,
            end: start + first.len(),
            lines: vec![first.to_owned()],
            path: format!("{}{element}", "quote/".repeat(quotes)),
            element,
            continuation,
            quotes,
        });
    }

    /// Ends the paragraph being read, if any, as a block.
    fn close(&mut self) {
        if let Some(p) = self.paragraph.take() {
            let element = p.element.rsplit('/').next().unwrap_or(p.element);
            self.blocks.push(Block {
                path: p.path,
                element: element.to_owned(),
                span: p.start..p.end,
                line: 0,
                text: p.lines.join("\n"),
                continuation: if element.starts_with('h') && p.lines.len() == 1 {
                    None
                } else {
                    Some(p.continuation)
                },
            });
        }
    }

    fn push(
        &mut self,
        span: std::ops::Range<usize>,
        text: String,
        element: &str,
        quotes: usize,
        continuation: Option<String>,
    ) {
        self.blocks.push(Block {
            path: format!("{}{element}", "quote/".repeat(quotes)),
            element: element.to_owned(),
            span,
            line: 0,
            text,
            continuation,
        });
    }

    /// The cells of the table row at `start..end` as blocks.
    fn cells(&mut self, text: &str, start: usize, end: usize, element: &str, quotes: usize) {
        for cell in cells(&text[start..end], start) {
            let content = &text[cell.clone()];
            self.push(cell, content.to_owned(), element, quotes, None);
        }
    }
}

/// Where `row` has a `|` outside code spans and not escaped.
fn pipes(row: &str) -> Vec<usize> {
    let mut found = Vec::new();
    let bytes = row.as_bytes();
    let (mut i, mut code) = (0, false);
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'`' => code = !code,
            b'|' if !code => found.push(i),
            _ => {}
        }
        i += 1;
    }
    found
}

/// How many columns a table row has: one more than its pipes, less a
/// leading and a trailing one.
fn columns_of(row: &str) -> usize {
    let row = row.trim();
    let found = pipes(row);
    let mut columns = found.len() + 1;
    if found.first() == Some(&0) {
        columns -= 1;
    }
    if found.last().is_some_and(|&i| i + 1 == row.len()) && row.len() > 1 {
        columns -= 1;
    }
    columns
}

/// The non-empty cells of a table row (`row` starts at `offset`): split
/// at [`pipes`], outer pipes left out, contents trimmed.
fn cells(row: &str, offset: usize) -> Vec<std::ops::Range<usize>> {
    let mut bounds = vec![0];
    bounds.extend(pipes(row));
    bounds.push(row.len());
    bounds
        .windows(2)
        .filter_map(|w| {
            let from = if w[0] == 0 && !row.starts_with('|') {
                0
            } else {
                w[0] + 1
            };
            let cell = row.get(from..w[1])?;
            let trimmed = cell.trim();
            if trimmed.is_empty() {
                return None;
            }
            let lead = cell.len() - cell.trim_start().len();
            let start = offset + from + lead;
            Some(start..start + trimmed.len())
        })
        .collect()
}

/// A code fence opening: its character and length.
fn fence_start(rest: &str) -> Option<(char, usize)> {
    let fence = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let length = rest.chars().take_while(|c| *c == fence).count();
    // A backtick fence's info string holds no backtick (else: inline code).
    (length >= 3 && !(fence == '`' && rest[length..].contains('`'))).then_some((fence, length))
}

/// An ATX heading: its level and text (closing `#`s left out).
fn atx_heading(rest: &str) -> Option<(usize, &str)> {
    let level = rest.bytes().take_while(|b| *b == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let after = &rest[level..];
    if !after.is_empty() && !after.starts_with([' ', '\t']) {
        return None;
    }
    let mut heading = after.trim();
    let closing = heading.trim_end_matches('#');
    if closing.is_empty() || closing.ends_with([' ', '\t']) {
        heading = closing.trim_end();
    }
    Some((level, heading))
}

/// `***`, `---`, `___` (three or more, spaces between allowed).
fn thematic_break(rest: &str) -> bool {
    let Some(mark) = rest.chars().next().filter(|c| matches!(c, '*' | '-' | '_')) else {
        return false;
    };
    rest.chars().all(|c| c == mark || c == ' ' || c == '\t')
        && rest.chars().filter(|c| *c == mark).count() >= 3
}

/// A table's delimiter row, such as `| --- | :-: |`.
fn delimiter_row(rest: &str) -> bool {
    let inner = rest.trim().trim_start_matches('|').trim_end_matches('|');
    !inner.is_empty()
        && inner.split('|').all(|cell| {
            let cell = cell.trim().trim_start_matches(':').trim_end_matches(':');
            !cell.is_empty() && cell.bytes().all(|b| b == b'-')
        })
}

/// A list item's marker (`-`, `*`, `+`, `1.`, `1)`) followed by a space
/// or the line's end: its number when ordered, and its width.
fn list_marker(rest: &str) -> Option<(Option<u32>, usize)> {
    let bytes = rest.as_bytes();
    let (number, width) = match bytes.first()? {
        b'-' | b'*' | b'+' => (None, 1),
        b'0'..=b'9' => {
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            if digits > 9 || !matches!(bytes.get(digits), Some(b'.' | b')')) {
                return None;
            }
            (rest[..digits].parse().ok(), digits + 1)
        }
        _ => return None,
    };
    match bytes.get(width) {
        None | Some(b' ' | b'\t') => Some((number, width)),
        _ => None,
    }
}

/// Whether a line begins an HTML block: a comment, or a block-level tag.
fn html_block_start(rest: &str) -> bool {
    let Some(tag) = rest.strip_prefix('<') else {
        return false;
    };
    if tag.starts_with("!--") || tag.starts_with('?') || tag.starts_with('!') {
        return true;
    }
    let tag = tag.strip_prefix('/').unwrap_or(tag);
    let name: String = tag
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    let after = tag[name.len()..].chars().next();
    !name.is_empty()
        && matches!(after, None | Some(' ' | '>' | '/' | '\t'))
        && crate::html::starts_html_block(&name)
}

/// A link reference definition, `[label]: destination`.
fn link_definition(rest: &str) -> bool {
    rest.starts_with('[')
        && rest
            .find("]:")
            .is_some_and(|i| i > 1 && !rest[i + 2..].trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::translation_file::TranslationFile;

    const README: &str = "---\ntitle: Tolk\n---\n\n# Tolk — *translations* next to the code #\n\nTolk keeps translations\nin Git.\n\n    indented code\n\nSetup\n=====\n\n1. Install it:\n\n   ```sh\n   cargo install tolk\n   ```\n2. Run `tolk serve`.\n   It listens on port 8080.\n\n- one\n- two\n\n  A second paragraph of two.\n\n> Quoted text\n> over two lines.\n>\n> - a quoted item\n\n| Format | Files |\n|--------|:-----:|\n| PO     | `.po` |\n| HTML   | `a\\|b` |\n\n<div>\n<p>HTML block</p>\n</div>\n\n[link]: https://example.com\n\n***\nLast line with a [link].\n";

    fn shape(text: &str) -> Vec<(String, String)> {
        blocks(text).into_iter().map(|b| (b.path, b.text)).collect()
    }

    #[test]
    fn blocks_are_the_strings_a_translator_expects() {
        let expected: Vec<(String, String)> = [
            ("h1", "Tolk — *translations* next to the code"),
            ("p", "Tolk keeps translations\nin Git."),
            ("h1", "Setup"),
            ("li", "Install it:"),
            ("li", "Run `tolk serve`.\nIt listens on port 8080."),
            ("li", "one"),
            ("li", "two"),
            ("li/p", "A second paragraph of two."),
            ("quote/p", "Quoted text\nover two lines."),
            ("quote/li", "a quoted item"),
            ("th", "Format"),
            ("th", "Files"),
            ("td", "PO"),
            ("td", "`.po`"),
            ("td", "HTML"),
            ("td", "`a\\|b`"),
            ("p", "Last line with a [link]."),
        ]
        .iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect();
        assert_eq!(shape(README), expected);
        let file = parse("README.md", README.as_bytes()).unwrap();
        assert_eq!(file.to_bytes().unwrap(), README.as_bytes());
        assert_eq!(file.units()[0].locations, ["README.md:5"]);
    }

    #[test]
    fn translations_keep_the_block_prefixes() {
        let mut file = parse("cs.md", README.as_bytes()).unwrap();
        file.set_translation(8, &["Citovaný text\nna dva řádky.".into()], false)
            .unwrap();
        file.set_translation(
            4,
            &["Spusťte `tolk serve`.\nNaslouchá na 8080.".into()],
            false,
        )
        .unwrap();
        file.set_translation(0, &["Tolk — *překlady* u kódu".into()], false)
            .unwrap();
        file.set_translation(13, &["`.po` soubory".into()], false)
            .unwrap();
        let written = String::from_utf8(file.to_bytes().unwrap()).unwrap();
        assert_eq!(
            written,
            README
                .replace(
                    "> Quoted text\n> over two lines.",
                    "> Citovaný text\n> na dva řádky."
                )
                .replace(
                    "Run `tolk serve`.\n   It listens on port 8080.",
                    "Spusťte `tolk serve`.\n   Naslouchá na 8080."
                )
                .replace(
                    "Tolk — *translations* next to the code",
                    "Tolk — *překlady* u kódu"
                )
                .replace("| `.po` |", "| `.po` soubory |")
        );
        let again = parse("cs.md", written.as_bytes()).unwrap();
        assert_eq!(again.blocks.len(), file.blocks.len());
    }

    #[test]
    fn translations_that_would_make_blocks_are_refused() {
        let mut file = parse("cs.md", README.as_bytes()).unwrap();
        for (index, bad) in [
            (1, "one\n\ntwo"),
            (1, "# heading"),
            (1, "- item"),
            (1, "> quote"),
            (1, "```\ncode\n```"),
            (1, "<div>x</div>"),
            (0, "two\nlines"),
            (12, "a | b"),
        ] {
            assert!(
                file.set_translation(index, &[bad.into()], false).is_err(),
                "{bad:?} accepted"
            );
        }
        assert_eq!(file.to_bytes().unwrap(), README.as_bytes());
        file.set_translation(12, &["a \\| b".into()], false)
            .unwrap();
        file.set_translation(1, &["```inline``` and *more*".into()], false)
            .unwrap();
    }

    #[test]
    fn odd_input_never_panics() {
        for text in [
            "",
            "\n",
            "#",
            "# ",
            "####### seven",
            "-",
            "- ",
            "1.",
            "1)x",
            ">",
            "> >",
            "```",
            "~~~\nunclosed",
            "|",
            "|-|",
            "a|b\n-|-",
            "---",
            "---\nunclosed front",
            "\t\tx",
            "* * *",
            "=\n=",
            "[x]:",
            "<",
            "<div",
            "é|é\n-|-\né|é",
            "> a\nlazy",
            "\r\n\r\n",
        ] {
            let file = parse("x.md", text.as_bytes()).unwrap();
            assert_eq!(file.to_bytes().unwrap(), text.as_bytes());
        }
        assert_eq!(
            shape("> a\nlazy\n"),
            [("quote/p".to_owned(), "a\nlazy".to_owned())]
        );
    }
}
