//! The front page and a project's page against a real service on every
//! configured database: what an anonymous visitor and a signed-in person
//! see of public and private projects, with their progress, and that
//! names are shown as text.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests fail loudly"
)]

mod common;

use actix_web::http::StatusCode;
use actix_web::{App, test};
use common::{Browser, demo_site};
use tolk_domain::permission::Subject;
use tolk_domain::project::ProjectSettings;
use tolk_domain::user::UserFields;
use tolk_service::testing::TestDb;

#[actix_web::test]
async fn the_front_and_project_pages_show_what_the_visitor_may_see_with_its_progress() {
    for db in TestDb::all() {
        let (_upstream, service) = demo_site(&db);
        let hostile = ProjectSettings {
            name: "<script>alert(1)</script> & co".into(),
            slug: "hostile".into(),
            web: "https://example.com/".into(),
            ..Default::default()
        };
        service
            .projects()
            .create(&Subject::System, Ok(hostile))
            .unwrap();
        let fields = UserFields {
            username: "marta".into(),
            full_name: "Marta".into(),
            email: "marta@example.com".into(),
            is_superuser: true,
            is_active: true,
            is_bot: false,
            date_expires: None,
        };
        let id = service
            .users()
            .create(&Subject::System, Ok(fields))
            .unwrap()
            .row
            .id;
        service
            .accounts()
            .set_password(id, "marta's passphrase")
            .unwrap();
        let pages = tolk_web::Pages::open(service, "http://localhost:8000").unwrap();
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;

        // Anonymous: the public projects, with progress (app 8 of 12 and
        // terms 4 of 8: 12 of 20 strings, 60%), names as text.
        let mut visitor = Browser::default();
        let page = visitor.get(&app, "/").await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(
            page.body
                .contains("<a class=\"name\" href=\"/projects/demo/\">demo</a>"),
            "{}",
            page.body
        );
        assert!(
            page.body
                .contains("<progress max=\"100\" value=\"60\" aria-label=\"demo: translated\">"),
            "{}",
            page.body
        );
        assert!(page.body.contains("<span>60% translated</span>"));
        assert!(
            page.body
                .contains("20 strings · 0 need editing · 3 with failing checks"),
            "{}",
            page.body
        );
        assert!(!page.body.contains("/projects/secret/"), "{}", page.body);
        assert!(!page.body.contains("<script>alert"), "{}", page.body);
        assert!(
            page.body
                .contains("&#60;script&#62;alert(1)&#60;/script&#62; &#38; co"),
            "{}",
            page.body
        );
        for link in ["href=\"/api/\"", "href=\"/api/docs/\"", "href=\"/healthz\""] {
            assert!(page.body.contains(link), "{link}");
        }
        // A page past the end is not found.
        assert_eq!(
            visitor.get(&app, "/?page=2").await.status,
            StatusCode::NOT_FOUND
        );

        // The project: its components (app 8 of 12, terms 4 of 8) and its
        // languages by name (Czech 3 of 8, English 8 of 8, German 1 of 4).
        let page = visitor.get(&app, "/projects/demo/").await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.body.contains("<h1>demo</h1>"), "{}", page.body);
        let cards: Vec<(String, String)> = page
            .body
            .split("<a class=\"name\" href=\"")
            .skip(1)
            .map(|card| {
                let href = card.split('"').next().unwrap().to_owned();
                let share = card
                    .split("<span>")
                    .nth(1)
                    .unwrap()
                    .split('%')
                    .next()
                    .unwrap()
                    .to_owned();
                (href, share)
            })
            .collect();
        let expected = [
            ("/projects/demo/app/", "66.6"),
            ("/projects/demo/terms/", "50"),
            ("/projects/demo/-/cs/", "37.5"),
            ("/projects/demo/-/en/", "100"),
            ("/projects/demo/-/de/", "25"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(h, s)| ((*h).to_owned(), (*s).to_owned()))
            .collect();
        assert_eq!(cards, expected, "{}", page.body);
        assert!(
            page.body
                .contains("<a href=\"https://example.com/\" rel=\"nofollow noopener\">")
        );
        for hidden in ["/projects/secret/", "/projects/nothing/"] {
            let reply = visitor.get(&app, hidden).await;
            assert_eq!(reply.status, StatusCode::NOT_FOUND, "{hidden}");
        }
        let page = visitor.get(&app, "/projects/hostile/").await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(!page.body.contains("<script>alert"), "{}", page.body);
        assert!(page.body.contains("No component yet."));

        // Signed in as a superuser: the private project too.
        let token = visitor.get(&app, "/accounts/login/").await.token();
        let signed_in = visitor
            .post(
                &app,
                "/accounts/login/",
                &[
                    ("csrfmiddlewaretoken", &token),
                    ("username", "marta"),
                    ("password", "marta's passphrase"),
                    ("next", "/"),
                ],
            )
            .await;
        assert_eq!(signed_in.location(), "/");
        let page = visitor.get(&app, "/").await;
        assert!(
            page.body.contains("href=\"/projects/secret/\""),
            "{}",
            page.body
        );
        assert!(page.body.contains("href=\"/accounts/profile/\">marta</a>"));
        let page = visitor.get(&app, "/projects/secret/").await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.body.contains("<h1>secret</h1>"));
    }
}

