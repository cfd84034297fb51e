//! The teams and roles every site starts with (Weblate's built-in ones),
//! the teams each project gets by its access level, and the teams a new
//! account joins.

use std::collections::HashMap;

use diesel::prelude::*;
use tolk_domain::permission::AccessControl;
use tolk_domain::teams::{SELECTION_MANUAL, SITE_TEAMS, builtin_roles, project_teams};
use tolk_domain::user::ANONYMOUS_USERNAME;

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::{
    role_permissions, roles, team_members, team_projects, team_roles, teams, users,
};
use crate::teams::{add_members, insert_team};

/// Every role's id, by name.
fn role_ids(conn: &mut DbConnection) -> StoreResult<HashMap<String, i64>> {
    Ok(roles::table
        .select((roles::name, roles::id))
        .load::<(String, i64)>(conn)?
        .into_iter()
        .collect())
}

/// Creates the built-in roles that do not exist and gives the built-in
/// roles the permissions they lack (a release may add some); permissions
/// added by the site's administrators stay.
pub fn ensure_builtin_roles(conn: &mut DbConnection) -> StoreResult<()> {
    let builtin = builtin_roles();
    let mut ids = role_ids(conn)?;
    let missing: Vec<_> = builtin
        .iter()
        .filter(|r| !ids.contains_key(r.name))
        .map(|r| roles::name.eq(r.name))
        .collect();
    if !missing.is_empty() {
        crate::with_backend!(conn, |c| diesel::insert_into(roles::table)
            .values(&missing)
            .execute(c))?;
        ids = role_ids(conn)?;
    }
    let builtin_ids: Vec<i64> = builtin.iter().map(|r| ids[r.name]).collect();
    let held: Vec<(i64, String)> = role_permissions::table
        .filter(role_permissions::role_id.eq_any(&builtin_ids))
        .select((role_permissions::role_id, role_permissions::codename))
        .load(conn)?;
    let lacking: Vec<_> = builtin
        .iter()
        .flat_map(|r| r.permissions.iter().map(|p| (ids[r.name], p.codename())))
        .filter(|(id, code)| !held.iter().any(|(h, c)| h == id && c == code))
        .map(|(id, code)| {
            (
                role_permissions::role_id.eq(id),
                role_permissions::codename.eq(code),
            )
        })
        .collect();
    if !lacking.is_empty() {
        crate::with_backend!(conn, |c| diesel::insert_into(role_permissions::table)
            .values(&lacking)
            .execute(c))?;
    }
    Ok(())
}

/// Creates the built-in site-wide teams that do not exist, with their
/// roles and members (the anonymous account, every user who is not a bot).
pub fn ensure_site_teams(conn: &mut DbConnection) -> StoreResult<()> {
    let existing: Vec<String> = teams::table
        .filter(teams::defining_project_id.is_null())
        .select(teams::name)
        .load(conn)?;
    let roles = role_ids(conn)?;
    for team in SITE_TEAMS
        .iter()
        .filter(|t| !existing.iter().any(|e| e == t.name))
    {
        let id = insert_team(conn, team.name, None, team.project_selection)?;
        let links: Vec<_> = team
            .roles
            .iter()
            .map(|role| {
                (
                    team_roles::team_id.eq(id),
                    team_roles::role_id.eq(roles[*role]),
                )
            })
            .collect();
        if !links.is_empty() {
            crate::with_backend!(conn, |c| diesel::insert_into(team_roles::table)
                .values(&links)
                .execute(c))?;
        }
        let mut members = users::table.select(users::id).into_boxed();
        members = match (team.members.anonymous(), team.members.users()) {
            (false, false) => continue,
            (true, false) => members.filter(users::username.eq(ANONYMOUS_USERNAME)),
            (false, true) => members
                .filter(users::username.ne(ANONYMOUS_USERNAME))
                .filter(users::is_bot.eq(false)),
            (true, true) => members.filter(
                users::username
                    .eq(ANONYMOUS_USERNAME)
                    .or(users::is_bot.eq(false)),
            ),
        };
        let ids: Vec<i64> = members.load(conn)?;
        add_members(conn, id, &ids, false)?;
    }
    Ok(())
}

/// Puts a new user in the built-in teams every user joins.
pub fn join_default_teams(conn: &mut DbConnection, user_id: i64) -> StoreResult<()> {
    let names: Vec<&str> = SITE_TEAMS
        .iter()
        .filter(|t| t.members.users())
        .map(|t| t.name)
        .collect();
    let ids: Vec<i64> = teams::table
        .filter(teams::defining_project_id.is_null())
        .filter(teams::name.eq_any(names))
        .select(teams::id)
        .load(conn)?;
    let rows: Vec<_> = ids
        .iter()
        .map(|team| {
            (
                team_members::team_id.eq(*team),
                team_members::user_id.eq(user_id),
            )
        })
        .collect();
    if !rows.is_empty() {
        crate::with_backend!(conn, |c| diesel::insert_into(team_members::table)
            .values(&rows)
            .execute(c))?;
    }
    Ok(())
}

/// Creates the teams a project with this access level needs and lacks
/// (each listing the project, with its role); `admin`, when given, joins
/// the `Administration` team as its admin.
pub fn ensure_project_teams(
    conn: &mut DbConnection,
    project_id: i64,
    access: AccessControl,
    admin: Option<i64>,
) -> StoreResult<()> {
    let existing: Vec<(String, i64)> = teams::table
        .filter(teams::defining_project_id.eq(project_id))
        .select((teams::name, teams::id))
        .load(conn)?;
    let roles = role_ids(conn)?;
    let mut made = Vec::new();
    for (name, role) in project_teams(access) {
        if existing.iter().any(|(e, _)| e == name) {
            continue;
        }
        let Some(role) = roles.get(*role) else {
            continue;
        };
        let id = insert_team(conn, name, Some(project_id), SELECTION_MANUAL)?;
        made.push((id, *role));
    }
    if !made.is_empty() {
        let links: Vec<_> = made
            .iter()
            .map(|(team, role)| (team_roles::team_id.eq(*team), team_roles::role_id.eq(*role)))
            .collect();
        crate::with_backend!(conn, |c| diesel::insert_into(team_roles::table)
            .values(&links)
            .execute(c))?;
        let listed: Vec<_> = made
            .iter()
            .map(|(team, _)| {
                (
                    team_projects::team_id.eq(*team),
                    team_projects::project_id.eq(project_id),
                )
            })
            .collect();
        crate::with_backend!(conn, |c| diesel::insert_into(team_projects::table)
            .values(&listed)
            .execute(c))?;
    }
    if let Some(user) = admin {
        let administration = existing
            .iter()
            .find(|(name, _)| name == "Administration")
            .map(|(_, id)| *id)
            .or_else(|| made.first().map(|(id, _)| *id));
        if let Some(team) = administration {
            add_members(conn, team, &[user], true)?;
        }
    }
    Ok(())
}
