//! Request bodies in flight share one budget of memory, so that many
//! large uploads or notifications at once (anyone may send the latter)
//! cannot raise the server's memory without bound. A request with a body
//! holds its share from before its body is read until its answer is made:
//! [`WEIGHT`] times its declared `Content-Length` (or the largest body,
//! [`MAX_BODY`], when it does not say), what handling a body takes at
//! most (it is read, copied out of its form, parsed, and answered). Others
//! wait their turn, and one that cannot start within [`WAIT`] is answered
//! 503 with `Retry-After`. Requests without a body (reads) never wait.

use std::time::Duration;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{CONTENT_LENGTH, HeaderValue, RETRY_AFTER, TRANSFER_ENCODING};
use actix_web::middleware::Next;
use actix_web::{HttpResponse, ResponseError, web};
use tokio::sync::Semaphore;

use crate::error::ApiError;
use crate::input::MAX_BODY;

/// Longest a request waits for its share before it is answered 503.
pub const WAIT: Duration = Duration::from_secs(30);

/// The budget's unit: shares are counted in kibibytes.
const UNIT: usize = 1024;

/// The memory handling a body takes, as a multiple of its size: measured
/// on uploads of 4 MiB gettext catalogues, 16 to 40 times their size at
/// the peak, most of it briefly.
pub const WEIGHT: usize = 16;

/// The memory request bodies in flight may take together.
#[derive(Debug)]
pub struct BodyBudget {
    shares: Semaphore,
    units: usize,
}

impl BodyBudget {
    /// A budget of `bytes` (at least what one largest body takes).
    pub fn new(bytes: usize) -> BodyBudget {
        let units = bytes.max(MAX_BODY * WEIGHT).div_ceil(UNIT);
        BodyBudget {
            shares: Semaphore::new(units),
            units,
        }
    }

    /// The budget in bytes.
    pub fn bytes(&self) -> usize {
        self.units * UNIT
    }

    /// The share of a body of `bytes`.
    fn share(&self, bytes: usize) -> u32 {
        let units = (bytes.clamp(1, MAX_BODY) * WEIGHT)
            .div_ceil(UNIT)
            .min(self.units);
        u32::try_from(units).unwrap_or(u32::MAX)
    }
}

/// The budget when none is set, in MiB: two of the largest bodies at
/// once, or some hundred ordinary ones.
pub const DEFAULT_MIB: usize = 128;

impl Default for BodyBudget {
    fn default() -> Self {
        BodyBudget::new(DEFAULT_MIB * 1024 * 1024)
    }
}

/// How many bytes of body a request says it brings: its `Content-Length`,
/// the largest body when it streams one without saying, none otherwise.
fn declared(req: &ServiceRequest) -> usize {
    let headers = req.headers();
    match headers.get(CONTENT_LENGTH) {
        Some(length) => length
            .to_str()
            .ok()
            .and_then(|l| l.trim().parse::<u64>().ok())
            .map_or(MAX_BODY, |l| usize::try_from(l).unwrap_or(MAX_BODY)),
        None if headers.contains_key(TRANSFER_ENCODING) => MAX_BODY,
        None => 0,
    }
}

/// The middleware: holds the request's share of the budget while it is
/// read and answered.
pub async fn hold(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let bytes = declared(&req);
    let budget = req.app_data::<web::Data<BodyBudget>>().cloned();
    let Some(budget) = budget.filter(|_| bytes > 0) else {
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    let share = budget.share(bytes);
    match tokio::time::timeout(WAIT, budget.shares.acquire_many(share)).await {
        Ok(Ok(_held)) => Ok(next.call(req).await?.map_into_boxed_body()),
        _ => {
            let mut answer: HttpResponse = ApiError::Busy(
                "The server is reading as many request bodies as it may at once; try again shortly."
                    .into(),
            )
            .error_response();
            answer
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(WAIT.as_secs()));
            Ok(req.into_response(answer))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_kibibytes_of_what_a_body_takes_within_the_budget() {
        let budget = BodyBudget::new(128 * 1024 * 1024);
        assert_eq!(budget.bytes(), 128 * 1024 * 1024);
        assert_eq!(budget.share(1), 1);
        assert_eq!(budget.share(1024), 16);
        assert_eq!(budget.share(1025), 17);
        assert_eq!(
            budget.share(usize::MAX),
            65_536,
            "never past the largest body"
        );
        // A budget smaller than one largest body takes one all the same.
        assert_eq!(BodyBudget::new(1).bytes(), MAX_BODY * WEIGHT);
    }
}
