//! `/api/projects/` against Weblate's recorded shapes.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, Ctx, HOST, SITE, assert_same_shape, call, error_codes, pluck, sample};
use serde_json::{Value, json};

fn demo() -> Value {
    json!({"name": "Demo", "slug": "demo", "web": "https://demo.example.com/", "instructions": "Reference fixture project."})
}

#[actix_web::test]
async fn create_read_update_delete() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let created = call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(demo()),
        )
        .await;
        assert_eq!(created.status, StatusCode::CREATED);
        assert_eq!(
            created.header("location"),
            Some(&*format!("http://{HOST}/api/projects/demo/"))
        );
        let project = created.json();
        assert_same_shape(&project, &sample("03-project-detail"), "project");
        assert_eq!(project["web_url"], format!("{SITE}/projects/demo/"));
        assert_eq!(
            project["statistics_url"],
            format!("http://{HOST}/api/projects/demo/statistics/")
        );
        assert_eq!(project["instructions"], "Reference fixture project.");
        assert_eq!(project["locked"], false);

        let anonymous = call(&app, Method::GET, "/api/projects/demo", None, Body::None).await;
        assert_eq!(anonymous.status, StatusCode::OK);
        assert_eq!(anonymous.json(), project);
        let listed = call(&app, Method::GET, "/api/projects/", None, Body::None)
            .await
            .json();
        assert_eq!(listed["count"], 1);
        assert_eq!(listed["results"][0], project);

        let patched = call(
            &app,
            Method::PATCH,
            "/api/projects/demo/",
            admin,
            Body::Json(json!({"name": "Demo 2", "license": "MIT", "commit_policy": 20, "enforced_checks": ["same"]})),
        )
        .await;
        assert_eq!(patched.status, StatusCode::OK, "{}", patched.text());
        let patched = patched.json();
        assert_eq!(patched["name"], "Demo 2");
        assert_eq!(patched["effective_license"], "MIT");
        assert_eq!(patched["commit_policy"], 20);
        assert_eq!(patched["effective_enforced_checks"], json!(["same"]));
        assert_eq!(
            patched["web"], "https://demo.example.com/",
            "untouched fields stay"
        );

        let replaced_without_web = call(
            &app,
            Method::PUT,
            "/api/projects/demo/",
            admin,
            Body::Json(json!({"name": "Demo 3", "slug": "demo"})),
        )
        .await;
        assert_eq!(replaced_without_web.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            error_codes(&replaced_without_web.json()),
            vec![("web".into(), "required".into())]
        );

        let changes = call(
            &app,
            Method::GET,
            "/api/projects/demo/changes/",
            admin,
            Body::None,
        )
        .await
        .json();
        let actions = pluck(&changes["results"], "action");
        for (action, what) in [
            (50, "created"),
            (41, "renamed"),
            (55, "license changed"),
            (95, "settings changed"),
        ] {
            assert!(
                actions.as_array().unwrap().contains(&json!(action)),
                "{what}: {actions}"
            );
        }
        let settings_change = changes["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["action"] == 95)
            .unwrap();
        assert_eq!(
            settings_change["details"]["fields"],
            json!(["commit_policy", "enforced_checks"])
        );
        assert_eq!(
            settings_change["user"],
            format!("http://{HOST}/api/users/admin/")
        );

        let removed = call(
            &app,
            Method::DELETE,
            "/api/projects/demo/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(removed.status, StatusCode::NO_CONTENT);
        assert!(removed.body.is_empty());
        let gone = call(&app, Method::GET, "/api/projects/demo/", admin, Body::None).await;
        assert_eq!(gone.status, StatusCode::NOT_FOUND);
        assert_eq!(gone.json()["detail"], "Not found.");
        let history = call(
            &app,
            Method::GET,
            "/api/changes/?action=39",
            admin,
            Body::None,
        )
        .await
        .json();
        assert_eq!(history["count"], 1);
        assert_eq!(history["results"][0]["target"], "Demo 2");
    }
}

