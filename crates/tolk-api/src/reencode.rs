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
