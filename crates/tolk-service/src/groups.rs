//! Teams (`/api/groups/`, §4): who sees which, managing them, and what
//! they list (roles, languages, projects, components, admins).

use tolk_domain::permission::{Permission, Subject, Target};
use tolk_domain::teams::{
    GroupPatch, LANGUAGE_SELECTIONS, PROJECT_SELECTIONS, SELECTION_MANUAL, TEAM_NAME_MAX,
    project_slug_of,
};
use tolk_domain::validation::{FieldErrors, check_text};
use tolk_store::teams::{self, Team, TeamFields, TeamLink, TeamsOf};
use tolk_store::{DbConnection, Page, PageRequest, components, languages, projects, roles, users};

use crate::access::page;
use crate::conflict::{Unique, unique_violation};
use crate::{ServiceError, ServiceResult};

const DENIED: &str = "You do not have permission to perform this action.";
const BUILT_IN: &str = "Cannot change this on a built-in team.";

const NAME: Unique = Unique {
    attr: "name",
    model: "Group",
    label: "Name",
};

/// Something to add to or remove from a team, as a request names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Member {
    /// `role_id`.
    Role(Option<i64>),
    /// `language_code`.
    Language(Option<String>),
    /// `project_id`.
    Project(Option<i64>),
    /// `component_id`.
    Component(Option<i64>),
    /// `component_list_id`.
    ComponentList(Option<i64>),
}

/// Which teams the caller sees: all with `group.edit` or `group.view`,
/// else their own and those of projects where they hold `project.permissions`.
fn seen_by(conn: &mut DbConnection, subject: &Subject) -> ServiceResult<TeamsOf> {
    if subject.can(Permission::GROUP_EDIT, Target::Site)
        || subject.can(Permission::GROUP_VIEW, Target::Site)
    {
        return Ok(TeamsOf::Everybody);
    }
    Ok(TeamsOf::Some {
        user: crate::access::account(conn, subject)?,
        managed: subject.projects_with(Permission::PROJECT_PERMISSIONS),
    })
}

/// May the caller edit this team: `group.edit`, or `project.permissions`
/// on the project it belongs to?
fn may_edit(
    conn: &mut DbConnection,
    subject: &Subject,
    project: Option<i64>,
) -> ServiceResult<bool> {
    if subject.can(Permission::GROUP_EDIT, Target::Site) {
        return Ok(true);
    }
    let Some(id) = project else {
        return Ok(false);
    };
    Ok(projects::get_by_ids(conn, &[id])?
        .pop()
        .is_some_and(|p| subject.can(Permission::PROJECT_PERMISSIONS, Target::Project(p.as_ref()))))
}

/// The visible team `id`, which the caller may edit (else 403).
fn editable(conn: &mut DbConnection, subject: &Subject, id: i64) -> ServiceResult<Team> {
    let whose = seen_by(conn, subject)?;
    let team = teams::get(conn, &whose, id)?.ok_or(ServiceError::NotFound)?;
    if may_edit(conn, subject, team.fields.defining_project_id)? {
        Ok(team)
    } else {
        Err(ServiceError::PermissionDenied(DENIED.into()))
    }
}

