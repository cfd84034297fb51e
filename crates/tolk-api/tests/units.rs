//! The unit API beyond translating (§10, §17.1): labels, the properties
//! of source strings, full updates, on each database.

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
use common::{Body, TestApp, call, context, get_json, post_component, upstream};
use serde_json::{Value, json};
use tolk_service::testing::TestDb;
use tolk_service::vcs_testing::Upstream;

/// The id at the end of an API link.
fn id_of(url: &Value) -> i64 {
    let url = url.as_str().unwrap().trim_end_matches('/');
    url.rsplit('/').next().unwrap().parse().unwrap()
}

use common::with_gettext as with_component;

/// How many Japanese units of `demo/app` anonymous callers find with `q`.
async fn japanese_matches<S: TestApp<B>, B: MessageBody>(app: &S, q: &str) -> i64 {
    let uri = format!("/api/translations/demo/app/ja/units/?q={q}");
    get_json(app, &uri, None).await["count"].as_i64().unwrap()
}

#[actix_web::test]
async fn labels_belong_to_source_strings_and_show_on_every_translation() {
    for db in TestDb::all() {
        let (_upstream, ctx) = with_component(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let send = |method: Method, uri: String, body: Value, token: Option<&str>| {
            let app = &app;
            let token = token.map(str::to_owned);
            async move { call(app, method, &uri, token.as_deref(), Body::Json(body)).await }
        };
        let labels = "/api/projects/demo/labels/".to_owned();

        // Labels of the project: made, refused, listed.
        let made = send(
            Method::POST,
            labels.clone(),
            json!({"name": "needs-context", "color": "navy"}),
            admin,
        )
        .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        let context_label = made.json();
        assert_eq!(
            context_label,
            json!({"id": context_label["id"], "name": "needs-context", "description": "", "color": "navy"})
        );
        let urgent = send(
            Method::POST,
            labels.clone(),
            json!({"name": "Urgent", "color": "red", "description": "Before Friday"}),
            admin,
        )
        .await
        .json();
        let twin = send(
            Method::POST,
            labels.clone(),
            json!({"name": "needs-context", "color": "blue"}),
            admin,
        )
        .await;
        assert_eq!(twin.status, StatusCode::BAD_REQUEST);
        assert_eq!(common::error_items(&twin.json())[0].0, "name");
        let pink = send(
            Method::POST,
            labels.clone(),
            json!({"name": "pink", "color": "pink"}),
            admin,
        )
        .await;
        assert_eq!(common::error_items(&pink.json())[0].0, "color");
        let denied = send(
            Method::POST,
            labels.clone(),
            json!({"name": "mine", "color": "red"}),
            Some(&ctx.jane),
        )
        .await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);
        let listed = get_json(&app, &labels, None).await;
        assert_eq!(listed["count"], json!(2));
        assert_eq!(listed["results"][1], urgent);

        // A Japanese unit and the source unit of its string.
        let page = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?page_size=3",
            admin,
        )
        .await;
        let unit = &page["results"][2];
        assert_eq!(unit["labels"], json!([]));
        let unit_uri = format!("/api/units/{}/", unit["id"]);
        let source_id = id_of(&unit["source_unit"]);
        assert_ne!(source_id, unit["id"].as_i64().unwrap());
        let source_uri = format!("/api/units/{source_id}/");

        // The string in the other languages, asked of its source unit only.
        let others = get_json(&app, &format!("{source_uri}translations/"), admin).await;
        let codes: Vec<&str> = others
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u["language_code"].as_str().unwrap())
            .collect();
        assert!(
            codes.contains(&"ja") && codes.contains(&"ar") && !codes.contains(&"en"),
            "{codes:?}"
        );
        assert!(
            others
                .as_array()
                .unwrap()
                .iter()
                .all(|u| u["source_unit"] == json!(format!("http://{}{source_uri}", common::HOST))),
            "{others}"
        );
        let not_source = call(
            &app,
            Method::GET,
            &format!("{unit_uri}translations/"),
            admin,
            Body::None,
        )
        .await;
        assert_eq!(not_source.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            common::error_codes(&not_source.json())[0].1,
            "not-a-source-unit"
        );

        // Source properties are set on the source unit, and shown by every translation.
        let both = json!([context_label["id"], urgent["id"]]);
        let set = send(
            Method::PATCH,
            source_uri.clone(),
            json!({"labels": both, "explanation": "Shown in the menu", "extra_flags": "max-length:40"}),
            admin,
        )
        .await;
        assert_eq!(set.status, StatusCode::OK, "{}", set.text());
        let written = set.json();
        assert_eq!(written["labels"], both);
        assert_eq!(written["explanation"], json!("Shown in the menu"));
        assert_eq!(written["extra_flags"], json!("max-length:40"));
        let source = get_json(&app, &source_uri, admin).await;
        assert_eq!(source["explanation"], json!("Shown in the menu"));
        assert_eq!(source["labels"], json!([context_label, urgent]));
        let shown = get_json(&app, &unit_uri, admin).await;
        assert_eq!(shown["labels"], json!([context_label, urgent]));
        let listed = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?page_size=3",
            admin,
        )
        .await;
        assert_eq!(
            listed["results"][2]["labels"],
            json!([context_label, urgent])
        );

        // Searches by label, on every translation of the string.
        let count = |q: &'static str| japanese_matches(&app, q);
        let total = get_json(&app, "/api/translations/demo/app/ja/", None).await["total"]
            .as_i64()
            .unwrap();
        assert_eq!(count("label:urgent").await, 1);
        assert_eq!(count("label:%22needs-context%22").await, 1);
        assert_eq!(count("has:label").await, 1);
        assert_eq!(count("NOT%20has:label").await, total - 1);
        assert_eq!(count("label:nothing").await, 0);

        // One change per label, as Weblate records them.
        let changes = get_json(&app, "/api/changes/?page_size=100&action=86", admin).await;
        let mut targets: Vec<&str> = changes["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["target"].as_str().unwrap())
            .collect();
        targets.sort_unstable();
        assert_eq!(targets, ["Added label Urgent", "Added label needs-context"]);

        // A translation unit takes no properties of its own...
        let refused = send(
            Method::PATCH,
            unit_uri.clone(),
            json!({"explanation": "mine"}),
            admin,
        )
        .await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        assert!(
            refused
                .text()
                .contains("Source strings properties can be set only on source strings")
        );
        // ...but a full update sending back what it read changes nothing else.
        let put = send(
            Method::PUT,
            unit_uri.clone(),
            json!({"target": shown["target"], "state": shown["state"], "labels": both,
                   "explanation": shown["explanation"], "extra_flags": shown["extra_flags"]}),
            admin,
        )
        .await;
        assert_eq!(put.status, StatusCode::OK, "{}", put.text());
        assert_eq!(put.json()["labels"], both);
        let missing = send(
            Method::PUT,
            unit_uri.clone(),
            json!({"target": shown["target"], "state": 20}),
            admin,
        )
        .await;
        assert_eq!(missing.status, StatusCode::BAD_REQUEST);
        assert_eq!(common::error_items(&missing.json())[0].0, "labels");

        // Unknown labels are refused and change nothing; removal is recorded.
        let unknown = send(
            Method::PATCH,
            source_uri.clone(),
            json!({"labels": [999_999]}),
            admin,
        )
        .await;
        assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
        assert!(
            unknown
                .text()
                .contains("Label with this ID was not found in this project.")
        );
        let one = send(
            Method::PATCH,
            source_uri.clone(),
            json!({"labels": [urgent["id"]]}),
            admin,
        )
        .await;
        assert_eq!(one.json()["labels"], json!([urgent["id"]]));
        let removed = get_json(&app, "/api/changes/?action=87", admin).await;
        assert_eq!(
            removed["results"][0]["target"],
            json!("Removed label needs-context")
        );

        // Deleting a label takes it off its strings.
        let gone = call(
            &app,
            Method::DELETE,
            &format!("{labels}{}/", urgent["id"]),
            admin,
            Body::None,
        )
        .await;
        assert_eq!(gone.status, StatusCode::NO_CONTENT);
        assert_eq!(get_json(&app, &unit_uri, admin).await["labels"], json!([]));
        let again = call(
            &app,
            Method::DELETE,
            &format!("{labels}{}/", urgent["id"]),
            admin,
            Body::None,
        )
        .await;
        assert_eq!(again.status, StatusCode::NOT_FOUND);
    }
}

