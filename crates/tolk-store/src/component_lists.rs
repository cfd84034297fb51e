//! Component lists (§15): named sets of components, filled by hand or by
//! rules matching project and component slugs, and granted to teams.

use diesel::prelude::*;
use tolk_domain::component_list::AutoAssignRule;

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::{
    component_list_components, component_list_rules, component_lists, components, projects,
    team_component_lists,
};

/// A stored component list.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = component_lists)]
pub struct ComponentList {
    /// Primary key.
    pub id: i64,
    /// Name, unique.
    pub name: String,
    /// Slug in URLs, unique.
    pub slug: String,
    /// Offered as a dashboard view.
    pub show_dashboard: bool,
}

/// What a list is given on create and update.
#[derive(Debug, Clone, PartialEq, Eq, Insertable, AsChangeset)]
#[diesel(table_name = component_lists)]
#[allow(missing_docs)]
pub struct ListFields {
    pub name: String,
    pub slug: String,
    pub show_dashboard: bool,
}

/// Every list, by id (lists are few: a site keeps tens).
pub fn all(conn: &mut DbConnection) -> StoreResult<Vec<ComponentList>> {
    Ok(component_lists::table
        .order(component_lists::id)
        .select(ComponentList::as_select())
        .load(conn)?)
}

/// The list with this slug.
pub fn get_by_slug(conn: &mut DbConnection, slug: &str) -> StoreResult<Option<ComponentList>> {
    Ok(component_lists::table
        .filter(component_lists::slug.eq(slug.to_owned()))
        .select(ComponentList::as_select())
        .first(conn)
        .optional()?)
}

/// The lists with these ids, by id.
pub fn get_by_ids(conn: &mut DbConnection, ids: &[i64]) -> StoreResult<Vec<ComponentList>> {
    Ok(component_lists::table
        .filter(component_lists::id.eq_any(ids.to_vec()))
        .order(component_lists::id)
        .select(ComponentList::as_select())
        .load(conn)?)
}

/// Which of `name` and `slug` another list uses.
pub fn taken(
    conn: &mut DbConnection,
    name: &str,
    slug: &str,
    except_id: Option<i64>,
) -> StoreResult<(bool, bool)> {
    let clashes: Vec<(String, String)> = component_lists::table
        .filter(
            component_lists::name
                .eq(name.to_owned())
                .or(component_lists::slug.eq(slug.to_owned())),
        )
        .filter(component_lists::id.ne(except_id.unwrap_or(0)))
        .select((component_lists::name, component_lists::slug))
        .load(conn)?;
    Ok((
        clashes.iter().any(|(n, _)| n == name),
        clashes.iter().any(|(_, s)| s == slug),
    ))
}

/// Stores a list; its id. A name or slug in use is a unique violation.
pub fn insert(conn: &mut DbConnection, fields: &ListFields) -> StoreResult<i64> {
    Ok(crate::with_backend!(conn, |c| diesel::insert_into(
        component_lists::table
    )
    .values(fields)
    .returning(component_lists::id)
    .get_result(c))?)
}

/// Replaces a list's fields; false when it is gone.
pub fn update(conn: &mut DbConnection, id: i64, fields: &ListFields) -> StoreResult<bool> {
    let rows = diesel::update(component_lists::table.find(id))
        .set(fields)
        .execute(conn)?;
    Ok(rows == 1)
}

/// Deletes a list; false when there is none.
pub fn delete(conn: &mut DbConnection, id: i64) -> StoreResult<bool> {
    Ok(diesel::delete(component_lists::table.find(id)).execute(conn)? == 1)
}

/// The components of these lists as `(list, component)`, by list then component.
pub fn members(conn: &mut DbConnection, list_ids: &[i64]) -> StoreResult<Vec<(i64, i64)>> {
    Ok(component_list_components::table
        .filter(component_list_components::component_list_id.eq_any(list_ids.to_vec()))
        .order((
            component_list_components::component_list_id,
            component_list_components::component_id,
        ))
        .select((
            component_list_components::component_list_id,
            component_list_components::component_id,
        ))
        .load(conn)?)
}

