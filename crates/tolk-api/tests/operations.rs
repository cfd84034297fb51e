//! `/healthz`, `/readyz` and `/metrics`: answered without an account,
//! cheap, honest about what fails, and counting what the server did; on
//! both databases.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, HOST, call};
use serde_json::json;
use tolk_service::ServiceConfig;
use tolk_service::testing::TestDb;

/// The value of the series `series` (name and labels as written) in an
/// OpenMetrics text, if it is there.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

#[actix_web::test]
async fn health_and_readiness_need_no_account_and_tell_what_fails() {
    for db in TestDb::all() {
        let ctx = common::Ctx::new(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let before = ctx.db.store.statements_run();
        // A token that names nobody is not even looked at.
        let alive = call(&app, Method::GET, "/healthz", Some("wrong"), Body::None).await;
        assert_eq!(alive.status, StatusCode::OK);
        assert_eq!(alive.json(), json!({"status": "ok"}));
        assert_eq!(
            ctx.db.store.statements_run(),
            before,
            "/healthz reads nothing"
        );
        // Weblate's spelling, with the slash, answers the same.
        let slashed = call(&app, Method::GET, "/healthz/", Some("wrong"), Body::None).await;
        assert_eq!(
            (slashed.status, slashed.json()),
            (StatusCode::OK, json!({"status": "ok"}))
        );

        let ready = call(&app, Method::GET, "/readyz", None, Body::None).await;
        assert_eq!(ready.status, StatusCode::OK, "{}", ready.text());
        assert_eq!(
            ready.json(),
            json!({"status": "ready", "checks": {"database": "ok", "data_directory": "ok", "git": "ok"}})
        );
        assert_eq!(
            ctx.db.store.statements_run(),
            before + 1,
            "/readyz runs one statement"
        );

        // Checks at once (probes, several instances) never fail each other.
        let checks: Vec<_> = (0..16)
            .map(|_| {
                let service = ctx.service.clone();
                std::thread::spawn(move || {
                    (0..20).all(|_| service.site().readiness().data_directory)
                })
            })
            .collect();
        assert!(checks.into_iter().all(|c| c.join().unwrap()));

        // A data directory that cannot be made (under a file) fails its
        // check and only that one, without saying where it is.
        let file = tempfile::NamedTempFile::new().unwrap();
        let broken = tolk_service::Service::new(
            ctx.db.store.clone(),
            ServiceConfig {
                vcs_root: file.path().join("vcs"),
                ..ServiceConfig::default()
            },
        )
        .unwrap();
        let app = test::init_service(tolk_api::app(tolk_api::AppState {
            service: broken,
            ..ctx.state()
        }))
        .await;
        let not_ready = call(&app, Method::GET, "/readyz", None, Body::None).await;
        assert_eq!(not_ready.status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            not_ready.json(),
            json!({"status": "not ready", "checks": {"database": "ok", "data_directory": "failing", "git": "ok"}})
        );
        assert!(!not_ready.text().contains(&*file.path().to_string_lossy()));
    }
}

#[actix_web::test]
async fn metrics_count_requests_tasks_connections_and_git() {
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        for _ in 0..3 {
            let page = call(&app, Method::GET, "/api/projects/demo/", admin, Body::None).await;
            assert_eq!(page.status, StatusCode::OK);
        }
        let missing = call(
            &app,
            Method::GET,
            "/api/projects/nothing/",
            admin,
            Body::None,
        )
        .await;
        assert_eq!(missing.status, StatusCode::NOT_FOUND);
        // A method HTTP does not define adds no series of its own.
        let brew = Method::from_bytes(b"BREW").unwrap();
        call(&app, brew, "/api/projects/demo/", admin, Body::None).await;

        let reply = call(&app, Method::GET, "/metrics", None, Body::None).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
        assert_eq!(
            reply.header("content-type"),
            Some("application/openmetrics-text; version=1.0.0; charset=utf-8")
        );
        let text = reply.text();
        assert!(text.ends_with("# EOF\n"), "{text}");
        assert!(text.contains(r#"method="other""#), "{text}");
        assert!(!text.contains("BREW"), "{text}");
        let project = r#"route="/api/projects/{slug}/",method="GET""#;
        assert_eq!(
            sample(
                &text,
                &format!("tolk_http_requests_total{{{project},status=\"200\"}}")
            ),
            Some(3.0),
            "{text}"
        );
        assert_eq!(
            sample(
                &text,
                &format!("tolk_http_requests_total{{{project},status=\"404\"}}")
            ),
            Some(1.0)
        );
        assert_eq!(
            sample(
                &text,
                &format!("tolk_http_request_duration_seconds_count{{{project}}}")
            ),
            Some(4.0)
        );
        assert_eq!(
            sample(
                &text,
                &format!("tolk_http_request_duration_seconds_bucket{{le=\"+Inf\",{project}}}")
            ),
            Some(4.0),
            "{text}"
        );
        // The component's setup ran as a finished task: nothing waits.
        assert_eq!(sample(&text, r#"tolk_tasks{state="queued"}"#), Some(0.0));
        assert_eq!(sample(&text, r#"tolk_tasks{state="running"}"#), Some(0.0));
        assert_eq!(sample(&text, r#"tolk_tasks{state="failed"}"#), Some(0.0));
        assert!(
            sample(
                &text,
                r#"tolk_git_processes_total{command="clone",outcome="success"}"#
            )
            .is_some_and(|n| n >= 1.0),
            "{text}"
        );
        assert!(sample(&text, "tolk_db_statements_total").is_some_and(|n| n > 0.0));
        assert!(sample(&text, "tolk_db_pool_size").is_some_and(|n| n >= 1.0));
        assert!(text.contains(&format!(
            "tolk_build_info{{version=\"{}\"}} 1",
            env!("CARGO_PKG_VERSION")
        )));

        // Asked for the classic text format (older Prometheus tools): the
        // same samples, each under a family of its own name and a type
        // that format knows.
        let classic = test::TestRequest::get()
            .uri("/metrics")
            .insert_header(("host", HOST))
            .insert_header(("accept", "text/plain;version=0.0.4"))
            .to_request();
        let reply = test::call_service(&app, classic).await;
        assert_eq!(reply.status(), StatusCode::OK);
        assert_eq!(
            reply.headers().get("content-type").unwrap(),
            "text/plain; version=0.0.4; charset=utf-8"
        );
        let classic = String::from_utf8(test::read_body(reply).await.to_vec()).unwrap();
        assert!(!classic.contains("# EOF"), "{classic}");
        assert!(
            classic.contains("# TYPE tolk_build_info gauge\n"),
            "{classic}"
        );
        assert!(classic.contains("# TYPE tolk_http_requests_total counter\n"));
        let mut families: Vec<(String, String)> = Vec::new();
        for line in classic.lines() {
            if let Some(declared) = line.strip_prefix("# TYPE ") {
                let (name, kind) = declared.split_once(' ').unwrap();
                assert!(["counter", "gauge", "histogram"].contains(&kind), "{line}");
                families.push((name.to_owned(), kind.to_owned()));
                continue;
            }
            if line.starts_with('#') {
                continue;
            }
            let name = line.split(['{', ' ']).next().unwrap();
            let (family, kind) = families.last().expect("a family before its samples");
            let own = match kind.as_str() {
                "histogram" => ["_bucket", "_sum", "_count"]
                    .iter()
                    .any(|s| name.strip_suffix(s) == Some(family.as_str())),
                _ => name == family,
            };
            assert!(own, "{name} under {family} ({kind})");
        }
        assert_eq!(
            sample(&classic, "tolk_db_pool_size"),
            sample(&text, "tolk_db_pool_size")
        );

        // With a token configured, /metrics answers only its bearer.
        let guarded = test::init_service(tolk_api::app(tolk_api::AppState {
            metrics_token: Some("s3cret".into()),
            ..ctx.state()
        }))
        .await;
        let ask = |authorization: Option<&'static str>| {
            let mut req = test::TestRequest::get()
                .uri("/metrics")
                .insert_header(("host", HOST));
            if let Some(value) = authorization {
                req = req.insert_header(("authorization", value));
            }
            req.to_request()
        };
        for refused in [None, Some("Bearer wrong"), Some("Token s3cret")] {
            let reply = test::call_service(&guarded, ask(refused)).await;
            assert_eq!(reply.status(), StatusCode::UNAUTHORIZED, "{refused:?}");
        }
        let reply = test::call_service(&guarded, ask(Some("Bearer s3cret"))).await;
        assert_eq!(reply.status(), StatusCode::OK);
    }
}
