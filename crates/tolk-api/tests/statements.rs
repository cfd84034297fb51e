//! A request costs a fixed number of SQL statements, however long the list.

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
use common::{Body, Ctx, TestApp, call, get_json};
use serde_json::json;
use std::time::Duration;
use tolk_service::ServiceConfig;

/// Contexts on every backend that read the cache generation at every
/// request (no trust), so that a count does not depend on how long ago
/// the last read was; `trusted_generations_save_the_read` shows the reads
/// a running server saves.
fn contexts() -> Vec<Ctx> {
    tolk_service::testing::TestDb::all()
        .into_iter()
        .map(|db| Ctx::with_config(db, trusting(Duration::ZERO)))
        .collect()
}

/// The settings of a test context (no glossaries made), trusting a
/// generation read for `trust`.
fn trusting(trust: Duration) -> ServiceConfig {
    ServiceConfig {
        create_glossaries: false,
        generation_trust: trust,
        ..Default::default()
    }
}

/// The settings of a context that may clone `upstream`, with no trust.
fn untrusting(upstream: &tolk_service::vcs_testing::Upstream) -> ServiceConfig {
    ServiceConfig {
        generation_trust: Duration::ZERO,
        ..ServiceConfig::local(upstream.root())
    }
}

/// Statements run by one request of the superuser.
async fn cost<S: TestApp<B>, B: MessageBody>(ctx: &Ctx, app: &S, uri: &str) -> u64 {
    cost_for(ctx, app, uri, &ctx.admin).await
}

/// Statements run by one request with `token`.
async fn cost_for<S: TestApp<B>, B: MessageBody>(
    ctx: &Ctx,
    app: &S,
    uri: &str,
    token: &str,
) -> u64 {
    let before = ctx.db.store.statements_run();
    let reply = call(app, Method::GET, uri, Some(token), Body::None).await;
    assert_eq!(reply.status, StatusCode::OK, "{uri}: {}", reply.text());
    ctx.db.store.statements_run() - before
}

#[actix_web::test]
async fn list_pages_cost_the_same_for_one_item_and_many() {
    for ctx in contexts() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let create = |i: usize| json!({"name": format!("P{i}"), "slug": format!("p{i}"), "web": "https://example.com/"});
        call(
            &app,
            Method::POST,
            "/api/projects/",
            Some(&ctx.admin),
            Body::Json(create(0)),
        )
        .await;
        let lists = [
            "/api/projects/",
            "/api/changes/",
            "/api/users/",
            "/api/languages/?page_size=1",
            "/api/projects/p0/",
        ];
        let mut small = Vec::new();
        for uri in lists {
            small.push(cost(&ctx, &app, uri).await);
        }
        for i in 1..30 {
            let reply = call(
                &app,
                Method::POST,
                "/api/projects/",
                Some(&ctx.admin),
                Body::Json(create(i)),
            )
            .await;
            assert_eq!(reply.status, StatusCode::CREATED);
        }
        for i in 0..10 {
            let user = json!({"username": format!("u{i}"), "full_name": "U", "email": format!("u{i}@example.com")});
            call(
                &app,
                Method::POST,
                "/api/users/",
                Some(&ctx.admin),
                Body::Json(user),
            )
            .await;
        }
        let mut large = Vec::new();
        for uri in lists {
            large.push(
                cost(
                    &ctx,
                    &app,
                    uri.replace("page_size=1", "page_size=500").as_str(),
                )
                .await,
            );
        }
        assert_eq!(small, large, "statements per request for {lists:?}");
        assert!(large.iter().all(|n| (1..=8).contains(n)), "{large:?}");
    }
}

