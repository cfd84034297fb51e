//! Units: the strings of a translation.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{Bool, Text};
use tolk_domain::permission::ProjectVisibility;

use crate::DbConnection;
use crate::error::{StoreError, StoreResult};
use crate::page::{Page, PageRequest};
use crate::regex_search::Matched;
use crate::schema::{translations, units};

/// A stored unit.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = units)]
pub struct UnitRow {
    /// Primary key.
    pub id: i64,
    /// Owning translation.
    pub translation_id: i64,
    /// The unit of the source translation with the same string.
    pub source_unit_id: Option<i64>,
    /// Identity of the string in its translation.
    pub id_hash: i64,
    /// 1-based order in the file.
    pub position: i32,
    /// Context or key.
    pub context: String,
    /// Source text (plural forms joined).
    pub source: String,
    /// Source text before the last upstream change.
    pub previous_source: String,
    /// Translation (plural forms joined).
    pub target: String,
    /// State number (§29.2).
    pub state: i32,
    /// Developer notes.
    pub note: String,
    /// Source locations.
    pub location: String,
    /// Flags from the file.
    pub flags: String,
    /// Flags added in Tolk.
    pub extra_flags: String,
    /// Explanation of the source string.
    pub explanation: String,
    /// Source words.
    pub num_words: i32,
    /// Priority.
    pub priority: i32,
    /// Edited but not yet written to the file.
    pub pending: bool,
    /// When the unit was created.
    pub created: NaiveDateTime,
    /// When the unit last changed.
    pub last_updated: NaiveDateTime,
    /// Added through the API and not yet in its file.
    pub added: bool,
    /// The quality checks it fails, by id, joined by commas.
    pub failing: String,
    /// The quality checks dismissed on it (left out of `failing`).
    pub dismissed: String,
    /// The extra flags of its string (of its source unit).
    #[diesel(select_expression = SourceFlags)]
    #[diesel(select_expression_type = SourceFlags)]
    pub source_flags: String,
    /// Has suggestions.
    #[diesel(select_expression = HasSuggestion)]
    #[diesel(select_expression_type = HasSuggestion)]
    pub has_suggestion: bool,
    /// Has unresolved comments, its own or its string's (on the source unit).
    #[diesel(select_expression = HasComment)]
    #[diesel(select_expression_type = HasComment)]
    pub has_comment: bool,
    /// Its string has labels (kept on its source unit): only then need
    /// they be read.
    #[diesel(select_expression = Labelled)]
    #[diesel(select_expression_type = Labelled)]
    pub labelled: bool,
}

crate::sql::fixed_sql!(
    /// The extra flags of a unit's string, kept on its source unit.
    SourceFlags: Text = "COALESCE((SELECT s.extra_flags FROM units s \
     WHERE s.id = units.source_unit_id), '')"
);
crate::sql::fixed_sql!(
    /// Whether a unit has suggestions.
    HasSuggestion: Bool = "EXISTS (SELECT 1 FROM suggestions WHERE suggestions.unit_id = units.id)"
);
crate::sql::fixed_sql!(
    /// Whether a unit or its string has unresolved comments.
    HasComment: Bool = "EXISTS (SELECT 1 FROM comments WHERE NOT comments.resolved \
     AND comments.unit_id IN (units.id, COALESCE(units.source_unit_id, units.id)))"
);
crate::sql::fixed_sql!(
    /// Whether a unit's string has labels (kept on its source unit).
    Labelled: Bool = "EXISTS (SELECT 1 FROM unit_labels \
         WHERE unit_labels.unit_id = COALESCE(units.source_unit_id, units.id))"
);

/// A unit to insert.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct NewUnit {
    pub translation_id: i64,
    pub id_hash: i64,
    pub position: i32,
    pub context: String,
    pub source: String,
    pub previous_source: String,
    pub target: String,
    pub state: i32,
    pub original_state: i32,
    pub note: String,
    pub location: String,
    pub flags: String,
    pub num_words: i32,
    pub pending: bool,
    pub created: NaiveDateTime,
    pub last_updated: NaiveDateTime,
    pub added: bool,
    pub failing: String,
}

/// Rows per multi-row insert: well under SQLite's limit of bound values.
const INSERT_CHUNK: usize = 500;

