//! Translation memory (§18): accepted translations are remembered per
//! project, per translator and in the shared pool; signed-in callers see
//! and delete what they may, on each database.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, call, context, get_json};
use serde_json::{Value, json};
use tolk_service::testing::TestDb;
use tolk_service::vcs_testing::Upstream;

#[actix_web::test]
async fn accepted_translations_are_remembered_in_each_scope() {
    for db in TestDb::all() {
        // An Arabic catalogue, whose translations are remembered when the
        // file is read, and a Japanese one without translations (the
        // corpus's English catalogue), where the edits below go.
        let catalogue = |name: &str| std::fs::read(common::corpus(name)).unwrap();
        let upstream = Upstream::new(&[
            ("po/ar.po", catalogue("po/django-conf-ar.po")),
            ("po/ja.po", catalogue("po/django-conf-en.po")),
        ]);
        let ctx = context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        let list = |q: &'static str, token: Option<&'static str>| {
            let app = &app;
            let token = token.map(str::to_owned);
            async move { get_json(app, &format!("/api/memory/{q}"), token.as_deref()).await }
        };
        let anonymous = call(&app, Method::GET, "/api/memory/", None, Body::None).await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
        assert_eq!(list("", None).await["count"], json!(null));
        let count = |q: &'static str| {
            let app = &app;
            async move {
                get_json(app, &format!("/api/memory/{q}"), admin).await["count"]
                    .as_i64()
                    .unwrap()
            }
        };
        let ar = get_json(&app, "/api/translations/demo/app/ar/", admin).await;
        let read = ar["translated"].as_i64().unwrap() + ar["fuzzy"].as_i64().unwrap();
        assert!(read > 300, "{ar}");
        // The project's entry and the shared pool's of each translation
        // read (a source translated alike under two contexts once).
        let before = count("").await;
        let in_project = count("?project=demo").await;
        assert_eq!(before, 2 * in_project);
        assert!(
            in_project <= read && in_project > read - 20,
            "{in_project} of {read}"
        );
        assert_eq!(count("?target_language=ar").await, before);
        assert_eq!(count("?target_language=ja").await, 0);

        let page = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?q=source:%3DArabic",
            admin,
        )
        .await;
        let unit = page["results"][0].clone();
        let uri = unit["url"].as_str().unwrap();
        let fuzzy = json!({"target": ["アラビア語?"], "state": 10});
        let edited = call(&app, Method::PATCH, uri, admin, Body::Json(fuzzy)).await;
        assert_eq!(edited.status, StatusCode::OK);
        assert_eq!(count("").await, before);
        let done = json!({"target": ["アラビア語"], "state": 20});
        let edited = call(&app, Method::PATCH, uri, admin, Body::Json(done.clone())).await;
        assert_eq!(edited.status, StatusCode::OK);

        let entries = get_json(&app, "/api/memory/?target_language=ja", admin).await;
        common::assert_same_shape(&entries, &common::sample("45-memory"), "memory");
        let languages = get_json(&app, "/api/languages/?page_size=1000", None).await;
        let id_of = |code: &str| {
            languages["results"]
                .as_array()
                .unwrap()
                .iter()
                .find(|l| l["code"] == code)
                .map(|l| l["id"].clone())
                .unwrap()
        };
        let project = get_json(&app, "/api/projects/demo/", None).await["id"].clone();
        let scopes: Vec<(Value, Value)> = entries["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                assert_eq!(
                    (&e["source"], &e["target"], &e["origin"], &e["from_file"]),
                    (
                        &json!("Arabic"),
                        &json!("アラビア語"),
                        &json!("demo/app"),
                        &json!(false)
                    )
                );
                assert_eq!(
                    (&e["source_language"], &e["target_language"]),
                    (&id_of("en"), &id_of("ja"))
                );
                (e["project"].clone(), e["shared"].clone())
            })
            .collect();
        // The project's, the translator's and the shared pool's.
        assert_eq!(
            scopes,
            vec![
                (project.clone(), json!(false)),
                (json!(null), json!(false)),
                (json!(null), json!(true))
            ]
        );
        // The same translation again is not stored twice.
        let again = json!({"target": ["アラビア語"], "state": 30});
        call(&app, Method::PATCH, uri, admin, Body::Json(again)).await;
        assert_eq!(count("").await, before + 3);

        // Filters.
        for (q, n) in [
            ("?source=arab&target_language=ja", 3),
            ("?source=ARABIC&target_language=ja", 3),
            ("?source=german&target_language=ja", 0),
            ("?target_language=ja", 3),
            ("?target_language=ar", before),
            ("?source_language=en&project=demo", in_project + 1),
            ("?project=nowhere", 0),
        ] {
            let found = get_json(&app, &format!("/api/memory/{q}"), admin).await;
            assert_eq!(found["count"], json!(n), "{q}");
        }

        let long = format!("/api/memory/?source={}", "x".repeat(2001));
        let refused = call(&app, Method::GET, &long, admin, Body::None).await;
        assert_eq!(common::error_items(&refused.json())[0].0, "source");

        // Jane sees the project's entry only, and may not delete it.
        let hers = get_json(&app, "/api/memory/?target_language=ja", jane).await;
        assert_eq!(hers["count"], json!(1), "{hers}");
        let id = hers["results"][0]["id"].as_i64().unwrap();
        assert_eq!(hers["results"][0]["project"], project);
        let one = get_json(&app, &format!("/api/memory/{id}/"), jane).await;
        assert_eq!(one, hers["results"][0]);
        let refused = call(
            &app,
            Method::DELETE,
            &format!("/api/memory/{id}/"),
            jane,
            Body::None,
        )
        .await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        assert!(refused.text().contains("Can not delete memory entry"));
        let personal = entries["results"][1]["id"].as_i64().unwrap();
        let hidden = call(
            &app,
            Method::GET,
            &format!("/api/memory/{personal}/"),
            jane,
            Body::None,
        )
        .await;
        assert_eq!(hidden.status, StatusCode::NOT_FOUND);
        let deleted = call(
            &app,
            Method::DELETE,
            &format!("/api/memory/{id}/"),
            admin,
            Body::None,
        )
        .await;
        assert_eq!(deleted.status, StatusCode::NO_CONTENT);
        let gone = call(
            &app,
            Method::GET,
            &format!("/api/memory/{id}/"),
            admin,
            Body::None,
        )
        .await;
        assert_eq!(gone.status, StatusCode::NOT_FOUND);

        // Bulk edits feed it too.
        let other = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?q=source:%3DGerman",
            admin,
        )
        .await["results"][0]["id"]
            .clone();
        let bulk = json!({"units": [{"id": other, "target": ["ドイツ語 (標準)"], "state": 20}]});
        let done = call(
            &app,
            Method::PATCH,
            "/api/translations/demo/app/ja/units/",
            admin,
            Body::Json(bulk),
        )
        .await;
        assert_eq!(done.status, StatusCode::OK, "{}", done.text());
        let german = get_json(&app, "/api/memory/?source=german&target_language=ja", admin).await;
        assert_eq!(german["count"], json!(3));
        assert_eq!(german["results"][0]["target"], json!("ドイツ語 (標準)"));
    }
}

