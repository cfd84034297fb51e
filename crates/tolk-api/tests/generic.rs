//! The API's generic behaviour: routing, links, formats, errors, authentication.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, Ctx, HOST, assert_same_shape, call, sample};
use serde_json::json;
use std::sync::Arc;
use tolk_api::{AppState, RateLimits, Throttle};

#[actix_web::test]
async fn root_lists_resources_with_request_host_links() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let with_slash = call(&app, Method::GET, "/api/", None, Body::None).await;
        assert_eq!(with_slash.status, StatusCode::OK);
        let root = with_slash.json();
        assert_same_shape(&root, &sample("01-api-root"), "root");
        assert_eq!(root["projects"], format!("http://{HOST}/api/projects/"));
        assert_eq!(
            root["component-lists"],
            format!("http://{HOST}/api/component-lists/")
        );
        let without = call(&app, Method::GET, "/api", None, Body::None).await;
        assert_eq!(without.status, StatusCode::OK, "no redirect");
        assert_eq!(without.json(), root);
        assert_eq!(with_slash.header("allow"), Some("GET, HEAD, OPTIONS"));
        assert_eq!(with_slash.header("vary"), Some("Accept"));
    }
}

#[actix_web::test]
async fn methods_head_and_options() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let denied = call(&app, Method::DELETE, "/api/", Some(&ctx.admin), Body::None).await;
        assert_eq!(denied.status, StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(denied.header("allow"), Some("GET, HEAD, OPTIONS"));
        assert_eq!(
            denied.json(),
            json!({"type": "client_error", "errors": [{"code": "method_not_allowed", "detail": "Method \"DELETE\" not allowed.", "attr": null}], "detail": "Method \"DELETE\" not allowed."})
        );
        let head = call(&app, Method::HEAD, "/api/projects", None, Body::None).await;
        assert_eq!(head.status, StatusCode::OK);
        assert!(head.body.is_empty());
        assert_eq!(head.header("allow"), Some("GET, POST, HEAD, OPTIONS"));
        let options = call(
            &app,
            Method::OPTIONS,
            "/api/projects/demo/",
            None,
            Body::None,
        )
        .await;
        assert_eq!(options.status, StatusCode::OK);
        assert_eq!(
            options.header("allow"),
            Some("GET, PUT, PATCH, DELETE, HEAD, OPTIONS")
        );
        assert_eq!(
            options.json()["renders"],
            json!(["application/json", "text/html", "text/csv"])
        );
        let unknown = call(&app, Method::GET, "/api/nonexistent/", None, Body::None).await;
        assert_eq!(unknown.status, StatusCode::NOT_FOUND);
        assert_eq!(unknown.json()["errors"][0]["code"], "not_found");
    }
}

