//! Regular expressions in unit searches, run by one engine whatever the
//! database: Rust's `regex` (no look-around or back-references, so
//! matching is linear in the text), never PostgreSQL's `~` nor an engine
//! registered in SQLite. A search with regular expressions reads the
//! candidate units (those the rest of the query admits) in batches, runs
//! each expression over its column here, and the query then names the
//! matching units by id ([`Matched`]); both databases give the same
//! answer for every pattern.
//!
//! Each search has a budget, whoever asks: [`TIME_BUDGET`] of reading and
//! matching, and [`TEXT_BUDGET`] of text looked at. Past either, the
//! search stops with [`StoreError::SearchBudget`], which says so.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use diesel::prelude::*;
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

/// The units each regular expression of a search matched, among its
/// candidates, by column and pattern.
#[derive(Debug, Default)]
pub(crate) struct Matched {
    ids: HashMap<(TextField, String), Vec<i64>>,
}

impl Matched {
    /// The ids the expression `pattern` on `field` matched (none when it
    /// was not run).
    pub(crate) fn ids(&self, field: TextField, pattern: &str) -> &[i64] {
        self.ids
            .get(&(field, pattern.to_owned()))
            .map_or(&[], Vec::as_slice)
    }
}

/// Every regular expression of `condition` with its column, each once.
pub(crate) fn patterns(condition: &Condition) -> Vec<(TextField, &str)> {
    let mut found = Vec::new();
    collect(condition, &mut found);
    found.sort_unstable_by_key(|(field, pattern)| (*field as u8, *pattern));
    found.dedup();
    found
}

fn collect<'a>(condition: &'a Condition, found: &mut Vec<(TextField, &'a str)>) {
    match condition {
        Condition::Regex { field, pattern } => found.push((*field, pattern)),
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
            .map(|(_, pattern)| compile(pattern).map(|regex| (*pattern, regex)))
            .collect::<StoreResult<Vec<_>>>()?;
        let mut found: Vec<Vec<i64>> = vec![Vec::new(); compiled.len()];
        let mut after = i64::MIN;
        loop {
            let rows: Vec<(i64, String)> = candidates()
                .filter(units::id.gt(after))
                .order(units::id)
                .limit(BATCH)
                .select((units::id, crate::unit_search::text_column(field)))
                .load(conn)?;
            for (id, text) in &rows {
                budget.spend(text.len())?;
                for ((_, regex), ids) in compiled.iter().zip(&mut found) {
                    if regex.is_match(text) {
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
            matched.ids.insert((field, pattern.to_owned()), ids);
        }
    }
    Ok(matched)
}

/// One pattern compiled as the query parser checked it.
fn compile(pattern: &str) -> StoreResult<regex::Regex> {
    regex::RegexBuilder::new(pattern)
        .size_limit(tolk_domain::query::REGEX_SIZE_LIMIT)
        .build()
        .map_err(|e| StoreError::SearchBudget(format!("Invalid regular expression: {e}")))
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
            r#"source:r"a" (target:r"b" OR NOT source:r"a") context:r"a" source:x"#,
        )
        .unwrap()
        .unwrap();
        let condition = query.condition(chrono::Utc::now().naive_utc()).unwrap();
        assert_eq!(
            patterns(&condition),
            [
                (TextField::Source, "a"),
                (TextField::Target, "b"),
                (TextField::Context, "a")
            ]
        );
    }
}
