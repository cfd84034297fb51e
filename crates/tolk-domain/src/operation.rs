//! The repository operations a component's or project's repository
//! answers (`POST …/repository/`, §24.2), by their API names, and the
//! permission each needs.

use serde::Deserialize;

use crate::permission::Permission;

/// A repository operation, named in the API in kebab case (`pull-rebase`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = OperationName))]
#[serde(rename_all = "kebab-case")]
pub enum Operation {
    /// Write pending units and commit.
    Commit,
    /// Commit and push.
    Push,
    /// Fetch and merge with the component's merge style.
    Pull,
    /// Pull forcing a rebase.
    PullRebase,
    /// Pull forcing a merge.
    PullMerge,
    /// Pull with a merge commit.
    PullMergeNoff,
    /// Discard Tolk's commits and pending edits: back to upstream.
    Reset,
    /// Back to upstream, then every translation written again from the database.
    ResetKeep,
    /// Remove untracked files.
    Cleanup,
    /// Write every translation file from the database again.
    FileSync,
    /// Read every file again (a background task).
    FileScan,
}

impl Operation {
    /// The permission the operation needs.
    pub fn permission(self) -> Permission {
        match self {
            Operation::Commit => Permission::VCS_COMMIT,
            Operation::Push => Permission::VCS_PUSH,
            Operation::Pull
            | Operation::PullRebase
            | Operation::PullMerge
            | Operation::PullMergeNoff => Permission::VCS_UPDATE,
            Operation::Reset
            | Operation::ResetKeep
            | Operation::Cleanup
            | Operation::FileSync
            | Operation::FileScan => Permission::VCS_RESET,
        }
    }
}
