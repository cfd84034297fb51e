//! Translation file downloads (§9.6): converted with `format`, filtered
//! with `q`, with Weblate's names, media types and refusals, on each
//! database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use actix_web::body::MessageBody;
use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, Reply, TestApp, call, get_json};
use serde_json::{Value, json};
use tolk_service::testing::TestDb;

/// What `msgfmt --check` says of a catalogue (`None` without msgfmt,
/// unless CI's `TOLK_REQUIRE_MSGFMT` demands it).
fn msgfmt(bytes: &[u8]) -> Option<Result<(), String>> {
    let spawned = Command::new("msgfmt")
        .args(["--check", "-o", "/dev/null", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(mut child) = spawned else {
        assert!(
            std::env::var_os("TOLK_REQUIRE_MSGFMT").is_none(),
            "msgfmt is required here"
        );
        return None;
    };
    child.stdin.take().unwrap().write_all(bytes).unwrap();
    let output = child.wait_with_output().unwrap();
    Some(if output.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    })
}

async fn download<S: TestApp<B>, B: MessageBody>(app: &S, uri: &str, token: &str) -> Reply {
    call(app, Method::GET, uri, Some(token), Body::None).await
}

/// The units a downloaded file holds, as (context, source, target).
fn units_of(format: &str, bytes: &[u8]) -> Vec<(String, String, String)> {
    let file = tolk_formats::parse(format, "downloaded", bytes).unwrap();
    file.units()
        .into_iter()
        .map(|u| (u.context, u.source.join("|"), u.target.join("|")))
        .collect()
}

/// Fails at the first difference of two lists (they are long to print).
fn assert_same<T: PartialEq + std::fmt::Debug>(got: &[T], wanted: &[T], what: &str) {
    if let Some(at) = (0..got.len().min(wanted.len())).find(|&i| got[i] != wanted[i]) {
        panic!("{what}: item {at} is {:?}, not {:?}", got[at], wanted[at]);
    }
    assert_eq!(got.len(), wanted.len(), "{what}: the lengths differ");
}

/// The units of a translation as the API lists them, in file order.
async fn listed<S: TestApp<B>, B: MessageBody>(
    app: &S,
    uri: &str,
    token: &str,
) -> Vec<(String, String, String)> {
    let page = get_json(app, &format!("{uri}?page_size=1000"), Some(token)).await;
    let mut units: Vec<&Value> = page["results"].as_array().unwrap().iter().collect();
    units.sort_by_key(|u| u["position"].as_i64());
    let joined = |forms: &Value| {
        let forms: Vec<&str> = forms
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap())
            .collect();
        forms.join("|")
    };
    units
        .iter()
        .map(|u| {
            (
                u["context"].as_str().unwrap().to_owned(),
                joined(&u["source"]),
                joined(&u["target"]),
            )
        })
        .collect()
}

/// The API path of the first Japanese string of `demo/app` without plurals.
async fn first_japanese<S: TestApp<B>, B: MessageBody>(app: &S, token: &str) -> String {
    let q = "/api/translations/demo/app/ja/units/?q=NOT%20has:plural";
    let units = get_json(app, q, Some(token)).await;
    let url = units["results"][0]["url"].as_str().unwrap();
    format!("/api/{}", url.split_once("/api/").unwrap().1)
}

/// Translates the unit at `path` with `text` (pending until committed).
async fn translate<S: TestApp<B>, B: MessageBody>(app: &S, token: &str, path: &str, text: &str) {
    let edit = json!({"target": [text], "state": 20});
    let edited = call(app, Method::PATCH, path, Some(token), Body::Json(edit)).await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.text());
}

