//! One server per SQLite database: SQLite has one writer, and the task
//! queue, the rate limits and the repository locks of a second server on
//! the same file would only contend with the first. `tolk serve` holds an
//! exclusive lock on `DATABASE.serve.lock` while it runs, and a second one
//! stops at once saying so. PostgreSQL takes as many servers as wanted.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::Path;

use tolk_service::BackendKind;

/// The held lock; released when dropped (or when the process ends,
/// however it ends).
#[derive(Debug)]
pub struct ServeLock {
    _file: File,
}

/// Takes the lock of the SQLite database `database` (a path or a
/// `sqlite:` URL, read as the store reads it); `None` for PostgreSQL,
/// which needs none.
pub fn claim(database: &str) -> Result<Option<ServeLock>, String> {
    let (kind, file) = BackendKind::from_url(database).map_err(|e| e.to_string())?;
    if kind == BackendKind::Postgres {
        return Ok(None);
    }
    let path = format!("{file}.serve.lock");
    if let Some(parent) = Path::new(&path)
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
    {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("cannot open {path}: {e}"))?;
    match file.try_lock() {
        Ok(()) => Ok(Some(ServeLock { _file: file })),
        Err(TryLockError::WouldBlock) => Err(format!(
            "another tolk serve already uses the SQLite database {database}: SQLite serves one \
             instance only (stop the other one, or set TOLK_DATABASE_URL to a PostgreSQL \
             database for several)"
        )),
        Err(TryLockError::Error(e)) => Err(format!("cannot lock {path}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_server_on_one_sqlite_file_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let database = tmp.path().join("data/tolk.sqlite3");
        let database = database.to_str().unwrap();
        let first = claim(database).unwrap();
        assert!(first.is_some());
        let second = claim(database).unwrap_err();
        assert!(
            second.starts_with("another tolk serve already uses")
                && second.contains("set TOLK_DATABASE_URL to a PostgreSQL database"),
            "{second}"
        );
        let as_url = format!("sqlite://{database}");
        assert!(
            claim(&as_url).is_err(),
            "the same file named by a URL is the same database"
        );
        drop(first);
        assert!(
            claim(database).unwrap().is_some(),
            "free once the first stops"
        );
        assert!(claim("postgres://db/tolk").unwrap().is_none());
    }
}