/// Inserts units with one statement per chunk. The rows are written as
/// column assignments, not a derived `Insertable`: diesel inserts a batch of
/// derived rows on SQLite one statement per row (each with its own statement
/// journal, which made a tenth of a large scan).
pub fn insert_many(conn: &mut DbConnection, new: &[NewUnit]) -> StoreResult<()> {
    for chunk in new.chunks(INSERT_CHUNK) {
        let rows: Vec<_> = chunk
            .iter()
            .map(|u| {
                (
                    units::translation_id.eq(u.translation_id),
                    units::id_hash.eq(u.id_hash),
                    units::position.eq(u.position),
                    units::context.eq(&u.context),
                    units::source.eq(&u.source),
                    units::previous_source.eq(&u.previous_source),
                    units::target.eq(&u.target),
                    units::state.eq(u.state),
                    units::original_state.eq(u.original_state),
                    units::note.eq(&u.note),
                    units::location.eq(&u.location),
                    units::flags.eq(&u.flags),
                    units::num_words.eq(u.num_words),
                    units::pending.eq(u.pending),
                    units::created.eq(u.created),
                    units::last_updated.eq(u.last_updated),
                    units::added.eq(u.added),
                    units::failing.eq(&u.failing),
                )
            })
            .collect();
        crate::with_backend!(conn, |c| diesel::insert_into(units::table)
            .values(&rows)
            .execute(c))?;
    }
    Ok(())
}

/// Points every unit of `translation_id` at the unit with the same
/// `id_hash` in the source translation `source_translation_id` (a source
/// unit points at itself); one statement.
pub fn link_sources(
    conn: &mut DbConnection,
    translation_id: i64,
    source_translation_id: i64,
) -> StoreResult<()> {
    diesel::sql_query(
        "UPDATE units SET source_unit_id = (SELECT s.id FROM units s \
         WHERE s.translation_id = $1 AND s.id_hash = units.id_hash) \
         WHERE translation_id = $2",
    )
    .bind::<diesel::sql_types::BigInt, _>(source_translation_id)
    .bind::<diesel::sql_types::BigInt, _>(translation_id)
    .execute(conn)?;
    Ok(())
}

/// Which units a list shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UnitFilter {
    /// Only units of this translation.
    pub translation_id: Option<i64>,
    /// Only units meeting a search condition.
    pub condition: Option<tolk_domain::query::Condition>,
    /// How many units the filter selects, when the caller knows it (a
    /// translation's counters count its units): the list then skips
    /// counting them.
    pub known_count: Option<i64>,
}

type Boxed<'a> = units::BoxedQuery<'a, crate::MultiBackend>;

/// The units `filter` selects that `visibility` shows, its regular
/// expressions standing for the units in `matched`.
pub(crate) fn filtered(
    visibility: &ProjectVisibility,
    filter: &UnitFilter,
    sqlite: bool,
    matched: &Matched,
) -> Boxed<'static> {
    let mut query = scoped(visibility, filter);
    if let Some(condition) = &filter.condition {
        query = query.filter(crate::unit_search::condition(condition, sqlite, matched));
    }
    query
}

/// The units of `filter`'s translation that `visibility` shows.
fn scoped(visibility: &ProjectVisibility, filter: &UnitFilter) -> Boxed<'static> {
    let mut query = units::table.into_boxed();
    if let Some(ids) = crate::components::visible_ids(visibility) {
        query = query.filter(
            units::translation_id.eq_any(
                translations::table
                    .filter(translations::component_id.eq_any(ids))
                    .select(translations::id),
            ),
        );
    }
    if let Some(id) = filter.translation_id {
        query = query.filter(units::translation_id.eq(id));
    }
    query
}

/// Runs the regular expressions of `filter`'s search over the units it
/// may select (see [`crate::regex_search`]); nothing when it has none.
pub(crate) fn matched(
    conn: &mut DbConnection,
    visibility: &ProjectVisibility,
    filter: &UnitFilter,
) -> StoreResult<Matched> {
    let Some(condition) = &filter.condition else {
        return Ok(Matched::default());
    };
    let sqlite = matches!(conn, DbConnection::Sqlite(_));
    crate::regex_search::run(conn, condition, &|| {
        scoped(visibility, filter)
            .filter(crate::unit_search::candidate_condition(condition, sqlite))
    })
}

/// Lists units by id; `None` for a page past the end.
pub fn list(
    conn: &mut DbConnection,
    visibility: &ProjectVisibility,
    filter: &UnitFilter,
    page: PageRequest,
) -> StoreResult<Option<Page<UnitRow>>> {
    let sqlite = matches!(conn, DbConnection::Sqlite(_));
    let matched = matched(conn, visibility, filter)?;
    page.run(
        conn,
        |conn| match filter.known_count {
            Some(count) => Ok(count),
            None => Ok::<_, StoreError>(
                filtered(visibility, filter, sqlite, &matched)
                    .count()
                    .get_result(conn)?,
            ),
        },
        |conn, offset, limit| {
            Ok(filtered(visibility, filter, sqlite, &matched)
                .order(units::id)
                .offset(offset)
                .limit(limit)
                .select(UnitRow::as_select())
                .load(conn)?)
        },
    )
}

