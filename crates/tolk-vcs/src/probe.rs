//! A look at a remote branch without cloning it: its tip's file list, and
//! the contents of the few files asked for, fetched one by one.

use std::path::{Path, PathBuf};

use crate::error::VcsError;
use crate::git::Git;
use crate::repository::{remove_dir, split_nul};

/// What the tip of a remote branch holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteTip {
    /// The branch: the one asked for, or the remote's default.
    pub branch: String,
    /// Its regular files, as `/`-separated paths.
    pub files: Vec<String>,
    /// Its symbolic links, which Tolk refuses to read or write.
    pub links: Vec<String>,
}

/// The tip of a remote branch, fetched without file contents (a shallow
/// clone without blobs where the remote allows it) into a scratch
/// directory that is removed when the probe is dropped.
#[derive(Debug)]
pub struct RemoteProbe {
    git: Git,
    scratch: PathBuf,
    tip: RemoteTip,
}

impl RemoteProbe {
    /// Fetches the tip's commit and trees of `branch` (the remote's
    /// default when empty) of `url` into `scratch`; Git's typed outcome
    /// when the remote or the branch is missing.
    pub fn open(git: &Git, url: &str, branch: &str, scratch: &Path) -> Result<Self, VcsError> {
        remove_dir(scratch)?;
        let mut probe = RemoteProbe {
            git: git.clone(),
            scratch: scratch.to_owned(),
            tip: RemoteTip {
                branch: String::new(),
                files: Vec::new(),
                links: Vec::new(),
            },
        };
        let target = scratch.to_string_lossy().into_owned();
        let mut args = vec![
            "clone",
            "--quiet",
            "--no-checkout",
            "--no-tags",
            "--single-branch",
            "--depth",
            "1",
            "--filter=blob:none",
        ];
        if !branch.is_empty() {
            args.extend(["--branch", branch]);
        }
        args.extend(["--", url, &target]);
        git.run(None, &args)?;
        probe.tip = probe.read_tip()?;
        Ok(probe)
    }

    fn read_tip(&self) -> Result<RemoteTip, VcsError> {
        let branch = self
            .git
            .run(Some(&self.scratch), &["branch", "--show-current"])?
            .text()
            .trim()
            .to_owned();
        let mut tip = RemoteTip {
            branch,
            files: Vec::new(),
            links: Vec::new(),
        };
        // An empty repository has no tip, and no files.
        if let Ok(out) = self
            .git
            .run(Some(&self.scratch), &["ls-tree", "-r", "-z", "HEAD"])
        {
            for entry in split_nul(&out.stdout) {
                let Some((meta, path)) = entry.split_once('\t') else {
                    continue;
                };
                if meta.starts_with("100644 ") || meta.starts_with("100755 ") {
                    tip.files.push(path.to_owned());
                } else if meta.starts_with("120000 ") {
                    tip.links.push(path.to_owned());
                }
            }
        }
        Ok(tip)
    }

    /// The tip's files and links.
    pub fn tip(&self) -> &RemoteTip {
        &self.tip
    }

    /// The tip's file `path` (one of [`RemoteTip::files`]), fetched from
    /// the remote now; `None` for any other path.
    pub fn read(&self, path: &str) -> Result<Option<Vec<u8>>, VcsError> {
        if !self.tip.files.iter().any(|f| f == path) {
            return Ok(None);
        }
        let spec = format!("HEAD:{path}");
        Ok(Some(
            self.git
                .run(Some(&self.scratch), &["cat-file", "blob", &spec])?
                .stdout,
        ))
    }
}

impl Drop for RemoteProbe {
    fn drop(&mut self) {
        // Best effort: a scratch directory left behind is swept at the next start.
        let _ = remove_dir(&self.scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GitConfig;
    use crate::testing::Upstream;

    #[test]
    fn lists_the_tip_and_reads_asked_files_without_a_checkout() {
        let upstream = Upstream::new(&[
            ("po/cs.po", b"msgid \"a\"\nmsgstr \"b\"\n".to_vec()),
            ("README", b"hello\n".to_vec()),
        ]);
        // A remote that honours partial clones: contents come only when read.
        upstream.git(&["config", "uploadpack.allowFilter", "true"]);
        let tmp = tempfile::tempdir().unwrap();
        let config = GitConfig {
            allow_local: true,
            ..GitConfig::new(tmp.path().join("home"))
        };
        let git = Git::new(config).unwrap();
        let scratch = tmp.path().join("probe");
        let probe =
            RemoteProbe::open(&git, &format!("file://{}", upstream.url()), "", &scratch).unwrap();
        assert_eq!(probe.tip().branch, "main");
        assert_eq!(probe.tip().files, ["README", "po/cs.po"]);
        assert!(!scratch.join("po").exists(), "nothing is checked out");
        assert_eq!(
            probe.read("po/cs.po").unwrap().unwrap(),
            b"msgid \"a\"\nmsgstr \"b\"\n"
        );
        assert_eq!(probe.read("../etc/passwd").unwrap(), None);
        drop(probe);
        assert!(!scratch.exists(), "the scratch directory is removed");
    }
}
