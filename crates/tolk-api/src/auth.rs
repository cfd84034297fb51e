//! Who is calling: the `Authorization: Token <key>` (or `Bearer <key>`)
//! header resolved to a [`Subject`]. Authentication runs once per request,
//! in the middleware, before throttling and any permission check, so a bad
//! token is 401 even where anonymous reads are allowed; the [`Caller`]
//! extractor hands its result to handlers and lets anonymous callers only
//! read.

use actix_web::http::Method;
use actix_web::http::header::AUTHORIZATION;
use actix_web::{FromRequest, HttpMessage, HttpRequest, dev::Payload, web};
use futures_util::future::{Ready, ready};
use tolk_domain::permission::Subject;

use crate::error::ApiError;
use crate::routes::permissions::{self, Check};
use crate::state::AppState;

/// The authenticated caller of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller(pub Subject);

/// What the `Authorization` header says.
#[derive(Debug, PartialEq, Eq)]
enum Credentials {
    None,
    Key(String),
}

fn credentials(req: &HttpRequest) -> Result<Credentials, ApiError> {
    let Some(value) = req.headers().get(AUTHORIZATION) else {
        return Ok(Credentials::None);
    };
    let value = value
        .to_str()
        .map_err(|_| ApiError::AuthenticationFailed("Invalid token header.".into()))?;
    let mut parts = value.split_whitespace();
    let scheme = parts.next().unwrap_or("");
    if !scheme.eq_ignore_ascii_case("token") && !scheme.eq_ignore_ascii_case("bearer") {
        // Other schemes belong to other authentication methods.
        return Ok(Credentials::None);
    }
    let rest: Vec<&str> = parts.collect();
    match rest.as_slice() {
        [] => Err(ApiError::AuthenticationFailed(
            "Invalid token header. No credentials provided.".into(),
        )),
        [key] => Ok(Credentials::Key((*key).to_owned())),
        _ => Err(ApiError::AuthenticationFailed(
            "Invalid token header. Token string should not contain spaces.".into(),
        )),
    }
}

fn is_safe(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Resolves the request's credentials to the subject acting.
pub(crate) async fn authenticate(req: &HttpRequest) -> Result<Subject, ApiError> {
    match credentials(req)? {
        Credentials::None => Ok(Subject::Anonymous),
        Credentials::Key(key) => {
            let state = req
                .app_data::<web::Data<AppState>>()
                .cloned()
                .ok_or_else(|| ApiError::Internal("no application state".into()))?;
            crate::blocking(move || state.service.authenticate(&key)).await
        }
    }
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
        let needs_sign_in = req
            .match_pattern()
            .and_then(|pattern| permissions::check(req.method().as_str(), &pattern))
            .map_or(!is_safe(req.method()), Check::needs_sign_in);
        ready(caller.and_then(|caller| {
            if needs_sign_in && !caller.0.is_authenticated() {
                return Err(ApiError::NotAuthenticated);
            }
            Ok(caller)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn parse(header: &str) -> Result<Credentials, ApiError> {
        credentials(
            &TestRequest::get()
                .insert_header((AUTHORIZATION, header))
                .to_http_request(),
        )
    }

    #[test]
    fn header_forms() {
        assert_eq!(
            parse("Token wlu_abc").unwrap(),
            Credentials::Key("wlu_abc".into())
        );
        assert_eq!(
            parse("Bearer wlu_abc").unwrap(),
            Credentials::Key("wlu_abc".into())
        );
        assert_eq!(parse("Basic dXNlcjpwYXNz").unwrap(), Credentials::None);
        assert!(
            parse("Token")
                .unwrap_err()
                .to_string()
                .contains("No credentials")
        );
        assert!(
            parse("Token a b")
                .unwrap_err()
                .to_string()
                .contains("spaces")
        );
        assert_eq!(
            credentials(&TestRequest::get().to_http_request()).unwrap(),
            Credentials::None
        );
    }
}
