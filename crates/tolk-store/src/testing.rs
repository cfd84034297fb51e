//! Throw-away databases for tests: a SQLite file in a temporary directory
//! always, and a fresh PostgreSQL database as well when
//! `TOLK_TEST_DATABASE_URL` names a server.

use std::sync::atomic::{AtomicU32, Ordering};

use diesel::connection::SimpleConnection;
use diesel::{Connection, PgConnection};

use crate::{BackendKind, Store};

/// Environment variable naming a PostgreSQL server for tests.
pub const DATABASE_URL_VAR: &str = "TOLK_TEST_DATABASE_URL";

/// A migrated database that disappears when dropped.
pub struct TestDb {
    /// The store on the database.
    pub store: Store,
    cleanup: Cleanup,
}

enum Cleanup {
    Sqlite(#[allow(dead_code)] tempfile::TempDir),
    Postgres { admin_url: String, name: String },
}

impl TestDb {
    /// A migrated SQLite database in a fresh temporary file.
    pub fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("tolk.sqlite3");
        let store = Store::open(path.to_str().expect("utf-8 path"), 4).expect("open SQLite");
        store.migrate().expect("migrate SQLite");
        TestDb {
            store,
            cleanup: Cleanup::Sqlite(dir),
        }
    }

    /// A migrated, freshly created database on the PostgreSQL server at `admin_url`.
    pub fn postgres(admin_url: &str) -> TestDb {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let name = format!(
            "tolk_test_{}_{}_{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed),
            chrono::Utc::now().timestamp_subsec_nanos()
        );
        let mut admin = PgConnection::establish(admin_url).expect("connect to PostgreSQL");
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("create test database");
        let (base, query) = admin_url.split_once('?').unwrap_or((admin_url, ""));
        let (server, _) = base.rsplit_once('/').expect("database URL with a path");
        let url = if query.is_empty() {
            format!("{server}/{name}")
        } else {
            format!("{server}/{name}?{query}")
        };
        let store = Store::open(&url, 4).expect("open PostgreSQL");
        store.migrate().expect("migrate PostgreSQL");
        TestDb {
            store,
            cleanup: Cleanup::Postgres {
                admin_url: admin_url.to_owned(),
                name,
            },
        }
    }

    /// Every backend to test on: SQLite, and PostgreSQL when configured.
    pub fn all() -> Vec<TestDb> {
        let mut dbs = vec![TestDb::sqlite()];
        if let Ok(url) = std::env::var(DATABASE_URL_VAR) {
            if !url.is_empty() {
                dbs.push(TestDb::postgres(&url));
            }
        }
        dbs
    }

    /// The backend of this database.
    pub fn backend(&self) -> BackendKind {
        self.store.backend()
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Cleanup::Postgres { admin_url, name } = &self.cleanup {
            if let Ok(mut admin) = PgConnection::establish(admin_url) {
                let _ =
                    admin.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
            }
        }
    }
}
