//! What a user's teams grant: read in three statements whatever the
//! number of teams, roles and projects.

use std::collections::BTreeMap;

use diesel::prelude::*;
use tolk_domain::permission::{Grant, Languages, Permission, Projects};

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::{
    role_permissions, team_languages, team_members, team_projects, team_roles, teams,
};

/// The grants of the teams `user_id` belongs to, one per team. Permission
/// codenames this version does not know are left out.
pub fn of_user(conn: &mut DbConnection, user_id: i64) -> StoreResult<Vec<Grant>> {
    let mine = team_members::table
        .filter(team_members::user_id.eq(user_id))
        .select(team_members::team_id);
    let rows: Vec<(i64, i32, i32, String)> = teams::table
        .inner_join(team_roles::table)
        .inner_join(role_permissions::table.on(role_permissions::role_id.eq(team_roles::role_id)))
        .filter(teams::id.eq_any(mine))
        .select((
            teams::id,
            teams::project_selection,
            teams::language_selection,
            role_permissions::codename,
        ))
        .load(conn)?;
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let mut team_ids: Vec<i64> = rows.iter().map(|r| r.0).collect();
    team_ids.dedup();
    let projects: Vec<(i64, i64)> = team_projects::table
        .filter(team_projects::team_id.eq_any(&team_ids))
        .select((team_projects::team_id, team_projects::project_id))
        .load(conn)?;
    let languages: Vec<(i64, i64)> = team_languages::table
        .filter(team_languages::team_id.eq_any(&team_ids))
        .select((team_languages::team_id, team_languages::language_id))
        .load(conn)?;
    let listed = |pairs: &[(i64, i64)], team: i64| -> Vec<i64> {
        pairs
            .iter()
            .filter(|(t, _)| *t == team)
            .map(|(_, id)| *id)
            .collect()
    };
    let mut by_team: BTreeMap<i64, (i32, i32, Vec<Permission>)> = BTreeMap::new();
    for (team, project_selection, language_selection, codename) in rows {
        let entry =
            by_team
                .entry(team)
                .or_insert((project_selection, language_selection, Vec::new()));
        entry.2.extend(Permission::from_codename(&codename));
    }
    Ok(by_team
        .into_iter()
        .map(
            |(team, (project_selection, language_selection, permissions))| Grant {
                permissions,
                projects: Projects::from_selection(project_selection, listed(&projects, team)),
                languages: Languages::from_selection(language_selection, listed(&languages, team)),
            },
        )
        .collect())
}
