//! Every link Tolk hands out answers: the API links and the browser links
//! (`web_url`, `translate_url`, …) of every kind of object, followed as a
//! client or a browser would, in the whole application (the API with the
//! pages beside it), lead to a 200, never to a 404.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use std::collections::BTreeSet;

use actix_web::http::{Method, StatusCode};
use actix_web::test;
use common::{Body, HOST, SITE, call, get_json};
use serde_json::Value;
use tolk_service::testing::TestDb;

/// Every string in `value` that is a link of this server (API or browser).
fn links(value: &Value, found: &mut BTreeSet<String>) {
    match value {
        Value::String(text) => {
            for origin in [format!("http://{HOST}"), SITE.to_owned()] {
                if let Some(path) = text.strip_prefix(&origin) {
                    found.insert(path.to_owned());
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| links(v, found)),
        Value::Object(map) => map.values().for_each(|v| links(v, found)),
        _ => {}
    }
}

#[actix_web::test]
async fn every_link_handed_out_answers() {
    for db in TestDb::all() {
        let (_upstream, ctx) = common::with_gettext(db);
        let state = ctx.unthrottled_state();
        let pages = tolk_web::Pages::open(state.service.clone(), SITE).unwrap();
        let app = test::init_service(tolk_api::app_with(state, tolk_web::configure(pages))).await;
        let admin = Some(ctx.admin.as_str());

        let unit = get_json(
            &app,
            "/api/translations/demo/app/ja/units/?page_size=1",
            admin,
        )
        .await["results"][0]["url"]
            .as_str()
            .unwrap()
            .to_owned();
        let mut found = BTreeSet::new();
        for object in [
            "/api/",
            "/api/projects/demo/",
            "/api/components/demo/app/",
            "/api/translations/demo/app/ja/",
            unit.as_str(),
            "/api/languages/ja/",
            "/api/users/admin/",
            "/api/changes/?page_size=5",
            "/api/projects/demo/statistics/",
            "/api/components/demo/app/statistics/",
            "/api/translations/demo/app/ja/statistics/",
        ] {
            links(&get_json(&app, object, admin).await, &mut found);
        }
        assert!(found.len() > 40, "{found:#?}");
        let mut dead = Vec::new();
        for path in &found {
            let mut reply = call(&app, Method::GET, path, admin, Body::None).await;
            if reply.status == StatusCode::FOUND {
                let to = reply.header("location").unwrap().to_owned();
                let to = to
                    .strip_prefix(&format!("http://{HOST}"))
                    .unwrap_or(&to)
                    .to_owned();
                reply = call(&app, Method::GET, &to, admin, Body::None).await;
                assert!(
                    reply.text().starts_with("<!DOCTYPE html>"),
                    "{path} leads to a browsable page"
                );
            }
            if reply.status != StatusCode::OK {
                dead.push(format!("{path}: {}", reply.status));
            }
        }
        assert!(dead.is_empty(), "links that do not answer: {dead:#?}");
    }
}
