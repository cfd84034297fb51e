//! What a client sees when a request is wrong or the server fails: clear
//! 4xx answers, and 500s that tell nothing of the server's insides.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, Ctx, call, error_codes, error_items};
use serde_json::json;

const NUL: &str = "Null characters are not allowed.";

#[actix_web::test]
async fn a_server_error_tells_only_its_request_id() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let fine = call(&app, Method::GET, "/api/changes/", None, Body::None).await;
        let first_id = fine.header("x-request-id").unwrap().to_owned();
        assert_eq!(first_id.len(), 36, "a UUID: {first_id}");
        ctx.db.execute("DROP TABLE changes");
        let broken = call(&app, Method::GET, "/api/changes/", None, Body::None).await;
        assert_eq!(broken.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            broken.json(),
            json!({
                "type": "server_error",
                "errors": [{"code": "error", "detail": "A server error occurred.", "attr": null}],
                "detail": "A server error occurred."
            }),
            "no SQL, table names or paths"
        );
        let id = broken.header("x-request-id").expect("the id to quote");
        assert_ne!(id, first_id, "every request has its own id");
    }
}

#[actix_web::test]
async fn nul_characters_are_refused_everywhere() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        for path in [
            "/api/projects/%00/",
            "/api/projects/a%00b/statistics/",
            "/api/users/%00/",
            "/api/languages/%00/",
            "/api/changes/%00/",
        ] {
            let reply = call(&app, Method::GET, path, admin, Body::None).await;
            assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
        }
        let created = call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(json!({"name": "a\u{0}b", "slug": "ab", "web": "https://ab.example/", "instructions": "\u{0}"})),
        )
        .await;
        assert_eq!(created.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            error_items(&created.json()),
            [
                (
                    "name".into(),
                    "null_characters_not_allowed".into(),
                    NUL.into()
                ),
                (
                    "instructions".into(),
                    "null_characters_not_allowed".into(),
                    NUL.into()
                ),
            ]
        );
        for query in [
            "/api/changes/?user=%00",
            "/api/users/?username=%00",
            "/api/users/?email=a%00",
        ] {
            let reply = call(&app, Method::GET, query, admin, Body::None).await;
            assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{query}");
            assert_eq!(
                error_items(&reply.json())[0].1,
                "null_characters_not_allowed"
            );
        }
        let listed = call(&app, Method::GET, "/api/projects/", admin, Body::None).await;
        assert_eq!(listed.json()["count"], 0, "nothing was stored");
    }
}

#[actix_web::test]
async fn bodies_too_large_or_without_a_type() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let huge = format!(
            "{{\"name\": \"Big\", \"slug\": \"big\", \"web\": \"https://big.example/\", \"instructions\": \"{}\"}}",
            "x".repeat(tolk_api::input::MAX_BODY)
        );
        let refused = call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Raw("application/json", &huge),
        )
        .await;
        assert_eq!(refused.status, StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(refused.json()["type"], "client_error");
        // No content type: the body is not read, so the fields are missing.
        let untyped = call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Untyped("{\"name\": \"Demo\"}"),
        )
        .await;
        assert_eq!(untyped.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            error_codes(&untyped.json()),
            ["name", "slug", "web"].map(|a| (a.to_owned(), "required".to_owned()))
        );
        let blank_json = call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Raw("application/json", "\n"),
        )
        .await;
        assert_eq!(
            error_codes(&blank_json.json()),
            [(String::new(), "parse_error".to_owned())],
            "white space is no JSON document"
        );
        let listed = call(&app, Method::GET, "/api/projects/", admin, Body::None).await;
        assert_eq!(listed.json()["count"], 0);
    }
}

#[actix_web::test]
async fn query_filters_read_as_django_filter_reads_them() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let all = call(&app, Method::GET, "/api/users/", admin, Body::None)
            .await
            .json();
        let total = all["count"].as_u64().unwrap();
        assert!(total >= 3, "anonymous, admin and jane");
        for (query, expected) in [
            ("?is_active=", total),
            ("?is_active=True", total - 1),
            ("?is_active=true", total - 1),
            ("?is_active=1", total - 1),
            ("?is_active=False", 1),
            ("?is_active=0", 1),
            ("?username=", total),
            ("?username=zz&username=ja", 1),
            ("?id=&email=", total),
        ] {
            let reply = call(
                &app,
                Method::GET,
                &format!("/api/users/{query}"),
                admin,
                Body::None,
            )
            .await;
            assert_eq!(reply.status, StatusCode::OK, "{query}: {}", reply.text());
            assert_eq!(reply.json()["count"], expected, "{query}");
        }
        let bad = call(
            &app,
            Method::GET,
            "/api/users/?is_active=maybe&id=x",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            error_items(&bad.json()),
            [
                (
                    "is_active".into(),
                    "invalid_choice".into(),
                    "Select a valid choice. maybe is not one of the available choices.".into()
                ),
                ("id".into(), "invalid".into(), "Enter a number.".into()),
            ]
        );
        for query in [
            "?action=",
            "?timestamp_after=",
            "?user=",
            "?format=",
            "?action=&user=&format=",
        ] {
            let reply = call(
                &app,
                Method::GET,
                &format!("/api/changes/{query}"),
                admin,
                Body::None,
            )
            .await;
            assert_eq!(reply.status, StatusCode::OK, "{query}: {}", reply.text());
            assert_eq!(
                reply.header("content-type"),
                Some("application/json"),
                "{query}"
            );
        }
        for (query, status) in [
            ("?page_size=0", StatusCode::BAD_REQUEST),
            ("?page_size=x", StatusCode::BAD_REQUEST),
            ("?page_size=-1", StatusCode::BAD_REQUEST),
            ("?page_size=99999999999999999999", StatusCode::BAD_REQUEST),
            ("?page_size=", StatusCode::OK),
            ("?page=0", StatusCode::NOT_FOUND),
            ("?page=x", StatusCode::NOT_FOUND),
            ("?page=", StatusCode::OK),
        ] {
            let reply = call(
                &app,
                Method::GET,
                &format!("/api/projects/{query}"),
                admin,
                Body::None,
            )
            .await;
            assert_eq!(reply.status, status, "{query}: {}", reply.text());
        }
        let last_format = call(
            &app,
            Method::GET,
            "/api/changes/?format=api&format=json",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(last_format.header("content-type"), Some("application/json"));
    }
}
