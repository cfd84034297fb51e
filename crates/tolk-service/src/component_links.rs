//! Components shared into other projects (`links/`, §8.2): the component
//! stays in its own project, and the projects it is shared into list it
//! among their links.

use tolk_domain::permission::{Permission, Subject, Target};
use tolk_store::page::{Page, PageRequest};
use tolk_store::projects;

use crate::component_view::ComponentView;
use crate::components::{component_for, visible_component};
use crate::projects::{ProjectView, views};
use crate::{ServiceError, ServiceResult};

/// A 400 about the target project.
fn refused(message: &str) -> ServiceError {
    ServiceError::invalid("project_slug", message)
}

/// The 400 for a link that exists already.
fn already_shared(project: &str) -> ServiceError {
    refused(&format!("This component is already shared in {project}."))
}

impl crate::components::Components<'_> {
    /// The projects, visible to the caller, that a component is shared
    /// into besides its own; the caller must see the component.
    pub fn links(
        &self,
        subject: &Subject,
        project_slug: &str,
        slug: &str,
        request: PageRequest,
    ) -> ServiceResult<Page<ProjectView>> {
        self.store.read(|conn| {
            let view = visible_component(conn, subject, project_slug, slug)?;
            let found = projects::linked_to(
                conn,
                &subject.project_visibility(),
                view.component.id,
                request,
            );
            views(conn, found)
        })
    }

    /// Shares a component into the project `target` (needs
    /// `component.edit` on the component and `project.edit` on the target,
    /// which must be another project).
    pub fn link(
        &self,
        subject: &Subject,
        project_slug: &str,
        slug: &str,
        target: &str,
    ) -> ServiceResult<ComponentView> {
        self.store.write(|conn| {
            let view = component_for(
                conn,
                subject,
                (project_slug, slug),
                Permission::COMPONENT_EDIT,
                "Can not edit component",
            )?;
            let project = projects::get_by_slug(conn, target)?
                .filter(|p| subject.can(Permission::PROJECT_EDIT, Target::Project(p.as_ref())))
                .ok_or_else(|| refused(&format!("No project slug '{target}' found!")))?;
            let name = &project.settings.name;
            if project.id == view.project.id {
                return Err(already_shared(name));
            }
            match projects::link(conn, view.component.id, project.id) {
                Ok(true) => Ok(view),
                Ok(false) => Err(already_shared(name)),
                Err(e) if e.unique_constraint().is_some() => Err(already_shared(name)),
                Err(e) => Err(e.into()),
            }
        })
    }

    /// Stops sharing a component into the project `target` (needs
    /// `component.edit`); not found when it was not shared there.
    pub fn unlink(
        &self,
        subject: &Subject,
        project_slug: &str,
        slug: &str,
        target: &str,
    ) -> ServiceResult<()> {
        self.store.write(|conn| {
            let view = component_for(
                conn,
                subject,
                (project_slug, slug),
                Permission::COMPONENT_EDIT,
                "Can not edit component",
            )?;
            let project = projects::get_by_slug(conn, target)?.ok_or(ServiceError::NotFound)?;
            if projects::unlink(conn, view.component.id, project.id)? {
                Ok(())
            } else {
                Err(ServiceError::NotFound)
            }
        })
    }
}
