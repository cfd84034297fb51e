//! Components, translations, units, repositories and tasks over HTTP, on
//! real repositories holding corpus files, against Weblate's recorded
//! shapes; every test runs on each configured database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{
    Body, HOST, SITE, assert_same_shape, call, context, corpus, error_codes, get_json, pluck,
    sample, upstream,
};
use serde_json::{Value, json};
use tolk_service::testing::TestDb;
use tolk_service::vcs_testing::Upstream;

fn gettext(upstream: &Upstream) -> Value {
    json!({
        "name": "App",
        "slug": "app",
        "repo": upstream.url(),
        "filemask": "po/*.po",
        "file_format": "po",
        "license": "MIT",
    })
}

/// Weblate's sample with the keys only a newer Weblate has removed, and
/// `results[0]` for a list.
fn first(list: &Value) -> &Value {
    &list["results"][0]
}

#[actix_web::test]
async fn a_component_is_created_translated_and_pushed_over_http() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());

        let created = call(
            &app,
            Method::POST,
            "/api/projects/demo/components/",
            admin,
            Body::Json(gettext(&upstream)),
        )
        .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
        let url = format!("http://{HOST}/api/components/demo/app/");
        assert_eq!(created.header("location"), Some(url.as_str()));
        let component = created.json();
        assert_same_shape(&component, &sample("06-component-detail"), "component");
        let task_url = component["task_url"].as_str().unwrap().to_owned();
        assert!(task_url.starts_with(&format!("http://{HOST}/api/tasks/")));
        assert_eq!(component["repo"], upstream.url());
        assert_eq!(
            component["license_url"],
            "https://spdx.org/licenses/MIT.html"
        );
        assert_eq!(component["inherit_license"], false);
        assert_eq!(component["inherit_commit_message"], true);
        assert_eq!(
            component["effective_commit_message"],
            component["project"]["commit_message"]
        );

        let task_path = task_url.trim_start_matches(&format!("http://{HOST}"));
        let pending = get_json(&app, task_path, admin).await;
        assert_eq!(pending["completed"], false);
        assert_eq!(ctx.service.tasks().run_due().unwrap(), 1);
        let task = call(&app, Method::GET, task_path, admin, Body::None).await;
        assert_eq!(task.status, StatusCode::OK);
        let task = task.json();
        assert_same_shape(&task, &sample("40-task-detail"), "task");
        assert_eq!(
            (task["completed"].clone(), task["progress"].clone()),
            (json!(true), json!(100))
        );
        let anonymous_task = call(&app, Method::GET, task_path, None, Body::None).await;
        assert_eq!(
            anonymous_task.status,
            StatusCode::OK,
            "the project is public"
        );
        let no_list = call(&app, Method::GET, "/api/tasks/", admin, Body::None).await;
        assert_eq!(no_list.status, StatusCode::NOT_FOUND);

        let detail = get_json(&app, "/api/components/demo/app/", None).await;
        assert_eq!(detail["task_url"], Value::Null, "the task is done");
        assert_eq!(detail["branch"], "main", "the default branch is recorded");
        let listed = get_json(&app, "/api/components/", None).await;
        assert_eq!(listed["count"], 1);
        assert_eq!(first(&listed), &detail);
        let of_project = get_json(&app, "/api/projects/demo/components/", None).await;
        assert_same_shape(
            first(&of_project),
            first(&sample("04-project-components")),
            "listed",
        );
        assert!(first(&of_project).get("project").is_none());

        let translations = get_json(&app, "/api/components/demo/app/translations/", None).await;
        assert_eq!(
            pluck(&translations["results"], "language_code"),
            json!(["en", "ar", "ja", "pt_BR", "ru"]),
            "the source translation first, then the files by path"
        );
        assert_same_shape(
            first(&translations),
            first(&sample("08-component-translations")),
            "translation in list",
        );
        let ja = get_json(&app, "/api/translations/demo/app/ja/", None).await;
        assert_same_shape(&ja, &sample("10-translation-detail"), "translation");
        let codec = tolk_formats::parse(
            "po",
            "ja.po",
            &std::fs::read(corpus("po/django-conf-ja.po")).unwrap(),
        )
        .unwrap()
        .units();
        assert_eq!(ja["total"], codec.len());
        assert_eq!(ja["filename"], "po/ja.po");
        assert_eq!(ja["is_source"], false);
        assert_eq!(ja["web_url"], format!("{SITE}/projects/demo/app/ja/"));
        let all_translations = get_json(&app, "/api/translations/", None).await;
        assert_eq!(all_translations["count"], 5);

        let untranslated = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?q=state:%3Ctranslated",
            None,
        )
        .await;
        let count = untranslated["count"].as_u64().unwrap();
        assert_eq!(
            count,
            codec
                .iter()
                .filter(|u| matches!(
                    u.state,
                    tolk_formats::State::Untranslated | tolk_formats::State::Fuzzy
                ))
                .count() as u64
        );
        let bad_query = call(
            &app,
            Method::GET,
            "/api/translations/demo/app/ja/units/?q=colour:red",
            None,
            Body::None,
        )
        .await;
        assert_eq!(bad_query.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            error_codes(&bad_query.json()),
            vec![("q".into(), "invalid".into())]
        );
        // Nested parentheses (which anyone may send) are a 400, not a
        // stack overflow that takes the server down: 900 deep (1.8 KB) past
        // the depth limit, 3,500 deep (7 KB) past the length limit.
        for (depth, why) in [
            (900, "more than 64 deep"),
            (3_500, "no more than 2000 characters"),
        ] {
            let deep = format!(
                "/api/translations/demo/app/ja/units/?q={}state:empty{}",
                "%28".repeat(depth),
                "%29".repeat(depth)
            );
            let refused = call(&app, Method::GET, &deep, None, Body::None).await;
            assert_eq!(refused.status, StatusCode::BAD_REQUEST);
            assert!(refused.text().contains(why), "{}", refused.text());
        }
        let units = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?q=state:%3E%3Dtranslated",
            None,
        )
        .await;
        assert_same_shape(
            first(&units),
            first(&sample("11-translation-units")),
            "unit in list",
        );
        let unit = units["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["source"].as_array().unwrap().len() == 1)
            .unwrap()
            .clone();
        assert_eq!(unit["state"], 20);
        let unit_path = format!("/api/units/{}/", unit["id"]);
        let fetched = get_json(&app, &unit_path, None).await;
        assert_same_shape(&fetched, &sample("14-unit-detail"), "unit");
        assert_eq!(fetched, unit);

        let edit = json!({"target": ["Tolk の訳"], "state": 20});
        let anonymous_edit = call(
            &app,
            Method::PATCH,
            &unit_path,
            None,
            Body::Json(edit.clone()),
        )
        .await;
        assert_eq!(anonymous_edit.status, StatusCode::UNAUTHORIZED);
        let edited = call(&app, Method::PATCH, &unit_path, admin, Body::Json(edit)).await;
        assert_eq!(edited.status, StatusCode::OK, "{}", edited.text());
        assert_eq!(
            edited.json(),
            json!({"target": ["Tolk の訳"], "state": 20, "explanation": "", "extra_flags": "", "labels": []})
        );
        let after = get_json(&app, &unit_path, None).await;
        assert_eq!(after["pending"], true);

        let status = get_json(&app, "/api/components/demo/app/repository/", admin).await;
        assert_same_shape(&status, &sample("37-component-repository"), "repository");
        assert_eq!(status["needs_commit"], true);
        assert_eq!(status["pending_units"]["total"], 1);
        assert_eq!(status["weblate_commit"]["author"], "Dev <dev@example.com>");
        let anonymous_status = call(
            &app,
            Method::GET,
            "/api/components/demo/app/repository/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(anonymous_status.status, StatusCode::FORBIDDEN);
        let project_status = get_json(&app, "/api/projects/demo/repository/", admin).await;
        assert_same_shape(
            &project_status,
            &sample("38-project-repository"),
            "project repository",
        );
        assert_eq!(project_status["included_components"], json!(["demo/app"]));
        assert_eq!(project_status["needs_commit"], true);
        let translation_status =
            get_json(&app, "/api/translations/demo/app/ja/repository/", admin).await;
        assert_same_shape(
            &translation_status,
            &sample("39-translation-repository"),
            "translation repository",
        );

        let statistics = get_json(&app, "/api/translations/demo/app/ja/statistics/", None).await;
        assert_same_shape(
            &statistics,
            &sample("18-translation-statistics"),
            "statistics",
        );
        assert_eq!(statistics["translated"], ja["translated"]);
        assert_eq!(statistics["recent_changes"], 1);
        let per_translation = get_json(&app, "/api/components/demo/app/statistics/", None).await;
        assert_same_shape(
            &per_translation,
            &sample("17-component-statistics"),
            "component statistics",
        );
        assert_eq!(per_translation["count"], 5);

        let before = upstream.file("po/ja.po");
        let file = call(
            &app,
            Method::GET,
            "/api/translations/demo/app/ja/file/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(file.status, StatusCode::OK);
        assert_eq!(file.header("content-type"), Some("text/x-po"));
        assert_eq!(
            file.header("content-disposition"),
            Some("attachment; filename=\"demo-app-ja.po\"")
        );
        assert!(
            file.text().contains("msgstr \"Tolk の訳\""),
            "pending edits are written"
        );
        let modified = file.header("last-modified").unwrap().to_owned();
        let unchanged = test::call_service(
            &app,
            test::TestRequest::get()
                .uri("/api/translations/demo/app/ja/file/")
                .insert_header(("host", HOST))
                .insert_header(("if-modified-since", modified))
                .to_request(),
        )
        .await;
        assert_eq!(unchanged.status(), StatusCode::NOT_MODIFIED);
        let shared = get_json(&app, "/api/components/demo/app/links/", None).await;
        assert_eq!(
            shared["count"], 0,
            "the component is not shared into other projects"
        );
        let nowhere = call(
            &app,
            Method::GET,
            "/api/components/demo/nope/links/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(nowhere.status, StatusCode::NOT_FOUND);
        let committed = get_json(&app, "/api/components/demo/app/repository/", admin).await;
        assert_eq!(
            (
                committed["needs_commit"].clone(),
                committed["needs_push"].clone()
            ),
            (json!(false), json!(true)),
            "the download committed the edit"
        );

        let pushed = call(
            &app,
            Method::POST,
            "/api/components/demo/app/repository/",
            admin,
            Body::Json(json!({"operation": "push"})),
        )
        .await;
        assert_eq!(pushed.status, StatusCode::OK, "{}", pushed.text());
        assert_eq!(pushed.json(), json!({"result": true}));
        let after = upstream.file("po/ja.po");
        let changed: Vec<(&str, &str)> = before
            .lines()
            .zip(after.lines())
            .filter(|(a, b)| a != b)
            .collect();
        assert_eq!(changed.len(), 1, "{changed:?}");
        assert_eq!(changed[0].1, "msgstr \"Tolk の訳\"");
        let log = upstream.git(&["log", "-1", "--format=%an <%ae>", "main"]);
        assert_eq!(log.trim(), "admin <admin@example.com>");

        let changes = get_json(&app, "/api/components/demo/app/changes/", None).await;
        let actions = pluck(&changes["results"], "action_name");
        for name in ["Changes pushed", "Changes committed", "Translation changed"] {
            assert!(
                actions.as_array().unwrap().contains(&json!(name)),
                "{name} in {actions}"
            );
        }
        // The edit, after the history of the import: the file read
        // (each string added, then the file) by the server itself.
        let translation_changes = get_json(
            &app,
            "/api/translations/demo/app/ja/changes/?page_size=3",
            None,
        )
        .await;
        assert_eq!(
            pluck(&translation_changes["results"], "action_name"),
            json!([
                "Translation changed",
                "Resource updated",
                "String added in the repository"
            ])
        );
        let read = &translation_changes["results"][1];
        assert_eq!(
            read["details"],
            json!({"reason": "new file", "filename": "po/ja.po"})
        );
        assert_eq!(
            (&read["user"], &read["author"]),
            (&json!(null), &json!(null))
        );
        let ja = get_json(&app, "/api/translations/demo/app/ja/", None).await;
        assert_eq!(
            translation_changes["count"],
            ja["total"].as_i64().unwrap() + 2
        );
        assert_eq!(
            get_json(&app, "/api/translations/demo/app/ja/", None).await["last_author"],
            "admin"
        );

        let locked = call(
            &app,
            Method::POST,
            "/api/components/demo/app/lock/",
            admin,
            Body::Json(json!({"lock": true})),
        )
        .await;
        assert_eq!(locked.json(), json!({"locked": true}));
        let lock_state = get_json(&app, "/api/components/demo/app/lock/", None).await;
        assert_same_shape(&lock_state, &sample("36-component-lock"), "lock");
        assert_eq!(lock_state, json!({"locked": true}));
        let refused = call(
            &app,
            Method::PATCH,
            &unit_path,
            admin,
            Body::Json(json!({"target": ["again"], "state": 20})),
        )
        .await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        assert_eq!(
            refused.json()["errors"][0]["detail"],
            "This translation is currently locked."
        );
        call(
            &app,
            Method::POST,
            "/api/components/demo/app/lock/",
            admin,
            Body::Raw("application/x-www-form-urlencoded", "lock=false"),
        )
        .await;

        // reset-keep goes back to upstream but writes Tolk's translations again.
        let kept = json!({"target": ["保持される訳"], "state": 20});
        call(&app, Method::PATCH, &unit_path, admin, Body::Json(kept)).await;
        let reset = call(
            &app,
            Method::POST,
            "/api/components/demo/app/repository/",
            admin,
            Body::Json(json!({"operation": "reset-keep"})),
        )
        .await;
        assert_eq!(reset.json(), json!({"result": true}));
        let after_reset = get_json(&app, &unit_path, None).await;
        assert_eq!(after_reset["target"], json!(["保持される訳"]));
        let status = get_json(&app, "/api/components/demo/app/repository/", admin).await;
        assert_eq!(
            (status["needs_commit"].clone(), status["needs_push"].clone()),
            (json!(false), json!(true)),
            "the translation is committed again on top of upstream"
        );
        assert!(upstream.file("po/ja.po").contains("msgstr \"Tolk の訳\""));

        let removed = call(
            &app,
            Method::DELETE,
            "/api/translations/demo/app/ru/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(removed.status, StatusCode::NO_CONTENT, "{}", removed.text());
        let source_removal = call(
            &app,
            Method::DELETE,
            "/api/translations/demo/app/en/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(source_removal.status, StatusCode::FORBIDDEN);
        call(
            &app,
            Method::POST,
            "/api/projects/demo/repository/",
            admin,
            Body::Raw("application/x-www-form-urlencoded", "operation=push"),
        )
        .await;
        let files = upstream.git(&["ls-tree", "--name-only", "main", "po/"]);
        assert_eq!(files, "po/ar.po\npo/ja.po\npo/pt_BR.po\n");
        let subject = upstream.git(&["log", "-1", "--format=%s", "main"]);
        assert_eq!(subject.trim(), "chore(l10n): remove Russian translation");

        let deleted = call(
            &app,
            Method::DELETE,
            "/api/components/demo/app/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(deleted.status, StatusCode::NO_CONTENT);
        let gone = call(
            &app,
            Method::GET,
            "/api/components/demo/app/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(gone.status, StatusCode::NOT_FOUND);
    }
}

#[actix_web::test]
async fn a_monolingual_component_serves_its_base_file() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let created = call(
            &app,
            Method::POST,
            "/api/projects/demo/components/",
            admin,
            Body::Raw(
                "application/x-www-form-urlencoded",
                &format!(
                    "name=Countries&slug=countries&repo={}&filemask=countries/*.json&file_format=json-nested&template=countries/en.json",
                    upstream.url()
                ),
            ),
        )
        .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
        assert_eq!(
            created.json()["manage_units"],
            true,
            "a template turns it on"
        );
        ctx.service.tasks().run_due().unwrap();
        let base = call(
            &app,
            Method::GET,
            "/api/components/demo/countries/monolingual_base/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(base.status, StatusCode::OK);
        assert_eq!(base.header("content-type"), Some("application/json"));
        assert_eq!(
            base.body,
            std::fs::read(corpus("json-nested/i18n-iso-countries-en.json")).unwrap()
        );
        let none = call(
            &app,
            Method::GET,
            "/api/components/demo/countries/new_template/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(none.status, StatusCode::NOT_FOUND);
        let en = get_json(&app, "/api/translations/demo/countries/en/", None).await;
        assert_eq!(
            (en["is_template"].clone(), en["is_source"].clone()),
            (json!(true), json!(true))
        );
        let zh = get_json(&app, "/api/translations/demo/countries/zh_Hans/", None).await;
        assert_eq!(zh["total"], en["total"]);
        assert_eq!(zh["is_template"], false);

        // A forced rescan runs as a task the component shows until it is done.
        let scan = call(
            &app,
            Method::POST,
            "/api/components/demo/countries/repository/",
            admin,
            Body::Json(json!({"operation": "file-scan"})),
        )
        .await;
        assert_eq!(scan.json(), json!({"result": true}));
        let busy = get_json(&app, "/api/components/demo/countries/", None).await;
        assert!(
            busy["task_url"]
                .as_str()
                .is_some_and(|t| t.contains("/api/tasks/"))
        );
        assert_eq!(ctx.service.tasks().run_due().unwrap(), 1);
        let done = get_json(&app, "/api/components/demo/countries/", None).await;
        assert_eq!(done["task_url"], Value::Null);
        let synced = call(
            &app,
            Method::POST,
            "/api/translations/demo/countries/zh_Hans/repository/",
            admin,
            Body::Raw("application/x-www-form-urlencoded", "operation=file-sync"),
        )
        .await;
        assert_eq!(synced.json(), json!({"result": true}));
        let status = get_json(&app, "/api/components/demo/countries/repository/", admin).await;
        assert_eq!(
            status["needs_commit"], false,
            "rewriting unchanged files from the database changes nothing"
        );
    }
}

#[actix_web::test]
async fn bad_requests_change_nothing() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let bad = call(
            &app,
            Method::POST,
            "/api/projects/demo/components/",
            admin,
            Body::Json(json!({"name": "App", "slug": "app", "repo": upstream.url(), "filemask": "po/en.po", "file_format": "nope"})),
        )
        .await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST);
        let attrs: Vec<String> = error_codes(&bad.json())
            .into_iter()
            .map(|(a, _)| a)
            .collect();
        assert_eq!(attrs, vec!["filemask", "file_format"]);
        let jane = call(
            &app,
            Method::POST,
            "/api/projects/demo/components/",
            Some(ctx.jane.as_str()),
            Body::Json(gettext(&upstream)),
        )
        .await;
        assert_eq!(jane.status, StatusCode::FORBIDDEN);
        let listed = get_json(&app, "/api/components/", admin).await;
        assert_eq!(listed["count"], 0, "nothing was created");
        assert_eq!(
            ctx.service.tasks().run_due().unwrap(),
            0,
            "nothing was queued"
        );

        call(
            &app,
            Method::POST,
            "/api/projects/demo/components/",
            admin,
            Body::Json(gettext(&upstream)),
        )
        .await;
        ctx.service.tasks().run_due().unwrap();
        let operation = call(
            &app,
            Method::POST,
            "/api/components/demo/app/repository/",
            admin,
            Body::Json(json!({"operation": "teleport"})),
        )
        .await;
        assert_eq!(operation.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            error_codes(&operation.json()),
            vec![("operation".into(), "invalid_choice".into())]
        );
        let missing = call(
            &app,
            Method::POST,
            "/api/components/demo/app/repository/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(
            error_codes(&missing.json()),
            vec![("operation".into(), "required".into())]
        );
        let both_needed = call(
            &app,
            Method::PATCH,
            "/api/units/1/",
            admin,
            Body::Json(json!({"state": 20})),
        )
        .await;
        assert_eq!(both_needed.status, StatusCode::BAD_REQUEST);
        for path in [
            "/api/components/demo/nope/",
            "/api/translations/demo/app/xx/",
            "/api/translations/demo/app/xx/file/",
            "/api/units/999999/",
            "/api/units/abc/",
            "/api/tasks/00000000-0000-0000-0000-000000000000/",
        ] {
            let reply = call(&app, Method::GET, path, admin, Body::None).await;
            assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
        }
        let renamed = call(
            &app,
            Method::PATCH,
            "/api/components/demo/app/",
            admin,
            Body::Json(json!({"name": "Application", "priority": 7})),
        )
        .await;
        assert_eq!(
            error_codes(&renamed.json()),
            vec![("priority".into(), "invalid_choice".into())]
        );
        let detail = get_json(&app, "/api/components/demo/app/", admin).await;
        assert_eq!(detail["name"], "App", "a refused change changes nothing");
    }
}

#[actix_web::test]
async fn a_language_is_added_from_the_base_file() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let mut body = gettext(&upstream);
        body["new_base"] = json!("po/ja.po");
        call(
            &app,
            Method::POST,
            "/api/projects/demo/components/",
            admin,
            Body::Json(body),
        )
        .await;
        // A component of the project reading the same clone.
        let mirror = json!({"name": "Mirror", "slug": "mirror", "repo": "weblate://demo/app", "filemask": "po/*.po", "file_format": "po"});
        call(
            &app,
            Method::POST,
            "/api/projects/demo/components/",
            admin,
            Body::Json(mirror),
        )
        .await;
        ctx.service.tasks().run_due().unwrap();
        let mirrored = || async {
            let listed = get_json(&app, "/api/components/demo/mirror/translations/", admin).await;
            pluck(&listed["results"], "language_code")
                .as_array()
                .cloned()
                .unwrap_or_default()
        };
        assert!(!mirrored().await.contains(&json!("de")));
        let add = |code: &'static str, token: Option<&'static str>| {
            let app = &app;
            let token = token.map(|_| ctx.admin.clone());
            async move {
                call(
                    app,
                    Method::POST,
                    "/api/components/demo/app/translations/",
                    token.as_deref(),
                    Body::Raw(
                        "application/x-www-form-urlencoded",
                        &format!("language_code={code}"),
                    ),
                )
                .await
            }
        };
        let added = add("de", Some("admin")).await;
        assert_eq!(added.status, StatusCode::CREATED, "{}", added.text());
        let data = added.json()["data"].clone();
        assert!(data.get("component").is_none());
        assert_eq!(
            (data["language_code"].clone(), data["filename"].clone()),
            (json!("de"), json!("po/de.po"))
        );
        let base = std::fs::read(corpus("po/django-conf-ja.po")).unwrap();
        let strings = tolk_formats::parse("po", "ja.po", &base)
            .unwrap()
            .units()
            .len();
        assert_eq!(data["total"], strings, "the strings of the base file");
        assert_eq!(data["translated"], 0);
        let file = call(
            &app,
            Method::GET,
            "/api/translations/demo/app/de/file/",
            None,
            Body::None,
        )
        .await;
        assert!(
            file.text().contains("msgid \"Afrikaans\"\nmsgstr \"\""),
            "{}",
            file.text()
        );
        assert!(file.text().contains("Language: de"), "{}", file.text());
        let status = get_json(&app, "/api/components/demo/app/repository/", admin).await;
        assert_eq!(
            status["weblate_commit"]["summary"],
            "chore(l10n): add German translation"
        );
        assert_eq!(status["needs_commit"], false);
        assert!(
            mirrored().await.contains(&json!("de")),
            "the component sharing the clone reads the new file"
        );

        let again = add("de", Some("admin")).await;
        assert_eq!(again.status, StatusCode::BAD_REQUEST);
        assert_eq!(again.json()["errors"][0]["detail"], "Could not add 'de'!");
        let unknown = add("xx_nowhere", Some("admin")).await;
        assert_eq!(unknown.json()["errors"][0]["attr"], "language_code");
        let anonymous = add("fr", None).await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
        call(
            &app,
            Method::PATCH,
            "/api/components/demo/app/",
            admin,
            Body::Json(json!({"new_lang": "none"})),
        )
        .await;
        let refused = add("fr", Some("admin")).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        let listed = get_json(&app, "/api/components/demo/app/translations/", None).await;
        assert_eq!(
            listed["count"], 5,
            "en, the files but the base file, and de"
        );
        let removed = call(
            &app,
            Method::DELETE,
            "/api/translations/demo/app/de/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(removed.status, StatusCode::NO_CONTENT, "{}", removed.text());
        assert!(
            !mirrored().await.contains(&json!("de")),
            "the component sharing the clone lost the removed file"
        );
    }
}

#[actix_web::test]
async fn a_component_is_made_from_an_uploaded_archive() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let read = |name: &str| std::fs::read(corpus(name)).unwrap();
        let zipped = tolk_service::upload_testing::archive(&[
            (
                "countries/en.json",
                read("json-nested/i18n-iso-countries-en.json"),
            ),
            (
                "countries/ar.json",
                read("json-nested/i18n-iso-countries-ar.json"),
            ),
            ("README", b"uploaded\n".to_vec()),
        ]);
        let fields = [
            ("name", "Countries"),
            ("slug", "countries"),
            ("filemask", "countries/*.json"),
            ("file_format", "json-nested"),
            ("template", "countries/en.json"),
        ];
        let post = |body| {
            let app = &app;
            async move {
                call(
                    app,
                    Method::POST,
                    "/api/projects/demo/components/",
                    admin,
                    body,
                )
                .await
            }
        };
        let bad = post(common::multipart(
            &fields,
            &[("zipfile", "a.zip", b"not a zip")],
        ))
        .await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            error_codes(&bad.json()),
            vec![("zipfile".into(), "invalid".into())]
        );
        let mut elsewhere = fields;
        elsewhere[2] = ("filemask", "po/*.po");
        let unmatched = post(common::multipart(
            &elsewhere,
            &[("zipfile", "a.zip", &zipped)],
        ))
        .await;
        assert_eq!(
            unmatched.json()["errors"][0]["detail"],
            "The file mask did not match any files."
        );
        // Entries that would land outside the repository or in .git are
        // each named with the reason; nothing is staged.
        let hostile = tolk_service::upload_testing::archive(&[
            (
                "countries/en.json",
                read("json-nested/i18n-iso-countries-en.json"),
            ),
            ("/tmp/tolk-absolute.json", b"{}".to_vec()),
            ("../../tolk-parent.json", b"{}".to_vec()),
            (".git/config", b"[core]".to_vec()),
        ]);
        let refused = post(common::multipart(
            &fields,
            &[("zipfile", "h.zip", &hostile)],
        ))
        .await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            common::error_items(&refused.json()),
            vec![
                (
                    "zipfile".into(),
                    "invalid".into(),
                    "/tmp/tolk-absolute.json: an absolute path".into()
                ),
                (
                    "zipfile".into(),
                    "invalid".into(),
                    "../../tolk-parent.json: a path that leaves the repository".into()
                ),
                (
                    "zipfile".into(),
                    "invalid".into(),
                    ".git/config: a path inside Git's own directory".into()
                ),
            ]
        );
        let staged: Vec<_> = std::fs::read_dir(upstream.root().join("vcs"))
            .map(|d| d.flatten().map(|e| e.file_name()).collect())
            .unwrap_or_default();
        assert!(
            staged
                .iter()
                .all(|n| !n.to_string_lossy().starts_with(".upload")),
            "{staged:?}"
        );
        assert_eq!(
            ctx.service.tasks().run_due().unwrap(),
            0,
            "nothing was created"
        );

        let created = post(common::multipart(
            &fields,
            &[("zipfile", "countries.zip", &zipped)],
        ))
        .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
        let component = created.json();
        assert_eq!(
            (
                component["vcs"].clone(),
                component["repo"].clone(),
                component["branch"].clone()
            ),
            (json!("local"), json!("local:"), json!("main"))
        );
        assert_eq!(ctx.service.tasks().run_due().unwrap(), 1);
        let translations =
            get_json(&app, "/api/components/demo/countries/translations/", None).await;
        assert_eq!(
            pluck(&translations["results"], "language_code"),
            json!(["en", "ar"])
        );
        let base = get_json(&app, "/api/translations/demo/countries/en/", None).await;
        let ar = get_json(&app, "/api/translations/demo/countries/ar/", None).await;
        assert_eq!(ar["total"], base["total"]);

        let units = get_json(
            &app,
            "/api/translations/demo/countries/ar/units/?page_size=1",
            None,
        )
        .await;
        let path = format!("/api/units/{}/", first(&units)["id"]);
        let edit = json!({"target": ["من Tolk"], "state": 20});
        let edited = call(&app, Method::PATCH, &path, admin, Body::Json(edit)).await;
        assert_eq!(edited.status, StatusCode::OK, "{}", edited.text());
        let committed = call(
            &app,
            Method::POST,
            "/api/components/demo/countries/repository/",
            admin,
            Body::Json(json!({"operation": "commit"})),
        )
        .await;
        assert_eq!(committed.json(), json!({"result": true}));
        let status = get_json(&app, "/api/components/demo/countries/repository/", admin).await;
        assert_eq!(status["needs_commit"], false);
        assert_eq!(
            status["remote_commit"],
            Value::Null,
            "a local repository has no remote"
        );
        let file = call(
            &app,
            Method::GET,
            "/api/translations/demo/countries/ar/file/",
            None,
            Body::None,
        )
        .await;
        assert!(file.text().contains("من Tolk"));
        let leftovers: Vec<_> = std::fs::read_dir(upstream.root().join("vcs"))
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with(".upload-"))
            .collect();
        assert!(leftovers.is_empty(), "refused uploads leave nothing behind");
    }
}

