//! How handlers answer: running service calls off the async workers, and
//! the answer to a create.

use actix_web::{HttpResponse, web};
use serde::Serialize;
use tolk_service::ServiceResult;

use crate::error::{ApiError, ApiResult};

/// Runs a blocking use-case off the async workers.
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> ServiceResult<T> + Send + 'static,
) -> ApiResult<T> {
    web::block(f)
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
        .map_err(ApiError::from)
}

/// A 201 response with the new object and its `Location`.
pub(crate) fn created(location: &str, body: impl Serialize) -> HttpResponse {
    HttpResponse::Created()
        .insert_header((actix_web::http::header::LOCATION, location))
        .json(body)
}
