//! Tolk's use-cases. Each public method of [`Service`] is one thing a
//! caller can ask: it checks permissions with the domain's single access
//! check, validates input, does the work in one transaction and records the
//! change. Methods block; async callers run them on a blocking thread.

mod access;
mod conflict;
mod error;

pub mod admin;
pub mod auth;
pub mod changes;
pub mod languages;
pub mod metrics;
pub mod projects;
pub mod users;

pub use error::{ServiceError, ServiceResult};
/// What the use-cases return that the storage layer defines: callers see
/// these types, not the storage crate.
pub use tolk_store::changes::{ChangeLinks, ChangeRow};
pub use tolk_store::languages::Language;
pub use tolk_store::stats::Summary;
pub use tolk_store::{Page, PageRequest, Store};

/// Throw-away databases for the tests of crates above this one.
#[cfg(feature = "test-support")]
pub use tolk_store::testing;

/// Site-wide settings the use-cases need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceConfig {
    /// Name of the site, reported by metrics.
    pub site_title: String,
}

impl Default for ServiceConfig {
    fn default() -> Self {
        Self {
            site_title: "Tolk".into(),
        }
    }
}

/// Entry point to every use-case.
#[derive(Clone)]
pub struct Service {
    store: Store,
    config: ServiceConfig,
}

impl Service {
    /// Wraps a migrated store.
    pub fn new(store: Store, config: ServiceConfig) -> Self {
        Self { store, config }
    }

    /// The site settings.
    pub fn config(&self) -> &ServiceConfig {
        &self.config
    }
}
