//! The API rate limits' state in the database, so that every instance on
//! one database counts against the same limits: per key, when its
//! capacity is whole again (GCRA), in microseconds since the epoch. A
//! request's share is taken in one statement (an upsert that only counts
//! when the request fits), so concurrent instances never both spend the
//! last of a limit.

use diesel::prelude::*;

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::rate_limits;

/// What taking one request's share of a key found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Taken {
    /// The request fit, and was counted.
    pub accepted: bool,
    /// How much of the window was in use before it, in microseconds.
    pub used_before: i64,
}

/// Counts one request against `key` at `now` if it fits: each request
/// uses `interval` of a `window` (all in microseconds), and it fits when
/// the key's capacity is whole again by `now + window - interval`. One
/// prepared statement for a key seen before (an update that only counts
/// a request that fits), an insert for a new key.
pub fn take(
    conn: &mut DbConnection,
    key: &str,
    now: i64,
    interval: i64,
    window: i64,
) -> StoreResult<Taken> {
    use diesel::dsl::case_when;
    let limit = now + window - interval;
    let counted = |after: i64| Taken {
        accepted: true,
        used_before: after - interval - now,
    };
    // Twice at most: a key another instance inserted meanwhile is then updated.
    for _ in 0..2 {
        let later = case_when(
            rate_limits::full_at.gt(now),
            rate_limits::full_at + interval,
        )
        .otherwise(now + interval);
        let updated: Option<i64> = crate::with_backend!(conn, |c| diesel::update(
            rate_limits::table
                .find(key)
                .filter(rate_limits::full_at.le(limit))
        )
        .set(rate_limits::full_at.eq(later))
        .returning(rate_limits::full_at)
        .get_result(c)
        .optional())?;
        if let Some(after) = updated {
            return Ok(counted(after));
        }
        let inserted: Option<i64> =
            crate::with_backend!(conn, |c| diesel::insert_into(rate_limits::table)
                .values((
                    rate_limits::key.eq(key),
                    rate_limits::full_at.eq(now + interval)
                ))
                .on_conflict_do_nothing()
                .returning(rate_limits::full_at)
                .get_result(c)
                .optional())?;
        if let Some(after) = inserted {
            return Ok(counted(after));
        }
        let current: Option<i64> = rate_limits::table
            .find(key)
            .select(rate_limits::full_at)
            .first(conn)
            .optional()?;
        if let Some(at) = current.filter(|at| *at > limit) {
            return Ok(Taken {
                accepted: false,
                used_before: (at - now).max(0),
            });
        }
    }
    // Inserted and forgotten twice while this request looked: refused, harmlessly.
    Ok(Taken {
        accepted: false,
        used_before: window,
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
