//! Teams: listing, making, changing and removing them, what they list
//! (roles, projects, languages, component lists) and their members. The
//! built-in teams and roles are made in `builtin_teams`.

use std::collections::HashMap;

use diesel::prelude::*;
use tolk_domain::permission::ProjectVisibility;

use crate::DbConnection;
use crate::error::{StoreError, StoreResult};
use crate::page::{Page, PageRequest};
use crate::schema::{team_member_languages, team_members, team_projects, team_roles, teams, users};

/// Inserts a team; its id.
pub(crate) fn insert_team(
    conn: &mut DbConnection,
    name: &str,
    project: Option<i64>,
    project_selection: i32,
) -> StoreResult<i64> {
    let values = (
        teams::name.eq(name),
        teams::defining_project_id.eq(project),
        teams::project_selection.eq(project_selection),
        teams::language_selection.eq(1),
        teams::internal.eq(true),
    );
    Ok(crate::with_backend!(conn, |c| diesel::insert_into(
        teams::table
    )
    .values(&values)
    .returning(teams::id)
    .get_result(c))?)
}

/// Adds members to a team (none already in it).
pub(crate) fn add_members(
    conn: &mut DbConnection,
    team: i64,
    users: &[i64],
    admin: bool,
) -> StoreResult<()> {
    if users.is_empty() {
        return Ok(());
    }
    let rows: Vec<_> = users
        .iter()
        .map(|user| {
            (
                team_members::team_id.eq(team),
                team_members::user_id.eq(*user),
                team_members::is_admin.eq(admin),
            )
        })
        .collect();
    crate::with_backend!(conn, |c| diesel::insert_into(team_members::table)
        .values(&rows)
        .on_conflict_do_nothing()
        .execute(c))?;
    Ok(())
}

/// A stored team with what it lists, as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Team {
    /// Primary key.
    pub id: i64,
    /// Its editable fields.
    pub fields: TeamFields,
    /// Built in (site-wide defaults and per-project teams): its name,
    /// selections and project cannot change.
    pub internal: bool,
    /// Slug of the project it belongs to.
    pub defining_project: Option<String>,
    /// Ids of its roles.
    pub roles: Vec<i64>,
    /// Codes of its languages.
    pub languages: Vec<String>,
    /// Slugs of its projects.
    pub projects: Vec<String>,
    /// Its components, as project and component slugs.
    pub components: Vec<(String, String)>,
    /// Slugs of its component lists.
    pub component_lists: Vec<String>,
    /// Usernames of its admins.
    pub admins: Vec<String>,
}

/// What a request may set on a team.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamFields {
    /// Name.
    pub name: String,
    /// Id of the project it belongs to.
    pub defining_project_id: Option<i64>,
    /// `project_selection`.
    pub project_selection: i32,
    /// `language_selection`.
    pub language_selection: i32,
    /// Members need two-factor authentication.
    pub enforced_2fa: bool,
}

/// Which teams a caller sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TeamsOf {
    /// Every team.
    Everybody,
    /// The teams `user` is in, and those of the projects `managed` covers.
    Some {
        /// The caller's account.
        user: i64,
        /// Projects whose teams the caller manages.
        managed: ProjectVisibility,
    },
}

type Boxed<'a> = teams::BoxedQuery<'a, crate::MultiBackend>;

fn seen(whose: &TeamsOf) -> Boxed<'static> {
    let query = teams::table.into_boxed();
    let TeamsOf::Some { user, managed } = whose else {
        return query;
    };
    let mine = teams::id.eq_any(
        team_members::table
            .filter(team_members::user_id.eq(*user))
            .select(team_members::team_id),
    );
    match crate::projects::visible_ids(managed) {
        None => query.filter(mine.or(teams::defining_project_id.is_not_null())),
        Some(projects) => query.filter(
            mine.or(teams::defining_project_id
                .assume_not_null()
                .eq_any(projects)),
        ),
    }
}

type TeamRow = (i64, String, Option<i64>, i32, i32, bool, bool);

