//! Who is calling: the `Authorization: Token <key>` (or `Bearer <key>`)
//! header resolved to a [`Subject`] by the [`identify`] middleware, once
//! per request, before throttling and any permission check, so a bad token
//! is 401 even where anonymous reads are allowed. The result reaches
//! handlers through the [`Caller`] extractor.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::AUTHORIZATION;
use actix_web::middleware::Next;
use actix_web::{HttpMessage, HttpRequest, ResponseError, web};
use tolk_domain::permission::Subject;

use crate::caller::Caller;
use crate::error::ApiError;
use crate::state::AppState;

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

/// The middleware: resolves the caller once and keeps it for the
/// [`Caller`] extractor and the throttle; bad credentials are 401 here.
pub async fn identify(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if crate::probes::PATHS.contains(&req.path()) {
        return Ok(next.call(req).await?.map_into_boxed_body());
    }
    match authenticate(req.request()).await {
        Ok(subject) => {
            if !crate::negotiate::is_api_path(req.path()) {
                // The pages' sign-in counts attempts against the address.
                let address = crate::client::Client::of(req.request()).address;
                req.extensions_mut()
                    .insert(tolk_service::accounts::ClientAddress(address));
            }
            req.extensions_mut().insert(Caller(subject));
            Ok(next.call(req).await?.map_into_boxed_body())
        }
        Err(error) => Ok(req.into_response(error.error_response())),
    }
}

/// Resolves the request's credentials to the subject acting.
async fn authenticate(req: &HttpRequest) -> Result<Subject, ApiError> {
    let credentials = credentials(req)?;
    let state = req
        .app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| ApiError::Internal("no application state".into()))?;
    // On this thread, not the blocking pool: one indexed read (the cache
    // generation) on a warm cache, where a hand-over to another thread
    // and back cost more than the read (a third of a unit GET's time went
    // to waking threads).
    Ok(match credentials {
        Credentials::None => state.service.auth().anonymous(),
        Credentials::Key(key) => state.service.auth().authenticate(&key),
    }?)
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
