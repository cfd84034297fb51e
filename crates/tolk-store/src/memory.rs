//! Translation memory (§18): pairs of source and translated text with the
//! scope they belong to (a project, a user, or the shared pool). Entries
//! are fed from accepted translations, found by a hash of their source
//! text, and never stored twice in one scope.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::BigInt;
use tolk_domain::permission::ProjectVisibility;

use crate::DbConnection;
use crate::error::{StoreError, StoreResult};
use crate::page::{Page, PageRequest};
use crate::schema::memory;
use crate::sql::lower;

/// A stored entry.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = memory)]
pub struct Entry {
    /// Primary key.
    pub id: i64,
    /// Language of the source text.
    pub source_language_id: i64,
    /// Language of the translation.
    pub target_language_id: i64,
    /// Source text.
    pub source: String,
    /// Translation.
    pub target: String,
    /// Where it came from: `project/component`, or a file's name.
    pub origin: String,
    /// The project whose memory it is in, if any.
    pub project_id: Option<i64>,
    /// The user whose memory it is in, if any.
    pub user_id: Option<i64>,
    /// Imported from a file.
    pub from_file: bool,
    /// In the pool shared by every project.
    pub shared: bool,
}

/// A translation to remember in one scope.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Feed {
    /// Language of the source text.
    pub source_language_id: i64,
    /// Language of the translation.
    pub target_language_id: i64,
    /// Source text.
    pub source: String,
    /// Hash of the source text (see `tolk_service::memory::source_hash`).
    pub source_hash: i64,
    /// Translation.
    pub target: String,
    /// `project/component`.
    pub origin: String,
    /// The project scope, if it is one.
    pub project_id: Option<i64>,
    /// The user scope, if it is one.
    pub user_id: Option<i64>,
    /// The shared pool.
    pub shared: bool,
    /// Imported from a file (seen by every project).
    pub from_file: bool,
    /// A hash of all of the above: the entry's identity.
    pub digest: Option<i64>,
}

/// Rows per statement: well under SQLite's limit of bound values.
const CHUNK: usize = 300;

/// Stores translations not yet remembered in their scope (found by their
/// `digest`); one statement per few hundred (column assignments, which
/// diesel writes as one multi-row statement on SQLite too, where it would
/// insert derived rows one by one).
pub fn remember(conn: &mut DbConnection, feeds: &[Feed], at: NaiveDateTime) -> StoreResult<()> {
    for chunk in feeds.chunks(CHUNK) {
        let rows: Vec<_> = chunk
            .iter()
            .map(|feed| {
                (
                    memory::source_language_id.eq(feed.source_language_id),
                    memory::target_language_id.eq(feed.target_language_id),
                    memory::source.eq(&feed.source),
                    memory::source_hash.eq(feed.source_hash),
                    memory::target.eq(&feed.target),
                    memory::origin.eq(&feed.origin),
                    memory::project_id.eq(feed.project_id),
                    memory::user_id.eq(feed.user_id),
                    memory::shared.eq(feed.shared),
                    memory::from_file.eq(feed.from_file),
                    memory::digest.eq(feed.digest),
                    memory::created.eq(at),
                )
            })
            .collect();
        // One entry (an edit's) as a single-row insert, which diesel keeps
        // prepared; a batch insert it prepares again at every run.
        match <[_; 1]>::try_from(rows) {
            Ok([row]) => crate::with_backend!(conn, |c| diesel::insert_into(memory::table)
                .values(row)
                .on_conflict_do_nothing()
                .execute(c))?,
            Err(rows) => crate::with_backend!(conn, |c| diesel::insert_into(memory::table)
                .values(rows)
                .on_conflict_do_nothing()
                .execute(c))?,
        };
    }
    Ok(())
}

/// Whose entries a caller sees.
#[derive(Debug, Clone)]
pub enum Scope {
    /// Every entry (superusers, `memory.manage`).
    All,
    /// The user's own entries, those of the projects visible to them and
    /// those imported from files.
    Of {
        /// The caller.
        user_id: i64,
        /// The projects they see.
        projects: ProjectVisibility,
    },
}

/// What a list of entries is narrowed to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Source text containing this, in any case (ASCII case on SQLite).
    pub source: Option<String>,
    /// Source language id.
    pub source_language_id: Option<i64>,
    /// Target language id.
    pub target_language_id: Option<i64>,
    /// Project id.
    pub project_id: Option<i64>,
}

type Boxed<'a> = memory::BoxedQuery<'a, crate::MultiBackend>;

