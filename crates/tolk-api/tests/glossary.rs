//! Glossary components and the checks that follow them, on each
//! database: `check_glossary` on the strings of a component flagged
//! `check-glossary` (after a read of the files and at each edit), and
//! `prohibited_initial_character` on a glossary's terms.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, call, context, get_json, post_component};
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
                    is_glossary: glossary,
                    check_flags: flags.into(),
                    ..common::po_settings(&upstream, slug, mask)
                },
            );
        }
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let found = |slug: &'static str, check: &'static str| {
            let app = &app;
            async move {
                let uri = format!("/api/translations/demo/{slug}/ja/units/?q=check:{check}");
                common::sorted_sources(app, &uri, admin).await
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

/// The languages of a component's translations, with their files.
async fn languages_of<S: common::TestApp<B>, B: actix_web::body::MessageBody>(
    app: &S,
    admin: Option<&str>,
    component: &str,
) -> Vec<(String, String)> {
    let uri = format!("/api/components/demo/{component}/translations/");
    let listed = get_json(app, &uri, admin).await;
    let mut found: Vec<(String, String)> = listed["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let text = |key: &str| t[key].as_str().unwrap_or_default().to_owned();
            (text("language_code"), text("filename"))
        })
        .collect();
    found.sort();
    found
}

#[actix_web::test]
async fn a_project_gets_its_glossary_with_its_first_component() {
    for db in TestDb::all() {
        let upstream = common::upstream();
        let config = tolk_service::ServiceConfig {
            create_glossaries: true,
            ..tolk_service::ServiceConfig::local(upstream.root())
        };
        let ctx = common::Ctx::with_config(db, config);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let project = json!({"name": "Demo", "slug": "demo", "web": "https://demo.example.com/",
            "access_control": 100});
        call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(project),
        )
        .await;
        let gettext = json!({"name": "App", "slug": "app", "repo": upstream.url(),
            "filemask": "po/*.po", "file_format": "po", "license": "MIT"});
        post_component(&app, &ctx, admin, gettext).await;

        // Made as Weblate makes it: named after the project, a local TBX
        // repository whose languages the project's components decide.
        let glossary = get_json(&app, "/api/components/demo/glossary/", admin).await;
        for (key, value) in [
            ("name", json!("Demo")),
            ("slug", json!("glossary")),
            ("vcs", json!("local")),
            ("repo", json!("local:")),
            ("branch", json!("main")),
            ("filemask", json!("*.tbx")),
            ("template", json!("")),
            ("file_format", json!("tbx")),
            ("license", json!("MIT")),
            ("new_lang", json!("none")),
            ("manage_units", json!(true)),
            ("allow_translation_propagation", json!(false)),
            ("is_glossary", json!(true)),
            ("glossary_color", json!("silver")),
            ("language_regex", json!("^[^.]+$")),
        ] {
            assert_eq!(glossary[key], value, "{key}: {glossary}");
        }
        assert_eq!(glossary["source_language"]["code"], "en");
        let files = |codes: &[&str]| -> Vec<(String, String)> {
            let mut files: Vec<(String, String)> = codes
                .iter()
                .map(|c| (c.to_string(), format!("{c}.tbx")))
                .chain([("en".to_owned(), String::new())])
                .collect();
            files.sort();
            files
        };
        assert_eq!(
            languages_of(&app, admin, "glossary").await,
            files(&["ar", "ja", "pt_BR", "ru"])
        );
        let tbx = call(
            &app,
            Method::GET,
            "/api/translations/demo/glossary/ja/file/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(tbx.status, StatusCode::OK);
        let terms = tolk_formats::parse("tbx", "ja.tbx", tbx.text().as_bytes()).unwrap();
        assert!(terms.units().is_empty(), "{}", tbx.text());

        // A language added to the project is added to the glossary, and
        // leaves it with the last component that had it while none of
        // its terms is translated.
        let add = call(
            &app,
            Method::POST,
            "/api/components/demo/app/translations/",
            admin,
            Body::Json(json!({"language_code": "de"})),
        )
        .await;
        assert_eq!(add.status, StatusCode::CREATED, "{}", add.text());
        assert_eq!(
            languages_of(&app, admin, "glossary").await,
            files(&["ar", "de", "ja", "pt_BR", "ru"])
        );
        let term = call(
            &app,
            Method::POST,
            "/api/translations/demo/glossary/ru/units/",
            admin,
            Body::Json(json!({"source": ["file"], "target": ["файл"]})),
        )
        .await;
        assert_eq!(term.status, StatusCode::OK, "{}", term.text());

        // Terms are edited with the glossary's own permission.
        common::team(&ctx, "Terminologists", "glossary.edit", "demo", "jane");
        let jane = Some(ctx.jane.as_str());
        let edit = |translation: &'static str| {
            let app = &app;
            async move {
                let uri = format!("/api/translations/demo/{translation}/units/?page_size=1");
                let unit = get_json(app, &uri, admin).await["results"][0].clone();
                let uri = format!("/api/units/{}/", unit["id"]);
                let body = json!({"target": ["файл"], "state": 20});
                call(app, Method::PATCH, &uri, jane, Body::Json(body))
                    .await
                    .status
            }
        };
        assert_eq!(edit("glossary/ru").await, StatusCode::OK);
        assert_eq!(edit("app/ru").await, StatusCode::FORBIDDEN);

        // `has:glossary`: strings whose source holds a term as a word.
        let all = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?page_size=1000",
            admin,
        )
        .await;
        let holds_term = |source: &str| {
            source
                .to_lowercase()
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|word| word == "file")
        };
        let mut expected: Vec<i64> = all["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| holds_term(u["source"][0].as_str().unwrap_or_default()))
            .map(|u| u["id"].as_i64().unwrap())
            .collect();
        expected.sort_unstable();
        assert!(!expected.is_empty(), "the corpus speaks of files");
        let found = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?page_size=1000&q=has:glossary",
            admin,
        )
        .await;
        let mut ids: Vec<i64> = found["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u["id"].as_i64().unwrap())
            .collect();
        ids.sort_unstable();
        assert_eq!(ids, expected);
        let others = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?q=NOT%20has:glossary",
            admin,
        )
        .await;
        assert_eq!(
            others["count"].as_i64().unwrap() + found["count"].as_i64().unwrap(),
            all["count"].as_i64().unwrap()
        );
        let site = get_json(&app, "/api/units/?q=has:glossary", admin).await;
        assert_eq!(site["count"], 0, "no project, no glossary");
        for code in ["de", "ru"] {
            let uri = format!("/api/translations/demo/app/{code}/");
            let removed = call(&app, Method::DELETE, &uri, admin, Body::None).await;
            assert_eq!(removed.status, StatusCode::NO_CONTENT, "{}", removed.text());
        }
        assert_eq!(
            languages_of(&app, admin, "glossary").await,
            files(&["ar", "ja", "pt_BR", "ru"]),
            "Russian keeps its term"
        );

        // One glossary per project.
        call(
            &app,
            Method::POST,
            "/api/projects/demo/components/",
            admin,
            Body::Json(
                json!({"name": "Countries", "slug": "countries", "repo": upstream.url(),
                "filemask": "countries/*.json", "file_format": "json-nested",
                "template": "countries/en.json"}),
            ),
        )
        .await;
        ctx.service.tasks().run_due().unwrap();
        let listed = get_json(&app, "/api/projects/demo/components/", admin).await;
        let glossaries: Vec<&serde_json::Value> = listed["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["is_glossary"] == true)
            .collect();
        assert_eq!(glossaries.len(), 1, "{listed}");
        let changes = get_json(&app, "/api/components/demo/glossary/changes/", admin).await;
        let made = &changes["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["action"] == 51)
            .cloned()
            .unwrap_or_default();
        assert_eq!(made["user"], serde_json::Value::Null, "{changes}");
    }
}

