//! Repository status and operations (§24), component locks (§25) and tasks (§19).

use chrono::DateTime;
use serde::{Deserialize, Serialize};
use tolk_service::CommitInfo;
use tolk_service::repository::{Operation, ProjectRepositoryStatus, RepositoryStatus};
use tolk_service::tasks::TaskView;
use utoipa::ToSchema;

/// A commit as the repository status shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct CommitDto {
    /// Full hash.
    pub revision: String,
    /// Its first seven digits.
    pub shortrevision: String,
    /// `Name <e-mail>` of the author.
    pub author: String,
    /// Author name.
    pub author_name: String,
    /// Author e-mail.
    pub author_email: String,
    /// Author date, UTC.
    #[schema(format = DateTime)]
    pub authordate: String,
    /// `Name <e-mail>` of the committer.
    pub commit: String,
    /// Committer name.
    pub commit_name: String,
    /// Committer e-mail.
    pub commit_email: String,
    /// Commit date, UTC.
    #[schema(format = DateTime)]
    pub commitdate: String,
    /// The whole message.
    pub message: String,
    /// The message's first line.
    pub summary: String,
}

/// A Git date (RFC 3339 with an offset) in UTC with `Z`, as Weblate writes it.
fn utc(date: &str) -> String {
    DateTime::parse_from_rfc3339(date).map_or_else(
        |_| date.to_owned(),
        |d| d.to_utc().format("%Y-%m-%dT%H:%M:%SZ").to_string(),
    )
}

impl From<CommitInfo> for CommitDto {
    fn from(c: CommitInfo) -> Self {
        Self {
            shortrevision: c.revision.chars().take(7).collect(),
            author: format!("{} <{}>", c.author_name, c.author_email),
            authordate: utc(&c.author_date),
            commit: format!("{} <{}>", c.committer_name, c.committer_email),
            commitdate: utc(&c.commit_date),
            summary: c.summary().to_owned(),
            revision: c.revision,
            author_name: c.author_name,
            author_email: c.author_email,
            commit_name: c.committer_name,
            commit_email: c.committer_email,
            message: c.message,
        }
    }
}

/// Units with changes not yet written to files, by why they wait.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct PendingUnitsDto {
    /// All of them.
    pub total: i64,
    /// Held back by failing checks.
    pub errors_skipped: i64,
    /// Held back by the project's commit policy.
    pub commit_policy_skipped: i64,
    /// Written at the next commit.
    pub eligible_for_commit: i64,
}

impl PendingUnitsDto {
    /// Every pending unit is committed: Tolk has no commit policy or check holding one back yet.
    fn all_eligible(total: i64) -> Self {
        Self {
            total,
            errors_skipped: 0,
            commit_policy_skipped: 0,
            eligible_for_commit: total,
        }
    }
}

/// The status of a repository (§24.1). At project level the keys about
/// one repository are null and `included_components` lists what was summed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct RepositoryDto {
    /// Uncommitted changes exist.
    pub needs_commit: bool,
    /// Upstream has commits Tolk lacks.
    pub needs_merge: bool,
    /// Tolk has commits upstream lacks.
    pub needs_push: bool,
    /// Components summed (project level only), as `project/component`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub included_components: Option<Vec<String>>,
    /// Components left out (project level only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped_components: Option<Vec<String>>,
    /// Components the caller may not operate (project level only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission_blockers: Option<Vec<String>>,
    /// API link of this status.
    pub url: String,
    /// Upstream's head revision as last fetched (a string, as Weblate's
    /// clients read it); null at project level or without a remote.
    pub remote_commit: Option<String>,
    /// Tolk's head.
    pub weblate_commit: Option<CommitDto>,
    /// `git status` output.
    pub status: Option<String>,
    /// Git's words on the latest failed merge, rebase or push.
    pub merge_failure: Option<String>,
    /// Units not yet written to files.
    pub pending_units: PendingUnitsDto,
    /// Commits ahead of upstream.
    pub outgoing_commits: Option<usize>,
    /// Commits behind upstream.
    pub missing_commits: Option<usize>,
}

impl RepositoryDto {
    /// The status of a component's repository.
    pub fn of_component(status: RepositoryStatus, url: String) -> Self {
        Self {
            needs_commit: status.needs_commit,
            needs_merge: status.needs_merge,
            needs_push: status.needs_push,
            included_components: None,
            skipped_components: None,
            permission_blockers: None,
            url,
            remote_commit: status.remote_commit,
            weblate_commit: status.weblate_commit.map(Into::into),
            status: Some(status.status),
            merge_failure: status.merge_failure,
            pending_units: PendingUnitsDto::all_eligible(status.pending_units),
            outgoing_commits: Some(status.outgoing_commits),
            missing_commits: Some(status.missing_commits),
        }
    }

    /// The summed status of a project's repositories.
    pub fn of_project(status: ProjectRepositoryStatus, url: String) -> Self {
        Self {
            needs_commit: status.needs_commit,
            needs_merge: status.needs_merge,
            needs_push: status.needs_push,
            included_components: Some(status.included),
            skipped_components: Some(Vec::new()),
            permission_blockers: Some(Vec::new()),
            url,
            remote_commit: None,
            weblate_commit: None,
            status: None,
            merge_failure: None,
            pending_units: PendingUnitsDto::all_eligible(status.pending_units),
            outgoing_commits: None,
            missing_commits: None,
        }
    }
}

/// The body of `POST …/repository/`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
pub struct OperationBody {
    /// What to do.
    pub operation: Operation,
}

/// What an operation answers: whether it succeeded, and Git's words when not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct OperationResultDto {
    /// True on success.
    pub result: bool,
    /// Messages produced on the way (a merge failure's text), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// The lock state of a component or project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct LockDto {
    /// True when it refuses edits.
    pub locked: bool,
}

/// The body of `POST …/lock/`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
pub struct LockBody {
    /// Lock (true) or unlock (false).
    pub lock: bool,
}

/// A background task (§19).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct TaskDto {
    /// Finished, successfully or not.
    pub completed: bool,
    /// Percent done.
    pub progress: i32,
    /// What it returned: an object when it succeeded, a failure's
    /// message, or null while it runs.
    #[schema(schema_with = task_result, required = true)]
    pub result: Option<serde_json::Value>,
    /// Its log, one line per step.
    pub log: String,
    /// Whether `DELETE` may stop it: never yet, Tolk cannot cancel tasks.
    pub cancellable: bool,
}

/// A task's result: an object, a message or null.
fn task_result() -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
    let one_of = OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::Object))
        .item(ObjectBuilder::new().schema_type(Type::String))
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .description(Some(
            "What it returned: an object when it succeeded, a failure's message, or null while it runs.",
        ))
        .build();
    Schema::OneOf(one_of)
}

impl From<TaskView> for TaskDto {
    fn from(task: TaskView) -> Self {
        Self {
            completed: task.completed,
            progress: task.progress,
            result: task.result,
            log: task.log,
            cancellable: false,
        }
    }
}
