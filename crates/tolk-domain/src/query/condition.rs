//! What a parsed query asks of a unit, field by field (§30.2): a tree of
//! [`Condition`]s the store turns into one SQL `WHERE` clause. Fields
//! Weblate knows whose data Tolk does not keep yet (suggestions, comments,
//! checks, labels, screenshots) are refused by name rather than answered
//! wrongly. Change-event fields (`changed`, `changed_by`, `change_time`,
//! `change_action`) joined by `AND` describe one and the same event.

use chrono::NaiveDateTime;

use super::{Op, Query, Written, time};
use crate::change::Action;
use crate::unit::UnitState;

/// Largest compiled form of a search's regular expression, in bytes.
pub const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// A text column of a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextField {
    /// The source text (plural forms joined).
    Source,
    /// The translation (plural forms joined).
    Target,
    /// The context, or a monolingual file's key.
    Context,
    /// The developers' note.
    Note,
    /// Source code locations.
    Location,
    /// The source string's explanation.
    Explanation,
    /// The unit's flags.
    Flags,
}

/// A number column of a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberField {
    /// Its id.
    Id,
    /// Its place in its file.
    Position,
    /// Its priority.
    Priority,
}

/// A time column of a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeField {
    /// When it was first read.
    Added,
    /// When it last changed.
    LastChanged,
}

/// What a unit belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Its translation's language code (exact).
    Language,
    /// Its project's slug (exact).
    Project,
    /// Its component's slug or name (any case).
    Component,
}

/// A condition on units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// The field holds `text` in any case, or (`exact`) is `text`.
    Text {
        /// The column.
        field: TextField,
        /// The text looked for.
        text: String,
        /// Equal rather than contained.
        exact: bool,
    },
    /// The field matches a regular expression (case-sensitive).
    Regex {
        /// The column.
        field: TextField,
        /// The expression, checked to compile in linear time.
        pattern: String,
    },
    /// The field is not empty.
    Filled(TextField),
    /// The unit is in one of these states.
    States(Vec<UnitState>),
    /// The number compares with `value` (`op` is never `Contains`).
    Number {
        /// The column.
        field: NumberField,
        /// The comparison.
        op: Op,
        /// The number.
        value: i64,
    },
    /// The number is one of `values`.
    AnyOf {
        /// The column.
        field: NumberField,
        /// The numbers.
        values: Vec<i64>,
    },
    /// The time compares with `at` (`op` is `<`, `<=`, `>` or `>=`).
    Time {
        /// The column.
        field: TimeField,
        /// The comparison.
        op: Op,
        /// The instant.
        at: NaiveDateTime,
    },
    /// The unit has (or has not) edits not yet written to its file.
    Pending(bool),
    /// The unit has plural forms.
    Plural,
    /// The source holds a term of the project's glossaries (`has:glossary`):
    /// the searcher puts the terms in with [`Condition::with_glossary`];
    /// left as it is, it matches nothing.
    Glossary,
    /// The text holds one of these terms as a whole word, in any case
    /// (found as [`crate::checks::glossary::TermFinder`] finds them): what
    /// `has:glossary` becomes once the terms are known.
    Terms {
        /// The field searched.
        field: TextField,
        /// The terms.
        terms: Vec<String>,
    },
    /// The unit has something attached: suggestions, unresolved comments
    /// (its own or its string's), labels (its string's).
    Has(Attachment),
    /// The string carries the label with this name (in any case).
    Label(String),
    /// The unit fails the quality check with this id, or any check.
    Check(Option<String>),
    /// The unit has the quality check with this id dismissed, or any.
    Dismissed(Option<String>),
    /// The unit belongs to the language, project or component named.
    In {
        /// What is named.
        scope: Scope,
        /// The name.
        value: String,
    },
    /// The unit has a change event that matches.
    Change(ChangeFilter),
    /// Every one holds.
    And(Vec<Condition>),
    /// Any one holds.
    Or(Vec<Condition>),
    /// Does not hold.
    Not(Box<Condition>),
}

/// What can be attached to a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attachment {
    /// Suggestions.
    Suggestion,
    /// Unresolved comments.
    Comment,
    /// Labels.
    Label,
    /// Screenshots showing the string.
    Screenshot,
}

impl Condition {
    /// Whether `has:glossary` is part of the condition.
    pub fn asks_glossary(&self) -> bool {
        match self {
            Condition::Glossary => true,
            Condition::Not(inner) => inner.asks_glossary(),
            Condition::And(parts) | Condition::Or(parts) => parts.iter().any(Self::asks_glossary),
            _ => false,
        }
    }