#[actix_web::test]
async fn a_glossary_of_thousands_of_terms_is_searched_at_once() {
    for db in TestDb::all() {
        // More terms than one regular expression could hold.
        let mut terms: String = (0..5_000)
            .map(|i| format!("msgid \"term{i} word\"\nmsgstr \"用語{i}\"\n\n"))
            .collect();
        terms.push_str("msgid \"Folder\"\nmsgstr \"フォルダー\"\n");
        let upstream = Upstream::new(&[
            (
                "po/ja.po",
                po("msgid \"Open the folder\"\nmsgstr \"開く\"\n\n\
                    msgid \"Open TERM4999 Word now\"\nmsgstr \"今\"\n\n\
                    msgid \"Folders\"\nmsgstr \"フォルダー\"\n\n\
                    msgid \"Save\"\nmsgstr \"保存\"\n"),
            ),
            ("terms/ja.po", po(&terms)),
        ]);
        let ctx = context(db, &upstream);
        for (slug, mask, glossary) in [("terms", "terms/*.po", true), ("app", "po/*.po", false)] {
            common::add_component(
                &ctx,
                tolk_domain::component::ComponentSettings {
                    is_glossary: glossary,
                    ..common::po_settings(&upstream, slug, mask)
                },
            );
        }
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let sources = |q: &'static str| {
            let app = &app;
            async move {
                let uri = format!("/api/translations/demo/app/ja/units/?q={q}");
                common::sorted_sources(app, &uri, admin).await
            }
        };
        assert_eq!(
            sources("has:glossary").await,
            ["Open TERM4999 Word now", "Open the folder"]
        );
        assert_eq!(sources("NOT%20has:glossary").await, ["Folders", "Save"]);
    }
}
