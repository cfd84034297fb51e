//! The connection pool and the entry points for reading and writing.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use diesel::connection::{Instrumentation, InstrumentationEvent, SimpleConnection};
use diesel::r2d2::R2D2Connection;
use diesel::{Connection, PgConnection, SqliteConnection};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use parking_lot::FairMutex;

use crate::DbConnection;
use crate::error::{StoreError, StoreResult};

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");
const PG_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");

/// Settings every SQLite connection gets: write-ahead log (checkpointed
/// in the background, see [`crate::checkpoint`]), enforced foreign keys,
/// waiting instead of failing on a busy database, case-sensitive `LIKE`
/// so that prefix filters behave as on PostgreSQL, and temporary data in
/// memory (the copies of pages a savepoint may roll back to, which every
/// write of a group commit makes, would otherwise go through a file).
fn sqlite_pragmas() -> String {
    format!(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY; \
         PRAGMA wal_autocheckpoint = {}; PRAGMA foreign_keys = ON; \
         PRAGMA busy_timeout = 10000; PRAGMA case_sensitive_like = ON;",
        crate::checkpoint::WRITER_CHECKPOINT_PAGES
    )
}

/// Which database engine a store talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendKind {
    /// Embedded SQLite file.
    Sqlite,
    /// PostgreSQL server.
    Postgres,
}

impl BackendKind {
    /// Tells the backend from a database URL: `postgres://` and
    /// `postgresql://` are PostgreSQL; `sqlite://PATH`, `sqlite:PATH` and a
    /// bare path are SQLite.
    pub fn from_url(url: &str) -> StoreResult<(BackendKind, String)> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok((BackendKind::Postgres, url.to_owned()));
        }
        let path = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
            .unwrap_or(url);
        if path.is_empty() || path.contains("://") {
            return Err(StoreError::UnsupportedUrl(url.to_owned()));
        }
        Ok((BackendKind::Sqlite, path.to_owned()))
    }
}

/// Counts what a store's connections do: the statements they run, so
/// that tests and benchmarks can check that a request costs a fixed number
/// of them, and the transactions they commit, so that a cache can tell
/// whether this process changed anything since it last looked (see
/// [`Store::commits`]). Each connection has its own copy (to follow its
/// own commit); the counts are shared.
#[derive(Debug, Clone, Default)]
struct StatementCounter {
    statements: Arc<AtomicU64>,
    commits: Commits,
    /// This connection has started to commit its outermost transaction.
    committing: bool,
}

impl Instrumentation for StatementCounter {
    fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
        match event {
            InstrumentationEvent::StartQuery { query, .. } => {
                tracing::trace!(target: "tolk_store::sql", "{query}");
                self.statements.fetch_add(1, Ordering::Relaxed);
            }
            InstrumentationEvent::CommitTransaction { depth, .. } => {
                self.committing = depth.get() == 1;
            }
            // The `COMMIT` statement itself: counted once it succeeded,
            // so a reader that saw the count before it also sees it move.
            InstrumentationEvent::FinishQuery { error, .. } if self.committing => {
                self.committing = false;
                if error.is_none() {
                    self.commits.0.fetch_add(1, Ordering::SeqCst);
                }
            }
            _ => {}
        }
    }
}

/// How many transactions a store's connections (every clone's) have
/// committed; a cheap handle to read it.
#[derive(Debug, Clone, Default)]
pub struct Commits(Arc<AtomicU64>);

impl Commits {
    /// The count now. Taken before a read, it tells afterwards whether
    /// this process committed anything since: the count moves only once
    /// a commit is complete.
    pub fn count(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// A connection taken for writing, with SQLite's write lock held.
struct Writing<'a> {
    conn: r2d2::PooledConnection<ConnectionManager>,
    _guard: parking_lot::FairMutexGuard<'a, ()>,
}

impl std::ops::Deref for Writing<'_> {
    type Target = DbConnection;

    fn deref(&self) -> &DbConnection {
        &self.conn
    }
}

impl std::ops::DerefMut for Writing<'_> {
    fn deref_mut(&mut self) -> &mut DbConnection {
        &mut self.conn
    }
}

/// Opens connections of the configured backend for the pool.
#[derive(Debug)]
pub struct ConnectionManager {
    kind: BackendKind,
    target: String,
    counter: StatementCounter,
}

/// A connection of the pool with the time it was last taken out.
pub struct Pooled {
    conn: DbConnection,
    taken: Instant,
}

impl std::ops::Deref for Pooled {
    type Target = DbConnection;

    fn deref(&self) -> &DbConnection {
        &self.conn
    }
}

impl std::ops::DerefMut for Pooled {
    fn deref_mut(&mut self) -> &mut DbConnection {
        &mut self.conn
    }
}

