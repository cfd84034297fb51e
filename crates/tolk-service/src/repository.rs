//! Repository operations of a component (§24): status, commit (writing
//! pending units into their files through the codecs), push, pull, reset,
//! cleanup and rescans. Git and file work runs outside database write
//! transactions, under the repository's lock.

use std::collections::HashMap;

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::message::render;
use tolk_domain::permission::{Permission, Subject};
use tolk_formats::{MergeError, merge_units};
use tolk_store::changes::{self, NewChange};
use tolk_store::{components, time, translations};
use tolk_store::{unit_removals, units};
use tolk_vcs::{CommitInfo, ConflictedFile, MergeStyle, Update};

use crate::commit_messages::message_values;
use crate::component_view::ComponentView;
use crate::components::visible_component;
use crate::jobs::{Job, Owner, enqueue};
use crate::projects::visible_project;
use crate::tasks::{Run, TaskResult};
use crate::{Service, ServiceError, ServiceResult};

pub use tolk_domain::operation::Operation;

/// What waits in a component's repository, as the database knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    /// Edited strings (and removals) not yet committed.
    pub pending_units: i64,
    /// The last failure to merge, rebase or push, if that was the last
    /// repository event.
    pub merge_failure: Option<String>,
}

/// A component's repository as `GET …/repository/` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepositoryStatus {
    /// Uncommitted changes in files or pending units.
    pub needs_commit: bool,
    /// Upstream has commits Tolk lacks.
    pub needs_merge: bool,
    /// Tolk has commits upstream lacks.
    pub needs_push: bool,
    /// Upstream's head revision, as last fetched.
    pub remote_commit: Option<String>,
    /// Tolk's head.
    pub weblate_commit: Option<CommitInfo>,
    /// `git status`.
    pub status: String,
    /// The latest failed merge, rebase or push, if it is the latest repository change.
    pub merge_failure: Option<String>,
    /// Units not yet written to files.
    pub pending_units: i64,
    /// Commits ahead of upstream.
    pub outgoing_commits: usize,
    /// Commits behind upstream.
    pub missing_commits: usize,
}

/// The permissions any of which lets a caller see a repository's status.
const STATUS: [Permission; 4] = [
    Permission::VCS_PUSH,
    Permission::VCS_COMMIT,
    Permission::VCS_RESET,
    Permission::VCS_UPDATE,
];

/// The repositories of a project as `GET /api/projects/{p}/repository/` shows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectRepositoryStatus {
    /// Some component needs a commit.
    pub needs_commit: bool,
    /// Some component lacks upstream commits.
    pub needs_merge: bool,
    /// Some component has commits upstream lacks.
    pub needs_push: bool,
    /// The components included, as `project/component`.
    pub included: Vec<String>,
    /// Units of all components not yet written to files.
    pub pending_units: i64,
}

/// The outcome of an operation: success, and Git's words on failure.
pub type OperationResult = (bool, Option<String>);

/// Refuses a caller without any of `permissions` on the component:
/// Weblate refuses repository access with 403, even to anonymous callers.
fn allowed(
    subject: &Subject,
    view: &ComponentView,
    permissions: &[Permission],
) -> ServiceResult<()> {
    if permissions.iter().any(|p| subject.can(*p, view.target())) {
        Ok(())
    } else {
        Err(ServiceError::PermissionDenied(
            "You do not have permission to perform this action.".into(),
        ))
    }
}

crate::service::area!(
    /// The use-cases of a component's or project's repository: status,
    /// operations (commit, push, pull, reset, cleanup) and the commits that
    /// fall due.
    Repository,
    repository
);

