//! Screenshots (`/api/screenshots/`, §13): uploads checked to be images,
//! their files kept under the media directory and streamed back, their
//! units, searches and who sees them; every test runs on each configured
//! database.

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
use common::{Body, HOST, Reply, TestApp, call, error_items, get_json, multipart, png};
use serde_json::{Value, json};
use tolk_service::testing::TestDb;

fn api(path: &str) -> String {
    format!("http://{HOST}/api/{path}")
}

/// Files under the media directory's screenshot folder.
fn stored(ctx: &common::Ctx) -> Vec<Vec<u8>> {
    let folder = ctx.service.config().media_root.join("screenshots");
    match std::fs::read_dir(folder) {
        Ok(entries) => entries
            .map(|e| std::fs::read(e.unwrap().path()).unwrap())
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// The fields of an upload to `demo/app`'s Russian translation.
const PLACE: [(&str, &str); 4] = [
    ("name", "Login page"),
    ("project_slug", "demo"),
    ("component_slug", "app"),
    ("language_code", "ru"),
];

/// Uploads a screenshot with these fields and image.
async fn post_shot<S: TestApp<B>, B: MessageBody>(
    app: &S,
    token: Option<&str>,
    fields: &[(&str, &str)],
    image: Option<&[u8]>,
) -> Reply {
    let body = match image {
        Some(bytes) => multipart(fields, &[("image", "shot.png", bytes)]),
        None => multipart(fields, &[]),
    };
    call(app, Method::POST, "/api/screenshots/", token, body).await
}

/// The codes of the errors of a 400, as `(field, code)`.
fn fields(reply: &Value) -> Vec<(String, String)> {
    error_items(reply)
        .into_iter()
        .map(|(attr, code, _)| (attr, code))
        .collect()
}

#[actix_web::test]
async fn screenshots_are_uploaded_linked_searched_replaced_and_removed() {
    for db in TestDb::all() {
        let (upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        let place = PLACE;
        let image = png(3);

        let made = post_shot(&app, admin, &place, Some(&image)).await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        let body = made.json();
        let url = body["url"].as_str().unwrap().to_owned();
        let id = url
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap()
            .to_owned();
        assert_eq!(made.header("location"), Some(url.as_str()));
        assert_eq!(
            body,
            json!({"name": "Login page", "repository_filename": "",
                   "translation": api("translations/demo/app/ru/"),
                   "file_url": api(&format!("screenshots/{id}/file/")), "units": [],
                   "url": url, "image": api(&format!("screenshots/{id}/file/"))}),
            "Weblate's answer to an upload: no id, an image link"
        );
        assert_eq!(
            stored(&ctx),
            vec![image.clone()],
            "the image is kept as sent"
        );
        let detail = get_json(&app, &format!("/api/screenshots/{id}/"), None).await;
        let keys: Vec<&String> = detail.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "id",
                "name",
                "repository_filename",
                "translation",
                "file_url",
                "units",
                "url"
            ]
        );
        assert_eq!(get_json(&app, "/api/screenshots/", None).await["count"], 1);
        assert_eq!(
            get_json(&app, "/api/components/demo/app/screenshots/", None).await["results"][0]["url"],
            json!(url)
        );

        let file = call(
            &app,
            Method::GET,
            &format!("/api/screenshots/{id}/file/"),
            None,
            Body::None,
        )
        .await;
        assert_eq!(file.status, StatusCode::OK);
        assert_eq!(file.body, image, "streamed back byte for byte");
        assert_eq!(file.header("content-type"), Some("application/binary"));
        assert_eq!(file.header("x-content-type-options"), Some("nosniff"));
        assert!(
            file.header("content-disposition")
                .unwrap()
                .starts_with("attachment; filename=")
        );

        // Refusals change nothing.
        let missing = post_shot(&app, admin, &[("name", "x")], Some(&image)).await;
        assert_eq!(missing.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            fields(&missing.json()),
            [
                ("project_slug", "required"),
                ("component_slug", "required"),
                ("language_code", "required")
            ]
            .map(|(a, c)| (a.to_owned(), c.to_owned()))
        );
        let mut elsewhere = place;
        elsewhere[3] = ("language_code", "xx");
        let unknown = post_shot(&app, admin, &elsewhere, Some(&image)).await;
        assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            unknown.json()["errors"][0]["detail"],
            "Translation not found."
        );
        for (bytes, why) in [
            (b"not an image at all".to_vec(), "text"),
            (image[..12].to_vec(), "a truncated PNG"),
            (
                b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>".to_vec(),
                "SVG",
            ),
            (
                b"BM\x3a\0\0\0\0\0\0\0\x36\0\0\0\x28\0\0\0\x01\0\0\0\x01\0\0\0\x01\0\x18\0"
                    .to_vec(),
                "BMP",
            ),
        ] {
            let bad = post_shot(&app, admin, &place, Some(&bytes)).await;
            assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{why}");
            assert_eq!(
                fields(&bad.json()),
                [("image".to_owned(), "invalid".to_owned())],
                "{why}"
            );
        }
        let no_image = post_shot(&app, admin, &place, None).await;
        assert_eq!(
            fields(&no_image.json()),
            [("image".to_owned(), "required".to_owned())]
        );
        let denied = post_shot(&app, jane, &place, Some(&image)).await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);
        let anonymous = post_shot(&app, None, &place, Some(&image)).await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
        let huge = vec![0u8; tolk_api::input::MAX_BODY + 1];
        let too_big = post_shot(&app, admin, &place, Some(&huge)).await;
        assert_eq!(too_big.status, StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(
            get_json(&app, "/api/screenshots/", None).await["count"],
            1,
            "nothing added"
        );
        assert_eq!(stored(&ctx).len(), 1, "no file left behind");

        // Fields.
        let shot = format!("/api/screenshots/{id}/");
        let renamed = call(
            &app,
            Method::PATCH,
            &shot,
            admin,
            Body::Json(json!({"repository_filename": "docs/login.png"})),
        )
        .await;
        assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text());
        assert_eq!(
            (
                renamed.json()["name"].clone(),
                renamed.json()["repository_filename"].clone()
            ),
            (json!("Login page"), json!("docs/login.png"))
        );
        let unnamed = call(
            &app,
            Method::PUT,
            &shot,
            admin,
            Body::Json(json!({"repository_filename": ""})),
        )
        .await;
        assert_eq!(
            unnamed.status,
            StatusCode::BAD_REQUEST,
            "PUT needs the name"
        );
        let denied = call(
            &app,
            Method::PATCH,
            &shot,
            jane,
            Body::Json(json!({"name": "Mine"})),
        )
        .await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);

        // Units of the screenshot's translation, and searches for them.
        let units = get_json(
            &app,
            "/api/translations/demo/app/ru/units/?page_size=2",
            admin,
        )
        .await;
        let unit = units["results"][0]["id"].as_i64().unwrap();
        let other = get_json(&app, "/api/translations/demo/app/ja/units/", admin).await["results"]
            [0]["id"]
            .as_i64()
            .unwrap();
        let links = format!("{shot}units/");
        let linked = call(
            &app,
            Method::POST,
            &links,
            admin,
            Body::Json(json!({"unit_id": unit})),
        )
        .await;
        assert_eq!(linked.status, StatusCode::OK, "{}", linked.text());
        assert_eq!(
            linked.json()["units"],
            json!([api(&format!("units/{unit}/"))])
        );
        let foreign = call(
            &app,
            Method::POST,
            &links,
            admin,
            Body::Json(json!({"unit_id": other})),
        )
        .await;
        assert_eq!(
            foreign.status,
            StatusCode::BAD_REQUEST,
            "a unit of another translation"
        );
        let found = get_json(
            &app,
            "/api/translations/demo/app/ru/units/?q=has:screenshot",
            admin,
        )
        .await;
        assert_eq!(found["count"], 1);
        assert_eq!(found["results"][0]["id"], unit);
        let without = get_json(
            &app,
            "/api/translations/demo/app/ru/units/?q=NOT%20has:screenshot",
            admin,
        )
        .await;
        assert_eq!(
            without["count"].as_u64().unwrap() + 1,
            get_json(&app, "/api/translations/demo/app/ru/", admin).await["total"]
                .as_u64()
                .unwrap()
        );
        let actions: Vec<Value> =
            get_json(&app, "/api/projects/demo/changes/?page_size=100", admin).await["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["action"].clone())
                .filter(|a| [57, 58, 85].contains(&a.as_i64().unwrap()))
                .collect();
        assert_eq!(actions.len(), 2, "uploaded and added: {actions:?}");
        let unlink = format!("{links}{unit}/");
        let gone = call(&app, Method::DELETE, &unlink, admin, Body::None).await;
        assert_eq!(gone.status, StatusCode::NO_CONTENT);
        let again = call(&app, Method::DELETE, &unlink, admin, Body::None).await;
        assert_eq!(again.status, StatusCode::NOT_FOUND, "no longer linked");
        let found = get_json(
            &app,
            "/api/translations/demo/app/ru/units/?q=has:screenshot",
            admin,
        )
        .await;
        assert_eq!(found["count"], 0);

        // A new image replaces the old one, whose file goes.
        let wider = png(9);
        let replaced = call(
            &app,
            Method::PUT,
            &format!("{shot}file/"),
            admin,
            multipart(&[], &[("image", "wide.png", &wider)]),
        )
        .await;
        assert_eq!(replaced.status, StatusCode::OK, "{}", replaced.text());
        assert_eq!(replaced.json(), json!({"result": true}));
        assert_eq!(stored(&ctx), vec![wider.clone()]);
        let file = call(&app, Method::GET, &format!("{shot}file/"), None, Body::None).await;
        assert_eq!(file.body, wider);
        let bad = call(
            &app,
            Method::POST,
            &format!("{shot}file/"),
            admin,
            multipart(&[], &[("image", "x.png", b"nope")]),
        )
        .await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST);
        assert_eq!(stored(&ctx), vec![wider], "a refused image changes nothing");

        let denied = call(&app, Method::DELETE, &shot, jane, Body::None).await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);
        let removed = call(&app, Method::DELETE, &shot, admin, Body::None).await;
        assert_eq!(removed.status, StatusCode::NO_CONTENT);
        assert!(stored(&ctx).is_empty(), "its image went with it");
        for path in [shot.clone(), format!("{shot}file/")] {
            let gone = call(&app, Method::GET, &path, admin, Body::None).await;
            assert_eq!(gone.status, StatusCode::NOT_FOUND, "{path}");
        }

        // Images go with the translation, component or project holding them.
        let japanese = [PLACE[0], PLACE[1], PLACE[2], ("language_code", "ja")];
        for (holder, place) in [
            ("/api/translations/demo/app/ru/", PLACE),
            ("/api/components/demo/app/", japanese),
            ("/api/projects/demo/", japanese),
        ] {
            let made = post_shot(&app, admin, &place, Some(&image)).await;
            assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
            assert_eq!(stored(&ctx).len(), 1);
            let removed = call(&app, Method::DELETE, holder, admin, Body::None).await;
            assert_eq!(
                removed.status,
                StatusCode::NO_CONTENT,
                "{holder}: {}",
                removed.text()
            );
            assert!(
                stored(&ctx).is_empty(),
                "{holder}: its screenshots' images went with it"
            );
            if holder.contains("components") {
                common::gettext_component(&ctx, &upstream);
            }
        }
    }
}

