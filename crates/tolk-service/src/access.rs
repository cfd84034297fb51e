//! Shorthands for asking the domain's access check inside use-cases.

use tolk_domain::permission::{Permission, Subject, Target};
use tolk_store::{Page, StoreResult};

use crate::{ServiceError, ServiceResult};

/// Fails unless `subject` may use `permission` on `target`: anonymous
/// callers are told to authenticate, others get `message`.
pub fn require(
    subject: &Subject,
    permission: Permission,
    target: Target,
    message: &str,
) -> ServiceResult<()> {
    if subject.can(permission, target) {
        Ok(())
    } else if subject.is_authenticated() {
        Err(ServiceError::PermissionDenied(message.to_owned()))
    } else {
        Err(ServiceError::NotAuthenticated)
    }
}

/// Fails for anonymous callers.
pub fn require_authenticated(subject: &Subject) -> ServiceResult<()> {
    if subject.is_authenticated() {
        Ok(())
    } else {
        Err(ServiceError::NotAuthenticated)
    }
}

/// Turns a page lookup into a page or the invalid-page error.
pub fn page<T>(page: StoreResult<Option<Page<T>>>) -> ServiceResult<Page<T>> {
    page?.ok_or(ServiceError::InvalidPage)
}

/// The account acting: the signed-in user, or the one standing for
/// anonymous callers (whose teams give anonymous callers their grants).
pub(crate) fn account(
    conn: &mut tolk_store::DbConnection,
    subject: &Subject,
) -> ServiceResult<i64> {
    Ok(match subject.user_id() {
        Some(id) => id,
        None => tolk_store::users::get_by_username(conn, tolk_domain::user::ANONYMOUS_USERNAME)?
            .map(|u| u.id)
            .unwrap_or_default(),
    })
}
