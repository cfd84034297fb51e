//! What operators watch: whether the server can work now (its database,
//! its data directory, its Git), and the figures its metrics export
//! (tasks, database connections, Git processes). Nothing here needs a
//! caller: the answers hold no data of any project, and failures are
//! told in the log, not to whoever asks.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tolk_store::PoolUse;
use tolk_store::kept_stats;
use tolk_store::tasks::{self, TaskCounts};
use tolk_vcs::CommandTally;

use crate::ServiceResult;

/// Readiness checks made by this process, to name their probe files.
static PROBES: AtomicU64 = AtomicU64::new(0);

/// Longest wait for a database connection when readiness is asked.
const PING_LIMIT: Duration = Duration::from_secs(2);

/// Whether each thing the server needs works; `true` when it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Readiness {
    /// The database answers a statement.
    pub database: bool,
    /// The data directory takes a new file.
    pub data_directory: bool,
    /// The Git binary runs.
    pub git: bool,
}

impl Readiness {
    /// Whether everything works.
    pub fn ready(&self) -> bool {
        self.database && self.data_directory && self.git
    }
}

/// The figures of the server's own metrics.
#[derive(Debug, Clone, PartialEq)]
pub struct Operations {
    /// Tasks by state.
    pub tasks: TaskCounts,
    /// The database pool's connections.
    pub pool: PoolUse,
    /// SQL statements run since the start.
    pub statements: u64,
    /// Git processes run since the start, by subcommand.
    pub git: Vec<(&'static str, CommandTally)>,
}

impl crate::search::Site<'_> {
    /// Checks the database, the data directory and Git; what fails is
    /// logged with its reason.
    pub fn readiness(&self) -> Readiness {
        let database = self
            .store
            .ping(PING_LIMIT)
            .inspect_err(|e| tracing::warn!("not ready: database: {e}"))
            .is_ok();
        // A name of its own per check: probes running at once (several
        // instances on one data directory) never remove each other's file.
        let probe = self.config.vcs_root.join(format!(
            ".tolk-ready-{}-{}",
            std::process::id(),
            PROBES.fetch_add(1, Ordering::Relaxed)
        ));
        let data_directory = std::fs::create_dir_all(&self.config.vcs_root)
            .and_then(|()| std::fs::write(&probe, b""))
            .and_then(|()| std::fs::remove_file(&probe))
            .inspect_err(|e| {
                tracing::warn!("not ready: data directory {}: {e}", probe.display());
            })
            .is_ok();
        let git = self
            .workspace
            .git()
            .run(None, &["--version"])
            .inspect_err(|e| tracing::warn!("not ready: git: {e}"))
            .is_ok();
        Readiness {
            database,
            data_directory,
            git,
        }
    }

    /// Folds the statistics changes recorded since the last fold into the
    /// statistics kept for components, projects, languages and the site
    /// (see [`tolk_store::kept_stats`]), a transaction per batch; the
    /// number of changes folded. One statement when none waits.
    pub fn fold_statistics(&self) -> ServiceResult<usize> {
        let mut folded = 0;
        while self.store.read(kept_stats::any_pending)? {
            let batch = self.store.write(kept_stats::merge)?;
            folded += batch;
            if batch < kept_stats::BATCH {
                break;
            }
        }
        Ok(folded)
    }

    /// The figures of the metrics; two statements.
    pub fn operations(&self) -> ServiceResult<Operations> {
        let tasks = self.store.read(tasks::counts)?;
        Ok(Operations {
            tasks,
            pool: self.store.pool_use(),
            statements: self.store.statements_run(),
            git: self.workspace.git().tally(),
        })
    }
}
