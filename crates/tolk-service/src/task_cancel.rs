//! Cancelling a task (`DELETE /api/tasks/{id}/`): whoever may edit the
//! task's component may. A waiting task ends at once; a running one is
//! told at its next report and stops where its work allows (automatic
//! translation between batches; reading files and cloning run to their
//! end, and its log says so). Tasks of no component cannot be
//! cancelled, as in Weblate.

use tolk_domain::permission::{Permission, Subject};
use tolk_store::tasks::{self, Cancellation};
use tolk_store::{components, time};

use crate::access::require;
use crate::component_view::views;
use crate::tasks::{Tasks, visible_tasks};
use crate::{ServiceError, ServiceResult};

/// The refusal for tasks of no component and callers who may not edit it.
const DENIED: &str = "You do not have permission to perform this action.";

impl Tasks<'_> {
    /// Cancels the task `id`, if the caller sees it (404 otherwise) and
    /// may edit its component (403 otherwise); a finished task is left
    /// as it is.
    pub fn cancel(&self, subject: &Subject, id: &str) -> ServiceResult<()> {
        self.store.write(|conn| {
            let task = visible_tasks(conn, subject, &[id.to_owned()])?
                .pop()
                .ok_or(ServiceError::NotFound)?;
            let Some(component_id) = task.component_id else {
                return Err(ServiceError::PermissionDenied(DENIED.to_owned()));
            };
            let found = components::get_by_ids(conn, &[component_id])?;
            let view = views(conn, found)?.pop().ok_or(ServiceError::NotFound)?;
            require(subject, Permission::COMPONENT_EDIT, view.target(), DENIED)?;
            if tasks::cancel(conn, id, time::now())? == Cancellation::Ended {
                components::clear_task(conn, component_id, id)?;
            }
            Ok(())
        })
    }
}
