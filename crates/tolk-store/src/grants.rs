//! What a caller's teams grant: read in five statements (six for anonymous
//! callers) whatever the number of teams, roles, projects and components.

use std::collections::BTreeMap;

use diesel::prelude::*;
use tolk_domain::permission::{Grant, Languages, ListedComponent, Permission, Projects};

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::{
    components, role_permissions, team_components, team_languages, team_member_languages,
    team_members, team_projects, team_roles, teams, users,
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

/// The grants of the teams `user_id` belongs to, one per team (teams
/// without roles too: they show their projects), in five statements.
/// Permission codenames this version does not know are left out.
pub fn of_user(conn: &mut DbConnection, user_id: i64) -> StoreResult<Vec<Grant>> {
    // A team per row, or per language its membership is limited to.
    let rows: Vec<(i64, i32, i32, Option<i64>)> = teams::table
        .inner_join(team_members::table)
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
            team_member_languages::language_id.nullable(),
        ))
        .order(teams::id)
        .load(conn)?;
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let mut mine: Vec<(i64, i32, i32)> = Vec::new();
    let mut limits: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for (team, project_selection, language_selection, limit) in rows {
        if mine.last().is_none_or(|last| last.0 != team) {
            mine.push((team, project_selection, language_selection));
        }
        if let Some(language) = limit {
            limits.entry(team).or_default().push(language);
        }
    }
    let codenames: Vec<(i64, String)> = team_roles::table
        .inner_join(role_permissions::table.on(role_permissions::role_id.eq(team_roles::role_id)))
        .filter(team_roles::team_id.eq_any(teams_of(user_id)))
        .select((team_roles::team_id, role_permissions::codename))
        .load(conn)?;
    let projects: Vec<(i64, i64)> = team_projects::table
        .filter(team_projects::team_id.eq_any(teams_of(user_id)))
        .select((team_projects::team_id, team_projects::project_id))
        .load(conn)?;
    let languages: Vec<(i64, i64)> = team_languages::table
        .filter(team_languages::team_id.eq_any(teams_of(user_id)))
        .select((team_languages::team_id, team_languages::language_id))
        .load(conn)?;
    let listed_components: Vec<(i64, i64, i64)> = team_components::table
        .inner_join(components::table.on(components::id.eq(team_components::component_id)))
        .filter(team_components::team_id.eq_any(teams_of(user_id)))
        .select((
            team_components::team_id,
            components::id,
            components::project_id,
        ))
        .load(conn)?;
    let mut permissions: BTreeMap<i64, Vec<Permission>> = BTreeMap::new();
    for (team, codename) in codenames {
        let known = permissions.entry(team).or_default();
        if let Some(permission) = Permission::from_codename(&codename)
            && !known.contains(&permission)
        {
            known.push(permission);
        }
    }
    Ok(mine
        .into_iter()
        .map(|(team, project_selection, language_selection)| Grant {
            permissions: permissions.remove(&team).unwrap_or_default(),
            projects: Projects::from_selection(project_selection, listed(&projects, team)),
            components: listed_components
                .iter()
                .filter(|(t, _, _)| *t == team)
                .map(|(_, id, project)| ListedComponent {
                    id: *id,
                    project: *project,
                })
                .collect(),
            languages: {
                let languages =
                    Languages::from_selection(language_selection, listed(&languages, team));
                match limits.get(&team) {
                    Some(limit) => languages.limited_to(limit),
                    None => languages,
                }
            },
        })
        .collect())
}
