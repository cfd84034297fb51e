//! The source strings of a monolingual component as Weblate keeps them:
//! the template's text as source and target with the key as context,
//! editable where `edit_template` allows it; an edit changes the source
//! string of every translation (which then needs editing) and the
//! template file upstream, and what only the database knows survives the
//! next read of the files. On each configured database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, SITE, call, corpus, get_json};
use serde_json::{Value, json};
use tolk_service::testing::TestDb;

/// The English countries file's names by key (`countries.AF`), as the
/// nested JSON reads flattened.
fn english_names() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(corpus("json-nested/i18n-iso-countries-en.json")).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    let mut names = vec![("locale".to_owned(), "en".to_owned())];
    for (code, name) in file["countries"].as_object().unwrap() {
        // Some countries have several names: a list, one key per entry.
        match name {
            Value::String(name) => names.push((format!("countries.{code}"), name.clone())),
            Value::Array(all) => {
                for (i, name) in all.iter().enumerate() {
                    let name = name.as_str().unwrap().to_owned();
                    names.push((format!("countries.{code}[{i}]"), name));
                }
            }
            other => panic!("unexpected {other}"),
        }
    }
    names
}

/// The unit of `key` in the translation `language` of `demo/countries`.
async fn unit_of<S: common::TestApp<B>, B: actix_web::body::MessageBody>(
    app: &S,
    language: &str,
    key: &str,
    token: Option<&str>,
) -> Value {
    let uri = format!(
        "/api/translations/demo/countries/{language}/units/?q=context:%22{key}%22&page_size=10"
    );
    let found = get_json(app, &uri, token).await;
    let units: Vec<Value> = found["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["context"] == key)
        .cloned()
        .collect();
    assert_eq!(units.len(), 1, "{key} in {language}: {found}");
    units[0].clone()
}

fn path_of(unit: &Value) -> String {
    unit["url"].as_str().unwrap().replace(SITE, "")
}

/// Translates `unit` to `text` (state 20) as `token`.
async fn translate<S: common::TestApp<B>, B: actix_web::body::MessageBody>(
    app: &S,
    unit: &Value,
    text: &str,
    token: Option<&str>,
) -> common::Reply {
    let body = json!({"target": [text], "state": 20});
    call(app, Method::PATCH, &path_of(unit), token, Body::Json(body)).await
}

/// Runs the repository operation `operation` of `demo/countries` and its
/// tasks; asserts it succeeded.
async fn operate<S: common::TestApp<B>, B: actix_web::body::MessageBody>(
    app: &S,
    ctx: &common::Ctx,
    operation: &str,
) {
    let done = call(
        app,
        Method::POST,
        "/api/components/demo/countries/repository/",
        Some(ctx.admin.as_str()),
        Body::Json(json!({"operation": operation})),
    )
    .await;
    assert_eq!(
        done.json(),
        json!({"result": true}),
        "{operation}: {}",
        done.text()
    );
    ctx.service.tasks().run_due().unwrap();
}

#[actix_web::test]
async fn template_strings_are_the_source_and_editing_one_changes_it_everywhere() {
    for db in TestDb::all() {
        let upstream = common::upstream();
        let ctx = common::context(db, &upstream);
        common::countries_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());

        // The template's text is the source and the target; the key the context.
        let names = english_names();
        let afghanistan = unit_of(&app, "en", "countries.AF", admin).await;
        assert_eq!(afghanistan["source"], json!(["Afghanistan"]));
        assert_eq!(afghanistan["target"], json!(["Afghanistan"]));
        assert_eq!(afghanistan["state"], 20);
        assert_eq!(afghanistan["translated"], true);
        let arabic = unit_of(&app, "ar", "countries.AF", admin).await;
        assert_eq!(arabic["source"], json!(["Afghanistan"]));
        assert_eq!(arabic["target"], json!(["أفغانستان"]));

        // Words counted from the texts, the same in every translation.
        let words: usize = names
            .iter()
            .map(|(_, name)| name.split_whitespace().count())
            .sum();
        let en = get_json(&app, "/api/translations/demo/countries/en/", admin).await;
        let ar = get_json(&app, "/api/translations/demo/countries/ar/", admin).await;
        assert_eq!(en["total"], names.len());
        assert_eq!(en["total_words"], words);
        assert_eq!(en["translated"], names.len());
        assert_eq!(en["translated_words"], words);
        assert_eq!(en["is_template"], true);
        assert_eq!(ar["total_words"], words);
        let ar_before = ar;

        // Editing a source string: the template's unit takes the text...
        let edited = translate(&app, &afghanistan, "Islamic Republic of Afghanistan", admin).await;
        assert_eq!(edited.status, StatusCode::OK, "{}", edited.text());
        assert_eq!(
            edited.json()["target"],
            json!(["Islamic Republic of Afghanistan"])
        );
        let edited = get_json(&app, &path_of(&afghanistan), admin).await;
        assert_eq!(edited["source"], json!(["Islamic Republic of Afghanistan"]));
        assert_eq!(edited["target"], json!(["Islamic Republic of Afghanistan"]));
        assert_eq!(edited["pending"], true);
        // ... every translation gets the new source, keeps its text and
        // needs editing, remembering what it was translated from.
        let arabic = unit_of(&app, "ar", "countries.AF", admin).await;
        assert_eq!(arabic["source"], json!(["Islamic Republic of Afghanistan"]));
        assert_eq!(arabic["target"], json!(["أفغانستان"]));
        assert_eq!(arabic["state"], 10);
        assert_eq!(arabic["previous_source"], "Afghanistan");
        assert_eq!(arabic["pending"], false);
        // Statistics follow: three more words, one string less translated.
        let ar = get_json(&app, "/api/translations/demo/countries/ar/", admin).await;
        let number = |v: &Value, field: &str| v[field].as_i64().unwrap();
        assert_eq!(
            number(&ar, "total_words"),
            number(&ar_before, "total_words") + 3
        );
        assert_eq!(number(&ar, "fuzzy"), number(&ar_before, "fuzzy") + 1);
        assert_eq!(
            number(&ar, "translated"),
            number(&ar_before, "translated") - 1
        );
        let en = get_json(&app, "/api/translations/demo/countries/en/", admin).await;
        assert_eq!(
            number(&en, "total_words"),
            i64::try_from(words).unwrap() + 3
        );
        // The change is recorded as a change of the source string.
        let changes = get_json(
            &app,
            "/api/translations/demo/countries/en/changes/?page_size=5",
            admin,
        )
        .await;
        let latest = &changes["results"][0];
        assert_eq!(latest["action"], 30, "{changes}");
        assert_eq!(latest["target"], "Islamic Republic of Afghanistan");
        assert_eq!(latest["old"], "Afghanistan");

        // Reading the files again before the template is written keeps
        // the edit, in the template and in the translations.
        operate(&app, &ctx, "file-scan").await;
        let source = unit_of(&app, "en", "countries.AF", admin).await;
        assert_eq!(source["source"], edited["source"]);
        assert_eq!(source["target"], edited["target"]);
        let arabic = unit_of(&app, "ar", "countries.AF", admin).await;
        assert_eq!(arabic["source"], edited["source"]);
        assert_eq!(arabic["state"], 10);
        assert_eq!(arabic["previous_source"], "Afghanistan");

        // Upstream the template holds the new text; translations are untouched.
        let arabic_file = upstream.file("countries/ar.json");
        operate(&app, &ctx, "push").await;
        let template: Value = serde_json::from_str(&upstream.file("countries/en.json")).unwrap();
        assert_eq!(
            template["countries"]["AF"],
            "Islamic Republic of Afghanistan"
        );
        assert_eq!(template["countries"]["AL"], "Albania");
        assert_eq!(upstream.file("countries/ar.json"), arabic_file);

        // A developer renames another country in the template: after a
        // pull its translations need editing too, and what Tolk knows of
        // the first edit survives reading the files again.
        upstream.developer_edits(
            "countries/en.json",
            "\"Albania\"",
            "\"Republic of Albania\"",
        );
        operate(&app, &ctx, "pull").await;
        let albania = unit_of(&app, "ar", "countries.AL", admin).await;
        assert_eq!(albania["source"], json!(["Republic of Albania"]));
        assert_eq!(albania["state"], 10);
        assert_eq!(albania["previous_source"], "Albania");
        let arabic = unit_of(&app, "ar", "countries.AF", admin).await;
        assert_eq!(arabic["state"], 10);
        assert_eq!(arabic["previous_source"], "Afghanistan");

        // Renaming it back: the translation is right again.
        let back = unit_of(&app, "en", "countries.AF", admin).await;
        let reverted = translate(&app, &back, "Afghanistan", admin).await;
        assert_eq!(reverted.status, StatusCode::OK, "{}", reverted.text());
        let arabic = unit_of(&app, "ar", "countries.AF", admin).await;
        assert_eq!(arabic["state"], 20);
        assert_eq!(arabic["previous_source"], "");
        let ar = get_json(&app, "/api/translations/demo/countries/ar/", admin).await;
        assert_eq!(
            number(&ar, "fuzzy"),
            number(&ar_before, "fuzzy") + 1,
            "Albania only"
        );
    }
}

