//! Installing, configuring and removing add-ons (§14). Whoever may edit
//! a component (`component.edit`) manages its add-ons, whoever may edit a
//! project (`project.edit`) the project's; nobody else sees them. What
//! each add-on does is in `addon_runs`.

use std::collections::HashMap;

use serde_json::{Map, Value};
use tolk_domain::addon::{
    AddonChange, AddonCreate, AddonKind, ComponentFacts, Support, check_configuration, find,
};
use tolk_domain::change::Action;
use tolk_domain::permission::{Permission, Subject, Target};
use tolk_domain::validation::FieldErrors;
use tolk_store::addons::{self, Addon, NewAddon};
use tolk_store::changes::{self, NewChange};
use tolk_store::projects::Project;
use tolk_store::{DbConnection, Page, PageRequest, components, projects, time};

use crate::access::{page_in_memory, require};
use crate::component_view::{ComponentView, views as component_views};
use crate::components::component_for;
use crate::jobs::{Job, Owner, enqueue};
use crate::projects::visible_project;
use crate::{ServiceError, ServiceResult};

const DENIED: &str = "You do not have permission to perform this action.";

/// Where an add-on is installed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddonPlace {
    /// A component, by its project's slug and its path.
    Component(String, String),
    /// A project, by slug.
    Project(String),
}

/// An add-on with what its representation needs.
#[derive(Debug, Clone, PartialEq)]
pub struct AddonView {
    /// The stored add-on.
    pub addon: Addon,
    /// Its configuration.
    pub configuration: Map<String, Value>,
    /// Id of its project (the component's, for a component's add-on).
    pub project_id: i64,
    /// Slug of its project.
    pub project_slug: String,
    /// Path of its component, for a component's add-on.
    pub component_path: Option<String>,
}

/// A stored configuration as an object (an unreadable one reads as empty).
pub(crate) fn configuration_of(addon: &Addon) -> Map<String, Value> {
    serde_json::from_str(&addon.configuration).unwrap_or_default()
}

/// Views of the add-ons `subject` may manage (the others are left out),
/// in a fixed number of statements.
fn views(
    conn: &mut DbConnection,
    subject: &Subject,
    rows: Vec<Addon>,
) -> ServiceResult<Vec<AddonView>> {
    let component_ids: Vec<i64> = rows.iter().filter_map(|a| a.component_id).collect();
    let found = components::get_by_ids(conn, &component_ids)?;
    let managed_components: HashMap<i64, ComponentView> = component_views(conn, found)?
        .into_iter()
        .filter(|c| c.visible_to(subject) && subject.can(Permission::COMPONENT_EDIT, c.target()))
        .map(|c| (c.component.id, c))
        .collect();
    let project_ids: Vec<i64> = rows.iter().filter_map(|a| a.project_id).collect();
    let managed_projects: HashMap<i64, Project> = projects::get_by_ids(conn, &project_ids)?
        .into_iter()
        .filter(|p| {
            subject.can_view_project(p.as_ref())
                && subject.can(Permission::PROJECT_EDIT, Target::Project(p.as_ref()))
        })
        .map(|p| (p.id, p))
        .collect();
    Ok(rows
        .into_iter()
        .filter_map(|addon| {
            let (project, component_path) = match (addon.component_id, addon.project_id) {
                (Some(id), _) => {
                    let c = managed_components.get(&id)?;
                    (&c.project, Some(c.component.path.clone()))
                }
                (None, Some(id)) => (managed_projects.get(&id)?, None),
                (None, None) => return None,
            };
            Some(AddonView {
                configuration: configuration_of(&addon),
                addon,
                project_id: project.id,
                project_slug: project.settings.slug.clone(),
                component_path,
            })
        })
        .collect())
}

/// The add-on `id` if `subject` may manage it.
fn managed(conn: &mut DbConnection, subject: &Subject, id: i64) -> ServiceResult<AddonView> {
    let row = addons::get(conn, id)?.ok_or(ServiceError::NotFound)?;
    views(conn, subject, vec![row])?
        .pop()
        .ok_or(ServiceError::NotFound)
}

