//! Categories (§16): a project's nested folders of components. Each row
//! keeps its path of slugs from the project down, which this module
//! rewrites below a category that is renamed or moved.

use diesel::prelude::*;
use tolk_domain::category::CategorySettings;
use tolk_domain::permission::ProjectVisibility;

use crate::DbConnection;
use crate::error::{StoreError, StoreResult};
use crate::page::{Page, PageRequest};
use crate::schema::{categories, components};
use crate::sql::lower;

/// A stored category.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Category {
    /// Primary key.
    pub id: i64,
    /// Owning project.
    pub project_id: i64,
    /// Parent category, if any.
    pub parent_id: Option<i64>,
    /// Slugs from the project down to this one, joined by `/`.
    pub path: String,
    /// Its settings, name and slug among them.
    pub settings: CategorySettings,
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = categories)]
struct Row {
    id: i64,
    project_id: i64,
    parent_id: Option<i64>,
    name: String,
    slug: String,
    path: String,
    settings: String,
}

impl Row {
    fn into_category(self) -> StoreResult<Category> {
        let mut settings: CategorySettings = serde_json::from_str(&self.settings)
            .map_err(|_| StoreError::Corrupt("categories.settings"))?;
        settings.name = self.name;
        settings.slug = self.slug;
        Ok(Category {
            id: self.id,
            project_id: self.project_id,
            parent_id: self.parent_id,
            path: self.path,
            settings,
        })
    }
}

fn load(
    conn: &mut DbConnection,
    query: categories::BoxedQuery<'_, crate::MultiBackend>,
) -> StoreResult<Vec<Category>> {
    query
        .select(Row::as_select())
        .load::<Row>(conn)?
        .into_iter()
        .map(Row::into_category)
        .collect()
}

fn document(settings: &CategorySettings) -> StoreResult<String> {
    serde_json::to_string(settings).map_err(|_| StoreError::Corrupt("categories.settings"))
}

/// Categories of visible projects (of one project, when given) by id;
/// `None` for a page past the end.
pub fn list(
    conn: &mut DbConnection,
    visibility: &ProjectVisibility,
    project_id: Option<i64>,
    page: PageRequest,
) -> StoreResult<Option<Page<Category>>> {
    let visible = || {
        let mut query = categories::table.into_boxed();
        if let Some(projects) = crate::projects::visible_ids(visibility) {
            query = query.filter(categories::project_id.eq_any(projects));
        }
        if let Some(id) = project_id {
            query = query.filter(categories::project_id.eq(id));
        }
        query
    };
    page.run(
        conn,
        |conn| Ok::<_, StoreError>(visible().count().get_result(conn)?),
        |conn, offset, limit| {
            load(
                conn,
                visible().order(categories::id).offset(offset).limit(limit),
            )
        },
    )
}

/// The categories with these ids, by id (the caller checks access).
pub fn get_by_ids(conn: &mut DbConnection, ids: &[i64]) -> StoreResult<Vec<Category>> {
    load(
        conn,
        categories::table
            .filter(categories::id.eq_any(ids.to_vec()))
            .order(categories::id)
            .into_boxed(),
    )
}

/// Every category of these projects, by id (a project keeps few).
pub fn of_projects(conn: &mut DbConnection, project_ids: &[i64]) -> StoreResult<Vec<Category>> {
    load(
        conn,
        categories::table
            .filter(categories::project_id.eq_any(project_ids.to_vec()))
            .order(categories::id)
            .into_boxed(),
    )
}

/// What a category row is given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed<'a> {
    /// Owning project.
    pub project_id: i64,
    /// Parent category.
    pub parent_id: Option<i64>,
    /// Its path (the parent's path and its slug).
    pub path: &'a str,
    /// Its settings.
    pub settings: &'a CategorySettings,
}

