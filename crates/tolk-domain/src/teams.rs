//! Weblate's built-in roles and teams (§29.4), which every Tolk site
//! starts with: the roles, the site-wide teams everybody is in, and the
//! teams made for each project. The database is seeded from these lists,
//! and a later release that adds a permission to a built-in role adds it
//! to the stored role too.

use crate::permission::{AccessControl, Permission as P};

/// `project_selection`: the projects, components and component lists
/// listed on the team.
pub const SELECTION_MANUAL: i32 = 0;
/// `project_selection`: every project.
pub const SELECTION_ALL: i32 = 1;
/// `project_selection`: the components of the team's component lists.
pub const SELECTION_COMPONENT_LIST: i32 = 2;
/// `project_selection`: every public project.
pub const SELECTION_ALL_PUBLIC: i32 = 3;
/// `project_selection`: every protected project.
pub const SELECTION_ALL_PROTECTED: i32 = 4;
/// Accepted `project_selection` codes.
pub const PROJECT_SELECTIONS: [i32; 5] = [
    SELECTION_MANUAL,
    SELECTION_ALL,
    SELECTION_COMPONENT_LIST,
    SELECTION_ALL_PUBLIC,
    SELECTION_ALL_PROTECTED,
];
/// Accepted `language_selection` codes: listed languages, or all.
pub const LANGUAGE_SELECTIONS: [i32; 2] = [0, 1];

/// What every translating role may do.
const TRANSLATE: &[P] = &[
    P::COMMENT_ADD,
    P::SUGGESTION_ACCEPT,
    P::SUGGESTION_ADD,
    P::SUGGESTION_VOTE,
    P::UNIT_CHECK,
    P::UNIT_EDIT,
    P::TRANSLATION_DOWNLOAD,
    P::UPLOAD_OVERWRITE,
    P::UPLOAD_PERFORM,
    P::MACHINERY_VIEW,
];

const GLOSSARY: &[P] = &[
    P::GLOSSARY_ADD,
    P::GLOSSARY_TERMINOLOGY,
    P::GLOSSARY_EDIT,
    P::GLOSSARY_DELETE,
    P::GLOSSARY_UPLOAD,
];

const VCS: &[P] = &[
    P::VCS_ACCESS,
    P::VCS_COMMIT,
    P::VCS_PUSH,
    P::VCS_RESET,
    P::VCS_VIEW,
    P::VCS_UPDATE,
];

/// A built-in role: its name and permissions, in Weblate's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltinRole {
    /// The role's name.
    pub name: &'static str,
    /// Its permissions.
    pub permissions: Vec<P>,
}

/// `parts` joined, in Weblate's order of permissions.
fn role(name: &'static str, parts: &[&[P]]) -> BuiltinRole {
    let wanted: Vec<P> = parts.concat();
    BuiltinRole {
        name,
        permissions: P::ALL
            .iter()
            .copied()
            .filter(|p| wanted.contains(p))
            .collect(),
    }
}

/// Every built-in role, in Weblate's order.
pub fn builtin_roles() -> Vec<BuiltinRole> {
    let administration: Vec<P> = P::ALL
        .iter()
        .copied()
        .filter(|p| !p.is_global() && !p.codename().starts_with("workspace."))
        .collect();
    vec![
        role("Administration", &[&administration]),
        role(
            "Edit source",
            &[TRANSLATE, &[P::UNIT_TEMPLATE, P::SOURCE_EDIT]],
        ),
        role("Add suggestion", &[&[P::SUGGESTION_ADD]]),
        role(
            "Access repository",
            &[&[P::TRANSLATION_DOWNLOAD, P::VCS_ACCESS, P::VCS_VIEW]],
        ),
        role("Manage glossary", &[GLOSSARY]),
        role(
            "Power user",
            &[
                TRANSLATE,
                &[
                    P::TRANSLATION_ADD,
                    P::UNIT_TEMPLATE,
                    P::SUGGESTION_DELETE,
                    P::VCS_ACCESS,
                    P::VCS_VIEW,
                    P::GLOSSARY_ADD,
                    P::GLOSSARY_EDIT,
                    P::GLOSSARY_DELETE,
                    P::GLOSSARY_UPLOAD,
                ],
            ],
        ),
        role(
            "Translation coordinator",
            &[
                TRANSLATE,
                GLOSSARY,
                &[
                    P::ANNOUNCEMENT_ADD,
                    P::ANNOUNCEMENT_DELETE,
                    P::TRANSLATION_ADD,
                    P::UNIT_TEMPLATE,
                    P::SUGGESTION_DELETE,
                    P::VCS_ACCESS,
                    P::VCS_VIEW,
                    P::UNIT_REVIEW,
                    P::UNIT_OVERRIDE,
                    P::COMMENT_RESOLVE,
                    P::SCREENSHOT_ADD,
                    P::SCREENSHOT_EDIT,
                    P::SCREENSHOT_DELETE,
                ],
            ],
        ),
        role(
            "Review strings",
            &[
                TRANSLATE,
                &[P::UNIT_REVIEW, P::UNIT_OVERRIDE, P::COMMENT_RESOLVE],
            ],
        ),
        role("Translate", &[TRANSLATE]),
        role(
            "Manage languages",
            &[&[
                P::TRANSLATION_ADD,
                P::TRANSLATION_DELETE,
                P::TRANSLATION_DOWNLOAD,
                P::TRANSLATION_ADD_MORE,
            ]],
        ),
        role("Bulk editing", &[&[P::UNIT_BULK_EDIT]]),
        role("Automatic translation", &[&[P::TRANSLATION_AUTO]]),
        role(
            "Manage translation memory",
            &[&[P::MEMORY_EDIT, P::MEMORY_DELETE]],
        ),
        role(
            "Manage screenshots",
            &[&[P::SCREENSHOT_ADD, P::SCREENSHOT_EDIT, P::SCREENSHOT_DELETE]],
        ),
        role("Manage repository", &[VCS, &[P::COMPONENT_LOCK]]),
        role(
            "Workspace administration",
            &[&[
                P::WORKSPACE_EDIT,
                P::WORKSPACE_ADD_PROJECT,
                P::WORKSPACE_EDIT_MEMBERS,
                P::REPORTS_VIEW,
            ]],
        ),
        role("Add workspace projects", &[&[P::WORKSPACE_ADD_PROJECT]]),
        role("Add new projects", &[&[P::PROJECT_ADD, P::WORKSPACE_ADD]]),
    ]
}

