//! A search condition on units ([`tolk_domain::query::Condition`]) as one
//! SQL expression: text matched in any case with `lower(…) LIKE` (ASCII
//! letters only on SQLite, every letter on PostgreSQL), regular
//! expressions as the ids of the units they matched, run beforehand by
//! Rust's engine on both databases ([`crate::regex_search`]), the language,
//! project and component named through sub-selects of their ids. Its depth
//! is that of the query, which the parser keeps to 64.
//!
//! Text of three or more characters is found through an index of
//! trigrams rather than by reading every unit: on PostgreSQL the planner
//! uses the trigram indexes of `lower(source)`, `lower(target)` and
//! `lower(context)` for the `LIKE` itself; on SQLite one look-up in the
//! FTS5 table `unit_text` gives the candidates of the whole query (its
//! text conditions as one FTS5 query of phrases joined by `AND` and `OR`:
//! the index folds case, where `LIKE` is case-sensitive on Tolk's
//! connections), which the exact condition then confirms.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::IntoSql;
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::{Bool, Text};
use tolk_domain::change::Action;
use tolk_domain::query::{
    Attachment, ChangeFilter, Condition, NumberField, Op, Scope, TextField, TimeField,
};
use tolk_domain::unit::{PLURAL_SEPARATOR, UnitState};

use crate::MultiBackend;
use crate::regex_search::{Matched, Pattern};
use crate::schema::{
    changes, components, labels, languages, projects, translations, unit_labels, units, users,
};
use crate::sql::lower;
use crate::unit_columns::text_column;

/// Units with unresolved comments.
const UNRESOLVED: &str = "SELECT comments.unit_id FROM comments WHERE NOT comments.resolved";
/// The units screenshots show.
const SHOWN: &str = "SELECT screenshot_units.unit_id FROM screenshot_units";

/// A condition on the units table.
pub(crate) type Expression = Box<dyn BoxableExpression<units::table, MultiBackend, SqlType = Bool>>;

/// `text` as a `LIKE` pattern matching it anywhere (`\` escapes).
pub(crate) fn containing(text: &str) -> String {
    let mut pattern = String::from("%");
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

/// Units whose list of check ids in `column` (`failing` or `dismissed`,
/// joined by commas) holds `id`.
fn listing(column: &'static str, id: &str) -> Expression {
    Box::new(
        sql::<Bool>(&format!("(',' || units.{column} || ',') LIKE "))
            .bind::<Text, _>(containing(&format!(",{id},")))
            .sql(" ESCAPE '\\'"),
    )
}

/// `column OP value` for a comparison (`Contains` counts as equality).
macro_rules! compare {
    ($column:expr, $op:expr, $value:expr) => {{
        let expression: Expression = match $op {
            Op::Contains | Op::Exact => Box::new($column.eq($value)),
            Op::Less => Box::new($column.lt($value)),
            Op::LessEqual => Box::new($column.le($value)),
            Op::Greater => Box::new($column.gt($value)),
            Op::GreaterEqual => Box::new($column.ge($value)),
        };
        expression
    }};
}

/// Units of the components a sub-select of component ids gives.
macro_rules! in_components {
    ($components:expr) => {{
        let expression: Expression = Box::new(
            units::translation_id.eq_any(
                translations::table
                    .filter(translations::component_id.eq_any($components))
                    .select(translations::id),
            ),
        );
        expression
    }};
}

/// A number that fits an `INTEGER` column (beyond it, the nearest end).
fn int(value: i64) -> i32 {
    i32::try_from(value).unwrap_or(if value < 0 { i32::MIN } else { i32::MAX })
}

/// Whether `unit_text` (SQLite's index of trigrams) holds a field.
fn indexed(field: TextField) -> bool {
    matches!(
        field,
        TextField::Source | TextField::Target | TextField::Context
    )
}

/// How a condition becomes SQL: for which database, and what its regular
/// expressions matched.
#[derive(Clone, Copy)]
struct Ctx<'a> {
    sqlite: bool,
    matched: &'a Matched,
}