/// Stores a category; its id.
pub fn insert(conn: &mut DbConnection, new: &Placed<'_>) -> StoreResult<i64> {
    let values = (
        categories::project_id.eq(new.project_id),
        categories::parent_id.eq(new.parent_id),
        categories::name.eq(&new.settings.name),
        categories::slug.eq(&new.settings.slug),
        categories::path.eq(new.path),
        categories::settings.eq(document(new.settings)?),
    );
    Ok(crate::with_backend!(conn, |c| diesel::insert_into(
        categories::table
    )
    .values(&values)
    .returning(categories::id)
    .get_result(c))?)
}

/// Rewrites a category (its project stays); false when it is gone.
pub fn update(conn: &mut DbConnection, id: i64, placed: &Placed<'_>) -> StoreResult<bool> {
    let rows = diesel::update(categories::table.find(id))
        .set((
            categories::parent_id.eq(placed.parent_id),
            categories::name.eq(&placed.settings.name),
            categories::slug.eq(&placed.settings.slug),
            categories::path.eq(placed.path),
            categories::settings.eq(document(placed.settings)?),
        ))
        .execute(conn)?;
    Ok(rows == 1)
}

/// Rewrites the paths of a project's categories under the path `old` to
/// lie under `new`.
pub fn repath(conn: &mut DbConnection, project_id: i64, old: &str, new: &str) -> StoreResult<()> {
    crate::sql::repath(conn, "categories", project_id, old, new)?;
    Ok(())
}

/// Deletes a category with what it holds; false when there is none.
pub fn delete(conn: &mut DbConnection, id: i64) -> StoreResult<bool> {
    Ok(diesel::delete(categories::table.find(id)).execute(conn)? == 1)
}

/// The categories of a project with this parent (or none).
fn siblings(
    project_id: i64,
    parent_id: Option<i64>,
) -> categories::BoxedQuery<'static, crate::MultiBackend> {
    let query = categories::table
        .filter(categories::project_id.eq(project_id))
        .into_boxed();
    match parent_id {
        Some(id) => query.filter(categories::parent_id.eq(id)),
        None => query.filter(categories::parent_id.is_null()),
    }
}

/// Whether a category with this parent (or none) has the slug `slug`,
/// whatever its case: a component placed there cannot take it.
pub fn slug_taken(
    conn: &mut DbConnection,
    project_id: i64,
    parent_id: Option<i64>,
    slug: &str,
) -> StoreResult<bool> {
    let found: i64 = siblings(project_id, parent_id)
        .filter(lower(categories::slug).eq(lower(slug.to_owned())))
        .count()
        .get_result(conn)?;
    Ok(found > 0)
}

/// Which of `name` and `slug` a sibling (a category with the same parent,
/// or for `slug` also a component there) uses, whatever their case.
pub fn taken(
    conn: &mut DbConnection,
    project_id: i64,
    parent_id: Option<i64>,
    (name, slug): (&str, &str),
    except_id: Option<i64>,
) -> StoreResult<(bool, bool)> {
    let clashes: Vec<(bool, bool)> = siblings(project_id, parent_id)
        .filter(categories::id.ne(except_id.unwrap_or(0)))
        .filter(
            lower(categories::name)
                .eq(lower(name.to_owned()))
                .or(lower(categories::slug).eq(lower(slug.to_owned()))),
        )
        .select((
            lower(categories::name).eq(lower(name.to_owned())),
            lower(categories::slug).eq(lower(slug.to_owned())),
        ))
        .load(conn)?;
    let mut components = components::table
        .filter(components::project_id.eq(project_id))
        .filter(lower(components::slug).eq(lower(slug.to_owned())))
        .into_boxed();
    components = match parent_id {
        Some(id) => components.filter(components::category_id.eq(id)),
        None => components.filter(components::category_id.is_null()),
    };
    let component_clash: i64 = components.count().get_result(conn)?;
    Ok((
        clashes.iter().any(|(name, _)| *name),
        clashes.iter().any(|(_, slug)| *slug) || component_clash > 0,
    ))
}
