//! Statistics kept above translations: one row per component, project,
//! project and language, language, and the site (`stats_kept`), so that
//! no read sums translations.
//!
//! A change of a translation's counters never writes those rows: the same
//! transaction inserts its difference into `stats_pending`, where rows are
//! only added, so no edit waits for another edit's row (on PostgreSQL a
//! kept project row would make every edit of the project queue behind the
//! one before). [`merge`], run by a background step, folds pending rows
//! into the kept ones; a read adds the kept row and the pending rows of
//! its object in one statement (see [`crate::stats`]), so it is exact
//! whenever it runs.

use std::collections::{BTreeMap, BTreeSet};

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable, Timestamp};
use tolk_domain::stats::{Count, Counters};

use crate::DbConnection;
use crate::error::StoreResult;

/// The counter columns of both tables, in the order of [`values`].
pub(crate) const COUNTERS: [&str; 20] = [
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
    "failing_words",
    "failing_chars",
    "suggestions",
    "comments",
];

/// The counters a translation's scan leaves as they are.
const KEPT_BY_SCANS: [&str; 2] = ["suggestions", "comments"];

/// The values of `c` in the order of [`COUNTERS`].
fn values(c: &Counters) -> [i64; COUNTERS.len()] {
    let count = |n: &Count| [n.strings, n.words, n.chars];
    let [a, b, d] = count(&c.total);
    let [e, f, g] = count(&c.translated);
    let [h, i, j] = count(&c.fuzzy);
    let [k, l, m] = count(&c.approved);
    let [n, o, p] = count(&c.readonly);
    [
        a,
        b,
        d,
        e,
        f,
        g,
        h,
        i,
        j,
        k,
        l,
        m,
        n,
        o,
        p,
        c.failing,
        c.failing_words,
        c.failing_chars,
        c.suggestions,
        c.comments,
    ]
}

/// What a level of statistics is kept for (`stats_kept.scope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    /// A component (`object_id`).
    Component = 1,
    /// A project (`object_id`).
    Project = 2,
    /// A project (`object_id`) in one language (`language_id`).
    ProjectLanguage = 3,
    /// A language (`language_id`) in every project.
    Language = 4,
    /// The whole site.
    Site = 5,
}

/// Counters summed by a query, with the last change among them: a row of
/// `stats_kept`, `stats_pending` or a sum of them.
#[derive(Debug, Clone, Copy, Default, QueryableByName)]
pub(crate) struct Tallied {
    /// The number of translations summed.
    #[diesel(sql_type = BigInt)]
    pub(crate) translations: i64,
    #[diesel(sql_type = BigInt)]
    total: i64,
    #[diesel(sql_type = BigInt)]
    total_words: i64,
    #[diesel(sql_type = BigInt)]
    total_chars: i64,
    #[diesel(sql_type = BigInt)]
    translated: i64,
    #[diesel(sql_type = BigInt)]
    translated_words: i64,
    #[diesel(sql_type = BigInt)]
    translated_chars: i64,
    #[diesel(sql_type = BigInt)]
    fuzzy: i64,
    #[diesel(sql_type = BigInt)]
    fuzzy_words: i64,
    #[diesel(sql_type = BigInt)]
    fuzzy_chars: i64,
    #[diesel(sql_type = BigInt)]
    approved: i64,
    #[diesel(sql_type = BigInt)]
    approved_words: i64,
    #[diesel(sql_type = BigInt)]
    approved_chars: i64,
    #[diesel(sql_type = BigInt)]
    readonly: i64,
    #[diesel(sql_type = BigInt)]
    readonly_words: i64,
    #[diesel(sql_type = BigInt)]
    readonly_chars: i64,
    #[diesel(sql_type = BigInt)]
    failing: i64,
    #[diesel(sql_type = BigInt)]
    failing_words: i64,
    #[diesel(sql_type = BigInt)]
    failing_chars: i64,
    #[diesel(sql_type = BigInt)]
    suggestions: i64,
    #[diesel(sql_type = BigInt)]
    comments: i64,
    #[diesel(sql_type = Nullable<Timestamp>)]
    pub(crate) last_change: Option<NaiveDateTime>,
}

