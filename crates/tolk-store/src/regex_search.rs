//! Regular expressions in unit searches, run by one engine whatever the
//! database: Rust's `regex` (no look-around or back-references, so
//! matching is linear in the text), never PostgreSQL's `~` nor an engine
//! registered in SQLite. A search with regular expressions reads the
//! candidate units (those the rest of the query admits) in batches, runs
//! each expression over its column here, and the query then names the
//! matching units by id ([`Matched`]); both databases give the same
//! answer for every pattern. Glossary terms (`has:glossary`) are looked
//! for the same way, all at once ([`TermFinder`]), as no regular
//! expression could hold the thousands of terms of a big glossary.
//!
//! Each search has a budget, whoever asks: [`TIME_BUDGET`] of reading and
//! matching, and [`TEXT_BUDGET`] of text looked at. Past either, the
//! search stops with [`StoreError::SearchBudget`], which says so.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use diesel::prelude::*;
use tolk_domain::checks::glossary::TermFinder;
use tolk_domain::query::{Condition, TextField};

use crate::schema::units;
use crate::{DbConnection, StoreError, StoreResult};

/// Longest a search may spend reading candidates and matching its
/// regular expressions.
pub const TIME_BUDGET: Duration = Duration::from_secs(2);

/// Most text (bytes of the searched columns) a search's regular
/// expressions may look at.
pub const TEXT_BUDGET: usize = 256 << 20;

/// Candidates read at a time.
const BATCH: i64 = 5_000;