#[actix_web::test]
async fn formats_and_content_negotiation() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let html = call(&app, Method::GET, "/api/?format=api", None, Body::None).await;
        assert_eq!(html.status, StatusCode::OK);
        assert_eq!(
            html.header("content-type"),
            Some("text/html; charset=utf-8")
        );
        let page = html.text();
        assert!(
            page.contains(&format!("<a href=\"http://{HOST}/api/projects/\">")),
            "{page}"
        );
        let json = call(&app, Method::GET, "/api/?format=json", None, Body::None).await;
        assert_eq!(json.header("content-type"), Some("application/json"));
        let unknown = call(&app, Method::GET, "/api/?format=yaml", None, Body::None).await;
        assert_eq!(unknown.status, StatusCode::NOT_FOUND);

        let req = test::TestRequest::get()
            .uri("/api/projects/")
            .insert_header(("accept", "application/xml"))
            .to_request();
        let refused = test::call_service(&app, req).await;
        assert_eq!(refused.status(), StatusCode::NOT_ACCEPTABLE);
        let body: serde_json::Value = test::read_body_json(refused).await;
        assert_eq!(body["errors"][0]["code"], "not_acceptable");

        let req = test::TestRequest::get()
            .uri("/api/projects/")
            .insert_header(("accept", "text/html,application/xhtml+xml,*/*;q=0.8"))
            .to_request();
        let browser = test::call_service(&app, req).await;
        assert_eq!(
            browser.headers().get("content-type").unwrap(),
            "text/html; charset=utf-8"
        );

        let admin = Some(ctx.admin.as_str());
        let czech = call(&app, Method::GET, "/api/languages/cs/", admin, Body::None).await;
        let czech = czech.json();
        let csv = call(
            &app,
            Method::GET,
            "/api/languages/cs/?format=csv",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(csv.status, StatusCode::OK);
        assert_eq!(csv.header("content-type"), Some("text/csv; charset=utf-8"));
        let cell = |v: &serde_json::Value| v.as_str().map_or_else(|| v.to_string(), str::to_owned);
        let expected = format!(
            "aliases.0,aliases.1,aliases.2,aliases.3,aliases.4,aliases.5,code,direction,id,name,plural.formula,plural.id,plural.number,plural.source,plural.type,population,statistics_url,url,web_url\r\n\
             ces,cs_cs,cs_cz,csy,cz,cze,cs,ltr,{},Czech,(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2,{},3,0,22,13236057,{},{},{}\r\n",
            czech["id"],
            czech["plural"]["id"],
            cell(&czech["statistics_url"]),
            cell(&czech["url"]),
            cell(&czech["web_url"])
        );
        assert_eq!(csv.text(), expected);
        let suffixed = call(
            &app,
            Method::GET,
            "/api/languages/cs.csv",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(suffixed.text(), expected, "a format suffix is ?format=");
        let empty = call(
            &app,
            Method::GET,
            "/api/projects/?format=csv",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(
            (empty.status, empty.text()),
            (StatusCode::OK, String::new())
        );

        let project = json!({"name": "Demo", "slug": "demo", "web": "https://example.com/"});
        call(
            &app,
            Method::POST,
            "/api/projects/",
            admin,
            Body::Json(project),
        )
        .await;
        for path in [
            "/api/projects/demo/languages/",
            "/api/projects/demo/statistics/",
        ] {
            let plain = call(&app, Method::GET, path, admin, Body::None)
                .await
                .json();
            let uri = format!("{path}?format=json-flat");
            let flat = call(&app, Method::GET, &uri, admin, Body::None).await;
            assert_eq!(flat.status, StatusCode::OK, "{path}");
            let items = plain.get("results").cloned().unwrap_or(plain);
            assert_eq!(flat.json(), items, "{path}");
        }
        let flat = call(
            &app,
            Method::GET,
            "/api/?format=json-flat",
            None,
            Body::None,
        )
        .await;
        assert_eq!(
            flat.status,
            StatusCode::NOT_FOUND,
            "only where Weblate offers it"
        );
    }
}

#[actix_web::test]
async fn authentication_errors() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let bad = call(
            &app,
            Method::GET,
            "/api/projects/",
            Some("wlu_nope"),
            Body::None,
        )
        .await;
        assert_eq!(bad.status, StatusCode::UNAUTHORIZED);
        assert_eq!(bad.header("www-authenticate"), Some("Token"));
        assert_eq!(
            bad.json(),
            json!({"type": "client_error", "errors": [{"code": "authentication_failed", "detail": "Invalid token.", "attr": null}], "detail": "Invalid token."})
        );
        let anonymous_write = call(
            &app,
            Method::POST,
            "/api/projects/",
            None,
            Body::Json(json!({"name": "X"})),
        )
        .await;
        assert_eq!(anonymous_write.status, StatusCode::UNAUTHORIZED);
        assert_eq!(
            anonymous_write.json()["errors"][0]["code"],
            "not_authenticated"
        );

        let req = test::TestRequest::get()
            .uri("/api/metrics/")
            .insert_header(("authorization", format!("Bearer {}", ctx.admin)))
            .to_request();
        assert_eq!(test::call_service(&app, req).await.status(), StatusCode::OK);
        let anonymous_metrics = call(&app, Method::GET, "/api/metrics/", None, Body::None).await;
        assert_eq!(anonymous_metrics.status, StatusCode::UNAUTHORIZED);

        let deactivate = call(
            &app,
            Method::PATCH,
            "/api/users/jane/",
            Some(&ctx.admin),
            Body::Json(json!({"is_active": false})),
        )
        .await;
        assert_eq!(deactivate.status, StatusCode::OK);
        let inactive = call(
            &app,
            Method::GET,
            "/api/projects/",
            Some(&ctx.jane),
            Body::None,
        )
        .await;
        assert_eq!(inactive.status, StatusCode::UNAUTHORIZED);
        assert_eq!(inactive.json()["detail"], "User inactive or deleted.");
    }
}

