//! Response bodies, serialised straight from stored rows in Weblate's key order.

pub mod change;
pub mod language;
pub mod metrics;
pub mod project;
pub mod root;
pub mod statistics;
pub mod user;
