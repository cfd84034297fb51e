//! Notification subscriptions over HTTP (§3.3, §29.11); on each
//! configured database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, Ctx, call, error_codes, get_json};
use serde_json::json;
use tolk_service::testing::TestDb;

#[actix_web::test]
async fn users_manage_their_subscriptions() {
    for db in TestDb::all() {
        let ctx = Ctx::new(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let jane = Some(ctx.jane.as_str());
        let uri = "/api/users/jane/notifications/";
        let post = |body: serde_json::Value| {
            let app = &app;
            async move { call(app, Method::POST, uri, jane, Body::Json(body)).await }
        };
        let made =
            post(json!({"notification": "NewSuggestionNotificaton", "scope": 10, "frequency": 1}))
                .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        let made = made.json();
        let id = made["id"].clone();
        assert_eq!(
            made,
            json!({"notification": "NewSuggestionNotificaton", "id": id, "scope": 10,
                   "frequency": 1, "project": null, "component": null})
        );
        let keys: Vec<&String> = made.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "notification",
                "id",
                "scope",
                "frequency",
                "project",
                "component"
            ]
        );

        let twice =
            post(json!({"notification": "NewSuggestionNotificaton", "scope": 10, "frequency": 2}))
                .await;
        assert_eq!(
            error_codes(&twice.json()),
            vec![("notification".into(), "unique".into())]
        );
        let instant =
            post(json!({"notification": "ToDoStringsNotification", "scope": 0, "frequency": 1}))
                .await;
        assert_eq!(
            error_codes(&instant.json()),
            vec![("frequency".into(), "invalid".into())]
        );
        let unknown = post(json!({"notification": "Nope", "scope": 7, "frequency": 1})).await;
        assert_eq!(
            error_codes(&unknown.json()),
            vec![
                ("notification".into(), "invalid_choice".into()),
                ("scope".into(), "invalid_choice".into())
            ]
        );

        assert_eq!(get_json(&app, uri, jane).await["count"], 1);
        assert_eq!(
            get_json(&app, uri, Some(&ctx.admin)).await["count"],
            1,
            "user managers see it"
        );
        let others = call(
            &app,
            Method::GET,
            "/api/users/admin/notifications/",
            jane,
            Body::None,
        )
        .await;
        assert_eq!(others.status, StatusCode::FORBIDDEN);

        let one = format!("{uri}{id}/");
        let patched = call(
            &app,
            Method::PATCH,
            &one,
            jane,
            Body::Json(json!({"frequency": 3})),
        )
        .await;
        assert_eq!(patched.json()["frequency"], 3);
        assert_eq!(get_json(&app, &one, jane).await["frequency"], 3);
        let removed = call(&app, Method::DELETE, &one, jane, Body::None).await;
        assert_eq!(removed.status, StatusCode::NO_CONTENT);
        let gone = call(&app, Method::GET, &one, jane, Body::None).await;
        assert_eq!(gone.status, StatusCode::NOT_FOUND);
    }
}