impl Repository<'_> {
    /// The component (or the component of a translation) and its
    /// repository's owner, after the permission check for `permission`.
    fn repository_of(
        &self,
        subject: &Subject,
        project_slug: &str,
        slug: &str,
        permissions: &[Permission],
    ) -> ServiceResult<ComponentView> {
        let view = self
            .store
            .read(|conn| visible_component(conn, subject, project_slug, slug))?;
        allowed(subject, &view, permissions)?;
        Ok(view)
    }

    /// Every component of a project the caller may see, after the check
    /// that it holds one of `permissions` on each of them.
    fn repositories_of_project(
        &self,
        subject: &Subject,
        project_slug: &str,
        permissions: &[Permission],
    ) -> ServiceResult<Vec<ComponentView>> {
        let views = self.store.read(|conn| {
            let project = visible_project(conn, subject, project_slug)?;
            let items = components::of_project(conn, project.id)?;
            crate::component_view::views(conn, items)
        })?;
        let views: Vec<ComponentView> = views
            .into_iter()
            .filter(|v| v.visible_to(subject))
            .collect();
        for view in &views {
            allowed(subject, view, permissions)?;
        }
        Ok(views)
    }

    /// The repository status of every component of a project, summed.
    pub fn project_status(
        &self,
        subject: &Subject,
        project_slug: &str,
    ) -> ServiceResult<ProjectRepositoryStatus> {
        let views = self.repositories_of_project(subject, project_slug, &STATUS)?;
        let mut sum = ProjectRepositoryStatus {
            needs_commit: false,
            needs_merge: false,
            needs_push: false,
            included: Vec::new(),
            pending_units: 0,
        };
        for view in &views {
            let status = self.status_of(view)?;
            sum.needs_commit |= status.needs_commit;
            sum.needs_merge |= status.needs_merge;
            sum.needs_push |= status.needs_push;
            sum.pending_units += status.pending_units;
            sum.included.push(view.full_slug());
        }
        Ok(sum)
    }

    /// Runs an operation on every component of a project: it succeeds when
    /// it succeeds on each; the failures' words are joined.
    pub fn project_operation(
        &self,
        subject: &Subject,
        project_slug: &str,
        operation: Operation,
    ) -> ServiceResult<OperationResult> {
        let views =
            self.repositories_of_project(subject, project_slug, &[operation.permission()])?;
        let mut ok = true;
        let mut details: Vec<String> = Vec::new();
        for view in &views {
            let (done, detail) = self.operate(view, operation, subject.user_id())?;
            ok &= done;
            details.extend(detail);
        }
        Ok((ok, (!details.is_empty()).then(|| details.join("\n"))))
    }

    /// The repository status of a component.
    pub fn status(
        &self,
        subject: &Subject,
        project_slug: &str,
        slug: &str,
    ) -> ServiceResult<RepositoryStatus> {
        let view = self.repository_of(subject, project_slug, slug, &STATUS)?;
        self.status_of(&view)
    }

    /// What waits in a component's repository, from the database alone
    /// (no Git process): what its page shows those who look after it.
    pub fn waiting(
        &self,
        subject: &Subject,
        project_slug: &str,
        slug: &str,
    ) -> ServiceResult<Waiting> {
        let view = self.repository_of(subject, project_slug, slug, &STATUS)?;
        self.waiting_in(&view)
    }

    /// [`Self::waiting`] of a component whose access was checked.
    fn waiting_in(&self, view: &ComponentView) -> ServiceResult<Waiting> {
        let component = &view.component;
        self.store.read(|conn| {
            let ids = translations::ids_of(conn, component.id)?;
            let pending = units::count_pending(conn, &ids)? + unit_removals::count(conn, &ids)?;
            let failure = changes::latest_repository_change(conn, component.id)?
                .filter(|(action, _)| {
                    [
                        Action::FAILED_MERGE,
                        Action::FAILED_REBASE,
                        Action::FAILED_PUSH,
                    ]
                    .iter()
                    .any(|a| a.0 == *action)
                })
                .map(|(_, target)| target);
            Ok(Waiting {
                pending_units: pending,
                merge_failure: failure,
            })
        })
    }

    /// The repository status of one component, whose access was checked.
    fn status_of(&self, view: &ComponentView) -> ServiceResult<RepositoryStatus> {
        let component = &view.component;
        let Waiting {
            pending_units: pending,
            merge_failure: failure,
        } = self.waiting_in(view)?;
        let owner = self.repository_owner(component)?;
        let dir = self.workspace.dir(&owner);
        if !dir.exists() {
            return Ok(RepositoryStatus {
                needs_commit: pending > 0,
                needs_merge: false,
                needs_push: false,
                remote_commit: None,
                weblate_commit: None,
                status: String::new(),
                merge_failure: failure,
                pending_units: pending,
                outgoing_commits: 0,
                missing_commits: 0,
            });
        }
        let _lock = self.workspace.lock_to_read(&owner)?;
        let repo = self.workspace.open(&owner, &owner.settings.branch);
        let status = repo.status()?;
        let remote_commit = repo.remote_head()?;
        Ok(RepositoryStatus {
            needs_commit: status.needs_commit || pending > 0,
            needs_merge: status.missing > 0,
            needs_push: status.outgoing > 0,
            remote_commit,
            weblate_commit: Some(repo.commit_info("HEAD")?),
            status: status.text,
            merge_failure: failure,
            pending_units: pending,
            outgoing_commits: status.outgoing,
            missing_commits: status.missing,
        })
    }

    /// Runs a repository operation on a component.
    pub fn operation(
        &self,
        subject: &Subject,
        project_slug: &str,
        slug: &str,
        operation: Operation,
    ) -> ServiceResult<OperationResult> {
        let view = self.repository_of(subject, project_slug, slug, &[operation.permission()])?;
        self.operate(&view, operation, subject.user_id())
    }

    /// Runs an operation on one component, whose access was checked.
    fn operate(
        &self,
        view: &ComponentView,
        operation: Operation,
        user: Option<i64>,
    ) -> ServiceResult<OperationResult> {
        let owner = self.repository_owner(&view.component)?;
        if !self.workspace.dir(&owner).exists() {
            // Its setup task has not cloned it yet (or failed): nothing to
            // operate on, which the answer says instead of a quiet success.
            return Ok((
                false,
                Some("The repository is not set up yet: its setup task has not finished.".into()),
            ));
        }
        let outcome = match operation {
            Operation::Commit => self.commit_and_push(view, user),
            Operation::FileSync => self.commit_component(view, true).map(|c| c.answer()),
            Operation::Push => self.push_component(view, user),
            Operation::Pull => self.pull(view, merge_style(view), user),
            Operation::PullRebase => self.pull(view, MergeStyle::Rebase, user),
            Operation::PullMerge => self.pull(view, MergeStyle::Merge, user),
            Operation::PullMergeNoff => self.pull(view, MergeStyle::MergeNoFf, user),
            Operation::Reset => self.reset(view, user, false),
            Operation::ResetKeep => self.reset(view, user, true),
            Operation::Cleanup => {
                let owner = self.repository_owner(&view.component)?;
                let _lock = self.workspace.lock(&owner)?;
                self.workspace
                    .open(&owner, &owner.settings.branch)
                    .cleanup()?;
                self.record(view, Action::REPO_CLEANUP, user, String::new())?;
                Ok((true, None))
            }
            Operation::FileScan => {
                self.store.write(|conn| {
                    let owner = Owner {
                        user_id: user,
                        project_id: Some(view.project.id),
                        component_id: Some(view.component.id),
                    };
                    let task = enqueue(
                        conn,
                        &Job::Rescan {
                            component_id: view.component.id,
                        },
                        owner,
                    )?;
                    tolk_store::components::set_task(conn, view.component.id, Some(&task))?;
                    Ok::<_, ServiceError>(())
                })?;
                self.queued();
                self.record(view, Action::FORCE_SCAN, user, String::new())?;
                Ok((true, None))
            }
        }?;
        Ok(outcome)
    }

    /// Commits pending edits; with `push_on_commit` and a push URL (as
    /// in Weblate, a component without one only commits) pushes them too.
    fn commit_and_push(
        &self,
        view: &ComponentView,
        user: Option<i64>,
    ) -> ServiceResult<OperationResult> {
        let committed = self.commit_component(view, false)?;
        let owner = self.repository_owner(&view.component)?;
        if committed.made && owner.settings.push_on_commit && !owner.settings.push.is_empty() {
            return self.push_component(view, user);
        }
        Ok(committed.answer())
    }

    /// Commits the pending edits of every component whose oldest one is
    /// older than its `commit_pending_age` at `now` (the periodic job);
    /// the number of components committed. A component that fails is
    /// logged and the others go on.
    pub fn commit_pending_due(&self, now: chrono::NaiveDateTime) -> ServiceResult<usize> {
        let due = self.store.read(|conn| {
            let mut oldest: HashMap<i64, chrono::NaiveDateTime> =
                units::oldest_pending(conn)?.into_iter().collect();
            for (component, at) in unit_removals::oldest(conn)? {
                let first = oldest.entry(component).or_insert(at);
                *first = (*first).min(at);
            }
            let ids: Vec<i64> = oldest.keys().copied().collect();
            let found = components::get_by_ids(conn, &ids)?
                .into_iter()
                .filter(|c| {
                    let age = chrono::Duration::hours(i64::from(c.settings.commit_pending_age));
                    oldest.get(&c.id).is_some_and(|at| *at + age <= now)
                })
                .collect();
            crate::component_view::views(conn, found)
        })?;
        let mut committed = 0;
        for view in &due {
            match self.commit_and_push(view, None) {
                Ok(_) => committed += 1,
                Err(e) => tracing::warn!(
                    component = view.component.id,
                    "cannot commit pending edits: {e}"
                ),
            }
        }
        Ok(committed)
    }

    /// Discards Tolk's commits, then reads the files again. Pending edits
    /// are dropped, or with `keep` every translation is written again from
    /// the database and committed on top of upstream.
    fn reset(
        &self,
        view: &ComponentView,
        user: Option<i64>,
        keep: bool,
    ) -> ServiceResult<OperationResult> {
        let owner = self.repository_owner(&view.component)?;
        {
            let _lock = self.workspace.lock(&owner)?;
            let repo = self.workspace.open(&owner, &owner.settings.branch);
            if let Err(e) = repo.fetch() {
                return Ok((false, Some(remote_failure(e)?)));
            }
            repo.reset()?;
        }
        if keep {
            self.commit_component(view, true)?;
        } else {
            self.store.write(|conn| {
                let ids = translations::ids_of(conn, view.component.id)?;
                let pending: Vec<(i64, String)> = units::to_write(conn, &ids, false)?
                    .into_iter()
                    .map(|u| (u.id, u.target))
                    .collect();
                units::clear_pending(conn, &pending)?;
                unit_removals::forget_all(conn, &ids)?;
                Ok::<_, ServiceError>(())
            })?;
        }
        self.record(view, Action::RESET, user, String::new())?;
        self.rescan_sharing(view, None)?;
        Ok((true, None))
    }
}

