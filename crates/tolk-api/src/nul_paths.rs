//! A path holding a NUL character (`%00`) names nothing Tolk keeps: no
//! slug, language code, file name or id has one, and PostgreSQL cannot
//! even compare text with it. Such a request is answered 404 before any
//! handler runs, on every database alike.

use actix_web::ResponseError;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;

/// Whether a raw (still percent-encoded) path holds a NUL character.
fn holds_nul(path: &str) -> bool {
    path.contains('\0')
        || path
            .as_bytes()
            .windows(3)
            .any(|w| w[0] == b'%' && w[1] == b'0' && w[2] == b'0')
}

/// The middleware: 404 for a path with a NUL character.
pub async fn refuse(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if holds_nul(req.uri().path()) {
        let answer = crate::error::ApiError::not_found().error_response();
        return Ok(req.into_response(answer));
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}

#[cfg(test)]
mod tests {
    use super::holds_nul;

    #[test]
    fn an_encoded_or_raw_nul_is_found_and_nothing_else() {
        assert!(holds_nul("/exports/rss/language/a%00b/"));
        assert!(holds_nul("/api/projects/%00/"));
        assert!(holds_nul("/a\0b"));
        assert!(!holds_nul("/api/projects/a%2500/"));
        assert!(!holds_nul("/api/units/100/"));
        assert!(!holds_nul("/api/projects/%C3%A9/"));
    }
}
