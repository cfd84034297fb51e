//! Teams over HTTP (§4): Weblate's built-in teams as its server lists
//! them, who sees which, managing them and their lists, and what their
//! grants change; on each configured database.

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
use serde_json::{Value, json};
use tolk_service::testing::TestDb;

fn api(path: &str) -> String {
    format!("http://{HOST}/api/{path}")
}

#[actix_web::test]
async fn built_in_teams_are_weblates() {
    for db in TestDb::all() {
        let ctx = Ctx::new(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let project = json!({"name": "Demo", "slug": "demo", "web": "https://demo.example/"});
        let made = call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(project),
        )
        .await;
        assert_eq!(made.status, StatusCode::CREATED);
        let all = get_json(&app, "/api/groups/", admin).await;
        assert_eq!(all, sample_on_test_host("25-groups-list"));
        let one = get_json(&app, "/api/groups/1/", admin).await;
        assert_eq!(one, sample_on_test_host("26-group-detail"));

        let mine = get_json(&app, "/api/groups/", Some(&ctx.jane)).await;
        assert_eq!(pluck(&mine["results"], "name"), json!(["Viewers", "Users"]));
        let anonymous = get_json(&app, "/api/groups/", None).await;
        assert_eq!(
            pluck(&anonymous["results"], "name"),
            json!(["Guests", "Viewers"])
        );
        let hidden = call(
            &app,
            Method::GET,
            "/api/groups/5/",
            Some(&ctx.jane),
            Body::None,
        )
        .await;
        assert_eq!(hidden.status, StatusCode::NOT_FOUND);
        let renamed = call(
            &app,
            Method::PATCH,
            "/api/groups/1/",
            admin,
            Body::Json(json!({"name": "Visitors"})),
        )
        .await;
        assert_eq!(
            error_items(&renamed.json()),
            vec![(
                String::new(),
                "invalid".into(),
                "Cannot change this on a built-in team.".into()
            )]
        );
        let flagged = call(
            &app,
            Method::PATCH,
            "/api/groups/1/",
            admin,
            Body::Json(json!({"enforced_2fa": true})),
        )
        .await;
        assert_eq!(
            flagged.json()["enforced_2fa"],
            true,
            "other fields may change"
        );
    }
}

