//! Automatic translation (§9.5): strings filled from other components and
//! from the translation memory by a background task, on each database.

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
use common::{Body, TestApp, call, context, get_json, pluck, post_component, upstream};
use serde_json::{Value, json};
use tolk_service::testing::TestDb;

/// The Japanese unit of `component` whose source is `source`.
async fn unit<S: TestApp<B>, B: MessageBody>(
    app: &S,
    component: &str,
    source: &str,
    token: &str,
) -> Value {
    let uri = format!("/api/translations/demo/{component}/ja/units/?q=source:%3D{source}");
    get_json(app, &uri, Some(token)).await["results"][0].clone()
}

/// Sets a unit's translation and state.
async fn translate<S: TestApp<B>, B: MessageBody>(
    app: &S,
    unit: &Value,
    target: &str,
    state: i64,
    token: &str,
) {
    let body = json!({"target": [target], "state": state});
    let done = call(
        app,
        Method::PATCH,
        unit["url"].as_str().unwrap(),
        Some(token),
        Body::Json(body),
    )
    .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text());
}

#[actix_web::test]
async fn strings_are_filled_from_other_components_and_the_memory() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = ctx.admin.as_str();
        // The copy keeps its own translations: edits here do not spread there.
        let copy = json!({"name": "Copy", "slug": "copy", "repo": "weblate://demo/app",
                          "filemask": "po/*.po", "file_format": "po",
                          "allow_translation_propagation": false});
        post_component(&app, &ctx, Some(admin), copy).await;
        let start = |component: &'static str, body: Value, token: &str| {
            let app = &app;
            let token = token.to_owned();
            async move {
                let uri = format!("/api/translations/demo/{component}/ja/autotranslate/");
                call(app, Method::POST, &uri, Some(&token), Body::Json(body)).await
            }
        };
        let finish = |started: common::Reply| {
            let app = &app;
            let ctx = &ctx;
            async move {
                assert_eq!(started.status, StatusCode::OK, "{}", started.text());
                let reply = started.json();
                assert_eq!(reply["details"], json!("Automatic translation started."));
                ctx.service.tasks().run_due().unwrap();
                let task =
                    get_json(app, reply["task_url"].as_str().unwrap(), Some(&ctx.admin)).await;
                assert_eq!(task["completed"], json!(true), "{task}");
                task["result"]["details"].clone()
            }
        };

        // Refusals, before any work.
        let missing = start("app", json!({}), admin).await;
        assert_eq!(common::error_items(&missing.json())[0].0, "mode");
        let online = start(
            "app",
            json!({"mode": "translate", "auto_source": "mt", "engines": ["deepl"]}),
            admin,
        )
        .await;
        assert_eq!(online.status, StatusCode::BAD_REQUEST);
        assert!(
            online.text().contains("deepl is a service on the internet"),
            "{}",
            online.text()
        );
        let threshold = start("app", json!({"mode": "translate", "threshold": 0}), admin).await;
        assert_eq!(common::error_items(&threshold.json())[0].0, "threshold");
        let query = start("app", json!({"mode": "translate", "q": "state:>>"}), admin).await;
        assert_eq!(common::error_items(&query.json())[0].0, "q");
        let denied = start("app", json!({"mode": "translate"}), &ctx.jane).await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN, "{}", denied.text());

        // Other components: the copy's translation of a string emptied here.
        let arabic = unit(&app, "copy", "Arabic", admin).await;
        translate(&app, &arabic, "アラビア語（コピー）", 20, admin).await;
        let here = unit(&app, "app", "Arabic", admin).await;
        translate(&app, &here, "", 0, admin).await;
        // No component named: every other component of the project, as
        // Weblate does.
        let body = json!({"mode": "fuzzy", "q": "state:empty", "auto_source": "others"});
        assert_eq!(
            finish(start("app", body, admin).await).await,
            json!("Automatic translation completed, 1 string was updated.")
        );
        let filled = unit(&app, "app", "Arabic", admin).await;
        assert_eq!(
            (filled["target"].clone(), filled["state"].clone()),
            (json!(["アラビア語（コピー）"]), json!(10))
        );
        let changes = get_json(&app, "/api/translations/demo/app/ja/changes/", Some(admin)).await;
        assert_eq!(changes["results"][0]["action"], json!(6), "{changes}");
        // Nothing left to fill.
        let body = json!({"mode": "translate", "q": "state:empty", "component": "copy"});
        assert_eq!(
            finish(start("app", body, admin).await).await,
            json!("Automatic translation completed, no strings were updated.")
        );

        // The memory: it holds the files' translations from the start and
        // every accepted edit; exact matches first, then similar ones
        // above the threshold.
        let mut was = Vec::new();
        for source in ["German", "Bulgarian"] {
            let there = unit(&app, "copy", source, admin).await;
            was.push(there["target"][0].clone());
            translate(&app, &there, "", 0, admin).await;
        }
        let german = unit(&app, "app", "German", admin).await;
        translate(&app, &german, "ドイツ語（記憶）", 20, admin).await;
        let hungarian = unit(&app, "app", "Hungarian", admin).await;
        translate(&app, &hungarian, "ハンガリー語（記憶）", 20, admin).await;
        let memory = |threshold: i64| {
            json!({"mode": "suggest", "q": "state:empty", "auto_source": "mt",
                                             "engines": ["weblate-translation-memory"], "threshold": threshold})
        };
        assert_eq!(
            finish(start("copy", memory(100), admin).await).await,
            json!("Automatic translation completed, 2 strings were updated.")
        );
        let suggested = unit(&app, "copy", "German", admin).await;
        assert_eq!(suggested["target"], json!([""]));
        let suggestions = get_json(
            &app,
            &format!("{}suggestions/", suggested["url"].as_str().unwrap()),
            Some(admin),
        )
        .await;
        // The newest of two exact entries wins: the edit over the file's.
        assert_eq!(
            pluck(&suggestions["results"], "target"),
            json!([["ドイツ語（記憶）"]])
        );
        assert_ne!(was[0], json!("ドイツ語（記憶）"));
        // The file's exact translation of Bulgarian beats Hungarian's similar one.
        let body = json!({"mode": "translate", "q": "source:=Bulgarian", "auto_source": "mt",
                          "engines": ["weblate-translation-memory"], "threshold": 70});
        finish(start("copy", body, admin).await).await;
        let exact = unit(&app, "copy", "Bulgarian", admin).await;
        assert_eq!(exact["target"][0], was[1]);
        // A string the memory does not hold takes the most similar entry
        // above the threshold: "Bulgarians" the file's "Bulgarian".
        let managed = call(
            &app,
            Method::PATCH,
            "/api/components/demo/copy/",
            Some(admin),
            Body::Json(json!({"manage_units": true})),
        )
        .await;
        assert_eq!(managed.status, StatusCode::OK, "{}", managed.text());
        let added = call(
            &app,
            Method::POST,
            "/api/translations/demo/copy/ja/units/",
            Some(admin),
            Body::Json(json!({"source": ["Bulgarians"], "target": [""], "state": 0})),
        )
        .await;
        assert_eq!(added.status, StatusCode::OK, "{}", added.text());
        for (threshold, expected) in [(95, json!([""])), (70, json!([was[1]]))] {
            let body = json!({"mode": "translate", "q": "source:=Bulgarians", "auto_source": "mt",
                              "engines": ["weblate-translation-memory"], "threshold": threshold});
            finish(start("copy", body, admin).await).await;
            let similar = unit(&app, "copy", "Bulgarians", admin).await;
            assert_eq!(similar["target"], expected, "threshold {threshold}");
        }
    }
}
