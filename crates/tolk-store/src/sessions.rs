//! The web pages' sessions and one-time password links, stored only as
//! digests of their keys (the cookie or link holds the key itself).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::{password_links, sessions, users};
use crate::users::UserRow;

/// Stores a new session of `user_id` until `expires`.
pub fn insert(
    conn: &mut DbConnection,
    key_hash: &str,
    user_id: i64,
    created: NaiveDateTime,
    expires: NaiveDateTime,
) -> StoreResult<()> {
    diesel::insert_into(sessions::table)
        .values((
            sessions::key_hash.eq(key_hash),
            sessions::user_id.eq(user_id),
            sessions::created.eq(created),
            sessions::expires.eq(expires),
        ))
        .execute(conn)?;
    Ok(())
}

/// The account of the session with this digest, unless it has ended.
pub fn find(
    conn: &mut DbConnection,
    key_hash: &str,
    now: NaiveDateTime,
) -> StoreResult<Option<UserRow>> {
    Ok(sessions::table
        .inner_join(users::table)
        .filter(sessions::key_hash.eq(key_hash))
        .filter(sessions::expires.gt(now))
        .select(UserRow::as_select())
        .first(conn)
        .optional()?)
}

/// Ends the session with this digest; whether there was one.
pub fn delete(conn: &mut DbConnection, key_hash: &str) -> StoreResult<bool> {
    Ok(diesel::delete(sessions::table.find(key_hash)).execute(conn)? > 0)
}

/// Ends every session of an account.
pub fn delete_of_user(conn: &mut DbConnection, user_id: i64) -> StoreResult<usize> {
    Ok(diesel::delete(sessions::table.filter(sessions::user_id.eq(user_id))).execute(conn)?)
}

/// Forgets the sessions and password links that ended before `now`.
pub fn sweep(conn: &mut DbConnection, now: NaiveDateTime) -> StoreResult<usize> {
    let ended = diesel::delete(sessions::table.filter(sessions::expires.le(now))).execute(conn)?;
    let links = diesel::delete(password_links::table.filter(password_links::expires.le(now)))
        .execute(conn)?;
    Ok(ended + links)
}

/// Stores a one-time password link of `user_id`, replacing the account's
/// earlier ones: only the newest link handed out works.
pub fn replace_password_link(
    conn: &mut DbConnection,
    key_hash: &str,
    user_id: i64,
    expires: NaiveDateTime,
) -> StoreResult<()> {
    diesel::delete(password_links::table.filter(password_links::user_id.eq(user_id)))
        .execute(conn)?;
    diesel::insert_into(password_links::table)
        .values((
            password_links::key_hash.eq(key_hash),
            password_links::user_id.eq(user_id),
            password_links::expires.eq(expires),
        ))
        .execute(conn)?;
    Ok(())
}

/// The account a password link names, unless it has expired.
pub fn password_link(
    conn: &mut DbConnection,
    key_hash: &str,
    now: NaiveDateTime,
) -> StoreResult<Option<UserRow>> {
    Ok(password_links::table
        .inner_join(users::table)
        .filter(password_links::key_hash.eq(key_hash))
        .filter(password_links::expires.gt(now))
        .select(UserRow::as_select())
        .first(conn)
        .optional()?)
}

/// Uses up a password link: whether it was still there (of two
/// concurrent uses, one finds it).
pub fn take_password_link(conn: &mut DbConnection, key_hash: &str) -> StoreResult<bool> {
    Ok(diesel::delete(password_links::table.find(key_hash)).execute(conn)? > 0)
}