#[actix_web::test]
async fn a_bulk_edit_applies_the_good_edits_and_answers_each_bad_one() {
    for db in TestDb::all() {
        let (_upstream, ctx) = with_component(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let translation = "/api/translations/demo/app/ja/";
        let units_uri = format!("{translation}units/");
        let page = get_json(&app, &format!("{units_uri}?page_size=4"), admin).await;
        let unit = |i: usize| page["results"][i].clone();
        let before = get_json(&app, translation, admin).await;
        let changes_before = get_json(&app, "/api/changes/?page_size=1", admin).await["count"]
            .as_i64()
            .unwrap();

        let edits = json!({"units": [
            {"id": unit(0)["id"], "target": ["一"], "state": 20},
            {"id": unit(1)["id"], "target": ["二"], "state": 11},
            {"id": 999_999, "target": ["三"], "state": 20},
            {"id": unit(2)["id"], "target": ["四", "五"], "state": 20},
            {"id": unit(3)["id"], "target": ["六"], "state": 10},
        ]});
        let reply = call(&app, Method::PATCH, &units_uri, admin, Body::Json(edits)).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
        let answer = reply.json();
        assert_eq!(
            (answer["applied"].clone(), answer["refused"].clone()),
            (json!(2), json!(3))
        );
        let results = answer["results"].as_array().unwrap();
        assert_eq!(
            results[0],
            json!({"id": unit(0)["id"], "result": "applied"})
        );
        assert_eq!(results[1]["status"], json!(400));
        assert_eq!(
            results[1]["error"]["errors"][0]["detail"],
            json!("This state cannot be set manually.")
        );
        assert_eq!(results[2]["status"], json!(404));
        assert_eq!(results[3]["error"]["errors"][0]["attr"], json!("target"));
        assert_eq!(results[4]["result"], json!("applied"));

        // The good edits are in, the bad ones left their units as they were.
        let after = get_json(&app, &format!("{units_uri}?page_size=4"), admin).await;
        assert_eq!(after["results"][0]["target"], json!(["一"]));
        assert_eq!(after["results"][0]["pending"], json!(true));
        assert_eq!(after["results"][3]["state"], json!(10));
        assert_eq!(after["results"][1], unit(1));
        assert_eq!(after["results"][2], unit(2));

        // Statistics moved by exactly the two edits, and two changes were recorded.
        let translated = |state: &Value| i64::from(state.as_i64().unwrap() >= 20);
        let expected = before["translated"].as_i64().unwrap() + 1
            - translated(&unit(0)["state"])
            - translated(&unit(3)["state"]);
        let stats = get_json(&app, translation, admin).await;
        assert_eq!(stats["translated"], json!(expected));
        let changes_after = get_json(&app, "/api/changes/?page_size=1", admin).await["count"]
            .as_i64()
            .unwrap();
        assert_eq!(changes_after - changes_before, 2);

        // More than 10,000 edits at once are refused whole.
        let many: Vec<Value> = (0..10_001)
            .map(|_| json!({"id": unit(0)["id"], "target": ["x"], "state": 20}))
            .collect();
        let refused = call(
            &app,
            Method::PATCH,
            &units_uri,
            admin,
            Body::Json(json!({"units": many})),
        )
        .await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            get_json(&app, &format!("/api/units/{}/", unit(0)["id"]), admin).await["target"],
            json!(["一"])
        );
        // A unit named twice: refused whole, saying which.
        let twice = json!({"units": [
            {"id": unit(1)["id"], "target": ["七"], "state": 20},
            {"id": unit(0)["id"], "target": ["八"], "state": 20},
            {"id": unit(1)["id"], "target": ["九"], "state": 20},
        ]});
        let refused = call(&app, Method::PATCH, &units_uri, admin, Body::Json(twice)).await;
        let why = format!(
            "Unit {} is edited more than once; send one edit per unit.",
            unit(1)["id"]
        );
        common::assert_refused(&refused, &[("units", "invalid", &why)]);
        assert_eq!(
            get_json(&app, &format!("{units_uri}?page_size=4"), admin).await["results"][1],
            unit(1)
        );
        // Anonymous callers may not translate.
        let anonymous = call(
            &app,
            Method::PATCH,
            &units_uri,
            None,
            Body::Json(json!({"units": []})),
        )
        .await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    }
}

#[actix_web::test]
async fn a_string_added_reaches_every_translation_and_file() {
    for db in TestDb::all() {
        let (_upstream, ctx) = with_component(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let post = |uri: &'static str, body: Value| {
            let app = &app;
            async move { call(app, Method::POST, uri, admin, Body::Json(body)).await }
        };
        let japanese = "/api/translations/demo/app/ja/units/";
        let klingon = json!({"source": ["Klingon"], "target": ["クリンゴン語"], "state": 20});
        let off = post(japanese, klingon.clone()).await;
        assert_eq!(off.status, StatusCode::FORBIDDEN);
        assert!(
            off.text()
                .contains("Adding strings is disabled in the component configuration. The component's manage_units setting allows it.")
        );
        let on = call(
            &app,
            Method::PATCH,
            "/api/components/demo/app/",
            admin,
            Body::Json(json!({"manage_units": true})),
        )
        .await;
        assert_eq!(on.status, StatusCode::OK, "{}", on.text());

        let totals = |code: &'static str| {
            let app = &app;
            async move {
                get_json(app, &format!("/api/translations/demo/app/{code}/"), admin).await["total"]
                    .as_i64()
                    .unwrap()
            }
        };
        let (ja_before, ar_before) = (totals("ja").await, totals("ar").await);
        // A text with the untranslated state, or none with a translated
        // one, is refused as Weblate refuses it; nothing is added.
        for (target, state, why) in [
            (
                "クリンゴン語",
                0,
                "Can not use empty state with non empty target",
            ),
            ("", 20, "Can not use non empty state with empty target"),
        ] {
            let body = json!({"source": ["Klingon"], "target": [target], "state": state});
            common::assert_refused(&post(japanese, body).await, &[("state", "invalid", why)]);
        }
        assert_eq!(totals("ja").await, ja_before);
        let made = post(japanese, klingon.clone()).await;
        assert_eq!(made.status, StatusCode::OK, "{}", made.text());
        let unit = made.json();
        assert_eq!(unit["source"], json!(["Klingon"]));
        assert_eq!(unit["target"], json!(["クリンゴン語"]));
        assert_eq!(
            (unit["state"].clone(), unit["pending"].clone()),
            (json!(20), json!(true))
        );
        assert_eq!(
            get_json(&app, unit["url"].as_str().unwrap(), admin).await,
            unit
        );
        assert_eq!(
            (totals("ja").await, totals("ar").await),
            (ja_before + 1, ar_before + 1)
        );
        let arabic = get_json(
            &app,
            "/api/translations/demo/app/ar/units/?q=source:%3DKlingon",
            admin,
        )
        .await;
        assert_eq!(arabic["count"], json!(1));
        assert_eq!(arabic["results"][0]["target"], json!([""]));
        assert_eq!(arabic["results"][0]["source_unit"], unit["source_unit"]);

        // Weblate's refusals.
        let twice = post(japanese, klingon.clone()).await;
        assert_eq!(twice.status, StatusCode::BAD_REQUEST);
        assert!(twice.text().contains("This string seems to already exist."));
        let no_target = post(japanese, json!({"source": ["Vulcan"]})).await;
        assert_eq!(common::error_items(&no_target.json())[0].0, "target");
        let bad_state = post(
            japanese,
            json!({"source": ["Vulcan"], "target": [""], "state": 20}),
        )
        .await;
        assert_eq!(common::error_items(&bad_state.json())[0].0, "state");
        // A new string's translation is checked as an edit is.
        let checked = post(
            japanese,
            json!({"source": ["Vulcan!"], "target": ["ヴァルカン"], "state": 20}),
        )
        .await;
        assert_eq!(checked.status, StatusCode::OK, "{}", checked.text());
        assert_eq!(checked.json()["has_failing_check"], json!(true));
        let denied = call(
            &app,
            Method::POST,
            japanese,
            Some(&ctx.jane),
            Body::Json(json!({"source": ["Vulcan"], "target": ["x"]})),
        )
        .await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN, "{}", denied.text());

        // A read of the files keeps it; a commit writes it into every file.
        let scan = call(
            &app,
            Method::POST,
            "/api/components/demo/app/repository/",
            admin,
            Body::Json(json!({"operation": "file-scan"})),
        )
        .await;
        assert_eq!(scan.status, StatusCode::OK, "{}", scan.text());
        ctx.service.tasks().run_due().unwrap();
        assert_eq!(
            get_json(&app, unit["url"].as_str().unwrap(), admin).await["target"],
            json!(["クリンゴン語"])
        );
        let file = |code: &'static str| {
            let app = &app;
            async move {
                call(
                    app,
                    Method::GET,
                    &format!("/api/translations/demo/app/{code}/file/"),
                    admin,
                    Body::None,
                )
                .await
                .text()
            }
        };
        let ja = file("ja").await;
        assert!(
            ja.contains("msgid \"Klingon\"\nmsgstr \"クリンゴン語\"\n"),
            "{}",
            &ja[ja.len().saturating_sub(300)..]
        );
        assert!(
            file("ar")
                .await
                .contains("msgid \"Klingon\"\nmsgstr \"\"\n")
        );
        let written = get_json(&app, unit["url"].as_str().unwrap(), admin).await;
        assert_eq!(written["pending"], json!(false));
        // Read again from the files, the string is the same unit.
        let scan = call(
            &app,
            Method::POST,
            "/api/components/demo/app/repository/",
            admin,
            Body::Json(json!({"operation": "file-scan"})),
        )
        .await;
        assert_eq!(scan.status, StatusCode::OK);
        ctx.service.tasks().run_due().unwrap();
        assert_eq!(
            get_json(&app, unit["url"].as_str().unwrap(), admin).await["target"],
            json!(["クリンゴン語"])
        );
        assert_eq!(totals("ja").await, ja_before + 2, "Klingon and Vulcan!");
    }
}

