//! Add-ons (§14).

use serde::Serialize;
use serde_json::{Map, Value};
use tolk_service::addons::AddonView;
use utoipa::ToSchema;

use crate::links::{Links, nested};

/// An add-on, in Weblate's key order.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct AddonDto {
    /// API link of the component it is installed on, or null.
    pub component: Option<String>,
    /// API link of the project it is installed on, or null.
    pub project: Option<String>,
    /// The add-on's id (§29.12).
    pub name: String,
    /// Id.
    pub id: i64,
    /// Its settings.
    #[schema(value_type = Object)]
    pub configuration: Map<String, Value>,
    /// API link.
    pub url: String,
}

impl AddonDto {
    /// The add-on as the API shows it.
    pub fn new(view: AddonView, links: &Links) -> AddonDto {
        let (component, project) = match &view.component_path {
            Some(path) => (
                Some(links.api(&["components", &view.project_slug, &nested(path)])),
                None,
            ),
            None => (None, Some(links.api(&["projects", &view.project_slug]))),
        };
        AddonDto {
            component,
            project,
            url: links.api(&["addons", &view.addon.id.to_string()]),
            name: view.addon.name,
            id: view.addon.id,
            configuration: view.configuration,
        }
    }
}
