//! The Fluent checks (Weblate's `fluent-*`, each turned on by its own
//! flag): a string is the value and attributes of a Fluent message or
//! term, written as Weblate shows them (the value, then `.name = …`
//! lines). Weblate reads a string by putting it under an entry of the
//! string's key and parsing that as a Fluent file; so does Tolk, with
//! Mozilla's parser.
//!
//! - `fluent-source-syntax`, `fluent-target-syntax`: the string does not
//!   parse, or names an attribute twice.
//! - `fluent-parts`: a message's translation lacks the value or an
//!   attribute of the source, or has one the source has not.
//! - `fluent-references`: for each part both have (only the value for
//!   terms), some variant of the source (one choice in each of its select
//!   expressions) refers to other messages, terms and variables not as
//!   often as any variant of the translation does, or the other way
//!   round. A variable a select expression chooses by counts as used in
//!   every variant of it when the variants agree on how often the others
//!   use it (`{ $n -> [one] a file *[other] { $n } files }`).
//!
//! The inner-HTML checks read the same strings: see [`super::fluent_html`].

use std::collections::{BTreeMap, BTreeSet};

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
use fluent_syntax::parser;

use super::Flags;

/// The flag naming what a string is in Fluent (`Message`, `Term`, ...).
const TYPE_FLAG: &str = "fluent-type";

/// How deep placeables may nest before a string is refused unread: the
/// parser descends once per level, and a hostile string must not exhaust
/// the stack.
const MAX_NESTING: usize = 64;

/// How many different variants a string may have before its references
/// are no longer compared (each select expression multiplies them).
const MAX_VARIANTS: usize = 256;

/// What the string of a unit is, after its `fluent-type` flag, else its
/// key (a key starting with `-` names a term).
fn declared<'a>(key: &str, flags: &'a Flags) -> &'a str {
    match flags.value(TYPE_FLAG) {
        Some(kind) => kind,
        None if key.starts_with('-') => "Term",
        None => "Message",
    }
}

/// How a string is parsed: as a term under its key, a comment (not
/// parsed), or a message under its key or, when the key is no message
/// identifier, under one of its own (as Weblate falls back to).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading<'a> {
    Message(&'a str),
    Term(&'a str),
    Comment,
}

/// Whether `name` is a Fluent identifier (ASCII letter, then letters,
/// digits, `_` and `-`).
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn reading<'a>(key: &'a str, flags: &Flags) -> Reading<'a> {
    match declared(key, flags) {
        "Message" if is_identifier(key) => Reading::Message(key),
        "Term" if key.strip_prefix('-').is_some_and(is_identifier) => Reading::Term(key),
        "ResourceComment" | "GroupComment" | "DetachedComment" if key.is_empty() => {
            Reading::Comment
        }
        _ => Reading::Message("generated"),
    }
}

/// The value (named `""`) and attributes of a parsed string.
pub(super) type Parts<'s> = Vec<(&'s str, Pattern<&'s str>)>;

/// A string read as Fluent.
pub(super) enum Read<'s> {
    /// Nothing to read: an empty string, or a comment.
    Nothing,
    /// It does not parse.
    Invalid,
    /// Its parts.
    Parts(Parts<'s>),
}

/// Reads `text` as Weblate does: each line indented under `key =`.
pub(super) fn read<'s>(text: &str, holder: &'s mut String, key: &str, flags: &Flags) -> Read<'s> {
    let id = match reading(key, flags) {
        _ if text.is_empty() => return Read::Nothing,
        Reading::Comment => return Read::Nothing,
        Reading::Message(id) | Reading::Term(id) => id,
    };
    if nesting(text) > MAX_NESTING {
        return Read::Invalid;
    }
    *holder = format!("{id} =");
    for line in text.split('\n') {
        holder.push_str("\n ");
        holder.push_str(line);
    }
    let entry: &'s str = holder;
    let Ok(resource) = parser::parse(entry) else {
        return Read::Invalid;
    };
    if !as_grammar_asks(text) {
        return Read::Invalid;
    }
    let (value, attributes) = match (resource.body.as_slice(), id.starts_with('-')) {
        ([Entry::Message(message)], false) => (message.value.clone(), &message.attributes),
        ([Entry::Term(term)], true) => (Some(term.value.clone()), &term.attributes),
        _ => return Read::Invalid,
    };
    let mut parts: Parts<'s> = value.map(|v| ("", v)).into_iter().collect();
    let mut names = BTreeSet::new();
    for attribute in attributes {
        if !names.insert(attribute.id.name) {
            return Read::Invalid;
        }
        parts.push((attribute.id.name, attribute.value.clone()));
    }
    Read::Parts(parts)
}