/// Rows with their lists: seven statements for any number of teams.
fn with_lists(conn: &mut DbConnection, rows: Vec<TeamRow>) -> StoreResult<Vec<Team>> {
    use crate::schema::{components, languages, projects};
    let ids: Vec<i64> = rows.iter().map(|r| r.0).collect();
    let defining: Vec<i64> = rows.iter().filter_map(|r| r.2).collect();
    let slugs: Vec<(i64, String)> = projects::table
        .filter(projects::id.eq_any(&defining))
        .select((projects::id, projects::slug))
        .load(conn)?;
    let roles: Vec<(i64, i64)> = team_roles::table
        .filter(team_roles::team_id.eq_any(&ids))
        .select((team_roles::team_id, team_roles::role_id))
        .order(team_roles::role_id)
        .load(conn)?;
    let codes: Vec<(i64, String)> = crate::schema::team_languages::table
        .inner_join(languages::table)
        .filter(crate::schema::team_languages::team_id.eq_any(&ids))
        .select((crate::schema::team_languages::team_id, languages::code))
        .order(languages::code)
        .load(conn)?;
    let listed: Vec<(i64, String)> = team_projects::table
        .inner_join(projects::table)
        .filter(team_projects::team_id.eq_any(&ids))
        .select((team_projects::team_id, projects::slug))
        .order(projects::id)
        .load(conn)?;
    let parts: Vec<(i64, String, String)> = crate::schema::team_components::table
        .inner_join(components::table.inner_join(projects::table))
        .filter(crate::schema::team_components::team_id.eq_any(&ids))
        .select((
            crate::schema::team_components::team_id,
            projects::slug,
            components::path,
        ))
        .order(components::id)
        .load(conn)?;
    let lists: Vec<(i64, String)> = crate::schema::team_component_lists::table
        .inner_join(crate::schema::component_lists::table)
        .filter(crate::schema::team_component_lists::team_id.eq_any(&ids))
        .select((
            crate::schema::team_component_lists::team_id,
            crate::schema::component_lists::slug,
        ))
        .order(crate::schema::component_lists::id)
        .load(conn)?;
    let admins: Vec<(i64, String)> = team_members::table
        .inner_join(users::table)
        .filter(team_members::team_id.eq_any(&ids))
        .filter(team_members::is_admin.eq(true))
        .select((team_members::team_id, users::username))
        .order(users::id)
        .load(conn)?;
    fn of<T: Clone>(pairs: &[(i64, T)], team: i64) -> Vec<T> {
        pairs
            .iter()
            .filter(|(t, _)| *t == team)
            .map(|(_, v)| v.clone())
            .collect()
    }
    Ok(rows
        .into_iter()
        .map(
            |(
                id,
                name,
                defining,
                project_selection,
                language_selection,
                enforced_2fa,
                internal,
            )| {
                Team {
                    id,
                    internal,
                    defining_project: defining
                        .and_then(|p| slugs.iter().find(|(i, _)| *i == p))
                        .map(|(_, slug)| slug.clone()),
                    roles: of(&roles, id),
                    languages: of(&codes, id),
                    projects: of(&listed, id),
                    components: parts
                        .iter()
                        .filter(|(t, _, _)| *t == id)
                        .map(|(_, p, c)| (p.clone(), c.clone()))
                        .collect(),
                    component_lists: of(&lists, id),
                    admins: of(&admins, id),
                    fields: TeamFields {
                        name,
                        defining_project_id: defining,
                        project_selection,
                        language_selection,
                        enforced_2fa,
                    },
                }
            },
        )
        .collect())
}

const COLUMNS: (
    teams::id,
    teams::name,
    teams::defining_project_id,
    teams::project_selection,
    teams::language_selection,
    teams::enforced_2fa,
    teams::internal,
) = (
    teams::id,
    teams::name,
    teams::defining_project_id,
    teams::project_selection,
    teams::language_selection,
    teams::enforced_2fa,
    teams::internal,
);

/// Lists the teams `whose` sees, by id; `None` for a page past the end.
pub fn list(
    conn: &mut DbConnection,
    whose: &TeamsOf,
    page: PageRequest,
) -> StoreResult<Option<Page<Team>>> {
    page.run(
        conn,
        |conn| Ok::<_, StoreError>(seen(whose).count().get_result(conn)?),
        |conn, offset, limit| {
            let rows = seen(whose)
                .order(teams::id)
                .offset(offset)
                .limit(limit)
                .select(COLUMNS)
                .load(conn)?;
            with_lists(conn, rows)
        },
    )
}

/// The team `id`, if `whose` sees it.
pub fn get(conn: &mut DbConnection, whose: &TeamsOf, id: i64) -> StoreResult<Option<Team>> {
    let rows = seen(whose)
        .filter(teams::id.eq(id))
        .select(COLUMNS)
        .load(conn)?;
    Ok(with_lists(conn, rows)?.pop())
}

