//! Categories (§16): whoever sees a project sees its categories; making,
//! changing and removing them needs `project.edit` on it. A category's
//! path of slugs names it and the components inside in API URLs
//! (`docs%252Fguides%252Finstall`); renaming or moving one rewrites the
//! paths below it in the same transaction.

use std::collections::HashMap;

use tolk_domain::category::{CategoryPatch, CategorySettings, MAX_DEPTH};
use tolk_domain::permission::Subject;
use tolk_domain::project::ProjectSettings;
use tolk_domain::validation::FieldErrors;
use tolk_store::categories::{self, Category, Placed};
use tolk_store::projects::{self, Project};
use tolk_store::stats::{self, Summary};
use tolk_store::{DbConnection, Page, PageRequest, components};

use crate::category_inheritance::ancestors;
use crate::conflict::{Unique, unique_violation};
use crate::jobs::{Job, Owner, enqueue};
use crate::projects::{page_of_children, require_project_edit, visible_project};
use crate::{ServiceError, ServiceResult};

const NAME: Unique = Unique {
    attr: "name",
    model: "Category",
    label: "Name",
};
const SLUG: Unique = Unique {
    attr: "slug",
    model: "Category",
    label: "URL slug",
};

/// A category with its project and what it inherits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategoryView {
    /// The stored category.
    pub category: Category,
    /// Its project.
    pub project: Project,
    /// What it inherits: its project's settings under its ancestors'.
    pub inherited: ProjectSettings,
}

impl CategoryView {
    /// What its contents inherit: its own settings over the inherited.
    pub fn effective(&self) -> ProjectSettings {
        self.category.settings.over(&self.inherited)
    }
}

/// Views of categories, with their projects and ancestors read in three statements.
fn views(conn: &mut DbConnection, items: Vec<Category>) -> ServiceResult<Vec<CategoryView>> {
    let mut project_ids: Vec<i64> = items.iter().map(|c| c.project_id).collect();
    project_ids.sort_unstable();
    project_ids.dedup();
    let projects: HashMap<i64, Project> = projects::get_by_ids(conn, &project_ids)?
        .into_iter()
        .map(|p| (p.id, p))
        .collect();
    let all: HashMap<i64, Category> = categories::of_projects(conn, &project_ids)?
        .into_iter()
        .map(|c| (c.id, c))
        .collect();
    items
        .into_iter()
        .map(|category| {
            let project = projects
                .get(&category.project_id)
                .cloned()
                .ok_or(ServiceError::NotFound)?;
            let inherited = ancestors(&all, category.id)
                .into_iter()
                .fold(project.settings.clone(), |settings, parent| {
                    parent.settings.over(&settings)
                });
            Ok(CategoryView {
                category,
                project,
                inherited,
            })
        })
        .collect()
}

/// The category `id` if the caller sees its project.
pub(crate) fn visible(
    conn: &mut DbConnection,
    subject: &Subject,
    id: i64,
) -> ServiceResult<CategoryView> {
    let found = categories::get_by_ids(conn, &[id])?;
    views(conn, found)?
        .pop()
        .filter(|v| subject.can_view_project(v.project.as_ref()))
        .ok_or(ServiceError::NotFound)
}

/// The category `id` if the caller may edit its project.
fn editable(conn: &mut DbConnection, subject: &Subject, id: i64) -> ServiceResult<CategoryView> {
    let view = visible(conn, subject, id)?;
    require_project_edit(subject, &view.project)?;
    Ok(view)
}

/// The last path segment of an API link after `/api/{kind}/`, e.g. the
/// slug of `http://host/api/projects/demo/` or `/api/projects/demo/`.
fn linked<'a>(url: &'a str, kind: &str) -> Option<&'a str> {
    let marker = format!("/api/{kind}/");
    let at = url.find(&marker)?;
    let rest = url[at + marker.len()..].trim_end_matches('/');
    (!rest.is_empty() && !rest.contains('/')).then_some(rest)
}

const NO_OBJECT: &str = "Invalid hyperlink - Object does not exist.";