/// A change about an add-on of `view`.
fn change(action: Action, subject: &Subject, view: &AddonView) -> NewChange {
    NewChange {
        project_id: Some(view.project_id),
        component_id: view.addon.component_id,
        addon_id: Some(view.addon.id),
        target: view.addon.name.clone(),
        ..NewChange::new(action, subject.user_id())
    }
}

/// The add-on a body names, if Tolk runs it there; else the 400.
fn chosen(name: &str, component: Option<&ComponentView>) -> ServiceResult<&'static AddonKind> {
    let kind = find(name)
        .ok_or_else(|| ServiceError::invalid("name", &format!("Add-on not found: {name}")))?;
    if component.is_none() && kind.component_only {
        return Err(ServiceError::invalid(
            "component",
            "This add-on can only be installed on the component.",
        ));
    }
    let compat = match kind.support {
        Support::Runs(compat) => compat,
        Support::Refused(why) => {
            return Err(ServiceError::invalid(
                "name",
                &format!("Tolk does not run the add-on {name}: {why}."),
            ));
        }
    };
    match component {
        Some(view) if !compat.suits(facts(view)) => Err(not_compatible(name)),
        _ => Ok(kind),
    }
}

/// Weblate's answer for an add-on that does not suit a component.
pub(crate) fn not_compatible(name: &str) -> ServiceError {
    ServiceError::invalid(
        "name",
        &format!("could not enable add-on {name}, not compatible"),
    )
}

/// What an add-on's compatibility depends on in a component.
pub(crate) fn facts(view: &ComponentView) -> ComponentFacts<'_> {
    let settings = &view.component.settings;
    ComponentFacts {
        format: &settings.file_format,
        monolingual: !settings.template.is_empty(),
        has_new_base: !settings.new_base.is_empty(),
        removable: tolk_formats::can_remove(&settings.file_format),
    }
}

/// A checked configuration, and its stored text; or the 400.
fn checked_configuration(
    kind: &AddonKind,
    given: Option<Value>,
) -> ServiceResult<(Map<String, Value>, String)> {
    let mut errors = FieldErrors::default();
    let map = check_configuration(
        kind,
        &given.unwrap_or_else(|| Value::Object(Map::new())),
        &mut errors,
    );
    errors.into_result()?;
    let stored = Value::Object(map.clone()).to_string();
    Ok((map, stored))
}

crate::service::area!(
    /// The use-cases of add-ons: listing, installing, configuring, running and removing them.
    Addons,
    addons
);

