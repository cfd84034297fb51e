//! Strong entity tags (a Tolk extension): a successful GET answer whose
//! body is in memory carries an `ETag` naming its bytes, and a request
//! whose `If-None-Match` names it is answered 304 without the body, so a
//! client polling an object or a file downloads it again only when it
//! changed. Streamed answers (ZIP archives) carry none.

use std::hash::BuildHasher;

use foldhash::quality::FixedState;

use actix_web::HttpResponse;
use actix_web::body::{BodySize, BoxBody, MessageBody, to_bytes};
use actix_web::dev::ServiceResponse;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};

/// Bodies larger than this are served without a tag rather than hashed.
const LARGEST: u64 = 16 * 1024 * 1024;

/// The tag of `body`: a hash of its bytes, quoted.
fn tag_of(body: &[u8]) -> String {
    let hash = FixedState::with_seed(0).hash_one(body);
    format!("\"{hash:016x}\"")
}

/// Whether an `If-None-Match` value names `tag` (or is `*`).
fn matches(if_none_match: &str, tag: &str) -> bool {
    if_none_match
        .split(',')
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == tag || t == "*")
}

/// `response` with its tag, or a 304 when the request already has it.
pub async fn tagged(response: ServiceResponse<BoxBody>) -> ServiceResponse<BoxBody> {
    let sized = matches!(response.response().body().size(), BodySize::Sized(n) if n <= LARGEST);
    if response.request().method() != Method::GET || response.status() != StatusCode::OK || !sized {
        return response;
    }
    let if_none_match = response
        .request()
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let (req, res) = response.into_parts();
    let (head, body) = res.into_parts();
    let Ok(bytes) = to_bytes(body).await else {
        return ServiceResponse::new(req, HttpResponse::InternalServerError().finish());
    };
    let tag = tag_of(&bytes);
    let mut answer = if if_none_match.is_some_and(|v| matches(&v, &tag)) {
        let mut not_modified = HttpResponse::NotModified();
        for name in [header::LAST_MODIFIED, header::VARY, header::ALLOW] {
            if let Some(value) = head.headers().get(&name) {
                not_modified.insert_header((name, value.clone()));
            }
        }
        not_modified.finish()
    } else {
        head.set_body(BoxBody::new(bytes))
    };
    if let Ok(value) = HeaderValue::from_str(&tag) {
        answer.headers_mut().insert(header::ETAG, value);
    }
    ServiceResponse::new(req, answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_name_the_bytes_and_match_lists() {
        let tag = tag_of(b"{\"id\": 1}");
        assert_eq!(tag, tag_of(b"{\"id\": 1}"));
        assert_ne!(tag, tag_of(b"{\"id\": 2}"));
        assert!(tag.starts_with('"') && tag.ends_with('"') && tag.len() == 18);
        assert!(matches(&format!("\"x\", {tag}"), &tag));
        assert!(matches(&format!("W/{tag}"), &tag));
        assert!(matches("*", &tag));
        assert!(!matches("\"other\"", &tag));
    }
}
