//! Components.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use tolk_domain::component::ComponentSettings;
use tolk_domain::permission::ProjectVisibility;

use crate::DbConnection;
use crate::error::{StoreError, StoreResult};
use crate::page::{Page, PageRequest};
use crate::schema::components;
use crate::sql::lower;

/// A stored component.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Component {
    /// Primary key.
    pub id: i64,
    /// Owning project.
    pub project_id: i64,
    /// Category, if any.
    pub category_id: Option<i64>,
    /// Its categories' slugs and its own, joined by `/`: the name API
    /// URLs give it (its slug when in no category).
    pub path: String,
    /// Source language.
    pub source_language_id: i64,
    /// The component whose repository this one shares.
    pub linked_component_id: Option<i64>,
    /// Edits and uploads are refused.
    pub locked: bool,
    /// The background task working on the component, if one is.
    pub task_id: Option<String>,
    /// Every setting.
    pub settings: ComponentSettings,
    /// When it was created.
    pub created: NaiveDateTime,
}

/// The columns a component's settings fill: what the database searches,
/// joins or keeps unique, and the whole document.
#[derive(Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = components)]
struct SettingsColumns {
    name: String,
    slug: String,
    vcs: String,
    repo: String,
    branch: String,
    restricted: bool,
    settings: String,
}

impl SettingsColumns {
    fn from_settings(s: &ComponentSettings) -> StoreResult<Self> {
        Ok(Self {
            name: s.name.clone(),
            slug: s.slug.clone(),
            vcs: s.vcs.clone(),
            repo: s.repo.clone(),
            branch: s.branch.clone(),
            restricted: s.restricted,
            settings: serde_json::to_string(s)
                .map_err(|_| StoreError::Corrupt("components.settings"))?,
        })
    }

    fn into_settings(self) -> StoreResult<ComponentSettings> {
        let mut settings: ComponentSettings = serde_json::from_str(&self.settings)
            .map_err(|_| StoreError::Corrupt("components.settings"))?;
        settings.name = self.name;
        settings.slug = self.slug;
        settings.vcs = self.vcs;
        settings.repo = self.repo;
        settings.branch = self.branch;
        settings.restricted = self.restricted;
        Ok(settings)
    }
}

/// The references of a component row.
#[derive(Queryable, Selectable)]
#[diesel(table_name = components)]
struct RefColumns {
    id: i64,
    project_id: i64,
    category_id: Option<i64>,
    source_language_id: i64,
    linked_component_id: Option<i64>,
    locked: bool,
    task_id: Option<String>,
    created: NaiveDateTime,
    path: String,
}

type Row = (RefColumns, SettingsColumns);

fn columns() -> (
    diesel::dsl::AsSelect<RefColumns, crate::MultiBackend>,
    diesel::dsl::AsSelect<SettingsColumns, crate::MultiBackend>,
) {
    (RefColumns::as_select(), SettingsColumns::as_select())
}

fn into_component((refs, settings): Row) -> StoreResult<Component> {
    Ok(Component {
        id: refs.id,
        project_id: refs.project_id,
        category_id: refs.category_id,
        path: refs.path,
        source_language_id: refs.source_language_id,
        linked_component_id: refs.linked_component_id,
        locked: refs.locked,
        task_id: refs.task_id,
        settings: settings.into_settings()?,
        created: refs.created,
    })
}

fn load(query: BoxedComponents<'_>, conn: &mut DbConnection) -> StoreResult<Vec<Component>> {
    query
        .select(columns())
        .load::<Row>(conn)?
        .into_iter()
        .map(into_component)
        .collect()
}

type BoxedComponents<'a> = components::BoxedQuery<'a, crate::MultiBackend>;

/// The query [`visible_only`] builds.
type VisibleComponents = diesel::dsl::Filter<
    diesel::dsl::Filter<
        components::table,
        diesel::dsl::EqAny<components::project_id, crate::projects::VisibleIds>,
    >,
    diesel::dsl::Or<
        diesel::dsl::Eq<components::restricted, bool>,
        diesel::dsl::EqAny<components::id, Vec<i64>>,
    >,
>;