#[actix_web::test]
async fn a_translation_downloads_converted_from_what_the_database_holds() {
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = ctx.admin.as_str();
        let file = "/api/translations/demo/app/ja/file/";

        // An edit not yet committed is in every conversion.
        let unit = first_japanese(&app, admin).await;
        translate(&app, admin, &unit, "編集済み").await;
        let expected = listed(&app, "/api/translations/demo/app/ja/units/", admin).await;
        assert!(expected.iter().any(|u| u.2 == "編集済み"));

        let po = download(&app, &format!("{file}?format=po"), admin).await;
        assert_eq!(po.status, StatusCode::OK, "{}", po.text());
        assert_eq!(po.header("content-type"), Some("text/x-po; charset=utf-8"));
        assert_eq!(po.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(
            po.header("content-disposition"),
            Some("attachment; filename=\"demo-app-ja.po\"")
        );
        assert_same(&units_of("po", &po.body), &expected, "po");
        let text = po.text();
        assert!(text.contains("\"Language: ja\\n\""), "{text}");
        assert!(
            text.contains("\"Plural-Forms: nplurals=1; plural=0;\\n\""),
            "{text}"
        );
        if let Some(verdict) = msgfmt(&po.body) {
            verdict.unwrap();
        }

        // Bilingual conversions keep every string (a plural's forms each
        // as the format holds them); MO only the translated.
        let first = |forms: &str| forms.split('|').next().unwrap_or("").to_owned();
        for (format, reader) in [("xliff", "xliff"), ("xliff11", "xliff"), ("csv", "csv")] {
            let got = download(&app, &format!("{file}?format={format}"), admin).await;
            assert_eq!(got.status, StatusCode::OK, "{format}: {}", got.text());
            // CSV starts a text a spreadsheet would run as a formula with `'`.
            let unescaped = |text: String| match text.strip_prefix('\'') {
                Some(rest)
                    if format == "csv" && rest.starts_with(['=', '+', '-', '@', '|', '%']) =>
                {
                    rest.to_owned()
                }
                _ => text,
            };
            let read: Vec<(String, String)> = units_of(reader, &got.body)
                .into_iter()
                .map(|(_, source, target)| (unescaped(first(&source)), unescaped(first(&target))))
                .collect();
            let mut wanted: Vec<(String, String)> = Vec::new();
            for (_, source, target) in &expected {
                let row = (first(source), first(target));
                // CSV gives each source form a row.
                let rows = if format == "csv" {
                    source.split('|').count()
                } else {
                    1
                };
                for form in 0..rows {
                    let source = source.split('|').nth(form).unwrap_or("").to_owned();
                    let target = if form == 0 {
                        row.1.clone()
                    } else {
                        String::new()
                    };
                    wanted.push(if format == "csv" {
                        (source, target)
                    } else {
                        row.clone()
                    });
                }
            }
            assert_same(&read, &wanted, format);
        }
        let mo = download(&app, &format!("{file}?format=mo"), admin).await;
        assert_eq!(
            mo.header("content-type"),
            Some("application/x-gettext-catalog; charset=utf-8")
        );
        assert_eq!(
            mo.header("content-disposition"),
            Some("attachment; filename=\"demo-app-ja.mo\"")
        );
        let translated: Vec<(String, String, String)> = expected
            .iter()
            .filter(|u| !u.2.is_empty())
            .cloned()
            .collect();
        let mut read = units_of("mo", &mo.body);
        read.retain(|u| !u.1.is_empty());
        assert_eq!(read.len(), translated.len());
        let tmx = download(&app, &format!("{file}?format=tmx"), admin).await;
        assert_eq!(
            tmx.header("content-type"),
            Some("application/x-tmx; charset=utf-8")
        );
        assert_eq!(tmx.text().matches("</tu>").count(), translated.len());
        assert!(
            tmx.text()
                .contains("<tuv xml:lang=\"ja\"><seg>編集済み</seg></tuv>")
        );
        let xlsx = download(&app, &format!("{file}?format=xlsx"), admin).await;
        assert_eq!(xlsx.status, StatusCode::OK);
        assert!(xlsx.body.starts_with(b"PK\x03\x04"));

        // `q` selects the units of a converted download.
        let q = "state:%3Ctranslated";
        let empty = get_json(
            &app,
            &format!("/api/translations/demo/app/ja/units/?q={q}"),
            Some(admin),
        )
        .await["count"]
            .as_i64()
            .unwrap();
        let csv = download(&app, &format!("{file}?format=csv&q={q}"), admin).await;
        let rows = units_of("csv", &csv.body);
        assert_eq!(rows.len() as i64, empty);
        assert!(rows.iter().all(|u| u.2.is_empty()));
    }
}

