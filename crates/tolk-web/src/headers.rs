//! The headers of every page, error pages included: a Content-Security-
//! Policy that runs no inline script and loads nothing from elsewhere,
//! no framing, no referrer to other sites, and no caching of pages that
//! are someone's own.

use actix_web::http::StatusCode;
use actix_web::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use actix_web::{HttpResponse, HttpResponseBuilder};

/// The policy of every page: scripts, styles and images of this site
/// only, no inline script, forms posted only here, never in a frame.
pub const CONTENT_SECURITY_POLICY_VALUE: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; \
     frame-ancestors 'none'; base-uri 'none'";

/// An answer with a page's headers, before its body.
pub fn answer(status: StatusCode) -> HttpResponseBuilder {
    let mut answer = HttpResponse::build(status);
    answer
        .insert_header((CONTENT_TYPE, "text/html; charset=utf-8"))
        .insert_header((CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY_VALUE))
        .insert_header((X_FRAME_OPTIONS, "DENY"))
        .insert_header((X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((REFERRER_POLICY, "same-origin"))
        .insert_header((CACHE_CONTROL, "no-store"));
    answer
}
