//! Strings deleted through the API that their files still hold. The next
//! commit removes each from its translation's file and then forgets it;
//! until then a read of the file leaves the string out.

use std::collections::HashSet;

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::{translations, unit_removals};

/// A string to remove from one translation's file.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = unit_removals)]
pub struct Removal {
    /// The translation whose file holds the string.
    pub translation_id: i64,
    /// The string's identity in the translation.
    pub id_hash: i64,
    /// Its context (bilingual) or key (monolingual).
    pub context: String,
    /// Its source text, plural forms joined.
    pub source: String,
    /// When it was deleted.
    pub created: NaiveDateTime,
}

/// Rows per multi-row insert: well under SQLite's limit of bound values.
const CHUNK: usize = 500;

/// Records strings to remove; one statement per few hundred (column
/// assignments: diesel inserts derived rows one by one on SQLite).
pub fn insert_many(conn: &mut DbConnection, removals: &[Removal]) -> StoreResult<()> {
    for chunk in removals.chunks(CHUNK) {
        let rows: Vec<_> = chunk
            .iter()
            .map(|r| {
                (
                    unit_removals::translation_id.eq(r.translation_id),
                    unit_removals::id_hash.eq(r.id_hash),
                    unit_removals::context.eq(&r.context),
                    unit_removals::source.eq(&r.source),
                    unit_removals::created.eq(r.created),
                )
            })
            .collect();
        crate::with_backend!(conn, |c| diesel::insert_into(unit_removals::table)
            .values(&rows)
            .execute(c))?;
    }
    Ok(())
}

/// The strings to remove from these translations' files, oldest first.
pub fn of_translations(conn: &mut DbConnection, ids: &[i64]) -> StoreResult<Vec<Removal>> {
    Ok(unit_removals::table
        .filter(unit_removals::translation_id.eq_any(ids.to_vec()))
        .order(unit_removals::id)
        .select(Removal::as_select())
        .load(conn)?)
}

/// The identities of the strings a read of this translation's file leaves out.
pub fn hashes_of(conn: &mut DbConnection, translation_id: i64) -> StoreResult<HashSet<i64>> {
    let hashes: Vec<i64> = unit_removals::table
        .filter(unit_removals::translation_id.eq(translation_id))
        .select(unit_removals::id_hash)
        .load(conn)?;
    Ok(hashes.into_iter().collect())
}

/// Forgets the removals of these strings (by translation and identity),
/// written into the files; one statement per translation.
pub fn forget(conn: &mut DbConnection, done: &[(i64, i64)]) -> StoreResult<()> {
    let mut by_translation: std::collections::BTreeMap<i64, Vec<i64>> = Default::default();
    for (translation_id, id_hash) in done {
        by_translation
            .entry(*translation_id)
            .or_default()
            .push(*id_hash);
    }
    for (translation_id, hashes) in by_translation {
        forget_string_set(conn, translation_id, &hashes)?;
    }
    Ok(())
}

/// Forgets the removals of these strings from one translation.
fn forget_string_set(
    conn: &mut DbConnection,
    translation_id: i64,
    hashes: &[i64],
) -> StoreResult<()> {
    for chunk in hashes.chunks(CHUNK) {
        diesel::delete(
            unit_removals::table
                .filter(unit_removals::translation_id.eq(translation_id))
                .filter(unit_removals::id_hash.eq_any(chunk.to_vec())),
        )
        .execute(conn)?;
    }
    Ok(())
}

/// Forgets every removal of these translations (their files were reset).
pub fn forget_all(conn: &mut DbConnection, translation_ids: &[i64]) -> StoreResult<()> {
    diesel::delete(
        unit_removals::table.filter(unit_removals::translation_id.eq_any(translation_ids.to_vec())),
    )
    .execute(conn)?;
    Ok(())
}

/// How many removals these translations' files wait for.
pub fn count(conn: &mut DbConnection, translation_ids: &[i64]) -> StoreResult<i64> {
    Ok(unit_removals::table
        .filter(unit_removals::translation_id.eq_any(translation_ids.to_vec()))
        .count()
        .get_result(conn)?)
}

/// The components with removals waiting, each with its oldest one's time.
pub fn oldest(conn: &mut DbConnection) -> StoreResult<Vec<(i64, NaiveDateTime)>> {
    let rows: Vec<(i64, Option<NaiveDateTime>)> = unit_removals::table
        .inner_join(translations::table)
        .group_by(translations::component_id)
        .select((
            translations::component_id,
            diesel::dsl::min(unit_removals::created),
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(component, at)| Some((component, at?)))
        .collect())
}

/// Forgets the removals of one string from these translations (it was
/// added again, so the files keep it); one statement.
pub fn forget_string(
    conn: &mut DbConnection,
    translation_ids: &[i64],
    id_hash: i64,
) -> StoreResult<()> {
    diesel::delete(
        unit_removals::table
            .filter(unit_removals::translation_id.eq_any(translation_ids.to_vec()))
            .filter(unit_removals::id_hash.eq(id_hash)),
    )
    .execute(conn)?;
    Ok(())
}
