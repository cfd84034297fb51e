//! Tolk's pages and images for people, beside the REST facade of
//! tolk-api: they call the use-cases of tolk-service with the same access
//! check as the API, never the store. `tolk-server` mounts them with
//! [`configure`] into the one application the API builds, so that
//! authentication, throttling and logging stay in one place.
//!
//! Served so far: the status badges of projects, components and
//! languages of a project ([`widgets`]), as Weblate's
//! `/widget/…/svg-badge.svg` links name them.

pub mod badge;
mod error;
pub mod widgets;

use actix_web::web;
use tolk_service::Service;

/// Registers the pages and images, with the service they call.
pub fn configure(service: Service) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(web::Data::new(service));
        widgets::configure(cfg);
    }
}