/// What a search looks for in a text column outside the database.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Pattern<'a> {
    /// A regular expression.
    Regex(&'a str),
    /// Any of these glossary terms, as a whole word.
    Terms(&'a [String]),
}

impl<'a> Pattern<'a> {
    /// The pattern of a condition that is one, with its column.
    pub(crate) fn of(condition: &'a Condition) -> Option<(TextField, Pattern<'a>)> {
        match condition {
            Condition::Regex { field, pattern } => Some((*field, Pattern::Regex(pattern))),
            Condition::Terms { field, terms } => Some((*field, Pattern::Terms(terms))),
            _ => None,
        }
    }

    /// The key it is kept under.
    fn key(&self) -> String {
        match self {
            Pattern::Regex(pattern) => format!("r{pattern}"),
            Pattern::Terms(terms) => format!("t{}", terms.join("\0")),
        }
    }
}

/// A pattern ready to run.
enum Compiled {
    Regex(regex::Regex),
    Terms(TermFinder),
}

impl Compiled {
    fn is_match(&self, text: &str) -> bool {
        match self {
            Compiled::Regex(regex) => regex.is_match(text),
            Compiled::Terms(finder) => finder.finds_in(text),
        }
    }
}

/// The units each pattern of a search matched, among its candidates, by
/// column and pattern.
#[derive(Debug, Default)]
pub(crate) struct Matched {
    ids: HashMap<(TextField, String), Vec<i64>>,
}

impl Matched {
    /// The ids `pattern` on `field` matched (none when it was not run).
    pub(crate) fn ids(&self, field: TextField, pattern: &Pattern<'_>) -> &[i64] {
        self.ids
            .get(&(field, pattern.key()))
            .map_or(&[], Vec::as_slice)
    }
}

/// Every pattern of `condition` with its column, each once.
pub(crate) fn patterns(condition: &Condition) -> Vec<(TextField, Pattern<'_>)> {
    let mut found = Vec::new();
    collect(condition, &mut found);
    found.sort_unstable_by(|(a, p), (b, q)| (*a as u8, p).cmp(&(*b as u8, q)));
    found.dedup();
    found
}

fn collect<'a>(condition: &'a Condition, found: &mut Vec<(TextField, Pattern<'a>)>) {
    if let Some(pattern) = Pattern::of(condition) {
        found.push(pattern);
        return;
    }
    match condition {
        Condition::And(parts) | Condition::Or(parts) => {
            parts.iter().for_each(|p| collect(p, found));
        }
        Condition::Not(inner) => collect(inner, found),
        _ => {}
    }
}

/// Runs every regular expression of `condition` over the candidates that
/// `candidates` selects (a fresh query each call: the units a search may
/// return, and maybe more), a column at a time in batches of ids.
pub(crate) fn run(
    conn: &mut DbConnection,
    condition: &Condition,
    candidates: &dyn Fn() -> units::BoxedQuery<'static, crate::MultiBackend>,
) -> StoreResult<Matched> {
    let patterns = patterns(condition);
    let mut matched = Matched::default();
    if patterns.is_empty() {
        return Ok(matched);
    }
    let mut budget = Budget::new(TIME_BUDGET, TEXT_BUDGET);
    let mut fields: Vec<TextField> = patterns.iter().map(|(f, _)| *f).collect();
    fields.dedup();
    for field in fields {
        let compiled = patterns
            .iter()
            .filter(|(f, _)| *f == field)
            .map(|(_, pattern)| compile(pattern).map(|compiled| (pattern, compiled)))
            .collect::<StoreResult<Vec<_>>>()?;
        let mut found: Vec<Vec<i64>> = vec![Vec::new(); compiled.len()];
        let mut after = i64::MIN;
        loop {
            let rows: Vec<(i64, String)> = candidates()
                .filter(units::id.gt(after))
                .order(units::id)
                .limit(BATCH)
                .select((units::id, crate::unit_columns::text_column(field)))
                .load(conn)?;
            for (id, text) in &rows {
                budget.spend(text.len())?;
                for ((_, compiled), ids) in compiled.iter().zip(&mut found) {
                    if compiled.is_match(text) {
                        ids.push(*id);
                    }
                }
            }
            match rows.last() {
                Some((id, _)) if rows.len() as i64 == BATCH => after = *id,
                _ => break,
            }
        }
        for ((pattern, _), ids) in compiled.into_iter().zip(found) {
            matched.ids.insert((field, pattern.key()), ids);
        }
    }
    Ok(matched)
}

/// One pattern compiled (a regular expression as the query parser
/// checked it).
fn compile(pattern: &Pattern<'_>) -> StoreResult<Compiled> {
    match pattern {
        Pattern::Regex(pattern) => regex::RegexBuilder::new(pattern)
            .size_limit(tolk_domain::query::REGEX_SIZE_LIMIT)
            .build()
            .map(Compiled::Regex)
            .map_err(|e| StoreError::SearchBudget(format!("Invalid regular expression: {e}"))),
        Pattern::Terms(terms) => Ok(Compiled::Terms(TermFinder::new(
            terms.iter().map(String::as_str),
        ))),
    }
}

/// What a search may spend, and has spent.
struct Budget {
    started: Instant,
    time: Duration,
    text: usize,
    text_limit: usize,
}

impl Budget {
    fn new(time: Duration, text_limit: usize) -> Budget {
        Budget {
            started: Instant::now(),
            time,
            text: 0,
            text_limit,
        }
    }

    /// Counts `bytes` more of text; an error once past either limit.
    fn spend(&mut self, bytes: usize) -> StoreResult<()> {
        self.text += bytes;
        if self.text > self.text_limit {
            return Err(StoreError::SearchBudget(format!(
                "The regular expressions of this search would look at more than {} MiB of text; \
                 narrow the search down (a project, component, language or plain word).",
                self.text_limit >> 20
            )));
        }
        if self.started.elapsed() > self.time {
            return Err(StoreError::SearchBudget(format!(
                "The regular expressions of this search took longer than {} s; narrow the search \
                 down (a project, component, language or plain word) or simplify them.",
                self.time.as_secs_f64()
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_stops_past_its_time_or_text_and_says_which() {
        let mut budget = Budget::new(Duration::from_secs(60), 3 << 20);
        budget.spend(2 << 20).unwrap();
        let error = budget.spend(2 << 20).unwrap_err().to_string();
        assert!(error.contains("more than 3 MiB of text"), "{error}");
        let mut budget = Budget::new(Duration::from_millis(1), usize::MAX);
        std::thread::sleep(Duration::from_millis(5));
        let error = budget.spend(1).unwrap_err().to_string();
        assert!(error.contains("took longer than 0.001 s"), "{error}");
    }

    #[test]
    fn patterns_are_listed_once_each_with_their_column() {
        let query = tolk_domain::query::parse(
            r#"source:r"a" (target:r"b" OR NOT source:r"a") context:r"a" source:x has:glossary"#,
        )
        .unwrap()
        .unwrap();
        let terms = ["file".to_owned()];
        let condition = query
            .condition(chrono::Utc::now().naive_utc())
            .unwrap()
            .with_glossary(&terms);
        assert_eq!(
            patterns(&condition),
            [
                (TextField::Source, Pattern::Regex("a")),
                (TextField::Source, Pattern::Terms(&terms)),
                (TextField::Target, Pattern::Regex("b")),
                (TextField::Context, Pattern::Regex("a"))
            ]
        );
    }
}
