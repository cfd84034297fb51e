//! A component with what its representation needs (project, source
//! language, the component it shares a repository with, what it inherits,
//! its add-ons), read for many components in a fixed number of statements.

use std::collections::HashMap;

use tolk_domain::component::{ComponentSettings, Effective};
use tolk_domain::permission::{Permission, Subject, Target};
use tolk_domain::project::ProjectSettings;
use tolk_store::DbConnection;
use tolk_store::categories::Category;
use tolk_store::components::{self, Component};
use tolk_store::languages::{self, Language};
use tolk_store::projects::{self, Project};

use crate::{ServiceError, ServiceResult};

/// A component with what its representation needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentView {
    /// The stored component.
    pub component: Component,
    /// Its project.
    pub project: Project,
    /// Whether every component of the project is locked.
    pub project_locked: bool,
    /// Its source language.
    pub source_language: Language,
    /// The component whose repository it shares: project slug, slug and settings.
    pub linked: Option<(String, String, ComponentSettings)>,
    /// What it inherits when it is in a category: its project's settings
    /// under its categories'; `None` outside categories (see [`Self::inherited`]).
    pub category_inherited: Option<ProjectSettings>,
    /// The ids of the add-ons installed on it, in order of installation.
    pub addon_ids: Vec<i64>,
}

impl ComponentView {
    /// The names of its project and itself, whose words the `same` check
    /// lets pass.
    pub(crate) fn check_names(&self) -> String {
        format!(
            "{} {}",
            self.project.settings.name, self.component.settings.name
        )
    }

    /// What it inherits: its project's settings, under those of its
    /// categories when it is in one.
    pub fn inherited(&self) -> &ProjectSettings {
        self.category_inherited
            .as_ref()
            .unwrap_or(&self.project.settings)
    }

    /// Its project's slug and its path of slugs, `project/category/slug`:
    /// the name Weblate gives it in memory origins and repository status,
    /// and, with `-` for `/`, in download names.
    pub fn full_slug(&self) -> String {
        format!("{}/{}", self.project.settings.slug, self.component.path)
    }

    /// The settings in effect: its own, else what it inherits.
    pub fn effective(&self) -> Effective {
        self.component.settings.effective(self.inherited())
    }

    /// Whether `subject` may see the component: its project is visible,
    /// and a restricted component must be listed on a team of the caller.
    /// The lists apply the same rule in SQL.
    pub fn visible_to(&self, subject: &Subject) -> bool {
        let visibility = subject.project_visibility();
        visibility.allows(self.project.as_ref())
            && visibility.allows_component(self.component.id, self.component.settings.restricted)
    }

    /// The settings as the API shows them: a linked component reports the
    /// repository settings of the component it shares, and repository
    /// URLs lose their credentials.
    pub fn public_settings(&self) -> ComponentSettings {
        let mut settings = self.component.settings.clone();
        if let Some((_, _, linked)) = &self.linked {
            settings.repo.clone_from(&linked.repo);
            settings.push.clone_from(&linked.push);
            settings.branch.clone_from(&linked.branch);
            settings.push_branch.clone_from(&linked.push_branch);
            settings.push_on_commit = linked.push_on_commit;
            settings.commit_pending_age = linked.commit_pending_age;
            settings.auto_lock_error = linked.auto_lock_error;
        }
        settings.repo = tolk_vcs::strip_credentials(&settings.repo);
        settings.push = tolk_vcs::strip_credentials(&settings.push);
        settings
    }

    /// Whether `subject` may see where the repository is (`vcs.view`).
    pub fn shows_repository_to(&self, subject: &Subject) -> bool {
        subject.can(Permission::VCS_VIEW, self.target())
    }

    /// The component as the access check sees it.
    pub fn target(&self) -> Target {
        Target::Component {
            project: self.project.as_ref(),
            id: self.component.id,
            restricted: self.component.settings.restricted,
        }
    }
}

/// Builds views of components with a fixed number of statements.
pub(crate) fn views(
    conn: &mut DbConnection,
    items: Vec<Component>,
) -> ServiceResult<Vec<ComponentView>> {
    let mut project_ids: Vec<i64> = items.iter().map(|c| c.project_id).collect();
    let language_ids: Vec<i64> = items.iter().map(|c| c.source_language_id).collect();
    let linked_ids: Vec<i64> = items.iter().filter_map(|c| c.linked_component_id).collect();
    let linked: HashMap<i64, Component> = components::get_by_ids(conn, &linked_ids)?
        .into_iter()
        .map(|c| (c.id, c))
        .collect();
    project_ids.extend(linked.values().map(|c| c.project_id));
    project_ids.sort_unstable();
    project_ids.dedup();
    let projects: HashMap<i64, Project> = projects::get_by_ids(conn, &project_ids)?
        .into_iter()
        .map(|p| (p.id, p))
        .collect();
    let locked = projects::locked(conn, &project_ids)?;
    let languages: HashMap<i64, Language> = languages::get_full_by_ids(conn, &language_ids)?
        .into_iter()
        .map(|l| (l.row.id, l))
        .collect();
    // Categories are read only when a component is in one.
    let mut categorized: Vec<i64> = items
        .iter()
        .filter(|c| c.category_id.is_some())
        .map(|c| c.project_id)
        .collect();
    categorized.sort_unstable();
    categorized.dedup();
    let categories: HashMap<i64, Category> = if categorized.is_empty() {
        HashMap::new()
    } else {
        tolk_store::categories::of_projects(conn, &categorized)?
            .into_iter()
            .map(|c| (c.id, c))
            .collect()
    };
    let ids: Vec<i64> = items.iter().map(|c| c.id).collect();
    let mut addons: HashMap<i64, Vec<i64>> = HashMap::new();
    for (component, addon) in tolk_store::addons::of_components(conn, &ids)? {
        addons.entry(component).or_default().push(addon);
    }
    items
        .into_iter()
        .map(|component| {
            let project = projects
                .get(&component.project_id)
                .cloned()
                .ok_or(ServiceError::NotFound)?;
            let source_language = languages
                .get(&component.source_language_id)
                .cloned()
                .ok_or(ServiceError::NotFound)?;
            let linked = component
                .linked_component_id
                .and_then(|id| linked.get(&id))
                .and_then(|l| {
                    let slug = &projects.get(&l.project_id)?.settings.slug;
                    Some((slug.clone(), l.settings.slug.clone(), l.settings.clone()))
                });
            let category_inherited = component.category_id.map(|id| {
                crate::category_inheritance::inherited_by_contents(
                    &categories,
                    id,
                    &project.settings,
                )
            });
            Ok(ComponentView {
                category_inherited,
                addon_ids: addons.remove(&component.id).unwrap_or_default(),
                project_locked: locked.contains(&project.id),
                project,
                source_language,
                linked,
                component,
            })
        })
        .collect()
}