/// Where a category goes: its parent (a category of `project_id` named
/// by `url`), checked to leave room below it for `height` levels
/// (the category and what it holds) and not to lie inside `moving`.
fn parent_of(
    conn: &mut DbConnection,
    project_id: i64,
    url: Option<&str>,
    height: usize,
    moving: Option<&Category>,
) -> ServiceResult<Option<Category>> {
    let Some(url) = url else { return Ok(None) };
    let id = linked(url, "categories")
        .and_then(|id| id.parse::<i64>().ok())
        .ok_or_else(|| ServiceError::invalid("category", NO_OBJECT))?;
    let parent = categories::get_by_ids(conn, &[id])?
        .pop()
        .filter(|c| c.project_id == project_id)
        .ok_or_else(|| ServiceError::invalid("category", NO_OBJECT))?;
    if let Some(moving) = moving {
        let inside =
            parent.id == moving.id || parent.path.starts_with(&format!("{}/", moving.path));
        if inside {
            return Err(ServiceError::invalid(
                "category",
                "A category cannot be placed inside itself.",
            ));
        }
    }
    let depth = parent.path.split('/').count();
    if depth + height > MAX_DEPTH {
        return Err(ServiceError::invalid(
            "category",
            &format!("Categories nest at most {MAX_DEPTH} levels deep."),
        ));
    }
    Ok(Some(parent))
}

/// Reports a name or slug a sibling uses.
fn check_siblings(
    conn: &mut DbConnection,
    project_id: i64,
    parent_id: Option<i64>,
    settings: &CategorySettings,
    except: Option<i64>,
    errors: &mut FieldErrors,
) -> ServiceResult<()> {
    let (name, slug) = categories::taken(
        conn,
        project_id,
        parent_id,
        (&settings.name, &settings.slug),
        except,
    )?;
    for (clash, field) in [(name, NAME), (slug, SLUG)] {
        if clash && !errors.has(field.attr) {
            field.report(errors);
        }
    }
    Ok(())
}

/// A category's path under its parent.
fn path_under(parent: Option<&Category>, slug: &str) -> String {
    match parent {
        Some(parent) => format!("{}/{slug}", parent.path),
        None => slug.to_owned(),
    }
}

/// How many levels a category and what it holds take, `all` being its
/// project's categories.
fn height(all: &[Category], category: &Category) -> usize {
    let below = format!("{}/", category.path);
    all.iter()
        .filter(|c| c.path.starts_with(&below))
        .map(|c| c.path.split('/').count())
        .max()
        .map_or(1, |deepest| deepest + 1 - category.path.split('/').count())
}

crate::service::area!(
    /// The use-cases of a project's categories.
    Categories,
    categories
);

