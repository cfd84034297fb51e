//! The job catalogue: what a background task does, with its typed
//! payload, and queuing one. The queue that runs them is [`crate::tasks`].

use serde::{Deserialize, Serialize};
use tolk_store::tasks::{self, NewTask};
use tolk_store::{DbConnection, StoreResult, time};

use crate::ids::new_uuid;

/// What a task does, with its typed payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "job", rename_all = "snake_case")]
pub(crate) enum Job {
    /// Clone a new component's repository (unless it shares one) and read its files.
    Setup {
        /// The component.
        component_id: i64,
        /// A repository made from uploaded files, to move into place first.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        staged: Option<String>,
    },
    /// Read every file of a component again.
    Rescan {
        /// The component.
        component_id: i64,
    },
    /// Fetch and merge upstream, then read the changed files.
    Pull {
        /// The component.
        component_id: i64,
    },
    /// Point a component's work tree at its new repository and branch,
    /// then read its files again.
    Relocate {
        /// The component.
        component_id: i64,
    },
    /// Remove the work tree of a deleted component.
    RemoveTree {
        /// The directory.
        path: String,
    },
    /// Fill a translation's strings from other components and the memory.
    AutoTranslate(crate::autotranslate_job::AutoJob),
    /// Run a newly installed add-on once.
    AddonRun {
        /// The add-on.
        addon_id: i64,
    },
}

impl Job {
    /// The task kind as stored (and counted by the metrics).
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Job::Setup { .. } => "setup",
            Job::Rescan { .. } => "rescan",
            Job::Pull { .. } => "pull",
            Job::Relocate { .. } => "relocate",
            Job::RemoveTree { .. } => "remove_tree",
            Job::AutoTranslate(_) => "autotranslate",
            Job::AddonRun { .. } => "addon",
        }
    }

    /// What makes two waiting tasks the same work, for jobs whose second
    /// run while the first still waits would do nothing more.
    pub(crate) fn dedup_key(&self) -> Option<String> {
        match self {
            Job::Rescan { component_id } | Job::Pull { component_id } => {
                Some(format!("{}:{component_id}", self.kind()))
            }
            Job::Setup { .. }
            | Job::Relocate { .. }
            | Job::RemoveTree { .. }
            | Job::AutoTranslate(_)
            | Job::AddonRun { .. } => None,
        }
    }
}

/// Who and what a queued task belongs to, for access to its status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Owner {
    pub user_id: Option<i64>,
    pub project_id: Option<i64>,
    pub component_id: Option<i64>,
}

/// Queues `job`; returns the id of the task that will do it (a waiting
/// task doing the same work, if there is one). Workers are woken by
/// `Service::queued` once the transaction is committed.
pub(crate) fn enqueue(conn: &mut DbConnection, job: &Job, owner: Owner) -> StoreResult<String> {
    let now = time::now();
    tasks::enqueue(
        conn,
        &NewTask {
            id: new_uuid(),
            kind: job.kind().into(),
            payload: serde_json::to_string(job).unwrap_or_default(),
            priority: 0,
            run_after: now,
            user_id: owner.user_id,
            project_id: owner.project_id,
            component_id: owner.component_id,
            created: now,
            updated: now,
            dedup_key: job.dedup_key(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_are_stored_tagged() {
        let job = Job::Setup {
            component_id: 7,
            staged: None,
        };
        let text = serde_json::to_string(&job).unwrap();
        assert_eq!(text, r#"{"job":"setup","component_id":7}"#);
        assert_eq!(serde_json::from_str::<Job>(&text).unwrap(), job);
    }
}