#[actix_web::test]
async fn a_key_added_to_a_monolingual_component_reaches_the_template_then_translations() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let body = json!({"name": "Countries", "slug": "countries", "repo": upstream.url(),
                          "filemask": "countries/*.json", "file_format": "json-nested",
                          "template": "countries/en.json"});
        post_component(&app, &ctx, admin, body).await;
        let key = json!({"key": "planet", "value": ["Vulcan"]});
        let elsewhere = call(
            &app,
            Method::POST,
            "/api/translations/demo/countries/ar/units/",
            admin,
            Body::Json(key.clone()),
        )
        .await;
        assert_eq!(elsewhere.status, StatusCode::FORBIDDEN);
        assert!(
            elsewhere
                .text()
                .contains("Add the string to the source language instead.")
        );
        let added = call(
            &app,
            Method::POST,
            "/api/translations/demo/countries/en/units/",
            admin,
            Body::Json(key),
        )
        .await;
        assert_eq!(added.status, StatusCode::OK, "{}", added.text());
        assert_eq!(added.json()["context"], json!("planet"));
        let arabic = get_json(
            &app,
            "/api/translations/demo/countries/ar/units/?q=key:%3Dplanet",
            admin,
        )
        .await;
        assert_eq!(arabic["count"], json!(1));
        let unit = arabic["results"][0].clone();
        assert_eq!(
            (unit["source"].clone(), unit["target"].clone()),
            (json!(["Vulcan"]), json!([""]))
        );
        let file = |code: &'static str| {
            let app = &app;
            async move {
                call(
                    app,
                    Method::GET,
                    &format!("/api/translations/demo/countries/{code}/file/"),
                    admin,
                    Body::None,
                )
                .await
                .text()
            }
        };
        assert!(file("en").await.contains("\"planet\": \"Vulcan\""));
        assert!(
            !file("ar").await.contains("\"planet\""),
            "no empty key in a translation"
        );
        let translate = json!({"target": ["فولكان"], "state": 20});
        let uri = unit["url"].as_str().unwrap();
        let done = call(&app, Method::PATCH, uri, admin, Body::Json(translate)).await;
        assert_eq!(done.status, StatusCode::OK, "{}", done.text());
        assert!(file("ar").await.contains("\"planet\": \"فولكان\""));
    }
}

#[actix_web::test]
async fn suggestions_are_made_accepted_and_removed_and_comments_kept() {
    for db in TestDb::all() {
        let (_upstream, ctx) = with_component(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        let page = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?page_size=2",
            admin,
        )
        .await;
        let unit = page["results"][1].clone();
        let unit_uri = unit["url"].as_str().unwrap().to_owned();
        let id = unit["id"].clone();
        let suggest = |token: Option<&str>, target: &str| {
            let app = &app;
            let uri = format!("/api/units/{id}/suggestions/");
            let (token, body) = (token.map(str::to_owned), json!({"target": [target]}));
            async move { call(app, Method::POST, &uri, token.as_deref(), Body::Json(body)).await }
        };
        let translation = || get_json(&app, "/api/translations/demo/app/ja/", admin);
        let before = translation().await["have_suggestion"].as_i64().unwrap();

        // Jane suggests; the unit and its translation show it.
        let made = suggest(jane, "提案").await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        let suggestion = made.json();
        assert_eq!(suggestion["target"], json!(["提案"]));
        assert_eq!(suggestion["unit"], json!(unit_uri));
        assert!(
            suggestion["user"]
                .as_str()
                .unwrap()
                .ends_with("/api/users/jane/")
        );
        assert_eq!(suggestion["votes"], json!(0));
        assert_eq!(
            get_json(&app, &unit_uri, admin).await["has_suggestion"],
            json!(true)
        );
        assert_eq!(translation().await["have_suggestion"], json!(before + 1));
        let again = suggest(jane, "提案").await;
        assert!(again.text().contains("Your suggestion already exists!"));
        // Megabytes for a short string are refused, whoever sends them.
        let huge = suggest(jane, &"長".repeat(10_001)).await;
        assert_eq!(huge.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            common::error_items(&huge.json()),
            [(
                "target".to_owned(),
                "max_length".to_owned(),
                "Ensure this field has no more than 10000 characters.".to_owned()
            )]
        );
        assert_eq!(translation().await["have_suggestion"], json!(before + 1));
        let current = unit["target"][0].as_str().unwrap().to_owned();
        let same = call(
            &app,
            Method::POST,
            &format!("/api/units/{id}/suggestions/"),
            jane,
            Body::Json(json!({"target": [current]})),
        )
        .await;
        assert!(
            same.text()
                .contains("Your suggestion is similar to the current translation!"),
            "{}",
            same.text()
        );
        let listed = get_json(&app, &format!("/api/units/{id}/suggestions/"), None).await;
        assert_eq!(listed["results"], json!([suggestion]));
        let all = get_json(&app, "/api/suggestions/", admin).await;
        assert_eq!(all["count"], json!(1));
        assert_eq!(
            get_json(
                &app,
                &format!("/api/suggestions/{}/", suggestion["id"]),
                None
            )
            .await,
            suggestion
        );

        // A second suggestion, removed by its author; the first accepted by the admin.
        let second = suggest(jane, "別案").await.json();
        let other_uri = format!("/api/suggestions/{}/", second["id"]);
        let removed = call(&app, Method::DELETE, &other_uri, jane, Body::None).await;
        assert_eq!(removed.status, StatusCode::NO_CONTENT);
        assert_eq!(
            call(&app, Method::GET, &other_uri, admin, Body::None)
                .await
                .status,
            StatusCode::NOT_FOUND
        );
        let accepted = call(
            &app,
            Method::POST,
            &format!("/api/suggestions/{}/accept/", suggestion["id"]),
            admin,
            Body::Json(json!({})),
        )
        .await;
        assert_eq!(accepted.status, StatusCode::OK, "{}", accepted.text());
        assert_eq!(accepted.json(), json!({"result": "accepted"}));
        let now = get_json(&app, &unit_uri, admin).await;
        assert_eq!(
            (
                now["target"].clone(),
                now["state"].clone(),
                now["pending"].clone()
            ),
            (json!(["提案"]), json!(20), json!(true))
        );
        assert_eq!(now["has_suggestion"], json!(false));
        assert_eq!(translation().await["have_suggestion"], json!(before));
        let accepts = get_json(&app, "/api/changes/?action=7", admin).await;
        assert_eq!(accepts["results"][0]["target"], json!("提案"));

        // Comments: on this translation, or on the string for every translation.
        let comment = |scope: &'static str, text: &'static str| {
            let app = &app;
            let uri = format!("/api/units/{id}/comments/");
            async move {
                call(
                    app,
                    Method::POST,
                    &uri,
                    admin,
                    Body::Json(json!({"scope": scope, "comment": text})),
                )
                .await
            }
        };
        let mine = comment("translation", "Check the particle").await;
        assert_eq!(mine.status, StatusCode::CREATED, "{}", mine.text());
        let mine = mine.json();
        assert_eq!(mine["comment"], json!("Check the particle"));
        assert!(
            mine["user"]
                .as_str()
                .unwrap()
                .ends_with("/api/users/admin/")
        );
        let global = comment("global", "Shown in the menu").await.json();
        let report = comment("report", "Typo?").await;
        assert_eq!(common::error_items(&report.json())[0].0, "scope");
        let nonsense = comment("galaxy", "x").await;
        assert_eq!(common::error_items(&nonsense.json())[0].0, "scope");
        let listed = get_json(&app, &format!("/api/units/{id}/comments/"), admin).await;
        assert_eq!(listed["results"], json!([mine, global]));
        assert_eq!(
            get_json(&app, &unit_uri, admin).await["has_comment"],
            json!(true)
        );
        // Another language's unit of the same string shows the global comment only.
        let source = unit["source_unit"].as_str().unwrap();
        let arabic = get_json(
            &app,
            &format!(
                "/api/translations/demo/app/ar/units/?q=source:%3D{}",
                form_urlencoded::byte_serialize(unit["source"][0].as_str().unwrap().as_bytes())
                    .collect::<String>()
            ),
            admin,
        )
        .await;
        let arabic_unit = &arabic["results"][0];
        assert_eq!(arabic_unit["source_unit"].as_str().unwrap(), source);
        assert_eq!(arabic_unit["has_comment"], json!(true));
        let theirs = get_json(
            &app,
            &format!("/api/units/{}/comments/", arabic_unit["id"]),
            admin,
        )
        .await;
        assert_eq!(theirs["results"], json!([global]));
        let commented = |code: &'static str| {
            let app = &app;
            async move {
                get_json(
                    app,
                    &format!("/api/translations/demo/app/{code}/units/?q=has:comment"),
                    None,
                )
                .await["count"]
                    .clone()
            }
        };
        assert_eq!(
            (commented("ja").await, commented("ar").await),
            (json!(1), json!(1))
        );
        let none = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?q=has:suggestion",
            None,
        )
        .await;
        assert_eq!(none["count"], json!(0));
    }
}

