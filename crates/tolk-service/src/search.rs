//! Site search (§22): the projects, components, users and languages whose
//! names hold a text.

use tolk_domain::permission::Subject;
use tolk_domain::query::MAX_LENGTH;
use tolk_store::site_search::{self, Found};

use crate::{ServiceError, ServiceResult};

crate::service::area!(
    /// The use-cases of the site as a whole: search across it, its metrics,
    /// readiness and operational state.
    Site,
    site
);

impl Site<'_> {
    /// What names hold `q`, in any case: projects and components the
    /// caller may see, users for signed-in callers, languages. Nothing for
    /// an empty `q`.
    pub fn search(&self, subject: &Subject, q: &str) -> ServiceResult<Found> {
        if q.chars().count() > MAX_LENGTH {
            return Err(ServiceError::invalid(
                "q",
                &format!("Ensure this field has no more than {MAX_LENGTH} characters."),
            ));
        }
        if q.trim().is_empty() || q.contains('\0') {
            return Ok(Found::default());
        }
        let with_users = subject.user_id().is_some();
        self.store.read(|conn| {
            Ok(site_search::search(
                conn,
                &subject.project_visibility(),
                q.trim(),
                with_users,
            )?)
        })
    }
}
