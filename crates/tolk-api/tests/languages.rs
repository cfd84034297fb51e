//! `/api/languages/`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, Ctx, HOST, SITE, assert_same_shape, call, pluck, sample};
use serde_json::json;

#[actix_web::test]
async fn listing_depends_on_who_asks() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = call(
            &app,
            Method::GET,
            "/api/languages/?page_size=2",
            Some(&ctx.admin),
            Body::None,
        )
        .await
        .json();
        assert_eq!(admin["count"], 799);
        assert_eq!(admin["results"][0]["code"], "aa");
        let anonymous = call(&app, Method::GET, "/api/languages/", None, Body::None)
            .await
            .json();
        assert_eq!(
            anonymous["count"], 0,
            "only languages in use are listed for others"
        );
        let hidden = call(
            &app,
            Method::GET,
            "/api/languages/cs/",
            Some(&ctx.jane),
            Body::None,
        )
        .await;
        assert_eq!(hidden.status, StatusCode::NOT_FOUND);

        let czech = call(
            &app,
            Method::GET,
            "/api/languages/cs/",
            Some(&ctx.admin),
            Body::None,
        )
        .await
        .json();
        assert_same_shape(&czech, &sample("22-language-detail"), "language");
        assert_eq!(czech["name"], "Czech");
        assert_eq!(czech["plural"]["number"], 3);
        assert_eq!(
            czech["plural"]["formula"],
            "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2"
        );
        assert_eq!(
            czech["aliases"],
            json!(["ces", "cs_cs", "cs_cz", "csy", "cz", "cze"])
        );
        assert_eq!(czech["web_url"], format!("{SITE}/languages/cs/"));
        assert_eq!(czech["url"], format!("http://{HOST}/api/languages/cs/"));

        let stats = call(
            &app,
            Method::GET,
            "/api/languages/cs/statistics/",
            Some(&ctx.admin),
            Body::None,
        )
        .await
        .json();
        assert_same_shape(&stats, &sample("19-language-statistics"), "statistics");
        assert_eq!(
            stats["approved_percent"], 100.0,
            "language aggregates count as reviewed"
        );
        assert_eq!(stats["translated_percent"], 0.0);
    }
}

#[actix_web::test]
async fn define_edit_and_remove_a_language() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let body = json!({"code": "x_tolk", "name": "Tolkish", "plural": {"number": 3, "formula": "n==1 ? 0 : n==2 ? 1 : 2"}});
        let denied = call(
            &app,
            Method::POST,
            "/api/languages/",
            Some(&ctx.jane),
            Body::Json(body.clone()),
        )
        .await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);
        assert_eq!(denied.json()["detail"], "Can not manage languages");

        let created = call(
            &app,
            Method::POST,
            "/api/languages/",
            admin,
            Body::Json(body.clone()),
        )
        .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
        assert_eq!(
            created.header("location"),
            Some(&*format!("http://{HOST}/api/languages/x_tolk/"))
        );
        let language = created.json();
        assert_eq!(language["direction"], "ltr");
        assert_eq!(language["plural"]["type"], 4, "one/two/other");
        assert_eq!(language["aliases"], json!([]));

        let duplicate = call(
            &app,
            Method::POST,
            "/api/languages/",
            admin,
            Body::Json(body),
        )
        .await;
        assert_eq!(duplicate.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            duplicate.json()["errors"][0]["detail"],
            "Language with this Language code already exists."
        );

        let patched = call(
            &app,
            Method::PATCH,
            "/api/languages/x_tolk/",
            admin,
            Body::Json(json!({"name": "Tolkese", "direction": "rtl", "plural": {"number": 2, "formula": "n != 1"}})),
        )
        .await;
        assert_eq!(patched.status, StatusCode::OK, "{}", patched.text());
        let patched = patched.json();
        assert_eq!(patched["name"], "Tolkese");
        assert_eq!(patched["direction"], "rtl");
        assert_eq!(patched["plural"]["type"], 1);
        assert_eq!(patched["plural"]["id"], language["plural"]["id"]);

        let removed = call(
            &app,
            Method::DELETE,
            "/api/languages/x_tolk/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(removed.status, StatusCode::NO_CONTENT);
        let gone = call(
            &app,
            Method::GET,
            "/api/languages/x_tolk/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(gone.status, StatusCode::NOT_FOUND);
        let history = call(
            &app,
            Method::GET,
            "/api/changes/?action=0",
            admin,
            Body::None,
        )
        .await
        .json();
        assert_eq!(
            pluck(&history["results"], "details.operation"),
            json!(["deleted", "updated", "created"])
        );
    }
}

#[actix_web::test]
async fn invalid_languages_are_rejected_with_every_reason() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let missing = call(
            &app,
            Method::POST,
            "/api/languages/",
            admin,
            Body::Json(json!({"code": "zz"})),
        )
        .await;
        assert_eq!(missing.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            pluck(&missing.json()["errors"], "attr"),
            json!(["name", "plural"])
        );

        let bad = call(
            &app,
            Method::POST,
            "/api/languages/",
            admin,
            Body::Json(json!({"code": "bad code", "name": "Bad", "direction": "up", "plural": {"number": 2, "formula": "n %% 3"}})),
        )
        .await;
        assert_eq!(
            pluck(&bad.json()["errors"], "attr"),
            json!(["code", "direction", "plural.formula"])
        );
        let too_many_forms = call(
            &app,
            Method::POST,
            "/api/languages/",
            admin,
            Body::Json(
                json!({"code": "zz", "name": "Z", "plural": {"number": 2, "formula": "n % 3"}}),
            ),
        )
        .await;
        assert!(
            too_many_forms.json()["detail"]
                .as_str()
                .unwrap()
                .contains("only 2 forms")
        );
        let in_use_free = call(&app, Method::GET, "/api/languages/zz/", admin, Body::None).await;
        assert_eq!(
            in_use_free.status,
            StatusCode::NOT_FOUND,
            "nothing was created"
        );
    }
}