/// What a converted download writes of a unit.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = units)]
pub struct ExportRow {
    /// Order in the file.
    pub position: i32,
    /// Context (the key of monolingual formats).
    pub context: String,
    /// Source text, plural forms joined.
    pub source: String,
    /// Source text before the last change upstream.
    pub previous_source: String,
    /// Translation, plural forms joined.
    pub target: String,
    /// State code.
    pub state: i32,
    /// Developers' note.
    pub note: String,
    /// Source locations.
    pub location: String,
    /// Flags from the file.
    pub flags: String,
    /// Explanation of the string.
    pub explanation: String,
}

/// The units of a translation `filter` selects as a download writes them,
/// in file order; one statement that reads only those columns.
pub fn for_export(conn: &mut DbConnection, filter: &UnitFilter) -> StoreResult<Vec<ExportRow>> {
    let sqlite = matches!(conn, DbConnection::Sqlite(_));
    let matched = matched(conn, &ProjectVisibility::All, filter)?;
    Ok(filtered(&ProjectVisibility::All, filter, sqlite, &matched)
        .order((units::position, units::id))
        .select(ExportRow::as_select())
        .load(conn)?)
}

/// Every unit `filter` selects, by id (no visibility rule: the caller
/// names a translation it checked); one statement.
pub fn matching(conn: &mut DbConnection, filter: &UnitFilter) -> StoreResult<Vec<UnitRow>> {
    let sqlite = matches!(conn, DbConnection::Sqlite(_));
    let matched = matched(conn, &ProjectVisibility::All, filter)?;
    Ok(filtered(&ProjectVisibility::All, filter, sqlite, &matched)
        .order(units::id)
        .select(UnitRow::as_select())
        .load(conn)?)
}

/// A translated string of another component: source, context, translation.
pub type TranslatedString = (String, String, String);

/// The translated strings (state translated or approved) of one language
/// in these components, newest edit first; one statement.
pub fn translated_in(
    conn: &mut DbConnection,
    language_id: i64,
    component_ids: &[i64],
) -> StoreResult<Vec<TranslatedString>> {
    Ok(units::table
        .inner_join(translations::table)
        .filter(translations::language_id.eq(language_id))
        .filter(translations::component_id.eq_any(component_ids.to_vec()))
        .filter(units::state.between(20, 30))
        .filter(units::target.ne(""))
        .order(units::last_updated.desc())
        .select((units::source, units::context, units::target))
        .load(conn)?)
}

/// The terms of these (glossary) translations: the sources of their
/// translated strings (state 20 and up), in lower case, each once; one
/// statement.
pub fn terms_of_translations(
    conn: &mut DbConnection,
    translation_ids: &[i64],
) -> StoreResult<Vec<String>> {
    let sources: Vec<String> = units::table
        .filter(units::translation_id.eq_any(translation_ids.to_vec()))
        .filter(units::state.ge(20))
        .select(units::source)
        .load(conn)?;
    let mut terms: Vec<String> = sources
        .into_iter()
        .map(|s| s.to_lowercase())
        .filter(|s| !s.trim().is_empty())
        .collect();
    terms.sort_unstable();
    terms.dedup();
    Ok(terms)
}

/// The strings of one language in these (glossary) components: source,
/// translation, and the flags of the unit with the extra flags of its
/// string (kept on the source unit); two statements.
pub fn terms_in(
    conn: &mut DbConnection,
    language_id: i64,
    component_ids: &[i64],
) -> StoreResult<Vec<(String, String, String)>> {
    let rows: Vec<(String, String, String, String, Option<i64>)> = units::table
        .inner_join(translations::table)
        .filter(translations::language_id.eq(language_id))
        .filter(translations::component_id.eq_any(component_ids.to_vec()))
        .order(units::id)
        .select((
            units::source,
            units::target,
            units::flags,
            units::extra_flags,
            units::source_unit_id,
        ))
        .load(conn)?;
    let sources: Vec<i64> = rows.iter().filter_map(|r| r.4).collect();
    let extra: std::collections::HashMap<i64, String> = if sources.is_empty() {
        std::collections::HashMap::new()
    } else {
        units::table
            .filter(units::id.eq_any(sources))
            .select((units::id, units::extra_flags))
            .load::<(i64, String)>(conn)?
            .into_iter()
            .collect()
    };
    Ok(rows
        .into_iter()
        .map(|(source, target, flags, own, source_unit)| {
            let string = source_unit.and_then(|id| extra.get(&id)).unwrap_or(&own);
            (source, target, format!("{flags},{string}"))
        })
        .collect())
}

/// A unit by id.
pub fn get(conn: &mut DbConnection, id: i64) -> StoreResult<Option<UnitRow>> {
    Ok(units::table
        .find(id)
        .select(UnitRow::as_select())
        .first(conn)
        .optional()?)
}