#[actix_web::test]
async fn monolingual_conversions_key_by_the_template_and_bad_asks_are_refused() {
    for db in TestDb::all() {
        let (upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = ctx.admin.as_str();
        common::countries_component(&ctx, &upstream);
        let expected = listed(&app, "/api/translations/demo/countries/ar/units/", admin).await;
        let file = "/api/translations/demo/countries/ar/file/";
        for (format, mime) in [
            ("json", "application/json"),
            ("aresource", "application/xml"),
            ("strings", "text/plain"),
        ] {
            let got = download(&app, &format!("{file}?format={format}"), admin).await;
            assert_eq!(got.status, StatusCode::OK, "{format}: {}", got.text());
            assert_eq!(
                got.header("content-type"),
                Some(format!("{mime}; charset=utf-8").as_str())
            );
            let read: Vec<(String, String)> = units_of(format, &got.body)
                .into_iter()
                .filter(|u| !u.2.is_empty())
                .map(|(key, _, target)| (key, target))
                .collect();
            let wanted: Vec<(String, String)> = expected
                .iter()
                .filter(|u| !u.2.is_empty())
                .map(|(key, _, target)| (key.clone(), target.clone()))
                .collect();
            assert_same(&read, &wanted, format);
        }

        let refusals = [
            (
                "/api/translations/demo/app/ja/file/?q=state:empty",
                "q",
                "Query string is ignored without format",
            ),
            (
                "/api/translations/demo/app/ja/file/?format=docx",
                "format",
                "Conversion to docx is not supported",
            ),
            (
                "/api/translations/demo/app/ja/file/?format=json",
                "format",
                "File format is not compatible with this translation",
            ),
            (
                "/api/translations/demo/countries/ar/file/?format=mo",
                "format",
                "File format is not compatible with this translation",
            ),
        ];
        for (uri, attr, detail) in refusals {
            let refused = download(&app, uri, admin).await;
            assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{uri}");
            assert_eq!(
                common::error_items(&refused.json()),
                [(attr.to_owned(), "invalid".to_owned(), detail.to_owned())],
                "{uri}"
            );
        }
        let bad_query = download(
            &app,
            "/api/translations/demo/app/ja/file/?format=po&q=(",
            admin,
        )
        .await;
        assert_eq!(bad_query.status, StatusCode::BAD_REQUEST);
        assert_eq!(common::error_items(&bad_query.json())[0].0, "q");
        // A hidden translation stays hidden whatever the format.
        common::make_private(&ctx, "demo");
        let hidden = call(
            &app,
            Method::GET,
            "/api/translations/demo/app/ja/file/?format=po",
            None,
            Body::None,
        )
        .await;
        assert_eq!(hidden.status, StatusCode::NOT_FOUND);
    }
}

#[actix_web::test]
async fn properties_keys_convert_as_their_text() {
    for db in TestDb::all() {
        // The corpus's catalogues, each with one key written with escapes.
        let file = |name: &str, extra: &str| {
            let path =
                format!("properties/hibernate-validator-ValidationMessages{name}.properties");
            let mut bytes = std::fs::read(common::corpus(&path)).unwrap();
            bytes.extend_from_slice(extra.as_bytes());
            bytes
        };
        let upstream = tolk_service::vcs_testing::Upstream::new(&[
            (
                "messages/en.properties",
                file("", "\ncaf\\u00e9\\ bar=Coffee bar\n"),
            ),
            (
                "messages/de.properties",
                file("_de", "\ncaf\\u00e9\\ bar=Kaffeebar\n"),
            ),
        ]);
        let ctx = common::context(db, &upstream);
        common::add_component(
            &ctx,
            tolk_domain::component::ComponentSettings {
                name: "Messages".into(),
                slug: "messages".into(),
                repo: upstream.url(),
                filemask: "messages/*.properties".into(),
                template: "messages/en.properties".into(),
                file_format: "properties".into(),
                ..Default::default()
            },
        );
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = ctx.admin.as_str();
        // The key as written names the string in the API, as in Weblate.
        let units = get_json(
            &app,
            "/api/translations/demo/messages/de/units/?q=target:Kaffeebar",
            Some(admin),
        )
        .await;
        assert_eq!(units["results"][0]["context"], "caf\\u00e9\\ bar");
        let got = download(
            &app,
            "/api/translations/demo/messages/de/file/?format=json",
            admin,
        )
        .await;
        assert_eq!(got.status, StatusCode::OK, "{}", got.text());
        let json: Value = serde_json::from_slice(&got.body).unwrap();
        assert_eq!(json["café bar"], "Kaffeebar", "{json}");
        assert!(json.get("caf\\u00e9\\ bar").is_none());
        let po = download(
            &app,
            "/api/translations/demo/messages/de/file/?format=po",
            admin,
        )
        .await;
        assert!(
            String::from_utf8_lossy(&po.body).contains("msgctxt \"café bar\""),
            "{}",
            po.text()
        );
    }
}

/// The names and contents of a ZIP download's entries.
fn entries(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..archive.len())
        .map(|i| {
            let mut entry = archive.by_index(i).unwrap();
            let mut content = Vec::new();
            std::io::Read::read_to_end(&mut entry, &mut content).unwrap();
            (entry.name().unwrap().into_owned(), content)
        })
        .collect()
}

