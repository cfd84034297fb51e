//! Announcements (§17.2) at their five places, on each database: what a
//! post answers and keeps, what each place lists, refusals that change
//! nothing, removal from the right place only, and the change recorded.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, assert_refused, call, get_json, with_gettext};
use serde_json::{Value, json};
use tolk_service::testing::TestDb;

const PROJECT: &str = "/api/projects/demo/announcements/";
const PROJECT_LANGUAGE: &str = "/api/projects/demo/languages/ja/announcements/";
const COMPONENT: &str = "/api/components/demo/app/announcements/";
const TRANSLATION: &str = "/api/translations/demo/app/ja/announcements/";

/// The messages a place lists, in order.
fn messages(list: &Value) -> Vec<String> {
    list["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["message"].as_str().unwrap().to_owned())
        .collect()
}

#[actix_web::test]
async fn each_place_keeps_its_own_announcements() {
    for db in TestDb::all() {
        let (_upstream, ctx) = with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let post = |uri: String, body: Value| {
            let app = &app;
            async move { call(app, Method::POST, &uri, admin, Body::Json(body)).await }
        };

        // A category to post on.
        let category = post(
            "/api/categories/".into(),
            json!({"name": "Docs", "slug": "docs", "project": "/api/projects/demo/"}),
        )
        .await
        .json();
        let category_id = category["id"].as_i64().unwrap();
        let on_category = format!("/api/categories/{category_id}/announcements/");
        assert_eq!(
            category["announcements_url"],
            json!(format!("http://{}{on_category}", common::HOST))
        );

        // The defaults, and every field given.
        let plain = post(PROJECT.into(), json!({"message": "Freeze on Friday"})).await;
        assert_eq!(plain.status, StatusCode::CREATED, "{}", plain.text());
        let plain = plain.json();
        assert_eq!(
            plain,
            json!({"id": plain["id"], "message": "Freeze on Friday", "severity": "info", "expiry": null, "notify": false})
        );
        let full = post(
            TRANSLATION.into(),
            json!({"message": "Glossary *first*", "severity": "warning", "expiry": "2026-09-01", "notify": true}),
        )
        .await;
        assert_eq!(full.status, StatusCode::CREATED, "{}", full.text());
        let full = full.json();
        assert_eq!(
            full,
            json!({"id": full["id"], "message": "Glossary *first*", "severity": "warning", "expiry": "2026-09-01", "notify": true})
        );
        for (uri, message) in [
            (PROJECT_LANGUAGE, "Japanese reviewers wanted"),
            (COMPONENT, "Strings move on Monday"),
            (on_category.as_str(), "Docs are frozen"),
        ] {
            let posted = post(
                uri.into(),
                json!({"message": message, "severity": "success"}),
            )
            .await;
            assert_eq!(
                posted.status,
                StatusCode::CREATED,
                "{uri}: {}",
                posted.text()
            );
        }

        // Each place lists its own only, anonymous callers too (public
        // project).
        for (uri, expected) in [
            (PROJECT, vec!["Freeze on Friday"]),
            (PROJECT_LANGUAGE, vec!["Japanese reviewers wanted"]),
            (COMPONENT, vec!["Strings move on Monday"]),
            (TRANSLATION, vec!["Glossary *first*"]),
            (on_category.as_str(), vec!["Docs are frozen"]),
            ("/api/translations/demo/app/ru/announcements/", vec![]),
            ("/api/projects/demo/languages/ru/announcements/", vec![]),
        ] {
            let list = get_json(&app, uri, None).await;
            assert_eq!(messages(&list), expected, "{uri}");
            assert_eq!(list["count"], json!(expected.len()), "{uri}");
        }
        let project = get_json(&app, "/api/projects/demo/", None).await;
        let listed = get_json(&app, PROJECT, None).await;
        assert_eq!(listed["results"][0], plain);
        assert_eq!(
            project["announcements_url"],
            json!(format!("http://{}{PROJECT}", common::HOST))
        );
        for (object, place) in [
            ("/api/components/demo/app/", COMPONENT),
            ("/api/translations/demo/app/ja/", TRANSLATION),
        ] {
            let found = get_json(&app, object, None).await;
            assert_eq!(
                found["announcements_url"],
                json!(format!("http://{}{place}", common::HOST))
            );
        }

        // Refusals name every bad field and keep nothing.
        let bad = post(
            PROJECT.into(),
            json!({"message": "  ", "severity": "loud", "expiry": "next week"}),
        )
        .await;
        assert_refused(
            &bad,
            &[
                ("message", "blank", "This field may not be blank."),
                (
                    "severity",
                    "invalid_choice",
                    "\"loud\" is not a valid choice.",
                ),
                (
                    "expiry",
                    "invalid",
                    "Date has wrong format. Use one of these formats instead: YYYY-MM-DD.",
                ),
            ],
        );
        let missing = post(PROJECT.into(), json!({})).await;
        assert_refused(
            &missing,
            &[("message", "required", "This field is required.")],
        );
        let unknown = post(
            "/api/projects/demo/languages/xx-nope/announcements/".into(),
            json!({"message": "Hello"}),
        )
        .await;
        assert_refused(
            &unknown,
            &[("language_code", "invalid", "Language not found.")],
        );
        let unused = post(
            "/api/projects/demo/languages/de/announcements/".into(),
            json!({"message": "Hello"}),
        )
        .await;
        assert_eq!(unused.status, StatusCode::NOT_FOUND);
        assert_eq!(get_json(&app, PROJECT, None).await["count"], json!(1));

        // Jane sees the project but may not post or remove.
        let jane = Some(ctx.jane.as_str());
        let denied = call(
            &app,
            Method::POST,
            PROJECT,
            jane,
            Body::Json(json!({"message": "Mine"})),
        )
        .await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);
        let plain_id = plain["id"].as_i64().unwrap();
        let denied = call(
            &app,
            Method::DELETE,
            &format!("{PROJECT}{plain_id}/"),
            jane,
            Body::None,
        )
        .await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);

        // Removal answers at the announcement's own place only.
        let full_id = full["id"].as_i64().unwrap();
        for elsewhere in [
            PROJECT,
            COMPONENT,
            "/api/translations/demo/app/ru/announcements/",
        ] {
            let gone = call(
                &app,
                Method::DELETE,
                &format!("{elsewhere}{full_id}/"),
                admin,
                Body::None,
            )
            .await;
            assert_eq!(gone.status, StatusCode::NOT_FOUND, "{elsewhere}");
        }
        let removed = call(
            &app,
            Method::DELETE,
            &format!("{TRANSLATION}{full_id}/"),
            admin,
            Body::None,
        )
        .await;
        assert_eq!(removed.status, StatusCode::NO_CONTENT);
        let again = call(
            &app,
            Method::DELETE,
            &format!("{TRANSLATION}{full_id}/"),
            admin,
            Body::None,
        )
        .await;
        assert_eq!(again.status, StatusCode::NOT_FOUND);
        assert_eq!(get_json(&app, TRANSLATION, None).await["count"], json!(0));

        // Every post is recorded as `Announcement posted`.
        let changes = get_json(&app, "/api/changes/?action=46", admin).await;
        let mut targets: Vec<&str> = changes["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["target"].as_str().unwrap())
            .collect();
        targets.sort_unstable();
        assert_eq!(
            targets,
            [
                "Docs are frozen",
                "Freeze on Friday",
                "Glossary *first*",
                "Japanese reviewers wanted",
                "Strings move on Monday"
            ]
        );
        assert_eq!(
            changes["results"][0]["action_name"],
            json!("Announcement posted")
        );

        // Removing the component leaves the project's and the category's.
        let deleted = call(
            &app,
            Method::DELETE,
            "/api/components/demo/app/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(deleted.status, StatusCode::NO_CONTENT);
        assert_eq!(
            messages(&get_json(&app, PROJECT, None).await),
            ["Freeze on Friday"]
        );
        assert_eq!(
            messages(&get_json(&app, &on_category, None).await),
            ["Docs are frozen"]
        );
    }
}