#[actix_web::test]
async fn request_bodies_in_every_encoding() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let token = Some(ctx.admin.as_str());
        let malformed = call(
            &app,
            Method::POST,
            "/api/projects/",
            token,
            Body::Raw("application/json", "{\"name\": "),
        )
        .await;
        assert_eq!(malformed.status, StatusCode::BAD_REQUEST);
        let error = malformed.json();
        assert_eq!(error["type"], "client_error");
        assert_eq!(error["errors"][0]["code"], "parse_error");
        assert!(
            error["detail"]
                .as_str()
                .unwrap()
                .starts_with("JSON parse error - ")
        );

        let not_object = call(
            &app,
            Method::POST,
            "/api/projects/",
            token,
            Body::Raw("application/json", "[1]"),
        )
        .await;
        assert_eq!(not_object.status, StatusCode::BAD_REQUEST);
        assert_eq!(not_object.json()["errors"][0]["attr"], "non_field_errors");

        let form = call(
            &app,
            Method::POST,
            "/api/projects/",
            token,
            Body::Raw(
                "application/x-www-form-urlencoded",
                "name=Form&slug=form&web=https%3A%2F%2Fform.example%2F&enforced_checks=same&enforced_checks=end_stop&translation_review=on",
            ),
        )
        .await;
        assert_eq!(form.status, StatusCode::CREATED, "{}", form.text());
        let created = form.json();
        assert_eq!(created["enforced_checks"], json!(["same", "end_stop"]));
        assert_eq!(created["translation_review"], true);

        let boundary = "XBOUNDARYX";
        let multipart = format!(
            "--{b}\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nMulti\r\n--{b}\r\nContent-Disposition: form-data; name=\"slug\"\r\n\r\nmulti\r\n--{b}\r\nContent-Disposition: form-data; name=\"web\"\r\n\r\nhttps://multi.example/\r\n--{b}--\r\n",
            b = boundary
        );
        let content_type = format!("multipart/form-data; boundary={boundary}");
        let multi = call(
            &app,
            Method::POST,
            "/api/projects/",
            token,
            Body::Raw(&content_type, &multipart),
        )
        .await;
        assert_eq!(multi.status, StatusCode::CREATED, "{}", multi.text());
        assert_eq!(multi.json()["slug"], "multi");

        let unsupported = call(
            &app,
            Method::POST,
            "/api/projects/",
            token,
            Body::Raw("text/plain", "hello"),
        )
        .await;
        assert_eq!(unsupported.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert_eq!(
            unsupported.json()["detail"],
            "Unsupported media type \"text/plain\" in request."
        );
    }
}

#[actix_web::test]
async fn pagination_links_and_limits() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let token = Some(ctx.admin.as_str());
        let first = call(
            &app,
            Method::GET,
            "/api/languages/?page_size=300&x=1",
            token,
            Body::None,
        )
        .await
        .json();
        assert_eq!(first["count"], 799);
        assert_eq!(first["results"].as_array().unwrap().len(), 300);
        assert_eq!(first["previous"], json!(null));
        assert_eq!(
            first["next"],
            format!("http://{HOST}/api/languages/?page=2&page_size=300&x=1")
        );
        let second = call(
            &app,
            Method::GET,
            "/api/languages/?page=2&page_size=300&x=1",
            token,
            Body::None,
        )
        .await
        .json();
        assert_eq!(
            second["previous"],
            format!("http://{HOST}/api/languages/?page_size=300&x=1")
        );
        assert_eq!(
            second["results"][0]["id"],
            first["results"][299]["id"].as_i64().unwrap() + 1
        );
        let last = call(
            &app,
            Method::GET,
            "/api/languages/?page=last&page_size=300",
            token,
            Body::None,
        )
        .await
        .json();
        assert_eq!(last["results"].as_array().unwrap().len(), 199);
        assert_eq!(last["next"], json!(null));
        let clamped = call(
            &app,
            Method::GET,
            "/api/languages/?page_size=5000",
            token,
            Body::None,
        )
        .await
        .json();
        assert_eq!(clamped["results"].as_array().unwrap().len(), 799);
        let default = call(&app, Method::GET, "/api/languages/", token, Body::None)
            .await
            .json();
        assert_eq!(default["results"].as_array().unwrap().len(), 50);
        for bad in ["/api/projects/?page=99", "/api/projects/?page=x"] {
            let past = call(&app, Method::GET, bad, token, Body::None).await;
            assert_eq!(past.status, StatusCode::NOT_FOUND);
            assert_eq!(past.json()["detail"], "Invalid page.");
        }
    }
}

