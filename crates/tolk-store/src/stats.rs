//! Statistics summed from the counters each translation keeps up to date,
//! so no request ever scans units.

use chrono::{Duration, NaiveDateTime};
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable, Timestamp};
use tolk_domain::change::Action;
use tolk_domain::permission::ProjectVisibility;
use tolk_domain::stats::{Count, Counters};

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::{changes, components, translations};

/// Counters of an object and the time of its last change.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Summed counters.
    pub counters: Counters,
    /// Last change of any summed translation.
    pub last_change: Option<NaiveDateTime>,
    /// Content changes within six hours before the last change.
    pub recent_changes: i64,
}

type SumsSql = (
    (
        BigInt,
        BigInt,
        BigInt,
        BigInt,
        BigInt,
        BigInt,
        BigInt,
        BigInt,
    ),
    (
        BigInt,
        BigInt,
        BigInt,
        BigInt,
        BigInt,
        BigInt,
        BigInt,
        BigInt,
    ),
    (BigInt, BigInt, BigInt, Nullable<Timestamp>),
);
type Sums = (
    (i64, i64, i64, i64, i64, i64, i64, i64),
    (i64, i64, i64, i64, i64, i64, i64, i64),
    (i64, i64, i64, Option<NaiveDateTime>),
);

/// The counter columns summed, in the order of [`Sums`].
const SUMMED: [&str; 20] = [
    "total",
    "total_words",
    "total_chars",
    "translated",
    "translated_words",
    "translated_chars",
    "fuzzy",
    "fuzzy_words",
    "fuzzy_chars",
    "approved",
    "approved_words",
    "approved_chars",
    "readonly",
    "readonly_words",
    "readonly_chars",
    "failing",
    "suggestions",
    "comments",
    "failing_words",
    "last_change",
];

fn sums() -> diesel::expression::SqlLiteral<SumsSql> {
    let columns: Vec<String> = SUMMED
        .iter()
        .map(|c| match *c {
            "last_change" => "MAX(translations.last_change)".to_owned(),
            c => format!("CAST(COALESCE(SUM(translations.{c}), 0) AS BIGINT)"),
        })
        .collect();
    sql::<SumsSql>(&columns.join(", "))
}

fn summary(sums: Sums) -> Summary {
    let (
        (total, total_w, total_c, tr, tr_w, tr_c, fz, fz_w),
        (fz_c, ap, ap_w, ap_c, ro, ro_w, ro_c, failing),
        (suggestions, comments, failing_words, last_change),
    ) = sums;
    let count = |strings, words, chars| Count {
        strings,
        words,
        chars,
    };
    Summary {
        counters: Counters {
            total: count(total, total_w, total_c),
            translated: count(tr, tr_w, tr_c),
            fuzzy: count(fz, fz_w, fz_c),
            approved: count(ap, ap_w, ap_c),
            readonly: count(ro, ro_w, ro_c),
            failing,
            failing_words,
            suggestions,
            comments,
        },
        last_change,
        recent_changes: 0,
    }
}

/// Statistics of a project.
pub fn project(conn: &mut DbConnection, project_id: i64) -> StoreResult<Summary> {
    let sums: Sums = translations::table
        .inner_join(components::table)
        .filter(components::project_id.eq(project_id))
        .select(sums())
        .first(conn)?;
    let mut summary = summary(sums);
    summary.recent_changes = recent_changes(conn, Scope::Project(project_id), summary.last_change)?;
    Ok(summary)
}

/// Statistics of one language over the projects the caller may see.
pub fn language(
    conn: &mut DbConnection,
    language_id: i64,
    visibility: &ProjectVisibility,
) -> StoreResult<Summary> {
    let mut query = translations::table
        .filter(translations::language_id.eq(language_id))
        .into_boxed();
    if let Some(visible) = crate::components::visible_ids(visibility) {
        query = query.filter(translations::component_id.eq_any(visible));
    }
    let mut summary = summary(query.select(sums()).first(conn)?);
    summary.recent_changes =
        recent_changes(conn, Scope::Language(language_id), summary.last_change)?;
    Ok(summary)
}

