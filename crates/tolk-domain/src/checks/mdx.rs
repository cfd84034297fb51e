//! `safe-mdx` (Weblate 2026, with its flag): the translation holds the
//! source's JSX expressions (`{…}`) in the same order and the same places:
//! in text, inside a tag, or as the value of a named attribute, within the
//! same open elements. Expressions are read as JavaScript (strings,
//! template literals with `${…}`, comments and regular expressions may hold
//! braces); Markdown code spans, autolinks and backslash escapes are text.
//!
//! Positions count characters, as Weblate (Python) counts them.

use std::collections::HashMap;

use super::markdown::{autolinks, code_spans};

/// `safe-mdx`: the JSX expressions of source and translation differ.
pub fn safe_mdx(source: &str, target: &str) -> bool {
    signatures(&chars(source)) != signatures(&chars(target))
}

fn chars(text: &str) -> Vec<char> {
    text.chars().collect()
}

/// Where an expression stands: `text`, `tag` or `attribute`.
#[derive(Debug, PartialEq, Eq)]
struct Signature {
    place: &'static str,
    attribute: String,
    elements: Vec<String>,
    expression: String,
}

/// A tag as [`scan_tag`] reads it.
struct Tag {
    closing: bool,
    name: String,
    self_closing: bool,
    /// The position of its `>`; `None` when it does not end.
    end: Option<usize>,
}

/// The expressions of a text with their places, in order.
fn signatures(c: &[char]) -> Vec<Signature> {
    let autolinks = autolinks(c);
    let spans: HashMap<usize, usize> = code_spans(c, &autolinks)
        .into_iter()
        .map(|span| (span.start, span.end))
        .collect();
    let mut found = Vec::new();
    let mut stack: Vec<String> = Vec::new();
    let mut open: Option<Tag> = None;
    let mut attribute: Option<String> = None;
    let mut quote: Option<char> = None;
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if let Some(tag) = &open {
            if let Some(q) = quote {
                if ch == '\\' {
                    i += 2;
                    continue;
                }
                if ch == q {
                    quote = None;
                }
            } else if ch == '"' || ch == '\'' {
                quote = Some(ch);
            } else if ch == '=' {
                attribute = attribute_before(c, i);
            } else if ch == '{' {
                let Some(close) = expression_end(c, i) else {
                    break;
                };
                let mut elements = stack.clone();
                elements.push(tag.name.clone());
                let (place, attribute) = match attribute.take() {
                    Some(name) => ("attribute", name),
                    None => ("tag", String::new()),
                };
                found.push(Signature {
                    place,
                    attribute,
                    elements,
                    expression: c[i..=close].iter().collect(),
                });
                i = close + 1;
                continue;
            } else if Some(i) == tag.end && ch == '>' {
                if tag.closing {
                    if let Some(at) = stack.iter().rposition(|name| *name == tag.name) {
                        stack.truncate(at);
                    }
                } else if !tag.self_closing {
                    stack.push(tag.name.clone());
                }
                open = None;
                attribute = None;
            }
            i += 1;
            continue;
        }
        match ch {
            '\\' => i += 2,
            '`' => i = past_code(c, i, &spans),
            '<' => {
                if let Some(&end) = autolinks.get(&i) {
                    i = end;
                } else {
                    if let Some(tag) = scan_tag(c, i) {
                        open = Some(tag);
                    }
                    i += 1;
                }
            }
            '{' => {
                let Some(close) = expression_end(c, i) else {
                    break;
                };
                found.push(Signature {
                    place: "text",
                    attribute: String::new(),
                    elements: stack.clone(),
                    expression: c[i..=close].iter().collect(),
                });
                i = close + 1;
            }
            _ => i += 1,
        }
    }
    found
}

/// The name of the attribute whose `=` is at `equals`: the run of name
/// characters before it (white space between allowed), starting with a
/// letter, `_` or `:`.
fn attribute_before(c: &[char], equals: usize) -> Option<String> {
    let mut end = equals;
    while end > 0 && c[end - 1].is_whitespace() {
        end -= 1;
    }
    let mut start = end;
    while start > 0 && (c[start - 1].is_alphanumeric() || "_:.-".contains(c[start - 1])) {
        start -= 1;
    }
    let first = *c.get(start).filter(|_| start < end)?;
    (first.is_alphabetic() || first == '_' || first == ':').then(|| c[start..end].iter().collect())
}