/// The SQL of `condition`, for SQLite when `sqlite`, its regular
/// expressions standing for the units in `matched`: on SQLite, with the
/// candidates of its text conditions from the trigram index
/// ([`index_query`]) when it has any.
pub(crate) fn condition(condition: &Condition, sqlite: bool, matched: &Matched) -> Expression {
    let ctx = Ctx { sqlite, matched };
    let exact = expression(condition, ctx);
    // A regular expression under a negation stands for its matches among
    // the candidates only: the query keeps to them.
    let exact = if negates_regex(condition) {
        match candidates(condition, ctx) {
            Some(candidates) => Box::new(candidates.and(exact)),
            None => exact,
        }
    } else {
        exact
    };
    candidate_index(condition, sqlite, exact)
}

/// The SQL of the units a search with regular expressions may return
/// (more may pass): `condition` with each regular expression taken as
/// true, and a negation of one as true too; on SQLite narrowed by the
/// trigram index. Whatever `condition` selects is among them.
pub(crate) fn candidate_condition(condition: &Condition, sqlite: bool) -> Expression {
    let matched = Matched::default();
    let ctx = Ctx {
        sqlite,
        matched: &matched,
    };
    let all: Expression = Box::new(sql::<Bool>("1 = 1"));
    candidate_index(condition, sqlite, candidates(condition, ctx).unwrap_or(all))
}

/// `exact` with the units `condition`'s text conditions find in SQLite's
/// trigram index, when it can narrow the search.
fn candidate_index(condition: &Condition, sqlite: bool, exact: Expression) -> Expression {
    match index_query(condition).filter(|_| sqlite) {
        Some(query) => Box::new(
            sql::<Bool>("units.id IN (SELECT rowid FROM unit_text WHERE unit_text MATCH ")
                .bind::<Text, _>(query)
                .sql(")")
                .and(exact),
        ),
        None => exact,
    }
}

/// An FTS5 query of `unit_text` that every unit meeting `condition`
/// matches (more may: the index folds case beyond `lower`, only the text
/// conditions count, and a phrase may match in any indexed column, which
/// takes FTS5 half the time of a column filter), so that one look-up in
/// the index gives the candidates, which the exact condition then
/// confirms; `None` when the index cannot narrow the search (no text of
/// three characters in an indexed field, a negation, an alternative the
/// index cannot see).
fn index_query(condition: &Condition) -> Option<String> {
    match condition {
        Condition::Text {
            field,
            text,
            exact: false,
        } if text.chars().count() >= 3 && indexed(*field) => {
            Some(format!("\"{}\"", text.replace('"', "\"\"")))
        }
        Condition::And(parts) => joined(parts.iter().filter_map(index_query).collect(), " AND "),
        Condition::Or(parts) => joined(
            parts.iter().map(index_query).collect::<Option<Vec<_>>>()?,
            " OR ",
        ),
        _ => None,
    }
}

/// `queries` joined by `operator`, each once, in parentheses when there
/// are several; `None` for none.
fn joined(mut queries: Vec<String>, operator: &str) -> Option<String> {
    queries.sort_unstable();
    queries.dedup();
    match queries.as_slice() {
        [] => None,
        [one] => Some(one.clone()),
        _ => Some(
            queries
                .iter()
                .map(|q| format!("({q})"))
                .collect::<Vec<_>>()
                .join(operator),
        ),
    }
}

/// Whether `condition` holds a regular expression.
fn has_regex(condition: &Condition) -> bool {
    match condition {
        Condition::Regex { .. } | Condition::Terms { .. } => true,
        Condition::Not(inner) => has_regex(inner),
        Condition::And(parts) | Condition::Or(parts) => parts.iter().any(has_regex),
        _ => false,
    }
}

/// Whether a regular expression of `condition` stands under a negation.
fn negates_regex(condition: &Condition) -> bool {
    match condition {
        Condition::Not(inner) => has_regex(inner),
        Condition::And(parts) | Condition::Or(parts) => parts.iter().any(negates_regex),
        _ => false,
    }
}