#[actix_web::test]
async fn source_strings_need_the_template_permission_and_edit_template() {
    for db in TestDb::all() {
        let upstream = common::upstream();
        let ctx = common::context(db, &upstream);
        common::countries_component(&ctx, &upstream);
        common::make_private(&ctx, "demo");
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());

        // Jane translates in the project, without editing source strings.
        let roles = get_json(&app, "/api/roles/?page_size=100", admin).await;
        let translate_role = roles["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == "Translate")
            .unwrap()["id"]
            .clone();
        let team = call(
            &app,
            Method::POST,
            "/api/groups/",
            admin,
            Body::Json(
                json!({"name": "Translators", "project_selection": 0, "language_selection": 1}),
            ),
        )
        .await
        .json();
        let team_path = team["url"].as_str().unwrap().replace(SITE, "");
        let project = get_json(&app, "/api/projects/demo/", admin).await["id"].clone();
        for (list, body) in [
            ("roles", json!({"role_id": translate_role})),
            ("projects", json!({"project_id": project})),
        ] {
            let added = call(
                &app,
                Method::POST,
                &format!("{team_path}{list}/"),
                admin,
                Body::Json(body),
            )
            .await;
            assert_eq!(added.status, StatusCode::OK, "{}", added.text());
        }
        common::join_team(&app, admin, "jane", team["id"].as_i64().unwrap()).await;

        let source = unit_of(&app, "en", "countries.AF", admin).await;
        let refused = translate(&app, &source, "Afghanistan!", jane).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text());
        assert_eq!(
            refused.json()["errors"][0]["detail"],
            "Insufficient privileges for editing source strings."
        );
        // Her translations are hers to make.
        let arabic = unit_of(&app, "ar", "countries.AF", admin).await;
        let translated = translate(&app, &arabic, "أفغانستان!", jane).await;
        assert_eq!(translated.status, StatusCode::OK, "{}", translated.text());
        assert_eq!(
            unit_of(&app, "en", "countries.AF", admin).await["source"],
            json!(["Afghanistan"])
        );

        // Without edit_template the template is read-only, and strings
        // cannot be added.
        let patched = call(
            &app,
            Method::PATCH,
            "/api/components/demo/countries/",
            admin,
            Body::Json(json!({"edit_template": false, "manage_units": true})),
        )
        .await;
        assert_eq!(patched.status, StatusCode::OK, "{}", patched.text());
        ctx.service.tasks().run_due().unwrap();
        let source = unit_of(&app, "en", "countries.AF", admin).await;
        assert_eq!(source["state"], 100);
        let refused = translate(&app, &source, "Afghanistan!", admin).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text());
        assert_eq!(
            refused.json()["errors"][0]["detail"],
            "The string is read-only."
        );
        let added = call(
            &app,
            Method::POST,
            "/api/translations/demo/countries/en/units/",
            admin,
            Body::Json(json!({"key": "countries.XX", "value": ["Nowhere"]})),
        )
        .await;
        assert_eq!(added.status, StatusCode::FORBIDDEN, "{}", added.text());
        assert_eq!(
            added.json()["errors"][0]["detail"],
            "Adding strings is disabled in the component configuration. The component's \
             edit_template setting allows it."
        );
    }
}