/// A JSX tag opening at `start` (`<name …>` or `</name>`): attributes may
/// hold quoted values and expressions; a `<` inside means no tag.
fn scan_tag(c: &[char], start: usize) -> Option<Tag> {
    if c.get(start) != Some(&'<') || start + 1 >= c.len() {
        return None;
    }
    let mut i = start + 1;
    let closing = c[i] == '/';
    if closing {
        i += 1;
    }
    let first = *c.get(i)?;
    if !(first.is_ascii_alphabetic() || first == '$' || first == '_') {
        return None;
    }
    let name_end = (i + 1..c.len())
        .find(|&j| !(c[j].is_alphanumeric() || "_.$:-".contains(c[j])))
        .unwrap_or(c.len());
    let name: String = c[i..name_end].iter().collect();
    let unended = |name: String| Tag {
        closing,
        name,
        self_closing: false,
        end: None,
    };
    let mut quote: Option<char> = None;
    i = name_end;
    while i < c.len() {
        let ch = c[i];
        if let Some(q) = quote {
            if ch == '\\' {
                i += 1;
            } else if ch == q {
                quote = None;
            }
        } else if ch == '"' || ch == '\'' {
            quote = Some(ch);
        } else if ch == '{' {
            match expression_end(c, i) {
                Some(close) => i = close,
                None => return Some(unended(name)),
            }
        } else if ch == '>' {
            let inner: String = c[start + 1..i].iter().collect();
            let self_closing = !closing && inner.trim_end().ends_with('/');
            return Some(Tag {
                closing,
                name,
                self_closing,
                end: Some(i),
            });
        } else if ch == '<' {
            return None;
        }
        i += 1;
    }
    Some(unended(name))
}

/// What a JavaScript expression's scanner is in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Code,
    Single,
    Double,
    Template,
    LineComment,
    BlockComment,
    Regex,
}

/// The `}` that closes the expression whose `{` is at `start`, if any.
fn expression_end(c: &[char], start: usize) -> Option<usize> {
    let mut depth = 1;
    let mut mode = Mode::Code;
    // What each open `{` returns to when it closes (`${` in a template).
    let mut restore: Vec<Mode> = Vec::new();
    let mut in_class = false;
    let mut previous: Option<char> = None;
    let next_is = |i: usize, ch: char| c.get(i + 1) == Some(&ch);
    let mut i = start + 1;
    while i < c.len() {
        let ch = c[i];
        match mode {
            Mode::Code => {
                match ch {
                    '{' => {
                        depth += 1;
                        restore.push(Mode::Code);
                    }
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i);
                        }
                        mode = restore.pop().unwrap_or(Mode::Code);
                    }
                    '"' => mode = Mode::Double,
                    '\'' => mode = Mode::Single,
                    '`' => mode = Mode::Template,
                    '/' if next_is(i, '/') => {
                        mode = Mode::LineComment;
                        i += 1;
                    }
                    '/' if next_is(i, '*') => {
                        mode = Mode::BlockComment;
                        i += 1;
                    }
                    '/' if previous.is_none_or(|p| "(,=:[{;!&|?+-*%~^>".contains(p)) => {
                        mode = Mode::Regex;
                        in_class = false;
                    }
                    _ => {}
                }
                if !ch.is_whitespace() {
                    previous = Some(ch);
                }
            }
            Mode::Double | Mode::Single => {
                let quote = if mode == Mode::Double { '"' } else { '\'' };
                if ch == '\\' {
                    i += 1;
                } else if ch == quote {
                    mode = Mode::Code;
                    previous = Some(ch);
                }
            }
            Mode::Template => {
                if ch == '\\' {
                    i += 1;
                } else if ch == '`' {
                    mode = Mode::Code;
                    previous = Some(ch);
                } else if ch == '$' && next_is(i, '{') {
                    depth += 1;
                    restore.push(Mode::Template);
                    mode = Mode::Code;
                    i += 1;
                }
            }
            Mode::LineComment => {
                if ch == '\n' {
                    mode = Mode::Code;
                }
            }
            Mode::BlockComment => {
                if ch == '*' && next_is(i, '/') {
                    mode = Mode::Code;
                    i += 1;
                }
            }
            Mode::Regex => {
                if ch == '\\' {
                    i += 1;
                } else if ch == '[' {
                    in_class = true;
                } else if ch == ']' {
                    in_class = false;
                } else if ch == '/' && !in_class {
                    mode = Mode::Code;
                    previous = Some(ch);
                }
            }
        }
        i += 1;
    }
    None
}