/// True when another team than `except` of the same project (or site-wide)
/// has this name.
pub fn name_taken(
    conn: &mut DbConnection,
    fields: &TeamFields,
    except: Option<i64>,
) -> StoreResult<bool> {
    let mut query = teams::table
        .filter(teams::name.eq(fields.name.clone()))
        .into_boxed();
    query = match fields.defining_project_id {
        Some(project) => query.filter(teams::defining_project_id.eq(project)),
        None => query.filter(teams::defining_project_id.is_null()),
    };
    if let Some(id) = except {
        query = query.filter(teams::id.ne(id));
    }
    Ok(query.count().get_result::<i64>(conn)? > 0)
}

/// Creates a team (listing its defining project); its id.
pub fn insert(conn: &mut DbConnection, fields: &TeamFields) -> StoreResult<i64> {
    let id = insert_team(
        conn,
        &fields.name,
        fields.defining_project_id,
        fields.project_selection,
    )?;
    diesel::update(teams::table.filter(teams::id.eq(id)))
        .set((
            teams::language_selection.eq(fields.language_selection),
            teams::enforced_2fa.eq(fields.enforced_2fa),
            teams::internal.eq(false),
        ))
        .execute(conn)?;
    if let Some(project) = fields.defining_project_id {
        link(conn, id, TeamLink::Project(project))?;
    }
    Ok(id)
}

/// Writes a team's fields; false when it is gone.
pub fn update(conn: &mut DbConnection, id: i64, fields: &TeamFields) -> StoreResult<bool> {
    Ok(diesel::update(teams::table.filter(teams::id.eq(id)))
        .set((
            teams::name.eq(&fields.name),
            teams::project_selection.eq(fields.project_selection),
            teams::language_selection.eq(fields.language_selection),
            teams::enforced_2fa.eq(fields.enforced_2fa),
        ))
        .execute(conn)?
        > 0)
}

/// Removes a team; false when it was gone.
pub fn delete(conn: &mut DbConnection, id: i64) -> StoreResult<bool> {
    Ok(diesel::delete(teams::table.filter(teams::id.eq(id))).execute(conn)? > 0)
}

/// Something a team lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TeamLink {
    /// A role, by id.
    Role(i64),
    /// A language, by id.
    Language(i64),
    /// A project, by id.
    Project(i64),
    /// A component, by id.
    Component(i64),
    /// A component list, by id.
    ComponentList(i64),
}

/// Adds `what` to a team's list; false when it was there.
pub fn link(conn: &mut DbConnection, team: i64, what: TeamLink) -> StoreResult<bool> {
    use crate::schema::{team_component_lists as tcl, team_components as tc, team_languages as tl};
    // `ON CONFLICT DO NOTHING`: a concurrent link of the same entry is no
    // error (a probe first would race on PostgreSQL).
    let inserted = match what {
        TeamLink::Role(id) => {
            crate::with_backend!(conn, |c| diesel::insert_into(team_roles::table)
                .values((team_roles::team_id.eq(team), team_roles::role_id.eq(id)))
                .on_conflict_do_nothing()
                .execute(c))?
        }
        TeamLink::Language(id) => crate::with_backend!(conn, |c| diesel::insert_into(tl::table)
            .values((tl::team_id.eq(team), tl::language_id.eq(id)))
            .on_conflict_do_nothing()
            .execute(c))?,
        TeamLink::Project(id) => {
            crate::with_backend!(conn, |c| diesel::insert_into(team_projects::table)
                .values((
                    team_projects::team_id.eq(team),
                    team_projects::project_id.eq(id),
                ))
                .on_conflict_do_nothing()
                .execute(c))?
        }
        TeamLink::Component(id) => crate::with_backend!(conn, |c| diesel::insert_into(tc::table)
            .values((tc::team_id.eq(team), tc::component_id.eq(id)))
            .on_conflict_do_nothing()
            .execute(c))?,
        TeamLink::ComponentList(id) => {
            crate::with_backend!(conn, |c| diesel::insert_into(tcl::table)
                .values((tcl::team_id.eq(team), tcl::component_list_id.eq(id)))
                .on_conflict_do_nothing()
                .execute(c))?
        }
    };
    Ok(inserted > 0)
}