#[actix_web::test]
async fn quality_checks_follow_scans_and_edits() {
    for db in TestDb::all() {
        let (_upstream, ctx) = with_component(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let translation = || get_json(&app, "/api/translations/demo/app/ja/", admin);
        let count = |q: &'static str| japanese_matches(&app, q);
        // The scan checked every translated string of the corpus file.
        let scanned = translation().await["failing_checks"].as_i64().unwrap();
        assert_eq!(count("has:check").await, scanned);

        // A translation that drops the source's trailing space fails end_space.
        let page = get_json(&app, "/api/translations/demo/app/ja/units/?q=NOT%20has:check%20AND%20state:translated&page_size=1", admin).await;
        let unit = page["results"][0].clone();
        let uri = unit["url"].as_str().unwrap().to_owned();
        let source = unit["source"][0].as_str().unwrap().to_owned();
        let patch = |target: String, state: i64| {
            let app = &app;
            let uri = uri.clone();
            async move {
                let reply = call(
                    app,
                    Method::PATCH,
                    &uri,
                    admin,
                    Body::Json(json!({"target": [target], "state": state})),
                )
                .await;
                assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
                get_json(app, &uri, admin).await
            }
        };
        let broken = patch(format!("{source}  !"), 20).await;
        assert_eq!(broken["has_failing_check"], json!(true), "{source}");
        assert_eq!(translation().await["failing_checks"], json!(scanned + 1));
        assert_eq!(count("has:check").await, scanned + 1);
        assert!(count("check:double_space").await >= 1);
        assert!(count("check:end_exclamation").await >= 1);
        let fixed = patch(format!("{source} 訳"), 20).await;
        assert_eq!(fixed["has_failing_check"], json!(false));
        assert_eq!(translation().await["failing_checks"], json!(scanned));
        // A string needing editing is checked too (as in Weblate); an
        // untranslated one is not.
        let fuzzy = patch(format!("{source}  !"), 10).await;
        assert_eq!(fuzzy["has_failing_check"], json!(true));
        assert_eq!(translation().await["failing_checks"], json!(scanned + 1));
        let emptied = patch(String::new(), 0).await;
        assert_eq!(emptied["has_failing_check"], json!(false));
        assert_eq!(translation().await["failing_checks"], json!(scanned));

        // Emptied after a translation, it fails `translated` (one marked
        // for editing first, as above, starts its history afresh), at the
        // edit and at each read of the files, until translated again.
        let translated = patch(format!("{source} 訳"), 20).await;
        assert_eq!(translated["has_failing_check"], json!(false));
        let lost = patch(String::new(), 0).await;
        assert_eq!(lost["has_failing_check"], json!(true));
        assert_eq!(count("check:translated").await, 1);
        assert_eq!(translation().await["failing_checks"], json!(scanned + 1));
        for operation in ["commit", "file-scan"] {
            common::operate(&app, admin, "demo/app", operation).await;
        }
        ctx.service.tasks().run_due().unwrap();
        assert_eq!(count("check:translated").await, 1, "after a read");
        assert_eq!(translation().await["failing_checks"], json!(scanned + 1));
        let back = patch(format!("{source} 訳"), 20).await;
        assert_eq!(back["has_failing_check"], json!(false));
        assert_eq!(count("check:translated").await, 0);
        assert_eq!(translation().await["failing_checks"], json!(scanned));

        // A check Tolk does not run cannot be enforced.
        let refused = call(
            &app,
            Method::PATCH,
            "/api/components/demo/app/",
            admin,
            Body::Json(json!({"enforced_checks": ["double_space", "rst-syntax"]})),
        )
        .await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
        assert!(
            refused
                .text()
                .contains("Tolk does not run the check rst-syntax yet"),
            "{}",
            refused.text()
        );

        // An enforced check keeps a failing string in needs editing.
        let enforce = call(
            &app,
            Method::PATCH,
            "/api/components/demo/app/",
            admin,
            Body::Json(json!({"enforced_checks": ["double_space"]})),
        )
        .await;
        assert_eq!(enforce.status, StatusCode::OK, "{}", enforce.text());
        let held = patch(format!("{source}  訳"), 20).await;
        assert_eq!(
            (held["state"].clone(), held["has_failing_check"].clone()),
            (json!(11), json!(true))
        );
        // One saved as needing editing stays so.
        let kept = patch(format!("{source}  訳 "), 10).await;
        assert_eq!(
            (kept["state"].clone(), kept["has_failing_check"].clone()),
            (json!(10), json!(true))
        );
    }
}

#[::core::prelude::v1::test]
fn two_adds_of_one_string_end_as_one_string_and_one_refusal() {
    for db in TestDb::all() {
        let (_upstream, ctx) = with_component(db);
        let served = common::Served::start(ctx.unthrottled_state(), 4);
        let admin = Some(ctx.admin.as_str());
        let on = json!({"manage_units": true});
        let (status, _) = served.request("PATCH", "/api/components/demo/app/", admin, Some(&on));
        assert_eq!(status, 200);
        for round in 0..5 {
            let body =
                json!({"source": [format!("Raced {round}")], "target": ["競争"], "state": 20});
            let answers = common::race(2, |_| {
                served.request(
                    "POST",
                    "/api/translations/demo/app/ja/units/",
                    admin,
                    Some(&body),
                )
            });
            let mut statuses: Vec<u16> = answers.iter().map(|(s, _)| *s).collect();
            statuses.sort_unstable();
            assert_eq!(statuses, [200, 400], "{answers:?}");
            let loser = answers.iter().find(|(s, _)| *s == 400).unwrap();
            assert!(
                loser.1.contains("This string seems to already exist."),
                "{}",
                loser.1
            );
        }
    }
}

/// The text of a translation's file as downloaded (pending edits written).
async fn file_of<S: TestApp<B>, B: MessageBody>(
    app: &S,
    path: &str,
    code: &str,
    token: Option<&str>,
) -> String {
    let uri = format!("/api/translations/demo/{path}/{code}/file/");
    call(app, Method::GET, &uri, token, Body::None).await.text()
}

/// The number of strings a translation of `demo/app` counts.
async fn total_of<S: TestApp<B>, B: MessageBody>(app: &S, code: &str, token: Option<&str>) -> i64 {
    let uri = format!("/api/translations/demo/app/{code}/");
    get_json(app, &uri, token).await["total"].as_i64().unwrap()
}

#[actix_web::test]
async fn a_deleted_string_leaves_the_database_then_its_files() {
    for db in TestDb::all() {
        let (_upstream, ctx) = with_component(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let delete = |uri: String, token: String| {
            let app = &app;
            async move { call(app, Method::DELETE, &uri, Some(&token), Body::None).await }
        };
        let japanese = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?q=context:%3D%22%22",
            admin,
        )
        .await;
        let unit = japanese["results"][3].clone();
        let uri = unit["url"].as_str().unwrap().to_owned();
        let source = unit["source"][0].as_str().unwrap().to_owned();
        let msgid = format!("\nmsgid \"{source}\"\n");
        let off = delete(uri.clone(), ctx.admin.clone()).await;
        assert_eq!(off.status, StatusCode::FORBIDDEN);
        assert!(
            off.text()
                .contains("Removing strings is disabled in the component configuration. The component's manage_units setting allows it.")
        );
        let on = json!({"manage_units": true});
        let patched = call(
            &app,
            Method::PATCH,
            "/api/components/demo/app/",
            admin,
            Body::Json(on),
        )
        .await;
        assert_eq!(patched.status, StatusCode::OK);
        let refused = delete(uri.clone(), ctx.jane.clone()).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        let (ja, ar) = (
            total_of(&app, "ja", admin).await,
            total_of(&app, "ar", admin).await,
        );

        // A translation's unit leaves that translation only.
        let done = delete(uri.clone(), ctx.admin.clone()).await;
        assert_eq!(done.status, StatusCode::NO_CONTENT, "{}", done.text());
        assert_eq!(
            call(&app, Method::GET, &uri, admin, Body::None)
                .await
                .status,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            delete(uri.clone(), ctx.admin.clone()).await.status,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            (
                total_of(&app, "ja", admin).await,
                total_of(&app, "ar", admin).await
            ),
            (ja - 1, ar)
        );
        let changes = get_json(&app, "/api/translations/demo/app/ja/changes/", admin).await;
        assert_eq!(changes["results"][0]["action"], json!(63), "{changes}");
        // A read of the files before the commit does not bring it back.
        let scan = json!({"operation": "file-scan"});
        let repository = "/api/components/demo/app/repository/";
        call(
            &app,
            Method::POST,
            repository,
            admin,
            Body::Json(scan.clone()),
        )
        .await;
        ctx.service.tasks().run_due().unwrap();
        assert_eq!(total_of(&app, "ja", admin).await, ja - 1);
        let status = get_json(&app, repository, admin).await;
        assert_eq!(status["needs_commit"], json!(true), "{status}");
        assert!(!file_of(&app, "app", "ja", admin).await.contains(&msgid));
        assert!(file_of(&app, "app", "ar", admin).await.contains(&msgid));
        call(&app, Method::POST, repository, admin, Body::Json(scan)).await;
        ctx.service.tasks().run_due().unwrap();
        assert_eq!(total_of(&app, "ja", admin).await, ja - 1);
        assert_eq!(
            get_json(&app, repository, admin).await["needs_commit"],
            json!(false)
        );

        // The source unit's string leaves every translation and file.
        let other = japanese["results"][5].clone();
        let msgid = format!("\nmsgid \"{}\"\n", other["source"][0].as_str().unwrap());
        let source_unit = other["source_unit"].as_str().unwrap().to_owned();
        let done = delete(source_unit, ctx.admin.clone()).await;
        assert_eq!(done.status, StatusCode::NO_CONTENT, "{}", done.text());
        assert_eq!(
            (
                total_of(&app, "ja", admin).await,
                total_of(&app, "ar", admin).await
            ),
            (ja - 2, ar - 1)
        );
        let other_uri = other["url"].as_str().unwrap();
        assert_eq!(
            call(&app, Method::GET, other_uri, admin, Body::None)
                .await
                .status,
            StatusCode::NOT_FOUND
        );
        for code in ["ja", "ar"] {
            assert!(
                !file_of(&app, "app", code, admin).await.contains(&msgid),
                "{code}"
            );
        }

        // A string added and deleted before a commit touches no file.
        let body = json!({"source": ["Ephemeral"], "target": ["儚い"], "state": 20});
        let added = call(
            &app,
            Method::POST,
            "/api/translations/demo/app/ja/units/",
            admin,
            Body::Json(body),
        )
        .await;
        assert_eq!(added.status, StatusCode::OK);
        let source_unit = added.json()["source_unit"].as_str().unwrap().to_owned();
        assert_eq!(
            delete(source_unit, ctx.admin.clone()).await.status,
            StatusCode::NO_CONTENT
        );
        assert!(
            !file_of(&app, "app", "ja", admin)
                .await
                .contains("Ephemeral")
        );
        assert_eq!(total_of(&app, "ja", admin).await, ja - 2);
    }
}

#[actix_web::test]
async fn a_monolingual_key_is_deleted_through_the_source_language() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let body = json!({"name": "Countries", "slug": "countries", "repo": upstream.url(),
                          "filemask": "countries/*.json", "file_format": "json-nested",
                          "template": "countries/en.json", "manage_units": true});
        post_component(&app, &ctx, admin, body).await;
        let arabic = get_json(
            &app,
            "/api/translations/demo/countries/ar/units/?q=key:%3Dcountries.AF",
            admin,
        )
        .await;
        let unit = arabic["results"][0].clone();
        let refused = call(
            &app,
            Method::DELETE,
            unit["url"].as_str().unwrap(),
            admin,
            Body::None,
        )
        .await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        assert!(
            refused
                .text()
                .contains("Remove the string from the source language instead.")
        );
        let done = call(
            &app,
            Method::DELETE,
            unit["source_unit"].as_str().unwrap(),
            admin,
            Body::None,
        )
        .await;
        assert_eq!(done.status, StatusCode::NO_CONTENT, "{}", done.text());
        for code in ["en", "ar"] {
            let file = file_of(&app, "countries", code, admin).await;
            assert!(!file.contains("\"AF\""), "{code}");
            assert!(file.contains("\"AL\""), "{code}");
            serde_json::from_str::<Value>(&file).unwrap();
        }
        let gone = get_json(&app, "/api/units/?q=key:%3Dcountries.AF", admin).await;
        assert_eq!(gone["count"], json!(0));
    }
}

