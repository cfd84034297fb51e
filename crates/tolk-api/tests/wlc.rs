//! Weblate's own command-line client, `wlc` (from PyPI), against Tolk
//! served over HTTP, on a component cloned from a real repository. The
//! test needs `wlc` on the `PATH`: without it, it says so and passes,
//! unless `TOLK_REQUIRE_WLC=1` (as CI sets) makes that a failure.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use std::process::Command;

use common::{Served, context, upstream};
use serde_json::{Value, json};
use tolk_domain::permission::Subject;
use tolk_service::testing::TestDb;

/// Runs `wlc --format json ARGS` against `served`; its output, read as
/// JSON when there is any.
fn wlc(served: &Served, token: &str, args: &[&str]) -> Value {
    let stdout = wlc_text(served, token, args);
    if stdout.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("wlc {args:?} ({e}): {stdout}"))
    }
}

/// Runs `wlc --format json ARGS` against `served`; its output as text.
fn wlc_text(served: &Served, token: &str, args: &[&str]) -> String {
    let url = format!("http://{}/api/", served.address);
    let out = Command::new("wlc")
        .args(["--url", &url, "--key", token, "--format", "json"])
        .args(args)
        .env("HOME", std::env::temp_dir())
        .output()
        .expect("wlc runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "wlc {args:?}: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout.into_owned()
}

fn wlc_available() -> bool {
    let found = Command::new("wlc").arg("--version").output().is_ok();
    if !found {
        assert!(
            std::env::var("TOLK_REQUIRE_WLC").as_deref() != Ok("1"),
            "wlc is required (pip install wlc)"
        );
        eprintln!("wlc is not installed: skipping (pip install wlc)");
    }
    found
}

#[test]
fn wlc_manages_a_component() {
    if !wlc_available() {
        return;
    }
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let served = Served::start(ctx.state(), 1);
        let token = ctx.admin.as_str();

        let version = wlc_text(&served, token, &["version"]);
        assert!(version.contains("3.0.0"), "{version}");
        let projects = wlc(&served, token, &["list-projects"]);
        assert_eq!(common::pluck(&projects, "slug"), json!(["demo"]));
        let languages = wlc(&served, token, &["list-languages"]);
        let codes = common::pluck(&languages, "code");
        assert!(
            codes.as_array().unwrap().len() > 500
                && codes.as_array().unwrap().contains(&json!("ja")),
            "{codes}"
        );
        let listed = wlc(&served, token, &["list-components"]);
        assert_eq!(common::pluck(&listed, "slug"), json!(["app"]));
        let contents = wlc(&served, token, &["ls", "demo"]);
        assert_eq!(common::pluck(&contents, "slug"), json!(["app"]));
        let shown = wlc(&served, token, &["show", "demo/app"]);
        assert_eq!(
            (shown["name"].clone(), shown["filemask"].clone()),
            (json!("App"), json!("po/*.po"))
        );
        let translations = wlc(&served, token, &["list-translations", "demo/app"]);
        assert_eq!(translations.as_array().unwrap().len(), 5);
        let found = wlc(
            &served,
            token,
            &[
                "list-units",
                "-q",
                "arabic NOT source:algerian",
                "demo/app/ja",
            ],
        );
        let sources: Vec<&Value> = found
            .as_array()
            .unwrap()
            .iter()
            .map(|u| &u["source"])
            .collect();
        assert_eq!(sources, [&json!(["Arabic"])], "{found}");
        let word = wlc(
            &served,
            token,
            &["list-units", "-q", "ARABIC", "demo/app/ja"],
        );
        assert_eq!(
            word.as_array().unwrap().len(),
            2,
            "Arabic and Algerian Arabic: {word}"
        );

        assert_eq!(
            wlc(&served, token, &["lock-status", "demo/app"]),
            json!({"locked": false})
        );
        wlc(&served, token, &["lock", "demo/app"]);
        assert_eq!(
            wlc(&served, token, &["lock-status", "demo/app"]),
            json!({"locked": true})
        );
        wlc(&served, token, &["unlock", "demo/app"]);
        assert_eq!(
            wlc(&served, token, &["lock-status", "demo/app"]),
            json!({"locked": false})
        );

        // Statistics and changes, as wlc shows them.
        let stats = wlc(&served, token, &["stats", "demo/app/ja"]);
        let all = ctx
            .service
            .units()
            .list(
                &Subject::System,
                Some(("demo", "app", "ja")),
                None,
                tolk_service::PageRequest {
                    number: Some(1),
                    size: 1,
                },
            )
            .unwrap()
            .count;
        assert_eq!(stats["total"], json!(all), "{stats}");
        assert_eq!(stats["code"], json!("ja"), "{stats}");
        let changes = wlc(&served, token, &["changes", "demo/app"]);
        let actions: Vec<&Value> = changes
            .as_array()
            .unwrap()
            .iter()
            .map(|c| &c["action_name"])
            .collect();
        assert!(actions.contains(&&json!("Component locked")), "{changes}");

        let unit = ctx
            .service
            .units()
            .list(
                &Subject::System,
                Some(("demo", "app", "ja")),
                Some("state:translated"),
                tolk_service::PageRequest {
                    number: Some(1),
                    size: 1,
                },
            )
            .unwrap()
            .items
            .remove(0);
        let id = unit.unit.id.to_string();
        let edited = wlc(
            &served,
            token,
            &[
                "edit-unit",
                &id,
                "--target",
                "wlc で訳した",
                "--state",
                "20",
            ],
        );
        assert_eq!(edited, Value::Null, "edit-unit prints nothing");
        let stored = ctx
            .service
            .units()
            .get(&Subject::System, unit.unit.id)
            .unwrap();
        assert_eq!(
            (stored.unit.target.as_str(), stored.unit.state),
            ("wlc で訳した", 20)
        );
        let repo = wlc(&served, token, &["repo", "demo/app"]);
        assert_eq!(repo["needs_commit"], true);
        wlc(&served, token, &["commit", "demo/app"]);
        let repo = wlc(&served, token, &["repo", "demo/app"]);
        assert_eq!(
            (repo["needs_commit"].clone(), repo["needs_push"].clone()),
            (json!(false), json!(true))
        );
        wlc(&served, token, &["push", "demo/app"]);
        assert!(
            upstream
                .file("po/ja.po")
                .contains("msgstr \"wlc で訳した\"")
        );
        assert_eq!(
            wlc(&served, token, &["repo", "demo/app"])["needs_push"],
            false
        );

        upstream.developer_edits(
            "po/ja.po",
            "msgstr \"wlc で訳した\"",
            "msgstr \"開発者の訳\"",
        );
        wlc(&served, token, &["pull", "demo/app"]);
        let pulled = ctx
            .service
            .units()
            .get(&Subject::System, unit.unit.id)
            .unwrap();
        assert_eq!(pulled.unit.target, "開発者の訳");
        wlc(&served, token, &["reset", "demo/app"]);
        wlc(&served, token, &["cleanup", "demo/app"]);
        let project = wlc(&served, token, &["repo", "demo"]);
        assert_eq!(project["needs_commit"], false);

        // A translation removed, in the database and in the repository.
        wlc(&served, token, &["delete", "demo/app/ar"]);
        let translations = wlc(&served, token, &["list-translations", "demo/app"]);
        let codes = common::pluck(&translations, "language_code");
        assert!(!codes.as_array().unwrap().contains(&json!("ar")), "{codes}");
    }
}