/// Components visible with `visibility`: in visible projects, and not
/// restricted unless a team of the caller lists them. `None` when every
/// component is.
fn visible_only(visibility: &ProjectVisibility) -> Option<VisibleComponents> {
    let ProjectVisibility::Some { components, .. } = visibility else {
        return None;
    };
    let projects = crate::projects::visible_ids(visibility)?;
    Some(
        components::table
            .filter(components::project_id.eq_any(projects))
            .filter(
                components::restricted
                    .eq(false)
                    .or(components::id.eq_any(components.clone())),
            ),
    )
}

/// The ids of the components visible with `visibility`, as a subquery for
/// filtering other tables; `None` when every component is visible.
pub(crate) fn visible_ids(
    visibility: &ProjectVisibility,
) -> Option<diesel::dsl::Select<VisibleComponents, components::id>> {
    visible_only(visibility).map(|query| query.select(components::id))
}

/// Visible components, optionally of one project.
pub(crate) fn visible(
    visibility: &ProjectVisibility,
    project_id: Option<i64>,
) -> BoxedComponents<'static> {
    let mut query = match visible_only(visibility) {
        Some(visible) => visible.into_boxed(),
        None => components::table.into_boxed(),
    };
    if let Some(id) = project_id {
        query = query.filter(components::project_id.eq(id));
    }
    query
}

/// Lists visible components (of one project, when given) by id; `None`
/// for a page past the end.
pub fn list(
    conn: &mut DbConnection,
    visibility: &ProjectVisibility,
    project_id: Option<i64>,
    page: PageRequest,
) -> StoreResult<Option<Page<Component>>> {
    page.run(
        conn,
        |conn| Ok::<_, StoreError>(visible(visibility, project_id).count().get_result(conn)?),
        |conn, offset, limit| {
            load(
                visible(visibility, project_id)
                    .order(components::id)
                    .offset(offset)
                    .limit(limit),
                conn,
            )
        },
    )
}

/// Lists the visible components of a component list by id; `None` for a
/// page past the end.
pub fn in_list(
    conn: &mut DbConnection,
    visibility: &ProjectVisibility,
    list_id: i64,
    page: PageRequest,
) -> StoreResult<Option<Page<Component>>> {
    use crate::schema::component_list_components as members;
    let listed = move || {
        visible(visibility, None).filter(
            components::id.eq_any(
                members::table
                    .filter(members::component_list_id.eq(list_id))
                    .select(members::component_id),
            ),
        )
    };
    page.run(
        conn,
        |conn| Ok::<_, StoreError>(listed().count().get_result(conn)?),
        |conn, offset, limit| {
            load(
                listed().order(components::id).offset(offset).limit(limit),
                conn,
            )
        },
    )
}

/// Finds a component by project and path (`category/slug`, or the slug
/// of one in no category; the caller checks access).
pub fn get_by_slugs(
    conn: &mut DbConnection,
    project_id: i64,
    path: &str,
) -> StoreResult<Option<Component>> {
    Ok(load(
        components::table
            .filter(components::project_id.eq(project_id))
            .filter(components::path.eq(path.to_owned()))
            .into_boxed(),
        conn,
    )?
    .pop())
}

/// Components cloning a repository (not linked) whose `repo`, in lower
/// case, ends with one of `suffixes` (lower case), by id: the candidates
/// a Git host's notification may name, for the caller to match exactly.
pub fn with_repo_ending(
    conn: &mut DbConnection,
    suffixes: &[String],
) -> StoreResult<Vec<Component>> {
    if suffixes.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = components::table
        .filter(components::linked_component_id.is_null())
        .into_boxed();
    let mut any: Box<
        dyn BoxableExpression<
                components::table,
                crate::MultiBackend,
                SqlType = diesel::sql_types::Bool,
            >,
    > = Box::new(diesel::dsl::sql::<diesel::sql_types::Bool>("1 = 0"));
    // Compared as text, never as a pattern: a suffix longer than any
    // repository address can be matches nothing and is not sent.
    let fits = |s: &&String| s.chars().count() <= tolk_domain::component::REPO_MAX_LENGTH;
    for suffix in suffixes.iter().filter(fits) {
        let length = i32::try_from(suffix.chars().count()).unwrap_or(i32::MAX);
        let repo = "lower(components.repo)";
        any = Box::new(
            any.or(
                diesel::dsl::sql::<diesel::sql_types::Bool>(&format!("(length({repo}) >= "))
                    .bind::<diesel::sql_types::Integer, _>(length)
                    .sql(&format!(" AND substr({repo}, length({repo}) - "))
                    .bind::<diesel::sql_types::Integer, _>(length - 1)
                    .sql(") = ")
                    .bind::<diesel::sql_types::Text, _>(suffix.clone())
                    .sql(")"),
            ),
        );
    }
    query = query.filter(any);
    load(query.order(components::id), conn)
}

