//! `/api/users/`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, Ctx, HOST, assert_same_shape, call, error_codes, pluck, sample};
use serde_json::json;
use tolk_service::testing::TestDb;

#[actix_web::test]
async fn who_sees_which_accounts() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let anonymous = call(&app, Method::GET, "/api/users/", None, Body::None)
            .await
            .json();
        assert_eq!(
            anonymous,
            json!({"count": 0, "next": null, "previous": null, "results": []})
        );
        assert_eq!(
            call(&app, Method::GET, "/api/users/admin/", None, Body::None)
                .await
                .status,
            StatusCode::NOT_FOUND
        );

        let own = call(
            &app,
            Method::GET,
            "/api/users/",
            Some(&ctx.jane),
            Body::None,
        )
        .await
        .json();
        assert_eq!(own["count"], 1);
        let jane_id = own["results"][0]["id"].clone();
        assert_eq!(
            own["results"][0],
            json!({"id": jane_id, "full_name": "Jane Doe", "username": "jane"})
        );
        let prefix = call(
            &app,
            Method::GET,
            "/api/users/?username=ad",
            Some(&ctx.jane),
            Body::None,
        )
        .await
        .json();
        assert_eq!(prefix["results"][0]["username"], "admin");
        let short = call(
            &app,
            Method::GET,
            "/api/users/?username=a",
            Some(&ctx.jane),
            Body::None,
        )
        .await
        .json();
        assert_eq!(
            short["results"][0]["username"], "jane",
            "one character is not a search"
        );

        let all = call(
            &app,
            Method::GET,
            "/api/users/",
            Some(&ctx.admin),
            Body::None,
        )
        .await
        .json();
        assert_eq!(all["count"], 3);
        assert_eq!(
            pluck(&all["results"], "username"),
            json!(["anonymous", "admin", "jane"])
        );
        let admin = call(
            &app,
            Method::GET,
            "/api/users/admin/",
            Some(&ctx.admin),
            Body::None,
        )
        .await
        .json();
        assert_same_shape(&admin, &sample("24-user-detail"), "user");
        assert_eq!(admin["is_superuser"], true);
        assert_eq!(admin["url"], format!("http://{HOST}/api/users/admin/"));
        let by_email = call(
            &app,
            Method::GET,
            "/api/users/?email=JANE@example.com",
            Some(&ctx.admin),
            Body::None,
        )
        .await
        .json();
        assert_eq!(by_email["count"], 1);
        let ignored = call(
            &app,
            Method::GET,
            "/api/users/?email=admin@example.com",
            Some(&ctx.jane),
            Body::None,
        )
        .await
        .json();
        assert_eq!(
            ignored["results"][0]["username"], "jane",
            "e-mail filter is for managers only"
        );
    }
}

#[actix_web::test]
async fn managers_create_edit_and_remove_accounts() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let body = json!({"username": "bob", "full_name": "Bob B", "email": "bob@example.com"});
        let denied = call(
            &app,
            Method::POST,
            "/api/users/",
            Some(&ctx.jane),
            Body::Json(body.clone()),
        )
        .await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN);
        assert_eq!(denied.json()["detail"], "Can not manage Users");

        let created = call(
            &app,
            Method::POST,
            "/api/users/",
            admin,
            Body::Json(body.clone()),
        )
        .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
        assert_eq!(
            created.header("location"),
            Some(&*format!("http://{HOST}/api/users/bob/"))
        );
        assert_same_shape(&created.json(), &sample("24-user-detail"), "user");
        let duplicate = call(&app, Method::POST, "/api/users/", admin, Body::Json(body)).await;
        assert_eq!(
            duplicate.json()["errors"][0]["detail"],
            "User with this Username already exists."
        );
        let invalid = call(
            &app,
            Method::POST,
            "/api/users/",
            admin,
            Body::Json(
                json!({"username": "b b", "full_name": "", "email": "x", "is_active": "sometimes"}),
            ),
        )
        .await;
        assert_eq!(
            pluck(&invalid.json()["errors"], "attr"),
            json!(["is_active"]),
            "type errors first"
        );

        let patched = call(
            &app,
            Method::PATCH,
            "/api/users/bob/",
            admin,
            Body::Json(json!({"is_superuser": true, "date_expires": "2030-01-01T00:00:00Z", "profile": {"languages": ["cs", "de"], "theme": "dark"}})),
        )
        .await;
        assert_eq!(patched.status, StatusCode::OK, "{}", patched.text());
        let bob = patched.json();
        assert_eq!(bob["is_superuser"], true);
        assert_eq!(bob["date_expires"], "2030-01-01T00:00:00.000000Z");
        assert_eq!(
            bob["profile"]["languages"],
            json!([
                format!("http://{HOST}/api/languages/cs/"),
                format!("http://{HOST}/api/languages/de/")
            ])
        );
        assert_eq!(bob["profile"]["theme"], "dark");
        let bad_profile = call(
            &app,
            Method::PATCH,
            "/api/users/bob/",
            admin,
            Body::Json(json!({"profile": {"languages": ["cs", "xx-nope"], "theme": "pink"}})),
        )
        .await;
        assert_eq!(bad_profile.status, StatusCode::BAD_REQUEST);
        let errors = bad_profile.json();
        assert_eq!(
            pluck(&errors["errors"], "attr"),
            json!(["profile.theme", "profile.languages"])
        );
        assert_eq!(
            pluck(&errors["errors"], "detail"),
            json!(["\"pink\" is not a valid choice.", "Invalid value: xx-nope"])
        );

        let removed = call(&app, Method::DELETE, "/api/users/bob/", admin, Body::None).await;
        assert_eq!(removed.status, StatusCode::NO_CONTENT);
        assert_eq!(
            call(&app, Method::GET, "/api/users/bob/", admin, Body::None)
                .await
                .status,
            StatusCode::NOT_FOUND
        );
        let inactive = call(
            &app,
            Method::GET,
            "/api/users/?is_active=false",
            admin,
            Body::None,
        )
        .await
        .json();
        assert_eq!(inactive["count"], 2, "anonymous and the removed account");
        let protected = call(
            &app,
            Method::PATCH,
            "/api/users/anonymous/",
            admin,
            Body::Json(json!({"full_name": "X"})),
        )
        .await;
        assert_eq!(protected.status, StatusCode::FORBIDDEN);
        assert_eq!(protected.json()["detail"], "This user can not be edited.");
    }
}

