//! Throw-away databases for tests: a SQLite file in a temporary directory
//! always, and a fresh PostgreSQL database as well when
//! `TOLK_TEST_DATABASE_URL` names a server.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test support: a fixture that cannot be made stops the test"
)]

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
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
    Sqlite(tempfile::TempDir),
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

    /// A migrated, freshly created database on the PostgreSQL server at
    /// `admin_url`: a copy of the template for the current schema (made
    /// once, see [`template`]), which is much faster than migrating and
    /// loading the language table for every test.
    pub fn postgres(admin_url: &str) -> TestDb {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        // One look (and, the first time, one build) per test process.
        static TEMPLATE: OnceLock<String> = OnceLock::new();
        let template = TEMPLATE.get_or_init(|| template(admin_url));
        let name = format!(
            "tolk_test_{}_{}_{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed),
            chrono::Utc::now().timestamp_subsec_nanos()
        );
        let mut admin = PgConnection::establish(admin_url).expect("connect to PostgreSQL");
        // Copies of one template made at the same moment can find it busy.
        let mut tries = 0;
        while let Err(e) =
            admin.batch_execute(&format!("CREATE DATABASE {name} TEMPLATE {template}"))
        {
            tries += 1;
            assert!(tries < 50, "create test database: {e}");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let store = Store::open(&database_url(admin_url, &name), 4).expect("open PostgreSQL");
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

    /// The database's URL (a file path for SQLite), for tests that run
    /// `tolk` as a process on it.
    pub fn url(&self) -> String {
        match &self.cleanup {
            Cleanup::Sqlite(dir) => dir.path().join("tolk.sqlite3").display().to_string(),
            Cleanup::Postgres { admin_url, name } => database_url(admin_url, name),
        }
    }

    /// Runs raw SQL, for tests that damage the database on purpose or
    /// set up what has no API. It runs in one transaction, as the app's
    /// writes do, so that this process counts its commit
    /// ([`Store::commits`]) and its caches see the change at once.
    pub fn execute(&self, sql: &str) {
        let mut conn = self.store.conn().expect("connection");
        conn.transaction(|c| c.batch_execute(sql)).expect("raw SQL");
    }

    /// The backend of this database.
    pub fn backend(&self) -> BackendKind {
        self.store.backend()
    }
}

/// The URL of database `name` on the server of `admin_url`.
fn database_url(admin_url: &str, name: &str) -> String {
    let (base, query) = admin_url.split_once('?').unwrap_or((admin_url, ""));
    let (server, _) = base.rsplit_once('/').expect("database URL with a path");
    if query.is_empty() {
        format!("{server}/{name}")
    } else {
        format!("{server}/{name}?{query}")
    }
}

/// What the schema and built-in data of a fresh database come from; a
/// template is made for each version of them.
const SCHEMA_SOURCES: &[&str] = &[
    include_str!("seed.rs"),
    include_str!("../../tolk-domain/data/languages.json"),
];

/// The name of the migrated, seeded template database for this schema,
/// making it when the server has none: under an advisory lock, so that
/// test processes running at once make it once, and renamed into place
/// when complete. Templates of other schemas are dropped.
fn template(admin_url: &str) -> String {
    use std::hash::{Hash, Hasher};

    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    SCHEMA_SOURCES.hash(&mut hasher);
    let migrations = concat!(env!("CARGO_MANIFEST_DIR"), "/../../migrations/postgres");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(migrations)
        .expect("the migrations directory")
        .flat_map(|dir| std::fs::read_dir(dir.expect("a migration").path()).expect("a migration"))
        .map(|file| file.expect("a migration file").path())
        .collect();
    files.sort();
    for file in files {
        std::fs::read(&file)
            .expect("a migration file")
            .hash(&mut hasher);
    }
    let name = format!("tolk_template_{:016x}", hasher.finish());
    let mut admin = PgConnection::establish(admin_url).expect("connect to PostgreSQL");
    admin
        .batch_execute("SELECT pg_advisory_lock(7051)")
        .expect("lock the templates");
    let exists = diesel::select(diesel::dsl::exists(
        pg_database::table.filter(pg_database::datname.eq(&name)),
    ))
    .get_result::<bool>(&mut admin)
    .expect("look for the template");
    if !exists {
        let building = format!("{name}_building");
        for statement in [
            format!("DROP DATABASE IF EXISTS {building}"),
            format!("CREATE DATABASE {building}"),
        ] {
            admin
                .batch_execute(&statement)
                .expect("create the template");
        }
        let store = Store::open(&database_url(admin_url, &building), 1).expect("open PostgreSQL");
        store.migrate().expect("migrate PostgreSQL");
        drop(store);
        admin
            .batch_execute(&format!("ALTER DATABASE {building} RENAME TO {name}"))
            .expect("publish the template");
        let stale: Vec<String> = pg_database::table
            .filter(pg_database::datname.like("tolk\\_template\\_%"))
            .filter(pg_database::datname.ne(&name))
            .select(pg_database::datname)
            .load(&mut admin)
            .expect("list templates");
        for old in stale {
            // One still in use by another run stays until a later run.
            let _ = admin.batch_execute(&format!("DROP DATABASE IF EXISTS {old}"));
        }
    }
    admin
        .batch_execute("SELECT pg_advisory_unlock(7051)")
        .expect("unlock the templates");
    name
}

/// PostgreSQL's list of databases.
#[allow(missing_docs)]
mod catalog {
    diesel::table! {
        pg_database (datname) {
            datname -> Text,
        }
    }
}
use catalog::pg_database;

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
        .first(&mut **conn)
        .optional()
        .expect("query");
    let component_id = existing.unwrap_or_else(|| {
        diesel::sql_query(format!(
            "INSERT INTO components (project_id, name, slug, source_language_id, created) \
             VALUES ({project_id}, '{component_slug}', '{component_slug}', {}, '2026-01-01 00:00:00')",
            language.row.id
        ))
        .execute(&mut **conn)
        .expect("insert component");
        components::table
            .filter(components::project_id.eq(project_id))
            .filter(components::slug.eq(component_slug))
            .select(components::id)
            .first(&mut **conn)
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
        c.failing_words,
        c.failing_chars,
        c.suggestions,
        c.comments,
    ]
    .map(|v| v.to_string())
    .join(", ");
    diesel::sql_query(format!(
        "INSERT INTO translations (component_id, language_id, plural_id, total, total_words, total_chars, \
         translated, translated_words, translated_chars, fuzzy, fuzzy_words, fuzzy_chars, approved, \
         approved_words, approved_chars, readonly, readonly_words, readonly_chars, failing, failing_words, failing_chars, suggestions, \
         comments, last_change) VALUES ({component_id}, {}, {}, {values}, '{}')",
        language.row.id,
        language.plural.id,
        last_change.format("%Y-%m-%d %H:%M:%S%.6f")
    ))
    .execute(&mut **conn)
    .expect("insert translation");
    let id = translations::table
        .filter(translations::component_id.eq(component_id))
        .filter(translations::language_id.eq(language.row.id))
        .select(translations::id)
        .first(&mut **conn)
        .expect("query");
    use crate::kept_stats::{Move, Translations, record};
    for added in [Move::Added, Move::By(counters, Some(last_change))] {
        record(&mut conn, Translations::Ids(&[id]), added).expect("record statistics");
    }
    id
}

/// Makes every waiting task due now (a retry's backoff skipped), for
/// tests of what happens at the next attempt.
pub fn make_tasks_due(store: &Store) {
    let mut conn = store.conn().expect("a connection");
    diesel::sql_query("UPDATE tasks SET run_after = created WHERE NOT completed")
        .execute(&mut **conn)
        .expect("make tasks due");
}

/// Every task's kind, attempts, whether it failed, whether it is
/// completed and its log, for tests that check each task ran once.
pub fn task_runs(store: &Store) -> Vec<(String, i32, bool, bool, String)> {
    use crate::schema::tasks;
    let mut conn = store.conn().expect("a connection");
    tasks::table
        .select((
            tasks::kind,
            tasks::attempts,
            tasks::failed,
            tasks::completed,
            tasks::log,
        ))
        .order(tasks::created)
        .load(&mut **conn)
        .expect("read tasks")
}

/// A small deterministic generator (xorshift64*) for tests of random
/// sequences, so that a failure repeats.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    /// The next number.
    #[allow(clippy::should_implement_trait, reason = "no iterator: it never ends")]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (which must not be 0).
    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap_or(0)
    }
}
