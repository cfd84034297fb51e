//! What those who look after a component do from its page, against a
//! real service and a real upstream on every configured database: a
//! translator adds a language; a superuser commits, pushes, updates,
//! locks and unlocks; those without the right are refused with the reason
//! and nothing changes.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests fail loudly"
)]

mod common;

use actix_web::http::StatusCode;
use actix_web::{App, test};
use common::Browser;
use tolk_domain::permission::Subject;
use tolk_service::testing::TestDb;
use tolk_service::units::UnitEdit;

const PASSWORD: &str = "a long passphrase";

#[actix_web::test]
async fn a_components_page_adds_languages_and_runs_its_repository_for_those_allowed() {
    for db in TestDb::all() {
        let (_upstream, service) = common::demo_site(&db);
        common::person(&service, "marta", Some(PASSWORD));
        common::admin(&service, "ada", Some(PASSWORD));
        let pages = tolk_web::Pages::open(service.clone(), "http://localhost:8000").unwrap();
        let app = test::init_service(App::new().configure(tolk_web::configure(pages))).await;

        // A visitor: neither the form nor the repository.
        let mut visitor = Browser::default();
        let page = visitor.get(&app, "/projects/demo/app/").await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(!page.body.contains("/new-lang/"), "{}", page.body);
        assert!(!page.body.contains("repository-heading"), "{}", page.body);

        // A translator adds languages, and does not run the repository.
        let mut marta = Browser::default();
        common::sign_in_as(&app, &mut marta, ("marta", PASSWORD), "/").await;
        let page = marta.get(&app, "/projects/demo/app/").await;
        assert!(
            page.body
                .contains("<form method=\"post\" action=\"/new-lang/demo/app/\""),
            "{}",
            page.body
        );
        assert!(!page.body.contains("repository-heading"), "{}", page.body);
        let token = page.token();
        let refused = marta
            .post(
                &app,
                "/repository/demo/app/",
                &[("csrfmiddlewaretoken", &token), ("action", "lock")],
            )
            .await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
        assert!(
            refused.body.contains(
                "<p class=\"error\" role=\"alert\" id=\"action-error\">You do not have permission to perform this action.</p>"
            ),
            "{}",
            refused.body
        );
        let forged = marta
            .post(
                &app,
                "/new-lang/demo/app/",
                &[("csrfmiddlewaretoken", "forged"), ("lang", "fr")],
            )
            .await;
        assert_eq!(forged.status, StatusCode::FORBIDDEN, "{}", forged.body);
        let add = |code| [("csrfmiddlewaretoken", token.as_str()), ("lang", code)];
        let added = marta.post(&app, "/new-lang/demo/app/", &add("fr")).await;
        assert_eq!(added.status, StatusCode::SEE_OTHER, "{}", added.body);
        assert_eq!(added.location(), "/projects/demo/app/fr/");
        let french = marta.get(&app, "/projects/demo/app/fr/").await;
        assert_eq!(french.status, StatusCode::OK);
        assert!(
            french.body.contains("<h1>app — French</h1>"),
            "{}",
            french.body
        );
        for code in ["fr", "xx-nothing"] {
            let again = marta.post(&app, "/new-lang/demo/app/", &add(code)).await;
            assert_eq!(
                again.status,
                StatusCode::BAD_REQUEST,
                "{code}: {}",
                again.body
            );
            let words = format!("id=\"action-error\">Could not add &#39;{code}&#39;!</p>");
            assert!(again.body.contains(&words), "{}", again.body);
        }

        // A superuser sees what waits and commits it.
        let unit = common::unit_of(&service, ("demo", "app", "de"), "Save");
        let edit = UnitEdit {
            target: Some(vec!["Speichern".into()]),
            state: Some(20),
            ..UnitEdit::default()
        };
        service
            .units()
            .edit(&Subject::System, unit.unit.id, edit)
            .unwrap();
        let mut ada = Browser::default();
        common::sign_in_as(&app, &mut ada, ("ada", PASSWORD), "/").await;
        let page = ada.get(&app, "/projects/demo/app/").await;
        assert!(
            page.body
                .contains("<p id=\"pending\">1 changed strings wait to be committed.</p>"),
            "{}",
            page.body
        );
        let token = page.token();
        let run = |action| [("csrfmiddlewaretoken", token.as_str()), ("action", action)];
        for (action, notice) in [
            ("commit", "The pending changes were committed."),
            ("pull", "The repository was updated from upstream."),
            ("lock", "The component is locked: nobody can translate it."),
            ("unlock", "The component is unlocked."),
        ] {
            let done = ada.post(&app, "/repository/demo/app/", &run(action)).await;
            assert_eq!(
                done.status,
                StatusCode::SEE_OTHER,
                "{action}: {}",
                done.body
            );
            let to = format!("/projects/demo/app/?done={action}");
            assert_eq!(done.location(), to);
            let page = ada.get(&app, &to).await;
            let line = format!("<p class=\"notice\" role=\"status\" id=\"notice\">{notice}</p>");
            assert!(page.body.contains(&line), "{}", page.body);
            assert_eq!(page.body.contains("id=\"locked\""), action == "lock");
            if action == "commit" {
                assert!(
                    page.body
                        .contains("<p id=\"pending\">Nothing waits to be committed.</p>"),
                    "{}",
                    page.body
                );
            }
            if action == "lock" {
                // Locked: the translator's editor has no save.
                let editor = marta.get(&app, "/translate/demo/app/de/").await;
                assert!(!editor.body.contains("id=\"save\""), "{}", editor.body);
            }
        }
        let unknown = ada.post(&app, "/repository/demo/app/", &run("reset")).await;
        assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
    }
}
