//! Translation file uploads (§9.7): each method and conflict mode, the
//! counts Weblate answers with and the reasons Tolk adds, refusals that
//! change nothing, on each database.

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
use common::{Body, Reply, TestApp, call, get_json, multipart};
use serde_json::{Value, json};
use tolk_service::testing::TestDb;

const FILE: &str = "/api/translations/demo/app/ja/file/";

/// An upload refused: its fields, file name and bytes, and the field the
/// error names with words its message holds.
type Refusal<'a> = (
    &'a [(&'a str, &'a str)],
    &'a str,
    &'a [u8],
    &'a str,
    &'a str,
);

/// A gettext catalogue of (msgid, msgstr, fuzzy) entries.
fn catalogue(entries: &[(&str, &str, bool)]) -> Vec<u8> {
    let mut text = String::from(
        "msgid \"\"\nmsgstr \"\"\n\"Language: ja\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n",
    );
    for (source, target, fuzzy) in entries {
        if *fuzzy {
            text.push_str("#, fuzzy\n");
        }
        text.push_str(&format!("msgid \"{source}\"\nmsgstr \"{target}\"\n\n"));
    }
    text.into_bytes()
}

async fn upload<S: TestApp<B>, B: MessageBody>(
    app: &S,
    token: &str,
    fields: &[(&str, &str)],
    name: &str,
    bytes: &[u8],
) -> Reply {
    let body = multipart(fields, &[("file", name, bytes)]);
    call(app, Method::POST, FILE, Some(token), body).await
}

/// The Japanese unit whose source is `source`.
async fn unit<S: TestApp<B>, B: MessageBody>(app: &S, token: &str, source: &str) -> Value {
    let q = format!("source:%3D%22{}%22", source.replace(' ', "%20"));
    let found = get_json(
        app,
        &format!("/api/translations/demo/app/ja/units/?q={q}"),
        Some(token),
    )
    .await;
    assert_eq!(found["count"], json!(1), "{source}: {found}");
    found["results"][0].clone()
}

/// The (key, result, reason) of each issue of an upload's answer.
fn issues(answer: &Value) -> Vec<(String, String, String)> {
    answer["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let text = |key: &str| i[key].as_str().unwrap().to_owned();
            (text("key"), text("result"), text("reason"))
        })
        .collect()
}