/// Puts components in a list; those there already stay once.
pub fn add(conn: &mut DbConnection, list_id: i64, component_ids: &[i64]) -> StoreResult<()> {
    if component_ids.is_empty() {
        return Ok(());
    }
    let present: Vec<i64> = component_list_components::table
        .filter(component_list_components::component_list_id.eq(list_id))
        .filter(component_list_components::component_id.eq_any(component_ids.to_vec()))
        .select(component_list_components::component_id)
        .load(conn)?;
    let mut rows = Vec::new();
    for id in component_ids {
        if !present.contains(id) && !rows.iter().any(|(_, c)| c == id) {
            rows.push((list_id, *id));
        }
    }
    let values: Vec<_> = rows
        .into_iter()
        .map(|(list, component)| {
            (
                component_list_components::component_list_id.eq(list),
                component_list_components::component_id.eq(component),
            )
        })
        .collect();
    if !values.is_empty() {
        crate::with_backend!(conn, |c| diesel::insert_into(
            component_list_components::table
        )
        .values(&values)
        .execute(c))?;
    }
    Ok(())
}

/// Takes a component out of a list; false when it was not in it.
pub fn remove(conn: &mut DbConnection, list_id: i64, component_id: i64) -> StoreResult<bool> {
    let rows = diesel::delete(
        component_list_components::table
            .filter(component_list_components::component_list_id.eq(list_id))
            .filter(component_list_components::component_id.eq(component_id)),
    )
    .execute(conn)?;
    Ok(rows == 1)
}

/// The rules of these lists (of every list: `None`) as `(list, rule)`,
/// in the order they were given.
pub fn rules(
    conn: &mut DbConnection,
    list_ids: Option<&[i64]>,
) -> StoreResult<Vec<(i64, AutoAssignRule)>> {
    let mut query = component_list_rules::table
        .order(component_list_rules::id)
        .into_boxed();
    if let Some(ids) = list_ids {
        query = query.filter(component_list_rules::component_list_id.eq_any(ids.to_vec()));
    }
    let rows: Vec<(i64, String, String)> = query
        .select((
            component_list_rules::component_list_id,
            component_list_rules::project_match,
            component_list_rules::component_match,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(list, project_match, component_match)| {
            (
                list,
                AutoAssignRule {
                    project_match,
                    component_match,
                },
            )
        })
        .collect())
}

/// Replaces a list's rules.
pub fn set_rules(
    conn: &mut DbConnection,
    list_id: i64,
    rules: &[AutoAssignRule],
) -> StoreResult<()> {
    diesel::delete(
        component_list_rules::table.filter(component_list_rules::component_list_id.eq(list_id)),
    )
    .execute(conn)?;
    let values: Vec<_> = rules
        .iter()
        .map(|rule| {
            (
                component_list_rules::component_list_id.eq(list_id),
                component_list_rules::project_match.eq(rule.project_match.clone()),
                component_list_rules::component_match.eq(rule.component_match.clone()),
            )
        })
        .collect();
    if !values.is_empty() {
        crate::with_backend!(conn, |c| diesel::insert_into(component_list_rules::table)
            .values(&values)
            .execute(c))?;
    }
    Ok(())
}

/// Every component as `(id, project slug, component slug)`, the names
/// rules match against (one statement; `only` limits it to some ids).
pub fn slugs(
    conn: &mut DbConnection,
    only: Option<&[i64]>,
) -> StoreResult<Vec<(i64, String, String)>> {
    let mut query = components::table
        .inner_join(projects::table)
        .select((components::id, projects::slug, components::slug))
        .order(components::id)
        .into_boxed();
    if let Some(ids) = only {
        query = query.filter(components::id.eq_any(ids.to_vec()));
    }
    Ok(query.load(conn)?)
}

/// The lists granted to these teams as `(team, list)`.
pub fn of_teams(conn: &mut DbConnection, team_ids: &[i64]) -> StoreResult<Vec<(i64, i64)>> {
    Ok(team_component_lists::table
        .filter(team_component_lists::team_id.eq_any(team_ids.to_vec()))
        .order((
            team_component_lists::team_id,
            team_component_lists::component_list_id,
        ))
        .select((
            team_component_lists::team_id,
            team_component_lists::component_list_id,
        ))
        .load(conn)?)
}