    /// The condition with `has:glossary` as the glossaries' `terms` make
    /// it: the source holds one of them as a whole word, in any case
    /// ([`Condition::Terms`]). With no terms it matches nothing, as in
    /// Weblate.
    pub fn with_glossary(self, terms: &[String]) -> Condition {
        let with = |parts: Vec<Condition>| -> Vec<Condition> {
            parts.into_iter().map(|p| p.with_glossary(terms)).collect()
        };
        match self {
            Condition::Glossary if !terms.is_empty() => Condition::Terms {
                field: TextField::Source,
                terms: terms.to_vec(),
            },
            Condition::Not(inner) => Condition::Not(Box::new(inner.with_glossary(terms))),
            Condition::And(parts) => Condition::And(with(parts)),
            Condition::Or(parts) => Condition::Or(with(parts)),
            other => other,
        }
    }
}

/// What one change event of a unit must be.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ChangeFilter {
    /// Its action is one of these codes (any action when `None`).
    pub actions: Option<Vec<i32>>,
    /// Its time meets each of these comparisons.
    pub times: Vec<(Op, NaiveDateTime)>,
    /// Its author is each of these: `None` for no author, else a username.
    pub authors: Vec<Option<String>>,
}

impl ChangeFilter {
    /// One event meeting both filters.
    fn merge(self, other: ChangeFilter) -> ChangeFilter {
        ChangeFilter {
            actions: match (self.actions, other.actions) {
                (Some(a), Some(b)) => Some(a.into_iter().filter(|x| b.contains(x)).collect()),
                (a, b) => a.or(b),
            },
            times: self.times.into_iter().chain(other.times).collect(),
            authors: self.authors.into_iter().chain(other.authors).collect(),
        }
    }
}

/// The codes of the actions that change content (§29.1).
fn content_actions() -> Vec<i32> {
    Action::all()
        .filter(|a| a.is_content())
        .map(|a| a.0)
        .collect()
}

/// Fields of Weblate's language that need data Tolk does not keep yet.
const NOT_YET: &[&str] = &[
    "suggestion",
    "suggestion_author",
    "comment",
    "resolved_comment",
    "comment_author",
    "source_comment",
    "resolved_source_comment",
    "source_comment_author",
    "labels_count",
    "screenshot",
    "source_state",
    "source_changed",
    "path",
];

impl Query {
    /// The condition the query sets on units; `now` resolves relative
    /// dates. An error names the term it cannot use.
    pub fn condition(&self, now: NaiveDateTime) -> Result<Condition, String> {
        Ok(match self {
            Query::And(parts) => {
                // Change-event terms side by side describe one event.
                let mut event: Option<ChangeFilter> = None;
                let mut others = Vec::new();
                for part in parts {
                    match part.condition(now)? {
                        Condition::Change(filter) => {
                            event = Some(match event {
                                Some(seen) => seen.merge(filter),
                                None => filter,
                            });
                        }
                        other => others.push(other),
                    }
                }
                others.extend(event.map(Condition::Change));
                match others.len() {
                    1 => others.remove(0),
                    _ => Condition::And(others),
                }
            }
            Query::Or(parts) => Condition::Or(
                parts
                    .iter()
                    .map(|p| p.condition(now))
                    .collect::<Result<_, _>>()?,
            ),
            Query::Not(inner) => Condition::Not(Box::new(inner.condition(now)?)),
            Query::Term {
                field,
                op,
                value,
                written,
            } => term(field.as_deref(), *op, value, *written, now)?,
        })
    }
}

