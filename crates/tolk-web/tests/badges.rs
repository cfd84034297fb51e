//! The status badges against a real service: a project read from a Git
//! upstream on every configured database, asked over HTTP as a README's
//! visitor would.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests fail loudly"
)]

use actix_web::http::StatusCode;
use actix_web::{App, test};
use tolk_domain::component::ComponentSettings;
use tolk_domain::permission::{AccessControl, Subject};
use tolk_domain::project::ProjectSettings;
use tolk_service::testing::TestDb;
use tolk_service::vcs_testing::Upstream;
use tolk_service::{Service, ServiceConfig};

/// A catalogue of four strings of which the `translated` first are.
fn catalogue(language: &str, translated: usize) -> Vec<u8> {
    let mut text = format!(
        "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\
         \"Language: {language}\\n\"\n\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n"
    );
    for (n, word) in ["Open", "Close", "Save", "Quit"].iter().enumerate() {
        let target = if n < translated {
            format!("{word} ({language})")
        } else {
            String::new()
        };
        text.push_str(&format!("\nmsgid \"{word}\"\nmsgstr \"{target}\"\n"));
    }
    text.into_bytes()
}

/// A project `slug` of the upstream's app (`po/`: Czech 3 of 4, German 1
/// of 4) and glossary (`terms/`: Czech 0 of 4), with `access`.
fn project(service: &Service, upstream: &Upstream, slug: &str, access: AccessControl) {
    let settings = ProjectSettings {
        name: slug.into(),
        slug: slug.into(),
        web: "https://example.com/".into(),
        access_control: access.code(),
        ..Default::default()
    };
    service
        .projects()
        .create(&Subject::System, Ok(settings))
        .unwrap();
    for (name, mask, is_glossary) in [("app", "po/*.po", false), ("terms", "terms/*.po", true)] {
        let settings = ComponentSettings {
            name: name.into(),
            slug: name.into(),
            repo: upstream.url(),
            filemask: mask.into(),
            file_format: "po".into(),
            is_glossary,
            ..Default::default()
        };
        service
            .components()
            .create(&Subject::System, slug, Ok(settings), Default::default())
            .unwrap();
        service.tasks().run_due().unwrap();
    }
}

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
        let upstream = Upstream::new(&[
            ("po/cs.po", catalogue("cs", 3)),
            ("po/de.po", catalogue("de", 1)),
            ("terms/cs.po", catalogue("cs", 0)),
        ]);
        let config = ServiceConfig {
            create_glossaries: false,
            ..ServiceConfig::local(upstream.root())
        };
        let service = Service::new(db.store.clone(), config).unwrap();
        project(&service, &upstream, "demo", AccessControl::Public);
        project(&service, &upstream, "secret", AccessControl::Private);
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
            assert_eq!(body, "Not found.", "{uri}");
        }
    }
}
