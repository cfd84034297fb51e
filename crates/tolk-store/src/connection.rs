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

impl DbConnection {
    /// Runs `f` in a transaction that writes: committed when it returns
    /// `Ok`, rolled back when it returns `Err`. On SQLite the outermost
    /// one begins `IMMEDIATE`, holding the database's write lock from its
    /// first statement: a transaction that read first and took the lock
    /// only at its first write would fail at once ("database is locked",
    /// no waiting) whenever another process (a `tolk import` beside the
    /// server) committed in between. Nested ones are savepoints as usual.
    pub fn write_transaction<T, E>(
        &mut self,
        f: impl FnOnce(&mut DbConnection) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<diesel::result::Error>,
    {
        use diesel::connection::{AnsiTransactionManager, Connection, TransactionManager};
        type Manager = <DbConnection as Connection>::TransactionManager;
        let DbConnection::Sqlite(sqlite) = self else {
            return self.transaction(f);
        };
        let outermost = AnsiTransactionManager::transaction_manager_status_mut(sqlite)
            .transaction_depth()?
            .is_none();
        if !outermost {
            return self.transaction(f);
        }
        AnsiTransactionManager::begin_transaction_sql(sqlite, "BEGIN IMMEDIATE")?;
        match f(self) {
            Ok(value) => {
                Manager::commit_transaction(self)?;
                Ok(value)
            }
            Err(error) => match Manager::rollback_transaction(self) {
                Ok(()) | Err(diesel::result::Error::BrokenTransactionManager) => Err(error),
                Err(rollback) => Err(rollback.into()),
            },
        }
    }
}
