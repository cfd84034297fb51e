//! Request and response handling shared by every API route:
//!
//! * paths without a trailing slash are answered as if they had one (never
//!   redirected), and a format suffix (`/api/projects.json`) as `?format=`;
//! * `HEAD` is answered like `GET` without a body;
//! * the representation is chosen by `?format=` (`json`, `api`, `csv`, and
//!   `json-flat` on statistics and project languages) or `Accept`, 406 when
//!   nothing offered matches, 404 for an unknown format;
//! * every response on a known path carries `Allow` and `Vary: Accept`;
//! * `?format=api` (or a browser's `Accept`) turns JSON into a readable HTML
//!   page, `?format=csv` into a table (`csv`), `?format=json-flat` a page
//!   into its items;
//! * unknown methods on known paths are 405, `OPTIONS` describes the path;
//! * answers get an `ETag`, and `If-None-Match` a 304 (see `crate::etag`).

use std::sync::LazyLock;

use actix_router::ResourceDef;
use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, Uri};
use actix_web::middleware::Next;
use actix_web::{HttpMessage, HttpRequest, HttpResponse, ResponseError, web};
use utoipa::openapi::OpenApi;

use crate::error::ApiError;
use crate::{csv, html, reencode};

/// Paths served by other components (interactive docs and their assets).
const DOCS_PREFIX: &str = "/api/docs";

/// Extra `?format=` values a path answers itself.
/// Paths that also answer in the OpenMetrics text format (`?format=openmetrics`
/// or `Accept: application/openmetrics-text`), which their handlers write.
fn offers_openmetrics(path: &str) -> bool {
    static METRICS: LazyLock<ResourceDef> =
        LazyLock::new(|| ResourceDef::new(["/api/metrics/", "/api/projects/{slug}/metrics/"]));
    METRICS.is_match(path)
}

/// Whether a request to a path of [`offers_openmetrics`] asks for the
/// OpenMetrics text format, by its `?format=` (as the handler read it)
/// or its `Accept` header.
pub(crate) fn wants_openmetrics(req: &HttpRequest, format: Option<&str>) -> bool {
    format == Some("openmetrics")
        || req
            .headers()
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|a| a.contains("application/openmetrics-text"))
}

/// Marks a request whose answer is to be a CSV table, for handlers that
/// write their own (see [`wants_csv`]).
#[derive(Debug, Clone, Copy)]
struct CsvWanted;

/// Whether the request asks for CSV (by `?format=csv` or `Accept`): a
/// handler that writes its own table answers `text/csv`, which is then
/// left as it is; a JSON answer is turned into a table.
pub(crate) fn wants_csv(req: &HttpRequest) -> bool {
    req.extensions().contains::<CsvWanted>()
}

/// Paths whose `?format=` names a file conversion the handler makes (the
/// file downloads), not a representation.
pub(crate) fn converts_files(path: &str) -> bool {
    static FILES: LazyLock<ResourceDef> = LazyLock::new(|| {
        ResourceDef::new([
            "/api/translations/{project}/{component}/{language}/file/",
            "/api/components/{project}/{component}/file/",
            "/api/projects/{project}/file/",
            "/api/projects/{project}/languages/{language}/file/",
        ])
    });
    FILES.is_match(path)
}

/// Paths that answer `?format=json-flat`: statistics and project languages
/// (as in Weblate, where only these actions offer it).
fn offers_flat_json(path: &str) -> bool {
    static LANGUAGES: LazyLock<ResourceDef> =
        LazyLock::new(|| ResourceDef::new("/api/projects/{slug}/languages/"));
    path.ends_with("/statistics/") || LANGUAGES.is_match(path)
}

/// The methods each API path answers, from the OpenAPI document.
#[derive(Debug)]
pub struct AllowTable {
    entries: Vec<AllowEntry>,
}

#[derive(Debug)]
struct AllowEntry {
    pattern: ResourceDef,
    methods: Vec<Method>,
    name: String,
}

