//! Timestamps as stored: UTC, microsecond precision on every backend.

use chrono::{NaiveDateTime, SubsecRound, Utc};

/// The current UTC time, truncated to microseconds so that a value reads
/// back identically from SQLite and PostgreSQL.
pub fn now() -> NaiveDateTime {
    Utc::now().naive_utc().trunc_subsecs(6)
}
