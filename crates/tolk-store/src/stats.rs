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
use crate::kept_stats::{COUNTERS, Level, Tallied};
use crate::recent_changes::{self, Scope};
use crate::schema::translations;

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
    (BigInt, BigInt, BigInt, BigInt, Nullable<Timestamp>),
);
type Sums = (
    (i64, i64, i64, i64, i64, i64, i64, i64),
    (i64, i64, i64, i64, i64, i64, i64, i64),
    (i64, i64, i64, i64, Option<NaiveDateTime>),
);

fn sums() -> diesel::expression::SqlLiteral<SumsSql> {
    // The counters in the order of [`Sums`], then the last change.
    let columns: Vec<String> = COUNTERS
        .iter()
        .map(|c| format!("CAST(COALESCE(SUM(translations.{c}), 0) AS BIGINT)"))
        .chain(["MAX(translations.last_change)".to_owned()])
        .collect();
    sql::<SumsSql>(&columns.join(", "))
}

fn summary(sums: Sums) -> Summary {
    let (
        (total, total_w, total_c, tr, tr_w, tr_c, fz, fz_w),
        (fz_c, ap, ap_w, ap_c, ro, ro_w, ro_c, failing),
        (failing_words, failing_chars, suggestions, comments, last_change),
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
            failing_chars,
            suggestions,
            comments,
        },
        last_change,
        recent_changes: 0,
    }
}

/// Statistics of a project, from the statistics kept for it.
pub fn project(conn: &mut DbConnection, project_id: i64) -> StoreResult<Summary> {
    let mut summary = one(kept(conn, Kept::Project(project_id))?);
    summary.recent_changes = recent_of(conn, Scope::Project, project_id, summary.last_change)?;
    Ok(summary)
}

/// Statistics of the whole site, from the statistics kept for it.
pub fn site(conn: &mut DbConnection) -> StoreResult<Summary> {
    Ok(one(kept(conn, Kept::Site)?))
}

/// Statistics of a set of components (a category's): their kept
/// statistics summed, recent changes counted per translation.
pub fn of_components(conn: &mut DbConnection, component_ids: &[i64]) -> StoreResult<Summary> {
    let mut summary = one(kept(conn, Kept::Components(component_ids))?);
    let windows: Vec<(i64, Option<NaiveDateTime>)> = translations::table
        .filter(translations::component_id.eq_any(component_ids.to_vec()))
        .select((translations::id, translations::last_change))
        .load(conn)?;
    summary.recent_changes = recent_changes::count(conn, Scope::Translation, &windows)?
        .iter()
        .sum();
    Ok(summary)
}

/// The counters of these components, into one language when given,
/// summed; one statement (a component's kept statistics, or in one
/// language the counters of its translations).
pub fn counters_of_components(
    conn: &mut DbConnection,
    component_ids: &[i64],
    language_id: Option<i64>,
) -> StoreResult<Counters> {
    let Some(language_id) = language_id else {
        return Ok(one(kept(conn, Kept::Components(component_ids))?).counters);
    };
    let query = translations::table
        .filter(translations::component_id.eq_any(component_ids.to_vec()))
        .filter(translations::language_id.eq(language_id));
    Ok(summary(query.select(sums()).first(conn)?).counters)
}

/// The counters of each of these projects, from their kept statistics;
/// one statement. A project without translations is left out.
pub fn counters_of_projects(
    conn: &mut DbConnection,
    project_ids: &[i64],
) -> StoreResult<Vec<(i64, Counters)>> {
    Ok(kept(conn, Kept::Projects(project_ids))?
        .into_iter()
        .map(|(id, summary)| (id, summary.counters))
        .collect())
}

/// The counters of each of these components, from their kept statistics;
/// one statement. A component without translations is left out.
pub fn counters_of_each_component(
    conn: &mut DbConnection,
    component_ids: &[i64],
) -> StoreResult<Vec<(i64, Counters)>> {
    Ok(kept(conn, Kept::Components(component_ids))?
        .into_iter()
        .map(|(id, summary)| (id, summary.counters))
        .collect())
}

/// Statistics of one language over the projects the caller may see: kept
/// for a caller who sees every project, else summed from the visible
/// translations.
pub fn language(
    conn: &mut DbConnection,
    language_id: i64,
    visibility: &ProjectVisibility,
) -> StoreResult<Summary> {
    let mut summary = match crate::components::visible_ids(visibility) {
        None => one(kept(conn, Kept::Language(language_id))?),
        Some(visible) => summary(
            translations::table
                .filter(translations::language_id.eq(language_id))
                .filter(translations::component_id.eq_any(visible))
                .select(sums())
                .first(conn)?,
        ),
    };
    summary.recent_changes = recent_of(conn, Scope::Language, language_id, summary.last_change)?;
    Ok(summary)
}

