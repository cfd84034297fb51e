//! Projects: listing, creating, editing, removing and their statistics.

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::permission::{Permission, ProjectVisibility, Subject, Target};
use tolk_domain::project::ProjectSettings;
use tolk_domain::stats::Counters;
use tolk_domain::validation::FieldErrors;
use tolk_store::builtin_teams;
use tolk_store::changes::{self, NewChange};
use tolk_store::languages::{self, LanguageRow};
use tolk_store::projects::{self, Project};
use tolk_store::screenshots::{self, Holder};
use tolk_store::stats::{self, Summary};
use tolk_store::{DbConnection, Page, PageRequest, time};

use crate::access::{page, require};
use crate::conflict::{Unique, unique_violation};
use crate::{ServiceError, ServiceResult};

/// The project fields no two projects share, whatever their case.
const NAME: Unique = Unique {
    attr: "name",
    model: "Project",
    label: "Project name",
};
const SLUG: Unique = Unique {
    attr: "slug",
    model: "Project",
    label: "URL slug",
};

/// A project as shown to a caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectView {
    /// The stored project.
    pub project: Project,
    /// True when the project has components and all are locked.
    pub locked: bool,
}

/// Checks what the database knows: free name and slug, existing secondary language.
fn check_references(
    conn: &mut DbConnection,
    settings: &ProjectSettings,
    except: Option<i64>,
    errors: &mut FieldErrors,
) -> ServiceResult<()> {
    let (name_taken, slug_taken) = projects::taken(conn, &settings.name, &settings.slug, except)?;
    for (taken, field) in [(name_taken, NAME), (slug_taken, SLUG)] {
        if taken && !errors.has(field.attr) {
            field.report(errors);
        }
    }
    if let Some(id) = settings.secondary_language
        && languages::get_by_ids(conn, &[id])?.is_empty()
    {
        errors.does_not_exist("secondary_language", &id.to_string());
    }
    Ok(())
}

fn validated(
    conn: &mut DbConnection,
    settings: &ProjectSettings,
    except: Option<i64>,
) -> ServiceResult<()> {
    let mut errors = settings.validate();
    check_references(conn, settings, except, &mut errors)?;
    Ok(errors.into_result()?)
}

/// Records what an edit changed: renames, license and agreement changes
/// get their own actions, every other setting one "setting changed".
fn record_edit(
    conn: &mut DbConnection,
    subject: &Subject,
    project_id: i64,
    old: &ProjectSettings,
    new: &ProjectSettings,
) -> ServiceResult<()> {
    let at = time::now();
    let change = |action: Action, old: &str, target: &str, details: serde_json::Value| NewChange {
        project_id: Some(project_id),
        old: old.to_owned(),
        target: target.to_owned(),
        details,
        ..NewChange::new(action, subject.user_id())
    };
    let mut others = Vec::new();
    for field in old.changed_fields(new) {
        let recorded = match field.as_str() {
            "slug" => change(
                Action::RENAME_PROJECT,
                &old.slug,
                &new.slug,
                json!({"field": "slug"}),
            ),
            "name" => change(
                Action::RENAME_PROJECT,
                &old.name,
                &new.name,
                json!({"field": "name"}),
            ),
            "license" => change(
                Action::LICENSE_CHANGE,
                &old.license,
                &new.license,
                json!({}),
            ),
            "agreement" => change(
                Action::AGREEMENT_CHANGE,
                &old.agreement,
                &new.agreement,
                json!({}),
            ),
            _ => {
                others.push(field);
                continue;
            }
        };
        changes::record(conn, &recorded, at)?;
    }
    if !others.is_empty() {
        let settings = change(
            Action::PROJECT_SETTING_CHANGE,
            "",
            "",
            json!({"fields": others}),
        );
        changes::record(conn, &settings, at)?;
    }
    Ok(())
}

crate::service::area!(
    /// The use-cases of projects: listing, reading, creating, changing,
    /// deleting, locking, their statistics and languages.
    Projects,
    projects
);