impl Tallied {
    /// The counters it holds.
    pub(crate) fn counters(&self) -> Counters {
        let count = |strings, words, chars| Count {
            strings,
            words,
            chars,
        };
        Counters {
            total: count(self.total, self.total_words, self.total_chars),
            translated: count(
                self.translated,
                self.translated_words,
                self.translated_chars,
            ),
            fuzzy: count(self.fuzzy, self.fuzzy_words, self.fuzzy_chars),
            approved: count(self.approved, self.approved_words, self.approved_chars),
            readonly: count(self.readonly, self.readonly_words, self.readonly_chars),
            failing: self.failing,
            failing_words: self.failing_words,
            failing_chars: self.failing_chars,
            suggestions: self.suggestions,
            comments: self.comments,
        }
    }
}

/// Which translations a change of counters is recorded for.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Translations<'a> {
    /// These translations.
    Ids(&'a [i64]),
    /// Every translation of a component.
    OfComponent(i64),
    /// Every translation of a project.
    OfProject(i64),
}

/// How the translations' counters move.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Move<'a> {
    /// Each by this difference, changed at this time.
    By(&'a Counters, Option<NaiveDateTime>),
    /// Each to these counters (from whatever it holds now), changed at
    /// this time, as a scan sets them: its suggestions and comments, which
    /// a scan leaves, move by the values given. Recorded before the
    /// translation's row is written.
    To(&'a Counters, Option<NaiveDateTime>),
    /// Each to nothing: the translations are about to be deleted.
    Gone,
    /// Each new, its counters at zero.
    Added,
}

/// Records in `stats_pending` how the counters of `which` move; one
/// statement (none for a difference of nothing), kept prepared.
pub(crate) fn record(
    conn: &mut DbConnection,
    which: Translations<'_>,
    how: Move<'_>,
) -> StoreResult<()> {
    let (given, at) = match how {
        Move::By(d, at) if *d == Counters::default() && at.is_none() => return Ok(()),
        Move::By(c, at) | Move::To(c, at) => (values(c), at),
        Move::Gone | Move::Added => ([0; COUNTERS.len()], None),
    };
    if matches!(which, Translations::Ids([])) {
        return Ok(());
    }
    let translations = match how {
        Move::Added => "1",
        Move::Gone => "-1",
        Move::By(..) | Move::To(..) => "0",
    };
    let mut statement = crate::sql::Prepared::default();
    statement.sql(&format!(
        "INSERT INTO stats_pending \
         (component_id, project_id, language_id, translations, {}, last_change) \
         SELECT t.component_id, c.project_id, t.language_id, {translations}",
        COUNTERS.join(", ")
    ));
    for (column, value) in COUNTERS.iter().zip(given) {
        statement.sql(", ");
        match how {
            Move::By(..) => statement.number(value),
            Move::To(..) if KEPT_BY_SCANS.contains(column) => statement.number(value),
            Move::To(..) => statement.number(value).sql(&format!(" - t.{column}")),
            Move::Gone => statement.sql(&format!("0 - t.{column}")),
            Move::Added => statement.sql("0"),
        };
    }
    statement
        .sql(", ")
        .time(at)
        .sql(" FROM translations t JOIN components c ON c.id = t.component_id WHERE ");
    match which {
        Translations::Ids([id]) => statement.sql("t.id = ").number(*id),
        Translations::Ids(ids) => statement.once().sql("t.id IN (").numbers(ids).sql(")"),
        Translations::OfComponent(id) => statement.sql("t.component_id = ").number(id),
        Translations::OfProject(id) => statement.sql("c.project_id = ").number(id),
    };
    statement.execute(conn)?;
    Ok(())
}

/// Forgets the kept rows of a component about to be deleted (its
/// project's and the others' move with the pending rows recorded for its
/// translations).
pub(crate) fn forget_component(conn: &mut DbConnection, component_id: i64) -> StoreResult<()> {
    forget(conn, &[Level::Component], component_id)
}

/// Forgets the kept rows of a project about to be deleted, and of its
/// components.
pub(crate) fn forget_project(conn: &mut DbConnection, project_id: i64) -> StoreResult<()> {
    let mut statement = crate::sql::Prepared::default();
    statement
        .sql(&format!(
            "DELETE FROM stats_kept WHERE scope = {} AND object_id IN \
             (SELECT id FROM components WHERE project_id = ",
            Level::Component as i16
        ))
        .number(project_id)
        .sql(")");
    statement.execute(conn)?;
    forget(conn, &[Level::Project, Level::ProjectLanguage], project_id)
}

fn forget(conn: &mut DbConnection, levels: &[Level], object_id: i64) -> StoreResult<()> {
    let levels: Vec<String> = levels.iter().map(|l| (*l as i16).to_string()).collect();
    let mut statement = crate::sql::Prepared::default();
    statement
        .sql(&format!(
            "DELETE FROM stats_kept WHERE scope IN ({}) AND object_id = ",
            levels.join(", ")
        ))
        .number(object_id);
    statement.execute(conn)?;
    Ok(())
}

/// A pending row, as [`merge`] reads it.
#[derive(QueryableByName)]
struct Pending {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    component_id: i64,
    #[diesel(sql_type = BigInt)]
    project_id: i64,
    #[diesel(sql_type = BigInt)]
    language_id: i64,
    #[diesel(embed)]
    tallied: Tallied,
}

/// The kept row a pending row moves at each level.
fn keys(row: &Pending) -> [(Level, i64, i64); 5] {
    [
        (Level::Component, row.component_id, 0),
        (Level::Project, row.project_id, 0),
        (Level::ProjectLanguage, row.project_id, row.language_id),
        (Level::Language, 0, row.language_id),
        (Level::Site, 0, 0),
    ]
}

/// What pending rows add to one kept row.
#[derive(Debug, Clone, Copy, Default)]
struct Folded {
    translations: i64,
    counters: Counters,
    last_change: Option<NaiveDateTime>,
}

/// Pending rows folded by one run of [`merge`].
pub const BATCH: usize = 5000;

/// Kept rows written by one statement (24 parameters each).
const UPSERT_ROWS: usize = 400;

/// Pending rows deleted by one statement.
const DELETE_ROWS: usize = 5000;

/// Whether any change waits to be folded; one statement.
pub fn any_pending(conn: &mut DbConnection) -> StoreResult<bool> {
    let exists =
        diesel::dsl::sql::<diesel::sql_types::Bool>("EXISTS (SELECT 1 FROM stats_pending)");
    Ok(diesel::select(exists).get_result(conn)?)
}

/// Folds up to [`BATCH`] pending rows, oldest first, into the kept rows,
/// and deletes them; the number folded. To be run in a write transaction,
/// so that a read sees them either pending or kept. On PostgreSQL rows
/// another instance is folding are skipped, so two never fold the same
/// row, and kept rows are written in one order, so two never wait for
/// each other in a circle.
pub fn merge(conn: &mut DbConnection) -> StoreResult<usize> {
    let lock = match conn {
        DbConnection::Pg(_) => " FOR UPDATE SKIP LOCKED",
        DbConnection::Sqlite(_) => "",
    };
    let sql = format!(
        "SELECT id, component_id, project_id, language_id, translations, {}, last_change \
         FROM stats_pending ORDER BY id LIMIT {BATCH}{lock}",
        COUNTERS.join(", ")
    );
    let rows: Vec<Pending> = diesel::sql_query(sql).load(conn)?;
    if rows.is_empty() {
        return Ok(0);
    }
    let mut sums: BTreeMap<(Level, i64, i64), Folded> = BTreeMap::new();
    for row in &rows {
        for key in keys(row) {
            let folded = sums.entry(key).or_default();
            folded.translations += row.tallied.translations;
            folded.counters += row.tallied.counters();
            folded.last_change = folded.last_change.max(row.tallied.last_change);
        }
    }
    // A deleted component or project keeps no row.
    let living = living(conn, &sums)?;
    sums.retain(|(level, object, _), _| match level {
        Level::Component | Level::Project | Level::ProjectLanguage => {
            living.contains(&(*level == Level::Component, *object))
        }
        Level::Language | Level::Site => true,
    });
    let sums: Vec<_> = sums.into_iter().collect();
    for chunk in sums.chunks(UPSERT_ROWS) {
        upsert(conn, chunk)?;
    }
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    for chunk in ids.chunks(DELETE_ROWS) {
        let mut statement = crate::sql::Prepared::default();
        statement
            .once()
            .sql("DELETE FROM stats_pending WHERE id IN (")
            .numbers(chunk)
            .sql(")");
        statement.execute(conn)?;
    }
    Ok(rows.len())
}

/// Which components (`true`) and projects (`false`) named by `sums` exist.
fn living(
    conn: &mut DbConnection,
    sums: &BTreeMap<(Level, i64, i64), Folded>,
) -> StoreResult<BTreeSet<(bool, i64)>> {
    use crate::schema::{components, projects};
    let named = |level: Level| -> Vec<i64> {
        sums.keys()
            .filter(|(l, _, _)| *l == level)
            .map(|(_, object, _)| *object)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect()
    };
    let components: Vec<i64> = components::table
        .filter(components::id.eq_any(named(Level::Component)))
        .select(components::id)
        .load(conn)?;
    let projects: Vec<i64> = projects::table
        .filter(projects::id.eq_any(named(Level::Project)))
        .select(projects::id)
        .load(conn)?;
    Ok(components
        .into_iter()
        .map(|id| (true, id))
        .chain(projects.into_iter().map(|id| (false, id)))
        .collect())
}

/// Adds `rows` to the kept rows (made when missing); one statement.
fn upsert(conn: &mut DbConnection, rows: &[((Level, i64, i64), Folded)]) -> StoreResult<()> {
    let mut types = vec!["SMALLINT", "BIGINT", "BIGINT", "BIGINT"];
    types.extend([""; COUNTERS.len()].map(|_| "BIGINT"));
    types.push("TIMESTAMP");
    let (cells, _) = crate::sql::numbered_rows(conn, rows.len(), &types);
    let added: Vec<String> = std::iter::once(&"translations")
        .chain(&COUNTERS)
        .map(|c| format!("{c} = stats_kept.{c} + excluded.{c}"))
        .collect();
    let sql = format!(
        "INSERT INTO stats_kept (scope, object_id, language_id, translations, {}, last_change) \
         VALUES {cells} \
         ON CONFLICT (scope, object_id, language_id) DO UPDATE SET {}, \
         last_change = CASE WHEN excluded.last_change IS NULL \
         OR stats_kept.last_change > excluded.last_change \
         THEN stats_kept.last_change ELSE excluded.last_change END",
        COUNTERS.join(", "),
        added.join(", "),
    );
    let mut query = diesel::sql_query(sql).into_boxed::<crate::MultiBackend>();
    for ((level, object, language), folded) in rows {
        query = query
            .bind::<diesel::sql_types::SmallInt, _>(*level as i16)
            .bind::<BigInt, _>(*object)
            .bind::<BigInt, _>(*language)
            .bind::<BigInt, _>(folded.translations);
        for value in values(&folded.counters) {
            query = query.bind::<BigInt, _>(value);
        }
        query = query.bind::<Nullable<Timestamp>, _>(folded.last_change);
    }
    query.execute(conn)?;
    Ok(())
}
