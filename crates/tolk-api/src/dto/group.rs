//! Teams, called groups in the API (§4), and the bodies that change
//! what they list.

use serde::{Deserialize, Serialize};
use tolk_service::Team;
use utoipa::ToSchema;

use crate::links::{Links, nested};

/// A team.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct GroupDto {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// API link of the project the team belongs to, or null.
    pub defining_project: Option<String>,
    /// Always null: Tolk has no workspaces.
    pub defining_workspace: Option<String>,
    /// Which projects it covers (§29.5).
    pub project_selection: i32,
    /// Which languages: 0 listed, 1 all.
    pub language_selection: i32,
    /// API link.
    pub url: String,
    /// Its roles (API links).
    pub roles: Vec<String>,
    /// Its languages (API links).
    pub languages: Vec<String>,
    /// Its projects (API links).
    pub projects: Vec<String>,
    /// Its component lists (API links).
    pub componentlists: Vec<String>,
    /// Its components (API links).
    pub components: Vec<String>,
    /// Members must use two-factor authentication.
    pub enforced_2fa: bool,
    /// Its admins (API links).
    pub admins: Vec<String>,
}

impl GroupDto {
    /// The team as the API shows it.
    pub fn new(team: Team, links: &Links) -> GroupDto {
        let all = |kind: &str, ids: Vec<String>| -> Vec<String> {
            ids.iter().map(|id| links.api(&[kind, id])).collect()
        };
        GroupDto {
            url: links.api(&["groups", &team.id.to_string()]),
            id: team.id,
            name: team.fields.name,
            defining_project: team
                .defining_project
                .map(|slug| links.api(&["projects", &slug])),
            defining_workspace: None,
            project_selection: team.fields.project_selection,
            language_selection: team.fields.language_selection,
            roles: all("roles", team.roles.iter().map(i64::to_string).collect()),
            languages: all("languages", team.languages),
            projects: all("projects", team.projects),
            componentlists: all("component-lists", team.component_lists),
            components: team
                .components
                .iter()
                .map(|(project, path)| links.api(&["components", project, &nested(path)]))
                .collect(),
            enforced_2fa: team.fields.enforced_2fa,
            admins: all("users", team.admins),
        }
    }
}

/// Adds a role to a team.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
pub struct RoleIdBody {
    /// The role's id.
    pub role_id: Option<i64>,
}

/// Adds a language to a team.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
pub struct LanguageCodeBody {
    /// The language's code.
    #[schema(max_length = 50)]
    pub language_code: Option<String>,
}

/// Adds a project to a team.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
pub struct ProjectIdBody {
    /// The project's id.
    pub project_id: Option<i64>,
}

/// Adds a component to a team.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
pub struct ComponentIdBody {
    /// The component's id.
    pub component_id: Option<i64>,
}

/// Adds a component list to a team.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
pub struct ComponentListIdBody {
    /// The component list's id.
    pub component_list_id: Option<i64>,
}

/// Makes a user an admin of a team.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
pub struct UserIdBody {
    /// The user's id.
    pub user_id: Option<i64>,
}
