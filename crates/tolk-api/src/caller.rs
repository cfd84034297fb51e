//! The [`Caller`] extractor: the subject the [`identify`](crate::auth::identify)
//! middleware found, handed to handlers; the route table decides whether
//! an anonymous caller may go on.

use actix_web::http::Method;
use actix_web::{FromRequest, HttpMessage, HttpRequest, dev::Payload};
use futures_util::future::{Ready, ready};
use tolk_domain::permission::Subject;

use crate::error::ApiError;
use crate::routes::permissions;

/// The authenticated caller of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller(pub Subject);

fn is_safe(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let caller = req
            .extensions()
            .get::<Caller>()
            .cloned()
            .ok_or_else(|| ApiError::Internal("the request was not authenticated".into()));
        // The route table says who may call; a route missing from it (a
        // test keeps that from happening) lets anonymous callers only read.
        let safe = is_safe(req.method());
        let needs_sign_in = req
            .match_pattern()
            .and_then(|pattern| permissions::check(req.method().as_str(), &pattern))
            .map_or(!safe, |check| check.needs_sign_in(safe));
        ready(caller.and_then(|caller| {
            if needs_sign_in && !caller.0.is_authenticated() {
                return Err(ApiError::NotAuthenticated);
            }
            Ok(caller)
        }))
    }
}
