//! The readable HTML page of an API response (`?format=api`): the same
//! JSON, pretty-printed, with every link clickable.

use actix_web::body::BoxBody;
use actix_web::dev::ServiceResponse;
use rust_embed::Embed;

/// Files embedded in the binary.
#[derive(Embed)]
#[folder = "assets/"]
struct Assets;

/// `text` safe inside HTML text and attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes pretty-printed JSON and turns string values that are URLs into links.
fn linkify(json: &str) -> String {
    let mut out = String::with_capacity(json.len() * 2);
    let mut rest = json;
    while let Some(start) = rest.find('"') {
        out.push_str(&escape(&rest[..start]));
        let after = &rest[start + 1..];
        // Find the closing quote, skipping escaped characters.
        let mut end = None;
        let mut escaped = false;
        for (i, c) in after.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => {
                    end = Some(i);
                    break;
                }
                _ => {}
            }
        }
        let Some(end) = end else {
            out.push_str(&escape(&rest[start..]));
            return out;
        };
        let content = &after[..end];
        let is_link = (content.starts_with("http://") || content.starts_with("https://"))
            && !content.contains('\\');
        if is_link {
            let text = escape(content);
            out.push_str(&format!("&quot;<a href=\"{text}\">{text}</a>&quot;"));
        } else {
            out.push_str(&escape(&rest[start..start + end + 2]));
        }
        rest = &after[end + 1..];
    }
    out.push_str(&escape(rest));
    out
}

/// The HTML page for a JSON body.
pub fn page(method: &str, path: &str, status: &str, body: &[u8]) -> String {
    let pretty = serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| String::from_utf8_lossy(body).into_owned());
    let css = Assets::get("api.css")
        .map(|f| String::from_utf8_lossy(&f.data).into_owned())
        .unwrap_or_default();
    let path = escape(path);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{path} – Tolk API</title><style>{css}</style></head><body>\
         <header><a href=\"/api/\">Tolk API</a></header><main><h1>{path}</h1>\
         <div class=\"status\"><span class=\"method\">{method}</span> {status}</div>\
         <pre>{}</pre><p class=\"formats\">Formats: <a href=\"?format=json\">json</a> · \
         <a href=\"/api/docs/\">documentation</a></p></main></body></html>\n",
        linkify(&pretty),
        method = escape(method),
        status = escape(status),
    )
}

/// Replaces a JSON response by its HTML page, keeping status and headers.
pub async fn wrap(response: ServiceResponse<BoxBody>) -> ServiceResponse<BoxBody> {
    crate::reencode::json_response(response, "text/html; charset=utf-8", |req, status, body| {
        let status_line = format!(
            "HTTP {} {}",
            status.as_u16(),
            status.canonical_reason().unwrap_or("")
        );
        page(req.method().as_str(), req.path(), &status_line, body).into_bytes()
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_clickable_and_text_escaped() {
        let html = linkify(r#"{"url": "http://h/api/x/", "name": "<b>\"q\"</b>"}"#);
        assert!(html.contains(r#"&quot;<a href="http://h/api/x/">http://h/api/x/</a>&quot;"#));
        assert!(html.contains("&lt;b&gt;"));
        assert!(!html.contains("<b>"));
    }

    #[test]
    fn page_shows_status_and_pretty_json() {
        let html = page("GET", "/api/", "HTTP 200 OK", br#"{"a":1}"#);
        assert!(html.contains("<h1>/api/</h1>"));
        assert!(html.contains("HTTP 200 OK"));
        assert!(html.contains("\"a\": 1") || html.contains("&quot;a&quot;: 1"));
    }
}
