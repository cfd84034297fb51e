//! Statistics summed from the counters each translation keeps up to date,
//! so no request ever scans units.

use chrono::NaiveDateTime;
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable, Timestamp};
use tolk_domain::permission::ProjectVisibility;
use tolk_domain::stats::{Count, Counters};

use crate::DbConnection;
use crate::error::StoreResult;
use crate::recent_changes::{self, Scope};
use crate::schema::{components, translations};

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
    summary.recent_changes = recent_of(conn, Scope::Project, project_id, summary.last_change)?;
    Ok(summary)
}

/// Statistics of a set of components (a category's): their
/// translations summed, recent changes counted per translation.
pub fn of_components(conn: &mut DbConnection, component_ids: &[i64]) -> StoreResult<Summary> {
    let sums: Sums = translations::table
        .filter(translations::component_id.eq_any(component_ids.to_vec()))
        .select(sums())
        .first(conn)?;
    let mut summary = summary(sums);
    let windows: Vec<(i64, Option<NaiveDateTime>)> = translations::table
        .filter(translations::component_id.eq_any(component_ids.to_vec()))
        .select((translations::id, translations::last_change))
        .load(conn)?;
    summary.recent_changes = recent_changes::count(conn, Scope::Translation, &windows)?
        .iter()
        .sum();
    Ok(summary)
}

/// The counters of the translations of these components, into one
/// language when given, summed; one statement.
pub fn counters_of_components(
    conn: &mut DbConnection,
    component_ids: &[i64],
    language_id: Option<i64>,
) -> StoreResult<Counters> {
    let mut query = translations::table
        .filter(translations::component_id.eq_any(component_ids.to_vec()))
        .into_boxed();
    if let Some(language_id) = language_id {
        query = query.filter(translations::language_id.eq(language_id));
    }
    Ok(summary(query.select(sums()).first(conn)?).counters)
}

/// The counters of each of these projects, its translations summed; one
/// statement. A project without translations is left out.
pub fn counters_of_projects(
    conn: &mut DbConnection,
    project_ids: &[i64],
) -> StoreResult<Vec<(i64, Counters)>> {
    let rows: Vec<(i64, Sums)> = translations::table
        .inner_join(components::table)
        .filter(components::project_id.eq_any(project_ids.to_vec()))
        .group_by(components::project_id)
        .select((components::project_id, sums()))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(project_id, sums)| (project_id, summary(sums).counters))
        .collect())
}

/// The counters of each of these components, its translations summed;
/// one statement. A component without translations is left out.
pub fn counters_of_each_component(
    conn: &mut DbConnection,
    component_ids: &[i64],
) -> StoreResult<Vec<(i64, Counters)>> {
    let rows: Vec<(i64, Sums)> = translations::table
        .filter(translations::component_id.eq_any(component_ids.to_vec()))
        .group_by(translations::component_id)
        .select((translations::component_id, sums()))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(component_id, sums)| (component_id, summary(sums).counters))
        .collect())
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
    summary.recent_changes = recent_of(conn, Scope::Language, language_id, summary.last_change)?;
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

/// The statistics of translations from the counters they keep: each is
/// given as id, counters and last change; their recent changes come from
/// the per-minute tallies, one statement per few hundred translations.
pub fn of_translations(
    conn: &mut DbConnection,
    items: &[(i64, Counters, Option<NaiveDateTime>)],
) -> StoreResult<Vec<Summary>> {
    let windows: Vec<(i64, Option<NaiveDateTime>)> =
        items.iter().map(|(id, _, last)| (*id, *last)).collect();
    let recent = recent_changes::count(conn, Scope::Translation, &windows)?;
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

/// The recent changes of one object of `scope`.
fn recent_of(
    conn: &mut DbConnection,
    scope: Scope,
    id: i64,
    last_change: Option<NaiveDateTime>,
) -> StoreResult<i64> {
    let counts = recent_changes::count(conn, scope, &[(id, last_change)])?;
    Ok(counts.first().copied().unwrap_or(0))
}
