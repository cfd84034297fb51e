//! Tolk's use-cases. Each public method of [`Service`] is one thing a
//! caller can ask: it checks permissions with the domain's single access
//! check, validates input, does the work in one transaction and records the
//! change. Methods block; async callers run them on a blocking thread.

mod access;
mod addon_runs;
mod archive;
mod cache;
mod commit;
mod conflict;
mod consistency;
mod error;
mod file_replace;
mod glossary;
mod glossary_setup;
mod nul;
mod propagation;
mod reused;
mod source_edit;
mod translated_check;
mod verdicts;
mod workspace;

pub mod addons;
pub mod admin;
pub mod auth;
pub mod autotranslate;
pub mod bulk;
pub mod categories;
pub mod changes;
pub mod component_links;
pub mod component_lists;
pub mod components;
pub mod conversion;
pub mod copy;
pub mod discovery;
pub mod file_upload;
pub mod files;
pub mod groups;
pub mod hooks;
pub mod import;
pub mod labels;
pub mod languages;
pub mod memory;
pub mod memory_transfer;
pub mod metrics;
pub mod notifications;
pub mod operations;
pub mod project_tokens;
pub mod projects;
pub mod rate_limits;
pub mod repository;
pub mod roles;
pub mod scan;
pub mod screenshots;
pub mod search;
pub mod suggestions;
pub mod tasks;
pub mod translations;
pub mod unit_add;
pub mod unit_delete;
pub mod units;
pub mod upload;
pub mod users;
pub mod zip_download;

pub use error::{ServiceError, ServiceResult};
/// What the use-cases return that the storage layer defines: callers see
/// these types, not the storage crate.
pub use tolk_store::changes::{ChangeLinks, ChangeRow};
pub use tolk_store::comments::Comment;
pub use tolk_store::labels::Label;
pub use tolk_store::languages::{Language, LanguageRow};
pub use tolk_store::memory::Entry as MemoryEntry;
pub use tolk_store::projects::Project;
pub use tolk_store::roles::Role;
pub use tolk_store::stats::Summary;
pub use tolk_store::subscriptions::StoredSubscription;
pub use tolk_store::suggestions::Suggestion;
pub use tolk_store::teams::Team;
pub use tolk_store::tokens::ProjectToken;
pub use tolk_store::{BackendKind, Page, PageRequest, Store};

/// Throw-away databases for the tests of crates above this one.
#[cfg(feature = "test-support")]
pub use tolk_store::testing;
/// Real repositories for the tests of crates above this one.
#[cfg(feature = "test-support")]
pub use tolk_vcs::testing as vcs_testing;

/// Uploads for the tests of crates above this one.
#[cfg(feature = "test-support")]
pub mod upload_testing {
    use std::io::Write;

    /// A ZIP archive of `files` (path, bytes), as a client uploads one.
    pub fn archive(files: &[(&str, Vec<u8>)]) -> Vec<u8> {
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (path, bytes) in files {
            zip.start_file(*path, zip::write::SimpleFileOptions::default())
                .expect("an entry");
            zip.write_all(bytes).expect("its bytes");
        }
        zip.finish().expect("the archive").into_inner()
    }
}

pub use tolk_vcs::{CommitInfo, GitConfig, UrlPolicy, VcsError};

/// Site-wide settings the use-cases need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceConfig {
    /// Name of the site, reported by metrics.
    pub site_title: String,
    /// Public URL of the site, for links in commit messages.
    pub site_url: String,
    /// Directory holding the components' repositories.
    pub vcs_root: std::path::PathBuf,
    /// Directory holding uploaded media (screenshots).
    pub media_root: std::path::PathBuf,
    /// How Git runs.
    pub git: GitConfig,
    /// Which repository URLs components may use.
    pub url_policy: UrlPolicy,
    /// How long a task worker's claim holds without renewal: the task of
    /// a process that died is taken over this long after its last sign.
    pub task_lease: std::time::Duration,
    /// Whether a project gets a glossary component with its first
    /// components, as Weblate's `CREATE_GLOSSARIES`.
    pub create_glossaries: bool,
    /// How long finished tasks are kept, with their result and log.
    pub task_retention: std::time::Duration,
}

impl Default for ServiceConfig {
    /// Repositories under a directory of this process in the system's
    /// temporary directory; no local repository URLs.
    fn default() -> Self {
        let root = std::env::temp_dir().join(format!("tolk-{}", std::process::id()));
        Self {
            site_title: "Tolk".into(),
            site_url: "http://127.0.0.1:8000".into(),
            git: GitConfig::new(root.join("home")),
            vcs_root: root.join("vcs"),
            media_root: root.join("media"),
            url_policy: UrlPolicy::default(),
            task_lease: tasks::DEFAULT_LEASE,
            create_glossaries: true,
            task_retention: tasks::DEFAULT_RETENTION,
        }
    }
}

#[cfg(feature = "test-support")]
impl ServiceConfig {
    /// For tests: Git's home and the repositories under `root`, and local
    /// repository URLs allowed (the tests' upstreams are directories).
    pub fn local(root: &std::path::Path) -> Self {
        Self {
            git: GitConfig {
                allow_local: true,
                ..GitConfig::new(root.join("home"))
            },
            vcs_root: root.join("vcs"),
            media_root: root.join("media"),
            url_policy: UrlPolicy::new(true, ""),
            // Tests ask for glossaries where they are what is tested.
            create_glossaries: false,
            ..Self::default()
        }
    }
}

/// Entry point to every use-case.
#[derive(Clone)]
pub struct Service {
    store: Store,
    config: std::sync::Arc<ServiceConfig>,
    workspace: std::sync::Arc<workspace::Workspace>,
    queue: tasks::Wakeup,
    cache: std::sync::Arc<cache::Cache>,
}

impl Service {
    /// Wraps a migrated store; fails when Git cannot run.
    pub fn new(store: Store, config: ServiceConfig) -> Result<Self, VcsError> {
        let workspace = workspace::Workspace::new(&config)?;
        Ok(Self {
            store,
            config: std::sync::Arc::new(config),
            workspace: std::sync::Arc::new(workspace),
            queue: tasks::Wakeup::default(),
            cache: std::sync::Arc::default(),
        })
    }

    /// The site settings.
    pub fn config(&self) -> &ServiceConfig {
        &self.config
    }

    /// Which database the service works on.
    pub fn backend(&self) -> BackendKind {
        self.store.kind()
    }
}