#[actix_web::test]
async fn users_edit_their_own_account() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let jane = Some(ctx.jane.as_str());
        let own = call(
            &app,
            Method::PATCH,
            "/api/users/jane/",
            jane,
            Body::Json(json!({"full_name": "Jane Q. Doe", "username": "queen", "is_superuser": true, "profile": {"nearby_strings": 20}})),
        )
        .await;
        assert_eq!(own.status, StatusCode::OK, "{}", own.text());
        let body = own.json();
        let keys: Vec<&String> = body.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            vec!["id", "email", "full_name", "username", "profile"]
        );
        assert_eq!(body["full_name"], "Jane Q. Doe");
        assert_eq!(
            body["username"], "jane",
            "username is read-only for oneself"
        );
        assert_eq!(body["profile"]["nearby_strings"], 20);
        let admin_view = call(
            &app,
            Method::GET,
            "/api/users/jane/",
            Some(&ctx.admin),
            Body::None,
        )
        .await
        .json();
        assert_eq!(
            admin_view["is_superuser"], false,
            "flags are ignored for oneself"
        );

        let unverified = call(
            &app,
            Method::PATCH,
            "/api/users/jane/",
            jane,
            Body::Json(json!({"email": "other@example.com"})),
        )
        .await;
        assert_eq!(unverified.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            unverified.json()["detail"],
            "This e-mail address has not been verified."
        );
        let others = call(
            &app,
            Method::PATCH,
            "/api/users/admin/",
            jane,
            Body::Json(json!({"full_name": "X"})),
        )
        .await;
        assert_eq!(others.status, StatusCode::FORBIDDEN);
    }
}

#[actix_web::test]
async fn usernames_and_emails_are_unique_whatever_their_case() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let create = |username: &str, email: &str| {
            Body::Json(json!({"username": username, "full_name": "X", "email": email}))
        };
        let clash = call(
            &app,
            Method::POST,
            "/api/users/",
            admin,
            create("JANE", "Jane@Example.com"),
        )
        .await;
        assert_eq!(clash.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            error_codes(&clash.json()),
            [("username", "unique"), ("email", "unique")]
                .map(|(a, c)| (a.to_owned(), c.to_owned()))
        );
        assert_eq!(
            clash.json()["errors"][1]["detail"],
            "User with this Email already exists."
        );
        let alice = call(
            &app,
            Method::POST,
            "/api/users/",
            admin,
            create("alice", "alice@example.com"),
        )
        .await;
        assert_eq!(alice.status, StatusCode::CREATED);
        let renamed = call(
            &app,
            Method::PATCH,
            "/api/users/alice/",
            admin,
            Body::Json(json!({"username": "Jane", "email": "JANE@example.com"})),
        )
        .await;
        assert_eq!(
            error_codes(&renamed.json()),
            [("username", "unique"), ("email", "unique")]
                .map(|(a, c)| (a.to_owned(), c.to_owned()))
        );
        let invalid = call(
            &app,
            Method::POST,
            "/api/users/",
            admin,
            create("bob", "bob@example..com"),
        )
        .await;
        assert_eq!(
            error_codes(&invalid.json()),
            [("email".to_owned(), "invalid".to_owned())]
        );
    }
}

