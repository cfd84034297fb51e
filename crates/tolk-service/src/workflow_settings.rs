//! The workflow settings of a project's languages
//! (`/api/projects/{slug}/languages/{code}/workflow/`): read by whoever
//! sees the project, changed and removed with `project.edit`. What they
//! change is read through [`TranslationView::workflow`](crate::translations::TranslationView::workflow).

use tolk_domain::permission::Subject;
use tolk_domain::workflow::Workflow;
use tolk_store::{DbConnection, languages, projects};

use crate::projects::{Projects, editable_project, visible_project};
use crate::{ServiceError, ServiceResult};

/// The code of the language `code` names (an alias reads as its
/// language); not found when there is none.
fn language_code(conn: &mut DbConnection, code: &str) -> ServiceResult<String> {
    languages::get_by_codes(conn, &[code.to_owned()])?
        .pop()
        .map(|l| l.code)
        .ok_or(ServiceError::NotFound)
}

impl Projects<'_> {
    /// The workflow settings of the language `code` in the project
    /// `slug`, with the language's code; not found when it has none of
    /// its own.
    pub fn workflow(
        &self,
        subject: &Subject,
        slug: &str,
        code: &str,
    ) -> ServiceResult<(String, Workflow)> {
        self.store.read(|conn| {
            let project = visible_project(conn, subject, slug)?;
            let code = language_code(conn, code)?;
            let own = project.workflows.0.get(&code).cloned();
            own.map(|w| (code, w)).ok_or(ServiceError::NotFound)
        })
    }

    /// Changes the workflow settings of a language in a project (needs
    /// `project.edit`) as `change` says, from its own settings or, for a
    /// language without them, the defaults with the project's review.
    pub fn set_workflow(
        &self,
        subject: &Subject,
        slug: &str,
        code: &str,
        change: impl FnOnce(Workflow) -> ServiceResult<Workflow>,
    ) -> ServiceResult<(String, Workflow)> {
        self.store.write(|conn| {
            let project = editable_project(conn, subject, slug)?;
            let code = language_code(conn, code)?;
            let mut all =
                projects::workflows_for_update(conn, project.id)?.ok_or(ServiceError::NotFound)?;
            let start = all.0.get(&code).cloned().unwrap_or_else(|| Workflow {
                translation_review: project.settings.translation_review,
                ..Workflow::default()
            });
            let mut changed = change(start)?;
            changed.check()?;
            if let Some(source) = changed.source_language.as_deref() {
                let known = languages::get_by_codes(conn, &[source.to_owned()])?.pop();
                let known = known.ok_or_else(|| {
                    ServiceError::invalid("source_language", "Language not found.")
                })?;
                changed.source_language = Some(known.code);
            }
            all.0.insert(code.clone(), changed.clone());
            projects::set_workflows(conn, project.id, &all)?;
            Ok((code, changed))
        })
    }

    /// Removes a language's workflow settings from a project (needs
    /// `project.edit`): its strings follow the project's and components'
    /// settings again. Not found when it had none.
    pub fn remove_workflow(&self, subject: &Subject, slug: &str, code: &str) -> ServiceResult<()> {
        self.store.write(|conn| {
            let project = editable_project(conn, subject, slug)?;
            let code = language_code(conn, code)?;
            let mut all =
                projects::workflows_for_update(conn, project.id)?.ok_or(ServiceError::NotFound)?;
            if all.0.remove(&code).is_none() {
                return Err(ServiceError::NotFound);
            }
            projects::set_workflows(conn, project.id, &all)?;
            Ok(())
        })
    }
}
