//! Tolk's storage layer: one diesel code base for SQLite (the embedded
//! default) and PostgreSQL, pooled with r2d2.
//!
//! Functions take a [`DbConnection`] so that use-cases can combine them in
//! one transaction with [`Store::write`]. Every list costs a fixed number of
//! statements, whatever its length.

mod checkpoint;
#[allow(missing_docs)]
mod connection;
mod error;
mod group_commit;
mod recent_changes;
mod regex_search;
mod seed;
mod sql;
mod store;
mod unit_columns;
mod unit_search;

pub mod addons;
pub mod announcements;
pub mod builtin_teams;
pub mod categories;
pub mod changes;
pub mod comments;
pub mod component_lists;
pub mod components;
pub mod generation;
pub mod grants;
pub mod kept_stats;
pub mod labels;
pub mod languages;
pub mod memory;
pub mod metrics;
pub mod page;
pub mod projects;
pub mod rate_limits;
pub mod roles;
#[allow(missing_docs)]
pub mod schema;
pub mod screenshots;
pub mod sessions;
pub mod site_search;
pub mod site_secrets;
pub mod stats;
pub mod subscriptions;
pub mod suggestions;
pub mod tasks;
pub mod teams;
pub mod time;
pub mod tokens;
pub mod translations;
pub mod unit_cursor;
pub mod unit_removals;
pub mod unit_texts;
pub mod units;
pub mod users;

#[cfg(feature = "test-support")]
pub mod testing;

pub use connection::{DbConnection, MultiBackend};
/// Diesel's query error, for callers whose error types wrap it.
pub use diesel::result::Error as QueryError;
pub use error::{StoreError, StoreResult};
pub use page::{Page, PageRequest};
pub use store::{
    BackendKind, Commits, ConnectionManager, PoolUse, Pooled, PooledConnection, Store,
};
