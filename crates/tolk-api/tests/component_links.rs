//! Sharing a component into other projects (`links/`) and addressing
//! components by their category path; every test runs on each configured
//! database.

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
    Body, HOST, call, context, error_items, get_json, gettext_component, pluck, upstream,
};
use serde_json::json;
use tolk_service::testing::TestDb;

#[actix_web::test]
async fn a_component_is_shared_into_another_project_and_back() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        for (name, slug) in [("Other", "other"), ("Third", "third")] {
            let made = call(
                &app,
                Method::POST,
                "/api/projects/",
                admin,
                Body::Json(json!({"name": name, "slug": slug, "web": "https://x.example/"})),
            )
            .await;
            assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
        }
        let links = "/api/components/demo/app/links/";
        let share = |slug: &str| Body::Json(json!({"project_slug": slug}));

        let shared = call(&app, Method::POST, links, admin, share("other")).await;
        assert_eq!(shared.status, StatusCode::CREATED, "{}", shared.text());
        let body = shared.json();
        assert_eq!(
            body["data"]["url"],
            format!("http://{HOST}/api/components/demo/app/")
        );
        assert_eq!(body["data"]["project"]["slug"], "demo");
        let listed = get_json(&app, links, None).await;
        assert_eq!(listed["count"], 1);
        assert_eq!(pluck(&listed["results"], "slug"), json!(["other"]));

        let again = call(&app, Method::POST, links, admin, share("other")).await;
        assert_eq!(again.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            error_items(&again.json()),
            vec![(
                "project_slug".into(),
                "invalid".into(),
                "This component is already shared in Other.".into()
            )]
        );
        let own = call(&app, Method::POST, links, admin, share("demo")).await;
        assert_eq!(own.status, StatusCode::BAD_REQUEST, "its own project");
        let unknown = call(&app, Method::POST, links, admin, share("nope")).await;
        assert_eq!(
            error_items(&unknown.json()),
            vec![(
                "project_slug".into(),
                "invalid".into(),
                "No project slug 'nope' found!".into()
            )]
        );
        let categorised = call(
            &app,
            Method::POST,
            links,
            admin,
            Body::Json(json!({"project_slug": "third", "category_id": 7})),
        )
        .await;
        assert_eq!(categorised.status, StatusCode::BAD_REQUEST);
        let denied = call(&app, Method::POST, links, jane, share("third")).await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);
        let anonymous = call(&app, Method::POST, links, None, share("third")).await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
        assert_eq!(get_json(&app, links, None).await["count"], 1, "unchanged");

        let removed = call(
            &app,
            Method::DELETE,
            "/api/components/demo/app/links/other/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(removed.status, StatusCode::NO_CONTENT);
        for slug in ["other", "third", "nope"] {
            let gone = call(
                &app,
                Method::DELETE,
                &format!("/api/components/demo/app/links/{slug}/"),
                admin,
                Body::None,
            )
            .await;
            assert_eq!(gone.status, StatusCode::NOT_FOUND, "{slug} is not linked");
        }
        assert_eq!(get_json(&app, links, None).await["count"], 0);

        call(&app, Method::POST, links, admin, share("third")).await;
        let deleted = call(
            &app,
            Method::DELETE,
            "/api/projects/third/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(deleted.status, StatusCode::NO_CONTENT);
        assert_eq!(
            get_json(&app, links, None).await["count"],
            0,
            "a deleted project's links go with it"
        );
    }
}

#[actix_web::test]
async fn a_category_path_never_reaches_a_component_by_its_bare_slug() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let plain = get_json(&app, "/api/components/demo/app/", None).await;
        assert_eq!(plain["slug"], "app");
        for path in [
            "/api/components/demo/cat%252Fapp/",
            "/api/components/demo/cat%2Fapp/",
            "/api/components/demo/cat%252Fapp/translations/",
            "/api/translations/demo/cat%252Fapp/ja/",
        ] {
            let reply = call(&app, Method::GET, path, None, Body::None).await;
            assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
        }
    }
}