impl Projects<'_> {
    /// Lists the projects the caller may see, by id.
    pub fn list(
        &self,
        subject: &Subject,
        request: PageRequest,
    ) -> ServiceResult<Page<ProjectView>> {
        self.store.read(|conn| {
            let found = projects::list(conn, &subject.project_visibility(), request);
            views(conn, found)
        })
    }

    /// A page of the projects the caller may see, each with the counters
    /// of its translations summed: two statements more than the list.
    pub fn list_with_counters(
        &self,
        subject: &Subject,
        request: PageRequest,
    ) -> ServiceResult<Page<(ProjectView, Counters)>> {
        let found = self.list(subject, request)?;
        let ids: Vec<i64> = found.items.iter().map(|view| view.project.id).collect();
        let counters = self
            .store
            .read(|conn| stats::counters_of_projects(conn, &ids))?;
        Ok(with_counters(found, counters, |view| view.project.id))
    }

    /// The project with this slug, if the caller may see it.
    pub fn get(&self, subject: &Subject, slug: &str) -> ServiceResult<ProjectView> {
        self.store.read(|conn| {
            let project = visible_project(conn, subject, slug)?;
            let locked = projects::locked(conn, &[project.id])?.contains(&project.id);
            Ok(ProjectView { project, locked })
        })
    }

    /// Creates a project and records its creation.
    pub fn create(
        &self,
        subject: &Subject,
        settings: Result<ProjectSettings, FieldErrors>,
    ) -> ServiceResult<ProjectView> {
        require(
            subject,
            Permission::PROJECT_ADD,
            Target::Site,
            "Can not create projects",
        )?;
        let settings = settings?;
        self.store.write(|conn| {
            validated(conn, &settings, None)?;
            let project = projects::insert(conn, &settings, time::now())
                .map_err(|e| unique_violation(e, &[SLUG, NAME]))?;
            let creator = subject.user_id().filter(|_| !subject.is_superuser());
            builtin_teams::ensure_project_teams(conn, project.id, project.access(), creator)?;
            let change = NewChange {
                project_id: Some(project.id),
                target: project.settings.name.clone(),
                ..NewChange::new(Action::CREATE_PROJECT, subject.user_id())
            };
            changes::record(conn, &change, project.created)?;
            Ok(ProjectView {
                project,
                locked: false,
            })
        })
    }

    /// Edits a project: `edit` turns the current settings into the new ones.
    pub fn update(
        &self,
        subject: &Subject,
        slug: &str,
        edit: impl FnOnce(&ProjectSettings) -> Result<ProjectSettings, FieldErrors>,
    ) -> ServiceResult<ProjectView> {
        self.store.write(|conn| {
            let mut project = visible_project(conn, subject, slug)?;
            let target = Target::Project(project.as_ref());
            require(
                subject,
                Permission::PROJECT_EDIT,
                target,
                "Can not edit project",
            )?;
            let settings = edit(&project.settings)?;
            validated(conn, &settings, Some(project.id))?;
            // A project deleted since it was read is gone; a name taken
            // since it was checked is taken.
            let updated = projects::update(conn, project.id, &settings)
                .map_err(|e| unique_violation(e, &[SLUG, NAME]))?;
            if !updated {
                return Err(ServiceError::NotFound);
            }
            record_edit(conn, subject, project.id, &project.settings, &settings)?;
            if settings.access() != project.access() {
                builtin_teams::ensure_project_teams(conn, project.id, settings.access(), None)?;
            }
            project.settings = settings;
            let locked = projects::locked(conn, &[project.id])?.contains(&project.id);
            Ok(ProjectView { project, locked })
        })
    }

    /// Removes a project with everything in it.
    pub fn delete(&self, subject: &Subject, slug: &str) -> ServiceResult<()> {
        let images = self.store.write(|conn| {
            let project = visible_project(conn, subject, slug)?;
            let target = Target::Project(project.as_ref());
            require(
                subject,
                Permission::PROJECT_EDIT,
                target,
                "Can not delete project",
            )?;
            let change = NewChange {
                target: project.settings.name.clone(),
                details: json!({"slug": project.settings.slug}),
                ..NewChange::new(Action::REMOVE_PROJECT, subject.user_id())
            };
            let images = screenshots::images_of(conn, Holder::Project(project.id))?;
            if !projects::delete(conn, project.id)? {
                // Another request deleted it first.
                return Err(ServiceError::NotFound);
            }
            changes::record(conn, &change, time::now())?;
            Ok(images)
        })?;
        self.forget_images(&images);
        Ok(())
    }

    /// Statistics of a project.
    pub fn statistics(&self, subject: &Subject, slug: &str) -> ServiceResult<(Project, Summary)> {
        self.store.read(|conn| {
            let project = visible_project(conn, subject, slug)?;
            let summary = stats::project(conn, project.id)?;
            Ok((project, summary))
        })
    }

    /// Statistics of each language of a project, by language id.
    pub fn languages(
        &self,
        subject: &Subject,
        slug: &str,
    ) -> ServiceResult<(Project, Vec<(LanguageRow, Summary)>)> {
        self.store.read(|conn| {
            let project = visible_project(conn, subject, slug)?;
            let per_language = stats::project_languages(conn, project.id)?;
            let ids: Vec<i64> = per_language.iter().map(|(id, _)| *id).collect();
            let mut rows: std::collections::HashMap<i64, LanguageRow> =
                languages::get_by_ids(conn, &ids)?
                    .into_iter()
                    .map(|row| (row.id, row))
                    .collect();
            let mut result: Vec<(LanguageRow, Summary)> = per_language
                .into_iter()
                .filter_map(|(id, summary)| rows.remove(&id).map(|row| (row, summary)))
                .collect();
            result.sort_by(|a, b| a.0.name.cmp(&b.0.name));
            Ok((project, result))
        })
    }
}