/// How deep braces and parentheses nest in a text, counting every one
/// (the parser descends at each).
fn nesting(text: &str) -> usize {
    let (mut braces, mut parentheses, mut deepest) = (0usize, 0usize, 0usize);
    for c in text.chars() {
        match c {
            '{' => braces += 1,
            '}' => braces = braces.saturating_sub(1),
            '(' => parentheses += 1,
            ')' => parentheses = parentheses.saturating_sub(1),
            _ => continue,
        }
        deepest = deepest.max(braces + parentheses);
    }
    deepest
}

/// Where [`as_grammar_asks`] is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Text: of the string (`false`) or of a select expression's variant.
    Text(bool),
    /// Inside `{ }`.
    Placeable,
    /// Inside a call's `( )`: whether an argument was just read.
    Arguments(bool),
}

/// Whether a text that parsed also keeps two rules of Fluent's grammar
/// that Weblate's parser applies and Mozilla's Rust parser does not:
/// commas between a call's arguments (not `NUMBER($n style: "percent"
/// minimumFractionDigits: 2)`), and no blank before the dot of an
/// attribute (not `{ msg .title }`).
fn as_grammar_asks(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut stack = vec![Place::Text(false)];
    let mut at = 0;
    while at < bytes.len() {
        let Some(&place) = stack.last() else {
            return true;
        };
        let byte = bytes[at];
        at += 1;
        match (place, byte) {
            (_, b'{') => {
                if place == Place::Arguments(true) {
                    return false;
                }
                argument_read(&mut stack, true);
                stack.push(Place::Placeable);
            }
            (Place::Text(true), b'}') => {
                stack.pop();
                stack.pop();
            }
            (Place::Placeable, b'}') | (Place::Arguments(_), b')') => {
                stack.pop();
            }
            (Place::Text(true), b'\n') => {
                while at < bytes.len() && matches!(bytes[at], b' ' | b'\n' | b'\r') {
                    at += 1;
                }
                // A variant's key.
                if bytes.get(at) == Some(&b'*') {
                    at += 1;
                }
                if bytes.get(at) == Some(&b'[') {
                    while at < bytes.len() && bytes[at] != b']' {
                        at += 1;
                    }
                }
            }
            (Place::Placeable | Place::Arguments(_), b'"') => {
                if place == Place::Arguments(true) {
                    return false;
                }
                while at < bytes.len() && bytes[at] != b'"' {
                    at += if bytes[at] == b'\\' { 2 } else { 1 };
                }
                at += 1;
                argument_read(&mut stack, true);
            }
            (Place::Placeable, b'-') if bytes.get(at) == Some(&b'>') => {
                at += 1;
                stack.push(Place::Text(true));
            }
            (Place::Placeable | Place::Arguments(_), b'(') => stack.push(Place::Arguments(false)),
            (Place::Arguments(_), b',' | b':') => argument_read(&mut stack, false),
            (Place::Placeable | Place::Arguments(_), b'.') => return false,
            (Place::Placeable | Place::Arguments(_), _) if is_token(byte) => {
                if place == Place::Arguments(true) {
                    return false;
                }
                // A name ends before `->`.
                while at < bytes.len() && is_token(bytes[at]) && !bytes[at..].starts_with(b"->") {
                    at += 1;
                }
                argument_read(&mut stack, true);
            }
            _ => {}
        }
    }
    true
}