#[actix_web::test]
async fn component_reads_cost_the_same_for_one_item_and_many() {
    for db in tolk_service::testing::TestDb::all() {
        let upstream = common::upstream();
        let ctx = common::context_with(db, untrusting(&upstream));
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let reads = [
            "/api/components/?page_size=1",
            "/api/projects/demo/components/?page_size=1",
            "/api/translations/?page_size=1",
            "/api/components/demo/app/translations/?page_size=1",
            "/api/components/demo/app/statistics/?page_size=1",
            "/api/projects/demo/statistics/",
            "/api/translations/demo/app/ja/statistics/",
            "/api/translations/demo/app/ja/units/?page_size=1",
            "/api/units/?page_size=1",
            "/api/translations/demo/app/ja/",
            "/api/components/demo/app/",
        ];
        let mut small = Vec::new();
        for uri in reads {
            small.push(cost(&ctx, &app, uri).await);
        }
        // A second component sharing the clone, and every list on long pages.
        let body = json!({"name": "Other", "slug": "other", "repo": upstream.url(),
                          "filemask": "po/*.po", "file_format": "po"});
        call(
            &app,
            Method::POST,
            "/api/projects/demo/components/",
            Some(&ctx.admin),
            Body::Json(body),
        )
        .await;
        ctx.service.tasks().run_due().unwrap();
        let mut large = Vec::new();
        for uri in reads {
            large.push(cost(&ctx, &app, &uri.replace("page_size=1", "page_size=300")).await);
        }
        assert_eq!(small, large, "{reads:?}");
    }
}

#[actix_web::test]
async fn permission_checks_cost_the_same_for_one_team_and_fifty() {
    for ctx in contexts() {
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let admin = Some(ctx.admin.as_str());
        let post = |uri: String, body: serde_json::Value| {
            let app = &app;
            async move {
                let reply = call(app, Method::POST, &uri, admin, Body::Json(body)).await;
                assert!(reply.status.is_success(), "{uri}: {}", reply.text());
                reply.json()
            }
        };
        let mut project_ids = Vec::new();
        for i in 0..100 {
            let body = json!({"name": format!("P{i}"), "slug": format!("p{i}"), "web": "https://example.com/"});
            project_ids.push(post("/api/projects/".into(), body).await["id"].clone());
        }
        let jane = get_json(&app, "/api/users/jane/", admin).await["id"].clone();
        let mut costs = Vec::new();
        for team in 0..50 {
            let made = post(
                "/api/groups/".into(),
                json!({"name": format!("Team {team}"), "project_selection": 0, "language_selection": 1}),
            )
            .await;
            let path = format!("/api/groups/{}/", made["id"]);
            post(format!("{path}roles/"), json!({"role_id": 9})).await;
            for project in &project_ids[team * 2..team * 2 + 2] {
                post(format!("{path}projects/"), json!({"project_id": project})).await;
            }
            post(format!("{path}admins/"), json!({"user_id": jane})).await;
            if team == 0 || team == 49 {
                let uri = "/api/projects/?page_size=100";
                costs.push(cost_for(&ctx, &app, uri, &ctx.jane).await);
            }
        }
        let superuser = cost(&ctx, &app, "/api/projects/?page_size=100").await;
        assert_eq!(
            costs[0], costs[1],
            "one team or fifty: the same statements (superuser: {superuser})"
        );
        assert_eq!(
            costs[1],
            superuser + 6,
            "a user's teams are read in six statements"
        );
    }
}

/// Statements run by one request with a body.
async fn cost_of<S: TestApp<B>, B: MessageBody>(
    ctx: &Ctx,
    app: &S,
    method: Method,
    uri: &str,
    body: serde_json::Value,
) -> (u64, serde_json::Value) {
    let before = ctx.db.store.statements_run();
    let reply = call(app, method, uri, Some(&ctx.admin), Body::Json(body)).await;
    assert_eq!(reply.status, StatusCode::OK, "{uri}: {}", reply.text());
    (ctx.db.store.statements_run() - before, reply.json())
}

