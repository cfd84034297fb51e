//! Project tokens reach their project only; personal tokens are rotated
//! and revoked by their owners; on each configured database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, Ctx, call, get_json};
use serde_json::json;
use tolk_service::testing::TestDb;

#[actix_web::test]
async fn a_project_token_reaches_its_project_only() {
    for db in TestDb::all() {
        let ctx = Ctx::new(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        for slug in ["demo", "other"] {
            let body = json!({"name": slug, "slug": slug, "web": "https://d.example/"});
            call(
                &app,
                Method::POST,
                "/api/projects/",
                admin,
                Body::Json(body),
            )
            .await;
        }
        let tokens = "/api/projects/demo/tokens/";
        let denied = call(&app, Method::GET, tokens, Some(&ctx.jane), Body::None).await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);

        let made = call(
            &app,
            Method::POST,
            tokens,
            admin,
            Body::Json(json!({"name": "CI"})),
        )
        .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        let made = made.json();
        let key = made["token_key"].as_str().unwrap().to_owned();
        assert!(key.starts_with("wlp_") && key.len() == 40, "{key}");
        let bot = made["username"].as_str().unwrap().to_owned();
        assert!(bot.starts_with("bot-demo-"), "{bot}");
        let listed = get_json(&app, tokens, admin).await;
        assert_eq!(listed.as_array().unwrap().len(), 1);
        assert!(!listed.to_string().contains(&key), "the key is shown once");

        let edit = |slug: &str| {
            let app = &app;
            let key = key.clone();
            let uri = format!("/api/projects/{slug}/");
            async move {
                call(
                    app,
                    Method::PATCH,
                    &uri,
                    Some(&key),
                    Body::Json(json!({"web": "https://bot.example/"})),
                )
                .await
                .status
            }
        };
        assert_eq!(edit("demo").await, StatusCode::OK);
        assert_eq!(
            edit("other").await,
            StatusCode::NOT_FOUND,
            "its bot is in no site-wide team: other projects do not exist for it"
        );
        let unit_edit = call(
            &app,
            Method::POST,
            "/api/projects/",
            Some(&key),
            Body::Json(json!({"name": "Bot", "slug": "bot", "web": "https://b.example/"})),
        )
        .await;
        assert_eq!(unit_edit.status, StatusCode::FORBIDDEN);
        let bot_user = get_json(&app, &format!("/api/users/{bot}/"), admin).await;
        assert_eq!(bot_user["is_bot"], true);
        assert_eq!(
            bot_user["groups"].as_array().unwrap().len(),
            1,
            "one team, no defaults"
        );
        let team = bot_user["groups"][0]
            .as_str()
            .unwrap()
            .rsplit('/')
            .nth(1)
            .unwrap()
            .to_owned();
        let last = call(
            &app,
            Method::DELETE,
            &format!("/api/users/{bot}/groups/"),
            admin,
            Body::Json(json!({"group_id": team.parse::<i64>().unwrap()})),
        )
        .await;
        assert_eq!(
            last.json()["errors"][0]["detail"],
            "At least one team is required for a project token."
        );
        for caller in [admin, Some(key.as_str())] {
            let renamed = call(
                &app,
                Method::PATCH,
                &format!("/api/users/{bot}/"),
                caller,
                Body::Json(json!({"full_name": "Renamed"})),
            )
            .await;
            assert_eq!(
                (
                    renamed.status,
                    renamed.json()["errors"][0]["detail"].clone()
                ),
                (StatusCode::FORBIDDEN, json!("This user can not be edited.")),
                "a token's bot is Tolk's, not its own nor a user manager's"
            );
        }

        let id = made["id"].as_i64().unwrap();
        let revoked = call(
            &app,
            Method::DELETE,
            &format!("{tokens}{id}/"),
            admin,
            Body::None,
        )
        .await;
        assert_eq!(revoked.status, StatusCode::NO_CONTENT);
        assert_eq!(
            edit("demo").await,
            StatusCode::UNAUTHORIZED,
            "the key stops working"
        );
        let again = call(
            &app,
            Method::DELETE,
            &format!("{tokens}{id}/"),
            admin,
            Body::None,
        )
        .await;
        assert_eq!(again.status, StatusCode::NOT_FOUND);
    }
}

