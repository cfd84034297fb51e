//! Two operations never interleave on one repository: each holds the
//! repository's lock file (an advisory `flock`), which serialises threads
//! and processes alike, including several Tolk instances sharing a disk.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::error::VcsError;

/// The held lock of one repository; released when dropped.
#[derive(Debug)]
pub struct RepositoryLock {
    _file: File,
}

impl RepositoryLock {
    /// Waits up to `wait` for the lock of the work tree at `path` (the lock
    /// file sits beside it, so it survives the work tree's removal).
    pub fn acquire(path: &Path, wait: Duration) -> Result<RepositoryLock, VcsError> {
        let lock_path = lock_file(path);
        if let Some(parent) = lock_path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| VcsError::io(parent, e))?;
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| VcsError::io(&lock_path, e))?;
        let deadline = Instant::now() + wait;
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(RepositoryLock { _file: file }),
                Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(TryLockError::WouldBlock) => return Err(VcsError::Locked),
                Err(TryLockError::Error(e)) => return Err(VcsError::io(&lock_path, e)),
            }
        }
    }
}

fn lock_file(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_waits_or_gives_up() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        let held = RepositoryLock::acquire(&repo, Duration::ZERO).unwrap();
        let err = RepositoryLock::acquire(&repo, Duration::from_millis(20)).unwrap_err();
        assert!(matches!(err, VcsError::Locked));
        let waiter = std::thread::spawn(move || {
            RepositoryLock::acquire(&repo, Duration::from_secs(5)).map(|_| ())
        });
        std::thread::sleep(Duration::from_millis(50));
        drop(held);
        waiter.join().unwrap().unwrap();
    }
}
