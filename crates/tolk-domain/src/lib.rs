//! Tolk's domain: the entities, rules and reference tables of a translation
//! server, free of I/O. Storage, the web API and use-cases build on it.

pub mod addon;
pub mod announcement;
pub mod category;
pub mod change;
pub mod checks;
pub mod component;
pub mod component_list;
pub mod filemask;
pub mod hex;
pub mod hooks;
pub mod json;
pub mod language;
pub mod message;
pub mod notification;
pub mod operation;
pub mod password;
pub mod permission;
pub mod plural;
pub mod project;
pub mod query;
pub mod settings;
pub mod stats;
pub mod teams;
pub mod time;
pub mod unit;
pub mod upload;
pub mod user;
pub mod validation;
pub mod workflow;