/// Notes, inside a call's parentheses, whether an argument was just read.
fn argument_read(stack: &mut [Place], read: bool) {
    if let Some(Place::Arguments(last)) = stack.last_mut() {
        *last = read;
    }
}

/// Whether a byte belongs to a name or number in an expression.
fn is_token(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'$' | b'-' | b'_' | b'.')
}

/// `fluent-source-syntax` and `fluent-target-syntax`: whether the string
/// `text` of the unit keyed `key` is no valid Fluent.
pub fn syntax_error(text: &str, key: &str, flags: &Flags) -> bool {
    let mut holder = String::new();
    matches!(read(text, &mut holder, key, flags), Read::Invalid)
}

/// `fluent-parts`: whether the translation has other parts than the
/// source (terms and strings that do not parse are not compared).
pub fn parts_differ(source: &str, target: &str, key: &str, flags: &Flags) -> bool {
    if declared(key, flags) == "Term" {
        return false;
    }
    let (mut a, mut b) = (String::new(), String::new());
    let (Read::Parts(source), Read::Parts(target)) = (
        read(source, &mut a, key, flags),
        read(target, &mut b, key, flags),
    ) else {
        return false;
    };
    let names = |parts: &Parts<'_>| -> BTreeSet<String> {
        parts.iter().map(|(name, _)| (*name).to_owned()).collect()
    };
    names(&source) != names(&target)
}

/// `fluent-references`: whether a part of the translation refers to
/// other things than the same part of the source, in some variant.
pub fn references_differ(source: &str, target: &str, key: &str, flags: &Flags) -> bool {
    let message = declared(key, flags) == "Message";
    let (mut a, mut b) = (String::new(), String::new());
    let source = match read(source, &mut a, key, flags) {
        Read::Parts(parts) => parts,
        _ => Vec::new(),
    };
    let Read::Parts(target) = read(target, &mut b, key, flags) else {
        return false;
    };
    target.iter().any(|(name, pattern)| {
        let Some((_, original)) = source
            .iter()
            .find(|(n, _)| n == name && (message || n.is_empty()))
        else {
            return false;
        };
        match (variants(original), variants(pattern)) {
            (Some(expected), Some(found)) => expected != found,
            _ => false,
        }
    })
}

/// A reference: what it names (message, term or variable) and the name
/// (with its attribute, if any).
type Reference = (u8, String);

/// How often each reference occurs in one variant.
type Counts = BTreeMap<Reference, usize>;

/// A pattern split at its select expressions: the references outside
/// them, and one node per select expression.
#[derive(Default)]
struct Branch {
    references: Vec<Reference>,
    nodes: Vec<Node>,
}

/// A select expression: the distinct references of its selector, and a
/// branch per variant.
struct Node {
    selector: Vec<Reference>,
    branches: Vec<Branch>,
}

fn branch(pattern: &Pattern<&str>) -> Branch {
    let mut found = Branch::default();
    for element in &pattern.elements {
        let PatternElement::Placeable { expression } = element else {
            continue;
        };
        match select(expression) {
            Some((selector, variants)) => {
                let mut refs = Vec::new();
                inline_references(selector, &mut refs);
                let mut distinct: Vec<Reference> = Vec::new();
                for r in refs {
                    if !distinct.contains(&r) {
                        distinct.push(r);
                    }
                }
                found.nodes.push(Node {
                    selector: distinct,
                    branches: variants.iter().map(|v| branch(&v.value)).collect(),
                });
            }
            None => references(expression, &mut found.references),
        }
    }
    found
}

/// The select expression a placeable holds, perhaps within placeables.
pub(super) fn select<'a, 's>(
    expression: &'a Expression<&'s str>,
) -> Option<(
    &'a InlineExpression<&'s str>,
    &'a [fluent_syntax::ast::Variant<&'s str>],
)> {
    match expression {
        Expression::Select { selector, variants } => Some((selector, variants)),
        Expression::Inline(InlineExpression::Placeable { expression }) => select(expression),
        Expression::Inline(_) => None,
    }
}