/// Removes `what` from a team's list; false when it was not there.
pub fn unlink(conn: &mut DbConnection, team: i64, what: TeamLink) -> StoreResult<bool> {
    use crate::schema::{team_component_lists as tcl, team_components as tc, team_languages as tl};
    macro_rules! remove {
        ($table:ident, $team:expr, $column:expr, $id:expr) => {
            diesel::delete($table::table.filter($team.eq(team)).filter($column.eq($id)))
                .execute(conn)?
        };
    }
    let removed = match what {
        TeamLink::Role(id) => remove!(team_roles, team_roles::team_id, team_roles::role_id, id),
        TeamLink::Language(id) => remove!(tl, tl::team_id, tl::language_id, id),
        TeamLink::Project(id) => remove!(
            team_projects,
            team_projects::team_id,
            team_projects::project_id,
            id
        ),
        TeamLink::Component(id) => remove!(tc, tc::team_id, tc::component_id, id),
        TeamLink::ComponentList(id) => remove!(tcl, tcl::team_id, tcl::component_list_id, id),
    };
    Ok(removed > 0)
}

/// Makes `user` an admin of a team (joining it if needed), or no longer
/// one; false when nothing changed.
pub fn set_admin(conn: &mut DbConnection, team: i64, user: i64, admin: bool) -> StoreResult<bool> {
    let membership = team_members::table
        .filter(team_members::team_id.eq(team))
        .filter(team_members::user_id.eq(user));
    let current: Option<bool> = membership
        .select(team_members::is_admin)
        .first(conn)
        .optional()?;
    match (current, admin) {
        (Some(was), _) if was == admin => Ok(false),
        (Some(_), _) => {
            diesel::update(membership)
                .set(team_members::is_admin.eq(admin))
                .execute(conn)?;
            Ok(true)
        }
        (None, true) => {
            add_members(conn, team, &[user], true)?;
            Ok(true)
        }
        (None, false) => Ok(false),
    }
}

/// True when `user` is an admin of the team.
pub fn is_admin(conn: &mut DbConnection, team: i64, user: i64) -> StoreResult<bool> {
    Ok(diesel::select(diesel::dsl::exists(
        team_members::table
            .filter(team_members::team_id.eq(team))
            .filter(team_members::user_id.eq(user))
            .filter(team_members::is_admin.eq(true)),
    ))
    .get_result(conn)?)
}

/// The teams of each of these users, by user id (one statement).
pub fn of_users(conn: &mut DbConnection, user_ids: &[i64]) -> StoreResult<HashMap<i64, Vec<i64>>> {
    let pairs: Vec<(i64, i64)> = team_members::table
        .filter(team_members::user_id.eq_any(user_ids))
        .select((team_members::user_id, team_members::team_id))
        .order(team_members::team_id)
        .load(conn)?;
    let mut teams: HashMap<i64, Vec<i64>> = HashMap::new();
    for (user, team) in pairs {
        teams.entry(user).or_default().push(team);
    }
    Ok(teams)
}

/// Puts `user` in a team (nothing happens when already in it, even when
/// two requests race), or takes them out.
pub fn set_member(conn: &mut DbConnection, team: i64, user: i64, member: bool) -> StoreResult<()> {
    if member {
        return add_members(conn, team, &[user], false);
    }
    diesel::delete(
        team_members::table
            .filter(team_members::team_id.eq(team))
            .filter(team_members::user_id.eq(user)),
    )
    .execute(conn)?;
    Ok(())
}

/// Limits a user's membership of a team to these languages (none: every
/// language the team has).
pub fn set_member_languages(
    conn: &mut DbConnection,
    team: i64,
    user: i64,
    languages: &[i64],
) -> StoreResult<()> {
    diesel::delete(
        team_member_languages::table
            .filter(team_member_languages::team_id.eq(team))
            .filter(team_member_languages::user_id.eq(user)),
    )
    .execute(conn)?;
    let rows: Vec<_> = languages
        .iter()
        .map(|language| {
            (
                team_member_languages::team_id.eq(team),
                team_member_languages::user_id.eq(user),
                team_member_languages::language_id.eq(*language),
            )
        })
        .collect();
    if !rows.is_empty() {
        crate::with_backend!(conn, |c| diesel::insert_into(team_member_languages::table)
            .values(&rows)
            .execute(c))?;
    }
    Ok(())
}

/// How many teams a user is in.
pub fn count_of_user(conn: &mut DbConnection, user: i64) -> StoreResult<i64> {
    Ok(team_members::table
        .filter(team_members::user_id.eq(user))
        .count()
        .get_result(conn)?)
}

/// The teams of a project: id and name, by id.
pub fn of_project(conn: &mut DbConnection, project_id: i64) -> StoreResult<Vec<(i64, String)>> {
    Ok(teams::table
        .filter(teams::defining_project_id.eq(project_id))
        .order(teams::id)
        .select((teams::id, teams::name))
        .load(conn)?)
}
