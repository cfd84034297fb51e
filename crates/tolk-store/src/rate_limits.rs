//! The API rate limits' state in the database, so that every instance on
//! one database counts against the same limits: per key, when its
//! capacity is whole again (GCRA), in microseconds since the epoch. A
//! request's share is taken in one statement (an upsert that only counts
//! when the request fits), so concurrent instances never both spend the
//! last of a limit.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::rate_limits;

#[derive(QueryableByName)]
struct FullAt {
    #[diesel(sql_type = BigInt)]
    full_at: i64,
}

/// What taking one request's share of a key found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Taken {
    /// The request fit, and was counted.
    pub accepted: bool,
    /// How much of the window was in use before it, in microseconds.
    pub used_before: i64,
}

/// Counts one request against `key` at `now` if it fits: each request
/// uses `interval` of a `window` (all in microseconds).
pub fn take(
    conn: &mut DbConnection,
    key: &str,
    now: i64,
    interval: i64,
    window: i64,
) -> StoreResult<Taken> {
    let start = "(CASE WHEN rate_limits.full_at > $2 THEN rate_limits.full_at ELSE $2 END)";
    let sql = format!(
        "INSERT INTO rate_limits (key, full_at) VALUES ($1, $2 + $3) \
         ON CONFLICT (key) DO UPDATE SET full_at = {start} + $3 \
         WHERE {start} + $3 - $2 <= $4 RETURNING full_at"
    );
    let counted = diesel::sql_query(sql)
        .bind::<Text, _>(key)
        .bind::<BigInt, _>(now)
        .bind::<BigInt, _>(interval)
        .bind::<BigInt, _>(window)
        .get_result::<FullAt>(conn)
        .optional()?;
    if let Some(after) = counted {
        return Ok(Taken {
            accepted: true,
            used_before: after.full_at - interval - now,
        });
    }
    let current: Option<i64> = rate_limits::table
        .find(key)
        .select(rate_limits::full_at)
        .first(conn)
        .optional()?;
    Ok(Taken {
        accepted: false,
        used_before: current.map_or(0, |at| (at - now).max(0)),
    })
}

/// Gives back one request's share of `key` (counted by one throttle, then
/// refused by another).
pub fn give_back(conn: &mut DbConnection, key: &str, interval: i64) -> StoreResult<()> {
    diesel::update(rate_limits::table.find(key))
        .set(rate_limits::full_at.eq(rate_limits::full_at - interval))
        .execute(conn)?;
    Ok(())
}

/// Forgets the keys whose capacity is whole again at `now`.
pub fn sweep(conn: &mut DbConnection, now: i64) -> StoreResult<usize> {
    Ok(diesel::delete(rate_limits::table.filter(rate_limits::full_at.le(now))).execute(conn)?)
}
