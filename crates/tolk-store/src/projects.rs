//! Projects.

use std::collections::HashSet;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use tolk_domain::permission::{AccessControl, ProjectRef, ProjectVisibility};
use tolk_domain::project::ProjectSettings;
use tolk_domain::workflow::Workflows;

use crate::DbConnection;
use crate::error::{StoreError, StoreResult};
use crate::page::{Page, PageRequest};
use crate::schema::{component_links, components, projects};
use crate::sql::lower;

/// A stored project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// Primary key.
    pub id: i64,
    /// Every setting.
    pub settings: ProjectSettings,
    /// The workflow settings of its languages.
    pub workflows: Workflows,
    /// When it was created.
    pub created: NaiveDateTime,
}

impl Project {
    /// The project's access level.
    pub fn access(&self) -> AccessControl {
        self.settings.access()
    }

    /// The project as the access check sees it.
    pub fn as_ref(&self) -> ProjectRef {
        ProjectRef {
            id: self.id,
            access: self.access(),
        }
    }
}

/// The columns of a project row: the settings the database searches,
/// joins or keeps unique, and the whole settings document.
#[derive(Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = projects)]
#[diesel(treat_none_as_null = true)]
struct ProjectColumns {
    name: String,
    slug: String,
    access_control: i32,
    secondary_language_id: Option<i64>,
    settings: String,
}

impl ProjectColumns {
    fn from_settings(s: &ProjectSettings) -> StoreResult<Self> {
        Ok(Self {
            name: s.name.clone(),
            slug: s.slug.clone(),
            access_control: s.access_control,
            secondary_language_id: s.secondary_language,
            settings: serde_json::to_string(s)
                .map_err(|_| StoreError::Corrupt("projects.settings"))?,
        })
    }

    /// The settings document, with the columns' values (which are what
    /// the database checks) over the document's.
    fn into_settings(self) -> StoreResult<ProjectSettings> {
        let mut settings: ProjectSettings = serde_json::from_str(&self.settings)
            .map_err(|_| StoreError::Corrupt("projects.settings"))?;
        settings.name = self.name;
        settings.slug = self.slug;
        settings.access_control = self.access_control;
        settings.secondary_language = self.secondary_language_id;
        Ok(settings)
    }
}

type Row = (i64, ProjectColumns, NaiveDateTime, String);

fn columns() -> (
    projects::id,
    diesel::dsl::AsSelect<ProjectColumns, crate::MultiBackend>,
    projects::created,
    projects::workflows,
) {
    (
        projects::id,
        ProjectColumns::as_select(),
        projects::created,
        projects::workflows,
    )
}

fn into_project((id, columns, created, workflows): Row) -> StoreResult<Project> {
    Ok(Project {
        id,
        settings: columns.into_settings()?,
        workflows: serde_json::from_str(&workflows)
            .map_err(|_| StoreError::Corrupt("projects.workflows"))?,
        created,
    })
}

type BoxedProjects<'a> = projects::BoxedQuery<'a, crate::MultiBackend>;

/// The condition "this project is visible with `visibility`", on the
/// projects table; `None` when every project is. The one place the
/// visibility rule becomes SQL: an open access level, or granted by a team.
pub(crate) fn visible_condition(visibility: &ProjectVisibility) -> Option<Visible> {
    match visibility {
        ProjectVisibility::All => None,
        ProjectVisibility::Some {
            levels,
            projects: granted,
            ..
        } => {
            let codes: Vec<i32> = levels.iter().map(|l| l.code()).collect();
            Some(
                projects::access_control
                    .eq_any(codes)
                    .or(projects::id.eq_any(granted.clone())),
            )
        }
    }
}

/// The condition [`visible_condition`] builds.
pub(crate) type Visible = diesel::dsl::Or<
    diesel::dsl::EqAny<projects::access_control, Vec<i32>>,
    diesel::dsl::EqAny<projects::id, Vec<i64>>,
>;

/// The subquery [`visible_ids`] builds.
pub(crate) type VisibleIds =
    diesel::dsl::Select<diesel::dsl::Filter<projects::table, Visible>, projects::id>;

/// The ids of the visible projects, as a subquery for filtering other
/// tables (a query already reading `projects` uses the condition itself).
pub(crate) fn visible_ids(visibility: &ProjectVisibility) -> Option<VisibleIds> {
    visible_condition(visibility)
        .map(|visible| projects::table.filter(visible).select(projects::id))
}

