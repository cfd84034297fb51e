//! `/hooks/…`: push notifications from Git hosts update the components
//! they name, in the background, on a real repository, on both databases.

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
use common::{Body, HOST, call, context, get_json, upstream};
use serde_json::{Value, json};
use tolk_domain::permission::{AccessControl, Subject};
use tolk_service::testing::TestDb;

fn gitlab_push(repo: &str, branch: &str) -> Value {
    json!({
        "object_kind": "push",
        "ref": format!("refs/heads/{branch}"),
        "project": {"path_with_namespace": "acme/app"},
        "repository": {
            "name": "app",
            "url": repo,
            "homepage": "https://gitlab.example/acme/app",
            "git_http_url": "https://gitlab.example/acme/app.git",
            "git_ssh_url": "git@gitlab.example:acme/app.git"
        }
    })
}

/// Sends GitLab's notification of a push to `branch` of `repo`.
async fn gitlab<S: common::TestApp<B>, B: MessageBody>(
    app: &S,
    repo: &str,
    branch: &str,
) -> common::Reply {
    call(
        app,
        Method::POST,
        "/hooks/gitlab/",
        None,
        Body::Json(gitlab_push(repo, branch)),
    )
    .await
}

fn set_hooks(ctx: &common::Ctx, enable_hooks: bool) {
    ctx.service
        .projects()
        .update(&Subject::System, "demo", |s| {
            Ok(tolk_domain::project::ProjectSettings {
                enable_hooks,
                ..s.clone()
            })
        })
        .unwrap();
}

