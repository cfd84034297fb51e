//! Files replaced whole or not at all. A file is written to a temporary
//! file on the same file system, flushed to disk, renamed over the old
//! one, and its folder flushed: a process killed (or a machine that loses
//! power) at any moment leaves either the old content or the new, never a
//! file cut short. The old file's permissions are kept.

use std::fs::{File, OpenOptions, Permissions};
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Where temporary files go inside a Git directory, so that no scan, file
/// mask or `git status` ever sees one; what a killed process left there is
/// removed by [`sweep`].
pub(crate) const STAGING: &str = "tolk-writes";

/// Tells temporary files of one process apart.
static SEQUENCE: AtomicU64 = AtomicU64::new(0);

/// Replaces `target` with `bytes` atomically, the temporary file beside it.
pub fn write_atomic(target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let folder = target.parent().unwrap_or(Path::new("."));
    write_staged(target, bytes, folder)
}

/// Replaces `target` with `bytes` atomically, the temporary file in
/// `staging` (a folder on the same file system, made when missing).
pub(crate) fn write_staged(target: &Path, bytes: &[u8], staging: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(staging)?;
    let name = target
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let temporary = staging.join(format!(
        ".{name}.{}-{}.tmp",
        std::process::id(),
        SEQUENCE.fetch_add(1, Ordering::Relaxed)
    ));
    let written =
        fill(&temporary, target, bytes).and_then(|()| std::fs::rename(&temporary, target));
    if let Err(e) = written {
        // Nothing half-made stays behind when the write itself failed.
        let _ = std::fs::remove_file(&temporary);
        return Err(e);
    }
    sync_folder(target.parent().unwrap_or(Path::new(".")))
}

/// Writes the temporary file with the permissions of the file it replaces,
/// and flushes it to disk.
fn fill(temporary: &Path, target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(temporary)?;
    if let Ok(old) = std::fs::metadata(target) {
        file.set_permissions(Permissions::from_mode(old.permissions().mode()))?;
    }
    file.write_all(bytes)?;
    file.sync_all()
}

/// Flushes a folder's entries (a rename into it) to disk.
fn sync_folder(folder: &Path) -> std::io::Result<()> {
    File::open(folder)?.sync_all()
}

/// Removes the temporary files a killed process left in `staging`; the
/// paths removed. Called where no other writer can be at work (under the
/// repository's lock).
pub(crate) fn sweep(staging: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(staging) else {
        return Vec::new();
    };
    entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| std::fs::remove_file(path).is_ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_with_its_permissions() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("po.po");
        std::fs::write(&target, "old").unwrap();
        std::fs::set_permissions(&target, Permissions::from_mode(0o755)).unwrap();
        write_atomic(&target, b"new content").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"new content");
        let mode = std::fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o755);
        let names: Vec<String> = std::fs::read_dir(tmp.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["po.po"], "no temporary file stays");
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary_one() {
        let tmp = tempfile::tempdir().unwrap();
        let staging = tmp.path().join("staging");
        // A directory where the file should be: the rename fails.
        let target = tmp.path().join("taken");
        std::fs::create_dir_all(target.join("inside")).unwrap();
        assert!(write_staged(&target, b"x", &staging).is_err());
        assert!(target.join("inside").is_dir());
        assert_eq!(std::fs::read_dir(&staging).unwrap().count(), 0);
        // Left-overs of a killed process are swept.
        std::fs::write(staging.join(".po.po.1-1.tmp"), "half").unwrap();
        assert_eq!(sweep(&staging), [staging.join(".po.po.1-1.tmp")]);
        assert_eq!(std::fs::read_dir(&staging).unwrap().count(), 0);
    }
}
