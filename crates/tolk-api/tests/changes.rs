//! `/api/changes/`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, Ctx, HOST, assert_same_shape, call, sample};
use serde_json::json;

#[actix_web::test]
async fn filters_order_and_detail() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        for slug in ["one", "two"] {
            let created = call(
                &app,
                Method::POST,
                "/api/projects/",
                admin,
                Body::Json(json!({"name": slug, "slug": slug, "web": "https://example.com/"})),
            )
            .await;
            assert_eq!(created.status, StatusCode::CREATED);
        }
        let all = call(&app, Method::GET, "/api/changes/", admin, Body::None)
            .await
            .json();
        assert_eq!(all["count"], 4, "two accounts and two projects");
        assert_eq!(all["results"][0]["target"], "two", "newest first");
        let mut change = all["results"][0].clone();
        change["details"] = json!(null);
        assert_same_shape(
            &change,
            &sample("30-change-detail"),
            "change (details depend on the action)",
        );

        let projects = call(
            &app,
            Method::GET,
            "/api/changes/?action=50",
            admin,
            Body::None,
        )
        .await
        .json();
        assert_eq!(projects["count"], 2);
        let both = call(
            &app,
            Method::GET,
            "/api/changes/?action=50&action=34",
            admin,
            Body::None,
        )
        .await
        .json();
        assert_eq!(both["count"], 4);
        let by_admin = call(
            &app,
            Method::GET,
            "/api/changes/?user=admin",
            admin,
            Body::None,
        )
        .await
        .json();
        assert_eq!(by_admin["count"], 2);
        let nobody = call(
            &app,
            Method::GET,
            "/api/changes/?user=ghost",
            admin,
            Body::None,
        )
        .await
        .json();
        assert_eq!(nobody["count"], 0);
        let first = all["results"][3]["timestamp"].as_str().unwrap().to_owned();
        let after = call(
            &app,
            Method::GET,
            &format!("/api/changes/?timestamp_after={first}"),
            admin,
            Body::None,
        )
        .await
        .json();
        assert_eq!(after["count"], 4, "the bound is inclusive");
        let before = call(
            &app,
            Method::GET,
            &format!("/api/changes/?timestamp_before={first}"),
            admin,
            Body::None,
        )
        .await
        .json();
        assert_eq!(before["count"], 1);

        let bad = call(
            &app,
            Method::GET,
            "/api/changes/?action=999&timestamp_after=soon",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            bad.json()["errors"],
            json!([
                {"code": "invalid_choice", "detail": "Select a valid choice. 999 is not one of the available choices.", "attr": "action"},
                {"code": "invalid", "detail": "Enter a valid date/time.", "attr": "timestamp_after"}
            ])
        );

        let id = all["results"][0]["id"].as_i64().unwrap();
        let detail = call(
            &app,
            Method::GET,
            &format!("/api/changes/{id}/"),
            None,
            Body::None,
        )
        .await;
        assert_eq!(detail.status, StatusCode::OK);
        let detail = detail.json();
        assert_eq!(detail["url"], format!("http://{HOST}/api/changes/{id}/"));
        assert_eq!(detail["action_name"], "Project created");

        let account_change = all["results"][3]["id"].as_i64().unwrap();
        let hidden = call(
            &app,
            Method::GET,
            &format!("/api/changes/{account_change}/"),
            None,
            Body::None,
        )
        .await;
        assert_eq!(
            hidden.status,
            StatusCode::NOT_FOUND,
            "account history is for managers"
        );
        let anonymous = call(&app, Method::GET, "/api/changes/", None, Body::None)
            .await
            .json();
        assert_eq!(anonymous["count"], 2);
        assert_eq!(
            call(&app, Method::GET, "/api/changes/abc/", None, Body::None)
                .await
                .status,
            StatusCode::NOT_FOUND
        );
    }
}