/// Statistics of each language of a project, by language id, from the
/// statistics kept for them; one statement.
pub fn project_languages(
    conn: &mut DbConnection,
    project_id: i64,
) -> StoreResult<Vec<(i64, Summary)>> {
    kept(conn, Kept::ProjectLanguages(project_id))
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

/// Whose kept statistics [`kept`] reads.
#[derive(Debug, Clone, Copy)]
enum Kept<'a> {
    /// A project.
    Project(i64),
    /// Each language of a project.
    ProjectLanguages(i64),
    /// Each of these projects.
    Projects(&'a [i64]),
    /// Each of these components.
    Components(&'a [i64]),
    /// A language in every project.
    Language(i64),
    /// The site.
    Site,
}

/// A sum of kept statistics, with the object it is for.
#[derive(QueryableByName)]
struct KeptRow {
    #[diesel(sql_type = BigInt)]
    k: i64,
    #[diesel(embed)]
    tallied: Tallied,
}

/// The statistics kept for `which`, with the pending changes not yet
/// folded into them, by object (a project, component or language id), in
/// its order; one statement, so the kept and pending rows it adds are of
/// one moment. Objects without translations are left out.
fn kept(conn: &mut DbConnection, which: Kept<'_>) -> StoreResult<Vec<(i64, Summary)>> {
    let ids: Vec<i64> = match which {
        Kept::Project(id) | Kept::ProjectLanguages(id) | Kept::Language(id) => vec![id],
        Kept::Projects(ids) | Kept::Components(ids) => ids.to_vec(),
        Kept::Site => Vec::new(),
    };
    if ids.is_empty() && !matches!(which, Kept::Site) {
        return Ok(Vec::new());
    }
    let list: Vec<String> = (1..=ids.len())
        .map(|n| crate::sql::placeholder(conn, n, "BIGINT"))
        .collect();
    let list = list.join(", ");
    let (kept_where, kept_key, pending_where, pending_key) = match which {
        Kept::Project(_) | Kept::Projects(_) => (
            format!(
                "scope = {} AND object_id IN ({list})",
                Level::Project as i16
            ),
            "object_id",
            format!("project_id IN ({list})"),
            "project_id",
        ),
        Kept::ProjectLanguages(_) => (
            format!(
                "scope = {} AND object_id IN ({list})",
                Level::ProjectLanguage as i16
            ),
            "language_id",
            format!("project_id IN ({list})"),
            "language_id",
        ),
        Kept::Components(_) => (
            format!(
                "scope = {} AND object_id IN ({list})",
                Level::Component as i16
            ),
            "object_id",
            format!("component_id IN ({list})"),
            "component_id",
        ),
        Kept::Language(_) => (
            format!(
                "scope = {} AND language_id IN ({list})",
                Level::Language as i16
            ),
            "language_id",
            format!("language_id IN ({list})"),
            "language_id",
        ),
        Kept::Site => (
            format!("scope = {}", Level::Site as i16),
            "CAST(0 AS BIGINT)",
            "1 = 1".to_owned(),
            "CAST(0 AS BIGINT)",
        ),
    };
    let columns = format!("translations, {}", COUNTERS.join(", "));
    let summed: Vec<String> = std::iter::once(&"translations")
        .chain(&COUNTERS)
        .map(|c| format!("CAST(COALESCE(SUM(u.{c}), 0) AS BIGINT) AS {c}"))
        .collect();
    let sql = format!(
        "SELECT u.k AS k, {}, MAX(u.last_change) AS last_change FROM (\
         SELECT {kept_key} AS k, {columns}, last_change FROM stats_kept WHERE {kept_where} \
         UNION ALL \
         SELECT {pending_key} AS k, {columns}, last_change FROM stats_pending WHERE {pending_where}\
         ) u GROUP BY u.k HAVING SUM(u.translations) > 0 ORDER BY u.k",
        summed.join(", ")
    );
    let mut query = diesel::sql_query(sql).into_boxed::<crate::MultiBackend>();
    for id in ids {
        query = query.bind::<BigInt, _>(id);
    }
    Ok(query
        .load::<KeptRow>(conn)?
        .into_iter()
        .map(|row| {
            let summary = Summary {
                counters: row.tallied.counters(),
                last_change: row.tallied.last_change,
                recent_changes: 0,
            };
            (row.k, summary)
        })
        .collect())
}

/// The sum of the summaries of [`kept`] (none gives zeros).
fn one(rows: Vec<(i64, Summary)>) -> Summary {
    rows.into_iter()
        .fold(Summary::default(), |mut all, (_, summary)| {
            all.counters += summary.counters;
            all.last_change = all.last_change.max(summary.last_change);
            all
        })
}