/// Creates a component of `fields` in `demo` from the uploaded document
/// `name` (`docfile`); its `keys` as answered.
async fn from_document<S: common::TestApp<B>, B: actix_web::body::MessageBody>(
    app: &S,
    admin: Option<&str>,
    fields: &[(&str, &str)],
    (name, bytes): (&str, &[u8]),
    keys: &[&str],
) -> Vec<Value> {
    let created = call(
        app,
        Method::POST,
        "/api/projects/demo/components/",
        admin,
        common::multipart(fields, &[("docfile", name, bytes)]),
    )
    .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    let component = created.json();
    keys.iter().map(|key| component[*key].clone()).collect()
}

/// A document written for the tests of `tolk-formats`.
fn html_document(name: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tolk-formats/tests/documents")
            .join(name),
    )
    .unwrap()
}

#[actix_web::test]
async fn a_component_is_made_from_a_document() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let english = std::fs::read(corpus("json-nested/i18n-iso-countries-en.json")).unwrap();
        let fields = [
            ("name", "Document"),
            ("slug", "document"),
            ("file_format", "json-nested"),
        ];
        let seen = from_document(
            &app,
            admin,
            &fields,
            ("countries.json", &english),
            &["filemask", "template", "vcs", "repo"],
        )
        .await;
        assert_eq!(
            seen,
            vec![
                json!("document/*.json"),
                json!("document/en.json"),
                json!("local"),
                json!("local:")
            ],
            "the file mask is guessed from the document's name"
        );
        assert_eq!(ctx.service.tasks().run_due().unwrap(), 1);
        let translations =
            get_json(&app, "/api/components/demo/document/translations/", None).await;
        assert_eq!(
            pluck(&translations["results"], "language_code"),
            json!(["en"])
        );
        let base = get_json(&app, "/api/translations/demo/document/en/", None).await;
        let total = base["total"].as_u64().unwrap();
        assert!(total > 200, "every country is a string: {total}");
        let file = call(
            &app,
            Method::GET,
            "/api/components/demo/document/monolingual_base/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(file.body, english, "the document is stored unchanged");

        let placed = [
            ("name", "Placed"),
            ("slug", "placed"),
            ("file_format", "json-nested"),
            ("filemask", "strings/*/countries.json"),
        ];
        let seen = from_document(
            &app,
            admin,
            &placed,
            ("countries.json", &english),
            &["template"],
        )
        .await;
        assert_eq!(seen, [json!("strings/en/countries.json")]);
    }
}