/// A unit found with its translation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitWithTranslation {
    /// The unit.
    pub unit: UnitRow,
    /// Its translation.
    pub translation: crate::translations::Translation,
    /// The cache generation ([`crate::generation`]), read in the same
    /// statement so that a request needs no statement of its own for it.
    pub generation: i64,
}

/// A unit by id with its translation; one statement.
pub fn get_with_translation(
    conn: &mut DbConnection,
    id: i64,
) -> StoreResult<Option<UnitWithTranslation>> {
    let found: Option<(UnitRow, crate::translations::Row, i64)> = units::table
        .inner_join(translations::table)
        .filter(units::id.eq(id))
        .select((
            UnitRow::as_select(),
            crate::translations::Row::as_select(),
            crate::generation::subquery(),
        ))
        .first(conn)
        .optional()?;
    Ok(
        found.map(|(unit, translation, generation)| UnitWithTranslation {
            unit,
            translation: translation.into(),
            generation,
        }),
    )
}

/// The units of a translation with these ids (others are left out); one
/// statement per chunk of ids.
pub fn of_translation_by_ids(
    conn: &mut DbConnection,
    translation_id: i64,
    ids: &[i64],
) -> StoreResult<Vec<UnitRow>> {
    let mut found = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(INSERT_CHUNK) {
        found.extend(
            units::table
                .filter(units::translation_id.eq(translation_id))
                .filter(units::id.eq_any(chunk.to_vec()))
                .select(UnitRow::as_select())
                .load(conn)?,
        );
    }
    Ok(found)
}

/// The units of these strings (`id_hashes`; every string when `None`) in
/// the translations into one language of these components, with their
/// translations, in no particular order; one statement per chunk of
/// strings.
pub fn same_strings(
    conn: &mut DbConnection,
    component_ids: &[i64],
    language_id: i64,
    id_hashes: Option<&[i64]>,
) -> StoreResult<Vec<(UnitRow, crate::translations::Translation)>> {
    let query = || {
        units::table
            .inner_join(translations::table)
            .filter(translations::language_id.eq(language_id))
            .select((UnitRow::as_select(), crate::translations::Row::as_select()))
            .into_boxed::<crate::MultiBackend>()
    };
    let rows: Vec<(UnitRow, crate::translations::Row)> = match id_hashes {
        None => query()
            .filter(translations::component_id.eq_any(component_ids.to_vec()))
            .load(conn)?,
        Some(hashes) => {
            let by_string = component_ids.len() > BY_STRING_FROM;
            let mut rows = Vec::new();
            for chunk in hashes.chunks(INSERT_CHUNK) {
                let mut strings = query().filter(units::id_hash.eq_any(chunk.to_vec()));
                if !by_string {
                    strings =
                        strings.filter(translations::component_id.eq_any(component_ids.to_vec()));
                }
                rows.extend(strings.load(conn)?);
            }
            in_components(rows, component_ids, |(_, t)| t.component_id)
        }
    };
    Ok(rows.into_iter().map(|(unit, t)| (unit, t.into())).collect())
}

/// Past this many components, lookups of strings find the strings first
/// (by their index: some fifty units each, one per language of each
/// component that holds it) and keep the rows of the components after
/// ([`in_components`]); up to it, the database visits each component's
/// translation and looks the strings up there.
const BY_STRING_FROM: usize = 64;

/// Keeps the rows of these components (see [`BY_STRING_FROM`]).
fn in_components<T>(rows: Vec<T>, component_ids: &[i64], component: impl Fn(&T) -> i64) -> Vec<T> {
    let wanted: std::collections::HashSet<i64> = component_ids.iter().copied().collect();
    rows.into_iter()
        .filter(|row| wanted.contains(&component(row)))
        .collect()
}

/// Which of these strings (`id_hashes`) the translations into one
/// language of these components hold; one statement per chunk.
pub fn shared_hashes(
    conn: &mut DbConnection,
    component_ids: &[i64],
    language_id: i64,
    id_hashes: &[i64],
) -> StoreResult<Vec<i64>> {
    let by_string = component_ids.len() > BY_STRING_FROM;
    let mut found = Vec::new();
    for chunk in id_hashes.chunks(INSERT_CHUNK) {
        let mut query = units::table
            .inner_join(translations::table)
            .filter(translations::language_id.eq(language_id))
            .filter(units::id_hash.eq_any(chunk.to_vec()))
            .select((units::id_hash, translations::component_id))
            .distinct()
            .into_boxed::<crate::MultiBackend>();
        if !by_string {
            query = query.filter(translations::component_id.eq_any(component_ids.to_vec()));
        }
        found.extend(query.load::<(i64, i64)>(conn)?);
    }
    let mut hashes: Vec<i64> = in_components(found, component_ids, |(_, c)| *c)
        .into_iter()
        .map(|(hash, _)| hash)
        .collect();
    hashes.sort_unstable();
    hashes.dedup();
    Ok(hashes)
}