#[actix_web::test]
async fn screenshots_of_hidden_components_are_hidden() {
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        let place = PLACE;
        let made = post_shot(&app, admin, &place, Some(&png(2))).await;
        assert_eq!(made.status, StatusCode::CREATED);
        let shot = made.json()["url"]
            .as_str()
            .unwrap()
            .replace(&format!("http://{HOST}"), "");
        let restricted = call(
            &app,
            Method::PATCH,
            "/api/components/demo/app/",
            admin,
            Body::Json(json!({"restricted": true})),
        )
        .await;
        assert_eq!(restricted.status, StatusCode::OK);
        assert_eq!(get_json(&app, "/api/screenshots/", jane).await["count"], 0);
        assert_eq!(get_json(&app, "/api/screenshots/", admin).await["count"], 1);
        for path in [shot.clone(), format!("{shot}file/")] {
            let hidden = call(&app, Method::GET, &path, jane, Body::None).await;
            assert_eq!(hidden.status, StatusCode::NOT_FOUND, "{path}");
        }
        let upload_hidden = post_shot(&app, jane, &place, Some(&png(2))).await;
        assert_eq!(upload_hidden.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            upload_hidden.json()["errors"][0]["detail"],
            "Translation not found."
        );
    }
}

#[actix_web::test]
async fn a_unit_lists_links_and_unlinks_its_screenshots() {
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        let image = png(3);
        let on = |language: &'static str| {
            [
                ("name", "Login page"),
                ("project_slug", "demo"),
                ("component_slug", "app"),
                ("language_code", language),
            ]
        };
        let source_shot = post_shot(&app, admin, &on("en"), Some(&image)).await.json();
        let russian_shot = post_shot(&app, admin, &on("ru"), Some(&image)).await.json();
        let id_of = |shot: &Value| {
            let url = shot["url"].as_str().unwrap().trim_end_matches('/');
            url.rsplit('/').next().unwrap().parse::<i64>().unwrap()
        };
        let units = get_json(&app, "/api/translations/demo/app/ja/units/", admin).await;
        let unit = &units["results"][0];
        let unit_id = unit["id"].as_i64().unwrap();
        let source = unit["source_unit"].as_str().unwrap().to_owned();
        let shots = format!("/api/units/{unit_id}/screenshots/");
        assert_eq!(
            unit["screenshots_url"],
            json!(api(&format!("units/{unit_id}/screenshots/")))
        );
        assert_eq!(get_json(&app, &shots, None).await["count"], json!(0));

        // A Japanese string goes on the source screenshot as its source string.
        let body = json!({"screenshot_id": id_of(&source_shot)});
        let denied = call(&app, Method::POST, &shots, jane, Body::Json(body.clone())).await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);
        let linked = call(&app, Method::POST, &shots, admin, Body::Json(body)).await;
        assert_eq!(linked.status, StatusCode::OK, "{}", linked.text());
        assert_eq!(linked.json()["units"], json!([source]));
        let listed = get_json(&app, &shots, None).await;
        assert_eq!(listed["count"], json!(1));
        assert_eq!(listed["results"][0]["url"], source_shot["url"]);
        let via_source = get_json(&app, &format!("{source}screenshots/"), None).await;
        assert_eq!(via_source["count"], json!(1));

        // Another translation's screenshot, or none, is a bad field.
        let other = json!({"screenshot_id": id_of(&russian_shot)});
        let refused = call(&app, Method::POST, &shots, admin, Body::Json(other)).await;
        assert_eq!(
            fields(&refused.json()),
            [("screenshot_id".to_owned(), "invalid".to_owned())]
        );
        let unknown = json!({"screenshot_id": 999_999});
        let refused = call(&app, Method::POST, &shots, admin, Body::Json(unknown)).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
        let missing = call(&app, Method::POST, &shots, admin, Body::Json(json!({}))).await;
        assert_eq!(
            fields(&missing.json()),
            [("screenshot_id".to_owned(), "required".to_owned())]
        );

        // Unlinked once; then not found.
        let one = format!("{shots}{}/", id_of(&source_shot));
        let gone = call(&app, Method::DELETE, &one, admin, Body::None).await;
        assert_eq!(gone.status, StatusCode::NO_CONTENT);
        let again = call(&app, Method::DELETE, &one, admin, Body::None).await;
        assert_eq!(again.status, StatusCode::NOT_FOUND);
        assert_eq!(get_json(&app, &shots, None).await["count"], json!(0));
        let hidden = call(
            &app,
            Method::GET,
            "/api/units/999999/screenshots/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(hidden.status, StatusCode::NOT_FOUND);
    }
}
