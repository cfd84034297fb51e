//! Files inside a work tree, and nothing outside it. Every path Tolk
//! reads, writes or removes through a repository is checked here: it must
//! be relative, without `..`, outside `.git`, and reach its file through
//! plain directories, never through a symbolic link on disk nor to a path
//! Git records as a link (Git checks links out as small plain files, see
//! [`crate::Git`], so those are refused by what the index says).
//!
//! A refusal names the file and the reason. The checks run under the
//! repository's lock, where Git and Tolk are the only writers.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use crate::error::VcsError;

/// Why a path is refused, in words for people.
fn refused(path: &str, reason: &str) -> VcsError {
    VcsError::Refused {
        path: path.to_owned(),
        reason: reason.to_owned(),
    }
}

/// Checks the words of a repository path: relative, `/`-separated, no
/// empty, `.` or `..` part, no part named `.git` (in any case), no NUL or
/// backslash.
pub fn check_relative(path: &str) -> Result<(), VcsError> {
    if path.is_empty() {
        return Err(refused(path, "an empty path"));
    }
    if path.starts_with('/') {
        return Err(refused(path, "an absolute path"));
    }
    if path.contains('\0') || path.contains('\\') {
        return Err(refused(path, "a path with a NUL or a backslash"));
    }
    for part in path.split('/') {
        match part {
            "" | "." => return Err(refused(path, "a path with an empty part")),
            ".." => return Err(refused(path, "a path that leaves the repository")),
            _ if part.eq_ignore_ascii_case(".git") => {
                return Err(refused(path, "a path inside Git's own directory"));
            }
            _ => {}
        }
    }
    Ok(())
}

/// A work tree's files, reached only inside it: paths are checked as they
/// are used, against the disk and against the links Git records.
#[derive(Debug, Clone)]
pub struct WorkTree {
    root: PathBuf,
    /// Paths the index records as symbolic links.
    links: BTreeSet<String>,
}

/// The files of a work tree: those Tolk may read, and those it refuses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    /// Regular files, as sorted `/`-separated relative paths.
    pub files: Vec<String>,
    /// Entries refused, with the reason.
    pub refused: Vec<(String, String)>,
}

/// The reason given for a symbolic link.
const LINK: &str = "a symbolic link (Tolk reads and writes no file through a link)";

impl WorkTree {
    /// The work tree at `root`, whose index records `links` as symbolic links.
    pub(crate) fn new(root: &Path, links: BTreeSet<String>) -> WorkTree {
        WorkTree {
            root: root.to_owned(),
            links,
        }
    }

    /// A directory that is no Git work tree (files to import): only the
    /// links on disk are refused.
    pub fn plain(root: &Path) -> WorkTree {
        WorkTree::new(root, BTreeSet::new())
    }

    /// The work tree's directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where `path` is on disk, once it is known to stay inside: every
    /// existing part of it is a directory or (the last) a regular file,
    /// never a link, and Git records no link there.
    pub fn resolve(&self, path: &str) -> Result<PathBuf, VcsError> {
        check_relative(path)?;
        let mut at = self.root.clone();
        let mut walked = String::new();
        for part in Path::new(path).components() {
            let Component::Normal(name) = part else {
                return Err(refused(path, "a path that leaves the repository"));
            };
            at.push(name);
            if !walked.is_empty() {
                walked.push('/');
            }
            walked.push_str(&name.to_string_lossy());
            if self.links.contains(&walked) {
                return Err(refused(path, LINK));
            }
            match std::fs::symlink_metadata(&at) {
                Ok(meta) if meta.file_type().is_symlink() => return Err(refused(path, LINK)),
                Ok(_) => {}
                // The rest does not exist yet: nothing there can lead out.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
                Err(e) => return Err(VcsError::io(&at, e)),
            }
        }
        Ok(self.root.join(path))
    }