#[actix_web::test]
async fn the_last_active_superuser_stays() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        for (method, body, attr) in [
            (
                Method::PATCH,
                Some(json!({"is_superuser": false})),
                "is_superuser",
            ),
            (
                Method::PATCH,
                Some(json!({"is_active": false})),
                "is_active",
            ),
            (Method::DELETE, None, ""),
        ] {
            let body = body.map_or(Body::None, Body::Json);
            let refused = call(&app, method.clone(), "/api/users/admin/", admin, body).await;
            assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{method}");
            assert_eq!(
                error_codes(&refused.json()),
                [(attr.to_owned(), "invalid".to_owned())],
                "{method}"
            );
        }
        let still = call(&app, Method::GET, "/api/users/admin/", admin, Body::None).await;
        assert_eq!(still.json()["is_superuser"], true);
        assert_eq!(still.json()["is_active"], true);

        // With a second superuser, the first may step down.
        let promoted = call(
            &app,
            Method::PATCH,
            "/api/users/jane/",
            admin,
            Body::Json(json!({"is_superuser": true})),
        )
        .await;
        assert_eq!(promoted.status, StatusCode::OK);
        let removed = call(&app, Method::DELETE, "/api/users/admin/", admin, Body::None).await;
        assert_eq!(removed.status, StatusCode::NO_CONTENT);
        let jane = Some(ctx.jane.as_str());
        let last = call(
            &app,
            Method::PATCH,
            "/api/users/jane/",
            jane,
            Body::Json(json!({"is_superuser": false})),
        )
        .await;
        assert_eq!(
            last.status,
            StatusCode::BAD_REQUEST,
            "jane is now the last one"
        );
    }
}

#[actix_web::test]
async fn contributions_list_the_translations_a_user_changed() {
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = Some(ctx.admin.as_str());
        let jane = Some(ctx.jane.as_str());
        let contributions = "/api/users/admin/contributions/";
        assert_eq!(
            common::get_json(&app, contributions, jane).await["count"],
            json!(0),
            "reading the files is nobody's contribution"
        );

        // A translation edited, a suggestion made (no content change).
        let units = common::get_json(&app, "/api/translations/demo/app/ja/units/", admin).await;
        let unit = units["results"][0]["url"].as_str().unwrap().to_owned();
        let body = json!({"target": ["訳 of mine"], "state": 20});
        let edited = call(&app, Method::PATCH, &unit, admin, Body::Json(body)).await;
        assert_eq!(edited.status, StatusCode::OK, "{}", edited.text());
        let units = common::get_json(&app, "/api/translations/demo/app/ru/units/", admin).await;
        let unit = units["results"][0]["url"].as_str().unwrap().to_owned();
        let suggestion = json!({"target": ["Предложение"]});
        let suggested = call(
            &app,
            Method::POST,
            &format!("{unit}suggestions/"),
            admin,
            Body::Json(suggestion),
        )
        .await;
        assert_eq!(
            suggested.status,
            StatusCode::CREATED,
            "{}",
            suggested.text()
        );

        let listed = common::get_json(&app, contributions, jane).await;
        assert_eq!(listed["count"], json!(1));
        let translation = common::get_json(&app, "/api/translations/demo/app/ja/", jane).await;
        assert_eq!(listed["results"][0], translation);
        let user = common::get_json(&app, "/api/users/admin/", admin).await;
        assert_eq!(
            user["contributions_url"],
            json!(format!("http://{HOST}{contributions}"))
        );

        // Only what the caller sees; anonymous callers see no accounts.
        let anonymous = call(&app, Method::GET, contributions, None, Body::None).await;
        assert_eq!(anonymous.status, StatusCode::NOT_FOUND);
        let past = call(
            &app,
            Method::GET,
            &format!("{contributions}?page=2"),
            jane,
            Body::None,
        )
        .await;
        assert_eq!(past.status, StatusCode::NOT_FOUND);
        common::make_private(&ctx, "demo");
        assert_eq!(
            common::get_json(&app, contributions, jane).await["count"],
            json!(0)
        );
        assert_eq!(
            common::get_json(&app, contributions, admin).await["count"],
            json!(1)
        );
    }
}
