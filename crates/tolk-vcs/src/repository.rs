//! A component's Git work tree and what Tolk does with it: clone, fetch,
//! status, commit, push, merge or rebase upstream changes, reset, cleanup,
//! and reading files and commits.

use std::path::{Path, PathBuf};

use crate::commit::CommitInfo;
use crate::contain::{Listing, WorkTree};
use crate::error::VcsError;
use crate::git::{Git, Identity};
use crate::reads;

/// The reference to the last commit Tolk pushed, to whichever URL and
/// branch: commits it holds are not outgoing.
pub(crate) const PUSHED: &str = "refs/tolk/pushed";

/// How upstream changes are brought in (Weblate's `merge_style`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MergeStyle {
    /// Replay Tolk's commits on top of upstream.
    Rebase,
    /// Merge upstream into Tolk's branch, fast-forwarding when possible.
    Merge,
    /// Merge upstream with a merge commit even when a fast-forward would do.
    MergeNoFf,
}

/// Where the work tree stands against its upstream branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    /// Files changed but not committed.
    pub needs_commit: bool,
    /// Commits Tolk has that upstream lacks.
    pub outgoing: usize,
    /// Commits upstream has that Tolk lacks (as of the last fetch).
    pub missing: usize,
    /// `git status` as Git words it.
    pub text: String,
}

/// A file both sides changed that Git could not merge line by line: its
/// content at the common base, in Tolk's commits and upstream (`None` where
/// the file does not exist).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConflictedFile<'a> {
    /// Path inside the repository.
    pub path: &'a str,
    /// The common ancestor's version.
    pub base: Option<&'a [u8]>,
    /// Tolk's version.
    pub tolk: Option<&'a [u8]>,
    /// Upstream's version.
    pub upstream: Option<&'a [u8]>,
}

/// Settles a conflicted file: the merged content, or `None` when it cannot.
pub type Resolver<'a> = &'a mut dyn FnMut(ConflictedFile<'_>) -> Option<Vec<u8>>;

/// What bringing in upstream changes did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Update {
    /// Nothing was missing.
    UpToDate,
    /// Upstream's commits are in; the head moved from `from` to `to`.
    Updated {
        /// Head before.
        from: String,
        /// Head after.
        to: String,
    },
    /// A conflict no resolver settled; the work tree is as it was before.
    Conflict {
        /// The files left in conflict.
        files: Vec<String>,
        /// Git's words.
        message: String,
    },
}

/// A Git work tree tracking one branch of its `origin` remote.
#[derive(Debug, Clone)]
pub struct Repository {
    git: Git,
    path: PathBuf,
    branch: String,
}

impl Repository {
    /// Clones `url` into `dest` (which must not exist), checking out
    /// `branch` or, when empty, the remote's default branch. A failed clone
    /// leaves nothing behind.
    pub fn clone(git: &Git, url: &str, branch: &str, dest: &Path) -> Result<Repository, VcsError> {
        Self::clone_reporting(git, url, branch, dest, &|_| {})
    }

    /// [`Repository::clone`] telling `progress` how far the clone is, in
    /// percent, as Git reports it (objects received, deltas resolved,
    /// files checked out).
    pub fn clone_reporting(
        git: &Git,
        url: &str,
        branch: &str,
        dest: &Path,
        progress: &(dyn Fn(u8) + Sync),
    ) -> Result<Repository, VcsError> {
        let partial = dest.with_extension("cloning");
        if partial.exists() {
            // A killed server's clone may still be writing there.
            crate::orphans::reap_orphans();
        }
        remove_dir(&partial)?;
        if let Some(parent) = partial.parent() {
            std::fs::create_dir_all(parent).map_err(|e| VcsError::io(parent, e))?;
        }
        let target = partial.to_string_lossy().into_owned();
        let mut args = vec!["clone", "--progress", "--no-tags"];
        if !branch.is_empty() {
            args.extend(["--branch", branch]);
        }
        args.extend(["--", url, &target]);
        let report = |line: &str| {
            if let Some(percent) = clone_percent(line) {
                progress(percent);
            }
        };
        if let Err(e) = git.run_reporting(None, &args, &report) {
            remove_dir(&partial)?;
            return Err(e);
        }
        std::fs::rename(&partial, dest).map_err(|e| VcsError::io(dest, e))?;
        let branch = git
            .run(Some(dest), &["branch", "--show-current"])?
            .text()
            .trim()
            .to_owned();
        Ok(Repository::open(git, dest, &branch))
    }