/// The team's fields after `patch`, checked; `current` is the team's
/// when it exists.
fn fields_after(
    conn: &mut DbConnection,
    subject: &Subject,
    patch: GroupPatch,
    current: Option<&Team>,
) -> ServiceResult<TeamFields> {
    let mut errors = FieldErrors::default();
    let defining = match patch.defining_project.clone().flatten() {
        None => None,
        Some(url) => match project_slug_of(&url)
            .map(|slug| projects::get_by_slug(conn, slug))
            .transpose()?
            .flatten()
            .filter(|p| subject.can_view_project(p.as_ref()))
        {
            Some(project) => Some(project.id),
            None => {
                errors.invalid(
                    "defining_project",
                    "Invalid hyperlink - Object does not exist.",
                );
                None
            }
        },
    };
    if patch.defining_workspace.clone().flatten().is_some() {
        errors.invalid("defining_workspace", "Tolk has no workspaces.");
    }
    let mut fields = match current {
        Some(team) => team.fields.clone(),
        None => TeamFields {
            name: String::new(),
            defining_project_id: defining,
            project_selection: SELECTION_MANUAL,
            language_selection: 0,
            enforced_2fa: false,
        },
    };
    if let Some(team) = current {
        let moved = patch.defining_project.is_some() && defining != team.fields.defining_project_id;
        if moved {
            errors.invalid("defining_project", "Cannot change the project of a team.");
        }
        if team.internal {
            let renamed = patch.name.as_ref().is_some_and(|n| *n != team.fields.name);
            let reselected = patch
                .project_selection
                .is_some_and(|s| s != team.fields.project_selection)
                || patch
                    .language_selection
                    .is_some_and(|s| s != team.fields.language_selection);
            if renamed || reselected {
                errors.general("invalid", BUILT_IN);
            }
        }
    }
    if let Some(name) = patch.name {
        fields.name = name;
    }
    if let Some(selection) = patch.project_selection {
        fields.project_selection = selection;
    }
    if let Some(selection) = patch.language_selection {
        fields.language_selection = selection;
    }
    if let Some(enforced) = patch.enforced_2fa {
        fields.enforced_2fa = enforced;
    }
    if fields.defining_project_id.is_some() {
        fields.project_selection = SELECTION_MANUAL;
    }
    check_text(&fields.name, "name", TEAM_NAME_MAX, &mut errors);
    if !PROJECT_SELECTIONS.contains(&fields.project_selection) {
        errors.invalid_choice("project_selection", &fields.project_selection.to_string());
    }
    if !LANGUAGE_SELECTIONS.contains(&fields.language_selection) {
        errors.invalid_choice("language_selection", &fields.language_selection.to_string());
    }
    if !errors.has("name") && teams::name_taken(conn, &fields, current.map(|t| t.id))? {
        NAME.report(&mut errors);
    }
    errors.into_result()?;
    Ok(fields)
}

crate::service::area!(
    /// The use-cases of teams (Weblate's groups) and their members.
    Groups,
    groups
);

