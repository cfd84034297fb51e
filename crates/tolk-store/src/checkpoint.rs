//! Copying SQLite's write-ahead log back into the database file on a
//! thread of its own. Left to SQLite, the writer whose commit crosses the
//! log's threshold does that copy and the `fsync` of the whole file that
//! ends it, while it holds the one write lock of the server: every few
//! dozen edits, one edit and all that queue behind it wait milliseconds.
//!
//! Here a background connection runs a passive checkpoint a few times a
//! second (it never blocks writers or readers). A passive checkpoint
//! cannot start the log over while readers keep reading from it, which
//! under steady load they always do: the log would grow until every
//! writer's commit checkpointed (and synced the file) itself. So when the
//! log passes [`RESTART_PAGES`], the thread takes the writers' lock for a
//! moment and restarts the log if no reader is reading from it at that
//! moment (it never waits for readers: SQLite's waits sleep whole
//! milliseconds, which every queued writer would wait too; it tries again
//! at the next round). The writers' own checkpoint stays as a fallback at
//! a far higher threshold ([`WRITER_CHECKPOINT_PAGES`]).

use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::sql_types::BigInt;
use diesel::{Connection, QueryableByName, RunQueryDsl, SqliteConnection};
use parking_lot::FairMutex;

use crate::error::{StoreError, StoreResult};

/// How often the background connection checkpoints.
const INTERVAL: Duration = Duration::from_millis(200);

/// Pages of log past which the background thread restarts the log under
/// the writers' lock (16 MiB of 4 KiB pages).
const RESTART_PAGES: i64 = 4_000;

/// Pages of log past which a writer checkpoints itself (SQLite's default
/// is 1,000): only reached when the background thread falls behind.
pub(crate) const WRITER_CHECKPOINT_PAGES: u32 = 10_000;

/// What `PRAGMA wal_checkpoint` answers.
#[derive(QueryableByName)]
struct Outcome {
    /// Pages in the log.
    #[diesel(sql_type = BigInt)]
    log: i64,
}

/// The running checkpoint thread of one database; it ends when this is
/// dropped (with the last clone of its store).
#[derive(Debug)]
pub(crate) struct Checkpointer {
    _stop: mpsc::Sender<()>,
}

impl Checkpointer {
    /// Starts checkpointing the SQLite database at `path`, whose writers
    /// take `write_lock`.
    pub(crate) fn start(path: &str, write_lock: Arc<FairMutex<()>>) -> StoreResult<Checkpointer> {
        let mut conn =
            SqliteConnection::establish(path).map_err(|e| StoreError::Connection(e.to_string()))?;
        // Never wait: a busy round is tried again at the next.
        conn.batch_execute("PRAGMA busy_timeout = 0;")?;
        let (stop, stopped) = mpsc::channel::<()>();
        std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(INTERVAL) {
                    match checkpoint(&mut conn, &write_lock) {
                        Ok(()) => {}
                        // Another connection holds the database (a migration,
                        // another process's restart): the next round tries again.
                        Err(e) if e.to_string().contains("database is locked") => {
                            tracing::debug!("background checkpoint skipped: {e}");
                        }
                        Err(e) => tracing::warn!("background checkpoint failed: {e}"),
                    }
                }
            })
            .map_err(|e| StoreError::Connection(format!("cannot start checkpoints: {e}")))?;
        Ok(Checkpointer { _stop: stop })
    }
}

/// Pages a restart may still have to copy (and sync) while writers wait:
/// passive rounds run until no more than this was written meanwhile.
const LEFT_FOR_RESTART: i64 = 256;

/// Passive rounds at most before a restart.
const CATCH_UP_ROUNDS: usize = 8;

/// One round: a passive checkpoint, and a restart of the log when it has
/// grown past [`RESTART_PAGES`], after passive checkpoints have copied all
/// but a few pages (so the writers wait for little copying).
fn checkpoint(
    conn: &mut SqliteConnection,
    write_lock: &FairMutex<()>,
) -> Result<(), diesel::result::Error> {
    let mut passive = || -> Result<Outcome, diesel::result::Error> {
        diesel::sql_query("PRAGMA wal_checkpoint(PASSIVE)").get_result(conn)
    };
    let mut last = passive()?;
    if last.log < RESTART_PAGES {
        return Ok(());
    }
    for _ in 0..CATCH_UP_ROUNDS {
        let next = passive()?;
        if next.log < last.log {
            // A writer's own checkpoint started the log over meanwhile.
            return Ok(());
        }
        let written_meanwhile = next.log - last.log;
        last = next;
        if written_meanwhile <= LEFT_FOR_RESTART {
            break;
        }
    }
    let _writers = write_lock.lock();
    diesel::sql_query("PRAGMA wal_checkpoint(RESTART)").get_result::<Outcome>(conn)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(path: &str) -> SqliteConnection {
        let mut conn = SqliteConnection::establish(path).unwrap();
        conn.batch_execute(
            "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; PRAGMA busy_timeout = 0;",
        )
        .unwrap();
        conn
    }

    /// Pages in the log, as a passive checkpoint finds it.
    fn log_pages(conn: &mut SqliteConnection) -> i64 {
        diesel::sql_query("PRAGMA wal_checkpoint(PASSIVE)")
            .get_result::<Outcome>(conn)
            .unwrap()
            .log
    }

    #[test]
    fn a_long_log_starts_over_once_no_reader_holds_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite3").to_string_lossy().into_owned();
        let mut writer = open(&path);
        writer.batch_execute("CREATE TABLE t (x BLOB)").unwrap();
        // Some 5,000 pages of 4 KiB: past the restart threshold.
        for _ in 0..5 {
            writer
                .batch_execute(
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) \
                     INSERT INTO t SELECT randomblob(4000) FROM n",
                )
                .unwrap();
        }
        // A reader of a snapshot that holds pages of the log not yet
        // copied into the database: the round copies what it can and
        // leaves the log as it is, without waiting for the reader.
        let mut reader = open(&path);
        reader
            .batch_execute("BEGIN; SELECT count(*) FROM t;")
            .unwrap();
        let mut background = open(&path);
        let lock = FairMutex::new(());
        let started = std::time::Instant::now();
        checkpoint(&mut background, &lock).unwrap();
        writer
            .batch_execute("INSERT INTO t VALUES (x'00')")
            .unwrap();
        assert!(started.elapsed() < Duration::from_secs(2), "no waiting");
        assert!(log_pages(&mut background) > RESTART_PAGES, "kept");

        // Once the reader is done, the next round starts the log over: the
        // next write lands at its beginning.
        reader.batch_execute("COMMIT").unwrap();
        checkpoint(&mut background, &lock).unwrap();
        writer
            .batch_execute("INSERT INTO t VALUES (x'00')")
            .unwrap();
        assert!(log_pages(&mut background) < 10, "started over");
    }
}
