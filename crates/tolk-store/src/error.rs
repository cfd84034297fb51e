//! Storage errors.

/// What can go wrong talking to the database.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database URL names no supported backend.
    #[error("unsupported database URL {0:?}: use a postgres:// URL or a SQLite file path")]
    UnsupportedUrl(String),
    /// No connection could be made or taken from the pool.
    #[error("database connection failed: {0}")]
    Connection(String),
    /// A query failed.
    #[error("database query failed: {0}")]
    Query(#[from] diesel::result::Error),
    /// Applying the schema migrations failed.
    #[error("database migration failed: {0}")]
    Migration(String),
    /// A group of writes run together could not be committed.
    #[error("committing a group of writes failed: {0}")]
    GroupCommit(String),
    /// A search's regular expressions went past their budget (or did not
    /// compile); the words say which, for the caller.
    #[error("{0}")]
    SearchBudget(String),
    /// A stored value could not be decoded.
    #[error("corrupt stored value in {0}")]
    Corrupt(&'static str),
}

impl From<r2d2::Error> for StoreError {
    fn from(e: r2d2::Error) -> Self {
        StoreError::Connection(e.to_string())
    }
}

impl StoreError {
    /// True when the same work may succeed when tried again: the
    /// connection was lost, or the database rolled the transaction back
    /// to end a deadlock (SQLSTATE 40P01) or a serialization conflict
    /// (40001). diesel names the second by its kind; the first reaches it
    /// only as PostgreSQL's message, which is read here and nowhere else.
    pub fn is_transient(&self) -> bool {
        match self {
            StoreError::Connection(_) => true,
            StoreError::Query(diesel::result::Error::DatabaseError(kind, info)) => {
                matches!(
                    kind,
                    diesel::result::DatabaseErrorKind::SerializationFailure
                ) || info.message().starts_with("deadlock detected")
            }
            _ => false,
        }
    }

    /// True when a unique constraint rejected the statement.
    pub fn is_unique_violation(&self) -> bool {
        self.unique_constraint().is_some()
    }

    /// When a unique constraint or index rejected the statement, what the
    /// database calls it: the constraint's name on PostgreSQL, the message
    /// naming the columns or index on SQLite. Callers look for a field's
    /// name in it to tell the client which field is taken.
    pub fn unique_constraint(&self) -> Option<String> {
        match self {
            StoreError::Query(diesel::result::Error::DatabaseError(
                diesel::result::DatabaseErrorKind::UniqueViolation,
                info,
            )) => Some(
                info.constraint_name()
                    .map_or_else(|| info.message().to_owned(), str::to_owned),
            ),
            _ => None,
        }
    }
}

/// Result of a storage operation.
pub type StoreResult<T> = Result<T, StoreError>;