/// Every reference in an expression, select expressions' variants
/// included.
fn references(expression: &Expression<&str>, found: &mut Vec<Reference>) {
    match expression {
        Expression::Select { selector, variants } => {
            inline_references(selector, found);
            for variant in variants {
                for element in &variant.value.elements {
                    if let PatternElement::Placeable { expression } = element {
                        references(expression, found);
                    }
                }
            }
        }
        Expression::Inline(inline) => inline_references(inline, found),
    }
}

fn inline_references(expression: &InlineExpression<&str>, found: &mut Vec<Reference>) {
    let named = |id: &str, attribute: &Option<fluent_syntax::ast::Identifier<&str>>| match attribute
    {
        Some(attribute) => format!("{id}.{}", attribute.name),
        None => id.to_owned(),
    };
    match expression {
        InlineExpression::MessageReference { id, attribute } => {
            found.push((0, named(id.name, attribute)));
        }
        // A term's arguments are not looked into, as in Weblate.
        InlineExpression::TermReference { id, attribute, .. } => {
            found.push((1, named(id.name, attribute)));
        }
        InlineExpression::VariableReference { id } => {
            found.push((2, id.name.to_owned()));
        }
        InlineExpression::FunctionReference { arguments, .. } => {
            for argument in &arguments.positional {
                inline_references(argument, found);
            }
            for argument in &arguments.named {
                inline_references(&argument.value, found);
            }
        }
        InlineExpression::Placeable { expression } => references(expression, found),
        InlineExpression::StringLiteral { .. } | InlineExpression::NumberLiteral { .. } => {}
    }
}

/// Lends each selector's references to the variants that use them less
/// often than others, deepest first, where the variants of every select
/// expression below agree on how often they use them.
fn share(branch: &mut Branch) {
    for node in &mut branch.nodes {
        for child in &mut node.branches {
            share(child);
        }
    }
    for node in &mut branch.nodes {
        let counts: Option<Vec<Vec<usize>>> = node
            .selector
            .iter()
            .map(|r| node.branches.iter().map(|b| count_in(b, r)).collect())
            .collect();
        let Some(counts) = counts else {
            continue;
        };
        for (r, per_branch) in node.selector.iter().zip(counts) {
            let most = per_branch.iter().copied().max().unwrap_or(0);
            for (child, count) in node.branches.iter_mut().zip(per_branch) {
                child
                    .references
                    .extend(std::iter::repeat_n(r.clone(), most - count));
            }
        }
    }
}

/// How often a branch uses `reference` whatever its select expressions
/// choose; `None` when that depends on the choice.
fn count_in(branch: &Branch, reference: &Reference) -> Option<usize> {
    let mut total = branch.references.iter().filter(|r| *r == reference).count();
    for node in &branch.nodes {
        let mut same = None;
        for child in &node.branches {
            let count = count_in(child, reference)?;
            if same.is_some_and(|s| s != count) {
                return None;
            }
            same = Some(count);
        }
        total += same?;
    }
    Some(total)
}

/// The distinct reference counts of a pattern's variants; `None` past
/// [`MAX_VARIANTS`].
fn variants(pattern: &Pattern<&str>) -> Option<BTreeSet<Counts>> {
    let mut top = branch(pattern);
    share(&mut top);
    counts_of(&top)
}