#[::core::prelude::v1::test]
fn two_deletes_of_one_string_end_as_one_deletion_and_one_404() {
    for db in TestDb::all() {
        let (_upstream, ctx) = with_component(db);
        let served = common::Served::start(ctx.unthrottled_state(), 4);
        let admin = Some(ctx.admin.as_str());
        let on = json!({"manage_units": true});
        let (status, _) = served.request("PATCH", "/api/components/demo/app/", admin, Some(&on));
        assert_eq!(status, 200);
        let (_, page) = served.request("GET", "/api/translations/demo/app/en/units/", admin, None);
        let page: Value = serde_json::from_str(&page).unwrap();
        for round in 0..5 {
            let uri = page["results"][round]["url"].as_str().unwrap();
            let path = uri
                .split_once("/api/")
                .map(|(_, p)| format!("/api/{p}"))
                .unwrap();
            let answers = common::race(2, |_| served.request("DELETE", &path, admin, None));
            let mut statuses: Vec<u16> = answers.iter().map(|(s, _)| *s).collect();
            statuses.sort_unstable();
            assert_eq!(statuses, [204, 404], "{answers:?}");
        }
    }
}

/// The API link of the Japanese unit of the string "Arabic".
async fn arabic_in_japanese<S: TestApp<B>, B: MessageBody>(app: &S, token: Option<&str>) -> String {
    let page = get_json(
        app,
        "/api/translations/demo/app/ja/units/?q=source:%3DArabic",
        token,
    )
    .await;
    page["results"][0]["url"].as_str().unwrap().to_owned()
}