impl Service {
    fn record(
        &self,
        view: &ComponentView,
        action: Action,
        user: Option<i64>,
        target: String,
    ) -> ServiceResult<()> {
        self.store.write(|conn| {
            let change = NewChange {
                project_id: Some(view.project.id),
                component_id: Some(view.component.id),
                target,
                ..NewChange::new(action, user)
            };
            Ok(changes::record(conn, &change, time::now())?)
        })
    }

    /// Commits pending edits, fetches and merges upstream, then reads the
    /// files of every component of the repository again. Files Git cannot
    /// merge line by line are merged by strings (see
    /// [`tolk_formats::merge_units`]): only a string both sides changed is
    /// a conflict.
    fn pull(
        &self,
        view: &ComponentView,
        style: MergeStyle,
        user: Option<i64>,
    ) -> ServiceResult<OperationResult> {
        self.commit_component(view, false)?;
        let owner = self.repository_owner(&view.component)?;
        let sharing = self
            .store
            .read(|conn| components::sharing(conn, owner.id))?;
        let effective = view.effective();
        let mut conflicts: Vec<String> = Vec::new();
        let (ok_action, failed_action) = match style {
            MergeStyle::Rebase => (Action::REBASE, Action::FAILED_REBASE),
            _ => (Action::MERGE, Action::FAILED_MERGE),
        };
        let update = {
            let _lock = self.workspace.lock(&owner)?;
            let repo = self.workspace.open(&owner, &owner.settings.branch);
            if let Err(e) = repo.fetch() {
                let words = remote_failure(e)?;
                self.record(view, failed_action, user, words.clone())?;
                return Ok((false, Some(words)));
            }
            let message = render(
                &effective.merge_message,
                &message_values(view, None, &self.config),
            );
            let mut resolve =
                |file: ConflictedFile<'_>| merge_file(&sharing, &file, &mut conflicts);
            repo.update(style, &message, &mut resolve)?
        };
        match update {
            Update::UpToDate => Ok((true, None)),
            Update::Updated { .. } => {
                self.record(view, ok_action, user, String::new())?;
                let run = Run::detached(self);
                for component in &sharing {
                    self.rescan_component(component.id, &run)?;
                }
                let views = self
                    .store
                    .read(|conn| crate::component_view::views(conn, sharing))?;
                for shared in &views {
                    for problem in
                        self.run_addons(shared, crate::addon_runs::Event::Pulled, None)?
                    {
                        tracing::warn!(component = shared.component.id, "{problem}");
                    }
                }
                Ok((true, None))
            }
            Update::Conflict { files, message } => {
                let words = if conflicts.is_empty() {
                    format!("Merge conflict in {}: {message}", files.join(", "))
                } else {
                    format!("Strings changed on both sides in {}", conflicts.join("; "))
                };
                self.record(view, failed_action, user, words.clone())?;
                Ok((false, Some(words)))
            }
        }
    }