fn filtered(scope: &Scope, filter: &Filter) -> Boxed<'static> {
    let mut query = memory::table.into_boxed();
    if let Scope::Of { user_id, projects } = scope {
        match crate::projects::visible_ids(projects) {
            Some(visible) => {
                query = query.filter(
                    memory::user_id
                        .eq(*user_id)
                        .or(memory::project_id.assume_not_null().eq_any(visible))
                        .or(memory::from_file.eq(true)),
                );
            }
            None => {
                query = query.filter(
                    memory::user_id
                        .eq(*user_id)
                        .or(memory::project_id.is_not_null())
                        .or(memory::from_file.eq(true)),
                );
            }
        }
    }
    if let Some(text) = &filter.source {
        let pattern = crate::unit_search::containing(&text.to_lowercase());
        query = query.filter(lower(memory::source).like(pattern).escape('\\'));
    }
    if let Some(id) = filter.source_language_id {
        query = query.filter(memory::source_language_id.eq(id));
    }
    if let Some(id) = filter.target_language_id {
        query = query.filter(memory::target_language_id.eq(id));
    }
    if let Some(id) = filter.project_id {
        query = query.filter(memory::project_id.eq(id));
    }
    query
}

/// The entries `scope` sees, narrowed by `filter`, by id; `None` for a
/// page past the end.
pub fn list(
    conn: &mut DbConnection,
    scope: &Scope,
    filter: &Filter,
    page: PageRequest,
) -> StoreResult<Option<Page<Entry>>> {
    page.run(
        conn,
        |conn| Ok::<_, StoreError>(filtered(scope, filter).count().get_result(conn)?),
        |conn, offset, limit| {
            Ok(filtered(scope, filter)
                .order(memory::id)
                .offset(offset)
                .limit(limit)
                .select(Entry::as_select())
                .load(conn)?)
        },
    )
}

/// Up to `limit` entries with ids above `after`, by id: the whole memory
/// a page at a time.
pub fn after(conn: &mut DbConnection, after: i64, limit: i64) -> StoreResult<Vec<Entry>> {
    Ok(memory::table
        .filter(memory::id.gt(after))
        .order(memory::id)
        .limit(limit)
        .select(Entry::as_select())
        .load(conn)?)
}

/// The source languages of the memory's entries.
pub fn source_languages(conn: &mut DbConnection) -> StoreResult<Vec<i64>> {
    Ok(memory::table
        .select(memory::source_language_id)
        .distinct()
        .load(conn)?)
}

/// An entry by id, if `scope` sees it.
pub fn get(conn: &mut DbConnection, scope: &Scope, id: i64) -> StoreResult<Option<Entry>> {
    Ok(filtered(scope, &Filter::default())
        .filter(memory::id.eq(id))
        .select(Entry::as_select())
        .first(conn)
        .optional()?)
}

/// Deletes an entry; false when it was gone already.
pub fn delete(conn: &mut DbConnection, id: i64) -> StoreResult<bool> {
    Ok(diesel::delete(memory::table.filter(memory::id.eq(id))).execute(conn)? > 0)
}

/// The entries of a language pair whose source text has one of these
/// hashes (exact matches, to be compared by text), in `scope` (and of
/// the project `project_id`, when given), newest first.
pub fn with_sources(
    conn: &mut DbConnection,
    scope: &Scope,
    languages: (i64, i64),
    project_id: Option<i64>,
    hashes: &[i64],
) -> StoreResult<Vec<Entry>> {
    let of_project = Filter {
        project_id,
        ..Filter::default()
    };
    let mut found = Vec::new();
    for chunk in hashes.chunks(CHUNK) {
        found.extend(
            filtered(scope, &of_project)
                .filter(memory::source_language_id.eq(languages.0))
                .filter(memory::target_language_id.eq(languages.1))
                .filter(memory::source_hash.eq_any(chunk.to_vec()))
                .order(memory::id.desc())
                .select(Entry::as_select())
                .load(conn)?,
        );
    }
    Ok(found)
}

/// The newest `limit` entries of a language pair in `scope` (and of the
/// project `project_id`, when given) whose source is between `lengths`
/// characters long (candidates for similar texts).
pub fn of_languages(
    conn: &mut DbConnection,
    scope: &Scope,
    languages: (i64, i64),
    project_id: Option<i64>,
    lengths: (i64, i64),
    limit: i64,
) -> StoreResult<Vec<Entry>> {
    let length = diesel::dsl::sql::<BigInt>("CAST(LENGTH(memory.source) AS BIGINT)");
    let of_project = Filter {
        project_id,
        ..Filter::default()
    };
    Ok(filtered(scope, &of_project)
        .filter(memory::source_language_id.eq(languages.0))
        .filter(memory::target_language_id.eq(languages.1))
        .filter(length.clone().ge(lengths.0))
        .filter(length.le(lengths.1))
        .order(memory::id.desc())
        .limit(limit)
        .select(Entry::as_select())
        .load(conn)?)
}
