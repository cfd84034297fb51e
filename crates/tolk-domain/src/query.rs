//! The search query language of unit lists (`q=`, §30): parsed into a tree
//! of terms joined by `AND`, `OR` and `NOT`, then evaluated. This first
//! evaluation answers which unit states a query admits (`state:` with its
//! comparisons, `is:`); the other fields come with search.
//!
//! Anybody who may read a public translation may send a query, so its
//! tree stays shallow whatever the text: a chain of terms joined by one
//! operator is one node with many children, and parentheses and `NOT`
//! nest at most [`MAX_DEPTH`] deep (deeper is an error, never a stack
//! overflow in the parser, the evaluation or the tree's drop).

use crate::unit::UnitState;

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

/// How deep parentheses and `NOT` may nest.
pub const MAX_DEPTH: usize = 64;

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
    },
    /// Every one holds (two or more).
    And(Vec<Query>),
    /// Any one holds (two or more).
    Or(Vec<Query>),
    /// Does not hold.
    Not(Box<Query>),
}

/// Splits a query into words, parentheses and quoted values.
fn tokens(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '(' || c == ')' {
            out.push(c.to_string());
            chars.next();
        } else {
            let mut word = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == '(' || c == ')' {
                    break;
                }
                chars.next();
                if c == '"' || c == '\'' {
                    // A quoted value runs to its closing quote, spaces included.
                    loop {
                        match chars.next() {
                            Some(q) if q == c => break,
                            Some(inner) => word.push(inner),
                            None => return Err("unterminated quote".into()),
                        }
                    }
                } else {
                    word.push(c);
                }
            }
            out.push(word);
        }
    }
    Ok(out)
}

struct Parser {
    tokens: Vec<String>,
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
        self.tokens
            .get(self.at)
            .is_some_and(|t| t.eq_ignore_ascii_case(keyword))
    }

    fn or(&mut self) -> Result<Query, String> {
        let mut parts = vec![self.and()?];
        while self.peek_keyword("OR") {
            self.at += 1;
            parts.push(self.and()?);
        }
        Ok(joined(parts, Query::Or))
    }

    fn and(&mut self) -> Result<Query, String> {
        let mut parts = vec![self.unary()?];
        loop {
            if self.peek_keyword("AND") {
                self.at += 1;
            } else if self.at >= self.tokens.len()
                || self.peek_keyword("OR")
                || self.tokens[self.at] == ")"
            {
                return Ok(joined(parts, Query::And));
            }
            parts.push(self.unary()?);
        }
    }

    fn unary(&mut self) -> Result<Query, String> {
        let Some(token) = self.tokens.get(self.at).cloned() else {
            return Err("unexpected end of query".into());
        };
        self.at += 1;
        if token.eq_ignore_ascii_case("NOT") {
            self.enter()?;
            let inner = self.unary()?;
            self.depth -= 1;
            return Ok(Query::Not(Box::new(inner)));
        }
        if token == "(" {
            self.enter()?;
            let inner = self.or()?;
            if self.tokens.get(self.at).map(String::as_str) != Some(")") {
                return Err("missing closing parenthesis".into());
            }
            self.at += 1;
            self.depth -= 1;
            return Ok(inner);
        }
        if token == ")" {
            return Err("unexpected closing parenthesis".into());
        }
        Ok(term(&token))
    }
}

/// One term: `field:value` with an optional comparison, or a bare value.
fn term(token: &str) -> Query {
    let field_end = token.find(':').filter(|&i| {
        i > 0
            && token[..i]
                .chars()
                .all(|c| c.is_ascii_alphabetic() || c == '_')
            && !["http", "https", "ftp", "mailto"]
                .contains(&token[..i].to_ascii_lowercase().as_str())
    });
    let Some(end) = field_end else {
        return Query::Term {
            field: None,
            op: Op::Contains,
            value: token.to_owned(),
        };
    };
    let rest = &token[end + 1..];
    let (op, value) = [
        ("<=", Op::LessEqual),
        (">=", Op::GreaterEqual),
        ("<", Op::Less),
        (">", Op::Greater),
        ("=", Op::Exact),
    ]
    .into_iter()
    .find_map(|(prefix, op)| rest.strip_prefix(prefix).map(|v| (op, v)))
    .unwrap_or((Op::Contains, rest));
    Query::Term {
        field: Some(token[..end].to_ascii_lowercase()),
        op,
        value: value.to_owned(),
    }
}

/// Parses a query; `None` for an empty one.
pub fn parse(text: &str) -> Result<Option<Query>, String> {
    if text.contains('\0') {
        return Err("Invalid character in the query string".into());
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
        return Err(format!("unexpected {:?}", parser.tokens[parser.at]));
    }
    Ok(Some(query))
}

/// A set of unit states.
pub type States = Vec<UnitState>;