#[actix_web::test]
async fn uploads_translate_what_the_rules_allow_and_say_why_not() {
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = ctx.admin.as_str();
        // Two strings made untranslated, and a translated one.
        let done = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?q=state:translated%20AND%20NOT%20has:plural",
            Some(admin),
        )
        .await;
        let source = |n: usize| done["results"][n]["source"][0].as_str().unwrap().to_owned();
        let (first, second, translated) = (source(0), source(1), source(2));
        let before = done["results"][2]["target"][0].as_str().unwrap().to_owned();
        for n in 0..2 {
            let uri = done["results"][n]["url"].as_str().unwrap();
            let emptied = call(
                &app,
                Method::PATCH,
                uri,
                Some(admin),
                Body::Json(json!({"target": [""], "state": 0})),
            )
            .await;
            assert_eq!(emptied.status, StatusCode::OK, "{}", emptied.text());
        }

        let file = catalogue(&[
            (&first, "アップロード", false),
            (&second, "あいまい", true),
            (&translated, "上書き", false),
            ("No such string here", "なし", false),
        ]);
        let answer = upload(&app, admin, &[], "ja.po", &file).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
        let answer = answer.json();
        assert_eq!(
            (
                answer["not_found"].clone(),
                answer["skipped"].clone(),
                answer["accepted"].clone()
            ),
            (json!(1), json!(2), json!(1))
        );
        assert_eq!(
            (
                answer["total"].clone(),
                answer["count"].clone(),
                answer["result"].clone()
            ),
            (json!(4), json!(4), json!(true))
        );
        assert_eq!(
            issues(&answer),
            [
                (
                    second.clone(),
                    "skipped".into(),
                    "The file does not translate it.".into()
                ),
                (
                    translated.clone(),
                    "skipped".into(),
                    "The string is translated; conflicts=replace-translated overwrites it.".into()
                ),
                (
                    "No such string here".into(),
                    "not_found".into(),
                    "The translation has no such string.".into()
                ),
            ]
        );
        let taken = unit(&app, admin, &first).await;
        assert_eq!(
            (
                taken["target"].clone(),
                taken["state"].clone(),
                taken["pending"].clone()
            ),
            (json!(["アップロード"]), json!(20), json!(true))
        );
        assert_eq!(
            unit(&app, admin, &translated).await["target"],
            json!([before])
        );
        let changes = get_json(&app, "/api/translations/demo/app/ja/changes/", Some(admin)).await;
        let actions: Vec<i64> = changes["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["action"].as_i64().unwrap())
            .collect();
        assert!(actions.contains(&9) && actions.contains(&78), "{actions:?}");

        // Overwriting, with strings needing editing taken as such.
        let answer = upload(
            &app,
            admin,
            &[("conflicts", "replace-translated"), ("fuzzy", "process")],
            "ja.po",
            &file,
        )
        .await
        .json();
        assert_eq!(
            (answer["accepted"].clone(), answer["skipped"].clone()),
            (json!(2), json!(1)),
            "{answer}"
        );
        assert_eq!(
            issues(&answer)[0],
            (
                first.clone(),
                "skipped".into(),
                "The translation is the same.".into()
            )
        );
        assert_eq!(
            unit(&app, admin, &translated).await["target"],
            json!(["上書き"])
        );
        let fuzzy = unit(&app, admin, &second).await;
        assert_eq!(
            (fuzzy["target"].clone(), fuzzy["state"].clone()),
            (json!(["あいまい"]), json!(10))
        );

        // Approving needs reviews on; the refusal is the reason given.
        let again = catalogue(&[(&first, "承認", false)]);
        let answer = upload(
            &app,
            admin,
            &[("method", "approve"), ("conflicts", "replace-approved")],
            "ja.po",
            &again,
        )
        .await
        .json();
        assert_eq!(answer["accepted"], json!(0));
        assert_eq!(
            issues(&answer),
            [(
                first.clone(),
                "skipped".into(),
                "Translation reviews are turned off. The project's translation_review setting (or its workflow for the language) turns them on.".into()
            )]
        );

        // Suggestions leave the translation as it is.
        let answer = upload(&app, admin, &[("method", "suggest")], "ja.po", &again)
            .await
            .json();
        assert_eq!(answer["accepted"], json!(1), "{answer}");
        let suggested = unit(&app, admin, &first).await;
        assert_eq!(
            (
                suggested["target"].clone(),
                suggested["has_suggestion"].clone()
            ),
            (json!(["アップロード"]), json!(true))
        );
        let repeated = upload(&app, admin, &[("method", "suggest")], "ja.po", &again)
            .await
            .json();
        assert_eq!(
            (&repeated["accepted"], issues(&repeated)),
            (
                &json!(0),
                vec![(
                    first.clone(),
                    "skipped".into(),
                    "You have made this suggestion already.".into()
                )]
            ),
            "the same suggestion twice is skipped, with the reason"
        );

        // Another format than the component's: a CSV of source and target.
        let csv = format!("source,target\n\"{second}\",CSV訳\n");
        let answer = upload(
            &app,
            admin,
            &[("conflicts", "replace-translated")],
            "ja.csv",
            csv.as_bytes(),
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
        assert_eq!(answer.json()["accepted"], json!(1));
        assert_eq!(unit(&app, admin, &second).await["target"], json!(["CSV訳"]));

        // `add` takes the strings the component lacks too, where the
        // component lets strings be added.
        let manage = json!({"manage_units": true});
        let patched = call(
            &app,
            Method::PATCH,
            "/api/components/demo/app/",
            Some(admin),
            Body::Json(manage),
        )
        .await;
        assert_eq!(patched.status, StatusCode::OK);
        let file = catalogue(&[
            ("A string from the upload", "アップロードの文字列", false),
            (&first, "アップロード", false),
        ]);
        let answer = upload(&app, admin, &[("method", "add")], "ja.po", &file)
            .await
            .json();
        assert_eq!(
            (
                answer["accepted"].clone(),
                answer["not_found"].clone(),
                answer["skipped"].clone()
            ),
            (json!(1), json!(0), json!(1)),
            "{answer}"
        );
        let added = unit(&app, admin, "A string from the upload").await;
        assert_eq!(
            (
                added["target"].clone(),
                added["state"].clone(),
                added["pending"].clone()
            ),
            (json!(["アップロードの文字列"]), json!(20), json!(true))
        );
        let arabic = get_json(&app, "/api/translations/demo/app/ar/units/?q=source:%3D%22A%20string%20from%20the%20upload%22", Some(admin)).await;
        assert_eq!(arabic["results"][0]["target"], json!([""]));
        let changes = get_json(
            &app,
            "/api/translations/demo/app/ja/changes/?action=73",
            Some(admin),
        )
        .await;
        assert_eq!(changes["count"], json!(1));

        // Uploaded strings are checked as edits are, and counted.
        let statistics = "/api/translations/demo/app/ja/statistics/";
        let failing = get_json(&app, statistics, Some(admin)).await["failing"].clone();
        // (It may fail a check already: strings needing editing are checked too.)
        let failed_before = unit(&app, admin, &second).await["has_failing_check"] == json!(true);
        let spaced = catalogue(&[(&second, "二重  空白", false)]);
        let fields = [("conflicts", "replace-translated")];
        let answer = upload(&app, admin, &fields, "ja.po", &spaced).await.json();
        assert_eq!(answer["accepted"], json!(1), "{answer}");
        let checked = unit(&app, admin, &second).await;
        assert_eq!(checked["has_failing_check"], json!(true), "{checked}");
        let now = get_json(&app, statistics, Some(admin)).await["failing"].clone();
        assert_eq!(
            now.as_i64(),
            failing.as_i64().map(|n| n + i64::from(!failed_before))
        );
        let recount = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?q=has:check&page_size=1",
            Some(admin),
        )
        .await;
        assert_eq!(recount["count"], now);

        // A file named without an extension (wlc reading its standard
        // input) is read in the component's format.
        let piped = catalogue(&[(&second, "標準入力から", false)]);
        let answer = upload(&app, admin, &fields, "-", &piped).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
        assert_eq!(answer.json()["accepted"], json!(1));
        assert_eq!(
            unit(&app, admin, &second).await["target"],
            json!(["標準入力から"])
        );
    }
}

