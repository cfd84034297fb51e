//! Project labels (§17.1): listed by whoever sees the project, made and
//! removed with `project.edit`; strings carry them through unit edits.

use tolk_domain::component::COLORS;
use tolk_domain::permission::Subject;
use tolk_domain::validation::{FieldErrors, check_length, check_text};
use tolk_store::labels::{self, Label, NewLabel};
use tolk_store::{Page, PageRequest};

use crate::access::page;
use crate::conflict::{Unique, unique_violation};
use crate::projects::{editable_project, visible_project};
use crate::{ServiceError, ServiceResult};

const NAME: Unique = Unique {
    attr: "name",
    model: "Label",
    label: "Label name",
};

/// Longest label name.
const MAX_NAME: usize = 190;
/// Longest label description.
const MAX_DESCRIPTION: usize = 250;

crate::service::area!(
    /// The use-cases of a project's labels.
    Labels,
    labels
);

impl Labels<'_> {
    /// The labels of a project the caller sees, by id.
    pub fn list(
        &self,
        subject: &Subject,
        slug: &str,
        request: PageRequest,
    ) -> ServiceResult<Page<Label>> {
        self.store.read(|conn| {
            let project = visible_project(conn, subject, slug)?;
            page(labels::list(conn, project.id, request))
        })
    }

    /// Makes a label of a project (needs `project.edit`).
    pub fn create(
        &self,
        subject: &Subject,
        slug: &str,
        name: &str,
        description: &str,
        color: &str,
    ) -> ServiceResult<Label> {
        self.store.write(|conn| {
            let project = editable_project(conn, subject, slug)?;
            let mut errors = FieldErrors::default();
            check_text(name, "name", MAX_NAME, &mut errors);
            check_length(description, "description", MAX_DESCRIPTION, &mut errors);
            if !COLORS.contains(&color) {
                errors.invalid_choice("color", color);
            }
            errors.into_result()?;
            let new = NewLabel {
                project_id: project.id,
                name: name.to_owned(),
                description: description.to_owned(),
                color: color.to_owned(),
            };
            let id = labels::insert(conn, &new).map_err(|e| unique_violation(e, &[NAME]))?;
            labels::of_project(conn, project.id, &[id])?
                .pop()
                .ok_or(ServiceError::NotFound)
        })
    }

    /// Removes a label of a project from it and from its strings (needs
    /// `project.edit`).
    pub fn delete(&self, subject: &Subject, slug: &str, id: i64) -> ServiceResult<()> {
        self.store.write(|conn| {
            let project = editable_project(conn, subject, slug)?;
            if labels::delete(conn, project.id, id)? {
                Ok(())
            } else {
                Err(ServiceError::NotFound)
            }
        })
    }
}
