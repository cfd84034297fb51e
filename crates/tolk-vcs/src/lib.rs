//! Git for Tolk, usable on its own: one careful wrapper around the `git`
//! binary for network and work-tree steps ([`Git`]), the policy repository
//! URLs must pass ([`UrlPolicy`]), a per-repository lock that serialises
//! operations across threads and processes ([`RepositoryLock`]), and the
//! operations a translation server needs on a work tree ([`Repository`]),
//! whose files are reached only inside it ([`WorkTree`]):
//! clone, fetch, status, commit, push, merge or rebase with a hook that
//! settles conflicted files, reset, cleanup, and reading files and commits
//! (revisions and commits are read with gix, without a process). Files
//! are replaced whole or not at all ([`write_atomic`]).
//!
//! This crate needs no other Tolk crate.

mod atomic;
mod commit;
mod contain;
mod error;
mod git;
mod lock;
mod orphans;
mod probe;
mod processes;
mod push_report;
mod reads;
mod repository;
mod squash;
mod stale;
mod tally;
mod url;

#[cfg(feature = "test-support")]
pub mod testing;

pub use atomic::write_atomic;
pub use commit::CommitInfo;
pub use contain::{Listing, WorkTree, check_relative};
pub use error::VcsError;
pub use git::{Git, GitConfig, Identity, MIN_VERSION, Output};
pub use lock::RepositoryLock;
pub use orphans::reap_orphans;
pub use probe::{RemoteProbe, RemoteTip};
pub use repository::{ConflictedFile, MergeStyle, Repository, Resolver, Status, Update};
pub use squash::{Grouping, SquashPlan};
pub use tally::CommandTally;
pub use url::{UrlPolicy, strip_credentials};
