//! Categories (`/api/categories/`, §16): nesting, settings inherited down
//! the chain, components inside addressed by `%252F` paths that follow
//! renames and moves, statistics, and removal; every test runs on each
//! configured database.

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
use common::{Body, HOST, Reply, TestApp, call, error_items, get_json, post_component};
use serde_json::{Value, json};
use tolk_service::testing::TestDb;

fn api(path: &str) -> String {
    format!("http://{HOST}/api/{path}")
}

async fn make<S: TestApp<B>, B: MessageBody>(app: &S, token: Option<&str>, body: Value) -> Reply {
    call(
        app,
        Method::POST,
        "/api/categories/",
        token,
        Body::Json(body),
    )
    .await
}

fn attrs(reply: &Reply) -> Vec<String> {
    error_items(&reply.json())
        .into_iter()
        .map(|(attr, _, _)| attr)
        .collect()
}

#[actix_web::test]
async fn categories_nest_inherit_and_carry_their_components_along() {
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());

        let docs = make(
            &app,
            admin,
            json!({"name": "Docs", "slug": "docs", "project": api("projects/demo/")}),
        )
        .await;
        assert_eq!(docs.status, StatusCode::CREATED, "{}", docs.text());
        let docs = docs.json();
        let docs_url = docs["url"].as_str().unwrap().to_owned();
        let keys: Vec<&String> = docs.as_object().unwrap().keys().collect();
        assert_eq!(
            keys[..10],
            [
                "id",
                "name",
                "slug",
                "project",
                "category",
                "url",
                "statistics_url",
                "announcements_url",
                "check_flags",
                "effective_check_flags"
            ],
            "Weblate's key order (without the link to reports, which Tolk has not)"
        );
        assert_eq!(docs["project"], api("projects/demo/"));
        assert_eq!(docs["category"], Value::Null);
        assert_eq!(
            (
                &docs["inherit_license"],
                &docs["effective_new_lang"],
                &docs["inherit_commit_message"]
            ),
            (&json!(true), &json!("add"), &json!(true)),
            "everything inherited from the project at first"
        );

        // Nested by a relative link, three levels at most.
        let relative = docs_url.replace(&format!("http://{HOST}"), "");
        let guides = make(&app, admin, json!({"name": "Guides", "slug": "guides", "project": "/api/projects/demo/", "category": relative})).await;
        assert_eq!(guides.status, StatusCode::CREATED, "{}", guides.text());
        let guides = guides.json();
        let guides_url = guides["url"].as_str().unwrap().to_owned();
        assert_eq!(guides["category"], json!(docs_url));
        let deep = make(&app, admin, json!({"name": "Deep", "slug": "deep", "project": "/api/projects/demo/", "category": guides_url})).await;
        assert_eq!(deep.status, StatusCode::CREATED);
        let deep_url = deep.json()["url"].as_str().unwrap().to_owned();
        let too_deep = make(&app, admin, json!({"name": "Deeper", "slug": "deeper", "project": "/api/projects/demo/", "category": deep_url})).await;
        assert_eq!(too_deep.status, StatusCode::BAD_REQUEST);
        assert_eq!(attrs(&too_deep), ["category"]);
        let twin = make(
            &app,
            admin,
            json!({"name": "docs", "slug": "DOCS", "project": "/api/projects/demo/"}),
        )
        .await;
        assert_eq!(twin.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            attrs(&twin),
            ["name", "slug"],
            "siblings differ in name and slug, whatever the case"
        );
        let elsewhere = make(&app, admin, json!({"name": "Docs", "slug": "docs", "project": "/api/projects/demo/", "category": guides_url})).await;
        assert_eq!(
            elsewhere.status,
            StatusCode::CREATED,
            "the same names under another parent"
        );
        let unknown = make(
            &app,
            admin,
            json!({"name": "X", "slug": "x", "project": "/api/projects/nope/"}),
        )
        .await;
        assert_eq!(attrs(&unknown), ["project"]);
        let denied = make(
            &app,
            jane,
            json!({"name": "X", "slug": "x", "project": "/api/projects/demo/"}),
        )
        .await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);
        let anonymous = make(
            &app,
            None,
            json!({"name": "X", "slug": "x", "project": "/api/projects/demo/"}),
        )
        .await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
        assert_eq!(
            get_json(&app, "/api/projects/demo/categories/", None).await["count"],
            4
        );

        // Settings flow down the chain.
        let licensed = call(
            &app,
            Method::PATCH,
            &relative,
            admin,
            Body::Json(json!({"license": "GPL-3.0", "check_flags": "safe-html"})),
        )
        .await;
        assert_eq!(licensed.status, StatusCode::OK, "{}", licensed.text());
        let guides = get_json(&app, &guides_url, None).await;
        assert_eq!(
            (
                &guides["inherit_license"],
                &guides["effective_license"],
                &guides["effective_check_flags"]
            ),
            (&json!(true), &json!("GPL-3.0"), &json!("safe-html"))
        );

        // A component inside, addressed by its path.
        let body = json!({"name": "Manual", "slug": "manual", "repo": "weblate://demo/app",
            "filemask": "po/*.po", "file_format": "po", "category": guides_url});
        let manual = post_component(&app, &ctx, admin, body).await;
        assert_eq!(
            manual["url"],
            api("components/demo/docs%252Fguides%252Fmanual/")
        );
        assert_eq!(manual["category"], json!(guides_url));
        assert_eq!(
            (&manual["inherit_license"], &manual["effective_license"]),
            (&json!(true), &json!("GPL-3.0")),
            "a component inherits through its categories"
        );
        let by_path = get_json(
            &app,
            "/api/components/demo/docs%252Fguides%252Fmanual/",
            None,
        )
        .await;
        assert_eq!(by_path["slug"], "manual");
        assert_eq!(
            by_path["web_url"],
            json!(format!(
                "{}/projects/demo/docs/guides/manual/",
                common::SITE
            )),
            "browser links name the path segment by segment, as Weblate's pages"
        );
        for export in [
            "/exports/rss/demo/docs%252Fguides%252Fmanual/",
            "/exports/stats/demo/docs%252Fguides%252Fmanual/",
        ] {
            let answer = call(&app, Method::GET, export, None, Body::None).await;
            assert_eq!(answer.status, StatusCode::OK, "{export}: {}", answer.text());
        }
        let translations = get_json(
            &app,
            "/api/components/demo/docs%252Fguides%252Fmanual/translations/",
            None,
        )
        .await;
        let first = translations["results"][0]["url"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(
            first.starts_with(&api("translations/demo/docs%252Fguides%252Fmanual/")),
            "{first}"
        );
        let code = translations["results"][0]["language_code"]
            .as_str()
            .unwrap();
        // Downloads are named after the whole path, as Weblate names them.
        let converted = call(
            &app,
            Method::GET,
            &format!("{first}file/?format=csv"),
            None,
            Body::None,
        )
        .await;
        assert_eq!(converted.status, StatusCode::OK, "{}", converted.text());
        assert_eq!(
            converted.header("content-disposition"),
            Some(format!("attachment; filename=\"demo-docs-guides-manual-{code}.csv\"").as_str())
        );
        assert_eq!(
            translations["results"][0]["translate_url"],
            json!(format!(
                "{}/translate/demo/docs/guides/manual/{code}/",
                common::SITE
            ))
        );
        assert_eq!(
            get_json(&app, &first, None).await["url"],
            json!(first),
            "its links answer"
        );
        let bare = call(
            &app,
            Method::GET,
            "/api/components/demo/manual/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(bare.status, StatusCode::NOT_FOUND, "not by its bare slug");
        let total = get_json(
            &app,
            "/api/components/demo/docs%252Fguides%252Fmanual/statistics/",
            None,
        )
        .await["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["total"].as_i64().unwrap())
            .sum::<i64>();
        let stats = get_json(&app, &format!("{relative}statistics/"), None).await;
        assert_eq!(stats["name"], "Docs");
        assert_eq!(
            stats["total"], total,
            "a category counts what it holds at any depth"
        );
        assert!(total > 0);

        // Renaming and moving carry the paths along.
        let renamed = call(
            &app,
            Method::PATCH,
            &relative,
            admin,
            Body::Json(json!({"slug": "manuals"})),
        )
        .await;
        assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text());
        let moved_url = "/api/components/demo/manuals%252Fguides%252Fmanual/";
        assert_eq!(
            get_json(&app, moved_url, None).await["url"],
            api(&moved_url[5..])
        );
        let old = call(
            &app,
            Method::GET,
            "/api/components/demo/docs%252Fguides%252Fmanual/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(old.status, StatusCode::NOT_FOUND);
        let into_itself = call(
            &app,
            Method::PATCH,
            &relative,
            admin,
            Body::Json(json!({"category": guides_url})),
        )
        .await;
        assert_eq!(into_itself.status, StatusCode::BAD_REQUEST);
        assert_eq!(attrs(&into_itself), ["category"]);
        let out = call(
            &app,
            Method::PATCH,
            &guides_url,
            admin,
            Body::Json(json!({"category": null})),
        )
        .await;
        assert_eq!(out.status, StatusCode::OK, "{}", out.text());
        assert_eq!(out.json()["category"], Value::Null);
        assert_eq!(
            get_json(&app, "/api/components/demo/guides%252Fmanual/", None).await["slug"],
            "manual"
        );
        let clash = call(
            &app,
            Method::POST,
            "/api/projects/demo/components/",
            admin,
            Body::Json(
                json!({"name": "Guides", "slug": "guides", "repo": "weblate://demo/app",
                "filemask": "po/*.po", "file_format": "po"}),
            ),
        )
        .await;
        assert_eq!(
            clash.status,
            StatusCode::BAD_REQUEST,
            "a category there has the slug"
        );
        assert_eq!(attrs(&clash), ["slug"]);
        let deep = get_json(&app, &deep_url, None).await;
        assert_eq!(
            deep["effective_license"], "",
            "no longer under the licensed category"
        );

        // A component moves out of its category and back.
        let out = call(
            &app,
            Method::PATCH,
            "/api/components/demo/guides%252Fmanual/",
            admin,
            Body::Json(json!({"category": null})),
        )
        .await;
        assert_eq!(out.status, StatusCode::OK, "{}", out.text());
        assert_eq!(out.json()["url"], api("components/demo/manual/"));
        assert_eq!(out.json()["category"], Value::Null);
        let back = call(
            &app,
            Method::PATCH,
            "/api/components/demo/manual/",
            admin,
            Body::Json(json!({"category": guides_url})),
        )
        .await;
        assert_eq!(back.status, StatusCode::OK, "{}", back.text());
        assert_eq!(
            back.json()["url"],
            api("components/demo/guides%252Fmanual/")
        );
        let nowhere = call(
            &app,
            Method::PATCH,
            "/api/components/demo/guides%252Fmanual/",
            admin,
            Body::Json(json!({"category": "/api/categories/9999/"})),
        )
        .await;
        assert_eq!(attrs(&nowhere), ["category"]);
        // A copy of a component goes where its request says.
        let copy = call(
            &app,
            Method::POST,
            "/api/projects/demo/components/",
            admin,
            Body::Json(json!({"name": "Copy", "slug": "copy", "from_component": "demo/app", "category": guides_url})),
        )
        .await;
        assert_eq!(copy.status, StatusCode::CREATED, "{}", copy.text());
        assert_eq!(copy.json()["url"], api("components/demo/guides%252Fcopy/"));
        assert_eq!(copy.json()["category"], json!(guides_url));

        // Removal takes what is inside.
        let removed = call(&app, Method::DELETE, &guides_url, jane, Body::None).await;
        assert_eq!(removed.status, StatusCode::FORBIDDEN);
        let removed = call(&app, Method::DELETE, &guides_url, admin, Body::None).await;
        assert_eq!(removed.status, StatusCode::NO_CONTENT);
        for gone in [
            guides_url.as_str(),
            deep_url.as_str(),
            "/api/components/demo/guides%252Fmanual/",
            "/api/components/demo/guides%252Fcopy/",
        ] {
            let reply = call(&app, Method::GET, gone, admin, Body::None).await;
            assert_eq!(reply.status, StatusCode::NOT_FOUND, "{gone}");
        }
        assert_eq!(get_json(&app, "/api/categories/", None).await["count"], 1);
    }
}

#[actix_web::test]
async fn categories_of_private_projects_are_hidden() {
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let made = make(
            &app,
            admin,
            json!({"name": "Docs", "slug": "docs", "project": "/api/projects/demo/"}),
        )
        .await;
        let url = made.json()["url"].as_str().unwrap().to_owned();
        common::make_private(&ctx, "demo");
        assert_eq!(
            get_json(&app, "/api/categories/", Some(&ctx.jane)).await["count"],
            0
        );
        for path in [url.clone(), format!("{url}statistics/")] {
            let hidden = call(&app, Method::GET, &path, Some(&ctx.jane), Body::None).await;
            assert_eq!(hidden.status, StatusCode::NOT_FOUND, "{path}");
        }
        let hidden = make(
            &app,
            Some(&ctx.jane),
            json!({"name": "X", "slug": "x", "project": "/api/projects/demo/"}),
        )
        .await;
        assert_eq!(
            hidden.status,
            StatusCode::BAD_REQUEST,
            "a project one cannot see does not exist"
        );
    }
}