const METHOD_ORDER: [Method; 5] = [
    Method::GET,
    Method::POST,
    Method::PUT,
    Method::PATCH,
    Method::DELETE,
];

impl AllowTable {
    /// Collects the paths and methods of an OpenAPI document.
    pub fn from_openapi(api: &OpenApi) -> Self {
        let entries = api
            .paths
            .paths
            .iter()
            .map(|(path, item)| {
                let operations = [
                    (Method::GET, &item.get),
                    (Method::POST, &item.post),
                    (Method::PUT, &item.put),
                    (Method::PATCH, &item.patch),
                    (Method::DELETE, &item.delete),
                ];
                let name = operations
                    .iter()
                    .find_map(|(_, op)| op.as_ref().and_then(|o| o.summary.clone()))
                    .unwrap_or_else(|| path.clone());
                let methods = operations
                    .iter()
                    .filter(|(_, op)| op.is_some())
                    .map(|(m, _)| m.clone())
                    .collect();
                AllowEntry {
                    pattern: ResourceDef::new(path.as_str()),
                    methods,
                    name,
                }
            })
            .collect();
        Self { entries }
    }

    fn find(&self, path: &str) -> Option<&AllowEntry> {
        self.entries.iter().find(|e| e.pattern.is_match(path))
    }

    /// The `Allow` header value for a path, if it is an API path.
    fn allow(&self, path: &str) -> Option<String> {
        let entry = self.find(path)?;
        let mut names: Vec<&str> = METHOD_ORDER
            .iter()
            .filter(|m| entry.methods.contains(m))
            .map(Method::as_str)
            .collect();
        if entry.methods.contains(&Method::GET) {
            names.push("HEAD");
        }
        names.push("OPTIONS");
        Some(names.join(", "))
    }
}

/// How the response body is represented.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rendering {
    /// As the handler produced it (JSON or a format the handler chose).
    AsIs,
    /// JSON wrapped in a readable HTML page.
    Html,
    /// JSON as a CSV table.
    Csv,
    /// JSON with a page's envelope replaced by its items.
    FlatJson,
}

/// The `?format=` value of a request: the last one given, and none when it is empty.
pub fn query_format(req: &HttpRequest) -> Option<String> {
    form_urlencoded::parse(req.query_string().as_bytes())
        .filter(|(k, _)| k == "format")
        .last()
        .map(|(_, v)| v.into_owned())
        .filter(|v| !v.is_empty())
}

fn choose_rendering(req: &HttpRequest) -> Result<Rendering, ApiError> {
    if let Some(format) = query_format(req) {
        if converts_files(req.path()) {
            return Ok(Rendering::AsIs);
        }
        return match format.as_str() {
            "json" => Ok(Rendering::AsIs),
            "api" => Ok(Rendering::Html),
            "csv" => Ok(Rendering::Csv),
            "json-flat" if offers_flat_json(req.path()) => Ok(Rendering::FlatJson),
            "openmetrics" if offers_openmetrics(req.path()) => Ok(Rendering::AsIs),
            _ => Err(ApiError::not_found()),
        };
    }
    let accept = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .trim();
    if accept.is_empty() {
        return Ok(Rendering::AsIs);
    }
    let mut ranges: Vec<(f32, usize, String)> = accept
        .split(',')
        .enumerate()
        .filter_map(|(i, part)| {
            let mut pieces = part.split(';');
            let media = pieces.next()?.trim().to_ascii_lowercase();
            let q = pieces
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.parse::<f32>().ok())
                .unwrap_or(1.0);
            (q > 0.0).then_some((q, i, media))
        })
        .collect();
    ranges.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    for (_, _, media) in ranges {
        match media.as_str() {
            "application/json" | "application/*" | "*/*" => return Ok(Rendering::AsIs),
            "text/html" | "text/*" => return Ok(Rendering::Html),
            "text/csv" => return Ok(Rendering::Csv),
            "application/openmetrics-text" if offers_openmetrics(req.path()) => {
                return Ok(Rendering::AsIs);
            }
            _ => {}
        }
    }
    Err(ApiError::NotAcceptable)
}