/// Past the code span (or the unmatched run of backticks) at `start`.
fn past_code(c: &[char], start: usize, spans: &HashMap<usize, usize>) -> usize {
    if let Some(&end) = spans.get(&start) {
        return end;
    }
    let mut end = start + 1;
    while c.get(end) == Some(&'`') {
        end += 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions_must_keep_their_places() {
        let source = "Hello {name}, see <Link href={url}>docs</Link>";
        assert!(!safe_mdx(
            source,
            "Ahoj {name}, viz <Link href={url}>dokumentaci</Link>"
        ));
        // Another expression, one left out, or one moved into another place.
        assert!(safe_mdx(
            source,
            "Ahoj {user}, viz <Link href={url}>dokumentaci</Link>"
        ));
        assert!(safe_mdx(
            source,
            "Ahoj, viz <Link href={url}>dokumentaci</Link>"
        ));
        assert!(safe_mdx(
            source,
            "Ahoj {name}, viz <Link title={url}>dokumentaci</Link>"
        ));
        assert!(safe_mdx(source, "Ahoj, viz <Link href={url}>{name}</Link>"));
        assert!(!safe_mdx("Plain text", "Prostý text"));
    }

    #[test]
    fn javascript_inside_expressions_may_hold_braces() {
        let found = signatures(&chars(r#"{fmt("}", `a${b}c`, /[}]/)} and {/* } */ x}"#));
        let expressions: Vec<&str> = found.iter().map(|s| s.expression.as_str()).collect();
        assert_eq!(
            expressions,
            [r#"{fmt("}", `a${b}c`, /[}]/)}"#, "{/* } */ x}"]
        );
        assert_eq!(expression_end(&chars("{a / b}"), 0), Some(6));
        assert_eq!(expression_end(&chars("{ never"), 0), None);
    }

    #[test]
    fn code_autolinks_and_escapes_are_text() {
        assert!(!safe_mdx("Use `{x}` here", "Použij `{y}` tady"));
        assert!(!safe_mdx(r"Literal \{x}", r"Doslova \{y}"));
        assert!(!safe_mdx("Mail <a@b.cz>", "Pošta <a@b.cz>"));
        assert!(safe_mdx("Use ``{x}`` here", "Použij {x} tady"));
    }

    #[test]
    fn element_stacks_follow_tags() {
        let found = signatures(&chars("<A><B/>{x}</A>{y}<C {...p}>"));
        let places: Vec<(&str, Vec<&str>)> = found
            .iter()
            .map(|s| (s.place, s.elements.iter().map(String::as_str).collect()))
            .collect();
        assert_eq!(
            places,
            [("text", vec!["A"]), ("text", vec![]), ("tag", vec!["C"])]
        );
        assert_eq!(
            attribute_before(&chars("a data-x ="), 9).as_deref(),
            Some("data-x")
        );
        assert_eq!(attribute_before(&chars("a 1x="), 4), None);
    }

    #[test]
    fn damaged_text_never_panics() {
        for text in super::super::shuffled_texts(
            &[
                "{", "}", "<", ">", "</", "/", "`", "``", "\\", "\"", "'", "${", "/*", "*/", "//",
                "\n", "=", "a", " ",
            ],
            400,
            40,
        ) {
            signatures(&chars(&text));
        }
    }
}
