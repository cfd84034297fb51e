//! Recent changes: the content changes of a project, language or
//! translation in the six hours up to its last change.
//!
//! Recording a content change also adds it to a per-minute tally of its
//! project, its language and its translation (`change_minutes`). A count
//! then adds at most 360 tallies and counts only the changes of the two
//! minutes cut by the window's edges, however many changes those hours
//! hold.

use std::collections::BTreeMap;

use chrono::{Duration, NaiveDateTime, Timelike};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Timestamp};
use tolk_domain::change::Action;

use crate::DbConnection;
use crate::error::StoreResult;
use crate::sql::Prepared;

/// Where a content change was made, as tallied.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Place {
    /// Its project.
    pub(crate) project_id: Option<i64>,
    /// Its language.
    pub(crate) language_id: Option<i64>,
    /// Its translation.
    pub(crate) translation_id: Option<i64>,
}

/// Whose changes a count covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Scope {
    /// The changes of a project.
    Project,
    /// The changes in a language, across projects.
    Language,
    /// The changes of a translation.
    Translation,
}

impl Scope {
    /// The scope's code in `change_minutes.kind`.
    fn kind(self) -> i16 {
        match self {
            Self::Project => 1,
            Self::Language => 2,
            Self::Translation => 3,
        }
    }

    /// The column of `changes` naming the scope's object.
    fn column(self) -> &'static str {
        match self {
            Self::Project => "project_id",
            Self::Language => "language_id",
            Self::Translation => "translation_id",
        }
    }
}

/// How far back from the last change a change counts as recent.
fn window() -> Duration {
    Duration::hours(6)
}

/// The start of the minute holding `at`.
fn minute_of(at: NaiveDateTime) -> NaiveDateTime {
    at - Duration::seconds(i64::from(at.second()))
        - Duration::nanoseconds(i64::from(at.nanosecond()))
}

/// Adds content changes made at `at` in these places to the tallies of
/// their project, language and translation: one statement.
pub(crate) fn tally(
    conn: &mut DbConnection,
    places: &[Place],
    at: NaiveDateTime,
) -> StoreResult<()> {
    let mut counts: BTreeMap<(i16, i64), i64> = BTreeMap::new();
    for place in places {
        let scopes = [
            (Scope::Project, place.project_id),
            (Scope::Language, place.language_id),
            (Scope::Translation, place.translation_id),
        ];
        for (scope, id) in scopes {
            if let Some(id) = id {
                *counts.entry((scope.kind(), id)).or_default() += 1;
            }
        }
    }
    if counts.is_empty() {
        return Ok(());
    }
    let minute = minute_of(at);
    // Written by hand, as diesel prepares a batch insert again at every
    // run: kept prepared for the shapes of one edit (up to its three
    // places), prepared at each run for more.
    let mut statement = Prepared::default();
    if counts.len() > 3 {
        statement.once();
    }
    statement.sql("INSERT INTO change_minutes (kind, scope_id, minute, n) VALUES ");
    for (i, ((kind, id), n)) in counts.into_iter().enumerate() {
        statement
            .sql(if i == 0 { "(" } else { ", (" })
            .number(kind.into())
            .sql(", ")
            .number(id)
            .sql(", ")
            .time(Some(minute))
            .sql(", ")
            .number(n)
            .sql(")");
    }
    statement.sql(
        " ON CONFLICT (kind, scope_id, minute) DO UPDATE SET n = change_minutes.n + excluded.n",
    );
    statement.execute(conn)?;
    Ok(())
}

/// Objects whose recent changes one statement counts.
const CHUNK: usize = 500;

/// The number of recent changes of the `n`th object asked about.
#[derive(QueryableByName)]
struct Recent {
    #[diesel(sql_type = BigInt)]
    n: i64,
    #[diesel(sql_type = BigInt)]
    recent: i64,
}

/// The recent changes of each object of `scope` given by id and last
/// change (none without a last change), in the order given; one statement
/// per few hundred objects.
pub(crate) fn count(
    conn: &mut DbConnection,
    scope: Scope,
    items: &[(i64, Option<NaiveDateTime>)],
) -> StoreResult<Vec<i64>> {
    let windows: Vec<(i64, i64, NaiveDateTime)> = (0_i64..)
        .zip(items)
        .filter_map(|(n, (id, last))| last.map(|last| (n, *id, last)))
        .collect();
    let actions: Vec<String> = Action::all()
        .filter(|a| a.is_content())
        .map(|a| a.0.to_string())
        .collect();
    let actions = actions.join(", ");
    let time = "TIMESTAMP";
    let column = scope.column();
    let kind = scope.kind();
    let mut recent = vec![0; items.len()];
    for chunk in windows.chunks(CHUNK) {
        let (values, _) = crate::sql::numbered_rows(
            conn,
            chunk.len(),
            &["BIGINT", "BIGINT", time, time, time, time],
        );
        // Whole minutes of the window from their tallies, plus the changes
        // after its start in the minute that holds the start, minus those
        // after the last change in the minute that holds it.
        let edge = |from: &str, to: &str| {
            format!(
                "(SELECT COUNT(*) FROM changes c WHERE c.{column} = v.id \
                 AND c.created > v.{from} AND c.created < v.{to} AND c.action IN ({actions}))"
            )
        };
        let sql = format!(
            "WITH v(n, id, since, first_minute, last, after_last) AS (VALUES {values}) \
             SELECT v.n AS n, CAST(COALESCE((SELECT SUM(m.n) FROM change_minutes m \
             WHERE m.kind = {kind} AND m.scope_id = v.id AND m.minute >= v.first_minute \
             AND m.minute < v.after_last), 0) + {} - {} AS BIGINT) AS recent FROM v",
            edge("since", "first_minute"),
            edge("last", "after_last"),
        );
        let mut query = diesel::sql_query(sql).into_boxed::<crate::MultiBackend>();
        for (n, id, last) in chunk {
            let since = *last - window();
            query = query
                .bind::<BigInt, _>(*n)
                .bind::<BigInt, _>(*id)
                .bind::<Timestamp, _>(since)
                .bind::<Timestamp, _>(minute_of(since) + Duration::minutes(1))
                .bind::<Timestamp, _>(*last)
                .bind::<Timestamp, _>(minute_of(*last) + Duration::minutes(1));
        }
        for row in query.load::<Recent>(conn)? {
            if let Some(slot) = usize::try_from(row.n).ok().and_then(|n| recent.get_mut(n)) {
                *slot = row.recent;
            }
        }
    }
    Ok(recent)
}
