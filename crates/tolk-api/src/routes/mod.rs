//! HTTP handlers, one module per resource. Every handler is registered
//! with `.service()` so that its OpenAPI description is collected.

use utoipa_actix_web::service_config::ServiceConfig;

pub mod changes;
pub mod languages;
pub mod projects;
pub mod root;
pub mod users;

/// Registers every API handler.
pub fn configure(cfg: &mut ServiceConfig) {
    root::configure(cfg);
    languages::configure(cfg);
    projects::configure(cfg);
    users::configure(cfg);
    changes::configure(cfg);
}
