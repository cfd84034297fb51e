//! Copying SQLite's write-ahead log back into the database file on a
//! thread of its own. Left to SQLite, the writer whose commit crosses the
//! log's threshold does that copy and the `fsync` of the whole file that
//! ends it, while it holds the one write lock of the server: every few
//! dozen edits, one edit and all that queue behind it wait milliseconds.
//! Here a background connection runs a passive checkpoint a few times a
//! second (it never blocks writers or readers); the writers' own
//! checkpoint stays as a fallback at a far higher threshold
//! ([`WRITER_CHECKPOINT_PAGES`]) should the log outgrow it.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::{Connection, SqliteConnection};

use crate::error::{StoreError, StoreResult};

/// How often the background connection checkpoints.
const INTERVAL: Duration = Duration::from_millis(200);

/// Pages of log past which a writer checkpoints itself (SQLite's default
/// is 1,000): only reached when the background thread falls behind.
pub(crate) const WRITER_CHECKPOINT_PAGES: u32 = 10_000;

/// The running checkpoint thread of one database; it ends when this is
/// dropped (with the last clone of its store).
#[derive(Debug)]
pub(crate) struct Checkpointer {
    _stop: mpsc::Sender<()>,
}

impl Checkpointer {
    /// Starts checkpointing the SQLite database at `path`.
    pub(crate) fn start(path: &str) -> StoreResult<Checkpointer> {
        let mut conn =
            SqliteConnection::establish(path).map_err(|e| StoreError::Connection(e.to_string()))?;
        conn.batch_execute("PRAGMA busy_timeout = 10000;")?;
        let (stop, stopped) = mpsc::channel::<()>();
        std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(INTERVAL) {
                    if let Err(e) = conn.batch_execute("PRAGMA wal_checkpoint(PASSIVE);") {
                        tracing::warn!("background checkpoint failed: {e}");
                    }
                }
            })
            .map_err(|e| StoreError::Connection(format!("cannot start checkpoints: {e}")))?;
        Ok(Checkpointer { _stop: stop })
    }
}
