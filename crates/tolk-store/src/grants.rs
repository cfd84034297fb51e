//! What a caller's teams grant: read in six statements (seven for anonymous
//! callers) whatever the number of teams, roles, projects and components.

use std::collections::BTreeMap;

use diesel::prelude::*;
use tolk_domain::permission::{Grant, Languages, ListedComponent, Permission, Projects};

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::{
    component_list_components, components, role_permissions, team_component_lists, team_components,
    team_languages, team_member_languages, team_members, team_projects, team_roles, teams, users,
};
use tolk_domain::user::ANONYMOUS_USERNAME;

/// The pairs `(team, id)` of one of a team's lists, for `team`.
fn listed(pairs: &[(i64, i64)], team: i64) -> Vec<i64> {
    pairs
        .iter()
        .filter(|(t, _)| *t == team)
        .map(|(_, id)| *id)
        .collect()
}

/// The ids of the teams `user_id` belongs to, as a subquery: every
/// statement below filters by it, so their text never changes and each is
/// prepared once per connection (a list of ids would make new text for
/// every caller).
fn teams_of(user_id: i64) -> TeamsOf {
    team_members::table
        .filter(team_members::user_id.eq(user_id))
        .select(team_members::team_id)
}

/// The subquery [`teams_of`] builds.
type TeamsOf = diesel::dsl::Select<
    diesel::dsl::Filter<team_members::table, diesel::dsl::Eq<team_members::user_id, i64>>,
    team_members::team_id,
>;

/// The grants of the teams of the account standing for anonymous callers.
pub fn of_anonymous(conn: &mut DbConnection) -> StoreResult<Vec<Grant>> {
    let account: Option<i64> = users::table
        .filter(users::username.eq(ANONYMOUS_USERNAME))
        .select(users::id)
        .first(conn)
        .optional()?;
    match account {
        Some(id) => of_user(conn, id),
        None => Ok(Vec::new()),
    }
}

/// One of a user's memberships: the team's selections, its roles, and the
/// languages the membership is limited to (none: no limit).
struct Membership {
    team: i64,
    project_selection: i32,
    language_selection: i32,
    roles: Vec<i64>,
    limit: Vec<i64>,
}

/// Team, its project and language selections, one of its roles, one
/// language the membership is limited to.
type MembershipRow = (i64, i32, i32, Option<i64>, Option<i64>);

/// The teams `user_id` belongs to, with their roles and language limits,
/// in one statement.
fn memberships(conn: &mut DbConnection, user_id: i64) -> StoreResult<Vec<Membership>> {
    // A row per team, role and limiting language (few of each).
    let rows: Vec<MembershipRow> = teams::table
        .inner_join(team_members::table)
        .left_join(team_roles::table.on(team_roles::team_id.eq(teams::id)))
        .left_join(
            team_member_languages::table.on(team_member_languages::team_id
                .eq(team_members::team_id)
                .and(team_member_languages::user_id.eq(team_members::user_id))),
        )
        .filter(team_members::user_id.eq(user_id))
        .select((
            teams::id,
            teams::project_selection,
            teams::language_selection,
            team_roles::role_id.nullable(),
            team_member_languages::language_id.nullable(),
        ))
        .order(teams::id)
        .load(conn)?;
    let mut found: Vec<Membership> = Vec::new();
    for (team, project_selection, language_selection, role, language) in rows {
        if found.last().is_none_or(|last| last.team != team) {
            found.push(Membership {
                team,
                project_selection,
                language_selection,
                roles: Vec::new(),
                limit: Vec::new(),
            });
        }
        if let Some(last) = found.last_mut() {
            for (list, id) in [(&mut last.roles, role), (&mut last.limit, language)] {
                if let Some(id) = id.filter(|id| !list.contains(id)) {
                    list.push(id);
                }
            }
        }
    }
    Ok(found)
}

/// The permissions of each role of `user_id`'s teams, each role once, in
/// one statement. Codenames this version does not know are left out.
fn role_permissions_of(
    conn: &mut DbConnection,
    user_id: i64,
) -> StoreResult<BTreeMap<i64, Vec<Permission>>> {
    let roles = team_roles::table
        .filter(team_roles::team_id.eq_any(teams_of(user_id)))
        .select(team_roles::role_id);
    let codenames: Vec<(i64, String)> = role_permissions::table
        .filter(role_permissions::role_id.eq_any(roles))
        .select((role_permissions::role_id, role_permissions::codename))
        .load(conn)?;
    let mut permissions: BTreeMap<i64, Vec<Permission>> = BTreeMap::new();
    for (role, codename) in codenames {
        if let Some(permission) = Permission::from_codename(&codename) {
            permissions.entry(role).or_default().push(permission);
        }
    }
    Ok(permissions)
}

/// The grants of the teams `user_id` belongs to, one per team (teams
/// without roles too: they show their projects), in six statements.
pub fn of_user(conn: &mut DbConnection, user_id: i64) -> StoreResult<Vec<Grant>> {
    let mine = memberships(conn, user_id)?;
    if mine.is_empty() {
        return Ok(Vec::new());
    }
    let permissions = role_permissions_of(conn, user_id)?;
    let projects: Vec<(i64, i64)> = team_projects::table
        .filter(team_projects::team_id.eq_any(teams_of(user_id)))
        .select((team_projects::team_id, team_projects::project_id))
        .load(conn)?;
    let languages: Vec<(i64, i64)> = team_languages::table
        .filter(team_languages::team_id.eq_any(teams_of(user_id)))
        .select((team_languages::team_id, team_languages::language_id))
        .load(conn)?;
    // A team lists components itself and through its component lists.
    let through_lists = team_component_lists::table
        .inner_join(
            component_list_components::table.on(component_list_components::component_list_id
                .eq(team_component_lists::component_list_id)),
        )
        .inner_join(
            components::table.on(components::id.eq(component_list_components::component_id)),
        )
        .filter(team_component_lists::team_id.eq_any(teams_of(user_id)))
        .select((
            team_component_lists::team_id,
            components::id,
            components::project_id,
        ));
    let mut listed_components: Vec<(i64, i64, i64)> = team_components::table
        .inner_join(components::table.on(components::id.eq(team_components::component_id)))
        .filter(team_components::team_id.eq_any(teams_of(user_id)))
        .select((
            team_components::team_id,
            components::id,
            components::project_id,
        ))
        .load(conn)?;
    listed_components.extend(through_lists.load::<(i64, i64, i64)>(conn)?);
    Ok(mine
        .into_iter()
        .map(|membership| {
            let team = membership.team;
            let mut held: Vec<Permission> = Vec::new();
            for role in &membership.roles {
                for permission in permissions.get(role).into_iter().flatten() {
                    if !held.contains(permission) {
                        held.push(*permission);
                    }
                }
            }
            let languages =
                Languages::from_selection(membership.language_selection, listed(&languages, team));
            Grant {
                permissions: held,
                projects: Projects::from_selection(
                    membership.project_selection,
                    listed(&projects, team),
                ),
                components: listed_components
                    .iter()
                    .filter(|(t, _, _)| *t == team)
                    .map(|(_, id, project)| ListedComponent {
                        id: *id,
                        project: *project,
                    })
                    .collect(),
                languages: if membership.limit.is_empty() {
                    languages
                } else {
                    languages.limited_to(&membership.limit)
                },
            }
        })
        .collect())
}