fn error_detail(reply: &common::Reply) -> String {
    reply.json()["errors"][0]["detail"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[actix_web::test]
async fn a_push_notification_updates_the_component() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let units = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?q=state:translated",
            None,
        )
        .await;
        let unit = units["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["source"] == json!(["Afrikaans"]))
            .unwrap()
            .clone();
        upstream.developer_edits(
            "po/ja.po",
            "msgstr \"アフリカーンス語\"",
            "msgstr \"開発者\"",
        );

        let reply = gitlab(&app, &upstream.url(), "main").await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
        assert_eq!(
            reply.json(),
            json!({
                "message": "Update triggered: demo/app",
                "status": "success",
                "match_status": {"repository_matches": 1, "branch_matches": 1, "enabled_hook_matches": 1},
                "updated_components": [format!("http://{HOST}/api/components/demo/app/")]
            })
        );
        assert_eq!(
            ctx.service.tasks().run_due().unwrap(),
            1,
            "one pull was queued"
        );
        let updated = get_json(&app, &format!("/api/units/{}/", unit["id"]), None).await;
        assert_eq!(updated["target"], json!(["開発者"]));
        let changes = get_json(&app, "/api/components/demo/app/changes/?action=53", None).await;
        assert_eq!(changes["count"], 1);
        assert_eq!(changes["results"][0]["details"]["match_method"], "exact");

        // The same push as a GitHub form post, without the trailing slash.
        let github = json!({
            "ref": "refs/heads/main",
            "repository": {"name": "app", "owner": {"login": "acme"}, "url": "https://github.com/acme/app",
                           "clone_url": format!("{}/", upstream.url())}
        });
        let form = format!(
            "payload={}",
            form_urlencoded::byte_serialize(github.to_string().as_bytes()).collect::<String>()
        );
        let ping = call(
            &app,
            Method::POST,
            "/hooks/github",
            None,
            Body::Raw("application/x-www-form-urlencoded", &form),
        )
        .await;
        assert_eq!(
            ping.status,
            StatusCode::CREATED,
            "no X-GitHub-Event: not a push"
        );
        assert_eq!(ping.json()["message"], "Hook working");

        let other_branch = gitlab(&app, &upstream.url(), "feature").await;
        assert_eq!(other_branch.status, StatusCode::ACCEPTED);
        assert_eq!(
            other_branch.json()["match_status"],
            json!({"repository_matches": 1, "branch_matches": 0, "enabled_hook_matches": 0})
        );
        set_hooks(&ctx, false);
        let disabled = gitlab(&app, &upstream.url(), "main").await;
        assert_eq!(disabled.status, StatusCode::ACCEPTED);
        assert_eq!(disabled.json()["match_status"]["enabled_hook_matches"], 0);
        assert_eq!(
            ctx.service.tasks().run_due().unwrap(),
            0,
            "nothing was queued"
        );
        set_hooks(&ctx, true);

        let legacy = call(
            &app,
            Method::GET,
            "/hooks/update/demo/app/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(legacy.status, StatusCode::OK);
        assert_eq!(legacy.json()["message"], "Update triggered: demo/app");
        let whole = call(&app, Method::GET, "/hooks/update/demo/", None, Body::None).await;
        assert_eq!(
            whole.json()["updated_components"].as_array().unwrap().len(),
            1
        );
        assert_eq!(
            ctx.service.tasks().run_due().unwrap(),
            1,
            "two updates of one component while the first waits: one pull"
        );

        // Two hundred notifications (forged or not) while a pull waits
        // queue that one pull, which each answer names.
        let mut answered = std::collections::HashSet::new();
        for _ in 0..200 {
            let reply = gitlab(&app, &upstream.url(), "main").await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
            answered.insert(reply.json()["updated_components"].to_string());
        }
        assert_eq!(answered.len(), 1);
        let waiting: i64 = ctx
            .service
            .site()
            .metrics(&Subject::System)
            .map(|m| m.queues.iter().map(|(_, n)| *n).sum())
            .unwrap();
        assert_eq!(waiting, 1, "one task waits");
        assert_eq!(ctx.service.tasks().run_due().unwrap(), 1);
        let missing = call(
            &app,
            Method::GET,
            "/hooks/update/demo/nope/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(missing.status, StatusCode::NOT_FOUND);

        // A project that is not public answers neither deprecated hook:
        // not found, nothing queued, no component named.
        for access in [AccessControl::Protected, AccessControl::Private] {
            set_access(&ctx, access);
            for path in ["/hooks/update/demo/", "/hooks/update/demo/app/"] {
                let hidden = call(&app, Method::GET, path, None, Body::None).await;
                assert_eq!(hidden.status, StatusCode::NOT_FOUND, "{path}");
                assert!(!hidden.text().contains("app"), "{}", hidden.text());
            }
            assert_eq!(ctx.service.tasks().run_due().unwrap(), 0, "{access:?}");
            // A push naming its repository updates it, naming it only
            // where anyone may see it (a protected project's names are public).
            let push = gitlab(&app, &upstream.url(), "main").await;
            assert_eq!(push.status, StatusCode::OK, "{}", push.text());
            let told = push.json();
            assert_eq!(told["match_status"]["enabled_hook_matches"], 1);
            if access == AccessControl::Private {
                assert_eq!(told["message"], "Update triggered.");
                assert_eq!(told["updated_components"], json!([]));
                assert!(!push.text().contains("demo"), "{told}");
            } else {
                assert_eq!(told["message"], "Update triggered: demo/app");
            }
            assert_eq!(ctx.service.tasks().run_due().unwrap(), 1, "{access:?}");
        }
        set_access(&ctx, AccessControl::Public);
    }
}

fn set_access(ctx: &common::Ctx, access: AccessControl) {
    ctx.service
        .projects()
        .update(&Subject::System, "demo", |s| {
            Ok(tolk_domain::project::ProjectSettings {
                access_control: access.code(),
                ..s.clone()
            })
        })
        .unwrap();
}

#[actix_web::test]
async fn bad_notifications_are_refused() {
    let upstream = upstream();
    let ctx = context(TestDb::sqlite(), &upstream);
    let app = test::init_service(tolk_api::app(ctx.state())).await;
    let post = |path: &'static str, body: Body<'static>| {
        let app = &app;
        async move { call(app, Method::POST, path, None, body).await }
    };
    let unknown = post("/hooks/svn/", Body::Json(json!({"a": 1}))).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(error_detail(&unknown), "Hook svn not supported");
    let empty = post("/hooks/gitea/", Body::Json(json!({}))).await;
    assert_eq!(empty.status, StatusCode::BAD_REQUEST);
    assert_eq!(error_detail(&empty), "Invalid data in json payload!");
    let lacking = post("/hooks/gitea/", Body::Json(json!({"ref": "main"}))).await;
    assert_eq!(error_detail(&lacking), "Invalid data in json payload!");
    let broken = post("/hooks/gitea/", Body::Raw("application/json", "{")).await;
    assert_eq!(broken.status, StatusCode::BAD_REQUEST);
    assert!(error_detail(&broken).starts_with("JSON parse error - "));
    let no_field = post(
        "/hooks/gitea/",
        Body::Raw("application/x-www-form-urlencoded", "x=1"),
    )
    .await;
    assert_eq!(
        no_field.json()["errors"][0],
        json!({"code": "required", "detail": "This field is required.", "attr": "payload"})
    );
    let not_json = post(
        "/hooks/gitea/",
        Body::Raw("application/x-www-form-urlencoded", "payload=nope"),
    )
    .await;
    assert_eq!(error_detail(&not_json), "Value must be valid JSON.");
    let get = call(&app, Method::GET, "/hooks/github/", None, Body::None).await;
    assert_eq!(get.status, StatusCode::METHOD_NOT_ALLOWED);

    let off = tolk_api::AppState {
        enable_hooks: false,
        ..ctx.state()
    };
    let app = test::init_service(tolk_api::app(off)).await;
    let refused = call(
        &app,
        Method::POST,
        "/hooks/github/",
        None,
        Body::Json(json!({"a": 1})),
    )
    .await;
    assert_eq!(refused.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(
        error_detail(&refused),
        "Method \"POST\" not allowed: notifications from Git hosts are off on this server; \
         set TOLK_ENABLE_HOOKS=true to accept them."
    );
}