/// How long a PostgreSQL connection may lie idle in the pool before it is
/// checked (one `SELECT 1`) when taken out again. A connection in steady
/// use is not: a request then costs only its own statements, and one that
/// the server dropped meanwhile fails that request and leaves the pool
/// (`has_broken`).
const CHECK_WHEN_IDLE: Duration = Duration::from_secs(10);

impl ConnectionManager {
    fn open(&self) -> Result<DbConnection, diesel::r2d2::Error> {
        let conn = match self.kind {
            BackendKind::Postgres => {
                let mut c = PgConnection::establish(&self.target)
                    .map_err(diesel::r2d2::Error::ConnectionError)?;
                c.set_instrumentation(self.counter.clone());
                DbConnection::Pg(c)
            }
            BackendKind::Sqlite => {
                let mut c = SqliteConnection::establish(&self.target)
                    .map_err(diesel::r2d2::Error::ConnectionError)?;
                c.batch_execute(&sqlite_pragmas())
                    .map_err(diesel::r2d2::Error::QueryError)?;
                c.set_instrumentation(self.counter.clone());
                DbConnection::Sqlite(c)
            }
        };
        Ok(conn)
    }
}

impl r2d2::ManageConnection for ConnectionManager {
    type Connection = Pooled;
    type Error = diesel::r2d2::Error;

    fn connect(&self) -> Result<Pooled, Self::Error> {
        Ok(Pooled {
            conn: self.open()?,
            taken: Instant::now(),
        })
    }

    fn is_valid(&self, pooled: &mut Pooled) -> Result<(), Self::Error> {
        // A SQLite file cannot drop a connection; a PostgreSQL server can.
        let idle = pooled.taken.elapsed();
        pooled.taken = Instant::now();
        if self.kind == BackendKind::Postgres && idle >= CHECK_WHEN_IDLE {
            pooled
                .conn
                .ping()
                .map_err(diesel::r2d2::Error::QueryError)?;
        }
        Ok(())
    }

    fn has_broken(&self, pooled: &mut Pooled) -> bool {
        pooled.conn.is_broken()
    }
}

/// A pooled connection.
pub type PooledConnection = r2d2::PooledConnection<ConnectionManager>;

/// How a pool's connections are used at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolUse {
    /// Connections it may open.
    pub size: u32,
    /// Connections open.
    pub open: u32,
    /// Open connections waiting to be taken.
    pub idle: u32,
}

/// Tolk's database: a pool of connections to one backend.
#[derive(Clone)]
pub struct Store {
    pool: r2d2::Pool<ConnectionManager>,
    /// A few connections for single statements on every request (the
    /// rate limits), taken without the check-out query: a lost one fails
    /// one statement and leaves the pool.
    quick: r2d2::Pool<ConnectionManager>,
    kind: BackendKind,
    /// SQLite allows one writer at a time; writers of this process queue
    /// here instead of failing on lock upgrades, in turn: a loop of
    /// transactions (a scan writing translation after translation) cannot
    /// keep a task's lease renewal or a request waiting past its turn.
    write_lock: Arc<FairMutex<()>>,
    counter: StatementCounter,
    /// Writes waiting to be committed together.
    group: Arc<crate::group_commit::Group>,
    /// SQLite's background checkpoints, running while a clone lives.
    _checkpointer: Option<Arc<crate::checkpoint::Checkpointer>>,
}

