//! API errors and their one mapping to HTTP responses, in Weblate's
//! standardized shape plus a top-level `detail` for older clients:
//!
//! ```json
//! {"type": "client_error", "errors": [{"code": "not_found", "detail": "Not found.", "attr": null}], "detail": "Not found."}
//! ```

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use tolk_domain::validation::{FieldError, FieldErrors};
use tolk_service::ServiceError;
use utoipa::ToSchema;

/// What a client learns of a server error; the cause is in the log.
pub const SERVER_ERROR: &str = "A server error occurred.";

/// One entry of an error response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ErrorItem {
    /// Machine-readable code, e.g. `required` or `not_found`.
    pub code: String,
    /// Human-readable message.
    pub detail: String,
    /// The field concerned, dotted for nested fields; null for the whole request.
    pub attr: Option<String>,
}

/// The body of every error response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ErrorBody {
    /// `validation_error`, `client_error` or `server_error`.
    #[serde(rename = "type")]
    pub kind: String,
    /// What went wrong; only validation errors have several entries.
    pub errors: Vec<ErrorItem>,
    /// The first error's detail, for clients that read the older shape.
    pub detail: String,
}

/// Everything a request can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Invalid fields (400 `validation_error`).
    #[error("invalid input")]
    Validation(Vec<FieldError>),
    /// The body could not be parsed (400 `parse_error`).
    #[error("{0}")]
    Parse(String),
    /// No credentials for an action that needs them (401).
    #[error("authentication credentials were not provided")]
    NotAuthenticated,
    /// Credentials were given but are not valid (401).
    #[error("{0}")]
    AuthenticationFailed(String),
    /// The caller may not do this (403).
    #[error("{0}")]
    PermissionDenied(String),
    /// Missing or hidden object (404 with the given detail).
    #[error("{0}")]
    NotFound(String),
    /// The method is not offered on this path (405).
    #[error("method {0} not allowed")]
    MethodNotAllowed(String),
    /// The method is offered, but a setting of the server turns it off
    /// (405 whose detail names the setting).
    #[error("method {method} not allowed: {why}")]
    TurnedOff {
        /// The method.
        method: String,
        /// Which setting turns it off, and how to turn it on.
        why: &'static str,
    },
    /// No offered representation matches `Accept` (406).
    #[error("not acceptable")]
    NotAcceptable,
    /// The request body's media type is not understood (415).
    #[error("unsupported media type {0}")]
    UnsupportedMediaType(String),
    /// Too many requests (429); the detail says when to come back.
    #[error("{0}")]
    Throttled(String),
    /// Something broke on our side (500). The cause goes to the log, never
    /// to the client.
    #[error("{0}")]
    Internal(String),
    /// The request body is larger than the server reads (413).
    #[error("request body larger than {0} bytes")]
    TooLarge(usize),
    /// Another operation holds the repository (423).
    #[error("repository locked")]
    Locked,
    /// The server has as much of this kind of work in hand as it takes
    /// (503); the detail says what.
    #[error("{0}")]
    Busy(String),
    /// The repository holds what Tolk refuses to read or write (a link, a
    /// path leading outside), or its URL is not allowed (400).
    #[error("{0}")]
    RepositoryRefused(String),
    /// The remote repository failed Tolk: not found, credentials needed,
    /// unreachable, a rejected push, a time limit (502).
    #[error("{0}")]
    Remote(String),
}

impl ApiError {
    /// The generic not-found error.
    pub fn not_found() -> Self {
        ApiError::NotFound("Not found.".into())
    }

    /// A single invalid field.
    pub fn field(attr: &str, code: &str, detail: impl Into<String>) -> Self {
        let mut errors = FieldErrors::default();
        errors.push(attr, code, detail);
        ApiError::Validation(errors.into_iter().collect())
    }

    fn parts(&self) -> (&'static str, Vec<ErrorItem>) {
        let one = |code: &str, detail: String| {
            vec![ErrorItem {
                code: code.to_owned(),
                detail,
                attr: None,
            }]
        };
        match self {
            ApiError::Validation(errors) => (
                "validation_error",
                errors
                    .iter()
                    .map(|e| ErrorItem {
                        code: e.code.clone(),
                        detail: e.detail.clone(),
                        attr: e.attr.clone(),
                    })
                    .collect(),
            ),
            ApiError::Parse(detail) => ("client_error", one("parse_error", detail.clone())),
            ApiError::NotAuthenticated => (
                "client_error",
                one(
                    "not_authenticated",
                    "Authentication credentials were not provided.".into(),
                ),
            ),
            ApiError::AuthenticationFailed(detail) => {
                ("client_error", one("authentication_failed", detail.clone()))
            }
            ApiError::PermissionDenied(detail) => {
                ("client_error", one("permission_denied", detail.clone()))
            }
            ApiError::NotFound(detail) => ("client_error", one("not_found", detail.clone())),
            ApiError::MethodNotAllowed(method) => (
                "client_error",
                one(
                    "method_not_allowed",
                    format!("Method \"{method}\" not allowed."),
                ),
            ),
            ApiError::TurnedOff { method, why } => (
                "client_error",
                one(
                    "method_not_allowed",
                    format!("Method \"{method}\" not allowed: {why}"),
                ),
            ),
            ApiError::NotAcceptable => (
                "client_error",
                one(
                    "not_acceptable",
                    "Could not satisfy the request Accept header.".into(),
                ),
            ),
            ApiError::UnsupportedMediaType(media) => (
                "client_error",
                one(
                    "unsupported_media_type",
                    format!("Unsupported media type \"{media}\" in request."),
                ),
            ),
            ApiError::Throttled(detail) => ("client_error", one("throttled", detail.clone())),
            ApiError::TooLarge(limit) => (
                "client_error",
                one(
                    "request_too_large",
                    format!("The request body is larger than {limit} bytes."),
                ),
            ),
            ApiError::Internal(_) => ("server_error", one("error", SERVER_ERROR.into())),
            ApiError::RepositoryRefused(detail) => ("client_error", one("invalid", detail.clone())),
            ApiError::Remote(detail) => ("server_error", one("repository_error", detail.clone())),
            ApiError::Busy(detail) => ("server_error", one("service_unavailable", detail.clone())),
            ApiError::Locked => (
                "client_error",
                one(
                    "repository-locked",
                    "Could not complete the operation because another background operation \
                     is in progress. Please try again later."
                        .into(),
                ),
            ),
        }
    }

