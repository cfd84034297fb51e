//! Translations: one language of a component, with the statistics counters
//! kept up to date as its units change.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use tolk_domain::permission::ProjectVisibility;
use tolk_domain::stats::{Count, Counters};

use crate::DbConnection;
use crate::error::{StoreError, StoreResult};
use crate::kept_stats::{self, Move, Translations};
use crate::page::{Page, PageRequest};
use crate::schema::{components, languages, translations};

/// A stored translation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translation {
    /// Primary key.
    pub id: i64,
    /// Owning component.
    pub component_id: i64,
    /// Language.
    pub language_id: i64,
    /// Plural definition in use.
    pub plural_id: i64,
    /// The code as the file name writes it.
    pub language_code: String,
    /// Path of the file in the repository; empty when the translation has none.
    pub filename: String,
    /// Hash of the file's last read state.
    pub revision: String,
    /// Statistics counters.
    pub counters: Counters,
    /// Time of the last change.
    pub last_change: Option<NaiveDateTime>,
}

/// A translation's row as stored; [`Translation`] is what the rest reads.
#[derive(Queryable, Selectable)]
#[diesel(table_name = translations)]
pub(crate) struct Row {
    id: i64,
    pub(crate) component_id: i64,
    language_id: i64,
    plural_id: i64,
    language_code: String,
    filename: String,
    revision: String,
    total: i64,
    total_words: i64,
    total_chars: i64,
    translated: i64,
    translated_words: i64,
    translated_chars: i64,
    fuzzy: i64,
    fuzzy_words: i64,
    fuzzy_chars: i64,
    approved: i64,
    approved_words: i64,
    approved_chars: i64,
    readonly: i64,
    readonly_words: i64,
    readonly_chars: i64,
    failing: i64,
    suggestions: i64,
    comments: i64,
    last_change: Option<NaiveDateTime>,
    failing_words: i64,
    failing_chars: i64,
}

impl From<Row> for Translation {
    fn from(r: Row) -> Self {
        let count = |strings, words, chars| Count {
            strings,
            words,
            chars,
        };
        Translation {
            id: r.id,
            component_id: r.component_id,
            language_id: r.language_id,
            plural_id: r.plural_id,
            language_code: r.language_code,
            filename: r.filename,
            revision: r.revision,
            counters: Counters {
                total: count(r.total, r.total_words, r.total_chars),
                translated: count(r.translated, r.translated_words, r.translated_chars),
                fuzzy: count(r.fuzzy, r.fuzzy_words, r.fuzzy_chars),
                approved: count(r.approved, r.approved_words, r.approved_chars),
                readonly: count(r.readonly, r.readonly_words, r.readonly_chars),
                failing: r.failing,
                failing_words: r.failing_words,
                failing_chars: r.failing_chars,
                suggestions: r.suggestions,
                comments: r.comments,
            },
            last_change: r.last_change,
        }
    }
}

type Boxed<'a> = translations::BoxedQuery<'a, crate::MultiBackend>;

fn load(query: Boxed<'_>, conn: &mut DbConnection) -> StoreResult<Vec<Translation>> {
    Ok(query
        .select(Row::as_select())
        .load::<Row>(conn)?
        .into_iter()
        .map(Translation::from)
        .collect())
}

/// Translations of components in visible projects, optionally of one component.
fn visible(visibility: &ProjectVisibility, component_id: Option<i64>) -> Boxed<'static> {
    let mut query = translations::table.into_boxed();
    if let Some(ids) = crate::components::visible_ids(visibility) {
        query = query.filter(translations::component_id.eq_any(ids));
    }
    if let Some(id) = component_id {
        query = query.filter(translations::component_id.eq(id));
    }
    query
}

