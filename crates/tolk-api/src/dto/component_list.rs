//! Component lists (§15).

use serde::Serialize;
use tolk_domain::component_list::AutoAssignRule;
use tolk_service::component_lists::ComponentListView;
use utoipa::ToSchema;

use crate::links::{Links, nested};

/// A component list, in Weblate's key order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ComponentListDto {
    /// Name.
    pub name: String,
    /// Slug in URLs.
    pub slug: String,
    /// Id.
    pub id: i64,
    /// Offered as a dashboard view.
    pub show_dashboard: bool,
    /// The components in it the caller sees (API links).
    pub components: Vec<String>,
    /// Rules adding components automatically.
    pub auto_assign: Vec<AutoAssignRule>,
    /// API link.
    pub url: String,
}

impl ComponentListDto {
    /// The list as the API shows it.
    pub fn new(view: ComponentListView, links: &Links) -> ComponentListDto {
        ComponentListDto {
            url: links.api(&["component-lists", &view.list.slug]),
            components: view
                .components
                .iter()
                .map(|(project, path)| links.api(&["components", project, &nested(path)]))
                .collect(),
            name: view.list.name,
            slug: view.list.slug,
            id: view.list.id,
            show_dashboard: view.list.show_dashboard,
            auto_assign: view.rules,
        }
    }
}
