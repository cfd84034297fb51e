//! Components made as copies of others (`from_component`, §8.3): the
//! source's settings, files (with its pending edits committed) and source
//! language, in a new local repository.

use tolk_domain::component::{ComponentCopy, ComponentPatch, ComponentRef};
use tolk_domain::permission::{Permission, Subject};
use tolk_store::DbConnection;
use tolk_store::components;

use crate::component_view::{ComponentView, views};
use crate::components::{CreateOptions, visible_component};
use crate::upload::Upload;
use crate::{ServiceError, ServiceResult};

/// The component `reference` names, if the caller may see and edit it.
fn editable_source(
    conn: &mut DbConnection,
    subject: &Subject,
    reference: &ComponentRef,
) -> ServiceResult<Option<ComponentView>> {
    let id = match reference {
        ComponentRef::Id(id) => Some(*id),
        ComponentRef::Path(text) => text.parse::<i64>().ok(),
    };
    let found = match (id, reference) {
        (Some(id), _) => {
            let found = components::get_by_ids(conn, &[id])?;
            views(conn, found)?
                .pop()
                .filter(|view| view.visible_to(subject))
        }
        (None, ComponentRef::Path(path)) => match path.split_once('/') {
            Some((project, slug)) => match visible_component(conn, subject, project, slug) {
                Ok(view) => Some(view),
                Err(ServiceError::NotFound) => None,
                Err(e) => return Err(e),
            },
            None => None,
        },
        (None, ComponentRef::Id(_)) => None,
    };
    Ok(found.filter(|view| subject.can(Permission::COMPONENT_EDIT, view.target())))
}

impl crate::components::Components<'_> {
    /// Creates a component in a project (needs `project.edit` there and
    /// `component.edit` on the source) as a copy of another; `overrides`
    /// are the other settings the request gave.
    pub fn copy(
        &self,
        subject: &Subject,
        project_slug: &str,
        copy: ComponentCopy,
        overrides: ComponentPatch,
    ) -> ServiceResult<ComponentView> {
        self.creatable_in(subject, project_slug)?;
        let mut errors = overrides.copy_conflicts();
        let source = self
            .store
            .read(|conn| editable_source(conn, subject, &copy.from_component))?;
        let Some(source) = source else {
            let named = match &copy.from_component {
                ComponentRef::Id(id) => id.to_string(),
                ComponentRef::Path(path) => path.clone(),
            };
            errors.does_not_exist("from_component", &named);
            return Err(errors.into());
        };
        errors.into_result()?;
        let mut settings = source.component.settings.clone();
        overrides.apply_inheriting(&mut settings);
        settings.name = copy.name;
        settings.slug = copy.slug;
        let category = copy.category.flatten();
        let files = self.files_of(&source)?;
        let options = CreateOptions {
            source_language: Some(source.source_language.row.code.clone()),
            disable_autoshare: true,
            upload: Some(Upload::Files(files)),
            category,
        };
        self.components()
            .create(subject, project_slug, Ok(settings), options)
    }

    /// The files of a component, after its pending edits are committed:
    /// those its file mask matches and its base files.
    fn files_of(&self, view: &ComponentView) -> ServiceResult<Vec<(String, Vec<u8>)>> {
        self.commit_component(view, false)?;
        let owner = self.repository_owner(&view.component)?;
        let _lock = self.workspace.lock(&owner)?;
        let settings = &view.component.settings;
        let mask = settings.mask().ok_or(ServiceError::NotFound)?;
        let bases = [
            &settings.template,
            &settings.new_base,
            &settings.intermediate,
        ];
        let tree = self
            .workspace
            .open(&owner, &owner.settings.branch)
            .work_tree()?;
        tree.list()?
            .files
            .into_iter()
            .filter(|path| mask.code_of(path).is_some() || bases.contains(&path))
            .filter_map(|path| match tree.read(&path) {
                Ok(Some(bytes)) => Some(Ok((path, bytes))),
                Ok(None) => None,
                Err(e) => Some(Err(e.into())),
            })
            .collect()
    }
}
