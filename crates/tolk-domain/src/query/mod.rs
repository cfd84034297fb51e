//! The search query language of unit lists (`q=`, §30): parsed into a tree
//! of terms joined by `AND`, `OR` and `NOT` ([`parse`]), then turned into a
//! [`Condition`] on units that the store runs as SQL ([`Query::condition`]).
//!
//! Anybody who may read a public translation may send a query, so its
//! tree stays shallow whatever the text: a chain of terms joined by one
//! operator is one node with many children, and parentheses and `NOT`
//! nest at most [`MAX_DEPTH`] deep (deeper is an error, never a stack
//! overflow in the parser, the evaluation or the tree's drop).

mod condition;
mod counted;
mod time;

pub use condition::{
    Attachment, ChangeFilter, Condition, NumberField, REGEX_SIZE_LIMIT, Scope, TextField, TimeField,
};

/// A comparison of a field with a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `:` (substring or equality).
    Contains,
    /// `:=`.
    Exact,
    /// `:<`.
    Less,
    /// `:<=`.
    LessEqual,
    /// `:>`.
    Greater,
    /// `:>=`.
    GreaterEqual,
}

impl Op {
    /// The operator as written after the colon.
    fn text(self) -> &'static str {
        match self {
            Op::Contains => "",
            Op::Exact => "=",
            Op::Less => "<",
            Op::LessEqual => "<=",
            Op::Greater => ">",
            Op::GreaterEqual => ">=",
        }
    }
}

/// How deep parentheses and `NOT` may nest.
pub const MAX_DEPTH: usize = 64;

/// How many characters a query may have (the API documents it); so at
/// most 1,000 terms, each a few bound values of the SQL the store sends.
pub const MAX_LENGTH: usize = 2_000;

/// How a term's value was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Written {
    /// A bare word or a quoted string.
    #[default]
    Plain,
    /// `r"…"`: a regular expression.
    Regex,
    /// `[A to B]`: a range.
    Range,
}

/// A parsed query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Query {
    /// `field OP value`; a bare value has no field.
    Term {
        /// The field, lower case.
        field: Option<String>,
        /// The comparison.
        op: Op,
        /// The value, unquoted.
        value: String,
        /// How the value was written.
        written: Written,
    },
    /// Every one holds (two or more).
    And(Vec<Query>),
    /// Any one holds (two or more).
    Or(Vec<Query>),
    /// Does not hold.
    Not(Box<Query>),
}

/// A word of a query: parentheses, operators and terms.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Token {
    /// The text, quotes removed.
    text: String,
    /// The part before the first quote or bracket (where a field may be).
    head: usize,
    /// How the value was written.
    written: Written,
}

impl Token {
    fn is(&self, text: &str) -> bool {
        self.written == Written::Plain && self.head == self.text.len() && self.text == text
    }

    fn keyword(&self, keyword: &str) -> bool {
        self.written == Written::Plain
            && self.head == self.text.len()
            && self.text.eq_ignore_ascii_case(keyword)
    }
}

/// Splits a query into words, parentheses, quoted values and ranges.
fn tokens(text: &str) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        if c == '(' || c == ')' {
            out.push(Token {
                text: c.to_string(),
                head: 1,
                written: Written::Plain,
            });
            chars.next();
            continue;
        }
        let mut word = String::new();
        let mut head = None;
        let mut written = Written::Plain;
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == '(' || c == ')' {
                break;
            }
            chars.next();
            match c {
                '"' | '\'' => {
                    if head.is_none() {
                        // `r"…"` right after the operator: a regular expression.
                        if word.ends_with(['r', 'R'])
                            && word[..word.len() - 1].ends_with([':', '=', '<', '>'])
                        {
                            word.pop();
                            written = Written::Regex;
                        }
                        head = Some(word.len());
                    }
                    // A quoted value runs to its closing quote, spaces included.
                    loop {
                        match chars.next() {
                            Some(q) if q == c => break,
                            Some(inner) => word.push(inner),
                            None => return Err("unterminated quote".into()),
                        }
                    }
                }
                '[' if head.is_none() && word.ends_with([':', '=', '<', '>']) => {
                    head = Some(word.len());
                    written = Written::Range;
                    loop {
                        match chars.next() {
                            Some(']') => break,
                            Some(inner) => word.push(inner),
                            None => return Err("unterminated range".into()),
                        }
                    }
                }
                _ => word.push(c),
            }
        }
        out.push(Token {
            head: head.unwrap_or(word.len()),
            text: word,
            written,
        });
    }
    Ok(out)
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    depth: usize,
}

