//! Every response names its request: `X-Request-Id` carries the id that
//! the request's log span (from `tracing-actix-web`) records, so that a
//! client reporting a failure points at the log lines of its cause.

use actix_web::HttpMessage;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use tracing_actix_web::RequestId;

/// The response header holding the request id.
pub const HEADER: &str = "x-request-id";

/// The middleware: copies the request's id into its response.
pub async fn echo(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = req.extensions().get::<RequestId>().copied();
    let mut response = next.call(req).await?;
    if let Some(value) = id.and_then(|id| HeaderValue::from_str(&id.to_string()).ok()) {
        response
            .headers_mut()
            .insert(HeaderName::from_static(HEADER), value);
    }
    Ok(response)
}
