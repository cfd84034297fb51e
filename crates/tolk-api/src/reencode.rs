//! Turning a JSON response into another representation of the same data
//! (the HTML page, CSV, flat JSON) after the handler has answered.

use actix_web::body::{BoxBody, to_bytes};
use actix_web::dev::ServiceResponse;
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse};

/// Replaces the body of a JSON response by `convert` of it, served as
/// `content_type`; status and other headers stay. Other responses are
/// returned as they are.
pub async fn json_response(
    response: ServiceResponse<BoxBody>,
    content_type: &str,
    convert: impl FnOnce(&HttpRequest, StatusCode, &[u8]) -> Vec<u8>,
) -> ServiceResponse<BoxBody> {
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !is_json {
        return response;
    }
    let (req, res) = response.into_parts();
    let status = res.status();
    let headers = res.headers().clone();
    let body = to_bytes(res.into_body()).await.unwrap_or_default();
    let converted = convert(&req, status, &body);
    let mut builder = HttpResponse::build(status);
    for (name, value) in &headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            builder.append_header((name.clone(), value.clone()));
        }
    }
    let response = builder.content_type(content_type).body(converted);
    ServiceResponse::new(req, response)
}

/// `?format=json-flat`: a JSON body with a page's envelope replaced by its
/// items; other bodies are kept.
pub fn flat_json(body: &[u8]) -> Vec<u8> {
    serde_json::from_slice(body)
        .ok()
        .and_then(|value| serde_json::to_vec(&unwrap_page(value)).ok())
        .unwrap_or_else(|| body.to_vec())
}

/// The items of a page (`results` of a paginated envelope), else the value.
pub fn unwrap_page(value: serde_json::Value) -> serde_json::Value {
    match value {
        serde_json::Value::Object(mut map)
            if map.contains_key("count") && map.get("results").is_some_and(|r| r.is_array()) =>
        {
            map.remove("results").unwrap_or_default()
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_json_unwraps_pages_only() {
        let page = br#"{"count":2,"next":null,"previous":null,"results":[{"a":1},{"a":2}]}"#;
        assert_eq!(flat_json(page), br#"[{"a":1},{"a":2}]"#);
        assert_eq!(flat_json(br#"{"total":5}"#), br#"{"total":5}"#);
        assert_eq!(flat_json(br#"{"results":[1]}"#), br#"{"results":[1]}"#);
        assert_eq!(flat_json(b"oops"), b"oops");
    }
}