/// The strings (`id_hash`) of a translation's units, each with its
/// failing checks as stored; one statement.
pub fn hashes_of(conn: &mut DbConnection, translation_id: i64) -> StoreResult<Vec<(i64, String)>> {
    Ok(units::table
        .filter(units::translation_id.eq(translation_id))
        .select((units::id_hash, units::failing))
        .load(conn)?)
}

/// For each unit of the source translation `source_translation_id`, how
/// many other translations hold its string failing a check (units whose
/// count is 0 are left out); one statement.
pub fn failing_translations_by_source(
    conn: &mut DbConnection,
    source_translation_id: i64,
) -> StoreResult<std::collections::HashMap<i64, i64>> {
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        unit_id: i64,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        failing: i64,
    }
    let rows: Vec<Row> = diesel::sql_query(
        "SELECT t.source_unit_id AS unit_id, COUNT(DISTINCT t.translation_id) AS failing \
         FROM units t JOIN units s ON s.id = t.source_unit_id \
         WHERE s.translation_id = $1 AND t.translation_id <> $2 AND t.failing <> '' \
         GROUP BY t.source_unit_id",
    )
    .bind::<diesel::sql_types::BigInt, _>(source_translation_id)
    .bind::<diesel::sql_types::BigInt, _>(source_translation_id)
    .load(conn)?;
    Ok(rows.into_iter().map(|r| (r.unit_id, r.failing)).collect())
}

/// For each unit of the source translation `source_translation_id`
/// created before `before`: how many units its string has (its own
/// included) and how many of them are empty or need editing (state 10 or
/// less), by the source unit's id; one statement.
pub fn progress_by_source(
    conn: &mut DbConnection,
    source_translation_id: i64,
    before: chrono::NaiveDateTime,
) -> StoreResult<std::collections::HashMap<i64, (i64, i64)>> {
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        unit_id: i64,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        total: i64,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        not_translated: i64,
    }
    let rows: Vec<Row> = diesel::sql_query(
        "SELECT t.source_unit_id AS unit_id, COUNT(*) AS total, \
         CAST(SUM(CASE WHEN t.state <= 10 THEN 1 ELSE 0 END) AS BIGINT) AS not_translated \
         FROM units t JOIN units s ON s.id = t.source_unit_id \
         WHERE s.translation_id = $1 AND s.created < $2 \
         GROUP BY t.source_unit_id",
    )
    .bind::<diesel::sql_types::BigInt, _>(source_translation_id)
    .bind::<diesel::sql_types::Timestamp, _>(before)
    .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|r| (r.unit_id, (r.total, r.not_translated)))
        .collect())
}

/// The ids of a translation's units by `id_hash`.
pub fn ids_of(
    conn: &mut DbConnection,
    translation_id: i64,
) -> StoreResult<std::collections::HashMap<i64, i64>> {
    let rows: Vec<(i64, i64)> = units::table
        .filter(units::translation_id.eq(translation_id))
        .select((units::id_hash, units::id))
        .load(conn)?;
    Ok(rows.into_iter().collect())
}

/// Sets the lists of failing checks of units (id and list); one statement
/// per few hundred units.
pub fn set_failing(conn: &mut DbConnection, lists: &[(i64, String)]) -> StoreResult<()> {
    use diesel::sql_types::BigInt;
    for chunk in lists.chunks(WRITE_CHUNK) {
        let (values, _) = crate::sql::numbered_rows(conn, chunk.len(), &["BIGINT", "TEXT"]);
        let sql = format!(
            "WITH v(id, failing) AS (VALUES {values}) \
             UPDATE units SET failing = v.failing FROM v WHERE units.id = v.id"
        );
        let mut query = diesel::sql_query(sql).into_boxed::<crate::MultiBackend>();
        for (id, failing) in chunk {
            query = query
                .bind::<BigInt, _>(*id)
                .bind::<Text, _>(failing.clone());
        }
        query.execute(conn)?;
    }
    Ok(())
}

/// Sets the failing and the dismissed checks of the unit `id` (a check
/// dismissed or restored); one statement.
pub fn set_checks(
    conn: &mut DbConnection,
    id: i64,
    failing: &str,
    dismissed: &str,
) -> StoreResult<()> {
    crate::sql::update(
        units::table,
        (units::failing.eq(failing), units::dismissed.eq(dismissed)),
        units::id.eq(id),
    )
    .execute(conn)?;
    Ok(())
}

