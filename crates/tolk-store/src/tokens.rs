//! API tokens, stored only as hashes.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::{tokens, users};
use crate::users::UserRow;

/// Stores the hash of a new token for a user (and, for project tokens, its project).
pub fn insert(
    conn: &mut DbConnection,
    user_id: i64,
    project_id: Option<i64>,
    key_hash: &str,
    created: NaiveDateTime,
) -> StoreResult<()> {
    diesel::insert_into(tokens::table)
        .values((
            tokens::user_id.eq(user_id),
            tokens::project_id.eq(project_id),
            tokens::key_hash.eq(key_hash),
            tokens::created.eq(created),
        ))
        .execute(conn)?;
    Ok(())
}

/// The stored hash and owner of the token with this hash, unless it has expired.
pub fn find(
    conn: &mut DbConnection,
    key_hash: &str,
    now: NaiveDateTime,
) -> StoreResult<Option<(String, UserRow)>> {
    Ok(tokens::table
        .inner_join(users::table)
        .filter(tokens::key_hash.eq(key_hash))
        .filter(tokens::expires.is_null().or(tokens::expires.gt(now)))
        .select((tokens::key_hash, UserRow::as_select()))
        .first(conn)
        .optional()?)
}

/// Revokes every token of a user.
pub fn delete_for_user(conn: &mut DbConnection, user_id: i64) -> StoreResult<()> {
    diesel::delete(tokens::table.filter(tokens::user_id.eq(user_id))).execute(conn)?;
    Ok(())
}