#[actix_web::test]
async fn a_team_grants_its_members_access_to_a_private_project() {
    for db in TestDb::all() {
        let ctx = Ctx::new(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        let secret = json!({"name": "Secret", "slug": "secret", "web": "https://s.example/"});
        call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(secret),
        )
        .await;
        common::make_private(&ctx, "secret");
        let hidden = call(&app, Method::GET, "/api/projects/secret/", jane, Body::None).await;
        assert_eq!(hidden.status, StatusCode::NOT_FOUND);
        let teams = get_json(&app, "/api/groups/?page_size=50", admin).await;
        assert_eq!(
            teams["count"], 17,
            "a private project gets all eleven project teams"
        );

        let body = json!({"name": "Editors", "project_selection": 0, "language_selection": 1});
        let denied = call(
            &app,
            Method::POST,
            "/api/groups/",
            jane,
            Body::Json(body.clone()),
        )
        .await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);
        let created = call(&app, Method::POST, "/api/groups/", admin, Body::Json(body)).await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
        let team = created.json();
        assert_same_shape(&team, &sample("26-group-detail"), "group");
        let path = team["url"]
            .as_str()
            .unwrap()
            .replace(&format!("http://{HOST}"), "");
        let post = |list: &str, body: Value| {
            let app = &app;
            let uri = format!("{path}{list}/");
            async move { call(app, Method::POST, &uri, admin, Body::Json(body)).await }
        };

        let missing = post("roles", json!({})).await;
        assert_eq!(
            error_items(&missing.json()),
            vec![(
                "role_id".into(),
                "invalid".into(),
                "Missing role_id parameter".into()
            )]
        );
        let unknown = post("roles", json!({"role_id": 999})).await;
        assert_eq!(unknown.json()["errors"][0]["detail"], "Role not found.");
        let wrong = post("roles", json!({"role_id": "x"})).await;
        assert_eq!(
            wrong.json()["errors"][0]["detail"],
            "A valid integer is required."
        );
        let secret_id = get_json(&app, "/api/projects/secret/", admin).await["id"].clone();
        assert_eq!(
            post("roles", json!({"role_id": 1})).await.status,
            StatusCode::OK
        );
        assert_eq!(
            post("languages", json!({"language_code": "cs"}))
                .await
                .status,
            StatusCode::OK
        );
        let listed = post("projects", json!({"project_id": secret_id})).await;
        assert_eq!(listed.status, StatusCode::OK, "{}", listed.text());
        let team = listed.json();
        assert_eq!(team["roles"], json!([api("roles/1/")]));
        assert_eq!(team["languages"], json!([api("languages/cs/")]));
        assert_eq!(team["projects"], json!([api("projects/secret/")]));
        let lists = post("componentlists", json!({"component_list_id": 1})).await;
        assert_eq!(
            lists.json()["errors"][0]["detail"],
            "Component list not found."
        );

        let jane_id = get_json(&app, "/api/users/jane/", admin).await["id"].clone();
        let granted = post("admins", json!({"user_id": jane_id})).await;
        assert_eq!(granted.json(), json!(["Administration rights granted."]));
        let seen = get_json(&app, &path, jane).await;
        assert_eq!(seen["admins"], json!([api("users/jane/")]));
        let visible = call(&app, Method::GET, "/api/projects/secret/", jane, Body::None).await;
        assert_eq!(visible.status, StatusCode::OK, "the team shows the project");
        let edited = call(
            &app,
            Method::PATCH,
            "/api/projects/secret/",
            jane,
            Body::Json(json!({"web": "https://changed.example/"})),
        )
        .await;
        assert_eq!(
            edited.status,
            StatusCode::OK,
            "Administration allows project.edit"
        );

        let unlisted = call(
            &app,
            Method::DELETE,
            &format!("{path}roles/1/"),
            admin,
            Body::None,
        )
        .await;
        assert_eq!(unlisted.status, StatusCode::NO_CONTENT);
        let again = call(
            &app,
            Method::DELETE,
            &format!("{path}roles/1/"),
            admin,
            Body::None,
        )
        .await;
        assert_eq!(again.status, StatusCode::NOT_FOUND);
        let refused = call(
            &app,
            Method::PATCH,
            "/api/projects/secret/",
            jane,
            Body::Json(json!({"web": "https://again.example/"})),
        )
        .await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "the role is gone");
        let removed = call(&app, Method::DELETE, &path, admin, Body::None).await;
        assert_eq!(removed.status, StatusCode::NO_CONTENT);
        let gone = call(&app, Method::GET, "/api/projects/secret/", jane, Body::None).await;
        assert_eq!(
            gone.status,
            StatusCode::NOT_FOUND,
            "no team shows it any more"
        );
    }
}

#[actix_web::test]
async fn project_managers_make_teams_of_their_project() {
    for db in TestDb::all() {
        let ctx = Ctx::new(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
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
        let jane_id = get_json(&app, "/api/users/jane/", admin).await["id"].clone();
        let administration = 7;
        let granted = call(
            &app,
            Method::POST,
            &format!("/api/groups/{administration}/admins/"),
            admin,
            Body::Json(json!({"user_id": jane_id})),
        )
        .await;
        assert_eq!(granted.status, StatusCode::OK, "{}", granted.text());
        let team = json!({"name": "Helpers", "defining_project": api("projects/demo/"),
                          "project_selection": 1});
        let created = call(
            &app,
            Method::POST,
            "/api/groups/",
            jane,
            Body::Json(team.clone()),
        )
        .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
        let body = created.json();
        assert_eq!(
            (
                body["project_selection"].clone(),
                body["projects"].clone(),
                body["defining_project"].clone()
            ),
            (
                json!(0),
                json!([api("projects/demo/")]),
                json!(api("projects/demo/"))
            ),
            "a project's team covers that project only"
        );
        let path = body["url"]
            .as_str()
            .unwrap()
            .replace(&format!("http://{HOST}"), "");
        let other = get_json(&app, "/api/projects/other/", admin).await["id"].clone();
        let scoped = call(
            &app,
            Method::POST,
            &format!("{path}projects/"),
            jane,
            Body::Json(json!({"project_id": other})),
        )
        .await;
        assert_eq!(
            scoped.json()["errors"][0]["detail"],
            "Cannot change projects on a scoped team."
        );
        let elsewhere = json!({"name": "Intruders", "defining_project": api("projects/other/")});
        let denied = call(
            &app,
            Method::POST,
            "/api/groups/",
            jane,
            Body::Json(elsewhere),
        )
        .await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);
        let listed = get_json(&app, "/api/groups/", jane).await;
        assert_eq!(
            pluck(&listed["results"], "name"),
            json!(["Viewers", "Users", "Administration", "Helpers"]),
            "her own teams and those of the project she manages"
        );
    }
}