fn term(
    field: Option<&str>,
    op: Op,
    value: &str,
    written: Written,
    now: NaiveDateTime,
) -> Result<Condition, String> {
    let valueless = value.is_empty() && written == Written::Plain && op != Op::Exact;
    if valueless && field.is_some_and(|f| f != "changed_by") {
        // A field without a value (`source:`, `state:>=`) matches no
        // string, as in Weblate; `context:=""` is the empty context, and
        // `changed_by:""` names the changes nobody made (the server's own).
        return Ok(Condition::Or(Vec::new()));
    }
    let Some(field) = field else {
        // A bare value: source, translation or context.
        return Ok(Condition::Or(
            [TextField::Source, TextField::Target, TextField::Context]
                .into_iter()
                .map(|f| text(f, op, value, written))
                .collect::<Result<_, _>>()?,
        ));
    };
    let text_field = match field {
        "source" => Some(TextField::Source),
        "target" => Some(TextField::Target),
        "context" | "key" => Some(TextField::Context),
        "note" => Some(TextField::Note),
        "location" => Some(TextField::Location),
        "explanation" => Some(TextField::Explanation),
        _ => None,
    };
    if let Some(text_field) = text_field {
        return text(text_field, op, value, written);
    }
    if written == Written::Regex {
        return Err(format!(
            "{field}: only text fields take regular expressions"
        ));
    }
    match field {
        "state" => states(op, value, written),
        "is" => is(value),
        "has" => has(value),
        "pending" => Ok(Condition::Pending(boolean(value)?)),
        "id" if op == Op::Contains && value.contains(',') => Ok(Condition::AnyOf {
            field: NumberField::Id,
            values: value
                .split(',')
                .map(|n| number(n.trim()))
                .collect::<Result<_, _>>()?,
        }),
        "id" => numbers(NumberField::Id, op, value, written),
        "position" => numbers(NumberField::Position, op, value, written),
        "priority" => numbers(NumberField::Priority, op, value, written),
        "added" => times(TimeField::Added, op, value, written, now),
        "last_changed" => times(TimeField::LastChanged, op, value, written, now),
        "changed" => change_times(Some(content_actions()), op, value, written, now),
        "change_time" => change_times(None, op, value, written, now),
        "changed_by" => Ok(Condition::Change(ChangeFilter {
            actions: Some(content_actions()),
            authors: vec![(!value.is_empty()).then(|| value.to_owned())],
            ..ChangeFilter::default()
        })),
        "change_action" => {
            let wanted = value.to_lowercase();
            let action = Action::all()
                .find(|a| {
                    let label = a.label().to_lowercase();
                    label == wanted || label.replace(' ', "-") == wanted
                })
                .ok_or_else(|| format!("Unsupported change action: {value}"))?;
            Ok(Condition::Change(ChangeFilter {
                actions: Some(vec![action.0]),
                ..ChangeFilter::default()
            }))
        }
        "label" => Ok(Condition::Label(value.to_owned())),
        "check" => Ok(Condition::Check(Some(value.to_owned()))),
        "dismissed_check" => Ok(Condition::Dismissed(Some(value.to_owned()))),
        "language" => Ok(scope(Scope::Language, value)),
        "project" => Ok(scope(Scope::Project, value)),
        "component" => Ok(scope(Scope::Component, value)),
        other if NOT_YET.contains(&other) => Err(format!(
            "Searching by {other} is not supported by this server yet."
        )),
        other => Err(format!("Unknown search field: {other}")),
    }
}

fn scope(scope: Scope, value: &str) -> Condition {
    Condition::In {
        scope,
        value: value.to_owned(),
    }
}

/// A text field's condition: `:` contains (any case), `:=` equals; on
/// text `<` and `>` are not comparisons but part of the text.
fn text(field: TextField, op: Op, value: &str, written: Written) -> Result<Condition, String> {
    if written == Written::Regex {
        // Without look-around or back-references, so that matching stays
        // linear in the text on both databases.
        regex::RegexBuilder::new(value)
            .size_limit(REGEX_SIZE_LIMIT)
            .build()
            .map_err(|e| format!("Invalid regular expression: {e}"))?;
        return Ok(Condition::Regex {
            field,
            pattern: value.to_owned(),
        });
    }
    Ok(match op {
        Op::Exact => Condition::Text {
            field,
            text: value.to_owned(),
            exact: true,
        },
        op => Condition::Text {
            field,
            text: format!("{}{value}", op.text()),
            exact: false,
        },
    })
}

fn boolean(value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "yes" | "true" | "on" | "1" => Ok(true),
        "no" | "false" | "off" | "0" => Ok(false),
        other => Err(format!("Invalid boolean: {other}")),
    }
}

fn number(value: &str) -> Result<i64, String> {
    value
        .parse()
        .map_err(|_| format!("Invalid number: {value}"))
}

/// `[A to B]`: its two ends.
fn range(value: &str) -> Result<(&str, &str), String> {
    let lower = value.to_ascii_lowercase();
    let at = lower
        .find(" to ")
        .ok_or_else(|| format!("Invalid range: [{value}]"))?;
    Ok((value[..at].trim(), value[at + 4..].trim()))
}

/// The comparisons a value (or a range) stands for: a range compared with
/// `>`/`>=` uses its start, with `<`/`<=` its end, otherwise both ends.
fn compared<T: Copy>(
    op: Op,
    value: &str,
    written: Written,
    read: impl Fn(&str) -> Result<(T, T), String>,
    make: impl Fn(Op, T) -> Condition,
) -> Result<Condition, String> {
    let (start, end) = if written == Written::Range {
        let (a, b) = range(value)?;
        (read(a)?.0, read(b)?.1)
    } else {
        read(value)?
    };
    Ok(match op {
        Op::Greater if written == Written::Range => make(Op::GreaterEqual, start),
        Op::Greater => make(Op::Greater, end),
        Op::GreaterEqual => make(Op::GreaterEqual, start),
        Op::Less if written == Written::Range => make(Op::LessEqual, end),
        Op::Less => make(Op::Less, start),
        Op::LessEqual => make(Op::LessEqual, end),
        Op::Contains | Op::Exact => Condition::And(vec![
            make(Op::GreaterEqual, start),
            make(Op::LessEqual, end),
        ]),
    })
}