#[actix_web::test]
async fn components_and_projects_download_as_zip_archives() {
    for db in TestDb::all() {
        let (upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = ctx.admin.as_str();
        // A pending edit is committed before the files are read.
        let unit = first_japanese(&app, admin).await;
        translate(&app, admin, &unit, "圧縮").await;

        let zip = download(&app, "/api/components/demo/app/file/", admin).await;
        assert_eq!(zip.status, StatusCode::OK, "{}", zip.text());
        assert_eq!(zip.header("content-type"), Some("application/zip"));
        assert_eq!(zip.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(
            zip.header("content-disposition"),
            Some("attachment; filename=\"demo-app.zip\"")
        );
        let files = entries(&zip.body);
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "demo/app/po/ar.po",
                "demo/app/po/ja.po",
                "demo/app/po/pt_BR.po",
                "demo/app/po/ru.po"
            ]
        );
        let japanese = download(&app, "/api/translations/demo/app/ja/file/", admin).await;
        assert_eq!(files[1].1, japanese.body);
        assert!(String::from_utf8_lossy(&files[1].1).contains("msgstr \"圧縮\""));

        // Converted, for one language, and refused where it cannot be.
        let csv = download(
            &app,
            "/api/components/demo/app/file/?format=zip:csv&language_code=ja",
            admin,
        )
        .await;
        let files = entries(&csv.body);
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].0, "demo-app-ja.csv");
        let direct = download(
            &app,
            "/api/translations/demo/app/ja/file/?format=csv",
            admin,
        )
        .await;
        assert_eq!(files[0].1, direct.body);
        let json = download(
            &app,
            "/api/components/demo/app/file/?format=zip:json",
            admin,
        )
        .await;
        let files = entries(&json.body);
        // Every translation, the source language's too, says why it is not there.
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names.len(), 5, "{names:?}");
        assert!(names.contains(&"demo-app-ar.json.skipped"), "{names:?}");
        for (_, content) in &files {
            assert_eq!(
                content,
                b"File format is not compatible with this translation\n"
            );
        }
        let unknown = download(
            &app,
            "/api/components/demo/app/file/?format=zip:docx",
            admin,
        )
        .await;
        assert_eq!(unknown.status, StatusCode::NOT_FOUND);

        // A project's archive holds each component it lets the caller download.
        common::countries_component(&ctx, &upstream);
        let project = download(&app, "/api/projects/demo/file/?language_code=ar", admin).await;
        assert_eq!(
            project.header("content-disposition"),
            Some("attachment; filename=\"demo.zip\"")
        );
        let names: Vec<String> = entries(&project.body).into_iter().map(|(n, _)| n).collect();
        assert_eq!(
            names,
            [
                "demo/app/po/ar.po",
                "demo/countries/countries/ar.json",
                "demo/countries/countries/en.json"
            ]
        );
        // One language across the project's components (§8.5), the same
        // entries; a filter keeps components whose slug holds its text.
        let language = download(&app, "/api/projects/demo/languages/ar/file/", admin).await;
        assert_eq!(language.status, StatusCode::OK, "{}", language.text());
        assert_eq!(
            language.header("content-disposition"),
            Some("attachment; filename=\"demo-ar.zip\"")
        );
        assert_eq!(entries(&language.body), entries(&project.body));
        let filtered = download(
            &app,
            "/api/projects/demo/languages/ar/file/?filter=COUNT&format=zip:csv",
            admin,
        )
        .await;
        assert_eq!(filtered.status, StatusCode::OK, "{}", filtered.text());
        let names: Vec<String> = entries(&filtered.body)
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(names, ["demo-countries-ar.csv"]);
        // A language the project lacks is an empty archive, an unknown one 404.
        let absent = download(&app, "/api/projects/demo/languages/de/file/", admin).await;
        assert_eq!(absent.status, StatusCode::OK);
        assert!(entries(&absent.body).is_empty());
        let unknown = download(&app, "/api/projects/demo/languages/xx-nowhere/file/", admin).await;
        assert_eq!(unknown.status, StatusCode::NOT_FOUND);

        common::make_private(&ctx, "demo");
        let hidden = call(
            &app,
            Method::GET,
            "/api/projects/demo/file/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(hidden.status, StatusCode::NOT_FOUND);
    }
}