#[actix_web::test]
async fn user_managers_put_users_in_teams() {
    for db in TestDb::all() {
        let ctx = Ctx::new(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let uri = "/api/users/jane/groups/";
        let jane = get_json(&app, "/api/users/jane/", admin).await;
        assert_eq!(
            jane["groups"],
            json!([api("groups/2/"), api("groups/3/")]),
            "every user is in Viewers and Users"
        );
        let denied = call(
            &app,
            Method::POST,
            uri,
            Some(&ctx.jane),
            Body::Json(json!({"group_id": 5})),
        )
        .await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);
        let missing = call(&app, Method::POST, uri, admin, Body::Json(json!({}))).await;
        assert_eq!(
            error_items(&missing.json()),
            vec![(
                "group_id".into(),
                "invalid".into(),
                "Missing group_id parameter".into()
            )]
        );
        let unknown = call(
            &app,
            Method::POST,
            uri,
            admin,
            Body::Json(json!({"group_id": 99})),
        )
        .await;
        assert_eq!(unknown.json()["errors"][0]["detail"], "Group not found.");
        let joined = call(
            &app,
            Method::POST,
            uri,
            admin,
            Body::Json(json!({"group_id": 5})),
        )
        .await;
        assert_eq!(joined.status, StatusCode::OK, "{}", joined.text());
        assert_eq!(
            joined.json()["groups"],
            json!([api("groups/2/"), api("groups/3/"), api("groups/5/")])
        );
        let managers = call(
            &app,
            Method::POST,
            "/api/projects/",
            Some(&ctx.jane),
            Body::Json(json!({"name": "Mine", "slug": "mine", "web": "https://m.example/"})),
        )
        .await;
        assert_eq!(
            managers.status,
            StatusCode::FORBIDDEN,
            "Managers administer projects, they do not create them"
        );
        let all = get_json(&app, "/api/groups/", Some(&ctx.jane)).await;
        assert_eq!(all["count"], 3);
        let left = call(
            &app,
            Method::DELETE,
            uri,
            admin,
            Body::Json(json!({"group_id": 5})),
        )
        .await;
        assert_eq!(
            left.json()["groups"],
            json!([api("groups/2/"), api("groups/3/")])
        );
    }
}

#[actix_web::test]
async fn a_restricted_component_shows_through_a_team_listing_it() {
    for db in TestDb::all() {
        let upstream = common::upstream();
        let ctx = common::context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        let restricted = call(
            &app,
            Method::PATCH,
            "/api/components/demo/app/",
            admin,
            Body::Json(json!({"restricted": true})),
        )
        .await;
        assert_eq!(restricted.status, StatusCode::OK, "{}", restricted.text());
        let seen = |token| {
            let app = &app;
            async move {
                let one = call(
                    app,
                    Method::GET,
                    "/api/components/demo/app/",
                    token,
                    Body::None,
                )
                .await;
                let listed = get_json(app, "/api/components/", token).await["count"].clone();
                let units = get_json(app, "/api/translations/", token).await["count"].clone();
                (one.status, listed, units)
            }
        };
        assert_eq!(
            seen(jane).await,
            (StatusCode::NOT_FOUND, json!(0), json!(0))
        );
        assert_eq!(
            seen(None).await,
            (StatusCode::NOT_FOUND, json!(0), json!(0))
        );

        let team = call(
            &app,
            Method::POST,
            "/api/groups/",
            admin,
            Body::Json(json!({"name": "Insiders", "language_selection": 1})),
        )
        .await
        .json();
        let component = get_json(&app, "/api/components/demo/app/", admin).await["id"].clone();
        let listed = call(
            &app,
            Method::POST,
            &format!("/api/groups/{}/components/", team["id"]),
            admin,
            Body::Json(json!({"component_id": component})),
        )
        .await;
        assert_eq!(
            listed.json()["components"],
            json!([api("components/demo/app/")])
        );
        common::join_team(&app, admin, "jane", team["id"].as_i64().unwrap()).await;
        let (status, components, translations) = seen(jane).await;
        assert_eq!((status, components), (StatusCode::OK, json!(1)));
        assert!(
            translations.as_u64().unwrap() > 0,
            "its translations show too"
        );
        assert_eq!(
            seen(None).await.0,
            StatusCode::NOT_FOUND,
            "still hidden from others"
        );
    }
}