#[actix_web::test]
async fn texts_are_looked_up_exactly_then_alike() {
    for db in TestDb::all() {
        let catalogue = std::fs::read(common::corpus("po/django-conf-ar.po")).unwrap();
        let upstream = Upstream::new(&[("po/ar.po", catalogue)]);
        let ctx = context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.clone());
        let lookup = |query: &'static str, body: Value, token: Option<String>| {
            let app = &app;
            let uri = format!("/api/memory/lookup/{query}");
            async move { call(app, Method::POST, &uri, token.as_deref(), Body::Json(body)).await }
        };
        let pair = "?source_language=en&target_language=ar";
        let texts = json!({"strings": ["Arabic", "Simplified Chinese!", "Nothing like this at all", "Bulgarian"]});
        let found = lookup(pair, texts.clone(), admin.clone()).await;
        assert_eq!(found.status, StatusCode::OK, "{}", found.text());
        let found = found.json();
        let matches = found.as_array().unwrap();
        assert_eq!(
            matches
                .iter()
                .map(|m| m["query"].clone())
                .collect::<Vec<_>>(),
            texts["strings"].as_array().unwrap().clone(),
            "in the order sent"
        );
        let arabic = &matches[0]["match"];
        assert_eq!(
            (
                &arabic["source"],
                &arabic["target"],
                &arabic["exact"],
                &arabic["quality"],
                &arabic["origin"]
            ),
            (
                &json!("Arabic"),
                &json!("العربيّة"),
                &json!(true),
                &json!(100),
                &json!("demo/app")
            )
        );
        let entry = get_json(
            &app,
            &format!("/api/memory/{}/", arabic["id"]),
            admin.as_deref(),
        )
        .await;
        assert_eq!(entry["source"], json!("Arabic"));
        let chinese = &matches[1]["match"];
        assert_eq!(
            (&chinese["source"], &chinese["exact"], &chinese["quality"]),
            (&json!("Simplified Chinese"), &json!(false), &json!(95))
        );
        assert_eq!(matches[2]["match"], json!(null));
        assert_eq!(matches[3]["match"]["target"], json!("البلغاريّة"));

        // Exact matches only; a project's entries only.
        let exact = lookup(
            "?source_language=en&target_language=ar&exact=true",
            texts.clone(),
            admin.clone(),
        )
        .await
        .json();
        assert_eq!(exact[1]["match"], json!(null));
        assert_eq!(exact[0]["match"]["exact"], json!(true));
        let project = lookup(
            "?source_language=en&target_language=ar&project=demo",
            texts.clone(),
            admin.clone(),
        )
        .await
        .json();
        assert_eq!(project[0]["match"]["target"], json!("العربيّة"));
        let other_pair = lookup(
            "?source_language=en&target_language=ja",
            texts.clone(),
            admin.clone(),
        )
        .await
        .json();
        assert!(
            other_pair
                .as_array()
                .unwrap()
                .iter()
                .all(|m| m["match"].is_null())
        );

        // Refusals; the lookup answers POST alone.
        for method in [Method::GET, Method::DELETE] {
            let uri = "/api/memory/lookup/";
            let other = call(&app, method, uri, admin.as_deref(), Body::None).await;
            assert_eq!(other.status, StatusCode::METHOD_NOT_ALLOWED);
            assert_eq!(other.header("allow"), Some("POST, OPTIONS"));
        }
        let anonymous = lookup(pair, texts.clone(), None).await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
        let missing = lookup("?target_language=xx-nope", texts.clone(), admin.clone()).await;
        common::assert_refused(
            &missing,
            &[
                (
                    "source_language",
                    "required",
                    "This query parameter is required.",
                ),
                ("target_language", "invalid", "Language not found."),
            ],
        );
        let unknown = lookup(
            "?source_language=en&target_language=ar&project=nope",
            texts,
            admin.clone(),
        )
        .await;
        common::assert_refused(&unknown, &[("project", "invalid", "Project not found.")]);
        let empty = lookup(pair, json!({"strings": []}), admin.clone()).await;
        common::assert_refused(
            &empty,
            &[("strings", "empty", "This list may not be empty.")],
        );
        let many: Vec<String> = (0..101).map(|n| format!("text {n}")).collect();
        let too_many = lookup(pair, json!({"strings": many}), admin.clone()).await;
        common::assert_refused(
            &too_many,
            &[(
                "strings",
                "max_length",
                "Ensure this field has no more than 100 elements.",
            )],
        );
        let long = lookup(
            pair,
            json!({"strings": ["ok", "x".repeat(2001)]}),
            admin.clone(),
        )
        .await;
        common::assert_refused(
            &long,
            &[(
                "strings.1",
                "max_length",
                "Ensure this field has no more than 2000 characters.",
            )],
        );
    }
}