/// Pairs each item of a page with its counters, found by the item's id
/// (zero for an item without any).
pub(crate) fn with_counters<T>(
    found: Page<T>,
    counters: Vec<(i64, Counters)>,
    id: impl Fn(&T) -> i64,
) -> Page<(T, Counters)> {
    let counters: std::collections::HashMap<i64, Counters> = counters.into_iter().collect();
    let Page {
        count,
        number,
        size,
        items,
    } = found;
    let items = items
        .into_iter()
        .map(|item| {
            let of = counters.get(&id(&item)).copied().unwrap_or_default();
            (item, of)
        })
        .collect();
    Page {
        count,
        number,
        size,
        items,
    }
}

/// The project with this slug if the caller may see it, else not found.
/// Views of a page of projects, with two statements whatever its length.
pub(crate) fn views(
    conn: &mut DbConnection,
    found: tolk_store::StoreResult<Option<Page<Project>>>,
) -> ServiceResult<Page<ProjectView>> {
    let found = page(found)?;
    let ids: Vec<i64> = found.items.iter().map(|p| p.id).collect();
    let locked = projects::locked(conn, &ids)?;
    found.try_map_items(|items| {
        Ok(items
            .into_iter()
            .map(|project| ProjectView {
                locked: locked.contains(&project.id),
                project,
            })
            .collect())
    })
}

impl crate::projects::Projects<'_> {
    /// Whether a project is locked (it has components and all are locked)
    /// when `lock` is `None`; otherwise locks or unlocks every component of
    /// the project (needs `project.edit`), recording Component locked or
    /// unlocked for each that changes (§25), and answers the new state.
    pub fn lock(&self, subject: &Subject, slug: &str, lock: Option<bool>) -> ServiceResult<bool> {
        let Some(lock) = lock else {
            return self.store.read(|conn| {
                let project = visible_project(conn, subject, slug)?;
                Ok(projects::locked(conn, &[project.id])?.contains(&project.id))
            });
        };
        self.store.write(|conn| {
            let project = editable_project(conn, subject, slug)?;
            let all = tolk_store::components::of_project(conn, project.id)?;
            let changing: Vec<i64> = all
                .iter()
                .filter(|c| c.locked != lock)
                .map(|c| c.id)
                .collect();
            if !changing.is_empty() {
                tolk_store::components::set_locked(conn, &changing, lock)?;
                let action = if lock { Action::LOCK } else { Action::UNLOCK };
                let records: Vec<NewChange> = changing
                    .iter()
                    .map(|&id| NewChange {
                        project_id: Some(project.id),
                        component_id: Some(id),
                        ..NewChange::new(action, subject.user_id())
                    })
                    .collect();
                changes::record_many(conn, records.iter().collect(), time::now())?;
            }
            Ok(lock && !all.is_empty())
        })
    }
}

/// The project `slug` if the caller may edit it (`project.edit`).
pub(crate) fn editable_project(
    conn: &mut DbConnection,
    subject: &Subject,
    slug: &str,
) -> ServiceResult<Project> {
    let project = visible_project(conn, subject, slug)?;
    require_project_edit(subject, &project)?;
    Ok(project)
}

/// Refuses a caller without `project.edit` on `project`.
pub(crate) fn require_project_edit(subject: &Subject, project: &Project) -> ServiceResult<()> {
    require(
        subject,
        Permission::PROJECT_EDIT,
        Target::Project(project.as_ref()),
        "You do not have permission to perform this action.",
    )
}
/// How the store lists what projects hold (categories, components): the
/// ones `visibility` lets the caller see, of one project when given, a
/// page of them (`None` past the last).
pub(crate) type ChildList<Row> = fn(
    &mut DbConnection,
    &ProjectVisibility,
    Option<i64>,
    PageRequest,
) -> tolk_store::StoreResult<Option<Page<Row>>>;

/// A page of what projects hold that the caller sees, of the project
/// `project_slug` when given (404 when the caller cannot see it): listed
/// by `list`, each made a view by `views`.
pub(crate) fn page_of_children<Row, View>(
    conn: &mut DbConnection,
    subject: &Subject,
    project_slug: Option<&str>,
    request: PageRequest,
    list: ChildList<Row>,
    views: impl FnOnce(&mut DbConnection, Vec<Row>) -> ServiceResult<Vec<View>>,
) -> ServiceResult<Page<View>> {
    let project_id = match project_slug {
        Some(slug) => Some(visible_project(conn, subject, slug)?.id),
        None => None,
    };
    let found = page(list(
        conn,
        &subject.project_visibility(),
        project_id,
        request,
    ))?;
    found.try_map_items(|items| views(conn, items))
}

/// The project `slug` if the caller may see it, else not found.
pub(crate) fn visible_project(
    conn: &mut DbConnection,
    subject: &Subject,
    slug: &str,
) -> ServiceResult<Project> {
    projects::get_by_slug(conn, slug)?
        .filter(|p| subject.can_view_project(p.as_ref()))
        .ok_or(ServiceError::NotFound)
}