#[actix_web::test]
async fn suggestions_are_voted_on_and_accepted_by_enough_votes() {
    for db in TestDb::all() {
        let (_upstream, ctx) = with_component(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let send = |method: Method, uri: String, body: Value| {
            let app = &app;
            async move { call(app, method, &uri, admin, Body::Json(body)).await }
        };
        let unit = arabic_in_japanese(&app, admin).await;
        let made = send(
            Method::POST,
            format!("{unit}suggestions/"),
            json!({"target": ["アラビア語（案）"]}),
        )
        .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        let vote = format!("/api/suggestions/{}/vote/", made.json()["id"]);
        let off = send(Method::POST, vote.clone(), json!({"value": 1})).await;
        assert_eq!(off.status, StatusCode::FORBIDDEN);
        assert!(off.text().contains(
            "Suggestion voting is disabled. The component's suggestion_voting setting (or the project's workflow for the language) turns it on."
        ));
        let settings = json!({"suggestion_voting": true});
        send(Method::PATCH, "/api/components/demo/app/".into(), settings).await;
        let up = send(Method::POST, vote.clone(), json!({"value": 1})).await;
        assert_eq!(up.status, StatusCode::OK, "{}", up.text());
        assert_eq!(
            (
                up.json()["result"].clone(),
                up.json()["suggestion"]["votes"].clone()
            ),
            (json!("voted"), json!(1))
        );
        // A second vote of the same user replaces the first.
        let down = send(Method::POST, vote.clone(), json!({"value": -1})).await;
        assert_eq!(down.json()["suggestion"]["votes"], json!(-1));
        let wrong = send(Method::POST, vote.clone(), json!({"value": 2})).await;
        assert_eq!(common::error_items(&wrong.json())[0].0, "value");
        let settings = json!({"suggestion_autoaccept": 1});
        send(Method::PATCH, "/api/components/demo/app/".into(), settings).await;
        let accepted = send(Method::POST, vote.clone(), json!({"value": 1})).await;
        assert_eq!(
            accepted.json(),
            json!({"result": "accepted", "suggestion": null})
        );
        let now = get_json(&app, &unit, admin).await;
        assert_eq!(
            (now["target"].clone(), now["state"].clone()),
            (json!(["アラビア語（案）"]), json!(20))
        );
        assert_eq!(
            send(Method::POST, vote, json!({"value": 1})).await.status,
            StatusCode::NOT_FOUND
        );
    }
}

#[actix_web::test]
async fn suggesting_what_someone_else_suggested_is_a_vote() {
    for db in TestDb::all() {
        let (_upstream, ctx) = with_component(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let (admin, jane) = (Some(ctx.admin.as_str()), Some(ctx.jane.as_str()));
        let unit = arabic_in_japanese(&app, admin).await;
        let suggest = |token, text: &str| {
            let (app, uri) = (&app, format!("{unit}suggestions/"));
            let body = Body::Json(json!({ "target": [text] }));
            async move { call(app, Method::POST, &uri, token, body).await }
        };
        // Without voting, the same text again is refused, whoever sends it.
        assert_eq!(suggest(admin, "案一").await.status, StatusCode::CREATED);
        for token in [admin, jane] {
            let again = suggest(token, "案一").await;
            assert_eq!(
                common::error_items(&again.json()),
                [(
                    "target".into(),
                    "invalid".into(),
                    "Your suggestion already exists!".into()
                )],
                "{}",
                again.text()
            );
        }
        let set = |settings: Value| {
            let app = &app;
            async move {
                let body = Body::Json(settings);
                let patched = call(app, Method::PATCH, "/api/components/demo/app/", admin, body);
                let patched = patched.await;
                assert_eq!(patched.status, StatusCode::OK, "{}", patched.text());
            }
        };
        set(json!({"suggestion_voting": true, "suggestion_autoaccept": 3})).await;
        // With voting, a new suggestion carries its author's vote...
        let made = suggest(admin, "案二").await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        assert_eq!(made.json()["votes"], json!(1));
        // ...and someone else suggesting the same text votes for it.
        let voted = suggest(jane, "案二").await;
        assert_eq!(voted.status, StatusCode::OK, "{}", voted.text());
        let answer = voted.json();
        assert_eq!(
            (
                &answer["result"],
                &answer["suggestion"]["id"],
                &answer["suggestion"]["votes"]
            ),
            (&json!("voted"), &made.json()["id"], &json!(2))
        );
        let listed = get_json(&app, &format!("{unit}suggestions/"), admin).await;
        assert_eq!(listed["count"], json!(2), "no second suggestion of 案二");
        // The vote that reaches suggestion_autoaccept accepts it.
        set(json!({"suggestion_autoaccept": 2})).await;
        assert_eq!(suggest(admin, "案三").await.json()["votes"], json!(1));
        let accepted = suggest(jane, "案三").await;
        assert_eq!(
            (accepted.status, accepted.json()),
            (
                StatusCode::OK,
                json!({"result": "accepted", "suggestion": null})
            )
        );
        let now = get_json(&app, &unit, admin).await;
        assert_eq!(
            (now["target"].clone(), now["state"].clone()),
            (json!(["案三"]), json!(20))
        );
    }
}

/// An XLIFF 1.2 catalogue with a plain string, a plural group and another
/// plain string.
const PLURAL_XLIFF: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="app" source-language="en" target-language="cs" datatype="plaintext">
    <body>
      <trans-unit id="hello"><source>Hello</source><target>Ahoj</target></trans-unit>
      <group id="files" restype="x-gettext-plurals">
        <trans-unit id="files[0]"><source>%d file</source><target>%d soubor</target></trans-unit>
        <trans-unit id="files[1]"><source>%d files</source><target>%d soubory</target></trans-unit>
        <trans-unit id="files[2]"><source>%d files</source><target>%d souborů</target></trans-unit>
      </group>
      <trans-unit id="bye"><source>Bye</source><target>Nashle</target></trans-unit>
    </body>
  </file>
</xliff>
"#;

#[actix_web::test]
async fn a_string_its_file_cannot_lose_alone_comes_back_and_holds_up_no_edit() {
    for db in TestDb::all() {
        let upstream = Upstream::new(&[("xliff/cs.xlf", PLURAL_XLIFF.as_bytes().to_vec())]);
        let ctx = context(db, &upstream);
        let settings = tolk_domain::component::ComponentSettings {
            name: "Catalogue".into(),
            slug: "xl".into(),
            repo: upstream.url(),
            filemask: "xliff/*.xlf".into(),
            file_format: "xliff".into(),
            manage_units: true,
            ..Default::default()
        };
        common::add_component(&ctx, settings);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let units = "/api/translations/demo/xl/cs/units/";
        let url_of = |page: &Value, context: &str| {
            let found = page["results"].as_array().unwrap().iter();
            let mut found = found.filter(|u| u["context"] == json!(context));
            found.next().unwrap()["url"].as_str().unwrap().to_owned()
        };
        let page = get_json(&app, units, admin).await;
        assert_eq!(page["count"], json!(3), "{page}");
        for context in ["files", "bye"] {
            let uri = url_of(&page, context);
            let gone = call(&app, Method::DELETE, &uri, admin, Body::None).await;
            assert_eq!(gone.status, StatusCode::NO_CONTENT, "{}", gone.text());
        }
        let edit = Body::Json(json!({"target": ["Nazdar"], "state": 20}));
        let edited = call(&app, Method::PATCH, &url_of(&page, "hello"), admin, edit).await;
        assert_eq!(edited.status, StatusCode::OK, "{}", edited.text());

        let repository = "/api/components/demo/xl/repository/";
        let commit = Body::Json(json!({"operation": "commit"}));
        let answer = call(&app, Method::POST, repository, admin, commit)
            .await
            .json();
        assert_eq!(answer["result"], json!(false), "{answer}");
        let detail = answer["detail"].as_str().unwrap_or_default();
        assert!(
            detail.contains("1 removed strings stay in the file and come back at the next scan"),
            "{answer}"
        );
        let file = file_of(&app, "xl", "cs", admin).await;
        assert!(file.contains("<target>Nazdar</target>"), "{file}");
        assert!(!file.contains("Bye"), "{file}");
        assert!(file.contains("files[2]"), "{file}");
        let status = get_json(&app, repository, admin).await;
        assert_eq!(status["needs_commit"], json!(false), "{status}");

        let scan = Body::Json(json!({"operation": "file-scan"}));
        call(&app, Method::POST, repository, admin, scan).await;
        ctx.service.tasks().run_due().unwrap();
        let page = get_json(&app, units, admin).await;
        let contexts: Vec<&str> = page["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u["context"].as_str().unwrap())
            .collect();
        assert_eq!(contexts, ["hello", "files"], "{page}");
    }
}

#[actix_web::test]
async fn a_translation_spreads_to_the_same_string_of_components_that_share() {
    for db in TestDb::all() {
        let (upstream, ctx) = with_component(db);
        // Two more components of the same catalogues: one shares its
        // translations (the default), one keeps its own.
        for (slug, shares) in [("twin", true), ("own", false)] {
            let settings = tolk_domain::component::ComponentSettings {
                allow_translation_propagation: shares,
                ..common::po_settings(&upstream, slug, "po/*.po")
            };
            common::add_component(&ctx, settings);
        }
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let unit_in = |slug: &'static str, q: &'static str| {
            let app = &app;
            async move {
                let uri = format!("/api/translations/demo/{slug}/ja/units/?q={q}");
                get_json(app, &uri, admin).await["results"][0].clone()
            }
        };
        let translated = |slug: &'static str| {
            let app = &app;
            async move {
                let uri = format!("/api/translations/demo/{slug}/ja/");
                get_json(app, &uri, admin).await["translated"].clone()
            }
        };
        let arabic = "source:%3DArabic";
        let kept = unit_in("own", arabic).await;
        let edit = Body::Json(json!({"target": ["アラビア語（新）"], "state": 20}));
        let uri = unit_in("app", arabic).await["url"]
            .as_str()
            .unwrap()
            .to_owned();
        let edited = call(&app, Method::PATCH, &uri, admin, edit).await;
        assert_eq!(edited.status, StatusCode::OK, "{}", edited.text());
        let twin = unit_in("twin", arabic).await;
        assert_eq!(
            (&twin["target"], &twin["state"], &twin["pending"]),
            (&json!(["アラビア語（新）"]), &json!(20), &json!(true))
        );
        assert_eq!(unit_in("own", arabic).await["target"], kept["target"]);
        let changes = get_json(&app, "/api/translations/demo/twin/ja/changes/", admin).await;
        assert_eq!(
            (
                &changes["results"][0]["action"],
                &changes["results"][0]["unit"]
            ),
            (&json!(77), &twin["url"])
        );
        assert_eq!(translated("twin").await, translated("app").await);

        // A bulk edit spreads too, string by string.
        let german = unit_in("app", "source:%3DGerman").await;
        let body =
            json!({"units": [{"id": german["id"], "target": ["ドイツ語（新）"], "state": 20}]});
        let bulk = call(
            &app,
            Method::PATCH,
            "/api/translations/demo/app/ja/units/",
            admin,
            Body::Json(body),
        )
        .await;
        assert_eq!(bulk.status, StatusCode::OK, "{}", bulk.text());
        let twin = unit_in("twin", "source:%3DGerman").await;
        assert_eq!(twin["target"], json!(["ドイツ語（新）"]));
        assert_eq!(translated("twin").await, translated("app").await);

        // Where the other component refuses the edit (it is locked), the
        // string fails the inconsistent check in both.
        let inconsistent = |slug: &'static str| {
            let app = &app;
            async move {
                let (found, failing) = inconsistent_units(app, slug, admin).await;
                (json!(found.len()), failing)
            }
        };
        let (_, app_failing) = inconsistent("app").await;
        let (_, twin_failing) = inconsistent("twin").await;
        let lock = |slug: &'static str, on: bool| {
            let app = &app;
            async move {
                let uri = format!("/api/components/demo/{slug}/lock/");
                let body = Body::Json(json!({ "lock": on }));
                let locked = call(app, Method::POST, &uri, admin, body).await;
                assert_eq!(locked.status, StatusCode::OK, "{}", locked.text());
            }
        };
        lock("twin", true).await;
        let edit = Body::Json(json!({"target": ["アラビア語（三）"], "state": 20}));
        call(&app, Method::PATCH, &uri, admin, edit).await;
        assert_eq!(
            unit_in("app", arabic).await["has_failing_check"],
            json!(true)
        );
        let plus_one = |n: &Value| json!(n.as_i64().unwrap() + 1);
        assert_eq!(
            inconsistent("app").await,
            (json!(1), plus_one(&app_failing))
        );
        assert_eq!(
            inconsistent("twin").await,
            (json!(1), plus_one(&twin_failing))
        );
        // The same text on the other side makes them consistent again.
        lock("twin", false).await;
        let twin_uri = unit_in("twin", arabic).await["url"]
            .as_str()
            .unwrap()
            .to_owned();
        let edit = Body::Json(json!({"target": ["アラビア語（三）"], "state": 20}));
        call(&app, Method::PATCH, &twin_uri, admin, edit).await;
        assert_eq!(
            unit_in("twin", arabic).await["has_failing_check"],
            json!(false)
        );
        assert_eq!(inconsistent("app").await, (json!(0), app_failing));
        assert_eq!(inconsistent("twin").await, (json!(0), twin_failing));
    }
}

#[actix_web::test]
async fn a_scan_finds_the_strings_translated_otherwise_in_a_component_that_shares() {
    for db in TestDb::all() {
        let (_upstream, ctx) = disagreeing_catalogues(db, &[]);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let inconsistent = |slug: &'static str| {
            let app = &app;
            async move { inconsistent_units(app, slug, admin).await.0 }
        };
        for slug in ["one", "two"] {
            let found = inconsistent(slug).await;
            let sources: Vec<&Value> = found.iter().map(|u| &u["source"]).collect();
            assert_eq!(sources, [&json!(["Arabic"])], "{slug}");
        }
        // A component that stops sharing is compared no more, on both
        // sides; sharing again, both fail again.
        for (shares, expected) in [(false, 0), (true, 1)] {
            let body = Body::Json(json!({"allow_translation_propagation": shares}));
            let uri = "/api/components/demo/one/";
            let patched = call(&app, Method::PATCH, uri, admin, body).await;
            assert_eq!(patched.status, StatusCode::OK, "{}", patched.text());
            ctx.service.tasks().run_due().unwrap();
            for slug in ["one", "two"] {
                assert_eq!(inconsistent(slug).await.len(), expected, "{slug} {shares}");
            }
        }
        // Without its twin, the string is consistent again.
        let twin = inconsistent("two").await[0]["url"]
            .as_str()
            .unwrap()
            .to_owned();
        let gone = call(&app, Method::DELETE, &twin, admin, Body::None).await;
        assert_eq!(gone.status, StatusCode::NO_CONTENT, "{}", gone.text());
        assert_eq!(inconsistent("one").await, Vec::<Value>::new());
    }
}

