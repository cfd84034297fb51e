//! How a page or image answers a failure: 404 for what does not exist or
//! may not be seen, 400 for a form that does not read, 403 for a
//! refused form or action, 500 for the rest,
//! with no detail of the server.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use tolk_service::ServiceError;

/// A failure of a page or image.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    /// Nothing by that name, or hidden from the caller.
    #[error("Not found.")]
    NotFound,
    /// A form that does not read as its fields.
    #[error("The form could not be read.")]
    BadForm,
    /// A request the rules refuse (a search that does not parse), with
    /// their words.
    #[error("{0}")]
    Invalid(String),
    /// Refused: a form without this site's token, or an action the
    /// visitor may not take.
    #[error("{0}")]
    Forbidden(String),
    /// Anything else; what it was goes to the log.
    #[error("The server could not answer.")]
    Internal,
}

impl From<ServiceError> for WebError {
    fn from(error: ServiceError) -> Self {
        match error {
            ServiceError::NotFound | ServiceError::InvalidPage => WebError::NotFound,
            other => {
                tracing::error!("a page failed: {other}");
                WebError::Internal
            }
        }
    }
}

impl ResponseError for WebError {
    fn status_code(&self) -> StatusCode {
        match self {
            WebError::NotFound => StatusCode::NOT_FOUND,
            WebError::Forbidden(_) => StatusCode::FORBIDDEN,
            WebError::BadForm | WebError::Invalid(_) => StatusCode::BAD_REQUEST,
            WebError::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        HttpResponse::build(self.status_code())
            .content_type("text/plain; charset=utf-8")
            .body(self.to_string())
    }
}