/// Statistics of each language of a project, by language id.
pub fn project_languages(
    conn: &mut DbConnection,
    project_id: i64,
) -> StoreResult<Vec<(i64, Summary)>> {
    let rows: Vec<(i64, Sums)> = translations::table
        .inner_join(components::table)
        .filter(components::project_id.eq(project_id))
        .group_by(translations::language_id)
        .select((translations::language_id, sums()))
        .order(translations::language_id)
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(language_id, sums)| (language_id, summary(sums)))
        .collect())
}

fn content_actions() -> Vec<i32> {
    Action::all()
        .filter(|a| a.is_content())
        .map(|a| a.0)
        .collect()
}

/// Translations whose recent changes one statement counts.
const WINDOW_CHUNK: usize = 500;

/// The number of recent changes of the `n`th translation asked about.
#[derive(QueryableByName)]
struct Recent {
    #[diesel(sql_type = BigInt)]
    n: i64,
    #[diesel(sql_type = BigInt)]
    recent: i64,
}

/// Whose changes count as recent.
enum Scope {
    Project(i64),
    Language(i64),
}

/// Content changes of the scope within six hours before `last_change`.
fn recent_changes(
    conn: &mut DbConnection,
    scope: Scope,
    last_change: Option<NaiveDateTime>,
) -> StoreResult<i64> {
    let Some(last) = last_change else {
        return Ok(0);
    };
    let query = changes::table
        .filter(changes::action.eq_any(content_actions()))
        .filter(changes::created.gt(last - Duration::hours(6)))
        .filter(changes::created.le(last))
        .into_boxed();
    let query = match scope {
        Scope::Project(id) => query.filter(changes::project_id.eq(id)),
        Scope::Language(id) => query.filter(changes::language_id.eq(id)),
    };
    Ok(query.count().get_result(conn)?)
}

/// The statistics of translations from the counters they keep: each is
/// given as id, counters and last change; one statement per few hundred
/// translations counts the recent changes of each in the index of its
/// changes (by translation, time and action), never loading them.
pub fn of_translations(
    conn: &mut DbConnection,
    items: &[(i64, Counters, Option<NaiveDateTime>)],
) -> StoreResult<Vec<Summary>> {
    // Each item's window, numbered by its place in `items`.
    let windows: Vec<(i64, i64, NaiveDateTime)> = (0_i64..)
        .zip(items)
        .filter_map(|(n, (id, _, last))| last.map(|last| (n, *id, last)))
        .collect();
    let actions: Vec<String> = content_actions().iter().map(i32::to_string).collect();
    // SQLite keeps times as text; a cast to TIMESTAMP would make numbers.
    let time = match conn {
        DbConnection::Sqlite(_) => "TEXT",
        DbConnection::Pg(_) => "TIMESTAMP",
    };
    let mut recent = vec![0; items.len()];
    for chunk in windows.chunks(WINDOW_CHUNK) {
        let (values, _) = crate::sql::numbered_rows(chunk.len(), &["BIGINT", "BIGINT", time, time]);
        let sql = format!(
            "WITH v(n, id, since, last) AS (VALUES {values}) \
             SELECT v.n AS n, (SELECT COUNT(*) FROM changes c WHERE c.translation_id = v.id \
             AND c.created > v.since AND c.created <= v.last \
             AND c.action IN ({})) AS recent FROM v",
            actions.join(", ")
        );
        let mut query = diesel::sql_query(sql).into_boxed::<crate::MultiBackend>();
        for (n, id, last) in chunk {
            query = query
                .bind::<BigInt, _>(*n)
                .bind::<BigInt, _>(*id)
                .bind::<Timestamp, _>(*last - Duration::hours(6))
                .bind::<Timestamp, _>(*last);
        }
        for row in query.load::<Recent>(conn)? {
            if let Some(slot) = usize::try_from(row.n).ok().and_then(|n| recent.get_mut(n)) {
                *slot = row.recent;
            }
        }
    }
    Ok(items
        .iter()
        .zip(recent)
        .map(|((_, counters, last_change), recent_changes)| Summary {
            counters: *counters,
            last_change: *last_change,
            recent_changes,
        })
        .collect())
}
