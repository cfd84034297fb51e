//! How a page or image answers a failure: 404 for what does not exist or
//! may not be seen, 400 for a form that does not read, 403 for a
//! refused form or action, 413 for a body too large, 500 for the rest,
//! with no detail of the server, as a small page of its own.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use askama::Template;
use tolk_service::ServiceError;

use crate::headers::answer;

/// The page of a failure: what it was, in words, and the way back; no
/// frame, which would need the visitor.
#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage {
    title: &'static str,
    message: String,
}

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
    /// A body past the largest read.
    #[error("The file is too large.")]
    TooLarge,
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

/// What a refused action says: 400 for input the rules refuse, 403 for
/// an action the visitor may not take; anything else is the page's
/// failure.
pub fn refusal(error: ServiceError) -> Result<(StatusCode, String), WebError> {
    match error {
        ServiceError::Validation(errors) => {
            let words: Vec<String> = errors.iter().map(|e| e.detail.clone()).collect();
            Ok((StatusCode::BAD_REQUEST, words.join(" ")))
        }
        ServiceError::PermissionDenied(words) => Ok((StatusCode::FORBIDDEN, words)),
        ServiceError::NotAuthenticated => {
            Ok((StatusCode::FORBIDDEN, "Sign in to do this.".to_owned()))
        }
        other => Err(WebError::from(other)),
    }
}

/// The failure of a read the rules refuse (a search that does not
/// parse, a download one may not make), with their words.
pub fn refused(error: ServiceError) -> WebError {
    match refusal(error) {
        Ok((StatusCode::BAD_REQUEST, words)) => WebError::Invalid(words),
        Ok((_, words)) => WebError::Forbidden(words),
        Err(other) => other,
    }
}

impl ResponseError for WebError {
    fn status_code(&self) -> StatusCode {
        match self {
            WebError::NotFound => StatusCode::NOT_FOUND,
            WebError::Forbidden(_) => StatusCode::FORBIDDEN,
            WebError::BadForm | WebError::Invalid(_) => StatusCode::BAD_REQUEST,
            WebError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            WebError::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let page = ErrorPage {
            title: match self {
                WebError::NotFound => "Not found",
                WebError::BadForm | WebError::Invalid(_) => "Not understood",
                WebError::Forbidden(_) => "Refused",
                WebError::TooLarge => "Too large",
                WebError::Internal => "Server error",
            },
            message: self.to_string(),
        };
        let body = page.render().unwrap_or_else(|_| page.message.clone());
        answer(self.status_code()).body(body)
    }
}