/// `condition` with its regular expressions (and the negations of them)
/// taken as true; `None` when that is true of every unit.
fn candidates(condition: &Condition, ctx: Ctx<'_>) -> Option<Expression> {
    match condition {
        Condition::Regex { .. } | Condition::Terms { .. } => None,
        Condition::Not(inner) if has_regex(inner) => None,
        // Joined as balanced trees, as the exact condition is: a chain of
        // a thousand terms must not nest a thousand deep.
        Condition::And(parts) => {
            let known: Vec<Expression> = parts.iter().filter_map(|p| candidates(p, ctx)).collect();
            (!known.is_empty()).then(|| joined_balanced(known, &|a, b| Box::new(a.and(b)), "1 = 1"))
        }
        Condition::Or(parts) => {
            let each = parts
                .iter()
                .map(|p| candidates(p, ctx))
                .collect::<Option<Vec<_>>>()?;
            Some(joined_balanced(each, &|a, b| Box::new(a.or(b)), "1 = 0"))
        }
        other => Some(expression(other, ctx)),
    }
}

/// The units with these ids, as one bound parameter whatever their number.
fn with_ids(ids: &[i64], sqlite: bool) -> Expression {
    if ids.is_empty() {
        return Box::new(sql::<Bool>("1 = 0"));
    }
    let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    if sqlite {
        Box::new(
            sql::<Bool>("units.id IN (SELECT value FROM json_each(")
                .bind::<Text, _>(format!("[{list}]"))
                .sql("))"),
        )
    } else {
        Box::new(
            sql::<Bool>("units.id = ANY(CAST(")
                .bind::<Text, _>(format!("{{{list}}}"))
                .sql(" AS BIGINT[]))"),
        )
    }
}

