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
        if let Ok(url) = std::env::var(DATABASE_URL_VAR)
            && !url.is_empty()
        {
            dbs.push(TestDb::postgres(&url));
        }
        dbs
    }

    /// Runs raw SQL, for tests that damage the database on purpose.
    pub fn execute(&self, sql: &str) {
        let mut conn = self.store.conn().expect("connection");
        conn.batch_execute(sql).expect("raw SQL");
    }

    /// The backend of this database.
    pub fn backend(&self) -> BackendKind {
        self.store.backend()
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Cleanup::Postgres { admin_url, name } = &self.cleanup
            && let Ok(mut admin) = PgConnection::establish(admin_url)
        {
            let _ = admin.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
        }
    }
}

/// Stores a translation with the given counters in `component_slug` of
/// the project with id `project_id` (creating the component), until
/// components and translations can be created through the service.
/// Returns the translation's id.
pub fn add_translation(
    store: &Store,
    project_id: i64,
    component_slug: &str,
    language_code: &str,
    counters: &tolk_domain::stats::Counters,
    last_change: chrono::NaiveDateTime,
) -> i64 {
    use diesel::prelude::*;

    use crate::languages::{self, LanguageScope};
    use crate::schema::{components, translations};

    let mut conn = store.conn().expect("connection");
    let language = languages::get_by_code(&mut conn, language_code, LanguageScope::All)
        .expect("query")
        .expect("known language");
    let existing: Option<i64> = components::table
        .filter(components::project_id.eq(project_id))
        .filter(components::slug.eq(component_slug))
        .select(components::id)
        .first(&mut *conn)
        .optional()
        .expect("query");
    let component_id = existing.unwrap_or_else(|| {
        diesel::sql_query(format!(
            "INSERT INTO components (project_id, name, slug, filemask, file_format, source_language_id, created) \
             VALUES ({project_id}, '{component_slug}', '{component_slug}', '*.po', 'po', {}, '2026-01-01 00:00:00')",
            language.row.id
        ))
        .execute(&mut *conn)
        .expect("insert component");
        components::table
            .filter(components::project_id.eq(project_id))
            .filter(components::slug.eq(component_slug))
            .select(components::id)
            .first(&mut *conn)
            .expect("query")
    });
    let c = counters;
    let values = [
        c.total.strings,
        c.total.words,
        c.total.chars,
        c.translated.strings,
        c.translated.words,
        c.translated.chars,
        c.fuzzy.strings,
        c.fuzzy.words,
        c.fuzzy.chars,
        c.approved.strings,
        c.approved.words,
        c.approved.chars,
        c.readonly.strings,
        c.readonly.words,
        c.readonly.chars,
        c.failing,
        c.suggestions,
        c.comments,
    ]
    .map(|v| v.to_string())
    .join(", ");
    diesel::sql_query(format!(
        "INSERT INTO translations (component_id, language_id, plural_id, total, total_words, total_chars, \
         translated, translated_words, translated_chars, fuzzy, fuzzy_words, fuzzy_chars, approved, \
         approved_words, approved_chars, readonly, readonly_words, readonly_chars, failing, suggestions, \
         comments, last_change) VALUES ({component_id}, {}, {}, {values}, '{}')",
        language.row.id,
        language.plural.id,
        last_change.format("%Y-%m-%d %H:%M:%S%.6f")
    ))
    .execute(&mut *conn)
    .expect("insert translation");
    translations::table
        .filter(translations::component_id.eq(component_id))
        .filter(translations::language_id.eq(language.row.id))
        .select(translations::id)
        .first(&mut *conn)
        .expect("query")
}
