//! The Fluent inner-HTML checks (Weblate's `fluent-source-inner-html` and
//! `fluent-target-inner-html`, each turned on by its flag): a Fluent
//! string's value, in each of its variants (one choice in each select
//! expression), written back as Fluent writes it with its string and
//! number literals spelled out, must be simple HTML that an `innerHTML`
//! assignment keeps whole, and a translation must hold the same elements
//! as its source.
//!
//! Simple HTML: tags of ASCII letters, digits and `-`; attributes with
//! quoted values, named once each; every element closed in order, void
//! elements (`<br>`) never closed and others never self-closed; no
//! comments, doctypes or processing instructions; no `<` or `&` right
//! before a reference (`<{ $tag }`); character references spelled with a
//! semicolon and known, and `&` followed by letters only where it cannot
//! be read as one.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use fluent_syntax::ast::{Expression, InlineExpression, Pattern, PatternElement};
use regex::Regex;

use super::fixed_regex::fixed_regex;

use super::Flags;
use super::fluent::{Read, read, select};

/// How many variants of a string are written out and read; past this the
/// string is not judged.
const MAX_VARIANTS: usize = 256;

/// Elements that have no content and take no end tag.
const VOID_ELEMENTS: [&str; 13] = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

/// `fluent-source-inner-html`: whether some variant of the string's value
/// is no simple HTML.
pub fn source_fails(text: &str, key: &str, flags: &Flags) -> bool {
    matches!(variants(text, key, flags), Some(Err(())))
}

/// `fluent-target-inner-html`: whether some variant of the translation's
/// value is no simple HTML, or (where every variant of the source's value
/// is) the variants of both do not hold the same elements: each variant
/// of one must hold, in any order, the elements (by tag, attributes and
/// enclosing elements) of some variant of the other, as many times.
pub fn target_fails(source: &str, target: &str, key: &str, flags: &Flags) -> bool {
    let Some(found) = variants(target, key, flags) else {
        return false;
    };
    let Ok(found) = found else {
        return true;
    };
    match variants(source, key, flags) {
        Some(Ok(expected)) => expected != found,
        _ => false,
    }
}

/// An element: a digest of its tag and attributes and of those of the
/// elements around it, so that deep nesting costs no more than shallow.
type Element = u128;

/// How many times each element occurs in one variant.
type Elements = BTreeMap<Element, usize>;

/// The digest of an element of `tag` and `attributes` inside `parent`.
fn element(parent: Element, tag: &str, attributes: &BTreeMap<String, String>) -> Element {
    use std::hash::Hasher;
    let mut hasher = siphasher::sip128::SipHasher13::new();
    hasher.write_u128(parent);
    for text in std::iter::once(tag).chain(
        attributes
            .iter()
            .flat_map(|(n, v)| [n.as_str(), v.as_str()]),
    ) {
        hasher.write_usize(text.len());
        hasher.write(text.as_bytes());
    }
    siphasher::sip128::Hasher128::finish128(&hasher).as_u128()
}

/// The distinct elements of the variants of a string's value: `None`
/// when there is nothing to judge (no value, invalid Fluent, too many
/// variants), an error when a variant is no simple HTML.
fn variants(text: &str, key: &str, flags: &Flags) -> Option<Result<BTreeSet<Elements>, ()>> {
    let mut holder = String::new();
    let Read::Parts(parts) = read(text, &mut holder, key, flags) else {
        return None;
    };
    let (_, value) = parts.iter().find(|(name, _)| name.is_empty())?;
    let mut found = BTreeSet::new();
    for flat in flatten(value)? {
        match elements(&written(&flat)) {
            Ok(elements) => {
                found.insert(elements);
            }
            Err(()) => return Some(Err(())),
        }
    }
    Some(Ok(found))
}

