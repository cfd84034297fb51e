//! Teams reach the access check: a user's team grants are read when the
//! request is authenticated, open a private project to its members and
//! give them their roles' permissions there, and nowhere else.

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
use common::{Body, Ctx, TestApp, call, join_team, pluck, team};
use serde_json::json;

#[actix_web::test]
async fn a_team_opens_its_private_project_to_its_members() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        for slug in ["secret", "other"] {
            let created = call(
                &app,
                Method::POST,
                "/api/projects/",
                admin,
                Body::Json(json!({"name": slug, "slug": slug, "web": "https://x.example/", "access_control": 100})),
            )
            .await;
            assert_eq!(created.status, StatusCode::CREATED);
        }
        let hidden = call(&app, Method::GET, "/api/projects/secret/", jane, Body::None).await;
        assert_eq!(
            hidden.status,
            StatusCode::NOT_FOUND,
            "private, and jane in no team"
        );

        team(&ctx, "Secret editors", "project.edit", "secret", "jane");
        let seen = call(&app, Method::GET, "/api/projects/secret/", jane, Body::None).await;
        assert_eq!(seen.status, StatusCode::OK);
        let listed = call(&app, Method::GET, "/api/projects/", jane, Body::None)
            .await
            .json();
        assert_eq!(pluck(&listed["results"], "slug"), json!(["secret"]));
        let edited = call(
            &app,
            Method::PATCH,
            "/api/projects/secret/",
            jane,
            Body::Json(json!({"license": "MIT"})),
        )
        .await;
        assert_eq!(edited.status, StatusCode::OK, "{}", edited.text());
        let changes = call(&app, Method::GET, "/api/changes/", jane, Body::None)
            .await
            .json();
        assert!(
            changes["count"].as_u64().unwrap() >= 2,
            "the project's changes are visible: {changes}"
        );

        let other = call(
            &app,
            Method::PATCH,
            "/api/projects/other/",
            jane,
            Body::Json(json!({"license": "MIT"})),
        )
        .await;
        assert_eq!(
            other.status,
            StatusCode::NOT_FOUND,
            "the team covers one project"
        );
        let removed = call(
            &app,
            Method::DELETE,
            "/api/projects/secret/",
            jane,
            Body::None,
        )
        .await;
        assert_eq!(
            removed.status,
            StatusCode::NO_CONTENT,
            "project.edit also removes (as in Weblate)"
        );
        let anonymous = call(&app, Method::GET, "/api/projects/", None, Body::None)
            .await
            .json();
        assert_eq!(anonymous["count"], 0);
    }
}

/// The id of the project `demo`'s own team `name`.
async fn demo_team<S: TestApp<B>, B: MessageBody>(app: &S, admin: Option<&str>, name: &str) -> i64 {
    let teams = common::get_json(app, "/api/groups/?page_size=100", admin).await;
    teams["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| {
            t["name"] == name
                && t["defining_project"]
                    .as_str()
                    .is_some_and(|p| p.ends_with("/demo/"))
        })
        .and_then(|t| t["id"].as_i64())
        .unwrap()
}

#[actix_web::test]
async fn where_the_repository_is_shows_only_with_vcs_view() {
    for db in tolk_service::testing::TestDb::all() {
        let upstream = common::upstream();
        let ctx = common::context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        let hidden = [
            "vcs",
            "repo",
            "branch",
            "filemask",
            "screenshot_filemask",
            "push",
            "push_branch",
            "repoweb",
            "git_export",
            "linked_component",
        ];
        let shown = |c: &serde_json::Value| hidden.map(|key| c[key].clone());

        // A guest of the public project has `vcs.view` (Access repository).
        let guest = common::get_json(&app, "/api/components/demo/app/", None).await;
        assert_eq!(guest["repo"], upstream.url());
        assert_eq!(guest["filemask"], "po/*.po");
        assert_eq!(guest["git_export"], "");

        common::make_private(&ctx, "demo");
        for team in ["Translate", "VCS"] {
            join_team(&app, admin, "jane", demo_team(&app, admin, team).await).await;
            let component = common::get_json(&app, "/api/components/demo/app/", jane).await;
            let translation = common::get_json(&app, "/api/translations/demo/app/ja/", jane).await;
            let listed = common::get_json(&app, "/api/projects/demo/components/", jane).await;
            if team == "Translate" {
                assert_eq!(shown(&component), [(); 10].map(|_| serde_json::Value::Null));
                assert_eq!(component["template"], "", "other settings stay");
                assert_eq!(shown(&translation["component"]), shown(&component));
                assert_eq!(shown(&listed["results"][0]), shown(&component));
            } else {
                assert_eq!(
                    component["repo"],
                    upstream.url(),
                    "Manage repository has vcs.view"
                );
                assert_eq!(component["vcs"], "git");
                assert_eq!(component["filemask"], "po/*.po");
                assert_eq!(shown(&translation["component"]), shown(&component));
            }
        }
    }
}

