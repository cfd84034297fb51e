//! What can go wrong asking Git.

use std::time::Duration;

/// Why a Git step failed.
#[derive(Debug, thiserror::Error)]
pub enum VcsError {
    /// The `git` binary could not be started (missing, not executable).
    #[error("cannot run {binary}: {source}")]
    Spawn {
        /// The binary Tolk tried to run.
        binary: String,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// Git ran and failed; `output` holds what it said.
    #[error("git {command} failed: {output}")]
    Failed {
        /// The subcommand that failed.
        command: String,
        /// What Git printed: standard error, then standard output.
        output: String,
    },
    /// Git ran longer than allowed and was stopped.
    #[error("git {command} did not finish within {limit:?}")]
    TimedOut {
        /// The subcommand that was stopped.
        command: String,
        /// The time limit.
        limit: Duration,
    },
    /// The repository URL is not allowed or not understood.
    #[error("{0}")]
    Url(String),
    /// Another operation holds the repository for longer than the wait allows.
    #[error("the repository is busy with another operation")]
    Locked,
    /// Reading the repository's objects or references failed.
    #[error("reading the repository: {0}")]
    Read(String),
    /// Reading or writing the work tree failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: String,
        /// The operating system's reason.
        source: std::io::Error,
    },
}

impl VcsError {
    /// A file-system error about `path`.
    pub fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        VcsError::Io {
            path: path.display().to_string(),
            source,
        }
    }
}
