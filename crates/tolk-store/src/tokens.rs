//! API tokens, stored only as hashes.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::{tokens, users};
use crate::users::UserRow;

/// A token to store: only its key's hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewToken<'a> {
    /// The account acting with it.
    pub user_id: i64,
    /// The project a project token belongs to.
    pub project_id: Option<i64>,
    /// The key's hash.
    pub key_hash: &'a str,
    /// When it is made.
    pub created: NaiveDateTime,
    /// When it stops working.
    pub expires: Option<NaiveDateTime>,
}

/// Stores a new token; its id.
pub fn insert(conn: &mut DbConnection, new: &NewToken<'_>) -> StoreResult<i64> {
    let values = (
        tokens::user_id.eq(new.user_id),
        tokens::project_id.eq(new.project_id),
        tokens::key_hash.eq(new.key_hash),
        tokens::created.eq(new.created),
        tokens::expires.eq(new.expires),
    );
    Ok(crate::with_backend!(conn, |c| diesel::insert_into(
        tokens::table
    )
    .values(&values)
    .returning(tokens::id)
    .get_result(c))?)
}

/// A token found by its hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundToken {
    /// The stored hash.
    pub key_hash: String,
    /// When it stops working.
    pub expires: Option<NaiveDateTime>,
    /// The account acting with it.
    pub user: UserRow,
}

/// The token with this hash, unless it has expired.
pub fn find(
    conn: &mut DbConnection,
    key_hash: &str,
    now: NaiveDateTime,
) -> StoreResult<Option<FoundToken>> {
    let found: Option<(String, Option<NaiveDateTime>, UserRow)> = tokens::table
        .inner_join(users::table)
        .filter(tokens::key_hash.eq(key_hash))
        .filter(tokens::expires.is_null().or(tokens::expires.gt(now)))
        .select((tokens::key_hash, tokens::expires, UserRow::as_select()))
        .first(conn)
        .optional()?;
    Ok(found.map(|(key_hash, expires, user)| FoundToken {
        key_hash,
        expires,
        user,
    }))
}

/// Deletes an account's personal tokens (those of no project).
pub fn delete_personal(conn: &mut DbConnection, user_id: i64) -> StoreResult<usize> {
    Ok(diesel::delete(
        tokens::table
            .filter(tokens::user_id.eq(user_id))
            .filter(tokens::project_id.is_null()),
    )
    .execute(conn)?)
}

/// True when the user is the bot of a project token.
pub fn is_project_bot(conn: &mut DbConnection, user_id: i64) -> StoreResult<bool> {
    Ok(diesel::select(diesel::dsl::exists(
        tokens::table
            .filter(tokens::user_id.eq(user_id))
            .filter(tokens::project_id.is_not_null()),
    ))
    .get_result(conn)?)
}

/// Revokes every token of a user.
pub fn delete_for_user(conn: &mut DbConnection, user_id: i64) -> StoreResult<()> {
    diesel::delete(tokens::table.filter(tokens::user_id.eq(user_id))).execute(conn)?;
    Ok(())
}

/// A project token as its project's managers see it (never the key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectToken {
    /// Primary key.
    pub id: i64,
    /// The bot account acting with it.
    pub user: UserRow,
    /// When it was made.
    pub created: NaiveDateTime,
    /// When it stops working.
    pub expires: Option<NaiveDateTime>,
}

/// The tokens of a project, by id.
pub fn of_project(conn: &mut DbConnection, project_id: i64) -> StoreResult<Vec<ProjectToken>> {
    let rows: Vec<(i64, NaiveDateTime, Option<NaiveDateTime>, UserRow)> = tokens::table
        .inner_join(users::table)
        .filter(tokens::project_id.eq(project_id))
        .order(tokens::id)
        .select((
            tokens::id,
            tokens::created,
            tokens::expires,
            UserRow::as_select(),
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, created, expires, user)| ProjectToken {
            id,
            user,
            created,
            expires,
        })
        .collect())
}

/// Revokes the project token `id` of `project_id`; its bot's id, or
/// `None` when there is no such token.
pub fn delete_of_project(
    conn: &mut DbConnection,
    project_id: i64,
    id: i64,
) -> StoreResult<Option<i64>> {
    // One statement, so that of two racing revocations one finds nothing.
    let token = tokens::table
        .filter(tokens::id.eq(id))
        .filter(tokens::project_id.eq(project_id));
    Ok(crate::with_backend!(conn, |c| diesel::delete(token)
        .returning(tokens::user_id)
        .get_result(c)
        .optional())?)
}
