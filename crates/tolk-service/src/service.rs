//! The entry point to every use-case: the store, the settings, the work
//! trees, the task queue's wake-up and the cache. The use-cases of an
//! area live on a handle of their own, declared with [`area!`] in the
//! area's module and handed out by a method of [`Service`]
//! (`service.units().edit(…)`), so that a caller names the area it
//! works in and a use-case the areas it reaches into. The use-cases not
//! moved to a handle yet are `impl Service` blocks in their own modules.

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
        let cache = crate::cache::Cache::new(store.commits(), config.generation_trust);
        Ok(Self {
            store,
            config: std::sync::Arc::new(config),
            workspace: std::sync::Arc::new(workspace),
            queue: crate::wakeup::Wakeup::default(),
            cache: std::sync::Arc::new(cache),
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

/// Declares the handle of an area's use-cases: a borrowed [`Service`],
/// through which (by `Deref`) the use-cases reach the parts every area
/// shares (store, caches, settings, work trees, the access check), and
/// the method of [`Service`] that hands it out.
macro_rules! area {
    ($(#[$doc:meta])* $handle:ident, $method:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub struct $handle<'s>(&'s $crate::Service);

        impl std::ops::Deref for $handle<'_> {
            type Target = $crate::Service;

            fn deref(&self) -> &$crate::Service {
                self.0
            }
        }

        impl $crate::Service {
            #[doc = concat!("The use-cases of [`", stringify!($handle), "`].")]
            pub fn $method(&self) -> $handle<'_> {
                $handle(self)
            }
        }
    };
}

pub(crate) use area;