#[actix_web::test]
async fn an_enforced_inconsistent_check_sends_the_string_back_for_editing() {
    for db in TestDb::all() {
        let (_upstream, ctx) = disagreeing_catalogues(db, &["inconsistent"]);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let arabic = |slug: &str| {
            let app = &app;
            let uri = format!("/api/translations/demo/{slug}/ja/units/?q=source:%3DArabic");
            async move { get_json(app, &uri, admin).await["results"][0].clone() }
        };
        // Where the check is enforced, the string needs editing again (and
        // no longer counts as translated, so the check leaves it); the
        // other component only flags it.
        let one = arabic("one").await;
        assert_eq!(
            (&one["state"], &one["pending"], &one["target"]),
            (&json!(11), &json!(true), &json!(["アラビア語"]))
        );
        let two = arabic("two").await;
        assert_eq!(
            (&two["state"], &two["has_failing_check"]),
            (&json!(20), &json!(true))
        );
        for slug in ["one", "two"] {
            let detail = get_json(&app, &format!("/api/translations/demo/{slug}/ja/"), admin).await;
            let uri = format!("/api/translations/demo/{slug}/ja/units/?q=state:%3E%3Dtranslated");
            let translated = get_json(&app, &uri, admin).await["count"].clone();
            assert_eq!(detail["translated"], translated, "{slug}: translated");
            inconsistent_units(&app, slug, admin).await;
        }
        let changes = get_json(&app, "/api/translations/demo/one/ja/changes/", admin).await;
        let enforced: Vec<&Value> = changes["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["action"] == json!(76))
            .collect();
        assert_eq!(enforced.len(), 1, "{changes}");
        assert_eq!(enforced[0]["unit"], one["url"]);
        // That change is the translation's last.
        let detail = get_json(&app, "/api/translations/demo/one/ja/", admin).await;
        assert_eq!(detail["last_change"], enforced[0]["timestamp"]);

        // An edit that cannot reach the other component (locked) is sent
        // back at once, and the answer says so.
        let locked = call(
            &app,
            Method::POST,
            "/api/components/demo/two/lock/",
            admin,
            Body::Json(json!({"lock": true})),
        )
        .await;
        assert_eq!(locked.status, StatusCode::OK, "{}", locked.text());
        let edit = Body::Json(json!({"target": ["アラビア語（新）"], "state": 20}));
        let uri = one["url"].as_str().unwrap().to_owned();
        let edited = call(&app, Method::PATCH, &uri, admin, edit).await;
        assert_eq!(edited.status, StatusCode::OK, "{}", edited.text());
        assert_eq!(edited.json()["state"], json!(11));
        let one = arabic("one").await;
        assert_eq!(
            (&one["state"], &one["target"]),
            (&json!(11), &json!(["アラビア語（新）"]))
        );
    }
}

/// Components `one` and `two` of project `demo` (sharing translations),
/// each a copy of a Japanese catalogue, which disagree on one string
/// (Arabic); `one` enforces the checks `enforced`.
fn disagreeing_catalogues(db: TestDb, enforced: &[&str]) -> (Upstream, common::Ctx) {
    let ja = std::fs::read_to_string(common::corpus("po/django-conf-ja.po")).unwrap();
    let other = ja.replace("msgstr \"アラビア語\"", "msgstr \"アラビア\"");
    assert_ne!(ja, other);
    let upstream = Upstream::new(&[
        ("one/ja.po", ja.into_bytes()),
        ("two/ja.po", other.into_bytes()),
    ]);
    let ctx = context(db, &upstream);
    for slug in ["one", "two"] {
        let enforced_checks = if slug == "one" {
            enforced.iter().map(|id| (*id).to_owned()).collect()
        } else {
            Vec::new()
        };
        common::add_component(
            &ctx,
            tolk_domain::component::ComponentSettings {
                manage_units: true,
                enforced_checks,
                ..common::po_settings(&upstream, slug, &format!("{slug}/*.po"))
            },
        );
    }
    (upstream, ctx)
}

/// The units of the Japanese translation of `slug` that fail the
/// inconsistent check, and its `failing_checks`, which must be a recount
/// of its units.
async fn inconsistent_units<S: TestApp<B>, B: MessageBody>(
    app: &S,
    slug: &str,
    token: Option<&str>,
) -> (Vec<Value>, Value) {
    let uri = format!("/api/translations/demo/{slug}/ja/units/?q=check:inconsistent");
    let page = get_json(app, &uri, token).await;
    let uri = format!("/api/translations/demo/{slug}/ja/");
    let failing = get_json(app, &uri, token).await["failing_checks"].clone();
    let recount = units_failing(app, slug, token).await;
    assert_eq!(failing, json!(recount), "{slug}: failing_checks");
    (page["results"].as_array().unwrap().clone(), failing)
}

/// How many units of the Japanese translation of `slug` fail a check.
async fn units_failing<S: TestApp<B>, B: MessageBody>(
    app: &S,
    slug: &str,
    token: Option<&str>,
) -> usize {
    let uri = format!("/api/translations/demo/{slug}/ja/units/?page_size=1000");
    let page = get_json(app, &uri, token).await;
    page["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["has_failing_check"] == json!(true))
        .count()
}

#[actix_web::test]
async fn old_strings_most_languages_leave_untranslated_are_flagged_at_a_read() {
    for db in TestDb::all() {
        let (_upstream, ctx) = with_component(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let flagged = || async {
            get_json(
                &app,
                "/api/translations/demo/app/en/units/?q=check:long_untranslated",
                admin,
            )
            .await["count"]
                .as_i64()
                .unwrap()
        };
        let read_files = || async {
            common::operate(&app, admin, "demo/app", "file-scan").await;
            ctx.service.tasks().run_due().unwrap();
        };
        assert_eq!(flagged().await, 0, "new strings are not long untranslated");
        // One string left untranslated in every language.
        for code in ["ar", "ja", "pt_BR", "ru"] {
            let uri = format!("/api/translations/demo/app/{code}/units/?q=source:=Afrikaans");
            let unit = get_json(&app, &uri, admin).await["results"][0].clone();
            let emptied = call(
                &app,
                Method::PATCH,
                unit["url"].as_str().unwrap(),
                admin,
                Body::Json(json!({"target": [""], "state": 0})),
            )
            .await;
            assert_eq!(emptied.status, StatusCode::OK, "{}", emptied.text());
        }
        read_files().await;
        assert_eq!(flagged().await, 0, "not yet 90 days old");

        // Read 100 days ago: a string whose units are translated less than
        // half as much as the component is flagged at the next read.
        let earlier = match ctx.db.backend() {
            tolk_service::BackendKind::Postgres => "created - INTERVAL '100 days'",
            tolk_service::BackendKind::Sqlite => "datetime(created, '-100 days')",
        };
        ctx.db
            .execute(&format!("UPDATE units SET created = {earlier}"));
        read_files().await;
        // The component's translated percentage, to a tenth rounded down.
        let listed = get_json(&app, "/api/components/demo/app/translations/", admin).await;
        let sum = |key: &str| -> i64 {
            let all = listed["results"].as_array().unwrap();
            all.iter().map(|t| t[key].as_i64().unwrap()).sum()
        };
        let percent = ((1000 * sum("translated") / sum("total")) as f64) / 10.0;
        let mut units: std::collections::HashMap<String, (i64, i64)> = Default::default();
        for code in ["en", "ar", "ja", "pt_BR", "ru"] {
            let uri = format!("/api/translations/demo/app/{code}/units/?page_size=1000");
            for unit in get_json(&app, &uri, admin).await["results"]
                .as_array()
                .unwrap()
            {
                let key = unit["source_unit"].as_str().unwrap().to_owned();
                let entry = units.entry(key).or_default();
                entry.0 += 1;
                entry.1 += i64::from(unit["state"].as_i64().unwrap() > 10);
            }
        }
        let expected = units
            .values()
            .filter(|(total, translated)| ((100 * translated / total) as f64) < percent / 2.0)
            .count();
        assert!(expected > 0, "the corpus leaves strings untranslated");
        assert_eq!(flagged().await, i64::try_from(expected).unwrap());
        let source = get_json(&app, "/api/translations/demo/app/en/", admin).await;
        assert!(source["failing_checks"].as_i64().unwrap() >= i64::try_from(expected).unwrap());
    }
}

/// A catalogue of `pairs` (source, translation) in `language`, which has
/// `plurals` forms.
fn catalogue(language: &str, plurals: &str, pairs: &[(&str, &str)]) -> Vec<u8> {
    let mut po = format!(
        "msgid \"\"\nmsgstr \"\"\n\"Language: {language}\\n\"\n\"Content-Type: text/plain; \
         charset=UTF-8\\n\"\n\"Plural-Forms: {plurals};\\n\"\n"
    );
    for (source, target) in pairs {
        po.push_str(&format!("\nmsgid \"{source}\"\nmsgstr \"{target}\"\n"));
    }
    po.into_bytes()
}

#[actix_web::test]
async fn one_translation_for_different_sources_fails_the_reused_check() {
    for db in TestDb::all() {
        let german = "nplurals=2; plural=(n != 1)";
        let de = [
            ("Open", "Öffnen"),
            ("Open file", "Öffnen"),
            ("Close", "Schließen"),
        ];
        let ja = [("Open", "開く"), ("Open file", "開く")];
        let upstream = Upstream::new(&[
            ("one/de.po", catalogue("de", german, &de)),
            ("one/ja.po", catalogue("ja", "nplurals=1; plural=0", &ja)),
            (
                "two/de.po",
                catalogue("de", german, &[("Save", "Schließen")]),
            ),
        ]);
        let ctx = context(db, &upstream);
        for slug in ["one", "two"] {
            common::add_component(
                &ctx,
                tolk_domain::component::ComponentSettings {
                    manage_units: true,
                    ..common::po_settings(&upstream, slug, &format!("{slug}/*.po"))
                },
            );
        }
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        // The sources failing the check in a translation, sorted, and its
        // `failing_checks`, which must be a recount of its units.
        let reused = |slug: &'static str, language: &'static str| {
            let app = &app;
            async move {
                let uri = format!("/api/translations/demo/{slug}/{language}/units/?q=check:reused");
                let sources = common::sorted_sources(app, &uri, admin).await;
                let uri = format!("/api/translations/demo/{slug}/{language}/units/?page_size=100");
                let all = get_json(app, &uri, admin).await;
                let recount = all["results"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|u| u["has_failing_check"] == json!(true))
                    .count();
                let uri = format!("/api/translations/demo/{slug}/{language}/");
                let failing = get_json(app, &uri, admin).await["failing_checks"].clone();
                assert_eq!(failing, json!(recount), "{slug}/{language}: failing_checks");
                sources
            }
        };
        // Read from the files: the two sources translated alike, and across
        // components (that share translations) the source translated as
        // another's; Japanese, of one plural form, is not checked.
        assert_eq!(reused("one", "de").await, ["Close", "Open", "Open file"]);
        assert_eq!(reused("two", "de").await, ["Save"]);
        assert_eq!(reused("one", "ja").await, Vec::<String>::new());

        let unit = |source: &'static str| {
            let app = &app;
            async move {
                let source = source.replace(' ', "%20");
                let uri =
                    format!("/api/translations/demo/one/de/units/?q=source:%3D%22{source}%22");
                let page = get_json(app, &uri, admin).await;
                page["results"][0]["url"].as_str().unwrap().to_owned()
            }
        };
        let translate = |url: String, text: &'static str| {
            let app = &app;
            async move {
                let body = Body::Json(json!({"target": [text], "state": 20}));
                let edited = call(app, Method::PATCH, &url, admin, body).await;
                assert_eq!(edited.status, StatusCode::OK, "{}", edited.text());
                edited.json()
            }
        };
        // An edit to a text of its own clears both strings that held it.
        translate(unit("Open file").await, "Datei öffnen").await;
        assert_eq!(reused("one", "de").await, ["Close"]);
        // An edit to another string's text fails at once.
        let url = unit("Open file").await;
        translate(url.clone(), "Öffnen").await;
        let edited = get_json(&app, &url, admin).await;
        assert_eq!(edited["has_failing_check"], json!(true), "{edited}");
        assert_eq!(reused("one", "de").await, ["Close", "Open", "Open file"]);
        // A string needing editing fails; it makes no other fail.
        let body = Body::Json(json!({"target": ["Öffnen"], "state": 10}));
        let fuzzy = call(&app, Method::PATCH, &unit("Open").await, admin, body).await;
        assert_eq!(fuzzy.status, StatusCode::OK, "{}", fuzzy.text());
        assert_eq!(reused("one", "de").await, ["Close", "Open"]);
        translate(unit("Open file").await, "Datei öffnen").await;
        assert_eq!(reused("one", "de").await, ["Close"]);
        // A string removed leaves its text to one source.
        let gone = call(
            &app,
            Method::DELETE,
            &unit("Close").await,
            admin,
            Body::None,
        )
        .await;
        assert_eq!(gone.status, StatusCode::NO_CONTENT, "{}", gone.text());
        assert_eq!(reused("two", "de").await, Vec::<String>::new());
        // A component that stops sharing translations is compared no more,
        // and the strings it made fail elsewhere pass again.
        translate(unit("Open").await, "Schließen").await;
        assert_eq!(reused("one", "de").await, ["Open"]);
        assert_eq!(reused("two", "de").await, ["Save"]);
        let body = Body::Json(json!({"allow_translation_propagation": false}));
        let uri = "/api/components/demo/two/";
        let patched = call(&app, Method::PATCH, uri, admin, body).await;
        assert_eq!(patched.status, StatusCode::OK, "{}", patched.text());
        ctx.service.tasks().run_due().unwrap();
        assert_eq!(reused("one", "de").await, Vec::<String>::new());
        assert_eq!(reused("two", "de").await, Vec::<String>::new());
        // Sharing again, they fail again.
        let body = Body::Json(json!({"allow_translation_propagation": true}));
        let patched = call(&app, Method::PATCH, uri, admin, body).await;
        assert_eq!(patched.status, StatusCode::OK, "{}", patched.text());
        ctx.service.tasks().run_due().unwrap();
        assert_eq!(reused("one", "de").await, ["Open"]);
        assert_eq!(reused("two", "de").await, ["Save"]);
    }
}

#[actix_web::test]
async fn fluent_strings_are_checked_as_entries_of_their_keys() {
    for db in TestDb::all() {
        // Keys (contexts) name the Fluent entries; `-brand` is a term.
        let strings = [
            ("hello", "Hello { $name }", "Hallo { $user }"),
            ("dialog", "Open\\n.title = Opens a file", "Öffnen"),
            ("-brand", "Tolk", "Tolk\\n.gender = masculine"),
            ("broken", "Save { $n", "Speichern { $n }"),
            ("close", "Close", "Schließen {"),
            (
                "count",
                "{ $n ->\\n [one] a file\\n *[other] { $n } files\\n}",
                "{ $n } Dateien",
            ),
            ("bold", "<b>Open</b> now", "<i>Öffnen</i>"),
            ("unclosed", "<b>Save</i>", "<b>Speichern</b>"),
        ];
        let mut po = String::from(
            "msgid \"\"\nmsgstr \"\"\n\"Language: de\\n\"\n\
             \"Content-Type: text/plain; charset=UTF-8\\n\"\n",
        );
        for (key, source, target) in strings {
            po.push_str(&format!(
                "\nmsgctxt \"{key}\"\nmsgid \"{source}\"\nmsgstr \"{target}\"\n"
            ));
        }
        let upstream = Upstream::new(&[("app/de.po", po.into_bytes())]);
        let ctx = context(db, &upstream);
        common::add_component(
            &ctx,
            tolk_domain::component::ComponentSettings {
                check_flags: "fluent-source-syntax, fluent-target-syntax, fluent-parts, \
                              fluent-references, fluent-source-inner-html, \
                              fluent-target-inner-html"
                    .into(),
                ..common::po_settings(&upstream, "app", "app/*.po")
            },
        );
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let failing = |language: &'static str, check: &'static str| {
            let app = &app;
            async move {
                let uri = format!("/api/translations/demo/app/{language}/units/?q=check:{check}");
                let page = get_json(app, &uri, admin).await;
                let mut keys: Vec<String> = page["results"]
                    .as_array()
                    .unwrap_or_else(|| panic!("{page}"))
                    .iter()
                    .map(|u| u["context"].as_str().unwrap().to_owned())
                    .collect();
                keys.sort();
                keys
            }
        };
        assert_eq!(failing("de", "fluent-references").await, ["hello"]);
        // A term's attributes are its language's own.
        assert_eq!(failing("de", "fluent-parts").await, ["dialog"]);
        assert_eq!(failing("de", "fluent-target-syntax").await, ["close"]);
        assert_eq!(failing("en", "fluent-source-syntax").await, ["broken"]);
        assert_eq!(failing("de", "fluent-target-inner-html").await, ["bold"]);
        assert_eq!(
            failing("en", "fluent-source-inner-html").await,
            ["unclosed"]
        );

        // Mended translations pass.
        for (key, text) in [
            ("close", "Schließen"),
            ("dialog", "Öffnen\n.title = Öffnet eine Datei"),
        ] {
            let uri = format!("/api/translations/demo/app/de/units/?q=context:%3D{key}");
            let url = get_json(&app, &uri, admin).await["results"][0]["url"]
                .as_str()
                .unwrap()
                .to_owned();
            let body = Body::Json(json!({"target": [text], "state": 20}));
            let edited = call(&app, Method::PATCH, &url, admin, body).await;
            assert_eq!(edited.status, StatusCode::OK, "{}", edited.text());
        }
        assert_eq!(failing("de", "fluent-parts").await, Vec::<String>::new());
        assert_eq!(
            failing("de", "fluent-target-syntax").await,
            Vec::<String>::new()
        );

        // The checks that run can be enforced; those that do not cannot.
        let uri = "/api/components/demo/app/";
        let body = Body::Json(json!({"enforced_checks": ["fluent-references"]}));
        let enforced = call(&app, Method::PATCH, uri, admin, body).await;
        assert_eq!(enforced.status, StatusCode::OK, "{}", enforced.text());
        let body = Body::Json(json!({"enforced_checks": ["max-size"]}));
        let refused = call(&app, Method::PATCH, uri, admin, body).await;
        assert_eq!(
            refused.status,
            StatusCode::BAD_REQUEST,
            "{}",
            refused.text()
        );
    }
}
