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
    /// Too many sign-in attempts: the next may come after `retry_after` seconds.
    #[error("Too many attempts. Try again in {retry_after} seconds.")]
    TooManyAttempts {
        /// Seconds to wait.
        retry_after: u64,
    },
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
    /// A file could not be read as its format, or made in it.
    #[error(transparent)]
    Format(#[from] tolk_formats::FormatError),
    /// A file of a component cannot be read: it is not valid in its
    /// format or holds what Tolk does not store; the words name the file
    /// and the line.
    #[error("{0}")]
    UnreadableFile(String),
    /// A translation's strings do not fit the format of a converted
    /// download; the words say what the format cannot hold.
    #[error("{0}")]
    Unconvertible(String),
    /// A file the component's settings name is not in its work tree.
    #[error("{0}: the file does not exist")]
    MissingFile(String),
    /// The component's file mask matches no file name.
    #[error("invalid file mask {0:?}")]
    InvalidFileMask(String),
    /// Writing a file or a stream failed.
    #[error("cannot write {what}: {source}")]
    Write {
        /// What was being written.
        what: &'static str,
        /// Why it failed.
        #[source]
        source: std::io::Error,
    },
    /// Writing a ZIP archive failed.
    #[error("writing a ZIP archive: {0}")]
    Archive(#[from] zip::result::ZipError),
}

impl ServiceError {
    /// A failed write of `what`, for `map_err`.
    pub(crate) fn writing(what: &'static str) -> impl Fn(std::io::Error) -> ServiceError + Copy {
        move |source| ServiceError::Write { what, source }
    }
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
