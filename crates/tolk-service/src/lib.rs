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
pub use tolk_domain as domain;
pub use tolk_store as store;

use tolk_store::Store;

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