/// Who a built-in site-wide team takes in when it is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Members {
    /// Nobody.
    Nobody,
    /// The account that stands for anonymous callers.
    Anonymous,
    /// Every signed-in user (new users join too).
    Users,
    /// Both.
    Everybody,
}

impl Members {
    /// True when anonymous callers belong.
    pub fn anonymous(self) -> bool {
        matches!(self, Members::Anonymous | Members::Everybody)
    }

    /// True when every user belongs.
    pub fn users(self) -> bool {
        matches!(self, Members::Users | Members::Everybody)
    }
}

/// A built-in site-wide team.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SiteTeam {
    /// The team's name.
    pub name: &'static str,
    /// Its `project_selection`.
    pub project_selection: i32,
    /// Its roles, by name.
    pub roles: &'static [&'static str],
    /// Who belongs to it.
    pub members: Members,
}

/// Weblate's default site-wide teams, in order; they select every language.
pub const SITE_TEAMS: [SiteTeam; 6] = [
    SiteTeam {
        name: "Guests",
        project_selection: SELECTION_ALL_PUBLIC,
        roles: &["Add suggestion", "Access repository"],
        members: Members::Anonymous,
    },
    SiteTeam {
        name: "Viewers",
        project_selection: SELECTION_ALL_PROTECTED,
        roles: &[],
        members: Members::Everybody,
    },
    SiteTeam {
        name: "Users",
        project_selection: SELECTION_ALL_PUBLIC,
        roles: &["Power user"],
        members: Members::Users,
    },
    SiteTeam {
        name: "Reviewers",
        project_selection: SELECTION_ALL,
        roles: &["Review strings"],
        members: Members::Nobody,
    },
    SiteTeam {
        name: "Managers",
        project_selection: SELECTION_ALL,
        roles: &["Administration"],
        members: Members::Nobody,
    },
    SiteTeam {
        name: "Project creators",
        project_selection: SELECTION_ALL,
        roles: &["Add new projects"],
        members: Members::Nobody,
    },
];

/// The teams made for each project (team name, its role's name); the
/// first, `Administration`, takes the project's creator.
pub const PROJECT_TEAMS: [(&str, &str); 11] = [
    ("Administration", "Administration"),
    ("Review", "Review strings"),
    ("Translate", "Translate"),
    ("Sources", "Edit source"),
    ("Languages", "Manage languages"),
    ("Glossary", "Manage glossary"),
    ("Memory", "Manage translation memory"),
    ("Screenshots", "Manage screenshots"),
    ("Bulk editing", "Bulk editing"),
    ("Automatic translation", "Automatic translation"),
    ("VCS", "Manage repository"),
];

/// The project teams a project with this access level needs: public
/// projects are translated through the site-wide teams and need only
/// their administrators; the others need every team.
pub fn project_teams(access: AccessControl) -> &'static [(&'static str, &'static str)] {
    match access {
        AccessControl::Public => &PROJECT_TEAMS[..1],
        _ => &PROJECT_TEAMS,
    }
}