#[actix_web::test]
async fn metrics_report_counts_in_json_and_openmetrics() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let token = Some(ctx.admin.as_str());
        let metrics = call(&app, Method::GET, "/api/metrics/", token, Body::None)
            .await
            .json();
        assert_same_shape(&metrics, &common::sample("32-metrics"), "metrics");
        assert_eq!(metrics["users"], 3, "anonymous, admin and jane");
        assert_eq!(metrics["languages"], 799);
        assert_eq!(metrics["changes"], 2, "two accounts created");
        let text = call(
            &app,
            Method::GET,
            "/api/metrics/?format=openmetrics",
            token,
            Body::None,
        )
        .await;
        assert_eq!(
            text.header("content-type"),
            Some("application/openmetrics-text; version=1.0.0; charset=utf-8")
        );
        let body = text.text();
        assert!(body.contains("# TYPE users gauge\nusers 3\n"), "{body}");
        assert!(body.contains("celery_queues{queue=\"notify\"} 0\n"));
        assert!(body.ends_with("# EOF\n"));
    }
}

#[actix_web::test]
async fn rate_limits_count_per_caller_and_refuse_with_429() {
    for ctx in Ctx::all() {
        let limits = RateLimits {
            anon: Some("2/minute".parse().unwrap()),
            user: Some("3/hour".parse().unwrap()),
        };
        let state = AppState {
            throttle: Arc::new(Throttle::new(limits)),
            ..ctx.state()
        };
        let app = test::init_service(tolk_api::app(state)).await;
        let counts = |reply: &common::Reply| {
            [
                "x-ratelimit-limit",
                "x-ratelimit-remaining",
                "x-ratelimit-reset",
            ]
            .map(|name| reply.header(name).map(str::to_owned))
        };
        let some = |limit: &str, remaining: &str, reset: &str| {
            [limit, remaining, reset].map(|v| Some(v.to_owned()))
        };
        let first = call(&app, Method::GET, "/api/", None, Body::None).await;
        assert_eq!(first.status, StatusCode::OK);
        // Reset: seconds until the whole limit is available again.
        assert_eq!(counts(&first), some("2", "1", "30"), "the anonymous limit");
        let second = call(&app, Method::GET, "/api/projects/", None, Body::None).await;
        assert_eq!(counts(&second)[..2], some("2", "0", "60")[..2]);
        let refused = call(&app, Method::GET, "/api/languages/", None, Body::None).await;
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
        let wait: u64 = refused.header("retry-after").unwrap().parse().unwrap();
        assert!((1..=60).contains(&wait), "{wait}");
        let detail = format!("Request was throttled. Expected available in {wait} seconds.");
        assert_eq!(
            refused.json(),
            json!({"type": "client_error", "errors": [{"code": "throttled", "detail": detail, "attr": null}], "detail": detail})
        );
        assert_eq!(refused.header("x-ratelimit-remaining"), Some("0"));
        // A signed-in user has a window of their own, under the user limit.
        let signed_in = call(&app, Method::GET, "/api/", Some(&ctx.admin), Body::None).await;
        assert_eq!(signed_in.status, StatusCode::OK);
        assert_eq!(counts(&signed_in), some("3", "2", "1200"));
        // A bad token is refused before it counts; documentation is not limited.
        let bad = call(&app, Method::GET, "/api/", Some("wlu_nope"), Body::None).await;
        assert_eq!(bad.status, StatusCode::UNAUTHORIZED);
        assert_eq!(bad.header("x-ratelimit-limit"), None);
        let schema = call(&app, Method::GET, "/api/schema/", None, Body::None).await;
        assert_eq!(schema.status, StatusCode::OK);
        assert_eq!(schema.header("x-ratelimit-limit"), None);
    }
}