#[actix_web::test]
async fn statistics_export_per_translation_and_per_language() {
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let get = |uri: &'static str| {
            let app = &app;
            async move { call(app, Method::GET, uri, None, Body::None).await }
        };
        let json = get("/exports/stats/demo/app/").await;
        assert_eq!(json.status, StatusCode::OK, "{}", json.text());
        assert!(
            json.text().starts_with("[\n  {\n    \"name\": "),
            "{}",
            json.text()
        );
        let rows = json.json();
        let codes: Vec<&str> = rows
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["code"].as_str().unwrap())
            .collect();
        assert_eq!(codes, ["ar", "en", "ja", "pt_BR", "ru"]);
        let japanese = &rows[2];
        let api = get_json(&app, "/api/translations/demo/app/ja/statistics/", None).await;
        for key in [
            "total",
            "translated",
            "translated_percent",
            "fuzzy",
            "failing",
            "approved",
            "url",
            "translate_url",
        ] {
            assert_eq!(japanese[key], api[key], "{key}");
        }
        assert_eq!(japanese["url_translate"], api["translate_url"]);

        let csv = get("/exports/stats/demo/app/?format=csv").await;
        assert_eq!(
            csv.header("content-disposition"),
            Some("attachment; filename=\"stats-demo-app.csv\"")
        );
        let text = csv.text();
        let mut lines = text.split("\r\n");
        assert_eq!(
            lines.next(),
            Some(
                "name,code,total,translated,translated_percent,translated_words_percent,total_words,\
                 translated_words,total_chars,translated_chars,translated_chars_percent,failing,\
                 failing_percent,fuzzy,fuzzy_percent,url_translate,url,translate_url,last_change,\
                 last_author,recent_changes,readonly,readonly_percent,approved,approved_percent,\
                 suggestions,comments"
            )
        );
        assert_eq!(lines.filter(|l| !l.is_empty()).count(), 5);

        let project = get("/exports/stats/demo/?format=csv").await;
        assert_eq!(
            project.header("content-disposition"),
            Some("attachment; filename=\"stats-demo.csv\"")
        );
        let languages = get_json(&app, "/api/projects/demo/languages/", None).await;
        let rows = project
            .text()
            .split("\r\n")
            .filter(|l| !l.is_empty())
            .count();
        assert_eq!(rows, languages.as_array().unwrap().len() + 1);

        common::make_private(&ctx, "demo");
        let hidden = get("/exports/stats/demo/app/").await;
        assert_eq!(hidden.status, StatusCode::NOT_FOUND);
    }
}

