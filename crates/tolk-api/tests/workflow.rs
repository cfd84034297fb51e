//! The workflow settings of a project's language, on each database: kept
//! and answered in Weblate's shape, and what they change for the strings
//! of that language only (suggestions, direct edits, reviews).

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
use serde_json::json;
use tolk_service::testing::TestDb;

const JA: &str = "/api/projects/demo/languages/ja/workflow/";

#[actix_web::test]
async fn a_language_s_workflow_rules_its_strings_in_the_project() {
    for db in TestDb::all() {
        let (_upstream, ctx) = with_gettext(db);
        common::team(&ctx, "Translators", "unit.edit", "demo", "jane");
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        let first_unit = |language: &'static str| {
            let app = &app;
            async move {
                let uri = format!("/api/translations/demo/app/{language}/units/");
                let page = get_json(app, &uri, admin).await;
                page["results"][0]["url"].as_str().unwrap().to_owned()
            }
        };
        let (ja, ru) = (first_unit("ja").await, first_unit("ru").await);
        let send = |method: Method, uri: String, body: serde_json::Value, token: Option<&str>| {
            let app = &app;
            let token = token.map(str::to_owned);
            async move { call(app, method, &uri, token.as_deref(), Body::Json(body)).await }
        };

        assert_eq!(
            call(&app, Method::GET, JA, None, Body::None).await.status,
            StatusCode::NOT_FOUND
        );
        let set = send(
            Method::PATCH,
            JA.into(),
            json!({"enable_suggestions": false, "suggestion_autoaccept": 2}),
            admin,
        )
        .await;
        assert_eq!(set.status, StatusCode::OK, "{}", set.text());
        let expected = json!({"language": "ja", "source_language": null, "translation_review": false,
            "enable_suggestions": false, "restrict_direct_editing": false, "suggestion_voting": false,
            "suggestion_autoaccept": 2});
        assert_eq!(set.json(), expected);
        assert_eq!(
            get_json(&app, JA, None).await,
            expected,
            "anyone who sees the project reads them"
        );

        // Suggestions: refused in Japanese only.
        let suggestion = json!({"target": ["提案"]});
        let refused = send(Method::POST, format!("{ja}suggestions/"), suggestion, admin).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text());
        let russian = send(
            Method::POST,
            format!("{ru}suggestions/"),
            json!({"target": ["Предложение"]}),
            admin,
        )
        .await;
        assert_eq!(russian.status, StatusCode::CREATED, "{}", russian.text());

        // Direct edits: for those who may override suggestions only.
        let restricted = send(
            Method::PATCH,
            JA.into(),
            json!({"restrict_direct_editing": true, "source_language": "en"}),
            admin,
        )
        .await;
        assert_eq!(
            restricted.json()["enable_suggestions"],
            json!(false),
            "the rest is kept"
        );
        assert_eq!(restricted.json()["source_language"], json!("en"));
        let edit = json!({"target": ["訳"], "state": 20});
        let denied = send(Method::PATCH, ja.clone(), edit.clone(), jane).await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN, "{}", denied.text());
        let elsewhere = send(
            Method::PATCH,
            ru.clone(),
            json!({"target": ["Перевод"], "state": 20}),
            jane,
        )
        .await;
        assert_eq!(elsewhere.status, StatusCode::OK, "{}", elsewhere.text());
        let overriding = send(Method::PATCH, ja.clone(), edit, admin).await;
        assert_eq!(overriding.status, StatusCode::OK, "{}", overriding.text());

        // Reviews: on for Japanese, still off for Russian.
        send(
            Method::PATCH,
            JA.into(),
            json!({"translation_review": true}),
            admin,
        )
        .await;
        let approved = send(
            Method::PATCH,
            ja.clone(),
            json!({"target": ["訳"], "state": 30}),
            admin,
        )
        .await;
        assert_eq!(approved.status, StatusCode::OK, "{}", approved.text());
        let not_here = send(
            Method::PATCH,
            ru.clone(),
            json!({"target": ["Перевод"], "state": 30}),
            admin,
        )
        .await;
        assert_eq!(not_here.status, StatusCode::BAD_REQUEST);

        // Refusals change nothing.
        let kept = get_json(&app, JA, None).await;
        let bad = send(
            Method::PATCH,
            JA.into(),
            json!({"suggestion_autoaccept": 40000, "translation_review": false}),
            admin,
        )
        .await;
        assert_refused(
            &bad,
            &[(
                "suggestion_autoaccept",
                "max_value",
                "Ensure this value is less than or equal to 32767.",
            )],
        );
        let bad = send(
            Method::PATCH,
            JA.into(),
            json!({"source_language": "xx-nope"}),
            admin,
        )
        .await;
        assert_refused(
            &bad,
            &[("source_language", "invalid", "Language not found.")],
        );
        let jane_patch = send(
            Method::PATCH,
            JA.into(),
            json!({"translation_review": false}),
            jane,
        )
        .await;
        assert_eq!(jane_patch.status, StatusCode::FORBIDDEN);
        let unknown = send(
            Method::PATCH,
            "/api/projects/demo/languages/xx-nope/workflow/".into(),
            json!({}),
            admin,
        )
        .await;
        assert_eq!(unknown.status, StatusCode::NOT_FOUND);
        assert_eq!(get_json(&app, JA, None).await, kept);

        // Removed: Japanese follows the project and components again.
        let removed = call(&app, Method::DELETE, JA, admin, Body::None).await;
        assert_eq!(removed.status, StatusCode::NO_CONTENT);
        assert_eq!(
            call(&app, Method::DELETE, JA, admin, Body::None)
                .await
                .status,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            call(&app, Method::GET, JA, admin, Body::None).await.status,
            StatusCode::NOT_FOUND
        );
        let allowed = send(
            Method::POST,
            format!("{ja}suggestions/"),
            json!({"target": ["別の提案"]}),
            admin,
        )
        .await;
        assert_eq!(allowed.status, StatusCode::CREATED, "{}", allowed.text());
    }
}