impl Addons<'_> {
    /// The add-ons the caller may manage, by id.
    pub fn list(&self, subject: &Subject, request: PageRequest) -> ServiceResult<Page<AddonView>> {
        self.store.read(|conn| {
            let rows = addons::visible(conn, &subject.project_visibility())?;
            page_in_memory(request, views(conn, subject, rows)?)
        })
    }

    /// One add-on, if the caller may manage it.
    pub fn get(&self, subject: &Subject, id: i64) -> ServiceResult<AddonView> {
        self.store.read(|conn| managed(conn, subject, id))
    }

    /// Installs an add-on on a component (`component.edit`) or a project
    /// (`project.edit`) and queues its first run.
    pub fn install(
        &self,
        subject: &Subject,
        place: &AddonPlace,
        body: Result<AddonCreate, FieldErrors>,
    ) -> ServiceResult<AddonView> {
        let (project, component) = self.store.read(|conn| match place {
            AddonPlace::Component(project, path) => {
                let view = component_for(
                    conn,
                    subject,
                    (project, path),
                    Permission::COMPONENT_EDIT,
                    DENIED,
                )?;
                Ok::<_, ServiceError>((view.project.clone(), Some(view)))
            }
            AddonPlace::Project(slug) => {
                let project = visible_project(conn, subject, slug)?;
                require(
                    subject,
                    Permission::PROJECT_EDIT,
                    Target::Project(project.as_ref()),
                    DENIED,
                )?;
                Ok((project, None))
            }
        })?;
        let body = body?;
        let kind = chosen(&body.name, component.as_ref())?;
        let (configuration, stored) = checked_configuration(kind, body.configuration.map(|c| c.0))?;
        if let Some(view) = &component
            && !self.addon_fits_files(view, kind)?
        {
            return Err(not_compatible(kind.id));
        }
        let view = self.store.write(|conn| {
            let new = NewAddon {
                name: kind.id.to_owned(),
                project_id: component.is_none().then_some(project.id),
                component_id: component.as_ref().map(|c| c.component.id),
                configuration: stored,
                created: time::now(),
            };
            let id = addons::insert(conn, &new).map_err(|e| {
                if e.is_unique_violation() {
                    ServiceError::invalid("name", &format!("Add-on already installed: {}", kind.id))
                } else {
                    e.into()
                }
            })?;
            // The answer is what was written.
            let view = AddonView {
                addon: Addon {
                    id,
                    name: new.name,
                    project_id: new.project_id,
                    component_id: new.component_id,
                    configuration: new.configuration,
                    created: new.created,
                },
                configuration,
                project_id: project.id,
                project_slug: project.settings.slug.clone(),
                component_path: component.as_ref().map(|c| c.component.path.clone()),
            };
            changes::record(
                conn,
                &change(Action::ADDON_CREATE, subject, &view),
                time::now(),
            )?;
            let owner = Owner {
                user_id: subject.user_id(),
                project_id: Some(project.id),
                component_id: view.addon.component_id,
            };
            enqueue(conn, &Job::AddonRun { addon_id: id }, owner)?;
            Ok::<_, ServiceError>(view)
        })?;
        self.queued();
        Ok(view)
    }

    /// Changes an add-on's configuration (PUT and PATCH); its name cannot change.
    pub fn configure(
        &self,
        subject: &Subject,
        id: i64,
        body: Result<AddonChange, FieldErrors>,
    ) -> ServiceResult<AddonView> {
        self.store.write(|conn| {
            let mut view = managed(conn, subject, id)?;
            let body = body?;
            if body.name.as_ref().is_some_and(|n| *n != view.addon.name) {
                return Err(ServiceError::invalid("name", "Can not change add-on name"));
            }
            let Some(given) = body.configuration else {
                return Ok(view);
            };
            let kind = find(&view.addon.name).ok_or(ServiceError::NotFound)?;
            let (configuration, stored) = checked_configuration(kind, Some(given.0))?;
            if !addons::configure(conn, id, &stored)? {
                return Err(ServiceError::NotFound);
            }
            view.addon.configuration = stored;
            view.configuration = configuration;
            changes::record(
                conn,
                &change(Action::ADDON_CHANGE, subject, &view),
                time::now(),
            )?;
            Ok(view)
        })
    }

    /// Runs an add-on on demand (`trigger/`): Weblate allows it only for
    /// the add-ons that extract POT files from source code, which Tolk
    /// refuses to install, so an add-on the caller manages answers
    /// Weblate's refusal.
    pub fn trigger(&self, subject: &Subject, id: i64) -> ServiceResult<()> {
        self.store.read(|conn| managed(conn, subject, id))?;
        let mut errors = FieldErrors::default();
        errors.general("invalid", "This add-on cannot be triggered manually.");
        Err(errors.into())
    }

    /// Uninstalls an add-on.
    pub fn uninstall(&self, subject: &Subject, id: i64) -> ServiceResult<()> {
        self.store.write(|conn| {
            let view = managed(conn, subject, id)?;
            let mut record = change(Action::ADDON_REMOVE, subject, &view);
            record.addon_id = None;
            if !addons::delete(conn, id)? {
                return Err(ServiceError::NotFound);
            }
            changes::record(conn, &record, time::now())?;
            Ok(())
        })
    }
}