/// Sets the state of units `ids` (marking them pending for their files);
/// one statement per few hundred.
pub fn set_states(
    conn: &mut DbConnection,
    ids: &[i64],
    state: i32,
    at: NaiveDateTime,
) -> StoreResult<()> {
    for chunk in ids.chunks(WRITE_CHUNK) {
        diesel::update(units::table.filter(units::id.eq_any(chunk)))
            .set((
                units::state.eq(state),
                units::pending.eq(true),
                units::last_updated.eq(at),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// The highest position in each of these translations (those without
/// units are left out); one statement.
pub fn last_positions(
    conn: &mut DbConnection,
    translation_ids: &[i64],
) -> StoreResult<std::collections::HashMap<i64, i32>> {
    let rows: Vec<(i64, Option<i32>)> = units::table
        .filter(units::translation_id.eq_any(translation_ids.to_vec()))
        .group_by(units::translation_id)
        .select((units::translation_id, diesel::dsl::max(units::position)))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(id, last)| Some((id, last?)))
        .collect())
}

/// Whether a translation has a unit with this `id_hash`.
pub fn has_hash(conn: &mut DbConnection, translation_id: i64, id_hash: i64) -> StoreResult<bool> {
    Ok(diesel::select(diesel::dsl::exists(
        units::table
            .filter(units::translation_id.eq(translation_id))
            .filter(units::id_hash.eq(id_hash)),
    ))
    .get_result(conn)?)
}

/// The ids of the units with this `id_hash` in these translations, by
/// translation; one statement.
pub fn ids_by_hash(
    conn: &mut DbConnection,
    translation_ids: &[i64],
    id_hash: i64,
) -> StoreResult<std::collections::HashMap<i64, i64>> {
    let rows: Vec<(i64, i64)> = units::table
        .filter(units::translation_id.eq_any(translation_ids.to_vec()))
        .filter(units::id_hash.eq(id_hash))
        .select((units::translation_id, units::id))
        .load(conn)?;
    Ok(rows.into_iter().collect())
}

/// The units with this `id_hash` in these translations; one statement.
pub fn by_hash(
    conn: &mut DbConnection,
    translation_ids: &[i64],
    id_hash: i64,
) -> StoreResult<Vec<UnitRow>> {
    Ok(units::table
        .filter(units::translation_id.eq_any(translation_ids.to_vec()))
        .filter(units::id_hash.eq(id_hash))
        .select(UnitRow::as_select())
        .load(conn)?)
}

/// Points the units with this `id_hash` in these translations at the
/// unit with that hash in the source translation; two statements.
pub fn link_string(
    conn: &mut DbConnection,
    translation_ids: &[i64],
    source_translation_id: i64,
    id_hash: i64,
) -> StoreResult<()> {
    let source_unit: Option<i64> = units::table
        .filter(units::translation_id.eq(source_translation_id))
        .filter(units::id_hash.eq(id_hash))
        .select(units::id)
        .first(conn)
        .optional()?;
    diesel::update(
        units::table
            .filter(units::translation_id.eq_any(translation_ids.to_vec()))
            .filter(units::id_hash.eq(id_hash)),
    )
    .set(units::source_unit_id.eq(source_unit))
    .execute(conn)?;
    Ok(())
}

/// The units of other languages whose source unit is `source_id`, with
/// their translations, by id; one statement.
pub fn translations_of(
    conn: &mut DbConnection,
    source_id: i64,
) -> StoreResult<Vec<(UnitRow, crate::translations::Translation)>> {
    let rows: Vec<(UnitRow, crate::translations::Row)> = units::table
        .inner_join(translations::table)
        .filter(units::source_unit_id.eq(source_id))
        .filter(units::id.ne(source_id))
        .order(units::id)
        .select((UnitRow::as_select(), crate::translations::Row::as_select()))
        .load(conn)?;
    Ok(rows.into_iter().map(|(u, t)| (u, t.into())).collect())
}

/// Every unit of a translation, in file order.
pub fn of_translation(conn: &mut DbConnection, translation_id: i64) -> StoreResult<Vec<UnitRow>> {
    Ok(units::table
        .filter(units::translation_id.eq(translation_id))
        .order((units::position, units::id))
        .select(UnitRow::as_select())
        .load(conn)?)
}

/// The units of several translations a commit writes, by translation and
/// file order: the pending ones, or with `all` every one.
pub fn to_write(
    conn: &mut DbConnection,
    translation_ids: &[i64],
    all: bool,
) -> StoreResult<Vec<UnitRow>> {
    let mut query = units::table
        .filter(units::translation_id.eq_any(translation_ids.to_vec()))
        .into_boxed();
    if !all {
        query = query.filter(units::pending);
    }
    Ok(query
        .order((units::translation_id, units::position))
        .select(UnitRow::as_select())
        .load(conn)?)
}

/// Number of pending units of several translations.
pub fn count_pending(conn: &mut DbConnection, translation_ids: &[i64]) -> StoreResult<i64> {
    Ok(units::table
        .filter(units::translation_id.eq_any(translation_ids.to_vec()))
        .filter(units::pending)
        .count()
        .get_result(conn)?)
}

/// The components with pending units, each with the time of its oldest
/// pending edit.
pub fn oldest_pending(conn: &mut DbConnection) -> StoreResult<Vec<(i64, NaiveDateTime)>> {
    let rows: Vec<(i64, Option<NaiveDateTime>)> = units::table
        .inner_join(translations::table)
        .filter(units::pending)
        .group_by(translations::component_id)
        .select((
            translations::component_id,
            diesel::dsl::min(units::last_updated),
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(component, at)| Some((component, at?)))
        .collect())
}

/// Sets a unit's translation and state, with the checks it fails and
/// those still dismissed on it, and marks it pending; false when
/// the unit is gone or no longer holds `expected_target` and
/// `expected_state` (another edit came first).
pub fn set_translation(
    conn: &mut DbConnection,
    id: i64,
    expected: (&str, i32),
    target: &str,
    state: i32,
    (failing, dismissed): (&str, &str),
    at: NaiveDateTime,
) -> StoreResult<bool> {
    let rows = crate::sql::update(
        units::table,
        (
            units::target.eq(target),
            units::state.eq(state),
            units::failing.eq(failing),
            units::dismissed.eq(dismissed),
            units::pending.eq(true),
            units::last_updated.eq(at),
        ),
        units::id
            .eq(id)
            .and(units::target.eq(expected.0))
            .and(units::state.eq(expected.1)),
    )
    .execute(conn)?;
    Ok(rows == 1)
}

/// A unit's share of a change of its string's source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFollow<'a> {
    /// The unit.
    pub id: i64,
    /// The new source text (plural forms joined).
    pub source: &'a str,
    /// Its words.
    pub num_words: i32,
    /// The unit's state after the change.
    pub state: i32,
    /// The source text its translation was made from.
    pub previous_source: &'a str,
    /// The checks it fails against the new source.
    pub failing: &'a str,
}

/// Gives units their string's new source text and what follows from it
/// (one statement per few hundred units); their own texts are left as
/// they are.
pub fn follow_source(conn: &mut DbConnection, follows: &[SourceFollow<'_>]) -> StoreResult<()> {
    use diesel::sql_types::{BigInt, Integer};
    for chunk in follows.chunks(WRITE_CHUNK) {
        let (values, _) = crate::sql::numbered_rows(
            conn,
            chunk.len(),
            &["BIGINT", "TEXT", "INTEGER", "INTEGER", "TEXT", "TEXT"],
        );
        let sql = format!(
            "WITH v(id, source, num_words, state, previous_source, failing) AS (VALUES {values}) \
             UPDATE units SET source = v.source, num_words = v.num_words, state = v.state, \
             previous_source = v.previous_source, failing = v.failing FROM v \
             WHERE units.id = v.id"
        );
        let mut query = diesel::sql_query(sql).into_boxed::<crate::MultiBackend>();
        for follow in chunk {
            query = query
                .bind::<BigInt, _>(follow.id)
                .bind::<Text, _>(follow.source.to_owned())
                .bind::<Integer, _>(follow.num_words)
                .bind::<Integer, _>(follow.state)
                .bind::<Text, _>(follow.previous_source.to_owned())
                .bind::<Text, _>(follow.failing.to_owned());
        }
        query.execute(conn)?;
    }
    Ok(())
}

/// Sets the explanation and extra flags of a source unit (kept in the
/// database only: files have no place for them).
pub fn set_source_properties(
    conn: &mut DbConnection,
    id: i64,
    explanation: &str,
    extra_flags: &str,
) -> StoreResult<()> {
    diesel::update(units::table.find(id))
        .set((
            units::explanation.eq(explanation),
            units::extra_flags.eq(extra_flags),
        ))
        .execute(conn)?;
    Ok(())
}

/// A translation to write by [`set_translations`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranslationWrite<'a> {
    /// The unit.
    pub id: i64,
    /// The translation and state it must still hold.
    pub expected: (&'a str, i32),
    /// The new translation (plural forms joined).
    pub target: &'a str,
    /// The new state.
    pub state: i32,
    /// The checks the new translation fails.
    pub failing: &'a str,
    /// The checks still dismissed on it.
    pub dismissed: &'a str,
}

/// Rows per statement of [`set_translations`] (seven values each).
const WRITE_CHUNK: usize = 500;

#[derive(QueryableByName)]
struct Written {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    id: i64,
}

/// Sets the translations of many units as [`set_translation`] does one,
/// with one statement per few hundred units; the ids of the units written
/// (the others no longer held what was expected).
pub fn set_translations(
    conn: &mut DbConnection,
    writes: &[TranslationWrite<'_>],
    at: NaiveDateTime,
) -> StoreResult<Vec<i64>> {
    use diesel::sql_types::{BigInt, Integer, Timestamp};
    let mut done = Vec::with_capacity(writes.len());
    for chunk in writes.chunks(WRITE_CHUNK) {
        let (values, time) = crate::sql::numbered_rows(
            conn,
            chunk.len(),
            &[
                "BIGINT", "TEXT", "INTEGER", "TEXT", "TEXT", "TEXT", "INTEGER",
            ],
        );
        let sql = format!(
            "WITH v(id, target, state, failing, dismissed, old_target, old_state) \
             AS (VALUES {values}) \
             UPDATE units SET target = v.target, state = v.state, failing = v.failing, \
             dismissed = v.dismissed, pending = TRUE, last_updated = {time} FROM v \
             WHERE units.id = v.id AND units.target = v.old_target AND units.state = v.old_state \
             RETURNING units.id"
        );
        let mut query = diesel::sql_query(sql).into_boxed::<crate::MultiBackend>();
        for write in chunk {
            query = query
                .bind::<BigInt, _>(write.id)
                .bind::<Text, _>(write.target.to_owned())
                .bind::<Integer, _>(write.state)
                .bind::<Text, _>(write.failing.to_owned())
                .bind::<Text, _>(write.dismissed.to_owned())
                .bind::<Text, _>(write.expected.0.to_owned())
                .bind::<Integer, _>(write.expected.1);
        }
        let query = query.bind::<Timestamp, _>(at);
        done.extend(query.load::<Written>(conn)?.into_iter().map(|w| w.id));
    }
    Ok(done)
}

/// Clears the pending mark of units whose text is still what was written
/// (`written`: id and target); edits made since stay pending. One
/// statement per chunk of units.
pub fn clear_pending(conn: &mut DbConnection, written: &[(i64, String)]) -> StoreResult<()> {
    for chunk in written.chunks(INSERT_CHUNK) {
        let mut condition: Box<
            dyn BoxableExpression<units::table, crate::MultiBackend, SqlType = Bool>,
        > = Box::new(diesel::dsl::sql::<Bool>("1 = 0"));
        for (id, target) in chunk {
            condition =
                Box::new(condition.or(units::id.eq(*id).and(units::target.eq(target.clone()))));
        }
        diesel::update(units::table.filter(units::pending).filter(condition))
            .set((units::pending.eq(false), units::added.eq(false)))
            .execute(conn)?;
    }
    Ok(())
}

/// Writes what a file says about a unit read again: its source side
/// always, its translation and state too unless `keep_translation` (an
/// edit not yet written to the file).
pub fn update_from_file(
    conn: &mut DbConnection,
    id: i64,
    unit: &NewUnit,
    keep_translation: bool,
) -> StoreResult<()> {
    let target = units::table.find(id);
    let source_side = (
        units::position.eq(unit.position),
        units::context.eq(&unit.context),
        units::source.eq(&unit.source),
        units::previous_source.eq(&unit.previous_source),
        units::note.eq(&unit.note),
        units::location.eq(&unit.location),
        units::flags.eq(&unit.flags),
        units::num_words.eq(unit.num_words),
        units::last_updated.eq(unit.last_updated),
    );
    if keep_translation {
        diesel::update(target).set(source_side).execute(conn)?;
    } else {
        diesel::update(target)
            .set((
                source_side,
                units::target.eq(&unit.target),
                units::state.eq(unit.state),
                units::original_state.eq(unit.state),
                units::failing.eq(&unit.failing),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// Deletes units by id.
pub fn delete_ids(conn: &mut DbConnection, ids: &[i64]) -> StoreResult<()> {
    for chunk in ids.chunks(INSERT_CHUNK) {
        diesel::delete(units::table.filter(units::id.eq_any(chunk.to_vec()))).execute(conn)?;
    }
    Ok(())
}

/// Locks the row of a unit's translation until the transaction ends, so
/// that a concurrent edit of the unit waits and then reads what this one
/// wrote (PostgreSQL; SQLite's writers queue anyway). The translation, not
/// the unit: every writer of a translation's units takes that row first
/// (edits update its counters, scans its file and revision), so they
/// queue in one order and never deadlock.
pub fn lock_translation_of(conn: &mut DbConnection, unit_id: i64) -> StoreResult<()> {
    use crate::schema::translations;
    if let DbConnection::Pg(c) = conn {
        let of_unit = units::table
            .find(unit_id)
            .select(units::translation_id)
            .single_value()
            .assume_not_null();
        translations::table
            .filter(translations::id.eq(of_unit))
            .select(translations::id)
            .for_update()
            .load::<i64>(c)?;
    }
    Ok(())
}
