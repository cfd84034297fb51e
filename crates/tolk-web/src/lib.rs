//! Tolk's pages and images for people, beside the REST facade of
//! tolk-api: they call the use-cases of tolk-service with the same access
//! check as the API, never the store. `tolk-server` mounts them with
//! [`configure`] into the one application the API builds, so that
//! throttling and logging stay in one place.
//!
//! Served so far: the front page (`dashboard`: the projects one may
//! see, with their progress), a project's page (`project`: its components
//! and languages with theirs), a component's and a translation's pages
//! (`component`), one language of a project (`project`), the editor
//! (`editor`: one string at a time, its keyboard in `static/editor.js`),
//! the list view (`zen`: a page of strings, each with its field),
//! the invitation to translate (`engage`), a translation's file
//! (`download`) and its uploads (`upload`), signing in and one's account (`accounts`: sign-in,
//! sign-out, the profile with the API token, password changes, one-time
//! links to choose a password) and the status badges of projects,
//! components and languages of a project ([`widgets`]), as Weblate's
//! `/widget/…/svg-badge.svg` links name them. Pages are askama templates
//! (`templates/`, checked at build time) with a style sheet built in
//! (`static/`).

mod accounts;
mod assets;
pub mod badge;
mod component;
mod dashboard;
mod download;
mod editor;
mod engage;
mod error;
mod extract;
mod forms;
mod headers;
mod heading;
mod maintenance;
mod page;
mod paths;
mod people;
mod progress;
mod project;
mod screenshot;
mod searches;
mod signing;
mod site;
mod upkeep;
mod upload;
mod visitor;
pub mod widgets;
mod zen;

use actix_web::web;

pub use accounts::password_link_url;
pub use site::Pages;

/// Registers the pages and images, with what they call.
pub fn configure(pages: Pages) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(web::Data::new(pages.service.clone()))
            .app_data(web::Data::new(pages));
        accounts::configure(cfg);
        people::configure(cfg);
        dashboard::configure(cfg);
        editor::configure(cfg);
        download::configure(cfg);
        upload::configure(cfg);
        zen::configure(cfg);
        screenshot::configure(cfg);
        engage::configure(cfg);
        project::configure(cfg);
        component::configure(cfg);
        maintenance::configure(cfg);
        assets::configure(cfg);
        widgets::configure(cfg);
    }
}
