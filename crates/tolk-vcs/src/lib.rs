//! Git adapter for Tolk. Network and work-tree steps run the `git` binary,
//! which honours the user's configuration and credentials helpers.
//!
//! This crate stands alone (no other Tolk crate is needed).

use std::path::{Path, PathBuf};
use std::process::Command;

/// What can go wrong running Git.
#[derive(Debug, thiserror::Error)]
pub enum VcsError {
    /// The `git` binary could not be started.
    #[error("cannot run git: {0}")]
    Spawn(#[from] std::io::Error),
    /// Git ran and failed.
    #[error("git {command} failed: {stderr}")]
    Failed {
        /// The subcommand that failed.
        command: String,
        /// What Git printed on standard error.
        stderr: String,
    },
}

/// A Git work tree on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repository {
    path: PathBuf,
}

impl Repository {
    /// Clones `url` (optionally one `branch`) into `dest`.
    pub fn clone_from(url: &str, dest: &Path, branch: Option<&str>) -> Result<Self, VcsError> {
        let mut args = vec!["clone", "--quiet", "--no-tags"];
        if let Some(branch) = branch {
            args.extend(["--branch", branch]);
        }
        let dest_str = dest.to_string_lossy();
        args.extend(["--", url, &dest_str]);
        run(None, &args)?;
        Ok(Self {
            path: dest.to_owned(),
        })
    }

    /// Opens an existing work tree.
    pub fn open(path: &Path) -> Result<Self, VcsError> {
        run(Some(path), &["rev-parse", "--git-dir"])?;
        Ok(Self {
            path: path.to_owned(),
        })
    }

    /// The work tree's directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The full hash of the checked-out commit.
    pub fn head_revision(&self) -> Result<String, VcsError> {
        Ok(run(Some(&self.path), &["rev-parse", "HEAD"])?
            .trim()
            .to_owned())
    }

    /// The checked-out branch, or `None` on a detached head.
    pub fn current_branch(&self) -> Result<Option<String>, VcsError> {
        let name = run(Some(&self.path), &["branch", "--show-current"])?;
        let name = name.trim();
        Ok((!name.is_empty()).then(|| name.to_owned()))
    }
}

/// Runs git with a fixed, locale-independent environment and returns its output.
fn run(dir: Option<&Path>, args: &[&str]) -> Result<String, VcsError> {
    let mut command = Command::new("git");
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    command
        .args(args)
        .env("LC_ALL", "C")
        .env("GIT_TERMINAL_PROMPT", "0");
    let output = command.output()?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(VcsError::Failed {
            command: args.first().copied().unwrap_or_default().to_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).trim().to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        let status = Command::new("git")
            .current_dir(dir)
            .args(args)
            .env("GIT_AUTHOR_NAME", "Test")
            .env("GIT_AUTHOR_EMAIL", "test@example.com")
            .env("GIT_COMMITTER_NAME", "Test")
            .env("GIT_COMMITTER_EMAIL", "test@example.com")
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    }

    #[test]
    fn clones_a_bare_upstream_and_reads_head() {
        let tmp = tempfile::tempdir().unwrap();
        let upstream = tmp.path().join("upstream.git");
        let seed = tmp.path().join("seed");
        std::fs::create_dir_all(&seed).unwrap();
        git(
            tmp.path(),
            &["init", "--quiet", "--bare", "-b", "main", "upstream.git"],
        );
        git(&seed, &["init", "--quiet", "-b", "main"]);
        std::fs::write(seed.join("cs.po"), "msgid \"\"\nmsgstr \"\"\n").unwrap();
        git(&seed, &["add", "cs.po"]);
        git(&seed, &["commit", "--quiet", "-m", "initial"]);
        git(
            &seed,
            &["push", "--quiet", upstream.to_str().unwrap(), "main"],
        );

        let clone = tmp.path().join("clone");
        let repo =
            Repository::clone_from(upstream.to_str().unwrap(), &clone, Some("main")).unwrap();
        assert!(clone.join("cs.po").exists());
        let head = repo.head_revision().unwrap();
        assert_eq!(head.len(), 40);
        assert_eq!(
            Repository::open(&clone).unwrap().head_revision().unwrap(),
            head
        );
        assert_eq!(repo.current_branch().unwrap().as_deref(), Some("main"));
    }

    #[test]
    fn reports_git_errors() {
        let tmp = tempfile::tempdir().unwrap();
        let err = Repository::open(tmp.path()).unwrap_err();
        assert!(matches!(err, VcsError::Failed { .. }), "{err}");
        let err = Repository::clone_from("/nonexistent/repo.git", &tmp.path().join("x"), None)
            .unwrap_err();
        assert!(err.to_string().contains("clone"), "{err}");
    }
}
