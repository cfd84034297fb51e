//! Cancelling a task over the API (§19), on each database: who may, what
//! a waiting task shows once cancelled, and that it never runs.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, HOST, call, context, get_json, upstream};
use serde_json::json;
use tolk_service::testing::TestDb;

#[actix_web::test]
async fn a_waiting_task_is_cancelled_by_those_who_may_edit_its_component() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let body = json!({"name": "App", "slug": "app", "repo": upstream.url(),
            "filemask": "po/*.po", "file_format": "po"});
        let created = call(
            &app,
            Method::POST,
            "/api/projects/demo/components/",
            admin,
            Body::Json(body),
        )
        .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
        let task_url = created.json()["task_url"].as_str().unwrap().to_owned();
        let task = task_url.trim_start_matches(&format!("http://{HOST}"));

        // Anonymous callers sign in first; Jane sees the public project
        // but may not edit the component.
        let anonymous = call(&app, Method::DELETE, task, None, Body::None).await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
        let jane = call(&app, Method::DELETE, task, Some(&ctx.jane), Body::None).await;
        assert_eq!(jane.status, StatusCode::FORBIDDEN);
        let unknown = call(
            &app,
            Method::DELETE,
            "/api/tasks/00000000-0000-0000-0000-000000000000/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(unknown.status, StatusCode::NOT_FOUND);
        assert_eq!(get_json(&app, task, admin).await["completed"], json!(false));

        let cancelled = call(&app, Method::DELETE, task, admin, Body::None).await;
        assert_eq!(cancelled.status, StatusCode::NO_CONTENT);
        let shown = get_json(&app, task, admin).await;
        assert_eq!(
            (&shown["completed"], &shown["progress"], &shown["result"]),
            (&json!(true), &json!(100), &json!("Task cancelled."))
        );
        let component = get_json(&app, "/api/components/demo/app/", admin).await;
        assert_eq!(component["task_url"], json!(null), "no task runs for it");
        assert_eq!(ctx.service.tasks().run_due().unwrap(), 0, "it never runs");

        // Once finished, a cancellation changes nothing.
        let again = call(&app, Method::DELETE, task, admin, Body::None).await;
        assert_eq!(again.status, StatusCode::NO_CONTENT);
        assert_eq!(get_json(&app, task, admin).await, shown);
    }
}