#[actix_web::test]
async fn a_downloaded_memory_uploads_back() {
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = ctx.admin.as_str();
        let arabic = unit(&app, admin, "Arabic").await;
        let was = arabic["target"][0].as_str().unwrap().to_owned();
        let tmx = call(
            &app,
            Method::GET,
            "/api/translations/demo/app/ja/file/?format=tmx",
            Some(admin),
            Body::None,
        )
        .await;
        assert_eq!(tmx.status, StatusCode::OK);
        // The translation of Arabic changed in the memory, and uploaded.
        let text = tmx.text().replacen(
            &format!("<seg>{was}</seg>"),
            "<seg>アラビア語 (TMX)</seg>",
            1,
        );
        assert_ne!(text, tmx.text(), "the download holds {was}");
        let answer = upload(
            &app,
            admin,
            &[("method", "translate"), ("conflicts", "replace-translated")],
            "ja.tmx",
            text.as_bytes(),
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
        assert_eq!(answer.json()["accepted"], json!(1), "{}", answer.text());
        assert_eq!(
            unit(&app, admin, "Arabic").await["target"],
            json!(["アラビア語 (TMX)"])
        );
        // A workbook downloaded reads back: nothing in it is new.
        let xlsx = call(
            &app,
            Method::GET,
            "/api/translations/demo/app/ja/file/?format=xlsx",
            Some(admin),
            Body::None,
        )
        .await;
        assert_eq!(xlsx.status, StatusCode::OK);
        let answer = upload(
            &app,
            admin,
            &[("method", "translate")],
            "ja.xlsx",
            &xlsx.body,
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
        let answer = answer.json();
        assert_eq!(answer["accepted"], json!(0), "{answer}");
        assert!(answer["total"].as_i64().unwrap() > 300, "{answer}");
    }
}

#[actix_web::test]
async fn refused_uploads_change_nothing() {
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = ctx.admin.as_str();
        let statistics = "/api/translations/demo/app/ja/statistics/";
        let before = get_json(&app, statistics, Some(admin)).await;
        let broken = b"msgid \"One\"\nmsgstr \"1\"\n\nmsgid \"Two\nmsgstr \"2\"\n";
        let latin1 = b"msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\nmsgid \"One\"\nmsgstr \"caf\xe9\"\n";
        let truncated = b"<?xml version=\"1.0\"?>\n<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n<file source-language=\"en\" target-language=\"ja\" datatype=\"plaintext\" original=\"x\"><body>\n<trans-unit id=\"1\"><source>One</source><target>1";
        let refusals: [Refusal<'_>; 6] = [
            (&[], "ja.po", broken, "file", "ja.po:"),
            (&[], "ja.po", latin1, "file", "ja.po:"),
            (&[], "ja.xlf", truncated, "file", "ja.xlf:"),
            (
                &[],
                "ja.docx",
                b"PK",
                "file",
                "Unsupported file format: Tolk cannot read ja.docx.",
            ),
            (
                &[("method", "add")],
                "ja.po",
                b"",
                "method",
                "This method is not available here.",
            ),
            (
                &[("method", "sideways")],
                "ja.po",
                b"",
                "method",
                "sideways",
            ),
        ];
        for (fields, name, bytes, attr, words) in refusals {
            let refused = upload(&app, admin, fields, name, bytes).await;
            assert_eq!(
                refused.status,
                StatusCode::BAD_REQUEST,
                "{name}: {}",
                refused.text()
            );
            let errors = common::error_items(&refused.json());
            assert_eq!(errors[0].0, attr, "{errors:?}");
            assert!(errors[0].2.contains(words), "{errors:?}");
        }
        let missing = call(
            &app,
            Method::POST,
            FILE,
            Some(admin),
            multipart(&[("method", "translate")], &[]),
        )
        .await;
        assert_eq!(
            common::error_items(&missing.json()),
            [(
                "file".into(),
                "required".into(),
                "This field is required.".into()
            )]
        );
        // The source language of a component without a template has no
        // file: only its strings can be uploaded.
        let without_file = call(
            &app,
            Method::POST,
            "/api/translations/demo/app/en/file/",
            Some(admin),
            multipart(
                &[],
                &[("file", "en.po", &catalogue(&[("One", "1", false)]))],
            ),
        )
        .await;
        assert_eq!(
            common::error_items(&without_file.json()),
            [(
                "method".into(),
                "invalid".into(),
                "No translation file, try using method=source.".into()
            )]
        );
        // Uploads need a signed-in caller.
        let file = multipart(
            &[],
            &[("file", "ja.po", &catalogue(&[("One", "1", false)]))],
        );
        let anonymous = call(&app, Method::POST, FILE, None, file).await;
        assert_eq!(
            anonymous.status,
            StatusCode::UNAUTHORIZED,
            "{}",
            anonymous.text()
        );
        assert_eq!(get_json(&app, statistics, Some(admin)).await, before);
        // Too large: refused from its declared length, before it is read.
        let huge = vec![b'#'; tolk_api::input::MAX_BODY + 1];
        let too_large = upload(&app, admin, &[], "ja.po", &huge).await;
        assert_eq!(too_large.status, StatusCode::PAYLOAD_TOO_LARGE);
    }
}