/// Projects visible with `visibility`.
pub(crate) fn visible(visibility: &ProjectVisibility) -> BoxedProjects<'static> {
    let query = projects::table.into_boxed();
    match visible_condition(visibility) {
        None => query,
        Some(visible) => query.filter(visible),
    }
}

/// Lists visible projects by id; `None` for a page past the end.
pub fn list(
    conn: &mut DbConnection,
    visibility: &ProjectVisibility,
    page: PageRequest,
) -> StoreResult<Option<Page<Project>>> {
    paged(conn, page, || visible(visibility))
}

/// The page `page` of the projects `query` finds, by id.
fn paged<'a>(
    conn: &mut DbConnection,
    page: PageRequest,
    query: impl Fn() -> BoxedProjects<'a>,
) -> StoreResult<Option<Page<Project>>> {
    page.run(
        conn,
        |conn| Ok::<_, crate::StoreError>(query().count().get_result(conn)?),
        |conn, offset, limit| {
            // The page's ids are picked first, so that only ids are sorted
            // (SQLite would otherwise sort every visible row, settings and
            // all, when the filter uses an index).
            let ids: Vec<i64> = query()
                .order(projects::id)
                .offset(offset)
                .limit(limit)
                .select(projects::id)
                .load(conn)?;
            projects::table
                .filter(projects::id.eq_any(ids))
                .order(projects::id)
                .select(columns())
                .load::<Row>(conn)?
                .into_iter()
                .map(into_project)
                .collect()
        },
    )
}

/// Lists, by id, the visible projects `component_id` is shared into
/// (`links/`); `None` for a page past the end.
pub fn linked_to(
    conn: &mut DbConnection,
    visibility: &ProjectVisibility,
    component_id: i64,
    page: PageRequest,
) -> StoreResult<Option<Page<Project>>> {
    paged(conn, page, || {
        visible(visibility).filter(
            projects::id.eq_any(
                component_links::table
                    .filter(component_links::component_id.eq(component_id))
                    .select(component_links::project_id),
            ),
        )
    })
}

/// Shares `component_id` into `project_id`; false when it already was
/// (a concurrent insert of the same link is a unique violation).
pub fn link(conn: &mut DbConnection, component_id: i64, project_id: i64) -> StoreResult<bool> {
    let exists = diesel::select(diesel::dsl::exists(
        component_links::table
            .filter(component_links::component_id.eq(component_id))
            .filter(component_links::project_id.eq(project_id)),
    ))
    .get_result::<bool>(conn)?;
    if exists {
        return Ok(false);
    }
    diesel::insert_into(component_links::table)
        .values((
            component_links::component_id.eq(component_id),
            component_links::project_id.eq(project_id),
        ))
        .execute(conn)?;
    Ok(true)
}

/// Stops sharing `component_id` into `project_id`; false when it was not.
pub fn unlink(conn: &mut DbConnection, component_id: i64, project_id: i64) -> StoreResult<bool> {
    let removed = diesel::delete(
        component_links::table
            .filter(component_links::component_id.eq(component_id))
            .filter(component_links::project_id.eq(project_id)),
    )
    .execute(conn)?;
    Ok(removed > 0)
}

/// Finds a project by slug (any visibility; the caller checks access).
pub fn get_by_slug(conn: &mut DbConnection, slug: &str) -> StoreResult<Option<Project>> {
    projects::table
        .filter(projects::slug.eq(slug))
        .select(columns())
        .first::<Row>(conn)
        .optional()?
        .map(into_project)
        .transpose()
}

/// Finds projects by slug, in any order; unknown slugs are left out.
pub fn get_by_slugs(conn: &mut DbConnection, slugs: &[String]) -> StoreResult<Vec<Project>> {
    projects::table
        .filter(projects::slug.eq_any(slugs))
        .select(columns())
        .load::<Row>(conn)?
        .into_iter()
        .map(into_project)
        .collect()
}

/// Finds projects by id, in any order.
pub fn get_by_ids(conn: &mut DbConnection, ids: &[i64]) -> StoreResult<Vec<Project>> {
    projects::table
        .filter(projects::id.eq_any(ids))
        .select(columns())
        .load::<Row>(conn)?
        .into_iter()
        .map(into_project)
        .collect()
}