/// One query of `parts`, or the n-ary node `join` makes of them.
fn joined(mut parts: Vec<Query>, join: fn(Vec<Query>) -> Query) -> Query {
    match parts.len() {
        1 => parts.remove(0),
        _ => join(parts),
    }
}

impl Parser {
    /// Goes one level deeper (a parenthesis or `NOT`), refusing past [`MAX_DEPTH`].
    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!(
                "the query nests parentheses or NOT more than {MAX_DEPTH} deep"
            ));
        }
        Ok(())
    }

    fn peek_keyword(&self, keyword: &str) -> bool {
        self.tokens.get(self.at).is_some_and(|t| t.keyword(keyword))
    }

    fn peek_is(&self, text: &str) -> bool {
        self.tokens.get(self.at).is_some_and(|t| t.is(text))
    }

    /// Terms joined by `OR`. An explicit `AND` beside an `OR` on one
    /// level is refused, as Weblate refuses it (juxtaposition is fine).
    fn or(&mut self) -> Result<Query, String> {
        let (first, mut explicit) = self.and()?;
        let mut parts = vec![first];
        while self.peek_keyword("OR") {
            self.at += 1;
            let (next, and) = self.and()?;
            explicit |= and;
            parts.push(next);
        }
        if explicit && parts.len() > 1 {
            return Err("Mixed operators!".into());
        }
        Ok(joined(parts, Query::Or))
    }

    /// Terms joined by `AND` or side by side; whether `AND` was written.
    fn and(&mut self) -> Result<(Query, bool), String> {
        let mut parts = vec![self.unary()?];
        let mut explicit = false;
        loop {
            if self.peek_keyword("AND") {
                self.at += 1;
                explicit = true;
            } else if self.at >= self.tokens.len() || self.peek_keyword("OR") || self.peek_is(")") {
                return Ok((joined(parts, Query::And), explicit));
            }
            parts.push(self.unary()?);
        }
    }

    fn unary(&mut self) -> Result<Query, String> {
        let Some(token) = self.tokens.get(self.at).cloned() else {
            return Err("unexpected end of query".into());
        };
        self.at += 1;
        if token.keyword("NOT") {
            self.enter()?;
            let inner = self.unary()?;
            self.depth -= 1;
            return Ok(Query::Not(Box::new(inner)));
        }
        if token.is("(") {
            self.enter()?;
            let inner = self.or()?;
            if !self.peek_is(")") {
                return Err("missing closing parenthesis".into());
            }
            self.at += 1;
            self.depth -= 1;
            return Ok(inner);
        }
        if token.is(")") {
            return Err("unexpected closing parenthesis".into());
        }
        Ok(term(&token))
    }
}