    /// Starts a repository without a remote at `dest` holding the files
    /// already there, committed as `message` (components made from uploads).
    pub fn init_local(git: &Git, dest: &Path, message: &str) -> Result<Repository, VcsError> {
        std::fs::create_dir_all(dest).map_err(|e| VcsError::io(dest, e))?;
        git.run(Some(dest), &["init", "--quiet", "-b", "main"])?;
        git.run(Some(dest), &["add", "-A"])?;
        git.run(
            Some(dest),
            &["commit", "--quiet", "--allow-empty", "-m", message],
        )?;
        Ok(Repository::open(git, dest, "main"))
    }

    /// A work tree Tolk cloned before, tracking `branch`.
    pub fn open(git: &Git, path: &Path, branch: &str) -> Repository {
        Repository {
            git: git.clone(),
            path: path.to_owned(),
            branch: branch.to_owned(),
        }
    }

    /// The work tree's directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The branch Tolk works on.
    pub fn branch(&self) -> &str {
        &self.branch
    }

    pub(crate) fn run(&self, args: &[&str]) -> Result<String, VcsError> {
        Ok(self.git.run(Some(&self.path), args)?.text())
    }

    pub(crate) fn upstream(&self) -> String {
        format!("refs/remotes/origin/{}", self.branch)
    }

    pub(crate) fn has_remote(&self) -> bool {
        self.remote_head().is_ok_and(|head| head.is_some())
    }

    /// The full hash of the checked-out commit.
    pub fn head(&self) -> Result<String, VcsError> {
        reads::revision(&self.path, "HEAD")?.ok_or_else(|| VcsError::Read("no HEAD".into()))
    }

    /// The full hash of upstream's branch as last fetched; `None` without a remote.
    pub fn remote_head(&self) -> Result<Option<String>, VcsError> {
        reads::revision(&self.path, &self.upstream())
    }

    /// Downloads upstream's new commits (a repository without a remote has none).
    pub fn fetch(&self) -> Result<(), VcsError> {
        if self.has_remote() {
            let refspec = format!("+refs/heads/{0}:refs/remotes/origin/{0}", self.branch);
            self.run(&["fetch", "--quiet", "--no-tags", "--", "origin", &refspec])?;
        }
        Ok(())
    }

    /// Points the work tree at `url` and its `branch` (empty: the remote's
    /// default): `origin` becomes `url`, the branch is fetched and checked
    /// out at upstream's tip. Commits of the previous branch stay in its
    /// local branch; nothing uncommitted is kept. The repository now
    /// tracking the new branch.
    pub fn relocate(&self, url: &str, branch: &str) -> Result<Repository, VcsError> {
        if self
            .run(&["remote", "set-url", "origin", "--", url])
            .is_err()
        {
            self.run(&["remote", "add", "origin", "--", url])?;
        }
        let branch = if branch.is_empty() {
            let head = self.run(&["ls-remote", "--symref", "--", "origin", "HEAD"])?;
            head.lines()
                .find_map(|l| {
                    l.strip_prefix("ref: refs/heads/")?
                        .split_whitespace()
                        .next()
                })
                .map(str::to_owned)
                .ok_or_else(|| VcsError::NotFound("the remote has no default branch".into()))?
        } else {
            branch.to_owned()
        };
        let moved = Repository::open(&self.git, &self.path, &branch);
        moved.run(&[
            "fetch",
            "--quiet",
            "--no-tags",
            "--",
            "origin",
            &format!("+refs/heads/{branch}:refs/remotes/origin/{branch}"),
        ])?;
        moved.run(&[
            "checkout",
            "--quiet",
            "--force",
            "-B",
            &branch,
            &moved.upstream(),
        ])?;
        moved.run(&["branch", "--quiet", "--set-upstream-to", &moved.upstream()])?;
        Ok(moved)
    }

