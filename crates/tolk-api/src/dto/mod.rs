//! Response bodies, serialised straight from stored rows in Weblate's key order.

pub mod addon;
pub mod announcement;
pub mod autotranslate;
pub mod category;
pub mod change;
pub mod component;
pub mod component_list;
pub mod group;
pub mod hook;
pub mod language;
pub mod memory;
pub mod metrics;
pub mod notification;
pub mod project;
pub mod repository;
pub mod role;
pub mod root;
pub mod screenshot;
pub mod statistics;
pub mod suggestion;
pub mod token;
pub mod translation;
pub mod unit;
pub mod upload;
pub mod user;
pub mod workflow;
