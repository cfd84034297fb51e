//! Glossary components and the checks that follow them, on each
//! database: `check_glossary` on the strings of a component flagged
//! `check-glossary` (after a read of the files and at each edit), and
//! `prohibited_initial_character` on a glossary's terms.

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, call, context, get_json};
use serde_json::json;
use tolk_service::testing::TestDb;
use tolk_service::vcs_testing::Upstream;

const HEADER: &str = "msgid \"\"\nmsgstr \"\"\n\"Language: ja\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n";

fn po(entries: &str) -> Vec<u8> {
    format!("{HEADER}{entries}").into_bytes()
}

#[actix_web::test]
async fn translations_follow_the_projects_glossary() {
    for db in TestDb::all() {
        let upstream = Upstream::new(&[
            (
                "po/ja.po",
                po("msgid \"Open the file\"\nmsgstr \"開く\"\n\n\
                    msgid \"Open the folder\"\nmsgstr \"ディレクトリを開く\"\n\n\
                    msgid \"Save\"\nmsgstr \"保存\"\n"),
            ),
            (
                "terms/ja.po",
                po("msgid \"file\"\nmsgstr \"ファイル\"\n\n\
                    #, forbidden\nmsgid \"folder\"\nmsgstr \"ディレクトリ\"\n\n\
                    msgid \"=SUM\"\nmsgstr \"合計\"\n"),
            ),
        ]);
        let ctx = context(db, &upstream);
        for (slug, mask, glossary, flags) in [
            ("terms", "terms/*.po", true, ""),
            ("app", "po/*.po", false, "check-glossary"),
        ] {
            common::add_component(
                &ctx,
                tolk_domain::component::ComponentSettings {
                    name: slug.to_uppercase(),
                    slug: slug.into(),
                    repo: upstream.url(),
                    filemask: mask.into(),
                    file_format: "po".into(),
                    is_glossary: glossary,
                    check_flags: flags.into(),
                    ..Default::default()
                },
            );
        }
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let found = |slug: &'static str, check: &'static str| {
            let app = &app;
            async move {
                let uri = format!("/api/translations/demo/{slug}/ja/units/?q=check:{check}");
                let page = get_json(app, &uri, admin).await;
                let mut sources: Vec<String> = page["results"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|u| u["source"][0].as_str().unwrap().to_owned())
                    .collect();
                sources.sort();
                sources
            }
        };
        // Read from the files: a term left out, a forbidden one used.
        assert_eq!(
            found("app", "check_glossary").await,
            ["Open the file", "Open the folder"]
        );
        assert_eq!(
            found("terms", "prohibited_initial_character").await,
            ["=SUM"]
        );
        assert!(
            found("terms", "check_glossary").await.is_empty(),
            "not flagged"
        );

        // An edit that follows the glossary passes; one that leaves it fails.
        let unit = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?q=source:%3D%22Open%20the%20file%22",
            admin,
        )
        .await["results"][0]
            .clone();
        let uri = unit["url"].as_str().unwrap().to_owned();
        let edit = |text: &'static str| {
            let (app, uri) = (&app, uri.clone());
            async move {
                let reply = call(
                    app,
                    Method::PATCH,
                    &uri,
                    admin,
                    Body::Json(json!({"target": [text], "state": 20})),
                )
                .await;
                assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
                get_json(app, &uri, admin).await["has_failing_check"].clone()
            }
        };
        assert_eq!(edit("ファイルを開く").await, json!(false));
        assert_eq!(found("app", "check_glossary").await, ["Open the folder"]);
        assert_eq!(edit("開く").await, json!(true));
        let counted = get_json(&app, "/api/translations/demo/app/ja/", admin).await;
        assert_eq!(counted["failing_checks"], json!(2));
    }
}