    /// The response body.
    pub fn body(&self) -> ErrorBody {
        let (kind, errors) = self.parts();
        ErrorBody {
            kind: kind.to_owned(),
            detail: errors.first().map(|e| e.detail.clone()).unwrap_or_default(),
            errors,
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::Validation(_) | ApiError::Parse(_) | ApiError::RepositoryRefused(_) => {
                StatusCode::BAD_REQUEST
            }
            ApiError::Remote(_) => StatusCode::BAD_GATEWAY,
            ApiError::NotAuthenticated | ApiError::AuthenticationFailed(_) => {
                StatusCode::UNAUTHORIZED
            }
            ApiError::PermissionDenied(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) | ApiError::TurnedOff { .. } => {
                StatusCode::METHOD_NOT_ALLOWED
            }
            ApiError::NotAcceptable => StatusCode::NOT_ACCEPTABLE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Throttled(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Locked => StatusCode::LOCKED,
            ApiError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let ApiError::Internal(cause) = self {
            // Logged inside the request's span, which carries its id.
            tracing::error!(%cause, "request failed");
        }
        let mut response = HttpResponse::build(self.status_code());
        if self.status_code() == StatusCode::UNAUTHORIZED {
            response.insert_header((header::WWW_AUTHENTICATE, HeaderValue::from_static("Token")));
        }
        response.json(self.body())
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> Self {
        match e {
            ServiceError::NotFound => ApiError::not_found(),
            ServiceError::InvalidPage => ApiError::NotFound("Invalid page.".into()),
            ServiceError::NotAuthenticated => ApiError::NotAuthenticated,
            ServiceError::AuthenticationFailed(detail) => ApiError::AuthenticationFailed(detail),
            ServiceError::PermissionDenied(detail) => ApiError::PermissionDenied(detail),
            e @ ServiceError::TooManyAttempts { .. } => ApiError::Throttled(e.to_string()),
            ServiceError::Validation(errors) => ApiError::Validation(errors.into_iter().collect()),
            ServiceError::Store(e) => ApiError::Internal(e.to_string()),
            ServiceError::Vcs(e) => {
                use tolk_service::VcsError as V;
                match e {
                    V::Locked => ApiError::Locked,
                    V::Refused { .. } | V::Url(_) => ApiError::RepositoryRefused(e.to_string()),
                    V::NotFound(_)
                    | V::AuthenticationRequired(_)
                    | V::Unreachable(_)
                    | V::PushRejected(_)
                    | V::TimedOut { .. } => ApiError::Remote(e.to_string()),
                    V::Spawn { .. } | V::Failed { .. } | V::Read(_) | V::Io { .. } => {
                        ApiError::Internal(e.to_string())
                    }
                }
            }
            e @ (ServiceError::Format(_)
            | ServiceError::UnreadableFile(_)
            | ServiceError::Unconvertible(_)
            | ServiceError::MissingFile(_)
            | ServiceError::InvalidFileMask(_)
            | ServiceError::Write { .. }
            | ServiceError::Archive(_)) => ApiError::Internal(e.to_string()),
        }
    }
}

impl From<FieldErrors> for ApiError {
    fn from(errors: FieldErrors) -> Self {
        ApiError::Validation(errors.into_iter().collect())
    }
}

/// Result of a handler.
pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_shapes() {
        let body = serde_json::to_value(ApiError::not_found().body()).unwrap();
        assert_eq!(
            body,
            serde_json::json!({
                "type": "client_error",
                "errors": [{"code": "not_found", "detail": "Not found.", "attr": null}],
                "detail": "Not found."
            })
        );
        let mut errors = FieldErrors::default();
        errors.required("name");
        errors.blank("slug");
        let body = serde_json::to_value(ApiError::from(errors).body()).unwrap();
        assert_eq!(body["type"], "validation_error");
        assert_eq!(body["errors"][1]["attr"], "slug");
        assert_eq!(body["detail"], "This field is required.");
    }

    #[test]
    fn server_errors_keep_their_cause_to_the_log() {
        let error = ApiError::Internal(
            "duplicate key value violates unique constraint \"projects_slug_key\"".into(),
        );
        assert_eq!(error.status_code(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            serde_json::to_value(error.body()).unwrap(),
            serde_json::json!({
                "type": "server_error",
                "errors": [{"code": "error", "detail": SERVER_ERROR, "attr": null}],
                "detail": SERVER_ERROR
            })
        );
    }
}