/// Longest role name.
pub const ROLE_NAME_MAX: usize = 200;

/// A request body creating or replacing a role (PUT replaces its permissions).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoleCreate {
    /// The role's name, unique.
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 200, pattern = r"\S")
    )]
    pub name: String,
    /// Permission codenames (§29.3), e.g. `unit.edit`.
    #[serde(default)]
    pub permissions: Vec<String>,
}

/// A request body changing a role: PATCH adds the permissions given to
/// those it has, as Weblate does.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RolePatch {
    /// The role's name, unique.
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 200, pattern = r"\S")
    )]
    pub name: Option<String>,
    /// Permission codenames to add.
    pub permissions: Option<Vec<String>>,
}

impl From<RoleCreate> for RolePatch {
    fn from(create: RoleCreate) -> Self {
        RolePatch {
            name: Some(create.name),
            permissions: Some(create.permissions),
        }
    }
}

/// Reads permission codenames; an unknown one is reported on `permissions`.
pub fn read_permissions(codes: &[String], errors: &mut crate::validation::FieldErrors) -> Vec<P> {
    let mut found = Vec::new();
    for code in codes {
        match P::from_codename(code) {
            Some(permission) if !found.contains(&permission) => found.push(permission),
            Some(_) => {}
            None => {
                errors.invalid(
                    "permissions",
                    "Permission with this codename was not found.",
                );
                break;
            }
        }
    }
    found
}

/// Longest team name.
pub const TEAM_NAME_MAX: usize = 150;

/// A request body creating or replacing a team (`group`, §4).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GroupCreate {
    /// The team's name.
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 150, pattern = r"\S")
    )]
    pub name: String,
    /// Which projects it covers (§29.5): 0 listed, 1 all, 2 component
    /// lists, 3 all public, 4 all protected.
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 4))]
    pub project_selection: Option<i32>,
    /// Which languages: 0 listed, 1 all.
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 1))]
    pub language_selection: Option<i32>,
    /// API link of the project the team belongs to, or null for a site-wide team.
    pub defining_project: Option<Option<String>>,
    /// Workspaces are not part of Tolk: null only.
    pub defining_workspace: Option<Option<String>>,
    /// Members must use two-factor authentication.
    pub enforced_2fa: Option<bool>,
}

/// A request body changing some of a team's fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GroupPatch {
    /// The team's name.
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 150, pattern = r"\S")
    )]
    pub name: Option<String>,
    /// Which projects it covers (§29.5).
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 4))]
    pub project_selection: Option<i32>,
    /// Which languages: 0 listed, 1 all.
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 1))]
    pub language_selection: Option<i32>,
    /// API link of the project the team belongs to, or null.
    pub defining_project: Option<Option<String>>,
    /// Workspaces are not part of Tolk: null only.
    pub defining_workspace: Option<Option<String>>,
    /// Members must use two-factor authentication.
    pub enforced_2fa: Option<bool>,
}

impl From<GroupCreate> for GroupPatch {
    fn from(create: GroupCreate) -> Self {
        GroupPatch {
            name: Some(create.name),
            project_selection: create.project_selection,
            language_selection: create.language_selection,
            defining_project: create.defining_project,
            defining_workspace: create.defining_workspace,
            enforced_2fa: create.enforced_2fa,
        }
    }
}

/// The slug in a project's API link (`…/api/projects/{slug}/`).
pub fn project_slug_of(url: &str) -> Option<&str> {
    let (_, rest) = url.split_once("/api/projects/")?;
    let slug = rest.strip_suffix('/').unwrap_or(rest);
    (!slug.is_empty() && !slug.contains('/')).then_some(slug)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_have_weblate_permissions() {
        let roles = builtin_roles();
        assert_eq!(roles.len(), 18);
        let find = |name: &str| roles.iter().find(|r| r.name == name).unwrap();
        assert_eq!(find("Administration").permissions.len(), 49);
        assert_eq!(find("Power user").permissions.len(), 19);
        assert_eq!(find("Translation coordinator").permissions.len(), 28);
        assert_eq!(find("Review strings").permissions.len(), 13);
        let codes: Vec<&str> = find("Manage repository")
            .permissions
            .iter()
            .map(|p| p.codename())
            .collect();
        assert_eq!(
            codes,
            [
                "component.lock",
                "vcs.access",
                "vcs.commit",
                "vcs.push",
                "vcs.reset",
                "vcs.view",
                "vcs.update"
            ]
        );
        for team in SITE_TEAMS {
            for role in team.roles {
                assert!(roles.iter().any(|r| r.name == *role), "{role}");
            }
        }
        for (_, role) in PROJECT_TEAMS {
            assert!(roles.iter().any(|r| r.name == role), "{role}");
        }
    }
}