/// One term: `field:value` with an optional comparison, or a bare value.
/// The field is looked for only before any quote or range.
fn term(token: &Token) -> Query {
    let text = &token.text;
    let field_end = text[..token.head].find(':').filter(|&i| {
        i > 0
            && text[..i]
                .chars()
                .all(|c| c.is_ascii_alphabetic() || c == '_')
            && !["http", "https", "ftp", "mailto"]
                .contains(&text[..i].to_ascii_lowercase().as_str())
    });
    let Some(end) = field_end else {
        return Query::Term {
            field: None,
            op: Op::Contains,
            value: text.clone(),
            written: if token.written == Written::Regex {
                Written::Regex
            } else {
                Written::Plain
            },
        };
    };
    let rest = &text[end + 1..];
    let operator_room = token.head - (end + 1);
    let (op, value) = [
        ("<=", Op::LessEqual),
        (">=", Op::GreaterEqual),
        ("<", Op::Less),
        (">", Op::Greater),
        ("=", Op::Exact),
    ]
    .into_iter()
    .find_map(|(prefix, op)| {
        (prefix.len() <= operator_room)
            .then(|| rest.strip_prefix(prefix).map(|v| (op, v)))
            .flatten()
    })
    .unwrap_or((Op::Contains, rest));
    Query::Term {
        field: Some(text[..end].to_ascii_lowercase()),
        op,
        value: value.to_owned(),
        written: token.written,
    }
}