fn counts_of(branch: &Branch) -> Option<BTreeSet<Counts>> {
    let mut own = Counts::new();
    for r in &branch.references {
        *own.entry(r.clone()).or_default() += 1;
    }
    let mut found = BTreeSet::from([own]);
    for node in &branch.nodes {
        let mut choices = BTreeSet::new();
        for child in &node.branches {
            choices.extend(counts_of(child)?);
        }
        let mut next = BTreeSet::new();
        for so_far in &found {
            for choice in &choices {
                let mut joined = so_far.clone();
                for (r, n) in choice {
                    *joined.entry(r.clone()).or_default() += n;
                }
                next.insert(joined);
                if next.len() > MAX_VARIANTS {
                    return None;
                }
            }
        }
        found = next;
    }
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(list: &str) -> Flags {
        Flags::parse([list])
    }

    #[test]
    fn strings_parse_as_entries_of_their_key() {
        let none = flags("");
        assert!(!syntax_error("Hello { $name }", "hello", &none));
        assert!(!syntax_error("Hello\n.title = Hi", "hello", &none));
        assert!(!syntax_error(".title = only an attribute", "hello", &none));
        assert!(syntax_error("Hello { $name", "hello", &none));
        assert!(syntax_error("Hi\n.title = a\n.title = b", "hello", &none));
        // A term needs a value.
        assert!(syntax_error(".title = a", "-brand", &none));
        assert!(!syntax_error(".title = a", "brand", &none));
        // The flag decides over the key; a key that is no identifier reads
        // as a message's.
        assert!(syntax_error(
            ".title = a",
            "-brand",
            &flags("fluent-type:Term")
        ));
        assert!(!syntax_error(
            ".title = a",
            "brand",
            &flags("fluent-type:Term")
        ));
        assert!(!syntax_error(
            ".title = a",
            "brand.x",
            &flags("fluent-type:Message")
        ));
        assert!(!syntax_error("", "hello", &none));
        assert!(!syntax_error("{", "", &flags("fluent-type:GroupComment")));
        assert!(syntax_error(&"{".repeat(100_000), "hello", &none));
    }

    #[test]
    fn parts_are_compared_by_name() {
        let none = flags("");
        assert!(!parts_differ("A\n.title = T", "B\n.title = U", "m", &none));
        assert!(parts_differ("A\n.title = T", "B", "m", &none));
        assert!(parts_differ("A", ".title = U", "m", &none));
        assert!(!parts_differ("A", "B {", "m", &none));
        assert!(!parts_differ("A\n.title = T", "B", "-term", &none));
    }

    #[test]
    fn references_are_counted_per_variant() {
        let none = flags("");
        let differ = |s: &str, t: &str| references_differ(s, t, "m", &none);
        assert!(!differ("{ $a } and { -b }", "{ -b } und { $a }"));
        assert!(differ("{ $a } and { $a }", "{ $a }"));
        assert!(differ("{ $a }", "{ a }"));
        assert!(differ("{ msg.attr }", "{ msg }"));
        // The selector's variable counts in every variant that leaves it out.
        let apples = "{ $n ->\n [one] an apple\n *[other] { $n } apples\n}";
        assert!(!differ(apples, "{ $n } Äpfel"));
        assert!(!differ("{ $n } apples", apples));
        // A selector alone is no reference.
        assert!(!differ(
            "{ -t.vowel ->\n [yes] an { -t }\n *[no] a { -t }\n}",
            "ein { -t }"
        ));
        assert!(differ("{ $x ->\n [a] { $y }\n *[b] none\n}", "{ $y }"));
        // Attributes are compared for messages only.
        assert!(differ("A\n.title = { $t }", "B\n.title = none"));
        assert!(!references_differ(
            "A\n.title = { $t }",
            "B\n.title = none",
            "-t",
            &none
        ));
        // Attributes the source has not are the parts check's concern.
        assert!(!differ("A", "A\n.title = { $t }"));
    }

    #[test]
    fn many_select_expressions_end_the_comparison_not_the_process() {
        let none = flags("");
        // 2⁴⁰ variants, each with other variables.
        let many: Vec<String> = (0..40)
            .map(|i| format!("{{ $a{i} ->\n [x] {{ $b{i} }}\n *[y] {{ $c{i} }}\n}}"))
            .collect();
        assert!(!references_differ(&many.join(" "), "{ $d }", "m", &none));
        assert!(references_differ(
            &many[..8].join(" "),
            "{ $d }",
            "m",
            &none
        ));
    }
}