fn numbers(field: NumberField, op: Op, value: &str, written: Written) -> Result<Condition, String> {
    compared(
        op,
        value,
        written,
        |v| number(v).map(|n| (n, n)),
        |op, value| Condition::Number { field, op, value },
    )
}

/// A change event at the time written (of `actions`, when given).
fn change_times(
    actions: Option<Vec<i32>>,
    op: Op,
    value: &str,
    written: Written,
    now: NaiveDateTime,
) -> Result<Condition, String> {
    let bounds = compared(
        op,
        value,
        written,
        |v| time::span(v, now),
        |op, at| {
            Condition::Change(ChangeFilter {
                times: vec![(op, at)],
                ..ChangeFilter::default()
            })
        },
    )?;
    let times = match bounds {
        Condition::Change(filter) => filter.times,
        Condition::And(parts) => parts
            .into_iter()
            .flat_map(|p| match p {
                Condition::Change(filter) => filter.times,
                _ => Vec::new(),
            })
            .collect(),
        _ => Vec::new(),
    };
    Ok(Condition::Change(ChangeFilter {
        actions,
        times,
        authors: Vec::new(),
    }))
}

fn times(
    field: TimeField,
    op: Op,
    value: &str,
    written: Written,
    now: NaiveDateTime,
) -> Result<Condition, String> {
    compared(
        op,
        value,
        written,
        |v| time::span(v, now),
        |op, at| Condition::Time { field, op, at },
    )
}

/// `state:` with a name or number, compared.
fn states(op: Op, value: &str, written: Written) -> Result<Condition, String> {
    let state = |v: &str| {
        UnitState::parse(v)
            .map(|s| (s, s))
            .ok_or_else(|| format!("Unsupported state: {v}"))
    };
    // States are few: the comparisons become the list of states admitted.
    let admitted = compared(op, value, written, state, |op, s| {
        Condition::States(
            UnitState::ALL
                .into_iter()
                .filter(|x| match op {
                    Op::Less => *x < s,
                    Op::LessEqual => *x <= s,
                    Op::Greater => *x > s,
                    Op::GreaterEqual => *x >= s,
                    Op::Contains | Op::Exact => *x == s,
                })
                .collect(),
        )
    })?;
    Ok(match admitted {
        Condition::And(parts) => Condition::States(
            UnitState::ALL
                .into_iter()
                .filter(|x| {
                    parts
                        .iter()
                        .all(|p| matches!(p, Condition::States(s) if s.contains(x)))
                })
                .collect(),
        ),
        other => other,
    })
}

fn is(value: &str) -> Result<Condition, String> {
    let all = UnitState::ALL.into_iter();
    Ok(Condition::States(
        match value.to_ascii_lowercase().as_str() {
            "read-only" | "readonly" => vec![UnitState::ReadOnly],
            "approved" => vec![UnitState::Approved],
            "fuzzy" | "needs-editing" => all.filter(|s| s.is_fuzzy()).collect(),
            "translated" => all.filter(|s| s.is_translated()).collect(),
            "untranslated" => all.filter(|s| !s.is_translated()).collect(),
            "pending" => return Ok(Condition::Pending(true)),
            "automatically-translated" => {
                return Err(
                    "Searching by is:automatically-translated is not supported by this server yet."
                        .into(),
                );
            }
            other => return Err(format!("Unsupported is: lookup: {other}")),
        },
    ))
}

fn has(value: &str) -> Result<Condition, String> {
    Ok(match value.to_ascii_lowercase().as_str() {
        "plural" => Condition::Plural,
        "context" => Condition::Filled(TextField::Context),
        "translation" => Condition::Filled(TextField::Target),
        "note" => Condition::Filled(TextField::Note),
        "location" => Condition::Filled(TextField::Location),
        "explanation" => Condition::Filled(TextField::Explanation),
        "flags" => Condition::Filled(TextField::Flags),
        "suggestion" => Condition::Has(Attachment::Suggestion),
        "comment" => Condition::Has(Attachment::Comment),
        "label" => Condition::Has(Attachment::Label),
        "screenshot" => Condition::Has(Attachment::Screenshot),
        "check" => Condition::Check(None),
        "dismissed-check" => Condition::Dismissed(None),
        "glossary" => Condition::Glossary,
        other @ ("source-comment" | "variant") => {
            return Err(format!(
                "Searching by has:{other} is not supported by this server yet."
            ));
        }
        other => return Err(format!("Unsupported has: lookup: {other}")),
    })
}