#[actix_web::test]
async fn unit_reads_and_edits_cost_a_few_statements() {
    for db in tolk_service::testing::TestDb::all() {
        let upstream = common::upstream();
        let ctx = common::context_with(db, untrusting(&upstream));
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let page = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?page_size=3",
            Some(&ctx.admin),
        )
        .await;
        let id = page["results"][2]["id"].as_i64().unwrap();
        let uri = format!("/api/units/{id}/");
        // The first request of a token reads it and its grants; later ones
        // only check that nothing changed since.
        cost(&ctx, &app, &uri).await;
        let read = cost(&ctx, &app, &uri).await;
        let listed = cost(
            &ctx,
            &app,
            "/api/translations/demo/app/ja/units/?page_size=3",
        )
        .await;
        let (patch, _) = cost_of(
            &ctx,
            &app,
            Method::PATCH,
            &uri,
            json!({"target": ["訳"], "state": 20}),
        )
        .await;
        let (again, _) = cost_of(
            &ctx,
            &app,
            Method::PATCH,
            &uri,
            json!({"target": ["訳す"], "state": 10}),
        )
        .await;
        // The cache generation is read with the token's check, then with the unit.
        assert_eq!(read, 2, "unit GET");
        // The token's check; the translation with the cache generation (its
        // component and languages from the cache, its number of units from
        // its counters); the page. No labels to read: none of these
        // strings has one.
        assert_eq!(listed, 3, "page of units");
        // BEGIN, the translation's lock (PostgreSQL), the unit, its update,
        // the counters and their difference for the statistics kept above
        // the translation, the change, its per-minute tally (for the project's
        // recent changes), the author's count, the translation
        // memory (for the translated string, not the one needing editing),
        // COMMIT; the first edit in a project also reads which of its
        // components share translations (kept until its components change).
        let pg = u64::from(matches!(
            ctx.service.backend(),
            tolk_service::BackendKind::Postgres
        ));
        assert_eq!((patch, again), (12 + pg, 10 + pg), "unit PATCH");
        // In a language of several plural forms, the units holding the
        // old and new texts too (the reused check; Japanese has one form).
        let page = get_json(
            &app,
            "/api/translations/demo/app/ru/units/?page_size=3",
            Some(&ctx.admin),
        )
        .await;
        let uri = format!("/api/units/{}/", page["results"][2]["id"]);
        let body = json!({"target": ["перевод"], "state": 10});
        let (russian, _) = cost_of(&ctx, &app, Method::PATCH, &uri, body).await;
        assert_eq!(russian, again + 1, "unit PATCH in Russian");
    }
}

/// Statements and status of jane's look at herself on `app`.
async fn jane_cost<S: TestApp<B>, B: MessageBody>(
    ctx: &Ctx,
    app: &S,
    token: &str,
) -> (StatusCode, u64) {
    let before = ctx.db.store.statements_run();
    let reply = call(
        app,
        Method::GET,
        "/api/users/jane/",
        Some(token),
        Body::None,
    )
    .await;
    (reply.status, ctx.db.store.statements_run() - before)
}

#[actix_web::test]
async fn trusted_generations_save_the_read() {
    for db in tolk_service::testing::TestDb::all() {
        // Trusted for an hour: only commits make the next request read.
        let ctx = Ctx::with_config(db, trusting(Duration::from_secs(3600)));
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        // A second instance on the same store that reads at every request.
        let reading = tolk_service::Service::new(ctx.db.store.clone(), trusting(Duration::ZERO));
        let reading = test::init_service(tolk_api::app(tolk_api::AppState {
            service: reading.unwrap(),
            ..ctx.unthrottled_state()
        }))
        .await;
        let jane = ctx.jane.as_str();
        for app_warmed in [
            jane_cost(&ctx, &app, jane).await,
            jane_cost(&ctx, &reading, jane).await,
        ] {
            assert_eq!(app_warmed.0, StatusCode::OK);
        }
        let read = jane_cost(&ctx, &reading, jane).await.1;
        let kept = jane_cost(&ctx, &app, jane).await.1;
        assert_eq!(kept + 1, read, "the generation's read saved");
        assert_eq!(
            jane_cost(&ctx, &app, jane).await.1,
            kept,
            "while nothing is committed"
        );

        // A commit of this process: the next request reads the generation.
        let made = call(
            &app,
            Method::POST,
            "/api/projects/",
            Some(&ctx.admin),
            Body::Json(json!({"name": "P", "slug": "p", "web": "https://example.com/"})),
        )
        .await;
        assert_eq!(made.status, StatusCode::CREATED);
        assert!(
            jane_cost(&ctx, &app, jane).await.1 > kept,
            "read after a commit"
        );
        assert_eq!(
            jane_cost(&ctx, &app, jane).await.1,
            kept,
            "then trusted again"
        );

        // A change of standing through this process holds at once.
        let off = call(
            &app,
            Method::PATCH,
            "/api/users/jane/",
            Some(&ctx.admin),
            Body::Json(json!({"is_active": false})),
        )
        .await;
        assert_eq!(off.status, StatusCode::OK, "{}", off.text());
        assert_eq!(
            jane_cost(&ctx, &app, jane).await.0,
            StatusCode::UNAUTHORIZED
        );
    }
}
