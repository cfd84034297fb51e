//! Teams reach the access check: a user's team grants are read when the
//! request is authenticated, open a private project to its members and
//! give them their roles' permissions there, and nowhere else.

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, Ctx, call, pluck};
use serde_json::json;

/// A team `name` giving `permission` on the project `slug` to `username`,
/// written as the team endpoints will write it.
fn team(ctx: &Ctx, name: &str, permission: &str, slug: &str, username: &str) {
    ctx.db.execute(&format!(
        "INSERT INTO roles (name) VALUES ('{name} role');
         INSERT INTO role_permissions (role_id, codename)
           SELECT id, '{permission}' FROM roles WHERE name = '{name} role';
         INSERT INTO teams (name, project_selection, language_selection) VALUES ('{name}', 0, 1);
         INSERT INTO team_roles (team_id, role_id)
           SELECT t.id, r.id FROM teams t, roles r WHERE t.name = '{name}' AND r.name = '{name} role';
         INSERT INTO team_members (team_id, user_id)
           SELECT t.id, u.id FROM teams t, users u WHERE t.name = '{name}' AND u.username = '{username}';
         INSERT INTO team_projects (team_id, project_id)
           SELECT t.id, p.id FROM teams t, projects p WHERE t.name = '{name}' AND p.slug = '{slug}';"
    ));
}

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