/// The SQL of `condition` without the index.
fn expression(condition: &Condition, ctx: Ctx<'_>) -> Expression {
    let sqlite = ctx.sqlite;
    let expression = |c: &Condition| expression(c, ctx);
    match condition {
        Condition::Text {
            field,
            text,
            exact: true,
        } => Box::new(text_column(*field).eq(text.clone())),
        Condition::Text {
            field,
            text,
            exact: false,
        } => Box::new(
            lower(text_column(*field))
                .like(lower(containing(text)))
                .escape('\\'),
        ),
        Condition::Regex { .. } | Condition::Terms { .. } => {
            let ids = Pattern::of(condition)
                .map_or(&[][..], |(field, pattern)| ctx.matched.ids(field, &pattern));
            with_ids(ids, sqlite)
        }
        Condition::Filled(field) => Box::new(text_column(*field).ne("")),
        Condition::States(states) => Box::new(
            units::state.eq_any(
                states
                    .iter()
                    .map(|s| UnitState::code(*s))
                    .collect::<Vec<_>>(),
            ),
        ),
        Condition::Number { field, op, value } => match field {
            NumberField::Id => compare!(units::id, op, *value),
            NumberField::Position => compare!(units::position, op, int(*value)),
            NumberField::Priority => compare!(units::priority, op, int(*value)),
        },
        Condition::AnyOf { field, values } => match field {
            NumberField::Id => Box::new(units::id.eq_any(values.clone())),
            NumberField::Position => {
                Box::new(units::position.eq_any(values.iter().map(|v| int(*v)).collect::<Vec<_>>()))
            }
            NumberField::Priority => {
                Box::new(units::priority.eq_any(values.iter().map(|v| int(*v)).collect::<Vec<_>>()))
            }
        },
        Condition::Time { field, op, at } => match field {
            TimeField::Added => compare!(units::created, op, *at),
            TimeField::LastChanged => compare!(units::last_updated, op, *at),
        },
        Condition::Change(filter) => changed(filter),
        Condition::Pending(pending) => Box::new(units::pending.eq(*pending)),
        Condition::Has(attachment) => {
            // Labels and a string's comments are on its source unit (a
            // source unit's `source_unit_id` is itself; NULL only before
            // linking, hence the COALESCE: no NULL reaches a NOT).
            let of_string = "COALESCE(units.source_unit_id, units.id)";
            Box::new(sql::<Bool>(&match attachment {
                Attachment::Suggestion => {
                    "units.id IN (SELECT suggestions.unit_id FROM suggestions)".to_owned()
                }
                Attachment::Comment => {
                    format!("(units.id IN ({UNRESOLVED}) OR {of_string} IN ({UNRESOLVED}))")
                }
                Attachment::Label => {
                    format!("{of_string} IN (SELECT unit_labels.unit_id FROM unit_labels)")
                }
                // A screenshot shows units of its translation: usually
                // source units, whose translations match through them.
                Attachment::Screenshot => {
                    format!("(units.id IN ({SHOWN}) OR {of_string} IN ({SHOWN}))")
                }
            }))
        }
        Condition::Label(name) => {
            let labelled = || {
                unit_labels::table
                    .inner_join(labels::table)
                    .filter(lower(labels::name).eq(lower(name.clone())))
                    .select(unit_labels::unit_id)
            };
            Box::new(
                units::id.eq_any(labelled()).or(units::source_unit_id
                    .is_not_null()
                    .and(units::source_unit_id.assume_not_null().eq_any(labelled()))),
            )
        }
        Condition::Check(None) => Box::new(units::failing.ne("")),
        // Left unresolved: no glossary terms to look for.
        Condition::Glossary => Box::new(sql::<Bool>("1 = 0")),
        Condition::Check(Some(id)) => listing("failing", id),
        Condition::Dismissed(None) => Box::new(units::dismissed.ne("")),
        Condition::Dismissed(Some(id)) => listing("dismissed", id),
        Condition::Plural => Box::new(
            units::source
                .like(containing(PLURAL_SEPARATOR))
                .escape('\\'),
        ),
        Condition::In { scope, value } => match scope {
            Scope::Language => Box::new(
                units::translation_id.eq_any(
                    translations::table
                        .filter(
                            translations::language_id.eq_any(
                                languages::table
                                    .filter(languages::code.eq(value.clone()))
                                    .select(languages::id),
                            ),
                        )
                        .select(translations::id),
                ),
            ),
            Scope::Project => in_components!(
                components::table
                    .filter(
                        components::project_id.eq_any(
                            projects::table
                                .filter(projects::slug.eq(value.clone()))
                                .select(projects::id),
                        ),
                    )
                    .select(components::id)
            ),
            Scope::Component => in_components!(
                components::table
                    .filter(
                        components::slug
                            .eq(value.clone())
                            .or(lower(components::name).eq(lower(value.clone()))),
                    )
                    .select(components::id)
            ),
        },
        Condition::And(parts) => balanced(parts, ctx, &|a, b| Box::new(a.and(b)), "1 = 1"),
        Condition::Or(parts) => balanced(parts, ctx, &|a, b| Box::new(a.or(b)), "1 = 0"),
        Condition::Not(inner) => Box::new(diesel::dsl::not(expression(inner))),
    }
}

/// The earliest and latest time the comparisons admit (a strict one
/// moves its bound by a microsecond, the storage's precision).
fn time_bounds(times: &[(Op, NaiveDateTime)]) -> (NaiveDateTime, NaiveDateTime) {
    let tick = chrono::Duration::microseconds(1);
    // Both dates exist: the fallbacks are never taken.
    let mut from = NaiveDate::from_ymd_opt(1, 1, 1)
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .unwrap_or(NaiveDateTime::MIN);
    let mut to = NaiveDate::from_ymd_opt(9999, 12, 31)
        .and_then(|d| d.and_hms_opt(23, 59, 59))
        .unwrap_or(NaiveDateTime::MAX);
    for (op, at) in times {
        let (low, high) = match op {
            Op::Contains | Op::Exact => (Some(*at), Some(*at)),
            Op::Greater => (Some(*at + tick), None),
            Op::GreaterEqual => (Some(*at), None),
            Op::Less => (None, Some(*at - tick)),
            Op::LessEqual => (None, Some(*at)),
        };
        from = low.map_or(from, |l| from.max(l));
        to = high.map_or(to, |h| to.min(h));
    }
    (from, to)
}