/// Every component of a project, by id (the caller checks access).
pub fn of_project(conn: &mut DbConnection, project_id: i64) -> StoreResult<Vec<Component>> {
    load(
        components::table
            .filter(components::project_id.eq(project_id))
            .order(components::id)
            .into_boxed(),
        conn,
    )
}

/// The visible components of a project and those shared into it, by id;
/// one statement.
pub fn in_project(
    conn: &mut DbConnection,
    visibility: &ProjectVisibility,
    project_id: i64,
) -> StoreResult<Vec<Component>> {
    use crate::schema::component_links;
    let shared = component_links::table
        .filter(component_links::project_id.eq(project_id))
        .select(component_links::component_id);
    load(
        visible(visibility, None)
            .filter(
                components::project_id
                    .eq(project_id)
                    .or(components::id.eq_any(shared)),
            )
            .order(components::id),
        conn,
    )
}

/// The components working in one repository: its owner and the
/// components linked to it, by id.
pub fn sharing(conn: &mut DbConnection, owner_id: i64) -> StoreResult<Vec<Component>> {
    load(
        components::table
            .filter(
                components::id
                    .eq(owner_id)
                    .or(components::linked_component_id.eq(owner_id)),
            )
            .order(components::id)
            .into_boxed(),
        conn,
    )
}

/// Finds components by id, in any order.
pub fn get_by_ids(conn: &mut DbConnection, ids: &[i64]) -> StoreResult<Vec<Component>> {
    load(
        components::table
            .filter(components::id.eq_any(ids.to_vec()))
            .into_boxed(),
        conn,
    )
}

/// Components cloning `repo` themselves (not through a link), by id.
pub fn with_repo(conn: &mut DbConnection, repos: &[String]) -> StoreResult<Vec<Component>> {
    load(
        components::table
            .filter(components::repo.eq_any(repos.to_vec()))
            .filter(components::linked_component_id.is_null())
            .order(components::id)
            .into_boxed(),
        conn,
    )
}

/// Which of `name` and `slug` another component of the project in the
/// same category (or in none) uses, whatever their case.
pub fn taken(
    conn: &mut DbConnection,
    project_id: i64,
    category_id: Option<i64>,
    name: &str,
    slug: &str,
    except_id: Option<i64>,
) -> StoreResult<(bool, bool)> {
    let mut query = components::table
        .filter(components::project_id.eq(project_id))
        .into_boxed();
    query = match category_id {
        Some(id) => query.filter(components::category_id.eq(id)),
        None => query.filter(components::category_id.is_null()),
    };
    if let Some(id) = except_id {
        query = query.filter(components::id.ne(id));
    }
    let clashes: Vec<(bool, bool)> = query
        .filter(
            lower(components::name)
                .eq(lower(name.to_owned()))
                .or(lower(components::slug).eq(lower(slug.to_owned()))),
        )
        .select((
            lower(components::name).eq(lower(name.to_owned())),
            lower(components::slug).eq(lower(slug.to_owned())),
        ))
        .load(conn)?;
    Ok((
        clashes.iter().any(|(name, _)| *name),
        clashes.iter().any(|(_, slug)| *slug),
    ))
}

