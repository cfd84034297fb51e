//! One connection type for both backends.

/// A connection to either backend; queries written against it run on both.
///
/// Queries that the backends cannot share (RETURNING, upserts, multi-row
/// inserts) match on the variant with [`with_backend!`](crate::with_backend).
#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    /// PostgreSQL, chosen by a `postgres://` or `postgresql://` URL.
    Pg(diesel::PgConnection),
    /// SQLite, the embedded default.
    Sqlite(diesel::SqliteConnection),
}

/// Runs the same code with the concrete connection of either backend, for
/// the few statements the backends cannot share.
#[macro_export]
macro_rules! with_backend {
    ($conn:expr, |$c:ident| $body:expr) => {
        match $conn {
            $crate::DbConnection::Pg($c) => $body,
            $crate::DbConnection::Sqlite($c) => $body,
        }
    };
}