#[actix_web::test]
async fn replace_and_source_uploads_swap_whole_files() {
    for db in TestDb::all() {
        let pot = catalogue(&[("Hello", "", false), ("Bye", "", false)]);
        let files: Vec<(&str, Vec<u8>)> = vec![
            ("po/app.pot", pot),
            (
                "po/ja.po",
                catalogue(&[("Hello", "こんにちは", false), ("Bye", "", false)]),
            ),
        ];
        let upstream = tolk_service::vcs_testing::Upstream::new(&files);
        let ctx = common::context(db, &upstream);
        common::add_component(
            &ctx,
            tolk_domain::component::ComponentSettings {
                name: "App".into(),
                slug: "app".into(),
                repo: upstream.url(),
                filemask: "po/*.po".into(),
                new_base: "po/app.pot".into(),
                file_format: "po".into(),
                ..Default::default()
            },
        );
        // A component of the project reading the same clone.
        common::add_component(
            &ctx,
            tolk_domain::component::ComponentSettings {
                name: "Mirror".into(),
                slug: "mirror".into(),
                repo: "weblate://demo/app".into(),
                filemask: "po/*.po".into(),
                file_format: "po".into(),
                ..Default::default()
            },
        );
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = ctx.admin.as_str();
        let sources = |units: Value| column(&units, "source");

        // replace: the file as uploaded, strings added and removed with it.
        let replacement = catalogue(&[("Hello", "やあ", false), ("New", "新しい", false)]);
        let replaced = upload(&app, admin, &[("method", "replace")], "ja.po", &replacement).await;
        assert_eq!(replaced.status, StatusCode::OK, "{}", replaced.text());
        assert_eq!(
            replaced.json(),
            json!({"not_found": 0, "skipped": 0, "accepted": 2, "total": 2, "result": true, "count": 2, "issues": []})
        );
        let units = get_json(&app, "/api/translations/demo/app/ja/units/", Some(admin)).await;
        assert_eq!(sources(units), json!([["Hello"], ["New"]]));
        // The component sharing the clone read the new file too.
        let mirrored = get_json(&app, "/api/translations/demo/mirror/ja/units/", Some(admin)).await;
        assert_eq!(sources(mirrored), json!([["Hello"], ["New"]]));
        let broken = upload(
            &app,
            admin,
            &[("method", "replace")],
            "ja.po",
            b"msgid \"x\nmsgstr \"\"\n",
        )
        .await;
        assert_eq!(broken.status, StatusCode::BAD_REQUEST, "{}", broken.text());
        let push = json!({"operation": "push"});
        let pushed = call(
            &app,
            Method::POST,
            "/api/components/demo/app/repository/",
            Some(admin),
            Body::Json(push.clone()),
        )
        .await;
        assert_eq!(pushed.json()["result"], json!(true), "{}", pushed.text());
        assert_eq!(
            upstream.file("po/ja.po").into_bytes(),
            replacement,
            "byte for byte"
        );

        // source: only on the source language, whose strings it replaces.
        let on_japanese = upload(&app, admin, &[("method", "source")], "app.pot", b"").await;
        assert_eq!(common::error_items(&on_japanese.json())[0].0, "method");
        let source_file = "/api/translations/demo/app/en/file/";
        let new_pot = catalogue(&[("Hello", "", false), ("Welcome", "", false)]);
        let sourced = call(
            &app,
            Method::POST,
            source_file,
            Some(admin),
            multipart(&[("method", "source")], &[("file", "app.pot", &new_pot)]),
        )
        .await;
        assert_eq!(sourced.status, StatusCode::OK, "{}", sourced.text());
        assert_eq!(sourced.json()["total"], json!(2));
        let units = get_json(&app, "/api/translations/demo/app/ja/units/", Some(admin)).await;
        assert_eq!(sources(units.clone()), json!([["Hello"], ["Welcome"]]));
        assert_eq!(
            column(&units, "target"),
            json!([["やあ"], [""]]),
            "kept where the string stays"
        );
        let pushed = call(
            &app,
            Method::POST,
            "/api/components/demo/app/repository/",
            Some(admin),
            Body::Json(push),
        )
        .await;
        assert_eq!(pushed.json()["result"], json!(true), "{}", pushed.text());
        assert_eq!(upstream.file("po/app.pot").into_bytes(), new_pot);
        assert!(!upstream.file("po/ja.po").contains("New"));
        for action in [54, 74] {
            let changes =
                get_json(&app, &format!("/api/changes/?action={action}"), Some(admin)).await;
            assert_eq!(changes["count"], json!(1), "action {action}");
        }
    }
}

/// `field` of each result of a unit list.
fn column(units: &Value, field: &str) -> Value {
    common::pluck(&units["results"], field)
}