#[actix_web::test]
async fn validation_errors_match_weblate() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let empty = call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(json!({})),
        )
        .await;
        assert_eq!(empty.status, StatusCode::BAD_REQUEST);
        let mut expected = sample("77-err-400-project-empty");
        expected["detail"] = json!("This field is required.");
        assert_eq!(empty.json(), expected);

        let invalid = call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(json!({"name": "", "slug": "not a slug", "web": "nope"})),
        )
        .await;
        let mut expected = sample("78-err-400-project-invalid");
        expected["detail"] = json!("This field may not be blank.");
        assert_eq!(invalid.json(), expected);

        call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(demo()),
        )
        .await;
        let duplicate = call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(demo()),
        )
        .await;
        let mut expected = sample("79-err-400-project-duplicate");
        expected["detail"] = json!("Project with this Project name already exists.");
        assert_eq!(duplicate.json(), expected);

        let typed = call(
            &app,
            Method::PATCH,
            "/api/projects/demo/",
            admin,
            Body::Json(json!({
                "commit_policy": 5, "translation_review": "perhaps", "enforced_checks": "same",
                "secondary_language": 999999, "new_lang": "maybe"
            })),
        )
        .await;
        assert_eq!(typed.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            error_codes(&typed.json()),
            vec![
                ("translation_review".into(), "invalid".into()),
                ("enforced_checks".into(), "not_a_list".into()),
            ],
            "type errors are reported before value checks run"
        );
        let values = call(
            &app,
            Method::PATCH,
            "/api/projects/demo/",
            admin,
            Body::Json(
                json!({"commit_policy": 5, "secondary_language": 999999, "new_lang": "maybe"}),
            ),
        )
        .await;
        assert_eq!(
            error_codes(&values.json()),
            vec![
                ("commit_policy".into(), "invalid_choice".into()),
                ("new_lang".into(), "invalid_choice".into()),
                ("secondary_language".into(), "does_not_exist".into()),
            ]
        );
        let unchanged = call(&app, Method::GET, "/api/projects/demo/", admin, Body::None)
            .await
            .json();
        assert_eq!(
            unchanged["commit_policy"], 0,
            "a rejected edit changes nothing"
        );
    }
}

#[actix_web::test]
async fn permissions_and_visibility() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        let denied = call(
            &app,
            Method::POST,
            "/api/projects/",
            jane,
            Body::Json(demo()),
        )
        .await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);
        assert_eq!(
            denied.json(),
            json!({"type": "client_error", "errors": [{"code": "permission_denied", "detail": "Can not create projects", "attr": null}], "detail": "Can not create projects"})
        );
        call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(demo()),
        )
        .await;
        let edit = call(
            &app,
            Method::PATCH,
            "/api/projects/demo/",
            jane,
            Body::Json(json!({"name": "X"})),
        )
        .await;
        assert_eq!(edit.status, StatusCode::FORBIDDEN);
        assert_eq!(edit.json()["detail"], "Can not edit project");
        let delete = call(
            &app,
            Method::DELETE,
            "/api/projects/demo/",
            jane,
            Body::None,
        )
        .await;
        assert_eq!(delete.json()["detail"], "Can not delete project");

        let mut private = demo();
        private["name"] = json!("Secret");
        private["slug"] = json!("secret");
        private["access_control"] = json!(100);
        let created = call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(private),
        )
        .await;
        assert_eq!(created.status, StatusCode::CREATED);
        for token in [None, jane] {
            let hidden = call(
                &app,
                Method::GET,
                "/api/projects/secret/",
                token,
                Body::None,
            )
            .await;
            assert_eq!(hidden.status, StatusCode::NOT_FOUND);
            let edit = call(
                &app,
                Method::PATCH,
                "/api/projects/secret/",
                jane,
                Body::Json(json!({})),
            )
            .await;
            assert_eq!(
                edit.status,
                StatusCode::NOT_FOUND,
                "hidden objects are 404, not 403"
            );
            let listed = call(&app, Method::GET, "/api/projects/", token, Body::None)
                .await
                .json();
            assert_eq!(listed["count"], 1);
            let changes = call(&app, Method::GET, "/api/changes/", token, Body::None)
                .await
                .json();
            assert!(
                changes["results"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|c| c["target"] != "Secret"),
                "changes of hidden projects stay hidden"
            );
        }
        let listed = call(&app, Method::GET, "/api/projects/", admin, Body::None)
            .await
            .json();
        assert_eq!(listed["count"], 2);
    }
}

#[actix_web::test]
async fn statistics_and_languages_of_an_empty_project() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(demo()),
        )
        .await;
        let stats = call(
            &app,
            Method::GET,
            "/api/projects/demo/statistics/",
            None,
            Body::None,
        )
        .await
        .json();
        assert_same_shape(&stats, &sample("16-project-statistics"), "statistics");
        assert_eq!(stats["total"], 0);
        assert_eq!(
            stats["translated_percent"], 100.0,
            "an empty project without review is complete"
        );
        assert_eq!(stats["approved_percent"], 0.0);
        assert_eq!(stats["name"], "Demo");
        assert_eq!(stats["url"], format!("{SITE}/projects/demo/"));
        let languages = call(
            &app,
            Method::GET,
            "/api/projects/demo/languages/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(languages.status, StatusCode::OK);
        assert_eq!(languages.json(), json!([]));
        let missing = call(
            &app,
            Method::GET,
            "/api/projects/nope/statistics/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(missing.status, StatusCode::NOT_FOUND);
    }
}