/// Which of `name` and `slug` another project already uses, whatever their case.
pub fn taken(
    conn: &mut DbConnection,
    name: &str,
    slug: &str,
    except_id: Option<i64>,
) -> StoreResult<(bool, bool)> {
    let mut query = projects::table
        .filter(
            lower(projects::name)
                .eq(lower(name.to_owned()))
                .or(lower(projects::slug).eq(lower(slug.to_owned()))),
        )
        .select((
            lower(projects::name).eq(lower(name.to_owned())),
            lower(projects::slug).eq(lower(slug.to_owned())),
        ))
        .into_boxed();
    if let Some(id) = except_id {
        query = query.filter(projects::id.ne(id));
    }
    let clashes: Vec<(bool, bool)> = query.load(conn)?;
    Ok((
        clashes.iter().any(|(name, _)| *name),
        clashes.iter().any(|(_, slug)| *slug),
    ))
}

/// Inserts a project; returns it.
pub fn insert(
    conn: &mut DbConnection,
    settings: &ProjectSettings,
    created: NaiveDateTime,
) -> StoreResult<Project> {
    let values = (
        ProjectColumns::from_settings(settings)?,
        projects::created.eq(created),
    );
    let id: i64 = crate::with_backend!(conn, |c| diesel::insert_into(projects::table)
        .values(&values)
        .returning(projects::id)
        .get_result(c))?;
    Ok(Project {
        id,
        settings: settings.clone(),
        workflows: Workflows::default(),
        created,
    })
}

/// Replaces a project's settings; false when the project is gone. The
/// updated row stays locked until the transaction ends, so a concurrent
/// delete waits for it.
pub fn update(conn: &mut DbConnection, id: i64, settings: &ProjectSettings) -> StoreResult<bool> {
    let rows = diesel::update(projects::table.find(id))
        .set(ProjectColumns::from_settings(settings)?)
        .execute(conn)?;
    Ok(rows == 1)
}

/// The workflow settings of a project, its row locked until the
/// transaction ends (PostgreSQL; SQLite's writers queue anyway), so that
/// a change made from them replaces nothing another made meanwhile;
/// `None` when the project is gone.
pub fn workflows_for_update(conn: &mut DbConnection, id: i64) -> StoreResult<Option<Workflows>> {
    let query = projects::table.find(id).select(projects::workflows);
    let text: Option<String> = match conn {
        DbConnection::Pg(c) => query.for_update().first(c).optional()?,
        DbConnection::Sqlite(c) => query.first(c).optional()?,
    };
    text.map(|t| serde_json::from_str(&t).map_err(|_| StoreError::Corrupt("projects.workflows")))
        .transpose()
}

/// Replaces the workflow settings of a project's languages; false when
/// the project is gone.
pub fn set_workflows(conn: &mut DbConnection, id: i64, workflows: &Workflows) -> StoreResult<bool> {
    let text =
        serde_json::to_string(workflows).map_err(|_| StoreError::Corrupt("projects.workflows"))?;
    let rows = diesel::update(projects::table.find(id))
        .set(projects::workflows.eq(text))
        .execute(conn)?;
    Ok(rows == 1)
}

/// Deletes a project and everything it holds; false when another
/// transaction deleted it first.
pub fn delete(conn: &mut DbConnection, id: i64) -> StoreResult<bool> {
    use crate::kept_stats::{self, Move, Translations};
    kept_stats::record(conn, Translations::OfProject(id), Move::Gone)?;
    kept_stats::forget_project(conn, id)?;
    Ok(diesel::delete(projects::table.find(id)).execute(conn)? == 1)
}

/// Of the given projects, those that have components and all of them locked.
pub fn locked(conn: &mut DbConnection, ids: &[i64]) -> StoreResult<HashSet<i64>> {
    let rows: Vec<(i64, bool)> = components::table
        .filter(components::project_id.eq_any(ids))
        .select((components::project_id, components::locked))
        .load(conn)?;
    let unlocked: HashSet<i64> = rows.iter().filter(|(_, l)| !l).map(|(p, _)| *p).collect();
    Ok(rows
        .into_iter()
        .map(|(p, _)| p)
        .filter(|p| !unlocked.contains(p))
        .collect())
}
