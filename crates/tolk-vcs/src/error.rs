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
    /// The remote repository, or the branch asked for, does not exist.
    #[error("the repository was not found: {0}")]
    NotFound(String),
    /// The remote wants credentials Tolk does not have, or refused them.
    #[error("the repository needs authentication: {0}")]
    AuthenticationRequired(String),
    /// The remote could not be reached (name lookup, connection, TLS).
    #[error("the repository could not be reached: {0}")]
    Unreachable(String),
    /// The remote refused a push: it has commits Tolk lacks (pull first).
    #[error("the push was rejected: {0}")]
    PushRejected(String),
    /// The repository URL is not allowed or not understood.
    #[error("{0}")]
    Url(String),
    /// A path would lead outside the work tree (or into Git's directory),
    /// so it is neither read nor written.
    #[error("{path}: {reason}")]
    Refused {
        /// The path inside the repository.
        path: String,
        /// Why, in words.
        reason: String,
    },
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
    /// Whether trying again later may succeed: the network, a time limit
    /// or a busy repository, not a refusal or a broken repository.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            VcsError::Unreachable(_) | VcsError::TimedOut { .. } | VcsError::Locked
        )
    }

    /// The failure of `git COMMAND`, given what Git said (in the C locale),
    /// as the variant that names it.
    pub(crate) fn from_git(command: &str, output: String) -> VcsError {
        let said = output.to_ascii_lowercase();
        let has = |words: &[&str]| words.iter().any(|w| said.contains(w));
        let refused = if command == "push" {
            crate::push_report::rejections(&output)
        } else {
            Vec::new()
        };
        if !refused.is_empty() {
            VcsError::PushRejected(refused.join("\n"))
        } else if has(&[
            "authentication failed",
            "could not read username",
            "could not read password",
            "terminal prompts disabled",
            "permission denied (publickey",
            "access denied",
            "http basic: access denied",
            "host key verification failed",
        ]) {
            VcsError::AuthenticationRequired(output)
        } else if has(&[
            "could not resolve host",
            "could not resolve hostname",
            "connection refused",
            "connection timed out",
            "operation timed out",
            "network is unreachable",
            "no route to host",
            "failed to connect",
            "ssl certificate problem",
            "gnutls_handshake",
            "the remote end hung up unexpectedly",
            "early eof",
        ]) {
            VcsError::Unreachable(output)
        } else if has(&[
            "repository not found",
            "does not appear to be a git repository",
            "does not exist",
            "not found",
            "couldn't find remote ref",
            "remote branch",
            "no such remote ref",
        ]) && matches!(command, "clone" | "fetch" | "ls-remote" | "push")
        {
            VcsError::NotFound(output)
        } else {
            VcsError::Failed {
                command: command.to_owned(),
                output,
            }
        }
    }

    /// A file-system error about `path`.
    pub fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        VcsError::Io {
            path: path.display().to_string(),
            source,
        }
    }
}
