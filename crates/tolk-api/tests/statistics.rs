//! Statistics are kept as data changes, never recounted: after random
//! sequences of edits, bulk edits, new and deleted strings, suggestions, comments and
//! rescans, every counter of a translation equals a recount of its units,
//! on each database.

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
use common::{Body, TestApp, call, context, get_json, upstream};
use serde_json::{Value, json};
use tolk_service::testing::{Rng, TestDb};

const COUNTERS: [&str; 10] = [
    "total",
    "total_words",
    "translated",
    "translated_words",
    "fuzzy",
    "fuzzy_words",
    "failing_checks",
    "failing_checks_words",
    "have_suggestion",
    "have_comment",
];

/// Every unit of a translation.
async fn units<S: TestApp<B>, B: MessageBody>(app: &S, code: &str, token: &str) -> Vec<Value> {
    let mut all = Vec::new();
    let mut page = 1;
    loop {
        let uri = format!("/api/translations/demo/app/{code}/units/?page_size=1000&page={page}");
        let answer = get_json(app, &uri, Some(token)).await;
        all.extend(answer["results"].as_array().unwrap().iter().cloned());
        if answer["next"].is_null() {
            return all;
        }
        page += 1;
    }
}

/// The counters of a translation recounted from its units.
fn recount(units: &[Value]) -> Value {
    let (mut c, mut w) = ([0i64; 10], [0i64; 4]);
    for unit in units {
        let state = unit["state"].as_i64().unwrap();
        let words = unit["num_words"].as_i64().unwrap();
        let mut add = |i: usize, yes: bool, words_at: Option<usize>| {
            if yes {
                c[i] += 1;
                if let Some(j) = words_at {
                    w[j] += words;
                }
            }
        };
        add(0, true, Some(0));
        add(2, state >= 20, Some(1));
        add(4, (10..=12).contains(&state), Some(2));
        add(6, unit["has_failing_check"] == json!(true), Some(3));
        add(8, unit["has_suggestion"] == json!(true), None);
        add(9, unit["comments_own"] == json!(true), None);
    }
    c[1] = w[0];
    c[3] = w[1];
    c[5] = w[2];
    c[7] = w[3];
    COUNTERS
        .iter()
        .zip(c)
        .map(|(name, n)| ((*name).to_owned(), json!(n)))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// The counters a translation reports.
fn reported(translation: &Value) -> Value {
    COUNTERS
        .iter()
        .map(|name| ((*name).to_owned(), translation[*name].clone()))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

#[actix_web::test]
async fn counters_equal_a_recount_after_random_changes() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = context(db, &upstream);
        common::gettext_component(&ctx, &upstream);
        let app = test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let admin = ctx.admin.as_str();
        let on = call(
            &app,
            Method::PATCH,
            "/api/components/demo/app/",
            Some(admin),
            Body::Json(json!({"manage_units": true})),
        )
        .await;
        assert_eq!(on.status, StatusCode::OK);
        let mut rng = Rng(0x5eed_1234_abcd_9876);
        // Units with comments of their own (the counter counts those).
        let mut commented: Vec<i64> = Vec::new();
        for step in 0..60 {
            let code = ["ja", "ar"][rng.below(2)];
            let list = units(&app, code, admin).await;
            let unit = &list[rng.below(list.len())];
            let uri = unit["url"].as_str().unwrap().to_owned();
            let forms = unit["target"].as_array().unwrap().len();
            let texts = ["", "Hotovo.", "Hotovo  !", "Soubor", " mezera"];
            let target = |rng: &mut Rng| -> (Vec<String>, i64) {
                let text = texts[rng.below(texts.len())];
                let state = if text.is_empty() {
                    0
                } else {
                    [10, 20][rng.below(2)]
                };
                (vec![text.to_owned(); forms], state)
            };
            match rng.below(7) {
                0 | 1 => {
                    let (target, state) = target(&mut rng);
                    let body = json!({"target": target, "state": state});
                    call(&app, Method::PATCH, &uri, Some(admin), Body::Json(body)).await;
                }
                2 => {
                    let mut edits = Vec::new();
                    for _ in 0..5 {
                        let other = &list[rng.below(list.len())];
                        let (mut t, state) = target(&mut rng);
                        t.resize(other["target"].as_array().unwrap().len(), t[0].clone());
                        edits.push(json!({"id": other["id"], "target": t, "state": state}));
                    }
                    let uri = format!("/api/translations/demo/app/{code}/units/");
                    call(
                        &app,
                        Method::PATCH,
                        &uri,
                        Some(admin),
                        Body::Json(json!({"units": edits})),
                    )
                    .await;
                }
                3 => {
                    let body = json!({"source": [format!("Step {step}!")], "target": ["Krok"], "state": 20});
                    let uri = format!("/api/translations/demo/app/{code}/units/");
                    let made = call(&app, Method::POST, &uri, Some(admin), Body::Json(body)).await;
                    assert_eq!(made.status, StatusCode::OK, "{}", made.text());
                }
                4 => {
                    let (target, _) = target(&mut rng);
                    let body = json!({"target": target});
                    let made = call(
                        &app,
                        Method::POST,
                        &format!("{uri}suggestions/"),
                        Some(admin),
                        Body::Json(body),
                    )
                    .await;
                    if made.status == StatusCode::CREATED && rng.below(2) == 0 {
                        let id = made.json()["id"].clone();
                        let accept = format!("/api/suggestions/{id}/accept/");
                        call(
                            &app,
                            Method::POST,
                            &accept,
                            Some(admin),
                            Body::Json(json!({})),
                        )
                        .await;
                    }
                }
                5 => {
                    let gone = call(&app, Method::DELETE, &uri, Some(admin), Body::None).await;
                    assert_eq!(gone.status, StatusCode::NO_CONTENT, "{}", gone.text());
                }
                _ => {
                    if unit["source_unit"] != unit["url"] {
                        let body =
                            json!({"scope": "translation", "comment": format!("Note {step}")});
                        let made = call(
                            &app,
                            Method::POST,
                            &format!("{uri}comments/"),
                            Some(admin),
                            Body::Json(body),
                        )
                        .await;
                        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
                        commented.push(unit["id"].as_i64().unwrap());
                    }
                }
            }
            if step % 20 == 19 {
                let scan = json!({"operation": "file-scan"});
                call(
                    &app,
                    Method::POST,
                    "/api/components/demo/app/repository/",
                    Some(admin),
                    Body::Json(scan),
                )
                .await;
                ctx.service.tasks().run_due().unwrap();
            }
            for code in ["ja", "ar"] {
                let mut list = units(&app, code, admin).await;
                for unit in &mut list {
                    let own = commented.contains(&unit["id"].as_i64().unwrap());
                    unit["comments_own"] = json!(own);
                }
                let translation = get_json(
                    &app,
                    &format!("/api/translations/demo/app/{code}/"),
                    Some(admin),
                )
                .await;
                assert_eq!(
                    reported(&translation),
                    recount(&list),
                    "{code} after step {step}"
                );
            }
        }
    }
}