/// Adds the trailing slash API and hook paths are registered with, takes
/// it off the operators' paths (`/healthz/` is Weblate's spelling), and
/// turns a format suffix (`/api/projects.json`) into the `?format=` it
/// stands for (replacing any in the query: the suffix wins, as in Weblate).
fn normalized_uri(uri: &Uri) -> Option<Uri> {
    let path = uri.path();
    let query = || uri.query().map(|q| format!("?{q}")).unwrap_or_default();
    if path.starts_with("/hooks/") && !path.ends_with('/') {
        return format!("{path}/{}", query()).parse().ok();
    }
    if let Some(bare) = path.strip_suffix('/')
        && crate::probes::PATHS.contains(&bare)
    {
        return format!("{bare}{}", query()).parse().ok();
    }
    let is_api = path == "/api" || path.starts_with("/api/");
    // The documentation is a browser page with relative asset links: it
    // keeps its own paths (and redirects to its slash form).
    let is_docs = path.starts_with(DOCS_PREFIX);
    if !is_api || is_docs || path.ends_with('/') {
        return None;
    }
    let suffix = path.rsplit_once('.').filter(|(head, format)| {
        !head.ends_with('/')
            && !format.is_empty()
            && format
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    });
    let (path, format) = match suffix {
        Some((head, format)) => (head, Some(format!("format={format}"))),
        None => (path, None),
    };
    let has_suffix = format.is_some();
    let query: Vec<String> = format
        .into_iter()
        .chain(
            uri.query()
                .into_iter()
                .flat_map(|q| q.split('&'))
                .filter(|pair| !pair.is_empty())
                .filter(|pair| !(has_suffix && pair.split('=').next() == Some("format")))
                .map(str::to_owned),
        )
        .collect();
    let with_slash = if query.is_empty() {
        format!("{path}/")
    } else {
        format!("{path}/?{}", query.join("&"))
    };
    with_slash.parse().ok()
}

/// True for the API's own paths (not its documentation).
pub(crate) fn is_api_path(path: &str) -> bool {
    path.starts_with("/api/") && !path.starts_with(DOCS_PREFIX) && path != "/api/schema/"
}

/// The middleware doing all of the above around every request.
pub async fn negotiate(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if let Some(uri) = normalized_uri(req.uri()) {
        req.match_info_mut().get_mut().update(&uri);
        req.head_mut().uri = uri;
    }
    let head_request = req.method() == Method::HEAD;
    if head_request {
        req.head_mut().method = Method::GET;
    }
    let path = req.path().to_owned();
    let allow = req
        .app_data::<web::Data<AllowTable>>()
        .and_then(|t| t.allow(&path));
    let rendering = if is_api_path(&path) {
        choose_rendering(req.request())
    } else {
        Ok(Rendering::AsIs)
    };
    let rerender = rendering.as_ref().ok().copied();
    if rerender == Some(Rendering::Csv) {
        req.extensions_mut().insert(CsvWanted);
    }
    let mut response = match rendering {
        Err(error) => req.into_response(error.error_response()),
        Ok(_) => next.call(req).await?.map_into_boxed_body(),
    };
    if let Some(allow) = allow.and_then(|a| HeaderValue::from_str(&a).ok()) {
        let headers = response.headers_mut();
        headers.insert(header::ALLOW, allow);
        headers.insert(header::VARY, HeaderValue::from_static("Accept"));
    }
    response = match rerender {
        Some(Rendering::Html) => html::wrap(response).await,
        Some(Rendering::Csv) => {
            reencode::json_response(response, "text/csv; charset=utf-8", |_, _, body| {
                csv::from_json(body)
            })
            .await
        }
        Some(Rendering::FlatJson) => {
            reencode::json_response(response, "application/json", |_, _, body| {
                reencode::flat_json(body)
            })
            .await
        }
        Some(Rendering::AsIs) | None => response,
    };
    response = crate::etag::tagged(response).await;
    if head_request {
        response = without_body(response);
    }
    Ok(response)
}