/// Lists visible translations (of one component, when given) by id; `None`
/// for a page past the end.
pub fn list(
    conn: &mut DbConnection,
    visibility: &ProjectVisibility,
    component_id: Option<i64>,
    page: PageRequest,
) -> StoreResult<Option<Page<Translation>>> {
    page.run(
        conn,
        |conn| Ok::<_, StoreError>(visible(visibility, component_id).count().get_result(conn)?),
        |conn, offset, limit| {
            load(
                visible(visibility, component_id)
                    .order(translations::id)
                    .offset(offset)
                    .limit(limit),
                conn,
            )
        },
    )
}

/// Every translation of a component, by id.
pub fn of_component(conn: &mut DbConnection, component_id: i64) -> StoreResult<Vec<Translation>> {
    load(
        translations::table
            .filter(translations::component_id.eq(component_id))
            .order(translations::id)
            .into_boxed(),
        conn,
    )
}

/// Every translation of these components, by id; one statement.
pub fn of_components(
    conn: &mut DbConnection,
    component_ids: &[i64],
) -> StoreResult<Vec<Translation>> {
    load(
        translations::table
            .filter(translations::component_id.eq_any(component_ids.to_vec()))
            .order(translations::id)
            .into_boxed(),
        conn,
    )
}

/// The ids of a component's translations, in order.
pub fn ids_of(conn: &mut DbConnection, component_id: i64) -> StoreResult<Vec<i64>> {
    Ok(translations::table
        .filter(translations::component_id.eq(component_id))
        .order(translations::id)
        .select(translations::id)
        .load(conn)?)
}

/// Translations by id, in any order.
pub fn get_by_ids(conn: &mut DbConnection, ids: &[i64]) -> StoreResult<Vec<Translation>> {
    load(
        translations::table
            .filter(translations::id.eq_any(ids.to_vec()))
            .into_boxed(),
        conn,
    )
}

/// The translation of a component into the language with this code.
pub fn get_by_code(
    conn: &mut DbConnection,
    component_id: i64,
    code: &str,
) -> StoreResult<Option<Translation>> {
    Ok(load(
        translations::table
            .filter(translations::component_id.eq(component_id))
            .filter(
                translations::language_id.eq_any(
                    languages::table
                        .filter(languages::code.eq(code.to_owned()))
                        .select(languages::id),
                ),
            )
            .into_boxed(),
        conn,
    )?
    .pop())
}

/// The translation into the language `code` of the component `component`
/// (outside any category) of the project `project`, with the cache
/// generation read along (see [`crate::generation`]); one statement.
pub fn get_by_path(
    conn: &mut DbConnection,
    (project, component, code): (&str, &str, &str),
) -> StoreResult<Option<(Translation, i64)>> {
    use crate::schema::{components, projects};
    let found = translations::table
        .inner_join(components::table.inner_join(projects::table))
        .inner_join(languages::table)
        .filter(projects::slug.eq(project))
        .filter(components::path.eq(component))
        .filter(languages::code.eq(code))
        .select((Row::as_select(), crate::generation::subquery()))
        .first::<(Row, i64)>(conn)
        .optional()?;
    Ok(found.map(|(row, generation)| (row.into(), generation)))
}

/// What a new translation row holds.
#[derive(Debug, Clone, PartialEq, Eq, Insertable)]
#[diesel(table_name = translations)]
pub struct NewTranslation {
    /// Owning component.
    pub component_id: i64,
    /// Language.
    pub language_id: i64,
    /// Plural definition.
    pub plural_id: i64,
    /// Code as in the file name.
    pub language_code: String,
    /// Path of the file.
    pub filename: String,
    /// Hash of the file's content.
    pub revision: String,
}

/// Inserts a translation with zero counters; returns its id. Two
/// statements (the second for the statistics kept above it).
pub fn insert(conn: &mut DbConnection, new: &NewTranslation) -> StoreResult<i64> {
    let id = crate::with_backend!(conn, |c| diesel::insert_into(translations::table)
        .values(new)
        .returning(translations::id)
        .get_result(c))?;
    kept_stats::record(conn, Translations::Ids(&[id]), Move::Added)?;
    Ok(id)
}