impl Groups<'_> {
    /// Lists the teams the caller sees, by id.
    pub fn list(&self, subject: &Subject, request: PageRequest) -> ServiceResult<Page<Team>> {
        self.store.read(|conn| {
            let whose = seen_by(conn, subject)?;
            page(teams::list(conn, &whose, request))
        })
    }

    /// One team, if the caller sees it.
    pub fn get(&self, subject: &Subject, id: i64) -> ServiceResult<Team> {
        self.store.read(|conn| {
            let whose = seen_by(conn, subject)?;
            teams::get(conn, &whose, id)?.ok_or(ServiceError::NotFound)
        })
    }

    /// Creates a team: site-wide with `group.edit`, or for a project
    /// (`defining_project`) with `project.permissions` there.
    pub fn create(
        &self,
        subject: &Subject,
        body: Result<GroupPatch, FieldErrors>,
    ) -> ServiceResult<Team> {
        let body = body?;
        self.store.write(|conn| {
            let fields = fields_after(conn, subject, body, None)?;
            if !may_edit(conn, subject, fields.defining_project_id)? {
                return Err(ServiceError::PermissionDenied(DENIED.into()));
            }
            let id = teams::insert(conn, &fields).map_err(|e| unique_violation(e, &[NAME]))?;
            teams::get(conn, &TeamsOf::Everybody, id)?.ok_or(ServiceError::NotFound)
        })
    }

    /// Changes a team (needs `group.edit`, or `project.permissions` on its project).
    pub fn update(
        &self,
        subject: &Subject,
        id: i64,
        body: Result<GroupPatch, FieldErrors>,
    ) -> ServiceResult<Team> {
        self.store.write(|conn| {
            let team = editable(conn, subject, id)?;
            let fields = fields_after(conn, subject, body?, Some(&team))?;
            if !teams::update(conn, id, &fields).map_err(|e| unique_violation(e, &[NAME]))? {
                return Err(ServiceError::NotFound);
            }
            teams::get(conn, &TeamsOf::Everybody, id)?.ok_or(ServiceError::NotFound)
        })
    }

    /// Removes a team.
    pub fn delete(&self, subject: &Subject, id: i64) -> ServiceResult<()> {
        self.store.write(|conn| {
            editable(conn, subject, id)?;
            if teams::delete(conn, id)? {
                Ok(())
            } else {
                Err(ServiceError::NotFound)
            }
        })
    }

    /// Adds a role, language, project or component to a team's lists.
    pub fn add_member(&self, subject: &Subject, id: i64, member: Member) -> ServiceResult<Team> {
        self.store.write(|conn| {
            let team = editable(conn, subject, id)?;
            let link = resolve(conn, subject, &team, &member)?;
            teams::link(conn, id, link)?;
            teams::get(conn, &TeamsOf::Everybody, id)?.ok_or(ServiceError::NotFound)
        })
    }

    /// Removes a role, language, project or component from a team's
    /// lists; not found when it is not listed.
    pub fn remove_member(&self, subject: &Subject, id: i64, member: Member) -> ServiceResult<()> {
        self.store.write(|conn| {
            let team = editable(conn, subject, id)?;
            let link = resolve(conn, subject, &team, &member).map_err(|e| match e {
                ServiceError::Validation(_) => ServiceError::NotFound,
                other => other,
            })?;
            if teams::unlink(conn, id, link)? {
                Ok(())
            } else {
                Err(ServiceError::NotFound)
            }
        })
    }

    /// Makes a user an admin of a team (and a member), or no longer an
    /// admin. Team editors may, and so may the team's admins.
    pub fn set_admin(
        &self,
        subject: &Subject,
        id: i64,
        user: Option<i64>,
        admin: bool,
    ) -> ServiceResult<Team> {
        self.store.write(|conn| {
            let whose = seen_by(conn, subject)?;
            let team = teams::get(conn, &whose, id)?.ok_or(ServiceError::NotFound)?;
            let own_admin = match subject.user_id() {
                Some(me) => teams::is_admin(conn, id, me)?,
                None => false,
            };
            if !own_admin && !may_edit(conn, subject, team.fields.defining_project_id)? {
                return Err(ServiceError::PermissionDenied(DENIED.into()));
            }
            let Some(user) = user else {
                return Err(ServiceError::invalid("user_id", "User ID is required"));
            };
            if users::get(conn, user)?.is_none() {
                return Err(ServiceError::invalid("user_id", "User not found"));
            }
            if !teams::set_admin(conn, id, user, admin)? && !admin {
                return Err(ServiceError::invalid(
                    "user_id",
                    "User is not an admin of this team.",
                ));
            }
            teams::get(conn, &TeamsOf::Everybody, id)?.ok_or(ServiceError::NotFound)
        })
    }
}