    /// Undoes what a process killed in the middle of a Git step left
    /// behind: lock files no process holds open any more (`index.lock`,
    /// `HEAD.lock`, the branch's ref locks, …), then an interrupted rebase
    /// or merge. Called under the repository's lock, so no other Tolk
    /// operation runs here; Git processes orphaned by a killed server are
    /// stopped first ([`crate::reap_orphans`]), and lock files some other
    /// process still holds open are left alone.
    /// The paths recovered.
    pub fn recover(&self) -> Result<Vec<String>, VcsError> {
        let git_dir = self.path.join(".git");
        let candidates = [
            "index.lock".to_owned(),
            "HEAD.lock".to_owned(),
            "config.lock".to_owned(),
            "packed-refs.lock".to_owned(),
            "shallow.lock".to_owned(),
            format!("refs/heads/{}.lock", self.branch),
            format!("refs/remotes/origin/{}.lock", self.branch),
            format!("{PUSHED}.lock"),
        ];
        let present: Vec<PathBuf> = candidates
            .iter()
            .map(|c| git_dir.join(c))
            .filter(|p| p.exists())
            .collect();
        let mut recovered = Vec::new();
        if !present.is_empty() {
            crate::orphans::reap_orphans();
            let open = crate::stale::open_files();
            for path in present {
                if !open.contains(&path) {
                    std::fs::remove_file(&path).map_err(|e| VcsError::io(&path, e))?;
                    recovered.push(path.display().to_string());
                }
            }
        }
        recovered.extend(
            crate::atomic::sweep(&git_dir.join(crate::atomic::STAGING))
                .into_iter()
                .map(|p| p.display().to_string()),
        );
        if self.rebasing() {
            self.abort("rebase");
            recovered.push("an interrupted rebase".into());
        }
        if git_dir.join("MERGE_HEAD").exists() {
            self.abort("merge");
            recovered.push("an interrupted merge".into());
        }
        Ok(recovered)
    }

    /// Puts back the head's version of every tracked file that differs
    /// from it, in the index or on disk, and returns their paths. Tolk
    /// commits whatever it writes before it lets go of the repository's
    /// lock, so a difference found under the lock is what a killed process
    /// or another program left (a file cut short, emptied, half staged);
    /// the edits it was writing are still pending in the database and are
    /// written again from the restored file. Untracked files are left alone.
    pub fn restore(&self) -> Result<Vec<String>, VcsError> {
        let out = self.git.run(
            Some(&self.path),
            &[
                "status",
                "--porcelain=v1",
                "-z",
                "--no-renames",
                "--untracked-files=no",
                "--ignore-submodules",
            ],
        )?;
        // Each entry is two status letters, a space and the path.
        let changed: Vec<String> = split_nul(&out.stdout)
            .into_iter()
            .filter_map(|entry| entry.get(3..).map(str::to_owned))
            .collect();
        if !changed.is_empty() {
            self.run(&["reset", "--quiet", "--hard", "HEAD"])?;
        }
        Ok(changed)
    }

    /// Uncommitted changes and the distance to upstream.
    pub fn status(&self) -> Result<Status, VcsError> {
        let changes = self.run(&["status", "--porcelain", "--untracked-files=all"])?;
        let (outgoing, missing) = if self.has_remote() {
            let upstream = self.upstream();
            let count = |args: &[&str]| -> Result<usize, VcsError> {
                Ok(self.run(args)?.trim().parse().unwrap_or(0))
            };
            let mut ahead = vec!["rev-list", "--count", "HEAD", "--not", &upstream];
            if reads::revision(&self.path, PUSHED)?.is_some() {
                ahead.push(PUSHED);
            }
            let range = format!("HEAD..{upstream}");
            (count(&ahead)?, count(&["rev-list", "--count", &range])?)
        } else {
            (0, 0)
        };
        Ok(Status {
            needs_commit: !changes.trim().is_empty(),
            outgoing,
            missing,
            text: self.run(&["status"])?,
        })
    }

    /// Commits the current content of `paths` (added, changed or removed)
    /// as `author` with `message`; the new head, or `None` when nothing changed.
    pub fn commit(
        &self,
        paths: &[String],
        author: &Identity,
        message: &str,
    ) -> Result<Option<String>, VcsError> {
        if paths.is_empty() {
            return Ok(None);
        }
        let mut add = vec!["add", "-A", "--"];
        add.extend(paths.iter().map(String::as_str));
        self.run(&add)?;
        let mut staged = vec!["diff", "--cached", "--name-only", "--"];
        staged.extend(paths.iter().map(String::as_str));
        if self.run(&staged)?.trim().is_empty() {
            return Ok(None);
        }
        self.git_commit(message, author)?;
        self.head().map(Some)
    }

    /// Commits what is staged as `author` with `message`.
    pub(crate) fn git_commit(&self, message: &str, author: &Identity) -> Result<(), VcsError> {
        self.git.run_with(
            Some(&self.path),
            &["commit", "--quiet", "--no-verify", "-m", message],
            &[
                ("GIT_AUTHOR_NAME", &author.name),
                ("GIT_AUTHOR_EMAIL", &author.email),
            ],
        )?;
        Ok(())
    }

