//! Roles: named sets of permission codenames.

use diesel::prelude::*;
use tolk_domain::permission::Permission;

use crate::DbConnection;
use crate::error::{StoreError, StoreResult};
use crate::page::{Page, PageRequest};
use crate::schema::{role_permissions, roles, team_members, team_roles};

/// A stored role.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Role {
    /// Primary key.
    pub id: i64,
    /// Its name, unique.
    pub name: String,
    /// Its permissions, in Weblate's order.
    pub permissions: Vec<Permission>,
}

/// Whose roles a list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RolesOf {
    /// Every role.
    Everybody,
    /// The roles of this user's teams.
    User(i64),
}

type Boxed<'a> = roles::BoxedQuery<'a, crate::MultiBackend>;

fn of(whose: RolesOf) -> Boxed<'static> {
    let query = roles::table.into_boxed();
    match whose {
        RolesOf::Everybody => query,
        RolesOf::User(id) => query.filter(
            roles::id.eq_any(
                team_roles::table
                    .filter(
                        team_roles::team_id.eq_any(
                            team_members::table
                                .filter(team_members::user_id.eq(id))
                                .select(team_members::team_id),
                        ),
                    )
                    .select(team_roles::role_id),
            ),
        ),
    }
}

/// Rows with their permissions, read in one more statement.
fn with_permissions(conn: &mut DbConnection, rows: Vec<(i64, String)>) -> StoreResult<Vec<Role>> {
    let ids: Vec<i64> = rows.iter().map(|r| r.0).collect();
    let held: Vec<(i64, String)> = role_permissions::table
        .filter(role_permissions::role_id.eq_any(&ids))
        .select((role_permissions::role_id, role_permissions::codename))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, name)| {
            let codes: Vec<&str> = held
                .iter()
                .filter(|(role, _)| *role == id)
                .map(|(_, code)| code.as_str())
                .collect();
            Role {
                id,
                name,
                permissions: Permission::ALL
                    .iter()
                    .copied()
                    .filter(|p| codes.contains(&p.codename()))
                    .collect(),
            }
        })
        .collect())
}

/// Lists roles by id; `None` for a page past the end.
pub fn list(
    conn: &mut DbConnection,
    whose: RolesOf,
    page: PageRequest,
) -> StoreResult<Option<Page<Role>>> {
    page.run(
        conn,
        |conn| Ok::<_, StoreError>(of(whose).count().get_result(conn)?),
        |conn, offset, limit| {
            let rows = of(whose)
                .order(roles::id)
                .offset(offset)
                .limit(limit)
                .select((roles::id, roles::name))
                .load(conn)?;
            with_permissions(conn, rows)
        },
    )
}

/// The role `id` if `whose` may see it.
pub fn get(conn: &mut DbConnection, whose: RolesOf, id: i64) -> StoreResult<Option<Role>> {
    let rows = of(whose)
        .filter(roles::id.eq(id))
        .select((roles::id, roles::name))
        .load(conn)?;
    Ok(with_permissions(conn, rows)?.pop())
}

/// Roles by id, in any order; unknown ids are left out.
pub fn get_by_ids(conn: &mut DbConnection, ids: &[i64]) -> StoreResult<Vec<Role>> {
    let rows = roles::table
        .filter(roles::id.eq_any(ids))
        .select((roles::id, roles::name))
        .load(conn)?;
    with_permissions(conn, rows)
}

/// True when another role than `except` has this name.
pub fn name_taken(conn: &mut DbConnection, name: &str, except: Option<i64>) -> StoreResult<bool> {
    let mut query = roles::table.filter(roles::name.eq(name)).into_boxed();
    if let Some(id) = except {
        query = query.filter(roles::id.ne(id));
    }
    Ok(query.count().get_result::<i64>(conn)? > 0)
}

/// Gives a role permissions it does not hold yet.
fn grant(conn: &mut DbConnection, id: i64, permissions: &[Permission]) -> StoreResult<()> {
    let held: Vec<String> = role_permissions::table
        .filter(role_permissions::role_id.eq(id))
        .select(role_permissions::codename)
        .load(conn)?;
    let rows: Vec<_> = permissions
        .iter()
        .filter(|p| !held.iter().any(|h| h == p.codename()))
        .map(|p| {
            (
                role_permissions::role_id.eq(id),
                role_permissions::codename.eq(p.codename()),
            )
        })
        .collect();
    if !rows.is_empty() {
        crate::with_backend!(conn, |c| diesel::insert_into(role_permissions::table)
            .values(&rows)
            .execute(c))?;
    }
    Ok(())
}

/// Creates a role; its id.
pub fn insert(conn: &mut DbConnection, name: &str, permissions: &[Permission]) -> StoreResult<i64> {
    let id: i64 = crate::with_backend!(conn, |c| diesel::insert_into(roles::table)
        .values(roles::name.eq(name))
        .returning(roles::id)
        .get_result(c))?;
    grant(conn, id, permissions)?;
    Ok(id)
}

/// Renames a role and gives it `permissions`: only those when `replace`,
/// else besides its own. False when the role is gone.
pub fn update(
    conn: &mut DbConnection,
    id: i64,
    name: &str,
    permissions: &[Permission],
    replace: bool,
) -> StoreResult<bool> {
    let renamed = diesel::update(roles::table.filter(roles::id.eq(id)))
        .set(roles::name.eq(name))
        .execute(conn)?;
    if renamed == 0 {
        return Ok(false);
    }
    if replace {
        let codes: Vec<&str> = permissions.iter().map(|p| p.codename()).collect();
        diesel::delete(
            role_permissions::table
                .filter(role_permissions::role_id.eq(id))
                .filter(role_permissions::codename.ne_all(codes)),
        )
        .execute(conn)?;
    }
    grant(conn, id, permissions)?;
    Ok(true)
}

/// Removes a role; false when it was gone.
pub fn delete(conn: &mut DbConnection, id: i64) -> StoreResult<bool> {
    Ok(diesel::delete(roles::table.filter(roles::id.eq(id))).execute(conn)? > 0)
}