/// An HTML or Markdown document uploaded as a component is split into its
/// strings; a new language starts as a copy of it, and a translated string
/// lands in the document's own markup, the rest byte for byte as uploaded.
#[actix_web::test]
async fn documents_are_translated_in_their_own_markup() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let page = html_document("guide.html");
        let fields = [
            ("name", "Guide"),
            ("slug", "guide"),
            ("file_format", "html"),
        ];
        let seen = from_document(
            &app,
            admin,
            &fields,
            ("guide.html", &page),
            &["filemask", "template", "new_base"],
        )
        .await;
        assert_eq!(
            seen,
            vec![
                json!("guide/*.html"),
                json!("guide/en.html"),
                json!("guide/en.html")
            ]
        );
        assert_eq!(ctx.service.tasks().run_due().unwrap(), 1);
        let source = get_json(&app, "/api/translations/demo/guide/en/", None).await;
        assert_eq!(source["total"], 24);

        let added = call(
            &app,
            Method::POST,
            "/api/components/demo/guide/translations/",
            admin,
            Body::Json(json!({"language_code": "cs"})),
        )
        .await;
        assert_eq!(added.status, StatusCode::CREATED, "{}", added.text());
        let cs = get_json(&app, "/api/translations/demo/guide/cs/", None).await;
        assert_eq!(
            (cs["total"].clone(), cs["translated"].clone()),
            (json!(24), json!(0))
        );
        let units = get_json(
            &app,
            "/api/translations/demo/guide/cs/units/?page_size=100",
            None,
        )
        .await;
        let heading = units["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["source"] == json!(["Getting started"]))
            .unwrap();
        assert!(
            heading["context"].as_str().unwrap().starts_with("h1:"),
            "{heading}"
        );
        let edit = json!({"target": ["Začínáme"], "state": 20});
        let url = format!("/api/units/{}/", heading["id"]);
        let edited = call(&app, Method::PATCH, &url, admin, Body::Json(edit)).await;
        assert_eq!(edited.status, StatusCode::OK, "{}", edited.text());

        let file = call(
            &app,
            Method::GET,
            "/api/translations/demo/guide/cs/file/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(file.status, StatusCode::OK);
        let expected = String::from_utf8(page.clone())
            .unwrap()
            .replace("<h1>Getting started</h1>", "<h1>Začínáme</h1>");
        assert_eq!(file.text(), expected);
        let cs = get_json(&app, "/api/translations/demo/guide/cs/", None).await;
        assert_eq!(cs["translated"], 1);

        // A Markdown document the same way: a quoted paragraph translated
        // over two lines keeps the quote's prefix on both.
        let readme = html_document("README.md");
        let fields = [
            ("name", "Readme"),
            ("slug", "readme"),
            ("file_format", "markdown"),
        ];
        let seen = from_document(&app, admin, &fields, ("README.md", &readme), &["template"]).await;
        assert_eq!(seen, [json!("readme/en.md")]);
        assert_eq!(ctx.service.tasks().run_due().unwrap(), 1);
        let added = call(
            &app,
            Method::POST,
            "/api/components/demo/readme/translations/",
            admin,
            Body::Json(json!({"language_code": "cs"})),
        )
        .await;
        assert_eq!(added.status, StatusCode::CREATED, "{}", added.text());
        let units = get_json(
            &app,
            "/api/translations/demo/readme/cs/units/?page_size=100",
            None,
        )
        .await;
        assert_eq!(units["count"], 23);
        let note = units["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["source"][0].as_str().unwrap().starts_with("**Note:**"))
            .unwrap();
        let edit = json!({"target": ["**Pozor:** místní repozitáře\njen s `TOLK_VCS_ALLOW_LOCAL=true`."], "state": 20});
        let url = format!("/api/units/{}/", note["id"]);
        let edited = call(&app, Method::PATCH, &url, admin, Body::Json(edit)).await;
        assert_eq!(edited.status, StatusCode::OK, "{}", edited.text());
        let file = call(
            &app,
            Method::GET,
            "/api/translations/demo/readme/cs/file/",
            admin,
            Body::None,
        )
        .await;
        let expected = String::from_utf8(readme).unwrap().replace(
            "**Note:** local repositories (`file://`) are refused unless\n> `TOLK_VCS_ALLOW_LOCAL=true` is set.",
            "**Pozor:** místní repozitáře\n> jen s `TOLK_VCS_ALLOW_LOCAL=true`.",
        );
        assert_eq!(file.text(), expected);
    }
}

/// A translated document in a repository is read against its template;
/// when upstream adds a paragraph to the template, the translation (now of
/// another structure) keeps its strings from the database, the new one
/// comes in untranslated, and the next commit writes the translation
/// anew in the template's new markup.
#[actix_web::test]
async fn a_translated_document_follows_its_template() {
    for db in TestDb::all() {
        let english = String::from_utf8(html_document("legacy.html")).unwrap();
        let translations = [
            (
                "Upgrading is safe: no settings changed.",
                "Přechod je bezpečný.",
            ),
            (
                "Searches with <TT>NOT</TT> work again",
                "Hledání s <TT>NOT</TT> funguje",
            ),
        ];
        let translate = |text: &str| {
            translations
                .iter()
                .fold(text.to_owned(), |text, (from, to)| text.replace(from, to))
        };
        let czech = translate(&english);
        let upstream = Upstream::new(&[
            ("docs/en.html", english.clone().into_bytes()),
            ("docs/cs.html", czech.clone().into_bytes()),
        ]);
        let ctx = context(db, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let component = json!({"name": "Docs", "slug": "docs", "repo": upstream.url(),
            "filemask": "docs/*.html", "template": "docs/en.html", "file_format": "html"});
        let created = call(
            &app,
            Method::POST,
            "/api/projects/demo/components/",
            admin,
            Body::Json(component),
        )
        .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
        assert_eq!(ctx.service.tasks().run_due().unwrap(), 1);
        let counts = |v: &Value| (v["total"].clone(), v["translated"].clone());
        let cs = get_json(&app, "/api/translations/demo/docs/cs/", None).await;
        assert_eq!(counts(&cs), (json!(13), json!(2)));

        let new = "<P>Read this first.\n<P>This release fixes";
        upstream.developer_edits("docs/en.html", "<P>This release fixes", new);
        let pulled = call(
            &app,
            Method::POST,
            "/api/components/demo/docs/repository/",
            admin,
            Body::Json(json!({"operation": "pull"})),
        )
        .await;
        assert_eq!(pulled.status, StatusCode::OK, "{}", pulled.text());
        ctx.service.tasks().run_due().unwrap();
        let cs = get_json(&app, "/api/translations/demo/docs/cs/", None).await;
        assert_eq!(counts(&cs), (json!(14), json!(2)), "kept from the database");
        let units = get_json(
            &app,
            "/api/translations/demo/docs/cs/units/?page_size=100",
            None,
        )
        .await;
        let units = units["results"].as_array().unwrap();
        let targets: Vec<&Value> = units
            .iter()
            .filter(|u| u["state"] == 20)
            .map(|u| &u["target"][0])
            .collect();
        assert_eq!(
            targets,
            [
                &json!("Přechod je bezpečný."),
                &json!("Hledání s <TT>NOT</TT> funguje")
            ]
        );
        let first = units
            .iter()
            .find(|u| u["source"] == json!(["Read this first."]))
            .unwrap();
        let edit = json!({"target": ["Nejdřív čtěte tohle."], "state": 20});
        let url = format!("/api/units/{}/", first["id"]);
        let edited = call(&app, Method::PATCH, &url, admin, Body::Json(edit)).await;
        assert_eq!(edited.status, StatusCode::OK, "{}", edited.text());

        let file = call(
            &app,
            Method::GET,
            "/api/translations/demo/docs/cs/file/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(
            file.text(),
            translate(&english.replacen("<P>This release fixes", new, 1))
                .replace("Read this first.", "Nejdřív čtěte tohle.")
        );
    }
}

#[actix_web::test]
async fn a_component_is_copied_with_its_pending_edits() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        let units = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?page_size=1",
            None,
        )
        .await;
        let unit = format!("/api/units/{}/", first(&units)["id"]);
        let edit = json!({"target": ["コピーされる訳"], "state": 20});
        let edited = call(&app, Method::PATCH, &unit, admin, Body::Json(edit)).await;
        assert_eq!(edited.status, StatusCode::OK, "{}", edited.text());
        assert_eq!(
            get_json(&app, "/api/users/admin/statistics/", admin).await,
            json!({"translated": 1, "suggested": 0, "uploaded": 0, "commented": 0, "languages": 0}),
            "the editor's counter follows the edit"
        );
        let post = |token, body| {
            let app = &app;
            async move {
                call(
                    app,
                    Method::POST,
                    "/api/projects/demo/components/",
                    token,
                    Body::Json(body),
                )
                .await
            }
        };

        let refused = post(
            admin,
            json!({"name": "Copy", "slug": "copy", "from_component": "demo/app",
                   "repo": "https://example.com/x.git", "filemask": "x/*.po"}),
        )
        .await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            common::error_items(&refused.json()),
            vec![
                (
                    "repo".into(),
                    "invalid".into(),
                    "This field can not be used when using from_component.".into()
                ),
                (
                    "filemask".into(),
                    "invalid".into(),
                    "This field can not be overridden when using from_component.".into()
                ),
            ]
        );
        let unknown = post(
            admin,
            json!({"name": "Copy", "slug": "copy", "from_component": "demo/nope"}),
        )
        .await;
        assert_eq!(
            error_codes(&unknown.json()),
            vec![("from_component".into(), "does_not_exist".into())]
        );
        let denied = post(
            jane,
            json!({"name": "Copy", "slug": "copy", "from_component": "demo/app"}),
        )
        .await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);
        assert_eq!(
            ctx.service.tasks().run_due().unwrap(),
            0,
            "nothing was made"
        );

        let copied = post(
            admin,
            json!({"name": "Copy", "slug": "copy", "from_component": "demo/app", "priority": 140}),
        )
        .await;
        assert_eq!(copied.status, StatusCode::CREATED, "{}", copied.text());
        let copy = copied.json();
        assert_eq!(
            (
                copy["filemask"].clone(),
                copy["vcs"].clone(),
                copy["priority"].clone()
            ),
            (json!("po/*.po"), json!("local"), json!(140))
        );
        let original = get_json(&app, "/api/components/demo/app/", None).await;
        let by_id = post(
            admin,
            json!({"name": "Second", "slug": "second", "from_component": original["id"]}),
        )
        .await;
        assert_eq!(by_id.status, StatusCode::CREATED, "{}", by_id.text());
        assert_eq!(ctx.service.tasks().run_due().unwrap(), 2);
        let languages = |slug: &str| {
            let app = &app;
            let path = format!("/api/components/demo/{slug}/translations/");
            async move {
                pluck(
                    &get_json(app, &path, None).await["results"],
                    "language_code",
                )
            }
        };
        assert_eq!(languages("copy").await, languages("app").await);
        let file = call(
            &app,
            Method::GET,
            "/api/translations/demo/copy/ja/file/",
            None,
            Body::None,
        )
        .await;
        assert!(
            file.text().contains("コピーされる訳"),
            "the pending edit was committed and copied"
        );
        let status = get_json(&app, "/api/components/demo/app/repository/", admin).await;
        assert_eq!(status["needs_commit"], false);

        let patched = call(
            &app,
            Method::PATCH,
            "/api/components/demo/copy/",
            admin,
            Body::Json(json!({"from_component": "demo/app"})),
        )
        .await;
        assert_eq!(
            common::error_items(&patched.json()),
            vec![(
                "from_component".into(),
                "invalid".into(),
                "This field is for creation only, use /file/ instead.".into()
            )]
        );
    }
}

