//! The one URL builder: API links from the request's own scheme, host and
//! port (clients refuse links to another origin; behind trusted proxies,
//! the ones the client used); browser links from the configured site URL.

use std::future::{Ready, ready};

use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use chrono::NaiveDateTime;
use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
use tolk_domain::time::UtcTime;

use crate::client::Client;
use crate::error::ApiError;
use crate::state::AppState;

/// Characters escaped inside one path segment.
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'/')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}');

/// A component's path (`category/slug`) as one segment of an API link:
/// its slashes written `%2F`, which the link's own escaping makes
/// `%252F`, as Weblate writes them (§1.9).
pub fn nested(path: &str) -> String {
    path.replace('/', "%2F")
}

/// Builds absolute links for one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Links {
    origin: String,
    site: String,
}

impl Links {
    /// Links for a request to `origin` (scheme, host and port) on a site served at `site`.
    pub fn new(origin: &str, site: &str) -> Self {
        Self {
            origin: origin.trim_end_matches('/').to_owned(),
            site: site.trim_end_matches('/').to_owned(),
        }
    }

    fn join(base: &str, prefix: &str, segments: &[&str]) -> String {
        let mut url = format!("{base}{prefix}");
        for segment in segments {
            url.extend(utf8_percent_encode(segment, SEGMENT));
            url.push('/');
        }
        url
    }

    /// An API link: `/api/` followed by the segments, each escaped, with a trailing slash.
    pub fn api(&self, segments: &[&str]) -> String {
        Self::join(&self.origin, "/api/", segments)
    }

    /// A browser link on the configured site; a component's path of
    /// slugs (`docs/guides/install` in categories) spreads over as many
    /// segments, as Weblate's pages name it.
    pub fn web(&self, segments: &[&str]) -> String {
        let split: Vec<&str> = segments.iter().flat_map(|s| s.split('/')).collect();
        Self::join(&self.site, "/", &split)
    }

    /// The request's origin, e.g. `http://127.0.0.1:8000`.
    pub fn origin(&self) -> &str {
        &self.origin
    }
}

impl FromRequest for Links {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let origin = Client::of(req).origin();
        let site = req
            .app_data::<web::Data<AppState>>()
            .map(|s| s.site_url.clone())
            .unwrap_or_else(|| origin.clone());
        ready(Ok(Links::new(&origin, &site)))
    }
}

/// A timestamp as the API writes it: UTC with microseconds and `Z`.
pub fn timestamp(at: NaiveDateTime) -> String {
    UtcTime(at).to_api()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_escaped_links() {
        let links = Links::new("http://127.0.0.1:8000", "https://tolk.example.com/");
        assert_eq!(
            links.api(&["projects", "demo"]),
            "http://127.0.0.1:8000/api/projects/demo/"
        );
        assert_eq!(
            links.api(&["users", "a b/c?"]),
            "http://127.0.0.1:8000/api/users/a%20b%2Fc%3F/"
        );
        assert_eq!(links.api(&[]), "http://127.0.0.1:8000/api/");
        assert_eq!(
            links.web(&["languages", "pt_BR"]),
            "https://tolk.example.com/languages/pt_BR/"
        );
    }

    #[test]
    fn formats_timestamps() {
        let at = chrono::NaiveDate::from_ymd_opt(2026, 3, 29)
            .unwrap()
            .and_hms_micro_opt(18, 42, 42, 617_681)
            .unwrap();
        assert_eq!(timestamp(at), "2026-03-29T18:42:42.617681Z");
        let whole = chrono::NaiveDate::from_ymd_opt(2026, 3, 29)
            .unwrap()
            .and_hms_opt(1, 2, 3)
            .unwrap();
        assert_eq!(timestamp(whole), "2026-03-29T01:02:03.000000Z");
    }
}
