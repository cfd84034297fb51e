//! Tolk's use-cases. Each public method of [`Service`] is one thing a
//! caller can ask: it checks permissions with the domain's single access
//! check, validates input, does the work in one transaction and records the
//! change. Methods block; async callers run them on a blocking thread.

mod access;
mod addon_runs;
mod archive;
mod cache;
mod category_inheritance;
mod commit;
mod commit_messages;
mod component_view;
mod config;
mod conflict;
mod consistency;
mod error;
mod file_replace;
mod git_identity;
mod glossary;
mod glossary_setup;
mod ids;
mod jobs;
mod memory_match;
mod nul;
mod propagation;
mod reused;
mod service;
mod source_edit;
mod task_cancel;
mod translated_check;
mod translation_lifecycle;
mod unit_plan;
mod unit_screenshots;
mod unit_view;
mod verdicts;
mod wakeup;
mod workspace;

pub mod accounts;
pub mod addons;
pub mod admin;
pub mod announcements;
pub mod auth;
pub mod autotranslate;
mod autotranslate_job;
pub mod badges;
pub mod bulk;
pub mod categories;
pub mod changes;
pub mod check_dismissal;
pub mod component_links;
pub mod component_lists;
pub mod component_rights;
pub mod components;
pub mod contributions;
pub mod conversion;
pub mod copy;
pub mod discovery;
pub mod editor;
pub mod file_upload;
pub mod files;
pub mod groups;
pub mod hooks;
pub mod import;
pub mod labels;
pub mod languages;
pub mod memory;
pub mod memory_lookup;
pub mod memory_transfer;
pub mod metrics;
pub mod notifications;
pub mod operations;
pub mod project_metrics;
pub mod project_overview;
pub mod project_tokens;
pub mod projects;
pub mod rate_limits;
pub mod repository;
pub mod roles;
pub mod scan;
mod scan_read;
mod scan_store;
pub mod screenshots;
pub mod search;
pub mod string_aids;
pub mod suggestions;
pub mod tasks;
pub mod translations;
pub mod unit_add;
pub mod unit_delete;
pub mod units;
pub mod upload;
pub mod users;
pub mod workflow_settings;
pub mod zip_download;

pub use error::{ServiceError, ServiceResult};
pub use tolk_store::announcements::Announcement;
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
#[allow(
    clippy::expect_used,
    reason = "test support: a fixture that cannot be made stops the test"
)]
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

pub use config::{DEFAULT_GENERATION_TRUST, ServiceConfig};
pub use service::Service;
pub use tolk_vcs::{CommitInfo, GitConfig, UrlPolicy, VcsError};