#[actix_web::test]
async fn users_rotate_and_revoke_their_own_tokens() {
    for db in TestDb::all() {
        let ctx = Ctx::new(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let me = |key: String| {
            let app = &app;
            async move {
                call(app, Method::GET, "/api/users/jane/", Some(&key), Body::None)
                    .await
                    .status
            }
        };
        let rotated = call(
            &app,
            Method::POST,
            "/api/users/jane/token/",
            Some(&ctx.jane),
            Body::None,
        )
        .await;
        assert_eq!(rotated.status, StatusCode::OK, "{}", rotated.text());
        let key = rotated.json()["token"].as_str().unwrap().to_owned();
        assert!(key.starts_with("wlu_"));
        assert_eq!(
            me(ctx.jane.clone()).await,
            StatusCode::UNAUTHORIZED,
            "the old key is gone"
        );
        assert_eq!(me(key.clone()).await, StatusCode::OK);
        let others = call(
            &app,
            Method::POST,
            "/api/users/admin/token/",
            Some(&key),
            Body::None,
        )
        .await;
        assert!(
            matches!(others.status, StatusCode::FORBIDDEN | StatusCode::NOT_FOUND),
            "{}",
            others.status
        );
        let revoked = call(
            &app,
            Method::DELETE,
            "/api/users/jane/token/",
            Some(&key),
            Body::None,
        )
        .await;
        assert_eq!(revoked.status, StatusCode::NO_CONTENT);
        assert_eq!(me(key).await, StatusCode::UNAUTHORIZED);
    }
}

#[actix_web::test]
async fn a_change_of_standing_on_one_instance_reaches_callers_on_another() {
    for db in TestDb::all() {
        let ctx = Ctx::new(db);
        // Two servers on one database, each with its own cache of callers.
        let one = test::init_service(tolk_api::app(ctx.state())).await;
        let second = tolk_service::Service::new(ctx.db.store.clone(), Default::default()).unwrap();
        let other = test::init_service(tolk_api::app(tolk_api::AppState {
            service: second,
            ..ctx.state()
        }))
        .await;
        let admin = Some(ctx.admin.as_str());
        let body = json!({"name": "Secret", "slug": "secret", "web": "https://d.example/"});
        let made = call(
            &one,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(body),
        )
        .await;
        assert_eq!(made.status, StatusCode::CREATED);
        common::make_private(&ctx, "secret");
        let secret = |key: String| {
            let other = &other;
            async move {
                call(
                    other,
                    Method::GET,
                    "/api/projects/secret/",
                    Some(&key),
                    Body::None,
                )
                .await
                .status
            }
        };
        assert_eq!(secret(ctx.jane.clone()).await, StatusCode::NOT_FOUND);
        assert_eq!(
            secret(ctx.jane.clone()).await,
            StatusCode::NOT_FOUND,
            "kept"
        );

        let patch = |body: serde_json::Value| {
            let one = &one;
            async move {
                let reply = call(
                    one,
                    Method::PATCH,
                    "/api/users/jane/",
                    admin,
                    Body::Json(body),
                )
                .await;
                assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
            }
        };
        patch(json!({"is_superuser": true})).await;
        assert_eq!(secret(ctx.jane.clone()).await, StatusCode::OK, "promoted");

        let rotated = call(
            &one,
            Method::POST,
            "/api/users/jane/token/",
            Some(&ctx.jane),
            Body::None,
        )
        .await;
        let key = rotated.json()["token"].as_str().unwrap().to_owned();
        assert_eq!(
            secret(ctx.jane.clone()).await,
            StatusCode::UNAUTHORIZED,
            "old key"
        );
        assert_eq!(secret(key.clone()).await, StatusCode::OK);

        patch(json!({"is_superuser": false})).await;
        assert_eq!(secret(key.clone()).await, StatusCode::NOT_FOUND, "demoted");
        patch(json!({"is_active": false})).await;
        assert_eq!(secret(key).await, StatusCode::UNAUTHORIZED, "deactivated");
    }
}

#[actix_web::test]
async fn a_change_by_another_process_holds_within_the_generation_trust() {
    for db in TestDb::all() {
        let trust = std::time::Duration::from_millis(300);
        let config = tolk_service::ServiceConfig {
            create_glossaries: false,
            generation_trust: trust,
            ..Default::default()
        };
        let ctx = Ctx::with_config(db, config);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let jane = || async {
            call(
                &app,
                Method::GET,
                "/api/users/jane/",
                Some(&ctx.jane),
                Body::None,
            )
            .await
            .status
        };
        assert_eq!(jane().await, StatusCode::OK);
        // Another process: its own store, whose commits this one does not count.
        let other = tolk_service::Store::open(&ctx.db.url(), 1).unwrap();
        let other = tolk_service::Service::new(other, Default::default()).unwrap();
        other
            .users()
            .delete(&tolk_domain::permission::Subject::System, "jane")
            .unwrap();
        actix_web::rt::time::sleep(trust).await;
        assert_eq!(jane().await, StatusCode::UNAUTHORIZED, "removed elsewhere");
    }
}