#[actix_web::test]
async fn only_a_team_naming_a_component_changes_its_restriction() {
    for db in tolk_service::testing::TestDb::all() {
        let upstream = common::upstream();
        let ctx = common::context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        let managers = demo_team(&app, admin, "Administration").await;
        join_team(&app, admin, "jane", managers).await;
        let restrict = || {
            call(
                &app,
                Method::PATCH,
                "/api/components/demo/app/",
                jane,
                Body::Json(json!({"restricted": true, "license": "MIT"})),
            )
        };
        let refused = restrict().await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            common::error_items(&refused.json()),
            vec![(
                "restricted".into(),
                "invalid".into(),
                "Only a superuser or a team naming this component may change its restricted access."
                    .into()
            )]
        );
        let unchanged = common::get_json(&app, "/api/components/demo/app/", admin).await;
        assert_eq!(
            (
                unchanged["restricted"].clone(),
                unchanged["license"].clone()
            ),
            (json!(false), json!("")),
            "a refused change changes nothing"
        );
        let other_edit = call(
            &app,
            Method::PATCH,
            "/api/components/demo/app/",
            jane,
            Body::Json(json!({"restricted": false, "license": "MIT"})),
        )
        .await;
        assert_eq!(
            other_edit.status,
            StatusCode::OK,
            "restricted left as it is"
        );

        let id = unchanged["id"].as_i64().unwrap();
        let named = call(
            &app,
            Method::POST,
            &format!("/api/groups/{managers}/components/"),
            admin,
            Body::Json(json!({"component_id": id})),
        )
        .await;
        assert_eq!(named.status, StatusCode::OK, "{}", named.text());
        let restricted = restrict().await;
        assert_eq!(restricted.status, StatusCode::OK, "{}", restricted.text());
        assert_eq!(restricted.json()["restricted"], true);
    }
}

#[actix_web::test]
async fn a_membership_limited_to_languages_edits_those_only() {
    for db in tolk_service::testing::TestDb::all() {
        let upstream = common::upstream();
        let ctx = common::context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        common::make_private(&ctx, "demo");
        let translate = demo_team(&app, admin, "Translate").await;
        let join = |codes: serde_json::Value| {
            let app = &app;
            async move {
                call(
                    app,
                    Method::POST,
                    "/api/users/jane/groups/",
                    admin,
                    Body::Json(json!({"group_id": translate, "limit_language_codes": codes})),
                )
                .await
            }
        };
        let unknown = join(json!(["ja", "xx", "yy"])).await;
        assert_eq!(
            common::error_items(&unknown.json()),
            vec![(
                "limit_language_codes".into(),
                "invalid".into(),
                "Language not found. Missing codes: xx, yy.".into()
            )]
        );
        let hidden = call(&app, Method::GET, "/api/projects/demo/", jane, Body::None).await;
        assert_eq!(
            hidden.status,
            StatusCode::NOT_FOUND,
            "a refused join joins nothing"
        );

        assert_eq!(join(json!(["ja"])).await.status, StatusCode::OK);
        let mut units = Vec::new();
        for code in ["ja", "ru"] {
            let page = common::get_json(
                &app,
                &format!("/api/translations/demo/app/{code}/units/"),
                admin,
            )
            .await;
            let single = page["results"]
                .as_array()
                .unwrap()
                .iter()
                .find(|u| u["source"].as_array().is_some_and(|s| s.len() == 1))
                .unwrap()["id"]
                .clone();
            units.push(single);
        }
        let edit = |unit: &serde_json::Value| {
            let app = &app;
            let uri = format!("/api/units/{unit}/");
            async move {
                call(
                    app,
                    Method::PATCH,
                    &uri,
                    jane,
                    Body::Json(json!({"state": 20, "target": ["limited"]})),
                )
                .await
                .status
            }
        };
        assert_eq!(edit(&units[0]).await, StatusCode::OK, "ja is in the limit");
        assert_eq!(
            edit(&units[1]).await,
            StatusCode::FORBIDDEN,
            "ru is outside it"
        );

        assert_eq!(join(json!([])).await.status, StatusCode::OK);
        assert_eq!(
            edit(&units[1]).await,
            StatusCode::OK,
            "joining again without a limit lifts it"
        );
    }
}

#[actix_web::test]
async fn with_reviews_on_only_reviewers_change_approved_strings() {
    for db in tolk_service::testing::TestDb::all() {
        let upstream = common::upstream();
        let ctx = common::context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        common::make_private(&ctx, "demo");
        let reviews = Body::Json(json!({"translation_review": true}));
        let patched = call(&app, Method::PATCH, "/api/projects/demo/", admin, reviews).await;
        assert_eq!(patched.status, StatusCode::OK, "{}", patched.text());
        let units = common::get_json(
            &app,
            "/api/translations/demo/app/ja/units/?q=state:translated",
            admin,
        )
        .await;
        let ids: Vec<i64> = units["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| u["source"].as_array().unwrap().len() == 1)
            .take(2)
            .map(|u| u["id"].as_i64().unwrap())
            .collect();
        let edit = |id: i64, text: &str, state: i32| {
            let body = Body::Json(json!({"target": [text], "state": state}));
            (format!("/api/units/{id}/"), body)
        };
        let (approved, body) = edit(ids[0], "承認済み", 30);
        let reply = call(&app, Method::PATCH, &approved, admin, body).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());

        join_team(
            &app,
            admin,
            "jane",
            demo_team(&app, admin, "Translate").await,
        )
        .await;
        let (path, body) = edit(ids[0], "翻訳者", 20);
        let refused = call(&app, Method::PATCH, &path, jane, body).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        assert_eq!(
            refused.json()["detail"],
            "Only reviewers can change approved strings. Please add a suggestion if you \
             think the string should be changed."
        );
        let unchanged = common::get_json(&app, &approved, admin).await;
        assert_eq!(unchanged["target"], json!(["承認済み"]));
        // A string that is not approved is hers to change.
        let (other, body) = edit(ids[1], "翻訳者", 20);
        let reply = call(&app, Method::PATCH, &other, jane, body).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());

        join_team(&app, admin, "jane", demo_team(&app, admin, "Review").await).await;
        let (path, body) = edit(ids[0], "査読者", 20);
        let reply = call(&app, Method::PATCH, &path, jane, body).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    }
}