#[actix_web::test]
async fn entity_tags_spare_downloads_of_what_did_not_change() {
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = ctx.admin.as_str();
        let unit = first_japanese(&app, admin).await;
        let file = "/api/translations/demo/app/ja/file/?format=po";
        let tag_of = |reply: &Reply| reply.header("etag").unwrap().to_owned();
        let first_unit = download(&app, &unit, admin).await;
        let first_file = download(&app, file, admin).await;
        let (unit_tag, file_tag) = (tag_of(&first_unit), tag_of(&first_file));
        let again = |uri: String, tag: String| {
            let app = &app;
            async move {
                let req = test::TestRequest::get()
                    .uri(&uri)
                    .insert_header(("host", common::HOST))
                    .insert_header(("Authorization", format!("Token {admin}")))
                    .insert_header(("If-None-Match", tag))
                    .to_request();
                test::call_service(app, req).await
            }
        };
        for (uri, tag) in [
            (unit.clone(), unit_tag.clone()),
            (file.to_owned(), file_tag.clone()),
        ] {
            let unchanged = again(uri.clone(), tag.clone()).await;
            assert_eq!(unchanged.status(), StatusCode::NOT_MODIFIED, "{uri}");
            assert_eq!(
                unchanged.headers().get("etag").unwrap().to_str().unwrap(),
                tag
            );
            let body = test::read_body(unchanged).await;
            assert!(body.is_empty());
        }
        // An edit changes both: they are sent again, with new tags.
        translate(&app, admin, &unit, "タグ").await;
        for (uri, tag) in [(unit.clone(), unit_tag), (file.to_owned(), file_tag)] {
            let changed = again(uri.clone(), tag.clone()).await;
            assert_eq!(changed.status(), StatusCode::OK, "{uri}");
            assert_ne!(
                changed.headers().get("etag").unwrap().to_str().unwrap(),
                tag
            );
        }
    }
}

/// Every Git process the service has run, whatever its subcommand.
fn git_processes(ctx: &common::Ctx) -> u64 {
    let operations = ctx.service.site().operations().unwrap();
    operations
        .git
        .iter()
        .map(|(_, tally)| tally.succeeded + tally.failed)
        .sum()
}

#[actix_web::test]
async fn a_file_as_stored_is_read_without_a_git_process() {
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = ctx.admin.as_str();
        let file = "/api/translations/demo/app/ja/file/";
        // The first download commits the pending edit, which takes Git.
        let unit = first_japanese(&app, admin).await;
        translate(&app, admin, &unit, "保存済み").await;
        let first = download(&app, file, admin).await;
        assert_eq!(first.status, StatusCode::OK, "{}", first.text());
        assert!(
            first.text().contains("msgstr \"保存済み\""),
            "{}",
            first.text()
        );

        // Then a thousand downloads read the work tree and its index alone.
        let before = git_processes(&ctx);
        for _ in 0..1000 {
            let again = download(&app, file, admin).await;
            assert_eq!(again.status, StatusCode::OK);
            assert_eq!(again.body, first.body);
        }
        assert_eq!(git_processes(&ctx), before, "Git processes on reads");
    }
}
