//! Where components' repositories live and how they are reached: one work
//! tree per repository (components sharing one use its owner's), opened
//! with Tolk's Git and held under the repository's lock.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use tolk_store::components::Component;
use tolk_vcs::{Git, Repository, RepositoryLock, UrlPolicy, VcsError};

use crate::ServiceConfig;

/// Longest wait for another operation on the same repository.
const LOCK_WAIT: Duration = Duration::from_secs(120);

/// What scratch directories are for: uploads staged before their
/// component exists, and looks at a remote's branch tip.
const SCRATCH: &[&str] = &["upload", "probe"];

/// The repositories' directory, Git and the URL policy.
#[derive(Debug, Clone)]
pub(crate) struct Workspace {
    git: Git,
    root: PathBuf,
    policy: UrlPolicy,
}

impl Workspace {
    /// Checks that Git runs.
    pub(crate) fn new(config: &ServiceConfig) -> Result<Workspace, VcsError> {
        Ok(Workspace {
            git: Git::new(config.git.clone())?,
            root: config.vcs_root.clone(),
            policy: config.url_policy.clone(),
        })
    }

    /// Tolk's Git.
    pub(crate) fn git(&self) -> &Git {
        &self.git
    }

    /// The URL policy.
    pub(crate) fn policy(&self) -> &UrlPolicy {
        &self.policy
    }

    /// A new directory name beside the work trees, for a repository made
    /// before its component exists or a look at a remote (`purpose`
    /// names it).
    pub(crate) fn scratch_dir(&self, purpose: &str) -> PathBuf {
        debug_assert!(SCRATCH.contains(&purpose), "{purpose} is swept too");
        self.root
            .join(format!(".{purpose}-{}", crate::ids::new_uuid()))
    }

    /// Removes scratch directories (see [`Workspace::scratch_dir`]) that a
    /// killed process left: older than `age` (so none that a live request
    /// of any instance is filling) and named in none of `in_use` (the
    /// payloads of unfinished tasks, which name the uploads they store).
    /// The directories removed.
    pub(crate) fn sweep_scratch(&self, in_use: &[String], age: Duration) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(&self.root) else {
            return Vec::new();
        };
        let cutoff = SystemTime::now() - age;
        entries
            .flatten()
            .filter(|entry| {
                let name = entry.file_name().to_string_lossy().into_owned();
                let scratch = SCRATCH
                    .iter()
                    .any(|purpose| name.starts_with(&format!(".{purpose}-")));
                let old = entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .is_ok_and(|at| at < cutoff);
                scratch && old && !in_use.iter().any(|payload| payload.contains(&name))
            })
            .map(|entry| entry.path())
            .filter(|path| std::fs::remove_dir_all(path).is_ok())
            .collect()
    }

    /// The work tree of the repository a component uses (its own, or that
    /// of the component it links to). Named by id, so renames move nothing.
    pub(crate) fn dir(&self, component: &Component) -> PathBuf {
        let owner = component.linked_component_id.unwrap_or(component.id);
        self.root.join(owner.to_string())
    }

    /// The component's repository, tracking `branch`.
    pub(crate) fn open(&self, component: &Component, branch: &str) -> Repository {
        Repository::open(&self.git, &self.dir(component), branch)
    }

    /// Holds the component's repository for an operation that may write,
    /// commit or read files into the database, after undoing what a killed
    /// process left in it (see [`Workspace::lock_to_read`]) and putting
    /// back Git's version of every tracked file that differs from the head
    /// ([`tolk_vcs::Repository::restore`]): no commit stages, and no scan
    /// reads, a file a kill cut short.
    pub(crate) fn lock(&self, component: &Component) -> Result<RepositoryLock, VcsError> {
        let lock = self.lock_to_read(component)?;
        self.undo(
            component,
            "restored from Git, as an interrupted write left them",
            |repo| repo.restore(),
        )?;
        Ok(lock)
    }

    /// Holds the component's repository for one operation that only reads
    /// it, after undoing what a killed process left in it (stale Git lock
    /// files, temporary files, an interrupted rebase or merge); no process
    /// is started unless something was left.
    pub(crate) fn lock_to_read(&self, component: &Component) -> Result<RepositoryLock, VcsError> {
        let lock = RepositoryLock::acquire(&self.dir(component), LOCK_WAIT)?;
        self.undo(
            component,
            "recovered after an interrupted operation",
            |repo| repo.recover(),
        )?;
        Ok(lock)
    }

    /// Runs `undo` on the component's work tree, once it has one, and logs
    /// what it undid as `what`.
    fn undo(
        &self,
        component: &Component,
        what: &str,
        undo: impl Fn(&Repository) -> Result<Vec<String>, VcsError>,
    ) -> Result<(), VcsError> {
        let dir = self.dir(component);
        if dir.join(".git").is_dir() {
            let undone = undo(&self.open(component, &component.settings.branch))?;
            if !undone.is_empty() {
                tracing::warn!("{what} in {}: {}", dir.display(), undone.join(", "));
            }
        }
        Ok(())
    }
}