impl Query {
    /// The unit states the query admits; an error for fields this
    /// evaluation does not know yet.
    pub fn states(&self) -> Result<States, String> {
        Ok(match self {
            Query::And(parts) => {
                let mut kept = UnitState::ALL.to_vec();
                for part in parts {
                    let admitted = part.states()?;
                    kept.retain(|s| admitted.contains(s));
                }
                kept
            }
            Query::Or(parts) => {
                let mut admitted: States = Vec::new();
                for part in parts {
                    for s in part.states()? {
                        if !admitted.contains(&s) {
                            admitted.push(s);
                        }
                    }
                }
                admitted.sort();
                admitted
            }
            Query::Not(inner) => {
                let excluded = inner.states()?;
                UnitState::ALL
                    .into_iter()
                    .filter(|s| !excluded.contains(s))
                    .collect()
            }
            Query::Term { field, op, value } => match field.as_deref() {
                Some("state") => state_term(*op, value)?,
                Some("is") => is_term(value)?,
                Some(other) => return Err(format!("Unknown search field: {other}")),
                None => {
                    return Err(format!(
                        "Unsupported search for {value:?}: use state: or is:"
                    ));
                }
            },
        })
    }
}

fn state_term(op: Op, value: &str) -> Result<States, String> {
    let state = UnitState::parse(value).ok_or_else(|| format!("Unsupported state: {value}"))?;
    let keep = |s: &UnitState| match op {
        Op::Contains | Op::Exact => *s == state,
        Op::Less => *s < state,
        Op::LessEqual => *s <= state,
        Op::Greater => *s > state,
        Op::GreaterEqual => *s >= state,
    };
    Ok(UnitState::ALL.into_iter().filter(keep).collect())
}

fn is_term(value: &str) -> Result<States, String> {
    let all = UnitState::ALL.into_iter();
    Ok(match value.to_ascii_lowercase().as_str() {
        "read-only" | "readonly" => vec![UnitState::ReadOnly],
        "approved" => vec![UnitState::Approved],
        "fuzzy" | "needs-editing" => all.filter(|s| s.is_fuzzy()).collect(),
        "translated" => all.filter(|s| s.is_translated()).collect(),
        "untranslated" => all.filter(|s| !s.is_translated()).collect(),
        other => return Err(format!("Unsupported is: lookup: {other}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use UnitState::*;

    fn states(q: &str) -> States {
        parse(q).unwrap().unwrap().states().unwrap()
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
            states("is:fuzzy"),
            vec![Fuzzy, NeedsRewriting, NeedsChecking]
        );
    }

    #[test]
    fn operators_and_parentheses() {
        assert_eq!(
            states("state:empty OR state:approved"),
            vec![Empty, Approved]
        );
        assert_eq!(
            states("state:>=fuzzy state:<=translated"),
            vec![Fuzzy, NeedsRewriting, NeedsChecking, Translated]
        );
        assert_eq!(
            states("NOT state:<translated AND NOT is:read-only"),
            vec![Translated, Approved]
        );
        assert_eq!(
            states("(state:empty OR state:fuzzy) and state:>0"),
            vec![Fuzzy]
        );
    }

    #[test]
    fn long_chains_stay_flat_and_deep_nesting_is_refused() {
        // 20,000 terms joined by AND and OR: two levels, whatever the length.
        let chain = vec!["state:empty"; 10_000].join(" OR ");
        let long = format!("{chain} AND {chain}");
        match parse(&long).unwrap().unwrap() {
            Query::Or(parts) => assert_eq!(parts.len(), 19_999),
            other => panic!("{other:?}"),
        }
        assert_eq!(states(&long), vec![Empty]);
        let nested = |n: usize| format!("{}state:empty{}", "(".repeat(n), ")".repeat(n));
        assert_eq!(states(&nested(MAX_DEPTH)), vec![Empty]);
        for deep in [
            nested(MAX_DEPTH + 1),
            nested(3_500),
            "NOT ".repeat(100_000) + "state:empty",
        ] {
            let error = parse(&deep).unwrap_err();
            assert!(error.contains("more than 64 deep"), "{error}");
        }
    }

    #[test]
    fn clear_errors() {
        assert!(parse("").unwrap().is_none());
        assert_eq!(
            parse("state:x\0").unwrap_err(),
            "Invalid character in the query string"
        );
        assert!(parse("(state:empty").unwrap_err().contains("parenthesis"));
        let unknown = parse("colour:red").unwrap().unwrap().states().unwrap_err();
        assert_eq!(unknown, "Unknown search field: colour");
        assert!(
            parse("state:bogus")
                .unwrap()
                .unwrap()
                .states()
                .unwrap_err()
                .contains("bogus")
        );
        assert_eq!(
            parse("source:'two words'").unwrap().unwrap(),
            Query::Term {
                field: Some("source".into()),
                op: Op::Contains,
                value: "two words".into()
            }
        );
    }
}
