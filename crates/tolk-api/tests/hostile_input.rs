//! Hostile input answered alike on every database: NUL characters
//! (U+0000) in uploaded files, in files a pull brings, in paths and in
//! notification payloads; notification bodies past their cap; a
//! notification naming a repository by a very long name.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, call, context, get_json, multipart, upstream};
use serde_json::json;
use tolk_service::testing::TestDb;

/// Why a file holding a NUL is refused, after its name and line.
const NUL: &str = "a string holds a NUL character (U+0000), which Tolk does not store";

#[actix_web::test]
async fn a_nul_anywhere_is_refused_alike_on_every_database() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let arabic = || async {
            let found = get_json(
                &app,
                "/api/translations/demo/app/ja/units/?q=source:%3DArabic",
                None,
            )
            .await;
            found["results"][0]["target"].clone()
        };

        // Uploads in three formats: 400 naming the file and line, nothing changed.
        let po = b"msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n\
                   msgid \"Arabic\"\nmsgstr \"\xe3\x82\xa2\0\"\n"
            .to_vec();
        let csv = b"source,target\n\"Algerian Arabic\",\"x\"\n\"Arabic\",\"a\0b\"\n".to_vec();
        let json = b"{\n  \"Arabic\": \"a\\u0000b\"\n}\n".to_vec();
        for (name, bytes, line) in [
            ("ja.po", &po, 6),
            ("ja.csv", &csv, 3),
            ("ja.json", &json, 2),
        ] {
            let body = multipart(&[("method", "translate")], &[("file", name, bytes)]);
            let answer = call(
                &app,
                Method::POST,
                "/api/translations/demo/app/ja/file/",
                Some(&ctx.admin),
                body,
            )
            .await;
            let why = format!("{name}, line {line}: {NUL}");
            common::assert_refused(&answer, &[("file", "invalid", &why)]);
        }
        assert_eq!(arabic().await, json!(["アラビア語"]));

        // Paths: nothing has a NUL in its name.
        for path in [
            "/exports/rss/language/a%00b/",
            "/api/projects/demo%00/",
            "/api/translations/demo/app/j%00a/units/",
            "/api/languages/%00/",
        ] {
            let answer = call(&app, Method::GET, path, None, Body::None).await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
            assert_eq!(answer.json()["errors"][0]["code"], "not_found", "{path}");
        }

        // A notification naming a repository with a NUL.
        let payload = json!({
            "object_kind": "push",
            "ref": "refs/heads/main",
            "project": {"path_with_namespace": "acme/a\u{0}pp"},
            "repository": {"name": "a\u{0}pp", "url": upstream.url(),
                           "homepage": "https://gitlab.example/acme/a\u{0}pp"}
        });
        let answer = call(
            &app,
            Method::POST,
            "/hooks/gitlab/",
            None,
            Body::Json(payload),
        )
        .await;
        common::assert_refused(
            &answer,
            &[(
                "payload",
                "null_characters_not_allowed",
                "Null characters are not allowed.",
            )],
        );

        // A pull bringing a NUL: the file is left out with its line, as a
        // broken file is; the database keeps what it had.
        upstream.developer_edits("po/ja.po", "アラビア語", "アラビア\0語");
        let pulled = call(
            &app,
            Method::POST,
            "/api/components/demo/app/repository/",
            Some(&ctx.admin),
            Body::Json(json!({"operation": "pull"})),
        )
        .await;
        assert_eq!(pulled.status, StatusCode::OK, "{}", pulled.text());
        assert_eq!(arabic().await, json!(["アラビア語"]));
        let changes = get_json(&app, "/api/components/demo/app/changes/?action=24", None).await;
        let targets: Vec<String> = changes["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["target"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(
            targets,
            [format!("skipped po/ja.po: po/ja.po, line 40: {NUL}")]
        );
    }
}

#[actix_web::test]
async fn notification_bodies_are_capped_and_names_compared_as_text() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let gitlab = |name: String, padding: usize| {
            json!({
                "object_kind": "push",
                "ref": "refs/heads/main",
                "project": {"path_with_namespace": format!("acme/{name}")},
                "padding": "x".repeat(padding),
                "repository": {"name": name, "url": format!("https://gitlab.example/acme/{name}"),
                               "homepage": format!("https://gitlab.example/acme/{name}")}
            })
        };
        // A name of 60,000 characters, and one of SQL's wildcards: no
        // component, no server error.
        for name in ["a".repeat(60_000), "%".into(), "_pp".into()] {
            let answer = call(
                &app,
                Method::POST,
                "/hooks/gitlab/",
                None,
                Body::Json(gitlab(name, 0)),
            )
            .await;
            assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text());
            assert_eq!(
                answer.json()["match_status"],
                json!({"repository_matches": 0, "branch_matches": 0, "enabled_hook_matches": 0})
            );
        }
        // Past a mebibyte, the body is refused unread.
        let big = call(
            &app,
            Method::POST,
            "/hooks/gitlab/",
            None,
            Body::Json(gitlab("app".into(), 1 << 20)),
        )
        .await;
        assert_eq!(big.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", big.text());
    }
}

/// A file already cut short in Git (as a crash once left one, committed)
/// is never written over the strings the database holds: the commit
/// stops, says why, and the edit stays pending.
#[actix_web::test]
async fn a_commit_never_writes_a_file_with_fewer_strings_than_stored() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let found = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?q=source:%3DArabic",
            None,
        )
        .await;
        let unit = found["results"][0]["url"].as_str().unwrap().to_owned();
        let edit = json!({"target": ["アラビア語（新）"], "state": 20});
        let answer = call(
            &app,
            Method::PATCH,
            &unit,
            Some(&ctx.admin),
            Body::Json(edit),
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
        let stored = get_json(&app, "/api/translations/demo/app/ja/", None).await["total"].clone();

        let work = upstream.root().join("vcs/1");
        let head = b"msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n";
        std::fs::write(work.join("po/ja.po"), head).unwrap();
        let git = |args: &[&str]| tolk_service::vcs_testing::git(&work, args);
        git(&[
            "-c",
            "user.name=Crash",
            "-c",
            "user.email=crash@example.com",
            "commit",
            "--quiet",
            "-am",
            "cut short",
        ]);
        let before = git(&["rev-parse", "HEAD"]);

        let commit = call(
            &app,
            Method::POST,
            "/api/components/demo/app/repository/",
            Some(&ctx.admin),
            Body::Json(json!({"operation": "commit"})),
        )
        .await;
        assert_eq!(commit.status, StatusCode::OK, "{}", commit.text());
        let reply = commit.json();
        assert_eq!(reply["result"], json!(false), "{reply}");
        assert_eq!(
            reply["detail"],
            json!(format!(
                "po/ja.po: written, the file would hold 0 strings where {stored} are expected \
                 (the file on disk or in Git may be damaged), so it was not written; \
                 1 strings stay pending"
            ))
        );
        assert_eq!(git(&["rev-parse", "HEAD"]), before, "nothing committed");
        let unit = get_json(&app, &unit, None).await;
        assert_eq!(
            (unit["target"].clone(), unit["pending"].clone()),
            (json!(["アラビア語（新）"]), json!(true))
        );
    }
}