/// What `member` names, checked against the team: 400 when missing,
/// unknown, or not allowed on this team.
fn resolve(
    conn: &mut DbConnection,
    subject: &Subject,
    team: &Team,
    member: &Member,
) -> ServiceResult<TeamLink> {
    let missing = |attr: &str| ServiceError::invalid(attr, &format!("Missing {attr} parameter"));
    let scoped = team.fields.defining_project_id.is_some();
    match member {
        Member::Role(id) => {
            let id = id.ok_or_else(|| missing("role_id"))?;
            roles::get_by_ids(conn, &[id])?
                .pop()
                .map(|r| TeamLink::Role(r.id))
                .ok_or_else(|| ServiceError::invalid("role_id", "Role not found."))
        }
        Member::Language(code) => {
            let code = code.clone().ok_or_else(|| missing("language_code"))?;
            languages::get_by_codes(conn, &[code])?
                .pop()
                .map(|l| TeamLink::Language(l.id))
                .ok_or_else(|| ServiceError::invalid("language_code", "Language not found."))
        }
        Member::Project(id) => {
            let id = id.ok_or_else(|| missing("project_id"))?;
            if scoped {
                return Err(ServiceError::invalid(
                    "project_id",
                    "Cannot change projects on a scoped team.",
                ));
            }
            projects::get_by_ids(conn, &[id])?
                .pop()
                .filter(|p| subject.can_view_project(p.as_ref()))
                .map(|p| TeamLink::Project(p.id))
                .ok_or_else(|| ServiceError::invalid("project_id", "Project not found."))
        }
        Member::Component(id) => {
            let id = id.ok_or_else(|| missing("component_id"))?;
            let found = components::get_by_ids(conn, &[id])?.pop().filter(|c| {
                team.fields
                    .defining_project_id
                    .is_none_or(|p| p == c.project_id)
            });
            let visible = match found {
                Some(c) => crate::component_view::views(conn, vec![c])?
                    .pop()
                    .filter(|v| v.visible_to(subject)),
                None => None,
            };
            visible
                .map(|v| TeamLink::Component(v.component.id))
                .ok_or_else(|| ServiceError::invalid("component_id", "Component not found."))
        }
        Member::ComponentList(id) => {
            let id = id.ok_or_else(|| missing("component_list_id"))?;
            if scoped {
                return Err(ServiceError::invalid(
                    "component_list_id",
                    "Cannot change component lists on a scoped team.",
                ));
            }
            tolk_store::component_lists::get_by_ids(conn, &[id])?
                .pop()
                .map(|l| TeamLink::ComponentList(l.id))
                .ok_or_else(|| {
                    ServiceError::invalid("component_list_id", "Component list not found.")
                })
        }
    }
}

impl crate::groups::Groups<'_> {
    /// Puts a user in a team, or takes them out (needs `user.edit`). A
    /// membership may be limited to `languages` (codes): the team's roles
    /// then reach the user in those only; joining again replaces the limit.
    /// A project token's bot keeps at least one team. The user as it is then.
    pub fn set_user_groups(
        &self,
        subject: &Subject,
        username: &str,
        group: Option<i64>,
        languages: &[String],
        member: bool,
    ) -> ServiceResult<crate::users::UserView> {
        self.store.write(|conn| {
            let (user, _) = crate::users::editable_user(conn, subject, username, false)?;
            let group = group
                .ok_or_else(|| ServiceError::invalid("group_id", "Missing group_id parameter"))?;
            let limit = tolk_store::languages::get_by_codes(conn, languages)?;
            let missing: Vec<&str> = languages
                .iter()
                .filter(|code| !limit.iter().any(|l| &l.code == *code))
                .map(String::as_str)
                .collect();
            if !missing.is_empty() {
                return Err(ServiceError::invalid(
                    "limit_language_codes",
                    &format!("Language not found. Missing codes: {}.", missing.join(", ")),
                ));
            }
            if teams::get(conn, &TeamsOf::Everybody, group)?.is_none() {
                return Err(ServiceError::invalid("group_id", "Group not found."));
            }
            let id = user.row.id;
            if !member && user.row.is_bot && teams::count_of_user(conn, id)? <= 1 {
                return Err(ServiceError::invalid(
                    "group_id",
                    "At least one team is required for a project token.",
                ));
            }
            teams::set_member(conn, group, id, member)?;
            if member {
                let ids: Vec<i64> = limit.iter().map(|l| l.id).collect();
                teams::set_member_languages(conn, group, id, &ids)?;
            }
            crate::users::visible_user(conn, subject, username).map(|(view, _)| view)
        })
    }
}