/// Who the event's author may be: anyone, nobody, or the one username
/// (several different ones: no event qualifies).
fn authorship(authors: &[Option<String>]) -> (bool, bool, Option<String>) {
    match authors {
        [] => (true, false, None),
        [first, rest @ ..] if rest.iter().all(|a| a == first) => match first {
            None => (false, true, None),
            Some(name) => (false, false, Some(name.clone())),
        },
        _ => (false, false, None),
    }
}

/// Units with a change event that the filter describes: of a unit, of
/// the actions, in the time span, by the author (one sub-select).
fn changed(filter: &ChangeFilter) -> Expression {
    let (from, to) = time_bounds(&filter.times);
    let actions = filter
        .actions
        .clone()
        .unwrap_or_else(|| Action::all().map(|a| a.0).collect());
    let (anyone, nobody, name) = authorship(&filter.authors);
    let named = name.is_some();
    Box::new(
        units::id.eq_any(
            changes::table
                .filter(changes::unit_id.is_not_null())
                .filter(changes::action.eq_any(actions))
                .filter(changes::created.between(from, to))
                .filter(
                    anyone
                        .into_sql::<Bool>()
                        .or(changes::author_id.is_null().and(nobody.into_sql::<Bool>()))
                        .or(changes::author_id
                            .assume_not_null()
                            .eq_any(
                                users::table
                                    .filter(users::username.eq(name.unwrap_or_default()))
                                    .select(users::id),
                            )
                            .and(named.into_sql::<Bool>())),
                )
                .select(changes::unit_id.assume_not_null()),
        ),
    )
}

/// The SQL of `parts` joined two by two into a balanced tree (see
/// [`joined_balanced`]); `empty` when there are none.
fn balanced(
    parts: &[Condition],
    ctx: Ctx<'_>,
    join: &dyn Fn(Expression, Expression) -> Expression,
    empty: &'static str,
) -> Expression {
    let parts = parts.iter().map(|p| expression(p, ctx)).collect();
    joined_balanced(parts, join, empty)
}

/// `parts` joined two by two into a balanced tree, so that a long chain
/// nests only as deep as its logarithm when SQL is written from it;
/// `empty` when there are none.
fn joined_balanced(
    mut parts: Vec<Expression>,
    join: &dyn Fn(Expression, Expression) -> Expression,
    empty: &'static str,
) -> Expression {
    match parts.len() {
        0 => Box::new(sql::<Bool>(empty)),
        1 => parts.remove(0),
        n => {
            let right = parts.split_off(n / 2);
            join(
                joined_balanced(parts, join, empty),
                joined_balanced(right, join, empty),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index query of a search as a user writes it.
    fn index_query_of(text: &str) -> Option<String> {
        let query = tolk_domain::query::parse(text).unwrap().unwrap();
        index_query(&query.condition(chrono::Utc::now().naive_utc()).unwrap())
    }

    #[test]
    fn the_index_is_asked_once_for_the_text_of_the_whole_query() {
        assert_eq!(
            index_query_of("source:1999 target:translation").as_deref(),
            Some(r#"("1999") AND ("translation")"#)
        );
        assert_eq!(
            index_query_of(r#"context:'say "hi"' OR source:abc"#).as_deref(),
            Some(r#"("abc") OR ("say ""hi""")"#)
        );
        // A plain word is looked for in the three columns: one phrase.
        assert_eq!(
            index_query_of(r#""number 1999 with""#).as_deref(),
            Some(r#""number 1999 with""#)
        );
        // Parts the index cannot see narrow nothing in an AND...
        assert_eq!(
            index_query_of("state:translated AND NOT target:xyz AND note:abcd AND source:abc")
                .as_deref(),
            Some(r#""abc""#)
        );
        // ...and leave an OR to the exact condition alone.
        assert_eq!(index_query_of("source:abc OR state:translated"), None);
        assert_eq!(index_query_of("source:ab"), None);
        assert_eq!(index_query_of("NOT source:abc"), None);
    }

    #[test]
    fn like_patterns_escape_their_wildcards() {
        assert_eq!(containing("100%_a\\b"), "%100\\%\\_a\\\\b%");
    }
}