#[actix_web::test]
async fn served_schema_and_docs() {
    for ctx in Ctx::all() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let schema = call(&app, Method::GET, "/api/schema/", None, Body::None).await;
        assert_eq!(schema.status, StatusCode::OK);
        let served = schema.json();
        let generated: serde_json::Value =
            serde_json::from_str(&tolk_api::openapi::document_json()).unwrap();
        assert_eq!(served, generated);
        let patch = &served["paths"]["/api/projects/{slug}/"]["patch"]["operationId"];
        assert_eq!(patch, "projects_partial_update");
        let mut ids: Vec<&str> = served["paths"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|item| item.as_object().unwrap().values())
            .map(|op| op["operationId"].as_str().unwrap())
            .collect();
        let total = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), total, "operation ids are unique");
        let untyped: Vec<String> = served["paths"]
            .as_object()
            .unwrap()
            .iter()
            .flat_map(|(path, item)| {
                item.as_object()
                    .unwrap()
                    .iter()
                    .map(move |(method, op)| (path, method, op))
            })
            .flat_map(|(path, method, op)| {
                let media = op["requestBody"]["content"].as_object().cloned();
                media
                    .into_iter()
                    .flatten()
                    .filter(|(_, content)| content.get("schema").is_none())
                    .map(move |(kind, _)| format!("{method} {path} {kind}"))
            })
            .collect();
        assert_eq!(
            untyped,
            Vec::<String>::new(),
            "every request body has a schema"
        );
        let docs = call(&app, Method::GET, "/api/docs/", None, Body::None).await;
        assert_eq!(docs.status, StatusCode::OK);
        assert!(docs.text().contains("swagger"), "{}", docs.text());
        let bare = call(&app, Method::GET, "/api/docs", None, Body::None).await;
        assert_eq!(
            bare.status,
            StatusCode::PERMANENT_REDIRECT,
            "the browser page needs its slash"
        );
        assert_eq!(bare.header("location"), Some("/api/docs/"));
    }
}

#[actix_web::test]
async fn openapi_document_is_fresh() {
    let path = format!("{}/../../openapi/openapi.json", env!("CARGO_MANIFEST_DIR"));
    let stored = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        stored == tolk_api::openapi::document_json(),
        "openapi/openapi.json is stale: run `cargo xtask openapi`"
    );
}

#[actix_web::test]
async fn forwarding_headers_count_from_trusted_proxies_only() {
    for ctx in Ctx::all() {
        let mut state = ctx.state();
        state.trusted_proxies = "10.0.0.0/8".parse().unwrap();
        state.throttle = std::sync::Arc::new(tolk_api::Throttle::new(tolk_api::RateLimits {
            anon: Some("1/minute".parse().unwrap()),
            user: None,
        }));
        let app = test::init_service(tolk_api::app(state)).await;
        let send = |peer: &str, forwarded_for: &str| {
            test::TestRequest::get()
                .uri("/api/")
                .peer_addr(format!("{peer}:5000").parse().unwrap())
                .insert_header(("host", HOST))
                .insert_header(("x-forwarded-for", forwarded_for.to_owned()))
                .insert_header(("x-forwarded-proto", "https"))
                .insert_header(("x-forwarded-host", "l10n.example.com"))
                .to_request()
        };
        let proxied = test::call_service(&app, send("10.0.0.1", "203.0.113.1")).await;
        assert_eq!(proxied.status(), StatusCode::OK);
        let root: serde_json::Value = test::read_body_json(proxied).await;
        assert_eq!(root["projects"], "https://l10n.example.com/api/projects/");
        // Behind the proxy, each client has its own limit...
        let other = test::call_service(&app, send("10.0.0.1", "203.0.113.2")).await;
        assert_eq!(other.status(), StatusCode::OK);
        let again = test::call_service(&app, send("10.0.0.1", "203.0.113.1")).await;
        assert_eq!(again.status(), StatusCode::TOO_MANY_REQUESTS);
        // ...and a client that is no trusted proxy forwards nothing.
        let direct = test::call_service(&app, send("198.51.100.1", "203.0.113.3")).await;
        assert_eq!(direct.status(), StatusCode::OK);
        let root: serde_json::Value = test::read_body_json(direct).await;
        assert_eq!(root["projects"], format!("http://{HOST}/api/projects/"));
        let spoofed = test::call_service(&app, send("198.51.100.1", "203.0.113.4")).await;
        assert_eq!(
            spoofed.status(),
            StatusCode::TOO_MANY_REQUESTS,
            "a forged X-Forwarded-For does not escape the limit"
        );
    }
}