/// Records the file a translation was read from.
pub fn set_file(
    conn: &mut DbConnection,
    id: i64,
    filename: &str,
    revision: &str,
) -> StoreResult<()> {
    diesel::update(translations::table.find(id))
        .set((
            translations::filename.eq(filename),
            translations::revision.eq(revision),
        ))
        .execute(conn)?;
    Ok(())
}

/// Sets a translation's counters (after a scan), and the time of its last
/// change when the scan changed it (its suggestions and comments stay);
/// two statements (the second for the statistics kept above it).
pub fn set_counters(
    conn: &mut DbConnection,
    id: i64,
    c: &Counters,
    changed_at: Option<NaiveDateTime>,
) -> StoreResult<()> {
    let set = Counters {
        suggestions: 0,
        comments: 0,
        ..*c
    };
    kept_stats::record(conn, Translations::Ids(&[id]), Move::To(&set, changed_at))?;
    diesel::update(translations::table.find(id))
        .set((
            changed_at.map(|at| translations::last_change.eq(at)),
            translations::total.eq(c.total.strings),
            translations::total_words.eq(c.total.words),
            translations::total_chars.eq(c.total.chars),
            translations::translated.eq(c.translated.strings),
            translations::translated_words.eq(c.translated.words),
            translations::translated_chars.eq(c.translated.chars),
            translations::fuzzy.eq(c.fuzzy.strings),
            translations::fuzzy_words.eq(c.fuzzy.words),
            translations::fuzzy_chars.eq(c.fuzzy.chars),
            translations::approved.eq(c.approved.strings),
            translations::approved_words.eq(c.approved.words),
            translations::approved_chars.eq(c.approved.chars),
            translations::readonly.eq(c.readonly.strings),
            translations::readonly_words.eq(c.readonly.words),
            translations::readonly_chars.eq(c.readonly.chars),
            translations::failing.eq(c.failing),
            translations::failing_words.eq(c.failing_words),
            translations::failing_chars.eq(c.failing_chars),
        ))
        .execute(conn)?;
    Ok(())
}

/// Adds `delta` (which may be negative) to a translation's counters and
/// records the time of the change: statistics follow each edit without a recount.
pub fn add_counters(
    conn: &mut DbConnection,
    id: i64,
    d: &Counters,
    at: NaiveDateTime,
) -> StoreResult<()> {
    add_counters_to(conn, &[id], d, at)
}

/// Adds the same `delta` to the counters of several translations; two
/// statements (the second for the statistics kept above them).
pub fn add_counters_to(
    conn: &mut DbConnection,
    ids: &[i64],
    d: &Counters,
    at: NaiveDateTime,
) -> StoreResult<()> {
    use translations::dsl as t;
    kept_stats::record(conn, Translations::Ids(ids), Move::By(d, Some(at)))?;
    let changes = (
        t::total.eq(t::total + d.total.strings),
        t::total_words.eq(t::total_words + d.total.words),
        t::total_chars.eq(t::total_chars + d.total.chars),
        t::translated.eq(t::translated + d.translated.strings),
        t::translated_words.eq(t::translated_words + d.translated.words),
        t::translated_chars.eq(t::translated_chars + d.translated.chars),
        t::fuzzy.eq(t::fuzzy + d.fuzzy.strings),
        t::fuzzy_words.eq(t::fuzzy_words + d.fuzzy.words),
        t::fuzzy_chars.eq(t::fuzzy_chars + d.fuzzy.chars),
        t::approved.eq(t::approved + d.approved.strings),
        t::approved_words.eq(t::approved_words + d.approved.words),
        t::approved_chars.eq(t::approved_chars + d.approved.chars),
        t::readonly.eq(t::readonly + d.readonly.strings),
        t::readonly_words.eq(t::readonly_words + d.readonly.words),
        t::readonly_chars.eq(t::readonly_chars + d.readonly.chars),
        t::failing.eq(t::failing + d.failing),
        t::failing_words.eq(t::failing_words + d.failing_words),
        t::failing_chars.eq(t::failing_chars + d.failing_chars),
        t::suggestions.eq(t::suggestions + d.suggestions),
        t::comments.eq(t::comments + d.comments),
        t::last_change.eq(at),
    );
    match ids {
        // Every edit moves one translation's counters: a statement kept prepared.
        [id] => crate::sql::update(t::translations, changes, t::id.eq(*id)).execute(conn)?,
        _ => crate::sql::update(t::translations, changes, t::id.eq_any(ids.to_vec()))
            .execute(conn)?,
    };
    Ok(())
}

