//! Roles (§5).

use serde::Serialize;
use tolk_service::Role;
use utoipa::ToSchema;

use crate::links::Links;

/// A role: a named set of permissions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct RoleDto {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Permission codenames, in Weblate's order.
    pub permissions: Vec<String>,
    /// API link.
    pub url: String,
}

impl RoleDto {
    /// The role as the API shows it.
    pub fn new(role: Role, links: &Links) -> RoleDto {
        RoleDto {
            url: links.api(&["roles", &role.id.to_string()]),
            id: role.id,
            name: role.name,
            permissions: role
                .permissions
                .iter()
                .map(|p| p.codename().to_owned())
                .collect(),
        }
    }
}
