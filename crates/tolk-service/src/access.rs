//! Shorthands for asking the domain's access check inside use-cases.

use tolk_domain::permission::{Permission, Subject, Target};
use tolk_store::{Page, PageRequest, StoreError, StoreResult};

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

/// The requested page of `items`, a list filtered in memory (short
/// lists whose visibility the database cannot decide).
pub fn page_in_memory<T>(request: PageRequest, mut items: Vec<T>) -> ServiceResult<Page<T>> {
    page(request.run(
        &mut items,
        |all| Ok::<_, StoreError>(i64::try_from(all.len()).unwrap_or(i64::MAX)),
        |all, offset, limit| {
            let skip = usize::try_from(offset).unwrap_or(usize::MAX);
            let take = usize::try_from(limit).unwrap_or(usize::MAX);
            Ok(all.drain(..).skip(skip).take(take).collect())
        },
    ))
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