impl Categories<'_> {
    /// The categories the caller sees (of one project, when given), by id.
    pub fn list(
        &self,
        subject: &Subject,
        project_slug: Option<&str>,
        request: PageRequest,
    ) -> ServiceResult<Page<CategoryView>> {
        self.store.read(|conn| {
            page_of_children(
                conn,
                subject,
                project_slug,
                request,
                categories::list,
                views,
            )
        })
    }

    /// One category.
    pub fn get(&self, subject: &Subject, id: i64) -> ServiceResult<CategoryView> {
        self.store.read(|conn| visible(conn, subject, id))
    }

    /// Statistics of a category: of every component it holds, at any depth.
    pub fn statistics(&self, subject: &Subject, id: i64) -> ServiceResult<(CategoryView, Summary)> {
        self.store.read(|conn| {
            let view = visible(conn, subject, id)?;
            let inside = format!("{}/", view.category.path);
            let held: Vec<i64> = components::of_project(conn, view.project.id)?
                .into_iter()
                .filter(|c| c.path.starts_with(&inside))
                .map(|c| c.id)
                .collect();
            let summary = stats::of_components(conn, &held)?;
            Ok((view, summary))
        })
    }

    /// Makes a category of the project its body links to (needs
    /// `project.edit` there), optionally inside another category.
    pub fn create(
        &self,
        subject: &Subject,
        body: Result<CategoryPatch, FieldErrors>,
    ) -> ServiceResult<CategoryView> {
        let body = body?;
        self.store.write(|conn| {
            let project = body
                .project
                .as_deref()
                .and_then(|url| linked(url, "projects"))
                .and_then(|slug| visible_project(conn, subject, slug).ok());
            let Some(project) = project else {
                let message = if body.project.is_some() {
                    NO_OBJECT
                } else {
                    "This field is required."
                };
                return Err(ServiceError::invalid("project", message));
            };
            require_project_edit(subject, &project)?;
            let url = body.category.clone().flatten();
            let parent = parent_of(conn, project.id, url.as_deref(), 1, None)?;
            let mut settings = CategorySettings::default();
            body.apply(&mut settings);
            let mut errors = settings.validate();
            let parent_id = parent.as_ref().map(|p| p.id);
            check_siblings(conn, project.id, parent_id, &settings, None, &mut errors)?;
            errors.into_result()?;
            let path = path_under(parent.as_ref(), &settings.slug);
            let placed = Placed {
                project_id: project.id,
                parent_id,
                path: &path,
                settings: &settings,
            };
            let id = categories::insert(conn, &placed)
                .map_err(|e| unique_violation(e, &[NAME, SLUG]))?;
            visible(conn, subject, id)
        })
    }

    /// Changes a category (needs `project.edit`): PUT gives every field
    /// and a missing `category` takes it out of its parent, PATCH some.
    /// A new slug or parent rewrites the paths of everything inside.
    pub fn update(
        &self,
        subject: &Subject,
        id: i64,
        body: Result<CategoryPatch, FieldErrors>,
        replace: bool,
    ) -> ServiceResult<CategoryView> {
        let body = body?;
        self.store.write(|conn| {
            let view = editable(conn, subject, id)?;
            let project_id = view.project.id;
            let moved = match &body.category {
                Some(url) => Some(url.clone()),
                None if replace => Some(None),
                None => None,
            };
            let all = categories::of_projects(conn, &[project_id])?;
            let current = &view.category;
            let parent = match &moved {
                Some(url) => parent_of(
                    conn,
                    project_id,
                    url.as_deref(),
                    height(&all, current),
                    Some(current),
                )?,
                None => current
                    .parent_id
                    .and_then(|p| all.iter().find(|c| c.id == p).cloned()),
            };
            let mut settings = current.settings.clone();
            body.apply(&mut settings);
            let mut errors = settings.validate();
            let parent_id = parent.as_ref().map(|p| p.id);
            check_siblings(
                conn,
                project_id,
                parent_id,
                &settings,
                Some(id),
                &mut errors,
            )?;
            errors.into_result()?;
            let path = path_under(parent.as_ref(), &settings.slug);
            let placed = Placed {
                project_id,
                parent_id,
                path: &path,
                settings: &settings,
            };
            if !categories::update(conn, id, &placed)
                .map_err(|e| unique_violation(e, &[NAME, SLUG]))?
            {
                return Err(ServiceError::NotFound);
            }
            if path != current.path {
                categories::repath(conn, project_id, &current.path, &path)?;
                components::repath(conn, project_id, &current.path, &path)?;
            }
            visible(conn, subject, id)
        })
    }

    /// Removes a category with the categories and components inside
    /// (needs `project.edit`); their clones are removed in the background.
    pub fn delete(&self, subject: &Subject, id: i64) -> ServiceResult<()> {
        self.store.write(|conn| {
            let view = editable(conn, subject, id)?;
            let inside = format!("{}/", view.category.path);
            let held: Vec<_> = components::of_project(conn, view.project.id)?
                .into_iter()
                .filter(|c| c.path.starts_with(&inside))
                .collect();
            if !categories::delete(conn, id)? {
                return Err(ServiceError::NotFound);
            }
            for component in held.iter().filter(|c| c.linked_component_id.is_none()) {
                let path = self.workspace.dir(component).display().to_string();
                let owner = Owner {
                    user_id: subject.user_id(),
                    project_id: Some(view.project.id),
                    component_id: None,
                };
                enqueue(conn, &Job::RemoveTree { path }, owner)?;
            }
            Ok(())
        })?;
        self.queued();
        Ok(())
    }

    /// The category of project `project_id` named by the API link `url`,
    /// for a component to be placed in (400 on `category` otherwise).
    pub(crate) fn for_component(
        &self,
        conn: &mut DbConnection,
        project_id: i64,
        url: &str,
    ) -> ServiceResult<Category> {
        linked(url, "categories")
            .and_then(|id| id.parse::<i64>().ok())
            .map(|id| categories::get_by_ids(conn, &[id]))
            .transpose()?
            .and_then(|mut found| found.pop())
            .filter(|c| c.project_id == project_id)
            .ok_or_else(|| ServiceError::invalid("category", NO_OBJECT))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_links_name_their_objects() {
        assert_eq!(
            linked("http://h/api/projects/demo/", "projects"),
            Some("demo")
        );
        assert_eq!(linked("/api/projects/demo/", "projects"), Some("demo"));
        assert_eq!(linked("/api/categories/7/", "categories"), Some("7"));
        assert_eq!(linked("/api/projects/demo/components/", "projects"), None);
        assert_eq!(linked("/api/projects/", "projects"), None);
        assert_eq!(linked("demo", "projects"), None);
    }
}