#[actix_web::test]
async fn a_project_locks_and_unlocks_all_its_components() {
    for db in TestDb::all() {
        let (upstream, ctx) = common::with_gettext(db);
        common::countries_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let post = |uri: &'static str, body: Body<'static>| {
            let app = &app;
            async move { call(app, Method::POST, uri, admin, body).await }
        };
        let state = |uri: &'static str| {
            let app = &app;
            async move { get_json(app, uri, None).await["locked"].clone() }
        };
        assert_eq!(state("/api/projects/demo/lock/").await, json!(false));
        // One component locked: the project is not.
        post(
            "/api/components/demo/app/lock/",
            Body::Json(json!({"lock": true})),
        )
        .await;
        assert_eq!(state("/api/projects/demo/lock/").await, json!(false));

        let locked = post(
            "/api/projects/demo/lock/",
            Body::Json(json!({"lock": true})),
        )
        .await;
        assert_eq!(locked.status, StatusCode::OK, "{}", locked.text());
        assert_same_shape(&locked.json(), &sample("36-component-lock"), "lock");
        assert_eq!(locked.json(), json!({"locked": true}));
        assert_eq!(state("/api/projects/demo/lock/").await, json!(true));
        assert_eq!(
            state("/api/components/demo/countries/lock/").await,
            json!(true)
        );
        let units = get_json(&app, "/api/translations/demo/countries/ar/units/", admin).await;
        let unit = units["results"][0]["url"]
            .as_str()
            .unwrap()
            .replace(SITE, "");
        let refused = call(
            &app,
            Method::PATCH,
            &unit,
            admin,
            Body::Json(json!({"target": ["مقفل"], "state": 20})),
        )
        .await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        // A change for each component that changed, not for the one already locked.
        let changes = get_json(&app, "/api/projects/demo/changes/?page_size=100", None).await;
        let actions = pluck(&changes["results"], "action_name");
        let count = |name: &str| {
            actions
                .as_array()
                .unwrap()
                .iter()
                .filter(|a| *a == name)
                .count()
        };
        assert_eq!(count("Component locked"), 2);

        let missing = post("/api/projects/demo/lock/", Body::Json(json!({}))).await;
        assert_eq!(missing.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            error_codes(&missing.json()),
            [("lock".to_owned(), "required".to_owned())]
        );
        let unlocked = post(
            "/api/projects/demo/lock/",
            Body::Raw("application/x-www-form-urlencoded", "lock=false"),
        )
        .await;
        assert_eq!(unlocked.json(), json!({"locked": false}));
        assert_eq!(state("/api/components/demo/app/lock/").await, json!(false));
        let changes = get_json(&app, "/api/projects/demo/changes/?page_size=100", None).await;
        let actions = pluck(&changes["results"], "action_name");
        let unlocks = actions
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| *a == "Component unlocked")
            .count();
        assert_eq!(unlocks, 2);
    }
}

