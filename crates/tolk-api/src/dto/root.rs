//! The API root.

use serde::Serialize;
use utoipa::ToSchema;

use crate::links::Links;

/// List endpoints by resource name, in Weblate's order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ApiRootDto {
    /// Users.
    pub users: String,
    /// Teams.
    pub groups: String,
    /// Roles.
    pub roles: String,
    /// Projects.
    pub projects: String,
    /// Components.
    pub components: String,
    /// Translations.
    pub translations: String,
    /// Translation memory.
    pub memory: String,
    /// Languages.
    pub languages: String,
    /// Component lists.
    #[serde(rename = "component-lists")]
    pub component_lists: String,
    /// Changes.
    pub changes: String,
    /// Strings.
    pub units: String,
    /// Suggestions.
    pub suggestions: String,
    /// Screenshots.
    pub screenshots: String,
    /// Add-ons.
    pub addons: String,
    /// Categories.
    pub categories: String,
}

impl ApiRootDto {
    /// The root for a request.
    pub fn new(links: &Links) -> Self {
        let list = |name: &str| links.api(&[name]);
        Self {
            users: list("users"),
            groups: list("groups"),
            roles: list("roles"),
            projects: list("projects"),
            components: list("components"),
            translations: list("translations"),
            memory: list("memory"),
            languages: list("languages"),
            component_lists: list("component-lists"),
            changes: list("changes"),
            units: list("units"),
            suggestions: list("suggestions"),
            screenshots: list("screenshots"),
            addons: list("addons"),
            categories: list("categories"),
        }
    }
}