    /// Pushes the head to `branch` (empty: the tracked branch) of `url`
    /// (empty: `origin`).
    pub fn push(&self, url: &str, branch: &str) -> Result<(), VcsError> {
        let remote = if url.is_empty() { "origin" } else { url };
        let branch = if branch.is_empty() {
            &self.branch
        } else {
            branch
        };
        let refspec = format!("HEAD:refs/heads/{branch}");
        // Each ref's outcome on a line of its own, for `VcsError::from_git`.
        self.run(&["push", "--porcelain", "--", remote, &refspec])?;
        // What was pushed is no longer outgoing, wherever it went.
        self.run(&["update-ref", PUSHED, "HEAD"])?;
        Ok(())
    }

    /// Brings in upstream's fetched commits with `style`. Files Git cannot
    /// merge line by line go to `resolve`; when it settles all of them the
    /// update goes on, otherwise it is undone and the conflict reported.
    pub fn update(
        &self,
        style: MergeStyle,
        message: &str,
        resolve: Resolver<'_>,
    ) -> Result<Update, VcsError> {
        let Some(upstream) = self.remote_head()? else {
            return Ok(Update::UpToDate);
        };
        let from = self.head()?;
        let missing = self.run(&["rev-list", "--count", &format!("HEAD..{upstream}")])?;
        if missing.trim() == "0" {
            return Ok(Update::UpToDate);
        }
        let outcome = match style {
            MergeStyle::Rebase => self.rebase(&upstream, resolve)?,
            MergeStyle::Merge | MergeStyle::MergeNoFf => {
                self.merge(&upstream, style == MergeStyle::MergeNoFf, message, resolve)?
            }
        };
        Ok(match outcome {
            Some((files, message)) => Update::Conflict { files, message },
            None => Update::Updated {
                from,
                to: self.head()?,
            },
        })
    }

    /// Rebases onto `upstream`; the unresolved files and Git's words on conflict.
    fn rebase(
        &self,
        upstream: &str,
        resolve: Resolver<'_>,
    ) -> Result<Option<(Vec<String>, String)>, VcsError> {
        let mut step = self.git_sequence(&["rebase", "--quiet", upstream]);
        loop {
            let Err(error) = step else { return Ok(None) };
            let conflicted = self.conflicted()?;
            if conflicted.is_empty() {
                if self.run(&["diff", "--cached", "--quiet"]).is_ok() && self.rebasing() {
                    // The replayed commit became empty once resolved.
                    step = self.git_sequence(&["rebase", "--skip"]);
                    continue;
                }
                self.abort("rebase");
                return Err(error);
            }
            // While rebasing, "ours" (stage 2) is upstream's side and
            // "theirs" (stage 3) the commit of Tolk's being replayed.
            let unresolved = self.resolve_all(&conflicted, 3, 2, resolve)?;
            if !unresolved.is_empty() {
                self.abort("rebase");
                return Ok(Some((unresolved, error.to_string())));
            }
            step = self.git_sequence(&["rebase", "--continue"]);
        }
    }

    /// Merges `upstream`; the unresolved files and Git's words on conflict.
    fn merge(
        &self,
        upstream: &str,
        no_ff: bool,
        message: &str,
        resolve: Resolver<'_>,
    ) -> Result<Option<(Vec<String>, String)>, VcsError> {
        let mut args = vec!["merge", "--no-edit", "-m", message];
        if no_ff {
            args.push("--no-ff");
        }
        args.push(upstream);
        let Err(error) = self.run(&args) else {
            return Ok(None);
        };
        let conflicted = self.conflicted()?;
        if conflicted.is_empty() {
            self.abort("merge");
            return Err(error);
        }
        let unresolved = self.resolve_all(&conflicted, 2, 3, resolve)?;
        if !unresolved.is_empty() {
            self.abort("merge");
            return Ok(Some((unresolved, error.to_string())));
        }
        self.run(&["commit", "--quiet", "--no-verify", "--no-edit"])?;
        Ok(None)
    }

    /// Runs a rebase step that may want an editor (it gets none).
    fn git_sequence(&self, args: &[&str]) -> Result<(), VcsError> {
        self.git
            .run_with(Some(&self.path), args, &[("GIT_EDITOR", "true")])
            .map(|_| ())
    }

    fn rebasing(&self) -> bool {
        self.path.join(".git/rebase-merge").exists() || self.path.join(".git/rebase-apply").exists()
    }

    /// Undoes a failed merge or rebase, leaving the work tree as before.
    pub(crate) fn abort(&self, operation: &str) {
        // Nothing to abort is fine: the work tree is clean either way.
        let _ = self.run(&[operation, "--abort"]);
    }