#[actix_web::test]
async fn a_file_removed_upstream_takes_its_translation_with_it() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let body = Body::Json(gettext(&upstream));
        call(
            &app,
            Method::POST,
            "/api/projects/demo/components/",
            admin,
            body,
        )
        .await;
        ctx.service.tasks().run_due().unwrap();
        let languages = || async {
            let listed = get_json(&app, "/api/components/demo/app/translations/", admin).await;
            pluck(&listed["results"], "language_code")
        };
        assert_eq!(languages().await, json!(["en", "ar", "ja", "pt_BR", "ru"]));

        let dev = upstream.developer();
        tolk_service::vcs_testing::git(&dev, &["rm", "--quiet", "po/ja.po"]);
        tolk_service::vcs_testing::git(&dev, &["commit", "--quiet", "-m", "no Japanese"]);
        tolk_service::vcs_testing::git(&dev, &["push", "--quiet", "origin", "main"]);
        common::operate(&app, admin, "demo/app", "pull").await;
        ctx.service.tasks().run_due().unwrap();
        assert_eq!(languages().await, json!(["en", "ar", "pt_BR", "ru"]));
        let gone = get_json(&app, "/api/translations/demo/app/ja/", admin).await;
        assert_eq!(gone["detail"], "Not found.");
        let changes = get_json(&app, "/api/components/demo/app/changes/", admin).await;
        let removed: Vec<&Value> = changes["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["action"] == 25)
            .collect();
        assert_eq!(removed.len(), 1, "{changes}");
        assert_eq!(removed[0]["target"], "Japanese");
        assert_eq!(removed[0]["user"], Value::Null, "the server removed it");
    }
}