    /// The content of `path`; `None` when it does not exist.
    pub fn read(&self, path: &str) -> Result<Option<Vec<u8>>, VcsError> {
        let at = self.resolve(path)?;
        match std::fs::read(&at) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) if at.is_dir() => Err(refused(path, &format!("a directory ({e})"))),
            Err(e) => Err(VcsError::io(&at, e)),
        }
    }

    /// Writes `bytes` to `path`, making its directories: the file is
    /// replaced whole or not at all (see [`crate::write_atomic`]), its
    /// temporary file kept inside the Git directory where one exists.
    pub fn write(&self, path: &str, bytes: &[u8]) -> Result<(), VcsError> {
        let at = self.resolve(path)?;
        let parent = at.parent().unwrap_or(&self.root);
        std::fs::create_dir_all(parent).map_err(|e| VcsError::io(parent, e))?;
        // A link made between the check and here would need another
        // writer in the work tree, which the repository's lock excludes;
        // checking again costs little.
        self.resolve(path)?;
        let git_dir = self.root.join(".git");
        let staging = if git_dir.is_dir() {
            git_dir.join(crate::atomic::STAGING)
        } else {
            parent.to_owned()
        };
        crate::atomic::write_staged(&at, bytes, &staging).map_err(|e| VcsError::io(&at, e))
    }

    /// Removes the file `path`; false when it did not exist.
    pub fn remove(&self, path: &str) -> Result<bool, VcsError> {
        let at = self.resolve(path)?;
        match std::fs::remove_file(&at) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(VcsError::io(&at, e)),
        }
    }

    /// Every entry of the work tree outside `.git`: regular files, and the
    /// links (on disk or in the index) refused.
    pub fn list(&self) -> Result<Listing, VcsError> {
        let mut listing = Listing::default();
        walk(&self.root, "", &mut listing)?;
        let (links, files): (Vec<String>, Vec<String>) = listing
            .files
            .into_iter()
            .partition(|f| self.links.contains(f));
        listing.files = files;
        listing
            .refused
            .extend(links.into_iter().map(|l| (l, LINK.to_owned())));
        listing.files.sort();
        listing.refused.sort();
        Ok(listing)
    }
}

fn walk(dir: &Path, prefix: &str, listing: &mut Listing) -> Result<(), VcsError> {
    let entries = std::fs::read_dir(dir).map_err(|e| VcsError::io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| VcsError::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.eq_ignore_ascii_case(".git") {
            continue;
        }
        let relative = format!("{prefix}{name}");
        let kind = entry
            .file_type()
            .map_err(|e| VcsError::io(&entry.path(), e))?;
        if kind.is_symlink() {
            listing.refused.push((relative, LINK.to_owned()));
        } else if kind.is_dir() {
            walk(&entry.path(), &format!("{relative}/"), listing)?;
        } else if kind.is_file() {
            listing.files.push(relative);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn words_of_paths_are_checked() {
        for good in ["po/cs.po", "a", "a/b/c.json", ".github/x", "x.git/y"] {
            check_relative(good).unwrap();
        }
        for (bad, reason) in [
            ("", "an empty path"),
            ("/etc/passwd", "an absolute path"),
            ("po/../../x", "a path that leaves the repository"),
            ("po//cs.po", "a path with an empty part"),
            ("./cs.po", "a path with an empty part"),
            (".git/config", "a path inside Git's own directory"),
            ("sub/.GIT/hooks/x", "a path inside Git's own directory"),
            ("a\\b", "a path with a NUL or a backslash"),
        ] {
            let error = check_relative(bad).unwrap_err();
            assert_eq!(error.to_string(), format!("{bad}: {reason}"));
        }
    }

    #[test]
    fn links_on_disk_and_in_the_index_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("tree");
        let outside = tmp.path().join("outside");
        std::fs::create_dir_all(root.join("po")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("secret"), "secret").unwrap();
        std::fs::write(root.join("po/de.po"), "ok").unwrap();
        symlink(outside.join("secret"), root.join("po/cs.po")).unwrap();
        symlink(&outside, root.join("linked")).unwrap();
        symlink(tmp.path().join("nowhere"), root.join("po/fr.po")).unwrap();
        std::fs::write(root.join("po/sk.po"), "../outside/secret").unwrap();
        let tree = WorkTree::new(&root, BTreeSet::from(["po/sk.po".to_owned()]));

        assert_eq!(tree.read("po/de.po").unwrap().unwrap(), b"ok");
        assert_eq!(tree.read("po/it.po").unwrap(), None);
        for path in ["po/cs.po", "linked/secret", "po/fr.po", "po/sk.po"] {
            let error = tree.read(path).unwrap_err();
            assert_eq!(error.to_string(), format!("{path}: {LINK}"));
            assert!(matches!(error, VcsError::Refused { .. }));
        }
        // Writing through the dangling link or the linked folder creates nothing outside.
        assert!(tree.write("po/fr.po", b"x").is_err());
        assert!(tree.write("linked/new.po", b"x").is_err());
        assert!(tree.remove("po/cs.po").is_err());
        assert!(!tmp.path().join("nowhere").exists());
        assert!(!outside.join("new.po").exists());
        assert_eq!(std::fs::read(outside.join("secret")).unwrap(), b"secret");
        tree.write("po/new/pl.po", b"pl").unwrap();
        assert_eq!(std::fs::read(root.join("po/new/pl.po")).unwrap(), b"pl");

        let listing = tree.list().unwrap();
        assert_eq!(listing.files, ["po/de.po", "po/new/pl.po"]);
        let refused: Vec<&str> = listing.refused.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(refused, ["linked", "po/cs.po", "po/fr.po", "po/sk.po"]);
    }
}