#[actix_web::test]
async fn statistics_and_languages_sum_translations() {
    use tolk_domain::stats::{Count, Counters};
    use tolk_service::testing::add_translation;
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let created = call(
            &app,
            Method::POST,
            "/api/projects/",
            Some(&ctx.admin),
            Body::Json(demo()),
        )
        .await
        .json();
        let project_id = created["id"].as_i64().unwrap();
        let count = |strings: i64, words: i64, chars: i64| Count {
            strings,
            words,
            chars,
        };
        let cs = Counters {
            total: count(1440, 4400, 27708),
            translated: count(1008, 3080, 19179),
            fuzzy: count(41, 126, 781),
            failing: 292,
            ..Counters::default()
        };
        let at = chrono::NaiveDate::from_ymd_opt(2026, 5, 4)
            .unwrap()
            .and_hms_opt(9, 0, 0)
            .unwrap();
        add_translation(&ctx.db.store, project_id, "app", "cs", &cs, at);

        let stats = call(
            &app,
            Method::GET,
            "/api/projects/demo/statistics/",
            None,
            Body::None,
        )
        .await
        .json();
        assert_same_shape(&stats, &sample("16-project-statistics"), "statistics");
        assert_eq!(stats["total"], 1440);
        assert_eq!(stats["translated_percent"], 70.0);
        assert_eq!(
            stats["translated_chars_percent"], 69.2,
            "percentages are truncated"
        );
        assert_eq!(stats["fuzzy_percent"], 2.8);
        assert_eq!(stats["failing_percent"], 20.2);
        assert_eq!(stats["last_change"], "2026-05-04T09:00:00.000000Z");

        let languages = call(
            &app,
            Method::GET,
            "/api/projects/demo/languages/",
            None,
            Body::None,
        )
        .await
        .json();
        assert_same_shape(&languages, &sample("20-project-languages"), "languages");
        assert_eq!(languages[0]["code"], "cs");
        assert_eq!(languages[0]["url"], format!("{SITE}/projects/demo/-/cs/"));
        assert_eq!(
            languages[0]["translate_url"],
            format!("{SITE}/translate/demo/-/cs/")
        );

        let listed = call(&app, Method::GET, "/api/languages/", None, Body::None)
            .await
            .json();
        assert_eq!(
            listed["count"], 1,
            "languages in use are listed for everybody"
        );
        assert_eq!(listed["results"][0]["code"], "cs");
        let language = call(
            &app,
            Method::GET,
            "/api/languages/cs/statistics/",
            None,
            Body::None,
        )
        .await
        .json();
        assert_eq!(language["total"], 1440);
        assert_eq!(language["approved_percent"], 0.0);
    }
}

#[actix_web::test]
async fn names_and_slugs_are_unique_whatever_their_case() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let created = call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(demo()),
        )
        .await;
        assert_eq!(created.status, StatusCode::CREATED);
        let clash = call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(json!({"name": "DEMO", "slug": "Demo", "web": "https://x.example/"})),
        )
        .await;
        assert_eq!(clash.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            error_codes(&clash.json()),
            [("name", "unique"), ("slug", "unique")].map(|(a, c)| (a.to_owned(), c.to_owned()))
        );
        let other = call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(json!({"name": "Other", "slug": "other", "web": "https://x.example/"})),
        )
        .await;
        assert_eq!(other.status, StatusCode::CREATED);
        let renamed = call(
            &app,
            Method::PATCH,
            "/api/projects/other/",
            admin,
            Body::Json(json!({"slug": "DEMO"})),
        )
        .await;
        assert_eq!(
            error_codes(&renamed.json()),
            [("slug".to_owned(), "unique".to_owned())]
        );
        let own_case = call(
            &app,
            Method::PATCH,
            "/api/projects/other/",
            admin,
            Body::Json(json!({"name": "OTHER"})),
        )
        .await;
        assert_eq!(
            own_case.status,
            StatusCode::OK,
            "a project may change its own name's case"
        );
    }
}
