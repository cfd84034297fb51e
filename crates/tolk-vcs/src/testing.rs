//! For tests of this and dependent crates: Git run as "another developer",
//! with a fixed identity and none of the caller's configuration.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test support: a fixture that cannot be made stops the test"
)]

use std::path::Path;
use std::process::Command;

/// Runs `git ARGS` in `dir` as `Dev <dev@example.com>`; its standard
/// output. Panics with Git's words when it fails.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Dev")
        .env("GIT_AUTHOR_EMAIL", "dev@example.com")
        .env("GIT_COMMITTER_NAME", "Dev")
        .env("GIT_COMMITTER_EMAIL", "dev@example.com")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A bare upstream repository on branch `main` and a second clone of it
/// that plays another developer, in a temporary directory.
pub struct Upstream {
    dir: tempfile::TempDir,
}

impl Upstream {
    /// An upstream whose first commit holds `files` (path, content).
    pub fn new(files: &[(&str, Vec<u8>)]) -> Upstream {
        let dir = tempfile::tempdir().expect("a temporary directory");
        git(
            dir.path(),
            &["init", "--quiet", "--bare", "-b", "main", "upstream.git"],
        );
        git(
            dir.path(),
            &["clone", "--quiet", "upstream.git", "developer"],
        );
        let upstream = Upstream { dir };
        let dev = upstream.developer();
        git(&dev, &["checkout", "--quiet", "-B", "main"]);
        for (path, bytes) in files {
            let target = dev.join(path);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).expect("a directory");
            }
            std::fs::write(target, bytes).expect("a file");
        }
        git(&dev, &["add", "-A"]);
        git(&dev, &["commit", "--quiet", "-m", "initial"]);
        git(&dev, &["push", "--quiet", "origin", "main"]);
        upstream
    }

    /// The temporary directory holding both repositories (and room for more).
    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// The upstream's path, as a repository URL.
    pub fn url(&self) -> String {
        self.dir.path().join("upstream.git").display().to_string()
    }

    /// The developer's work tree.
    pub fn developer(&self) -> std::path::PathBuf {
        self.dir.path().join("developer")
    }

    /// A file as upstream's `main` holds it.
    pub fn file(&self, path: &str) -> String {
        git(
            &self.dir.path().join("upstream.git"),
            &["show", &format!("main:{path}")],
        )
    }

    /// Runs `git ARGS` in the upstream repository.
    pub fn git(&self, args: &[&str]) -> String {
        git(&self.dir.path().join("upstream.git"), args)
    }

    /// The developer replaces the first `from` in `path` by `to`, commits
    /// and pushes (after pulling what others pushed).
    pub fn developer_edits(&self, path: &str, from: &str, to: &str) {
        let dev = self.developer();
        git(&dev, &["pull", "--quiet", "--rebase", "origin", "main"]);
        let file = dev.join(path);
        let text = std::fs::read_to_string(&file).expect("the file");
        assert!(text.contains(from), "{path} lacks {from:?}");
        std::fs::write(&file, text.replacen(from, to, 1)).expect("the file");
        git(&dev, &["commit", "--quiet", "-am", "developer"]);
        git(&dev, &["push", "--quiet", "origin", "main"]);
    }
}
