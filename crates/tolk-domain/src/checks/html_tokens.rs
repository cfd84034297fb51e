//! HTML read as a stream of tags and text, the way Python's standard
//! `html.parser` reads it (which is what Weblate's HTML rules look
//! through): start tags with their attributes (names in lower case,
//! values unquoted and with character references read), end tags, and
//! text with its character references read. Comments, declarations and
//! processing instructions are passed over. Nothing is checked for being
//! well formed: this is a tokenizer, not a tree builder.

/// One thing the reader meets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Token {
    /// `<tag …>`: the tag and its attributes, sorted.
    Start(String, Vec<Attribute>),
    /// `<tag … />`: the tag and its attributes, sorted.
    StartEnd(String, Vec<Attribute>),
    /// `</tag>`.
    End(String),
    /// Text between tags (a stray `<` is text of its own).
    Text(String),
}

/// An attribute of a start tag: its name, and its value when it has one.
pub(super) type Attribute = (String, Option<String>);

/// The tokens of `text`, in order.
pub(super) fn tokens(text: &str) -> Vec<Token> {
    let mut found = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let next = text[at..].find('<').map_or(text.len(), |i| at + i);
        if next > at {
            found.push(Token::Text(unescape(&text[at..next])));
        }
        if next == text.len() {
            break;
        }
        let rest = &text[next..];
        let mut chars = rest.chars().skip(1);
        let (first, second) = (chars.next(), chars.next());
        let end = match (first, second) {
            (Some(c), _) if c.is_ascii_alphabetic() => start_tag(text, next, &mut found),
            (Some('/'), Some(c)) if c.is_ascii_alphabetic() => end_tag(text, next, &mut found),
            _ if rest.starts_with("<!--") => rest.find("-->").map(|i| next + i + 3),
            (Some('!' | '?'), _) => rest.find('>').map(|i| next + i + 1),
            _ => {
                found.push(Token::Text("<".to_owned()));
                Some(next + 1)
            }
        };
        match end {
            Some(end) => at = end,
            None => {
                // Never closed: the rest is text.
                found.push(Token::Text(unescape(rest)));
                break;
            }
        }
    }
    found
}

/// The attributes of every start tag of `text`, each with its tag.
pub(super) fn attributes(text: &str) -> Vec<(String, Attribute)> {
    tokens(text)
        .into_iter()
        .flat_map(|token| match token {
            Token::Start(tag, attributes) | Token::StartEnd(tag, attributes) => attributes
                .into_iter()
                .map(|attribute| (tag.clone(), attribute))
                .collect(),
            Token::End(_) | Token::Text(_) => Vec::new(),
        })
        .collect()
}

/// Reads the start tag at `at` into `found`; where it ends, or `None`
/// when it is never closed. Every character it stops at is ASCII, so it
/// walks the bytes (and never cuts a character); the body of a script or
/// style is text up to its end tag, as HTML reads it.
fn start_tag(text: &str, at: usize, found: &mut Vec<Token>) -> Option<usize> {
    let b = text.as_bytes();
    let is_space = |i: usize| matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0c'));
    let is_one_of = |i: usize, set: &[u8]| b.get(i).is_some_and(|c| set.contains(c));
    let mut i = at + 1;
    while i < b.len() && !is_space(i) && !is_one_of(i, b"/>") {
        i += 1;
    }
    let tag = text[at + 1..i].to_lowercase();
    let mut attributes = Vec::new();
    loop {
        while is_space(i) || (b.get(i) == Some(&b'/') && b.get(i + 1).is_some_and(|c| *c != b'>')) {
            i += 1;
        }
        match b.get(i) {
            None => return None,
            Some(b'>') => {
                let end = i + 1;
                found.push(Token::Start(tag.clone(), sorted(attributes)));
                return Some(raw_text_end(text, &tag, end, found));
            }
            Some(b'/') => {
                found.push(Token::StartEnd(tag, sorted(attributes)));
                return Some(i + 2);
            }
            Some(_) => {}
        }
        let name_start = i;
        i += 1;
        while i < b.len() && !is_space(i) && !is_one_of(i, b"/=>") {
            i += 1;
        }
        let name = text[name_start..i].to_lowercase();
        let mut j = i;
        while is_space(j) {
            j += 1;
        }
        if b.get(j) != Some(&b'=') {
            attributes.push((name, None));
            continue;
        }
        while b.get(j) == Some(&b'=') {
            j += 1;
        }
        while is_space(j) {
            j += 1;
        }
        let value = match b.get(j) {
            Some(&quote @ (b'"' | b'\'')) => {
                let close = j + 1 + text[j + 1..].find(char::from(quote))?;
                i = close + 1;
                &text[j + 1..close]
            }
            _ => {
                i = j;
                while i < b.len() && !is_space(i) && b[i] != b'>' {
                    i += 1;
                }
                &text[j..i]
            }
        };
        attributes.push((name, Some(unescape(value))));
    }
}

/// After the start tag of `tag` ending at `at`: for a script or style,
/// its body (up to its end tag, in any case) as text, and where that
/// end tag starts; `at` otherwise.
fn raw_text_end(text: &str, tag: &str, at: usize, found: &mut Vec<Token>) -> usize {
    if tag != "script" && tag != "style" {
        return at;
    }
    let end = format!("</{tag}");
    let end = text.as_bytes()[at..]
        .windows(end.len())
        .position(|w| w.eq_ignore_ascii_case(end.as_bytes()))
        .map_or(text.len(), |i| at + i);
    if end > at {
        found.push(Token::Text(text[at..end].to_owned()));
    }
    end
}