/// Moves a translation's counters of strings failing checks (`failing`,
/// `failing_words` and `failing_chars` of `delta`; the rest is left) by
/// verdicts that changed without an edit (its last change stays); one
/// statement.
pub fn add_failing(conn: &mut DbConnection, id: i64, delta: &Counters) -> StoreResult<()> {
    use translations::dsl as t;
    let moved = Counters {
        failing: delta.failing,
        failing_words: delta.failing_words,
        failing_chars: delta.failing_chars,
        ..Counters::default()
    };
    kept_stats::record(conn, Translations::Ids(&[id]), Move::By(&moved, None))?;
    diesel::update(t::translations.find(id))
        .set((
            t::failing.eq(t::failing + moved.failing),
            t::failing_words.eq(t::failing_words + moved.failing_words),
            t::failing_chars.eq(t::failing_chars + moved.failing_chars),
        ))
        .execute(conn)?;
    Ok(())
}

/// Deletes a translation with its units; false when it was gone.
pub fn delete(conn: &mut DbConnection, id: i64) -> StoreResult<bool> {
    kept_stats::record(conn, Translations::Ids(&[id]), Move::Gone)?;
    Ok(diesel::delete(translations::table.find(id)).execute(conn)? == 1)
}

/// Locks a translation's row until the transaction ends (PostgreSQL;
/// SQLite's writers queue anyway). Every writer of a translation's units
/// takes this row first, so they queue in one order and never deadlock.
pub fn lock(conn: &mut DbConnection, id: i64) -> StoreResult<()> {
    lock_all(conn, &[id])
}

/// Locks several translations' rows, in the order of their ids (so that
/// two writers of overlapping sets never wait for each other in a
/// circle); one statement.
pub fn lock_all(conn: &mut DbConnection, ids: &[i64]) -> StoreResult<()> {
    if let DbConnection::Pg(c) = conn {
        translations::table
            .filter(translations::id.eq_any(ids.to_vec()))
            .order(translations::id)
            .select(translations::id)
            .for_update()
            .load::<i64>(c)?;
    }
    Ok(())
}

/// True when a component of the project has a translation into the
/// language.
pub fn project_has_language(
    conn: &mut DbConnection,
    project_id: i64,
    language_id: i64,
) -> StoreResult<bool> {
    Ok(diesel::select(diesel::dsl::exists(
        translations::table
            .inner_join(components::table)
            .filter(components::project_id.eq(project_id))
            .filter(translations::language_id.eq(language_id)),
    ))
    .get_result(conn)?)
}

/// The visible translations in which the user `user_id` made a change of
/// one of `actions`, by id; `None` for a page past the end.
pub fn contributed(
    conn: &mut DbConnection,
    visibility: &ProjectVisibility,
    user_id: i64,
    actions: &[i32],
    page: PageRequest,
) -> StoreResult<Option<Page<Translation>>> {
    use crate::schema::changes;
    let of_user = || {
        let changed = changes::table
            .filter(changes::user_id.eq(user_id))
            .filter(changes::action.eq_any(actions.to_vec()))
            .filter(changes::translation_id.is_not_null())
            .select(changes::translation_id.assume_not_null());
        visible(visibility, None).filter(translations::id.eq_any(changed))
    };
    page.run(
        conn,
        |conn| Ok::<_, StoreError>(of_user().count().get_result(conn)?),
        |conn, offset, limit| {
            load(
                of_user()
                    .order(translations::id)
                    .offset(offset)
                    .limit(limit),
                conn,
            )
        },
    )
}