/// A piece of a pattern without select expressions.
#[derive(Clone, Copy)]
enum Piece<'a, 's> {
    Text(&'s str),
    Placeable(&'a Expression<&'s str>),
}

/// Every variant of a pattern: its pieces with one variant chosen in each
/// select expression; `None` past [`MAX_VARIANTS`].
fn flatten<'a, 's>(pattern: &'a Pattern<&'s str>) -> Option<Vec<Vec<Piece<'a, 's>>>> {
    let mut found: Vec<Vec<Piece<'a, 's>>> = vec![Vec::new()];
    for element in &pattern.elements {
        let choices: Vec<Vec<Piece<'a, 's>>> = match element {
            PatternElement::TextElement { value } => vec![vec![Piece::Text(value)]],
            PatternElement::Placeable { expression } => match select(expression) {
                Some((_, variants)) => {
                    let mut choices = Vec::new();
                    for variant in variants {
                        choices.extend(flatten(&variant.value)?);
                    }
                    choices
                }
                None => vec![vec![Piece::Placeable(expression)]],
            },
        };
        if found.len() * choices.len() > MAX_VARIANTS {
            return None;
        }
        found = found
            .iter()
            .flat_map(|so_far| {
                choices.iter().map(move |choice| {
                    let mut joined = so_far.clone();
                    joined.extend(choice.iter().copied());
                    joined
                })
            })
            .collect();
    }
    Some(found)
}

/// A variant as Weblate reads it: written as Fluent's serializer writes
/// a message's value (on a line of its own when it has several), without
/// the message, its shared indentation taken off, its literals spelled
/// out. (A leading `[`, `.` or `*` is written as a literal, which does
/// not change the text once literals are spelled out.)
fn written(pieces: &[Piece<'_, '_>]) -> Spelled {
    let content: String = pieces
        .iter()
        .map(|piece| match piece {
            Piece::Text(text) => (*text).to_owned(),
            Piece::Placeable(expression) => placeable(expression),
        })
        .collect();
    let content = indent_lines(&content);
    let multiline = pieces
        .iter()
        .any(|p| matches!(p, Piece::Text(t) if t.contains('\n')));
    let text = if multiline {
        format!("    {content}")
    } else {
        content
    };
    literals_spelled(&dedent(&text))
}

/// A placeable as Fluent's serializer writes it.
fn placeable(expression: &Expression<&str>) -> String {
    match expression {
        Expression::Inline(InlineExpression::Placeable { expression }) => {
            format!("{{{}}}", placeable(expression))
        }
        Expression::Select { selector, variants } => {
            let mut out = format!("{} ->", inline(selector));
            for variant in variants {
                let key = match &variant.key {
                    fluent_syntax::ast::VariantKey::Identifier { name } => *name,
                    fluent_syntax::ast::VariantKey::NumberLiteral { value } => *value,
                };
                let mark = if variant.default { "   *" } else { "    " };
                out.push_str(&format!(
                    "\n{mark}[{key}]{}",
                    indent_lines(&pattern(&variant.value))
                ));
            }
            format!("{{ {out}\n}}")
        }
        Expression::Inline(inner) => format!("{{ {} }}", inline(inner)),
    }
}

/// A pattern as Fluent's serializer writes it after `=` or a variant key.
fn pattern(value: &Pattern<&str>) -> String {
    let content: String = value
        .elements
        .iter()
        .map(|element| match element {
            PatternElement::TextElement { value } => (*value).to_owned(),
            PatternElement::Placeable { expression } => placeable(expression),
        })
        .collect();
    let content = indent_lines(&content);
    let multiline = value.elements.iter().any(|element| match element {
        PatternElement::TextElement { value } => value.contains('\n'),
        PatternElement::Placeable { expression } => matches!(expression, Expression::Select { .. }),
    });
    // A leading `[`, `.` or `*` is written as a literal placeable first,
    // so a pattern of several lines always starts on a line of its own.
    if multiline {
        format!("\n    {content}")
    } else {
        format!(" {content}")
    }
}

fn inline(expression: &InlineExpression<&str>) -> String {
    match expression {
        InlineExpression::StringLiteral { value } => format!("\"{value}\""),
        InlineExpression::NumberLiteral { value } => (*value).to_owned(),
        InlineExpression::VariableReference { id } => format!("${}", id.name),
        InlineExpression::MessageReference { id, attribute } => match attribute {
            Some(attribute) => format!("{}.{}", id.name, attribute.name),
            None => id.name.to_owned(),
        },
        InlineExpression::TermReference {
            id,
            attribute,
            arguments,
        } => {
            let mut out = format!("-{}", id.name);
            if let Some(attribute) = attribute {
                out.push('.');
                out.push_str(attribute.name);
            }
            if let Some(arguments) = arguments {
                out.push_str(&call(arguments));
            }
            out
        }
        InlineExpression::FunctionReference { id, arguments } => {
            format!("{}{}", id.name, call(arguments))
        }
        InlineExpression::Placeable { expression } => placeable(expression),
    }
}

fn call(arguments: &fluent_syntax::ast::CallArguments<&str>) -> String {
    let positional: Vec<String> = arguments.positional.iter().map(inline).collect();
    let named: Vec<String> = arguments
        .named
        .iter()
        .map(|a| format!("{}: {}", a.name.name, inline(&a.value)))
        .collect();
    format!("({})", [positional, named].concat().join(", "))
}

/// Four spaces after every line break but a last one, line breaks as
/// Python counts them.
fn indent_lines(content: &str) -> String {
    let mut out = String::with_capacity(content.len());
    let mut chars = content.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        let breaks = match c {
            '\r' => chars.peek() != Some(&'\n'),
            '\n' | '\u{b}' | '\u{c}' | '\u{1c}' | '\u{1d}' | '\u{1e}' | '\u{85}' | '\u{2028}'
            | '\u{2029}' => true,
            _ => false,
        };
        if breaks && chars.peek().is_some() {
            out.push_str("    ");
        }
    }
    out
}