#[test]
fn wlc_downloads_and_uploads_files() {
    if !wlc_available() {
        return;
    }
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let served = Served::start(ctx.state(), 1);
        let token = ctx.admin.as_str();
        let dir = tempfile::tempdir().unwrap();
        let path = |name: &str| dir.path().join(name).to_string_lossy().into_owned();

        // A translation, converted on the server, and as stored.
        for (convert, starts) in [("csv", "\"location\",\"source\""), ("po", "msgid \"\"")] {
            let out = path(&format!("ja.{convert}"));
            let args = [
                "download",
                "demo/app/ja",
                "--convert",
                convert,
                "--output",
                &out,
            ];
            assert_eq!(wlc(&served, token, &args), Value::Null);
            let text = std::fs::read_to_string(&out).unwrap();
            assert!(text.starts_with(starts), "{convert}: {text:.80}");
        }
        let stored = path("ja.po");
        wlc(
            &served,
            token,
            &["download", "demo/app/ja", "--output", &stored],
        );
        let catalogue = std::fs::read_to_string(&stored).unwrap();
        assert!(
            catalogue.contains("\"Language: ja\\n\""),
            "{catalogue:.300}"
        );

        // A component: its ZIP archive in the output directory.
        let said = wlc_text(
            &served,
            token,
            &["download", "demo/app", "--output", &path("zips")],
        );
        assert_eq!(said, "downloaded translations for component: demo/app\n");
        let zip = std::fs::read(path("zips/demo-app.zip")).unwrap();
        let archive = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
        let names: Vec<String> = archive
            .file_names()
            .map(|name| name.unwrap().into_owned())
            .collect();
        assert!(names.iter().any(|n| n == "demo/app/po/ja.po"), "{names:?}");

        // The downloaded catalogue with one translation changed, uploaded back.
        let (source, old) = ("Arabic", "msgid \"Arabic\"\nmsgstr \"アラビア語\"");
        assert!(
            catalogue.contains(old),
            "{source} is translated in the corpus"
        );
        let edited = catalogue.replace(old, "msgid \"Arabic\"\nmsgstr \"アラビア語 (wlc)\"");
        std::fs::write(&stored, edited).unwrap();
        let args = ["upload", "demo/app/ja", "--input", &stored, "--overwrite"];
        assert_eq!(wlc(&served, token, &args), Value::Null);
        let units = ctx
            .service
            .units()
            .list(
                &Subject::System,
                Some(("demo", "app", "ja")),
                Some("source:=Arabic"),
                tolk_service::PageRequest {
                    number: Some(1),
                    size: 10,
                },
            )
            .unwrap();
        assert_eq!(units.items[0].unit.target, "アラビア語 (wlc)");
    }
}
