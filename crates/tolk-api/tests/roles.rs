//! Roles over HTTP (§5): Weblate's built-in roles as its server lists
//! them, who sees which, and managing them; on each configured database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{
    Body, Ctx, HOST, assert_same_shape, call, error_items, get_json, pluck, sample,
    sample_on_test_host,
};
use serde_json::json;
use tolk_service::testing::TestDb;

#[actix_web::test]
async fn built_in_roles_are_weblates() {
    for db in TestDb::all() {
        let ctx = Ctx::new(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let all = get_json(&app, "/api/roles/", Some(&ctx.admin)).await;
        assert_eq!(all, sample_on_test_host("27-roles-list"));
        let one = get_json(&app, "/api/roles/1/", Some(&ctx.admin)).await;
        assert_eq!(one, sample_on_test_host("28-role-detail"));
        assert_same_shape(&one, &sample("28-role-detail"), "role");

        let mine = get_json(&app, "/api/roles/", Some(&ctx.jane)).await;
        assert_eq!(
            pluck(&mine["results"], "name"),
            json!(["Power user"]),
            "a user sees the roles of the teams they are in (Users, Viewers)"
        );
        let anonymous = get_json(&app, "/api/roles/", None).await;
        assert_eq!(
            pluck(&anonymous["results"], "name"),
            json!(["Add suggestion", "Access repository"])
        );
        let hidden = call(
            &app,
            Method::GET,
            "/api/roles/1/",
            Some(&ctx.jane),
            Body::None,
        )
        .await;
        assert_eq!(hidden.status, StatusCode::NOT_FOUND);
    }
}

#[actix_web::test]
async fn roles_are_managed_with_role_edit() {
    for db in TestDb::all() {
        let ctx = Ctx::new(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let body = json!({"name": "Editors", "permissions": ["unit.edit", "project.edit"]});
        let denied = call(
            &app,
            Method::POST,
            "/api/roles/",
            Some(&ctx.jane),
            Body::Json(body.clone()),
        )
        .await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);
        assert_eq!(denied.json()["errors"][0]["detail"], "Can not manage roles");

        let created = call(
            &app,
            Method::POST,
            "/api/roles/",
            admin,
            Body::Json(body.clone()),
        )
        .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
        let role = created.json();
        let url = role["url"].as_str().unwrap().to_owned();
        assert_eq!(created.header("location"), Some(url.as_str()));
        assert_eq!(role["permissions"], json!(["project.edit", "unit.edit"]));
        let path = url.replace(&format!("http://{HOST}"), "");

        let again = call(&app, Method::POST, "/api/roles/", admin, Body::Json(body)).await;
        assert_eq!(
            error_items(&again.json()),
            vec![(
                "name".into(),
                "unique".into(),
                "Role with this Name already exists.".into()
            )]
        );
        let unknown = call(
            &app,
            Method::POST,
            "/api/roles/",
            admin,
            Body::Json(json!({"name": "Other", "permissions": ["unit.fly"]})),
        )
        .await;
        assert_eq!(
            error_items(&unknown.json()),
            vec![(
                "permissions".into(),
                "invalid".into(),
                "Permission with this codename was not found.".into()
            )]
        );

        let patched = call(
            &app,
            Method::PATCH,
            &path,
            admin,
            Body::Json(json!({"permissions": ["vcs.push"]})),
        )
        .await;
        assert_eq!(
            patched.json()["permissions"],
            json!(["project.edit", "unit.edit", "vcs.push"]),
            "PATCH adds"
        );
        let put = call(
            &app,
            Method::PUT,
            &path,
            admin,
            Body::Json(json!({"name": "Pushers", "permissions": ["vcs.push"]})),
        )
        .await;
        assert_eq!(
            (
                put.json()["name"].clone(),
                put.json()["permissions"].clone()
            ),
            (json!("Pushers"), json!(["vcs.push"])),
            "PUT replaces"
        );
        let removed = call(&app, Method::DELETE, &path, admin, Body::None).await;
        assert_eq!(removed.status, StatusCode::NO_CONTENT);
        let gone = call(&app, Method::DELETE, &path, admin, Body::None).await;
        assert_eq!(gone.status, StatusCode::NOT_FOUND);
        assert_eq!(get_json(&app, "/api/roles/", admin).await["count"], 18);
    }
}