/// A HEAD answer: the GET answer's headers, its length, and no body.
fn without_body(response: ServiceResponse<BoxBody>) -> ServiceResponse<BoxBody> {
    response.map_body(|_, body| BoxBody::new(Announced(body.size())))
}

/// The body of a HEAD answer: it reports the size of the GET body it stands
/// for, so that the server sends that `Content-Length`, and holds no bytes.
struct Announced(BodySize);

impl MessageBody for Announced {
    type Error = std::convert::Infallible;

    fn size(&self) -> BodySize {
        self.0
    }

    fn poll_next(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<actix_web::web::Bytes, Self::Error>>> {
        std::task::Poll::Ready(None)
    }
}

/// Answers requests no route took: `OPTIONS` and 405 on known paths, 404 elsewhere.
pub async fn fallback(req: HttpRequest, table: web::Data<AllowTable>) -> HttpResponse {
    let Some(entry) = table.find(req.path()) else {
        return ApiError::not_found().error_response();
    };
    if req.method() == Method::OPTIONS {
        return HttpResponse::Ok().json(serde_json::json!({
            "name": entry.name,
            "description": "",
            "renders": ["application/json", "text/html", "text/csv"],
            "parses": [
                "application/json",
                "application/x-www-form-urlencoded",
                "multipart/form-data"
            ],
        }));
    }
    ApiError::MethodNotAllowed(req.method().to_string()).error_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn rendering(accept: Option<&str>, uri: &str) -> Result<Rendering, ApiError> {
        let mut req = TestRequest::get().uri(uri);
        if let Some(accept) = accept {
            req = req.insert_header((header::ACCEPT, accept));
        }
        choose_rendering(&req.to_http_request())
    }

    #[test]
    fn chooses_by_format_then_accept() {
        assert_eq!(rendering(None, "/api/").unwrap(), Rendering::AsIs);
        assert_eq!(
            rendering(None, "/api/?format=api").unwrap(),
            Rendering::Html
        );
        assert!(matches!(
            rendering(None, "/api/?format=xml"),
            Err(ApiError::NotFound(_))
        ));
        assert_eq!(
            rendering(None, "/api/metrics/?format=openmetrics").unwrap(),
            Rendering::AsIs
        );
        let browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
        assert_eq!(rendering(Some(browser), "/api/").unwrap(), Rendering::Html);
        assert_eq!(
            rendering(Some("text/html;q=0.5, application/json"), "/api/").unwrap(),
            Rendering::AsIs
        );
        assert!(matches!(
            rendering(Some("application/xml"), "/api/"),
            Err(ApiError::NotAcceptable)
        ));
        assert_eq!(
            rendering(Some("application/xml"), "/api/?format=json").unwrap(),
            Rendering::AsIs,
            "the query parameter wins"
        );
    }

    #[test]
    fn adds_trailing_slashes_to_api_paths_only() {
        let norm = |u: &str| normalized_uri(&u.parse().unwrap()).map(|u| u.to_string());
        assert_eq!(
            norm("/api/projects?page=2").as_deref(),
            Some("/api/projects/?page=2")
        );
        assert_eq!(norm("/api").as_deref(), Some("/api/"));
        assert_eq!(norm("/api/projects/"), None);
        assert_eq!(norm("/api/docs/swagger-ui.css"), None);
        assert_eq!(norm("/api/docs"), None);
        assert_eq!(norm("/healthz"), None);
        assert_eq!(
            norm("/api/projects.json?format=api&page=2").as_deref(),
            Some("/api/projects/?format=json&page=2")
        );
        assert_eq!(
            norm("/api/languages/cs.csv").as_deref(),
            Some("/api/languages/cs/?format=csv")
        );
        assert_eq!(
            norm("/api/users/j.Doe").as_deref(),
            Some("/api/users/j.Doe/"),
            "not a format"
        );
        assert_eq!(norm("/api/users/j.doe/"), None, "a user name");
    }
}