/// What a new component row holds beside its settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewComponent<'a> {
    /// Owning project.
    pub project_id: i64,
    /// Its category, if any.
    pub category_id: Option<i64>,
    /// Its path (see [`Component::path`]).
    pub path: String,
    /// Source language.
    pub source_language_id: i64,
    /// The component whose repository it shares.
    pub linked_component_id: Option<i64>,
    /// The task that will clone and scan it.
    pub task_id: Option<&'a str>,
    /// Its settings.
    pub settings: &'a ComponentSettings,
    /// Creation time.
    pub created: NaiveDateTime,
}

/// Inserts a component; returns it.
pub fn insert(conn: &mut DbConnection, new: &NewComponent<'_>) -> StoreResult<Component> {
    let values = (
        SettingsColumns::from_settings(new.settings)?,
        components::project_id.eq(new.project_id),
        components::category_id.eq(new.category_id),
        components::path.eq(&new.path),
        components::source_language_id.eq(new.source_language_id),
        components::linked_component_id.eq(new.linked_component_id),
        components::task_id.eq(new.task_id),
        components::created.eq(new.created),
    );
    let id: i64 = crate::with_backend!(conn, |c| diesel::insert_into(components::table)
        .values(&values)
        .returning(components::id)
        .get_result(c))?;
    Ok(Component {
        id,
        project_id: new.project_id,
        category_id: new.category_id,
        path: new.path.clone(),
        source_language_id: new.source_language_id,
        linked_component_id: new.linked_component_id,
        locked: false,
        task_id: new.task_id.map(str::to_owned),
        settings: new.settings.clone(),
        created: new.created,
    })
}

/// Replaces a component's settings and source language; false when it is gone.
pub fn update(
    conn: &mut DbConnection,
    id: i64,
    settings: &ComponentSettings,
    source_language_id: i64,
) -> StoreResult<bool> {
    let rows = diesel::update(components::table.find(id))
        .set((
            SettingsColumns::from_settings(settings)?,
            components::source_language_id.eq(source_language_id),
        ))
        .execute(conn)?;
    Ok(rows == 1)
}

/// Moves a component to a category (or out of any) under a new path.
pub fn place(
    conn: &mut DbConnection,
    id: i64,
    category_id: Option<i64>,
    path: &str,
) -> StoreResult<()> {
    diesel::update(components::table.find(id))
        .set((
            components::category_id.eq(category_id),
            components::path.eq(path),
        ))
        .execute(conn)?;
    Ok(())
}

/// Rewrites the paths of a project's components under the category path
/// `old` to lie under `new` (a category renamed or moved).
pub fn repath(conn: &mut DbConnection, project_id: i64, old: &str, new: &str) -> StoreResult<()> {
    crate::sql::repath(conn, "components", project_id, old, new)?;
    Ok(())
}

/// Locks or unlocks components; the number changed.
pub fn set_locked(conn: &mut DbConnection, ids: &[i64], locked: bool) -> StoreResult<usize> {
    Ok(
        diesel::update(components::table.filter(components::id.eq_any(ids.to_vec())))
            .set(components::locked.eq(locked))
            .execute(conn)?,
    )
}

/// Sets or clears the task working on a component.
pub fn set_task(conn: &mut DbConnection, id: i64, task_id: Option<&str>) -> StoreResult<()> {
    diesel::update(components::table.find(id))
        .set(components::task_id.eq(task_id))
        .execute(conn)?;
    Ok(())
}

/// Clears the task working on a component if it is still `task_id`.
pub fn clear_task(conn: &mut DbConnection, id: i64, task_id: &str) -> StoreResult<()> {
    diesel::update(
        components::table
            .find(id)
            .filter(components::task_id.eq(task_id)),
    )
    .set(components::task_id.eq(None::<String>))
    .execute(conn)?;
    Ok(())
}

/// Deletes a component with its translations and units; false when
/// another transaction deleted it first.
pub fn delete(conn: &mut DbConnection, id: i64) -> StoreResult<bool> {
    use crate::kept_stats::{self, Move, Translations};
    kept_stats::record(conn, Translations::OfComponent(id), Move::Gone)?;
    kept_stats::forget_component(conn, id)?;
    Ok(diesel::delete(components::table.find(id)).execute(conn)? == 1)
}