impl Store {
    /// Opens a pool of up to `max_connections` connections to `url`.
    pub fn open(url: &str, max_connections: u32) -> StoreResult<Store> {
        let (kind, target) = BackendKind::from_url(url)?;
        if kind == BackendKind::Sqlite
            && let Some(dir) = std::path::Path::new(&target).parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir).map_err(|e| {
                StoreError::Connection(format!("cannot create {}: {e}", dir.display()))
            })?;
        }
        let counter = StatementCounter::default();
        let manager = || ConnectionManager {
            kind,
            target: target.clone(),
            counter: counter.clone(),
        };
        // One connection made first fails at once with the database's own
        // words (a database that does not exist, a refused login), where
        // the pool would retry until its timeout.
        manager()
            .open()
            .map_err(|e| StoreError::Connection(e.to_string()))?;
        let pool = r2d2::Pool::builder()
            .max_size(max_connections.max(1))
            .min_idle(Some(1))
            // Checked when idle for a while (see `CHECK_WHEN_IDLE`).
            .test_on_check_out(true)
            .connection_timeout(Duration::from_secs(30))
            .build(manager())?;
        let quick = r2d2::Pool::builder()
            .max_size(4)
            .min_idle(Some(1))
            .test_on_check_out(false)
            .connection_timeout(Duration::from_secs(30))
            .build(manager())?;
        let write_lock = Arc::new(FairMutex::new(()));
        let checkpointer = match kind {
            // After the pool: its first connection made the file a WAL database.
            BackendKind::Sqlite => Some(Arc::new(crate::checkpoint::Checkpointer::start(
                &target,
                Arc::clone(&write_lock),
            )?)),
            BackendKind::Postgres => None,
        };
        Ok(Store {
            pool,
            quick,
            kind,
            write_lock,
            counter,
            group: Arc::default(),
            _checkpointer: checkpointer,
        })
    }

    /// The backend this store talks to.
    pub fn backend(&self) -> BackendKind {
        self.kind
    }

    /// Number of SQL statements this store's connections have run so far.
    pub fn statements_run(&self) -> u64 {
        self.counter.statements.load(Ordering::Relaxed)
    }

    /// The transactions this store's connections have committed, counted
    /// as they complete (writes outside a transaction are not counted).
    pub fn commits(&self) -> Commits {
        self.counter.commits.clone()
    }

    /// How the main pool is used now.
    pub fn pool_use(&self) -> PoolUse {
        let state = self.pool.state();
        PoolUse {
            size: self.pool.max_size(),
            open: state.connections,
            idle: state.idle_connections,
        }
    }

    /// Whether the database answers a statement within `limit`.
    pub fn ping(&self, limit: Duration) -> StoreResult<()> {
        let mut conn = self.pool.get_timeout(limit)?;
        crate::generation::current(&mut conn)?;
        Ok(())
    }

    /// Brings PostgreSQL's planner statistics up to date (`ANALYZE` of
    /// every table), after a write of many rows at once: until
    /// autovacuum gets to it (a minute or more later, or never where it is
    /// off) the planner takes a table of a million new rows for a small
    /// one, and a page deep in a translation sorts thousands of rows
    /// instead of walking an index. SQLite plans without statistics:
    /// nothing to do there.
    pub fn refresh_planner_statistics(&self) -> StoreResult<()> {
        match self.kind {
            BackendKind::Postgres => Ok(self.conn()?.batch_execute("ANALYZE")?),
            BackendKind::Sqlite => Ok(()),
        }
    }

    /// The database engine.
    pub fn kind(&self) -> BackendKind {
        self.kind
    }

    /// Takes a connection from the pool.
    pub fn conn(&self) -> StoreResult<PooledConnection> {
        Ok(self.pool.get()?)
    }

    /// Runs read-only work on a pooled connection.
    pub fn read<T, E>(&self, f: impl FnOnce(&mut DbConnection) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        f(&mut **self.conn()?)
    }

    /// Runs single statements that every request may need (each atomic
    /// on its own, no transaction) on a connection of the quick pool.
    pub fn quick<T, E>(&self, f: impl FnOnce(&mut DbConnection) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        f(&mut **self.quick.get().map_err(StoreError::from)?)
    }

    /// Runs `f` in one transaction: everything it wrote is committed when it
    /// returns `Ok`, and nothing is when it returns `Err`.
    pub fn write<T, E>(&self, f: impl FnOnce(&mut DbConnection) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError> + From<diesel::result::Error>,
    {
        let _guard = match self.kind {
            BackendKind::Sqlite => Some(self.write_lock.lock()),
            BackendKind::Postgres => None,
        };
        let mut conn = self.conn()?;
        conn.conn.write_transaction(f)
    }

    /// Runs `f` in a transaction as [`Store::write`] does, for small
    /// writes that many callers make at once (a unit edit): on SQLite,
    /// writes that arrive while one is under way are committed together
    /// (see `group_commit`), each still all or nothing.
    pub fn write_together<T, E>(
        &self,
        f: impl FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<StoreError> + From<diesel::result::Error> + Send + 'static,
    {
        match self.kind {
            BackendKind::Postgres => self.write(f),
            BackendKind::Sqlite => self.group.write(
                || {
                    let guard = self.write_lock.lock();
                    Ok(Writing {
                        conn: self.conn()?,
                        _guard: guard,
                    })
                },
                f,
            ),
        }
    }

    /// Applies pending schema migrations, then loads the built-in data
    /// (languages, the anonymous account) when it is missing.
    pub fn migrate(&self) -> StoreResult<()> {
        let mut conn = self.conn()?;
        let applied = match &mut conn.conn {
            DbConnection::Pg(c) => c.run_pending_migrations(PG_MIGRATIONS).map(|v| v.len()),
            DbConnection::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS).map(|v| v.len()),
        }
        .map_err(|e| StoreError::Migration(e.to_string()))?;
        if applied > 0 {
            tracing::info!("applied {applied} database migration(s)");
        }
        drop(conn);
        self.write(crate::seed::ensure_builtin_data)
    }
}