    /// Commits, then pushes to `push` / `push_branch`.
    pub(crate) fn push_component(
        &self,
        view: &ComponentView,
        user: Option<i64>,
    ) -> ServiceResult<OperationResult> {
        let committed = self.commit_component(view, false)?;
        let owner = self.repository_owner(&view.component)?;
        let squash = self.squash_plan(view)?;
        let pushed = {
            let _lock = self.workspace.lock(&owner)?;
            let repo = self.workspace.open(&owner, &owner.settings.branch);
            if let Some(plan) = &squash
                && let Err(e) = repo.squash(plan)
            {
                tracing::warn!(component = view.component.id, "squash skipped: {e}");
            }
            let s = &owner.settings;
            if s.push.is_empty() {
                repo.push(&s.push, &s.push_branch)
            } else {
                self.workspace
                    .policy()
                    .check(&s.push)
                    .and_then(|()| repo.push(&s.push, &s.push_branch))
            }
        };
        match pushed {
            Ok(()) => {
                self.record(view, Action::PUSH, user, String::new())?;
                Ok(committed.answer())
            }
            Err(e) => {
                let words = remote_failure(e)?;
                self.record(view, Action::FAILED_PUSH, user, words.clone())?;
                let (_, problems) = committed.answer();
                let all = problems.map_or(words.clone(), |p| format!("{p}\n{words}"));
                Ok((false, Some(all)))
            }
        }
    }

