//! Component lists (`/api/component-lists/`, §15): managing them, what
//! callers see of them, rules that fill them, and teams granted through
//! them; every test runs on each configured database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::body::MessageBody;
use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, HOST, TestApp, call, error_items, get_json, pluck};
use serde_json::{Value, json};
use tolk_service::testing::TestDb;

fn api(path: &str) -> String {
    format!("http://{HOST}/api/{path}")
}

const LISTS: &str = "/api/component-lists/";

#[actix_web::test]
async fn lists_are_made_filled_emptied_and_removed() {
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        let body = json!({"name": "Featured", "slug": "featured"});

        let made = call(&app, Method::POST, LISTS, admin, Body::Json(body.clone())).await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        let list = made.json();
        let id = list["id"].as_i64().unwrap();
        assert_eq!(
            list,
            json!({"name": "Featured", "slug": "featured", "id": id, "show_dashboard": true,
                   "components": [], "auto_assign": [],
                   "url": api("component-lists/featured/")})
        );
        let keys: Vec<&String> = list.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "name",
                "slug",
                "id",
                "show_dashboard",
                "components",
                "auto_assign",
                "url"
            ],
            "Weblate's key order"
        );

        let again = call(&app, Method::POST, LISTS, admin, Body::Json(body.clone())).await;
        assert_eq!(again.status, StatusCode::BAD_REQUEST);
        let fields: Vec<String> = error_items(&again.json())
            .into_iter()
            .map(|(attr, _, _)| attr)
            .collect();
        assert_eq!(fields, ["name", "slug"], "{}", again.text());
        let bad = call(
            &app,
            Method::POST,
            LISTS,
            admin,
            Body::Json(json!({"name": "Other", "slug": "not a slug",
                              "auto_assign": [{"project_match": "(", "component_match": ""}]})),
        )
        .await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST);
        let fields: Vec<String> = error_items(&bad.json())
            .into_iter()
            .map(|(attr, _, _)| attr)
            .collect();
        assert_eq!(fields, ["slug", "auto_assign"], "{}", bad.text());
        let denied = call(&app, Method::POST, LISTS, jane, Body::Json(body.clone())).await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);
        assert_eq!(
            denied.json()["errors"][0]["detail"],
            "Can not manage component lists"
        );
        let anonymous = call(&app, Method::POST, LISTS, None, Body::Json(body)).await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
        assert_eq!(
            get_json(&app, LISTS, admin).await["count"],
            1,
            "one list made"
        );

        let component = get_json(&app, "/api/components/demo/app/", admin).await["id"].clone();
        let members = "/api/component-lists/featured/components/";
        let added = call(
            &app,
            Method::POST,
            members,
            admin,
            Body::Json(json!({"component_id": component})),
        )
        .await;
        assert_eq!(added.status, StatusCode::OK, "{}", added.text());
        assert_eq!(
            added.json()["components"],
            json!([api("components/demo/app/")])
        );
        let twice = call(
            &app,
            Method::POST,
            members,
            admin,
            Body::Json(json!({"component_id": component})),
        )
        .await;
        assert_eq!(twice.json()["components"].as_array().unwrap().len(), 1);
        for (body, message) in [
            (json!({"component_id": 9999}), "Component not found."),
            (json!({}), "This field is required."),
        ] {
            let unknown = call(&app, Method::POST, members, admin, Body::Json(body)).await;
            assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
            assert_eq!(unknown.json()["errors"][0]["detail"], message);
        }
        let page = get_json(&app, members, None).await;
        assert_eq!(page["count"], 1);
        assert_eq!(page["results"][0]["slug"], "app");
        assert_eq!(
            page["results"][0]["project"]["slug"], "demo",
            "full components"
        );

        let renamed = call(
            &app,
            Method::PATCH,
            "/api/component-lists/featured/",
            admin,
            Body::Json(json!({"name": "Highlights", "show_dashboard": false})),
        )
        .await;
        assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text());
        let renamed = renamed.json();
        assert_eq!(
            (
                &renamed["name"],
                &renamed["slug"],
                &renamed["show_dashboard"]
            ),
            (&json!("Highlights"), &json!("featured"), &json!(false))
        );
        assert_eq!(renamed["components"].as_array().unwrap().len(), 1, "kept");
        let replaced = call(
            &app,
            Method::PUT,
            "/api/component-lists/featured/",
            admin,
            Body::Json(json!({"name": "Highlights", "slug": "top"})),
        )
        .await;
        assert_eq!(replaced.status, StatusCode::OK, "{}", replaced.text());
        assert_eq!(replaced.json()["show_dashboard"], true, "PUT resets it");
        assert_eq!(replaced.json()["url"], api("component-lists/top/"));
        let old = call(
            &app,
            Method::GET,
            "/api/component-lists/featured/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(old.status, StatusCode::NOT_FOUND);

        let out = "/api/component-lists/top/components/app/";
        let removed = call(&app, Method::DELETE, out, jane, Body::None).await;
        assert_eq!(removed.status, StatusCode::FORBIDDEN);
        let removed = call(&app, Method::DELETE, out, admin, Body::None).await;
        assert_eq!(removed.status, StatusCode::NO_CONTENT);
        let removed = call(&app, Method::DELETE, out, admin, Body::None).await;
        assert_eq!(removed.status, StatusCode::NOT_FOUND, "no longer in it");
        assert_eq!(
            get_json(&app, "/api/component-lists/top/", None).await["components"],
            json!([])
        );

        let gone = call(
            &app,
            Method::DELETE,
            "/api/component-lists/top/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(gone.status, StatusCode::NO_CONTENT);
        let gone = call(
            &app,
            Method::DELETE,
            "/api/component-lists/top/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(gone.status, StatusCode::NOT_FOUND);
        assert_eq!(get_json(&app, LISTS, admin).await["count"], 0);
    }
}

#[actix_web::test]
async fn rules_fill_a_list_now_and_as_components_are_made() {
    for db in TestDb::all() {
        let (upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let made = call(
            &app,
            Method::POST,
            LISTS,
            admin,
            Body::Json(json!({"name": "Countries", "slug": "countries",
                "auto_assign": [{"project_match": "^dem", "component_match": "^countr"}]})),
        )
        .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        assert_eq!(made.json()["components"], json!([]), "app does not match");
        common::countries_component(&ctx, &upstream);
        let list = get_json(&app, "/api/component-lists/countries/", admin).await;
        assert_eq!(
            list["components"],
            json!([api("components/demo/countries/")])
        );
        assert_eq!(
            list["auto_assign"],
            json!([{"project_match": "^dem", "component_match": "^countr"}])
        );

        let widened = call(
            &app,
            Method::PATCH,
            "/api/component-lists/countries/",
            admin,
            Body::Json(json!({"auto_assign": [{"project_match": "demo", "component_match": ""}]})),
        )
        .await;
        assert_eq!(widened.status, StatusCode::OK, "{}", widened.text());
        assert_eq!(
            widened.json()["components"],
            json!([
                api("components/demo/app/"),
                api("components/demo/countries/")
            ])
        );
        let none = call(
            &app,
            Method::PATCH,
            "/api/component-lists/countries/",
            admin,
            Body::Json(json!({"auto_assign": [{"project_match": "emo", "component_match": ""}]})),
        )
        .await;
        assert_eq!(
            none.json()["components"].as_array().unwrap().len(),
            2,
            "new rules add, they do not take out"
        );
    }
}

async fn restrict_app<S: TestApp<B>, B: MessageBody>(app: &S, admin: Option<&str>) {
    let restricted = call(
        app,
        Method::PATCH,
        "/api/components/demo/app/",
        admin,
        Body::Json(json!({"restricted": true})),
    )
    .await;
    assert_eq!(restricted.status, StatusCode::OK, "{}", restricted.text());
}

#[actix_web::test]
async fn callers_see_lists_and_components_they_may_see_and_teams_grant_through_them() {
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        for (name, slug) in [("Secret", "secret"), ("Empty", "empty")] {
            let made = call(
                &app,
                Method::POST,
                LISTS,
                admin,
                Body::Json(json!({"name": name, "slug": slug})),
            )
            .await;
            assert_eq!(made.status, StatusCode::CREATED);
        }
        let component = get_json(&app, "/api/components/demo/app/", admin).await["id"].clone();
        call(
            &app,
            Method::POST,
            "/api/component-lists/secret/components/",
            admin,
            Body::Json(json!({"component_id": component})),
        )
        .await;
        restrict_app(&app, admin).await;

        let slugs = |page: Value| pluck(&page["results"], "slug");
        assert_eq!(
            slugs(get_json(&app, LISTS, admin).await),
            json!(["secret", "empty"])
        );
        assert_eq!(
            slugs(get_json(&app, LISTS, jane).await),
            json!(["empty"]),
            "a list of hidden components is hidden"
        );
        let hidden = call(
            &app,
            Method::GET,
            "/api/component-lists/secret/",
            jane,
            Body::None,
        )
        .await;
        assert_eq!(hidden.status, StatusCode::NOT_FOUND);
        let hidden = call(
            &app,
            Method::GET,
            "/api/component-lists/secret/components/",
            jane,
            Body::None,
        )
        .await;
        assert_eq!(hidden.status, StatusCode::NOT_FOUND);
        let remove = call(
            &app,
            Method::DELETE,
            "/api/component-lists/secret/",
            jane,
            Body::None,
        )
        .await;
        assert_eq!(remove.status, StatusCode::NOT_FOUND, "hidden before denied");

        let team = call(
            &app,
            Method::POST,
            "/api/groups/",
            admin,
            Body::Json(json!({"name": "Listed", "language_selection": 1, "project_selection": 2})),
        )
        .await
        .json();
        let team_id = team["id"].as_i64().unwrap();
        let grants = format!("/api/groups/{team_id}/componentlists/");
        let list_id = get_json(&app, "/api/component-lists/secret/", admin).await["id"].clone();
        let unknown = call(
            &app,
            Method::POST,
            &grants,
            admin,
            Body::Json(json!({"component_list_id": 9999})),
        )
        .await;
        assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            unknown.json()["errors"][0]["detail"],
            "Component list not found."
        );
        let granted = call(
            &app,
            Method::POST,
            &grants,
            admin,
            Body::Json(json!({"component_list_id": list_id})),
        )
        .await;
        assert_eq!(granted.status, StatusCode::OK, "{}", granted.text());
        assert_eq!(
            granted.json()["componentlists"],
            json!([api("component-lists/secret/")])
        );
        common::join_team(&app, admin, "jane", team_id).await;
        let seen = call(
            &app,
            Method::GET,
            "/api/components/demo/app/",
            jane,
            Body::None,
        )
        .await;
        assert_eq!(
            seen.status,
            StatusCode::OK,
            "the team's list shows the component"
        );
        assert_eq!(
            get_json(&app, "/api/component-lists/secret/", jane).await["components"],
            json!([api("components/demo/app/")])
        );
        assert_eq!(
            get_json(&app, "/api/component-lists/secret/components/", jane).await["count"],
            1
        );
        let still = call(
            &app,
            Method::GET,
            "/api/components/demo/app/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(still.status, StatusCode::NOT_FOUND, "hidden from others");

        let ungrant = call(
            &app,
            Method::DELETE,
            &format!("/api/groups/{team_id}/componentlists/{list_id}/"),
            admin,
            Body::None,
        )
        .await;
        assert_eq!(ungrant.status, StatusCode::NO_CONTENT);
        let seen = call(
            &app,
            Method::GET,
            "/api/components/demo/app/",
            jane,
            Body::None,
        )
        .await;
        assert_eq!(
            seen.status,
            StatusCode::NOT_FOUND,
            "the grant went with the list"
        );
    }
}