/// Parses a query; `None` for an empty one.
pub fn parse(text: &str) -> Result<Option<Query>, String> {
    if text.contains('\0') {
        return Err("Invalid character in the query string".into());
    }
    if text.chars().count() > MAX_LENGTH {
        return Err(format!(
            "Ensure this field has no more than {MAX_LENGTH} characters."
        ));
    }
    let tokens = tokens(text)?;
    if tokens.is_empty() {
        return Ok(None);
    }
    let mut parser = Parser {
        tokens,
        at: 0,
        depth: 0,
    };
    let query = parser.or()?;
    if parser.at < parser.tokens.len() {
        return Err(format!("unexpected {:?}", parser.tokens[parser.at].text));
    }
    Ok(Some(query))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unit::UnitState::{self, *};
    use chrono::NaiveDateTime;

    fn now() -> NaiveDateTime {
        NaiveDateTime::parse_from_str("2026-11-25 18:00:00", "%Y-%m-%d %H:%M:%S").unwrap()
    }

    fn condition(q: &str) -> Condition {
        parse(q).unwrap().unwrap().condition(now()).unwrap()
    }

    fn refused(q: &str) -> String {
        match parse(q) {
            Err(e) => e,
            Ok(query) => query.unwrap().condition(now()).unwrap_err(),
        }
    }

    fn states(q: &str) -> Vec<UnitState> {
        match condition(q) {
            Condition::States(s) => s,
            other => panic!("{other:?}"),
        }
    }

    fn text(field: TextField, text: &str, exact: bool) -> Condition {
        Condition::Text {
            field,
            text: text.into(),
            exact,
        }
    }

    #[test]
    fn state_comparisons() {
        assert_eq!(
            states("state:>=translated"),
            vec![Translated, Approved, ReadOnly]
        );
        assert_eq!(
            states("state:<translated"),
            vec![Empty, Fuzzy, NeedsRewriting, NeedsChecking]
        );
        assert_eq!(states("state:needs-editing"), vec![Fuzzy]);
        assert_eq!(states("state:=20"), vec![Translated]);
        assert_eq!(
            states("state:[fuzzy to translated]"),
            vec![Fuzzy, NeedsRewriting, NeedsChecking, Translated]
        );
        assert_eq!(
            states("is:fuzzy"),
            vec![Fuzzy, NeedsRewriting, NeedsChecking]
        );
    }

    #[test]
    fn words_fields_and_operators() {
        let word = |w: &str| {
            Condition::Or(vec![
                text(TextField::Source, w, false),
                text(TextField::Target, w, false),
                text(TextField::Context, w, false),
            ])
        };
        assert_eq!(condition("Hello"), word("Hello"));
        assert_eq!(condition("\"two words\""), word("two words"));
        assert_eq!(
            condition("'source:x'"),
            word("source:x"),
            "quoted: no field"
        );
        assert_eq!(
            condition("https://example.com"),
            word("https://example.com")
        );
        assert_eq!(
            condition("state:translated source:hello OR key:=a.b"),
            Condition::Or(vec![
                Condition::And(vec![
                    Condition::States(vec![Translated]),
                    text(TextField::Source, "hello", false)
                ]),
                text(TextField::Context, "a.b", true),
            ])
        );
        assert_eq!(
            condition("target:<b>"),
            text(TextField::Target, "<b>", false)
        );
        assert_eq!(
            condition("NOT note:x AND has:plural"),
            Condition::And(vec![
                Condition::Not(Box::new(text(TextField::Note, "x", false))),
                Condition::Plural
            ])
        );
        assert_eq!(refused("a AND b OR c"), "Mixed operators!");
        assert_eq!(refused("a OR b AND c"), "Mixed operators!");
        assert_eq!(condition("is:pending"), Condition::Pending(true));
        assert_eq!(condition("pending:no"), Condition::Pending(false));
        assert_eq!(
            condition("language:cs component:App project:demo"),
            Condition::And(vec![
                Condition::In {
                    scope: Scope::Language,
                    value: "cs".into()
                },
                Condition::In {
                    scope: Scope::Component,
                    value: "App".into()
                },
                Condition::In {
                    scope: Scope::Project,
                    value: "demo".into()
                },
            ])
        );
    }

    #[test]
    fn numbers_times_and_ranges() {
        let number = |op, value| Condition::Number {
            field: NumberField::Position,
            op,
            value,
        };
        assert_eq!(
            condition("position:[2 to 5]"),
            Condition::And(vec![number(Op::GreaterEqual, 2), number(Op::LessEqual, 5)])
        );
        assert_eq!(condition("position:>[2 to 5]"), number(Op::GreaterEqual, 2));
        assert_eq!(condition("position:<=7"), number(Op::LessEqual, 7));
        assert_eq!(
            condition("id:1,2,3"),
            Condition::AnyOf {
                field: NumberField::Id,
                values: vec![1, 2, 3]
            }
        );
        let at = |t: &str| NaiveDateTime::parse_from_str(t, "%Y-%m-%d %H:%M:%S%.f").unwrap();
        let time = |op, t: &str| Condition::Time {
            field: TimeField::Added,
            op,
            at: at(t),
        };
        assert_eq!(
            condition("added:2026-11-24"),
            Condition::And(vec![
                time(Op::GreaterEqual, "2026-11-24 00:00:00.0"),
                time(Op::LessEqual, "2026-11-24 23:59:59.999999"),
            ])
        );
        assert_eq!(
            condition("added:>2026-11-24"),
            time(Op::Greater, "2026-11-24 23:59:59.999999")
        );
        assert_eq!(
            condition("added:<yesterday"),
            time(Op::Less, "2026-11-24 00:00:00.0")
        );
        assert_eq!(refused("position:x"), "Invalid number: x");
        assert_eq!(refused("added:soon"), "Invalid timestamp: soon");
        assert_eq!(refused("position:[1 and 2]"), "Invalid range: [1 and 2]");
    }

    #[test]
    fn change_terms_side_by_side_are_one_event() {
        let content: Vec<i32> = crate::change::Action::all()
            .filter(|a| a.is_content())
            .map(|a| a.0)
            .collect();
        let day = |t: &str| NaiveDateTime::parse_from_str(t, "%Y-%m-%d %H:%M:%S%.f").unwrap();
        assert_eq!(
            condition("changed:2026-11-24 changed_by:jane state:translated"),
            Condition::And(vec![
                Condition::States(vec![Translated]),
                Condition::Change(ChangeFilter {
                    actions: Some(content.clone()),
                    times: vec![
                        (Op::GreaterEqual, day("2026-11-24 00:00:00.0")),
                        (Op::LessEqual, day("2026-11-24 23:59:59.999999")),
                    ],
                    authors: vec![Some("jane".into())],
                }),
            ])
        );
        assert_eq!(
            condition("change_action:marked-for-edit change_time:>=2026"),
            Condition::Change(ChangeFilter {
                actions: Some(vec![37]),
                times: vec![(Op::GreaterEqual, day("2026-01-01 00:00:00.0"))],
                authors: vec![],
            })
        );
        assert_eq!(
            condition("change_action:\"Translation added\" OR changed_by:\"\""),
            Condition::Or(vec![
                Condition::Change(ChangeFilter {
                    actions: Some(vec![5]),
                    ..ChangeFilter::default()
                }),
                Condition::Change(ChangeFilter {
                    actions: Some(content),
                    authors: vec![None],
                    ..ChangeFilter::default()
                }),
            ])
        );
    }

    #[test]
    fn long_chains_stay_flat_and_deep_nesting_is_refused() {
        // 400 terms joined by OR, side by side: two levels, however many.
        let chain = vec!["a"; 200].join(" OR ");
        match parse(&format!("({chain}) ({chain})")).unwrap().unwrap() {
            Query::And(parts) => {
                assert!(matches!(&parts[0], Query::Or(terms) if terms.len() == 200));
            }
            other => panic!("{other:?}"),
        }
        let nested = |n: usize| format!("{}state:empty{}", "(".repeat(n), ")".repeat(n));
        assert_eq!(states(&nested(MAX_DEPTH)), vec![Empty]);
        for deep in [
            nested(MAX_DEPTH + 1),
            nested(900),
            "NOT ".repeat(400) + "state:empty",
        ] {
            let error = parse(&deep).unwrap_err();
            assert!(error.contains("more than 64 deep"), "{error}");
        }
    }

    #[test]
    fn clear_errors() {
        assert!(parse("").unwrap().is_none());
        assert_eq!(
            parse(&"0".repeat(MAX_LENGTH + 1)).unwrap_err(),
            "Ensure this field has no more than 2000 characters."
        );
        assert!(
            parse(&"é".repeat(MAX_LENGTH)).is_ok(),
            "characters, not bytes"
        );
        assert_eq!(
            parse("state:x\0").unwrap_err(),
            "Invalid character in the query string"
        );
        assert!(parse("(state:empty").unwrap_err().contains("parenthesis"));
        assert_eq!(refused("colour:red"), "Unknown search field: colour");
        assert!(refused("state:bogus").contains("bogus"));
        assert_eq!(refused("source:'open"), "unterminated quote");
        assert_eq!(
            condition("source:r\"^A(ra|lge)\""),
            Condition::Regex {
                field: TextField::Source,
                pattern: "^A(ra|lge)".into()
            }
        );
        assert!(refused("source:r\"(\"").starts_with("Invalid regular expression"));
        assert!(refused("source:r\"(a)\\1\"").starts_with("Invalid regular expression"));
        assert_eq!(
            refused("state:r\"x\""),
            "state: only text fields take regular expressions"
        );
        assert_eq!(
            refused("has:variant"),
            "Searching by has:variant is not supported by this server yet."
        );
        assert_eq!(
            refused("source_state:translated"),
            "Searching by source_state is not supported by this server yet."
        );
        assert_eq!(
            refused("change_action:dancing"),
            "Unsupported change action: dancing"
        );
    }

    #[test]
    fn has_glossary_looks_for_the_terms_it_is_given() {
        assert!(condition("has:glossary").asks_glossary());
        assert!(condition("NOT (has:glossary OR has:plural)").asks_glossary());
        assert!(!condition("has:plural").asks_glossary());
        assert_eq!(
            condition("has:glossary").with_glossary(&[]),
            Condition::Glossary,
            "no terms, no match"
        );
        let terms = ["a.b".to_owned(), "file".to_owned()];
        assert_eq!(
            condition("NOT has:glossary").with_glossary(&terms),
            Condition::Not(Box::new(Condition::Terms {
                field: TextField::Source,
                terms: terms.to_vec(),
            }))
        );
    }
}