    /// Reads again, in this thread, the files of `view` and of the other
    /// components working in its clone that read one of the files `changed`
    /// there (every one of them when `changed` is `None`: the whole tree
    /// moved).
    pub(crate) fn rescan_sharing(
        &self,
        view: &ComponentView,
        changed: Option<&[String]>,
    ) -> ServiceResult<()> {
        let owner = self.repository_owner(&view.component)?;
        let sharing = self
            .store
            .read(|conn| components::sharing(conn, owner.id))?;
        let run = Run::detached(self);
        for component in &sharing {
            let reads = |paths: &[String]| paths.iter().any(|p| component.settings.reads(p));
            if component.id == view.component.id || changed.is_none_or(reads) {
                self.rescan_component(component.id, &run)?;
            }
        }
        Ok(())
    }

    /// Task: fetch and merge upstream (hooks), then read the files again.
    pub(crate) fn pull_component(&self, component_id: i64, run: &Run<'_>) -> TaskResult {
        let view = self.store.read(|conn| {
            let component = tolk_store::components::get_by_ids(conn, &[component_id])?
                .pop()
                .ok_or(ServiceError::NotFound)?;
            crate::component_view::views(conn, vec![component])?
                .pop()
                .ok_or(ServiceError::NotFound)
        })?;
        run.report(10, format!("updating {}", view.component.settings.slug));
        let (ok, detail) = self.pull(&view, merge_style(&view), None)?;
        match detail {
            Some(words) if !ok => Err(words.into()),
            _ => Ok(json!({"component": component_id})),
        }
    }
}

/// Git's failure as an operation's answer: a remote that failed Tolk (not
/// found, credentials, unreachable, a rejected push, too slow) becomes
/// Git's words for `result: false`; anything else stays an error.
fn remote_failure(error: tolk_vcs::VcsError) -> ServiceResult<String> {
    use tolk_vcs::VcsError as V;
    match error {
        V::NotFound(_)
        | V::AuthenticationRequired(_)
        | V::Unreachable(_)
        | V::PushRejected(_)
        | V::TimedOut { .. }
        | V::Url(_) => Ok(error.to_string()),
        other => Err(other.into()),
    }
}

/// Settles a file Git could not merge, when it is a translation file of
/// one of the repository's components: merged by strings, or `None` with
/// the strings changed on both sides added to `conflicts`.
fn merge_file(
    sharing: &[components::Component],
    file: &ConflictedFile<'_>,
    conflicts: &mut Vec<String>,
) -> Option<Vec<u8>> {
    let settings = &sharing
        .iter()
        .find(|c| {
            let s = &c.settings;
            s.template == file.path || s.mask().is_some_and(|m| m.code_of(file.path).is_some())
        })?
        .settings;
    let (Some(base), Some(tolk), Some(upstream)) = (file.base, file.tolk, file.upstream) else {
        return None;
    };
    match merge_units(&settings.file_format, file.path, base, tolk, upstream) {
        Ok(merged) => Some(merged),
        Err(MergeError::Conflict(keys)) => {
            conflicts.push(format!("{}: {}", file.path, keys.join(", ")));
            None
        }
        Err(MergeError::Format(e)) => {
            conflicts.push(format!("{}: {e}", file.path));
            None
        }
    }
}

/// The merge style a component's settings name.
fn merge_style(view: &ComponentView) -> MergeStyle {
    match view.component.settings.merge_style.as_str() {
        "merge" => MergeStyle::Merge,
        "merge_noff" => MergeStyle::MergeNoFf,
        _ => MergeStyle::Rebase,
    }
}