/// The text with the leading blanks all its lines share taken off, and
/// lines of blanks only emptied (Python's `textwrap.dedent`).
fn dedent(text: &str) -> String {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|line| {
            if !line.is_empty() && line.chars().all(|c| c == ' ' || c == '\t') {
                ""
            } else {
                line
            }
        })
        .collect();
    let mut margin: Option<&str> = None;
    for line in &lines {
        let rest = line.trim_start_matches([' ', '\t']);
        if rest.is_empty() {
            continue;
        }
        let indent = &line[..line.len() - rest.len()];
        margin = Some(match margin {
            None => indent,
            Some(m) => {
                let shared = m
                    .bytes()
                    .zip(indent.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                &m[..shared]
            }
        });
    }
    let margin = margin.unwrap_or("");
    lines
        .iter()
        .map(|line| line.strip_prefix(margin).unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A written variant with the placeables of a string or number literal
/// replaced by the literal's text, and where those texts are.
struct Spelled {
    text: String,
    literals: Vec<(usize, usize)>,
}

/// Placeables of one string or number literal, perhaps within braces.
static LITERAL_PLACEABLE: LazyLock<Regex> = LazyLock::new(|| {
    let blank = r"(?: |\n|\r\n)*";
    let escaped = r#"(?:\\\\|\\"|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{6})"#;
    fixed_regex(&format!(
        r#"(?:\{{{blank})+(?:(?P<string>"(?:{escaped}|[^"\\])*")|(?P<number>-?[0-9]+(?:\.[0-9]+)?))(?:{blank}\}})+"#
    ))
});

/// An escape in a string literal.
static ESCAPE: LazyLock<Regex> =
    LazyLock::new(|| fixed_regex(r#"\\\\|\\"|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{6}"#));

fn literals_spelled(written: &str) -> Spelled {
    let mut spelled = Spelled {
        text: String::with_capacity(written.len()),
        literals: Vec::new(),
    };
    let mut at = 0;
    for found in LITERAL_PLACEABLE.captures_iter(written) {
        let whole = found.get(0).map_or(0..0, |m| m.range());
        spelled.text.push_str(&written[at..whole.start]);
        at = whole.end;
        let literal = match (found.name("string"), found.name("number")) {
            (Some(string), _) => unescaped(&string.as_str()[1..string.len() - 1]),
            (None, Some(number)) => number.as_str().to_owned(),
            (None, None) => String::new(),
        };
        let start = spelled.text.len();
        spelled.text.push_str(&literal);
        spelled.literals.push((start, spelled.text.len()));
    }
    spelled.text.push_str(&written[at..]);
    spelled
}

/// A string literal's text with its escapes read.
fn unescaped(raw: &str) -> String {
    let mut out = String::new();
    let mut at = 0;
    for escape in ESCAPE.find_iter(raw) {
        out.push_str(&raw[at..escape.start()]);
        at = escape.end();
        let sequence = escape.as_str();
        match sequence {
            "\\\\" | "\\\"" => out.push_str(&sequence[1..]),
            _ => match u32::from_str_radix(&sequence[2..], 16)
                .ok()
                .and_then(char::from_u32)
            {
                Some(c) => out.push(c),
                // A surrogate or a number past Unicode: kept as written.
                None => out.push_str(sequence),
            },
        }
    }
    out.push_str(&raw[at..]);
    out
}

/// The HTML of a written variant: its elements, or an error where an
/// `innerHTML` assignment would not keep it whole.
fn elements(spelled: &Spelled) -> Result<Elements, ()> {
    let text = spelled.text.as_str();
    let literal = |at: usize| spelled.literals.iter().any(|(s, e)| (*s..*e).contains(&at));
    let brace_at = |at: usize| text[at..].starts_with('{') && !literal(at);
    character_references(text, &brace_at)?;
    // The open elements: tag and digest.
    let mut open: Vec<(String, Element)> = Vec::new();
    let mut found = Elements::new();
    let mut at = 0;
    while let Some(next) = text[at..].find('<') {
        at += next + 1;
        if let Some(rest) = text[at..].strip_prefix('/') {
            let tag = END_TAG.captures(rest).ok_or(())?;
            let whole = tag.get(0).map_or(0, |m| m.end());
            let name = &tag["tag"];
            if is_void(name) || open.pop().is_none_or(|(tag, _)| tag != name) {
                return Err(());
            }
            at += 1 + whole;
            continue;
        }
        if brace_at(at) || text[at..].starts_with(['!', '?']) {
            return Err(());
        }
        if !text[at..].starts_with(|c: char| c.is_ascii_alphabetic()) {
            continue; // A `<` of text.
        }
        let tag = START_TAG.captures(&text[at..]).ok_or(())?;
        let name = tag["tag"].to_owned();
        let mut attributes = BTreeMap::new();
        let mut end = tag;
        let mut step = end.get(0).map_or(0, |m| m.end());
        at += step;
        loop {
            if let Some(close) = end.name("close") {
                let parent = open.last().map_or(0, |(_, digest)| *digest);
                let digest = element(parent, &name, &attributes);
                *found.entry(digest).or_default() += 1;
                if !is_void(&name) {
                    if close.as_str() == "/>" {
                        return Err(());
                    }
                    open.push((name, digest));
                }
                break;
            }
            if end.name("eof").is_some() {
                return Err(());
            }
            let attribute = ATTRIBUTE_NAME.captures(&text[at..]).ok_or(())?;
            let attribute_name = attribute["name"].to_owned();
            at += attribute.get(0).map_or(0, |m| m.end());
            if attributes.contains_key(&attribute_name) {
                return Err(());
            }
            end = ATTRIBUTE_VALUE.captures(&text[at..]).ok_or(())?;
            let value = end
                .name("single")
                .or_else(|| end.name("double"))
                .map_or("", |m| m.as_str());
            attributes.insert(attribute_name, value.to_owned());
            step = end.get(0).map_or(0, |m| m.end());
            at += step;
        }
    }
    if open.is_empty() { Ok(found) } else { Err(()) }
}

fn is_void(tag: &str) -> bool {
    VOID_ELEMENTS.contains(&tag.to_ascii_lowercase().as_str())
}

/// A start tag's name and what follows it: the tag closed (`>`, `/>`),
/// the text's end, or blanks before an attribute.
static START_TAG: LazyLock<Regex> = LazyLock::new(|| {
    fixed_regex(&format!(
        r"\A(?P<tag>[a-zA-Z][a-zA-Z0-9-]*){CLOSE_OR_BLANK}"
    ))
});

/// What may follow a start tag's name or an attribute.
const CLOSE_OR_BLANK: &str = r"(?:[ \t\n]*(?P<close>/?>)|[ \t\n]*(?P<eof>\z)|[ \t\n]+)";

static END_TAG: LazyLock<Regex> =
    LazyLock::new(|| fixed_regex(r"\A(?P<tag>[a-zA-Z][a-zA-Z0-9-]*)[ \t\n]*>"));

static ATTRIBUTE_NAME: LazyLock<Regex> =
    LazyLock::new(|| fixed_regex(r"\A(?P<name>[a-zA-Z][a-zA-Z0-9_.:-]*)="));

static ATTRIBUTE_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    fixed_regex(&format!(
        r#"\A(?:'(?P<single>[^']*)'|"(?P<double>[^"]*)"){CLOSE_OR_BLANK}"#
    ))
});

/// Every `&` of the text, as HTML would read it: an error where it is
/// followed by a reference (`&{ $x }`), by a known character reference
/// without its semicolon (`&amp`, `&#38`), or by a semicolon-ended one
/// that is unknown (`&nosuch;`).
fn character_references(text: &str, brace_at: &impl Fn(usize) -> bool) -> Result<(), ()> {
    let mut at = 0;
    while let Some(next) = text[at..].find('&') {
        let start = at + next;
        let rest = &text[start + 1..];
        let mut length = usize::from(rest.starts_with('#'));
        length += rest[length..]
            .bytes()
            .take_while(u8::is_ascii_alphanumeric)
            .count();
        let closed = rest[length..].starts_with(';');
        let sequence = &rest[..length + usize::from(closed)];
        at = start + 1 + sequence.len();
        if !closed && brace_at(at) {
            return Err(());
        }
        if expands_wrongly(sequence, closed) {
            return Err(());
        }
    }
    Ok(())
}

/// Whether HTML reads `&` + `sequence` (alphanumerics after an optional
/// `#`, perhaps then `;`) other than meant: a reference without its
/// semicolon that still expands, or one with it that does not expand
/// whole (or expands to a semicolon), as Python's `html.unescape` reads
/// them.
fn expands_wrongly(sequence: &str, closed: bool) -> bool {
    let Some(expanded_end) = last_expanded(sequence) else {
        // Left as written.
        return closed;
    };
    // Expanded: intended only with a semicolon that was read with it.
    !closed || expanded_end.is_none_or(|c| c == ';')
}

/// What `&` + `sequence` ends with once expanded: `None` when it does not
/// expand, `Some(None)` when it expands to nothing.
fn last_expanded(sequence: &str) -> Option<Option<char>> {
    if let Some(number) = sequence.strip_prefix('#') {
        let (digits, radix) = match number.strip_prefix(['x', 'X']) {
            Some(hex) => (hex, 16),
            None => (number, 10),
        };
        let length = digits.chars().take_while(|c| c.is_digit(radix)).count();
        if length == 0 {
            return None;
        }
        let tail = &digits[length..];
        // The semicolon is read with the number when it follows it.
        let tail = tail.strip_prefix(';').unwrap_or(tail);
        if let Some(last) = tail.chars().last() {
            return Some(Some(last));
        }
        let code = u32::from_str_radix(&digits[..length], radix).unwrap_or(u32::MAX);
        return Some(numeric_reference(code));
    }
    let name_length = sequence.len() - usize::from(sequence.ends_with(';'));
    if name_length == 0 {
        return None;
    }
    // At most 32 characters are read as a name.
    let read = if name_length > 32 {
        &sequence[..32]
    } else {
        sequence
    };
    let tail = &sequence[read.len()..];
    // The table also lists the prefixes of names, as (0, 0).
    let entity = |name: &str| {
        markup5ever::data::NAMED_ENTITIES
            .get(name)
            .filter(|(first, _)| *first != 0)
            .map(|&(first, second)| char::from_u32(if second != 0 { second } else { first }))
    };
    if let Some(last) = entity(read) {
        return Some(tail.chars().last().or(last));
    }
    // The longest known name at its start (of two characters or more).
    for end in (2..read.len()).rev() {
        if entity(&read[..end]).is_some() {
            let rest = &sequence[end..];
            return Some(rest.chars().last());
        }
    }
    None
}

/// What a numeric character reference ends with once expanded, as
/// Python reads it: nothing for the code points HTML leaves out.
fn numeric_reference(code: u32) -> Option<char> {
    let dropped = matches!(code, 0x1..=0x8 | 0xb | 0xe..=0x1f | 0x7f | 0xfdd0..=0xfdef)
        || (code <= 0x10_ffff && (code & 0xfffe) == 0xfffe);
    if dropped {
        None
    } else {
        Some(char::from_u32(code).unwrap_or('\u{fffd}'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none() -> Flags {
        Flags::default()
    }

    #[test]
    fn values_must_be_simple_html() {
        let fails = |text: &str| source_fails(text, "m", &none());
        assert!(!fails(
            "Click <a href=\"x\" data-l10n-name=\"link\">here</a>"
        ));
        assert!(!fails("a <br> b <img src='x.png'/> 3 < 4 > 2"));
        assert!(!fails("Tom &amp; Jerry &#38; &#x26; &hello"));
        assert!(fails("<b>bold"));
        assert!(fails("<b>bold</i>"));
        assert!(fails("</b>"));
        assert!(fails("<br></br>"));
        assert!(fails("<span/>"));
        assert!(fails("<!-- note -->"));
        assert!(fails("<a href=x>"));
        assert!(fails("<a title=\"a\" title=\"b\"></a>"));
        assert!(fails("<{ $tag }>"));
        assert!(fails("&{ $entity };"));
        assert!(fails("Tom &amp Jerry"));
        assert!(fails("&nosuch;"));
        // Literals are text: a `{` of a literal is no reference.
        assert!(!fails("<{ \"{\" }"));
        assert!(fails("{ \"<\" }b>"));
        // Each variant counts; attributes are not read.
        assert!(fails("{ $n ->\n [one] <b>one</b>\n *[other] <b>many\n}"));
        assert!(!fails("<b>x</b>\n.title = <i>"));
    }

    #[test]
    fn deep_and_long_html_is_read_in_one_pass() {
        let deep = format!("{}x{}", "<b>".repeat(20_000), "</b>".repeat(20_000));
        assert!(!source_fails(&deep, "m", &none()));
        assert!(target_fails(
            &deep,
            &deep.replacen("<b>", "<i>", 1).replacen("</b>", "</i>", 1),
            "m",
            &none()
        ));
        let long = "<i>x</i> &amp; ".repeat(20_000);
        assert!(!target_fails(&long, &long, "m", &none()));
    }

    #[test]
    fn translations_hold_the_same_elements() {
        let fails = |s: &str, t: &str| target_fails(s, t, "m", &none());
        assert!(!fails("<b>Save</b> <br> now", "jetzt <br><b>speichern</b>"));
        assert!(fails("<b>Save</b>", "<i>Speichern</i>"));
        assert!(fails("<a href=\"x\">x</a>", "<a href=\"y\">y</a>"));
        assert!(fails("<p><b>x</b></p>", "<p></p><b>x</b>"));
        assert!(fails("<b>x</b>", "<b>x</b><b>y</b>"));
        assert!(fails("x", "<b>x"));
        // A source that is no simple HTML is not compared.
        assert!(!fails("<b>x", "<i>x</i>"));
        // Variants pair up in any order.
        let source = "{ $n ->\n [one] <b>one</b>\n *[other] many\n}";
        assert!(!fails(
            source,
            "{ $n ->\n [one] viele\n *[other] <b>eins</b>\n}"
        ));
        assert!(fails(source, "viele"));
    }
}