#[actix_web::test]
async fn a_language_of_a_project_and_the_invitations_to_translate() {
    for db in TestDb::all() {
        let (_upstream, service) = demo_site(&db);
        let pages = tolk_web::Pages::open(service, "http://localhost:8000").unwrap();
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;
        let mut visitor = Browser::default();

        // Czech in demo: app 3 of 4 and terms 0 of 4, each leading to its
        // translation; 3 of 8 in all.
        let page = visitor.get(&app, "/projects/demo/-/cs/").await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.body.contains("<h1>demo — Czech</h1>"), "{}", page.body);
        assert!(
            page.body.contains("37.5% translated · 8 strings"),
            "{}",
            page.body
        );
        for card in [
            "<a class=\"name\" href=\"/projects/demo/app/cs/\">app</a>",
            "<a class=\"name\" href=\"/projects/demo/terms/cs/\">terms</a>",
        ] {
            assert!(page.body.contains(card), "{card} in {}", page.body);
        }
        // German has no glossary translation: only app.
        let page = visitor.get(&app, "/projects/demo/-/de/").await;
        assert!(page.body.contains("href=\"/projects/demo/app/de/\""));
        assert!(!page.body.contains("href=\"/projects/demo/terms/de/\""));

        // The invitations: the project's, a language's (a translation's
        // share_url), each with its badge and where to start.
        let page = visitor.get(&app, "/engage/demo/").await;
        assert_eq!(page.status, StatusCode::OK);
        for part in [
            "<h1>Get involved in demo</h1>",
            "into 3 languages: 20 strings, 60% translated so far.",
            "<img src=\"/widget/demo/svg-badge.svg\" alt=\"Translation status: 60% translated\">",
            "<a class=\"button\" href=\"/projects/demo/\" id=\"start\">",
        ] {
            assert!(page.body.contains(part), "{part} in {}", page.body);
        }
        let page = visitor.get(&app, "/engage/demo/-/cs/").await;
        assert_eq!(page.status, StatusCode::OK);
        for part in [
            "Help translate demo into Czech: 8 strings, 37.5% translated so far.",
            "<img src=\"/widget/demo/-/cs/svg-badge.svg\"",
            "<a class=\"button\" href=\"/projects/demo/-/cs/\" id=\"start\">",
        ] {
            assert!(page.body.contains(part), "{part} in {}", page.body);
        }

        // Hidden, unknown, or a language the project has not: not found.
        for missing in [
            "/projects/secret/-/cs/",
            "/projects/demo/-/xx/",
            "/projects/demo/-/fr/",
            "/engage/secret/",
            "/engage/secret/-/cs/",
            "/engage/nothing/",
            "/engage/demo/-/fr/",
        ] {
            let reply = visitor.get(&app, missing).await;
            assert_eq!(reply.status, StatusCode::NOT_FOUND, "{missing}");
        }
    }
}
