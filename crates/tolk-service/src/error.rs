//! Why a use-case refused or failed.

use tolk_domain::validation::FieldErrors;
use tolk_store::StoreError;

/// The outcome of a use-case that did not succeed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The object does not exist or the caller may not see it.
    #[error("not found")]
    NotFound,
    /// The page number lies past the end of the list.
    #[error("invalid page")]
    InvalidPage,
    /// The caller must sign in first.
    #[error("authentication credentials were not provided")]
    NotAuthenticated,
    /// The presented credentials are not valid.
    #[error("{0}")]
    AuthenticationFailed(String),
    /// The caller may see the object but not do this.
    #[error("{0}")]
    PermissionDenied(String),
    /// The input is invalid; every problem is listed.
    #[error("invalid input")]
    Validation(FieldErrors),
    /// The database failed.
    #[error(transparent)]
    Store(StoreError),
    /// Git failed, or another operation holds the repository.
    #[error(transparent)]
    Vcs(#[from] tolk_vcs::VcsError),
    /// Work on files failed; the words say why.
    #[error("{0}")]
    Failed(String),
}

impl From<StoreError> for ServiceError {
    /// A search past its budget is the caller's to narrow (a 400 on `q`);
    /// anything else the database says is a failure.
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::SearchBudget(message) => ServiceError::invalid("q", &message),
            e => ServiceError::Store(e),
        }
    }
}

impl From<tolk_store::QueryError> for ServiceError {
    fn from(e: tolk_store::QueryError) -> Self {
        ServiceError::Store(StoreError::Query(e))
    }
}

impl ServiceError {
    /// A 400 with one message on the field `attr`.
    pub fn invalid(attr: &str, message: &str) -> ServiceError {
        let mut errors = FieldErrors::default();
        errors.invalid(attr, message);
        ServiceError::Validation(errors)
    }
}

impl From<FieldErrors> for ServiceError {
    fn from(errors: FieldErrors) -> Self {
        ServiceError::Validation(errors)
    }
}

/// Result of a use-case.
pub type ServiceResult<T> = Result<T, ServiceError>;
