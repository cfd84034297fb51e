//! The entry point to every use-case: the store, the settings, the work
//! trees, the task queue's wake-up and the cache. The use-cases are
//! `impl Service` blocks in their own modules.

use tolk_store::{BackendKind, Store};
use tolk_vcs::VcsError;

use crate::config::ServiceConfig;

/// Entry point to every use-case.
#[derive(Clone)]
pub struct Service {
    pub(crate) store: Store,
    pub(crate) config: std::sync::Arc<ServiceConfig>,
    pub(crate) workspace: std::sync::Arc<crate::workspace::Workspace>,
    pub(crate) queue: crate::wakeup::Wakeup,
    pub(crate) cache: std::sync::Arc<crate::cache::Cache>,
}

impl Service {
    /// Wraps a migrated store; fails when Git cannot run.
    pub fn new(store: Store, config: ServiceConfig) -> Result<Self, VcsError> {
        let workspace = crate::workspace::Workspace::new(&config)?;
        Ok(Self {
            store,
            config: std::sync::Arc::new(config),
            workspace: std::sync::Arc::new(workspace),
            queue: crate::wakeup::Wakeup::default(),
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