    /// Paths with unmerged entries in the index.
    fn conflicted(&self) -> Result<Vec<String>, VcsError> {
        let out = self.git.run(
            Some(&self.path),
            &["diff", "--name-only", "-z", "--diff-filter=U"],
        )?;
        Ok(split_nul(&out.stdout))
    }

    /// Asks `resolve` for each conflicted path (Tolk's side at index stage
    /// `tolk`, upstream's at `upstream`), writes and stages what it settles,
    /// and returns the paths it could not.
    fn resolve_all(
        &self,
        paths: &[String],
        tolk: u8,
        upstream: u8,
        resolve: Resolver<'_>,
    ) -> Result<Vec<String>, VcsError> {
        let mut unresolved = Vec::new();
        for path in paths {
            let stage = |n: u8| self.read_blob(&format!(":{n}:{path}")).ok().flatten();
            let (base, ours, theirs) = (stage(1), stage(tolk), stage(upstream));
            let merged = resolve(ConflictedFile {
                path,
                base: base.as_deref(),
                tolk: ours.as_deref(),
                upstream: theirs.as_deref(),
            });
            match merged {
                Some(bytes) => {
                    self.work_tree()?.write(path, &bytes)?;
                    self.run(&["add", "--", path])?;
                }
                None => unresolved.push(path.clone()),
            }
        }
        Ok(unresolved)
    }

    /// Discards Tolk's commits and changes: the work tree becomes upstream's branch.
    pub fn reset(&self) -> Result<(), VcsError> {
        let target = if self.has_remote() {
            self.upstream()
        } else {
            "HEAD".to_owned()
        };
        self.run(&["reset", "--quiet", "--hard", &target])?;
        Ok(())
    }

    /// Removes untracked files and directories.
    pub fn cleanup(&self) -> Result<(), VcsError> {
        self.run(&["clean", "--quiet", "-f", "-d"])?;
        Ok(())
    }

    /// One commit's details (`rev` is a hash or a ref).
    pub fn commit_info(&self, rev: &str) -> Result<CommitInfo, VcsError> {
        reads::commit_info(&self.path, rev)
    }

    /// Files that differ between two commits.
    pub fn changed_files(&self, from: &str, to: &str) -> Result<Vec<String>, VcsError> {
        let out = self.git.run(
            Some(&self.path),
            &["diff", "--name-only", "-z", "--no-renames", from, to, "--"],
        )?;
        Ok(split_nul(&out.stdout))
    }

    /// A file's content at a revision (`REV:PATH`, or `:N:PATH` for an
    /// index stage); `None` when it does not exist there.
    pub fn read_blob(&self, spec: &str) -> Result<Option<Vec<u8>>, VcsError> {
        if self.run(&["cat-file", "-e", spec]).is_err() {
            return Ok(None);
        }
        Ok(Some(
            self.git
                .run(Some(&self.path), &["cat-file", "blob", spec])?
                .stdout,
        ))
    }

    /// The work tree's files, reached only inside it (see [`WorkTree`]):
    /// the links Git records are read from the index once, here, without
    /// a process.
    pub fn work_tree(&self) -> Result<WorkTree, VcsError> {
        Ok(WorkTree::new(
            &self.path,
            reads::recorded_links(&self.path)?,
        ))
    }

    /// Every file of the work tree (outside `.git`) that Tolk may read,
    /// and the entries it refuses (links), as sorted relative paths.
    pub fn files(&self) -> Result<Listing, VcsError> {
        self.work_tree()?.list()
    }
}

/// How far a clone is, in percent, from one of Git's progress lines:
/// receiving objects is most of the work, then resolving deltas, then
/// checking out files.
fn clone_percent(line: &str) -> Option<u8> {
    let (phase, rest) = line.split_once(": ")?;
    let (start, span) = match phase {
        "Receiving objects" => (0, 80),
        "Resolving deltas" => (80, 15),
        "Updating files" => (95, 5),
        _ => return None,
    };
    let percent: u32 = rest.trim_start().split_once('%')?.0.parse().ok()?;
    u8::try_from(start + span * percent.min(100) / 100).ok()
}

pub(crate) fn split_nul(bytes: &[u8]) -> Vec<String> {
    bytes
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect()
}

pub(crate) fn remove_dir(path: &Path) -> Result<(), VcsError> {
    match std::fs::remove_dir_all(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(VcsError::io(path, e)),
        _ => Ok(()),
    }
}
