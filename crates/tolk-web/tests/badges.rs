//! The status badges against a real service: a project read from a Git
//! upstream on every configured database, asked over HTTP as a README's
//! visitor would.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests fail loudly"
)]

mod common;

use actix_web::http::StatusCode;
use actix_web::{App, test};
use common::demo_site;
use tolk_service::testing::TestDb;

/// Whether `svg` reads as XML to its end, with an `svg` root.
fn well_formed(svg: &str) -> bool {
    let mut reader = quick_xml::Reader::from_str(svg);
    let mut root = None;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => return root.as_deref() == Some("svg"),
            Ok(quick_xml::events::Event::Start(tag)) if root.is_none() => {
                root = Some(tag.name().into_inner().to_owned());
            }
            Ok(_) => {}
            Err(_) => return false,
        }
    }
}

#[actix_web::test]
async fn badges_show_what_anyone_may_see_translated() {
    for db in TestDb::all() {
        let (_upstream, service) = demo_site(&db);
        let pages = tolk_web::Pages::open(service, "http://localhost:8000").unwrap();
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;
        let get = |uri: &'static str| {
            let app = &app;
            async move {
                let response =
                    test::call_service(app, test::TestRequest::get().uri(uri).to_request()).await;
                let status = response.status();
                let headers = response.headers().clone();
                let body = String::from_utf8(test::read_body(response).await.to_vec()).unwrap();
                (status, headers, body)
            }
        };
        // The source strings (English, 4 of 4) count as translated, as in
        // Weblate: the app holds 8 of 12, the project as much, its
        // glossary (Czech 0 of 4, English 4 of 4) left out.
        for (uri, words, color) in [
            ("/widget/demo/svg-badge.svg", "translated 66%", "#e05d44"),
            (
                "/widget/demo/app/svg-badge.svg",
                "translated 66%",
                "#e05d44",
            ),
            (
                "/widget/demo/terms/svg-badge.svg",
                "translated 50%",
                "#e05d44",
            ),
            (
                "/widget/demo/-/cs/svg-badge.svg",
                "translated 75%",
                "#dfb317",
            ),
            ("/widget/demo/-/en/svg-badge.svg", "translated 100%", "#4c1"),
            (
                "/widget/demo/svg-badge.svg?capitalize=1",
                "Translated 66%",
                "#e05d44",
            ),
        ] {
            let (status, headers, body) = get(uri).await;
            assert_eq!(status, StatusCode::OK, "{uri}: {body}");
            assert_eq!(
                headers.get("content-type").unwrap(),
                "image/svg+xml",
                "{uri}"
            );
            assert_eq!(
                headers.get("cache-control").unwrap(),
                "public, max-age=3600",
                "{uri}"
            );
            assert!(well_formed(&body), "{uri}: {body}");
            assert!(
                body.contains(&format!("<title>{words}</title>")),
                "{uri}: {body}"
            );
            assert!(body.contains(&format!("fill=\"{color}\"")), "{uri}: {body}");
        }
        // What an anonymous visitor may not see, or what does not exist.
        for uri in [
            "/widget/secret/svg-badge.svg",
            "/widget/secret/app/svg-badge.svg",
            "/widget/secret/-/cs/svg-badge.svg",
            "/widget/nothing/svg-badge.svg",
            "/widget/demo/nothing/svg-badge.svg",
            "/widget/demo/-/xx/svg-badge.svg",
        ] {
            let (status, _, body) = get(uri).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{uri}: {body}");
            assert!(
                body.contains("<h1>Not found</h1>\n<p>Not found.</p>"),
                "{uri}: {body}"
            );
            assert!(!body.contains("secret"), "{uri}: {body}");
        }
    }
}
