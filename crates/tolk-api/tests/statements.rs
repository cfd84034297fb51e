//! A request costs a fixed number of SQL statements, however long the list.

mod common;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, Ctx, call};
use serde_json::json;

/// Statements run by one request.
async fn cost<S, B>(ctx: &Ctx, app: &S, uri: &str) -> u64
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let before = ctx.db.store.statements_run();
    let reply = call(app, Method::GET, uri, Some(&ctx.admin), Body::None).await;
    assert_eq!(reply.status, StatusCode::OK, "{uri}: {}", reply.text());
    ctx.db.store.statements_run() - before
}

#[actix_web::test]
async fn list_pages_cost_the_same_for_one_item_and_many() {
    for ctx in Ctx::all() {
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
        let ctx = common::context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.state())).await;
        let reads = [
            "/api/components/?page_size=1",
            "/api/projects/demo/components/?page_size=1",
            "/api/translations/?page_size=1",
            "/api/components/demo/app/translations/?page_size=1",
            "/api/components/demo/app/statistics/?page_size=1",
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
        ctx.service.run_due_tasks().unwrap();
        let mut large = Vec::new();
        for uri in reads {
            large.push(cost(&ctx, &app, &uri.replace("page_size=1", "page_size=300")).await);
        }
        assert_eq!(small, large, "{reads:?}");
    }
}
