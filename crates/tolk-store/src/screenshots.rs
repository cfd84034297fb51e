//! Screenshots (§13): images of a translation, kept as files under the
//! data directory (the rows hold their names), linked to source units.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use tolk_domain::permission::ProjectVisibility;

use crate::DbConnection;
use crate::error::{StoreError, StoreResult};
use crate::page::{Page, PageRequest};
use crate::schema::{components, screenshot_units, screenshots, translations};

/// A stored screenshot.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = screenshots)]
pub struct Screenshot {
    /// Primary key.
    pub id: i64,
    /// The translation it shows.
    pub translation_id: i64,
    /// Who uploaded it.
    pub user_id: Option<i64>,
    /// Name.
    pub name: String,
    /// Path in the repository it can be refreshed from.
    pub repository_filename: String,
    /// Name of the image file under the media directory.
    pub image_path: String,
    /// When it was uploaded.
    pub created: NaiveDateTime,
}

/// A screenshot to store.
#[derive(Debug, Clone, PartialEq, Eq, Insertable)]
#[diesel(table_name = screenshots)]
#[allow(missing_docs)]
pub struct NewScreenshot {
    pub translation_id: i64,
    pub user_id: Option<i64>,
    pub name: String,
    pub repository_filename: String,
    pub image_path: String,
    pub created: NaiveDateTime,
}

type Boxed<'a> = screenshots::BoxedQuery<'a, crate::MultiBackend>;

/// Screenshots of visible components, optionally of one component.
fn visible(visibility: &ProjectVisibility, component_id: Option<i64>) -> Boxed<'static> {
    let mut query = screenshots::table.into_boxed();
    if let Some(components) = crate::components::visible_ids(visibility) {
        query = query.filter(
            screenshots::translation_id.eq_any(
                translations::table
                    .filter(translations::component_id.eq_any(components))
                    .select(translations::id),
            ),
        );
    }
    if let Some(id) = component_id {
        query = query.filter(
            screenshots::translation_id.eq_any(
                translations::table
                    .filter(translations::component_id.eq(id))
                    .select(translations::id),
            ),
        );
    }
    query
}

/// Visible screenshots (of one component, when given) by id; `None` for
/// a page past the end.
pub fn list(
    conn: &mut DbConnection,
    visibility: &ProjectVisibility,
    component_id: Option<i64>,
    page: PageRequest,
) -> StoreResult<Option<Page<Screenshot>>> {
    page.run(
        conn,
        |conn| Ok::<_, StoreError>(visible(visibility, component_id).count().get_result(conn)?),
        |conn, offset, limit| {
            Ok(visible(visibility, component_id)
                .order(screenshots::id)
                .offset(offset)
                .limit(limit)
                .select(Screenshot::as_select())
                .load(conn)?)
        },
    )
}

/// The screenshot `id` (the caller checks access).
pub fn get(conn: &mut DbConnection, id: i64) -> StoreResult<Option<Screenshot>> {
    Ok(screenshots::table
        .find(id)
        .select(Screenshot::as_select())
        .first(conn)
        .optional()?)
}

/// Stores a screenshot; its id.
pub fn insert(conn: &mut DbConnection, new: &NewScreenshot) -> StoreResult<i64> {
    Ok(crate::with_backend!(conn, |c| diesel::insert_into(
        screenshots::table
    )
    .values(new)
    .returning(screenshots::id)
    .get_result(c))?)
}

/// Renames a screenshot and sets where the repository holds it; false
/// when it is gone.
pub fn update(
    conn: &mut DbConnection,
    id: i64,
    name: &str,
    repository_filename: &str,
) -> StoreResult<bool> {
    let rows = diesel::update(screenshots::table.find(id))
        .set((
            screenshots::name.eq(name),
            screenshots::repository_filename.eq(repository_filename),
        ))
        .execute(conn)?;
    Ok(rows == 1)
}

/// Points a screenshot at another image file; false when it is gone.
pub fn set_image(conn: &mut DbConnection, id: i64, image_path: &str) -> StoreResult<bool> {
    let rows = diesel::update(screenshots::table.find(id))
        .set(screenshots::image_path.eq(image_path))
        .execute(conn)?;
    Ok(rows == 1)
}

/// Deletes a screenshot; false when there is none.
pub fn delete(conn: &mut DbConnection, id: i64) -> StoreResult<bool> {
    Ok(diesel::delete(screenshots::table.find(id)).execute(conn)? == 1)
}

/// The units of these screenshots as `(screenshot, unit)`, by unit id.
pub fn units_of(conn: &mut DbConnection, ids: &[i64]) -> StoreResult<Vec<(i64, i64)>> {
    Ok(screenshot_units::table
        .filter(screenshot_units::screenshot_id.eq_any(ids.to_vec()))
        .order((screenshot_units::screenshot_id, screenshot_units::unit_id))
        .select((screenshot_units::screenshot_id, screenshot_units::unit_id))
        .load(conn)?)
}

/// The screenshots showing the unit `unit_id` (a source string), by id;
/// one statement.
pub fn of_unit(conn: &mut DbConnection, unit_id: i64) -> StoreResult<Vec<Screenshot>> {
    Ok(screenshots::table
        .filter(
            screenshots::id.eq_any(
                screenshot_units::table
                    .filter(screenshot_units::unit_id.eq(unit_id))
                    .select(screenshot_units::screenshot_id),
            ),
        )
        .order(screenshots::id)
        .select(Screenshot::as_select())
        .load(conn)?)
}

/// Links a unit to a screenshot; false when it was linked.
pub fn add_unit(conn: &mut DbConnection, id: i64, unit_id: i64) -> StoreResult<bool> {
    let rows = crate::with_backend!(conn, |c| diesel::insert_into(screenshot_units::table)
        .values((
            screenshot_units::screenshot_id.eq(id),
            screenshot_units::unit_id.eq(unit_id),
        ))
        .on_conflict_do_nothing()
        .execute(c))?;
    Ok(rows == 1)
}

/// Unlinks a unit from a screenshot; false when it was not linked.
pub fn remove_unit(conn: &mut DbConnection, id: i64, unit_id: i64) -> StoreResult<bool> {
    let rows = diesel::delete(
        screenshot_units::table
            .filter(screenshot_units::screenshot_id.eq(id))
            .filter(screenshot_units::unit_id.eq(unit_id)),
    )
    .execute(conn)?;
    Ok(rows == 1)
}

/// What is removed with its screenshots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    /// A translation.
    Translation(i64),
    /// A component, with its translations.
    Component(i64),
    /// A project, with its components.
    Project(i64),
}

/// The image paths of the screenshots `holder` has (their files are
/// removed once the rows are gone with it).
pub fn images_of(conn: &mut DbConnection, holder: Holder) -> StoreResult<Vec<String>> {
    let query = screenshots::table
        .select(screenshots::image_path)
        .into_boxed();
    let query = match holder {
        Holder::Translation(id) => query.filter(screenshots::translation_id.eq(id)),
        Holder::Component(id) => query.filter(
            screenshots::translation_id.eq_any(
                translations::table
                    .filter(translations::component_id.eq(id))
                    .select(translations::id),
            ),
        ),
        Holder::Project(id) => query.filter(
            screenshots::translation_id.eq_any(
                translations::table
                    .filter(
                        translations::component_id.eq_any(
                            components::table
                                .filter(components::project_id.eq(id))
                                .select(components::id),
                        ),
                    )
                    .select(translations::id),
            ),
        ),
    };
    Ok(query.load(conn)?)
}