/// Reads the end tag at `at` into `found`; where it ends, or `None` when
/// it is never closed.
fn end_tag(text: &str, at: usize, found: &mut Vec<Token>) -> Option<usize> {
    let close = at + text[at..].find('>')?;
    let inner = &text[at + 2..close];
    let name_end = inner
        .find(|ch: char| ch.is_whitespace() || ch == '/')
        .unwrap_or(inner.len());
    found.push(Token::End(inner[..name_end].to_lowercase()));
    Some(close + 1)
}

/// Attributes in a fixed order, so that two tags giving the same ones in
/// another order read alike.
fn sorted(mut attributes: Vec<Attribute>) -> Vec<Attribute> {
    attributes.sort();
    attributes
}

/// Text with its character references read (`&amp;`, `&#38;`, `&#x26;`,
/// and the names HTML knows without their semicolon, such as `&copy`).
pub(super) fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let (read, length) = reference(after);
        match read {
            Some(expanded) => out.push_str(&expanded),
            None => out.push('&'),
        }
        rest = &after[length..];
    }
    out.push_str(rest);
    out
}

/// The reference `text` starts with (after its `&`): what it expands to
/// and how many bytes it takes; `(None, 0)` when there is none.
fn reference(text: &str) -> (Option<String>, usize) {
    if let Some(number) = text.strip_prefix('#') {
        let (digits, radix, skip) = match number.strip_prefix(['x', 'X']) {
            Some(hex) => (hex, 16, 2),
            None => (number, 10, 1),
        };
        let length = digits.chars().take_while(|c| c.is_digit(radix)).count();
        if length == 0 {
            return (None, 0);
        }
        let semicolon = usize::from(digits[length..].starts_with(';'));
        let code = u32::from_str_radix(&digits[..length], radix).unwrap_or(u32::MAX);
        let expanded = match code {
            0 | 0xd800..=0xdfff => Some('\u{fffd}'),
            _ => char::from_u32(code).or(Some('\u{fffd}')),
        };
        return (expanded.map(String::from), skip + length + semicolon);
    }
    let name: String = text
        .chars()
        .take_while(|c| !matches!(c, '\t' | '\n' | '\x0c' | ' ' | '<' | '&' | '#' | ';'))
        .take(32)
        .collect();
    let with_semicolon = text[name.len()..].starts_with(';');
    let entity = |key: &str| {
        markup5ever::data::NAMED_ENTITIES
            .get(key)
            .filter(|(first, _)| *first != 0)
            .map(|&(first, second)| {
                [first, second]
                    .into_iter()
                    .filter(|code| *code != 0)
                    .filter_map(char::from_u32)
                    .collect::<String>()
            })
    };
    if with_semicolon && let Some(expanded) = entity(&format!("{name};")) {
        return (Some(expanded), name.len() + 1);
    }
    // The longest known name it starts with (of two characters or more).
    let ends: Vec<usize> = name.char_indices().map(|(i, _)| i).skip(2).collect();
    for end in ends.into_iter().chain([name.len()]).rev() {
        if let Some(expanded) = entity(&name[..end]) {
            return (Some(expanded), end);
        }
    }
    (None, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(tag: &str, attributes: &[(&str, Option<&str>)]) -> Token {
        Token::Start(
            tag.to_owned(),
            attributes
                .iter()
                .map(|(n, v)| ((*n).to_owned(), v.map(str::to_owned)))
                .collect(),
        )
    }

    fn text(t: &str) -> Token {
        Token::Text(t.to_owned())
    }

    #[test]
    fn tags_attributes_and_text_are_read_as_python_reads_them() {
        assert_eq!(
            tokens(r#"Hi <A Href='x&amp;y' data-x=1 hidden>there</a><br/> &copy 2 &lt;3"#),
            [
                text("Hi "),
                start(
                    "a",
                    &[
                        ("data-x", Some("1")),
                        ("hidden", None),
                        ("href", Some("x&y"))
                    ]
                ),
                text("there"),
                Token::End("a".into()),
                Token::StartEnd("br".into(), Vec::new()),
                text(" © 2 <3"),
            ]
        );
        // A stray `<` is text of its own; comments are passed over.
        assert_eq!(
            tokens("a <3 b<!-- c --><?x?>"),
            [text("a "), text("<"), text("3 b")]
        );
        assert_eq!(tokens("x <b"), [text("x "), text("<b")]);
        // A script's body is text, whatever it holds.
        assert_eq!(
            tokens("<script>a<b>&amp;</SCRIPT>c"),
            [
                start("script", &[]),
                text("a<b>&amp;"),
                Token::End("script".into()),
                text("c")
            ]
        );
        assert_eq!(
            unescape("&#x26;&#38&amp;&ampx&unknown;&"),
            "&&&&x&unknown;&"
        );
    }

    #[test]
    fn attributes_name_their_tags() {
        assert_eq!(
            attributes(r#"<a href="{url}">x</a><img src=y alt>"#),
            [
                (
                    "a".to_owned(),
                    ("href".to_owned(), Some("{url}".to_owned()))
                ),
                ("img".to_owned(), ("alt".to_owned(), None)),
                ("img".to_owned(), ("src".to_owned(), Some("y".to_owned()))),
            ]
        );
    }

    #[test]
    fn damaged_markup_never_panics() {
        for text in [
            "<",
            "<a",
            "<a b='",
            "</",
            "</a",
            "&#",
            "&#x",
            "<a =>",
            "<é ü=ö>",
            "&#99999999999;",
        ] {
            let _ = tokens(text);
        }
    }
}
