//! Which files the processes of this machine hold open, to tell a Git
//! lock file that a running Git process still uses from one a killed
//! process left behind. Read from `/proc/*/fd` (Linux); elsewhere nothing
//! is known to be open, and nothing to be stale is assumed either: see
//! [`open_files`].

use std::collections::HashSet;
use std::path::PathBuf;

/// Every file some process of this machine holds open that this process
/// may look at. Without `/proc` every lock file counts as held (nothing
/// is recovered), the safe side.
pub(crate) fn open_files() -> OpenFiles {
    let Some(processes) = crate::processes::all() else {
        return OpenFiles::Unknown;
    };
    let mut open = HashSet::new();
    for (_, dir) in processes {
        // A process that ended meanwhile, or one of another user: skipped.
        let Ok(fds) = std::fs::read_dir(dir.join("fd")) else {
            continue;
        };
        open.extend(
            fds.flatten()
                .filter_map(|fd| std::fs::read_link(fd.path()).ok()),
        );
    }
    OpenFiles::Known(open)
}

/// The files found open.
pub(crate) enum OpenFiles {
    /// As read from `/proc`.
    Known(HashSet<PathBuf>),
    /// This system does not tell.
    Unknown,
}

impl OpenFiles {
    /// Whether `path` may be open.
    pub(crate) fn contains(&self, path: &std::path::Path) -> bool {
        match self {
            OpenFiles::Known(open) => {
                let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
                open.contains(&real) || open.contains(path)
            }
            OpenFiles::Unknown => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_held_open_is_seen_and_a_closed_one_is_not() {
        let tmp = tempfile::tempdir().unwrap();
        let held = tmp.path().join("held.lock");
        let left = tmp.path().join("left.lock");
        let _file = std::fs::File::create(&held).unwrap();
        std::fs::write(&left, "").unwrap();
        let open = open_files();
        assert!(open.contains(&held));
        assert!(!open.contains(&left));
    }
}
