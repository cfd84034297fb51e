//! The API rate limits' counters in the database, for servers that share
//! one PostgreSQL database: every instance counts against the same
//! limits. The arithmetic (a GCRA per key) is the caller's; this takes a
//! request's share of each key in one statement per key.

use tolk_store::rate_limits;

use crate::ServiceResult;

/// One throttle's key with its rate, in microseconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateKey {
    /// Names the throttle and the caller, e.g. `user:7`.
    pub key: String,
    /// The share of the window one request uses.
    pub interval: i64,
    /// The window.
    pub window: i64,
}

/// What counting a request against some keys found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateCount {
    /// How much of each key's window was in use before the request, in
    /// microseconds, for the keys looked at (all of them, unless one
    /// refused the request: then up to and including that one).
    pub used_before: Vec<i64>,
    /// The key that refused the request: then no key counted it.
    pub refused_by: Option<usize>,
}

crate::service::area!(
    /// The use-cases of request throttling.
    RateLimits,
    rate_limits
);

impl RateLimits<'_> {
    /// Counts one request against every key at `now` (microseconds since
    /// the epoch), in order, or against none when one of them refuses it.
    pub fn count(&self, keys: &[RateKey], now: i64) -> ServiceResult<RateCount> {
        self.store.quick(|conn| {
            let mut count = RateCount {
                used_before: Vec::with_capacity(keys.len()),
                refused_by: None,
            };
            for (i, key) in keys.iter().enumerate() {
                let taken = rate_limits::take(conn, &key.key, now, key.interval, key.window)?;
                count.used_before.push(taken.used_before);
                if !taken.accepted {
                    for earlier in &keys[..i] {
                        rate_limits::give_back(conn, &earlier.key, earlier.interval)?;
                    }
                    count.refused_by = Some(i);
                    break;
                }
            }
            Ok(count)
        })
    }

    /// Forgets the rate-limit keys whose capacity is whole again at `now`.
    pub fn sweep(&self, now: i64) -> ServiceResult<usize> {
        Ok(self.store.quick(|conn| rate_limits::sweep(conn, now))?)
    }
}
