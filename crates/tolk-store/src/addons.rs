//! Installed add-ons (§14): on a component, or on a project for all of
//! its components, each with its configuration as a JSON document.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use tolk_domain::permission::ProjectVisibility;

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::addons;

/// A stored add-on.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = addons)]
pub struct Addon {
    /// Primary key.
    pub id: i64,
    /// The add-on's id (§29.12).
    pub name: String,
    /// The project it is installed on (not set for a component's).
    pub project_id: Option<i64>,
    /// The component it is installed on.
    pub component_id: Option<i64>,
    /// Its configuration, a JSON object.
    pub configuration: String,
    /// When it was installed.
    pub created: NaiveDateTime,
}

/// An add-on to install.
#[derive(Debug, Clone, PartialEq, Eq, Insertable)]
#[diesel(table_name = addons)]
#[allow(missing_docs)]
pub struct NewAddon {
    pub name: String,
    pub project_id: Option<i64>,
    pub component_id: Option<i64>,
    pub configuration: String,
    pub created: NaiveDateTime,
}

/// The add-ons of visible projects and of their visible components, by
/// id (the caller filters them by who may manage them).
pub fn visible(conn: &mut DbConnection, visibility: &ProjectVisibility) -> StoreResult<Vec<Addon>> {
    let mut query = addons::table.into_boxed();
    if let (Some(projects), Some(components)) = (
        crate::projects::visible_ids(visibility),
        crate::components::visible_ids(visibility),
    ) {
        query = query.filter(
            // A NULL place compares as unknown: that side does not match.
            addons::project_id
                .assume_not_null()
                .eq_any(projects)
                .or(addons::component_id.assume_not_null().eq_any(components)),
        );
    }
    Ok(query
        .order(addons::id)
        .select(Addon::as_select())
        .load(conn)?)
}

/// The add-on `id` (the caller checks access).
pub fn get(conn: &mut DbConnection, id: i64) -> StoreResult<Option<Addon>> {
    Ok(addons::table
        .find(id)
        .select(Addon::as_select())
        .first(conn)
        .optional()?)
}

/// The add-ons acting on a component: its own and its project's, by id.
pub fn acting_on(
    conn: &mut DbConnection,
    project_id: i64,
    component_id: i64,
) -> StoreResult<Vec<Addon>> {
    Ok(addons::table
        .filter(
            addons::component_id
                .eq(component_id)
                .or(addons::project_id.eq(project_id)),
        )
        .order(addons::id)
        .select(Addon::as_select())
        .load(conn)?)
}

/// The ids of the add-ons installed on each of these components, as
/// (component, add-on) pairs by add-on id.
pub fn of_components(conn: &mut DbConnection, ids: &[i64]) -> StoreResult<Vec<(i64, i64)>> {
    let found: Vec<(Option<i64>, i64)> = addons::table
        .filter(addons::component_id.eq_any(ids))
        .order(addons::id)
        .select((addons::component_id, addons::id))
        .load(conn)?;
    Ok(found
        .into_iter()
        .filter_map(|(component, id)| Some((component?, id)))
        .collect())
}

/// Installs an add-on; its id. Fails with a unique violation when the
/// same add-on is already installed in the same place.
pub fn insert(conn: &mut DbConnection, new: &NewAddon) -> StoreResult<i64> {
    Ok(crate::with_backend!(conn, |c| diesel::insert_into(
        addons::table
    )
    .values(new)
    .returning(addons::id)
    .get_result(c))?)
}

/// Replaces an add-on's configuration; false when it is gone.
pub fn configure(conn: &mut DbConnection, id: i64, configuration: &str) -> StoreResult<bool> {
    Ok(diesel::update(addons::table.find(id))
        .set(addons::configuration.eq(configuration))
        .execute(conn)?
        > 0)
}

/// Uninstalls an add-on; false when it is gone.
pub fn delete(conn: &mut DbConnection, id: i64) -> StoreResult<bool> {
    Ok(diesel::delete(addons::table.find(id)).execute(conn)? > 0)
}
