//! Requests racing on one row, from threads against the app served over
//! HTTP, on every configured database: each race ends as one of its serial
//! outcomes, the loser gets a 400 or 404 (never a 500), and the counts
//! afterwards are exact.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use common::{Ctx, Served, race};
use serde_json::{Value, json};

fn project(slug: &str) -> Value {
    json!({"name": slug, "slug": slug, "web": "https://race.example/"})
}

/// Asks the served app to create the project `slug` as the superuser.
fn create_project(served: &Served, ctx: &Ctx, slug: &str) -> (u16, String) {
    served.request(
        "POST",
        "/api/projects/",
        Some(&ctx.admin),
        Some(&project(slug)),
    )
}

fn count(served: &Served, token: &str) -> u64 {
    let (status, body) = served.request("GET", "/api/projects/", Some(token), None);
    assert_eq!(status, 200, "{body}");
    serde_json::from_str::<Value>(&body).unwrap()["count"]
        .as_u64()
        .unwrap()
}

fn served(ctx: &Ctx) -> Served {
    Served::start(ctx.unthrottled_state(), 4)
}

const THREADS: usize = 8;

#[test]
fn creates_of_one_slug_make_one_project() {
    for ctx in Ctx::all() {
        let served = served(&ctx);
        for round in 0..5 {
            let slug = format!("race-{round}");
            let replies = race(THREADS, |_| create_project(&served, &ctx, &slug));
            let created = replies.iter().filter(|(s, _)| *s == 201).count();
            assert_eq!(created, 1, "{replies:?}");
            for (status, body) in replies.iter().filter(|(s, _)| *s != 201) {
                assert_eq!(*status, 400, "{body}");
                let error: Value = serde_json::from_str(body).unwrap();
                assert_eq!(error["errors"][0]["code"], "unique", "{body}");
                assert!(
                    ["name", "slug"].contains(&error["errors"][0]["attr"].as_str().unwrap()),
                    "{body}"
                );
            }
        }
        assert_eq!(count(&served, &ctx.admin), 5);
    }
}

#[test]
fn deletes_of_one_project_succeed_once() {
    for ctx in Ctx::all() {
        let served = served(&ctx);
        for round in 0..5 {
            let slug = format!("gone-{round}");
            assert_eq!(create_project(&served, &ctx, &slug).0, 201);
            let path = format!("/api/projects/{slug}/");
            let statuses: Vec<u16> = race(THREADS, |_| {
                served.request("DELETE", &path, Some(&ctx.admin), None).0
            });
            assert_eq!(
                statuses.iter().filter(|s| **s == 204).count(),
                1,
                "{statuses:?}"
            );
            assert!(
                statuses.iter().all(|s| [204, 404].contains(s)),
                "{statuses:?}"
            );
        }
        assert_eq!(count(&served, &ctx.admin), 0);
    }
}

#[test]
fn edits_racing_deletes_end_as_either_order() {
    for ctx in Ctx::all() {
        let served = served(&ctx);
        for round in 0..10 {
            let slug = format!("edit-{round}");
            assert_eq!(create_project(&served, &ctx, &slug).0, 201);
            let path = format!("/api/projects/{slug}/");
            let replies = race(4, |i| {
                if i == 0 {
                    served.request("DELETE", &path, Some(&ctx.admin), None)
                } else {
                    let edit =
                        json!({"web": format!("https://edit{i}.example/"), "license": "MIT"});
                    served.request("PATCH", &path, Some(&ctx.admin), Some(&edit))
                }
            });
            assert_eq!(replies[0].0, 204, "the only delete wins: {replies:?}");
            for (status, body) in &replies[1..] {
                assert!([200, 404].contains(status), "{status}: {body}");
            }
            let (after, _) = served.request("GET", &path, Some(&ctx.admin), None);
            assert_eq!(after, 404);
        }
        assert_eq!(count(&served, &ctx.admin), 0);
    }
}

#[test]
fn a_mixed_load_keeps_exact_counts() {
    for ctx in Ctx::all() {
        let served = served(&ctx);
        let outcomes = race(THREADS, |i| {
            let mut created = 0i64;
            let mut deleted = 0i64;
            for step in 0..12 {
                // Threads share a few slugs, so their requests collide.
                let slug = format!("mix-{}", (i + step) % 5);
                let path = format!("/api/projects/{slug}/");
                let (status, body) = match step % 3 {
                    0 => create_project(&served, &ctx, &slug),
                    1 => served.request(
                        "PATCH",
                        &path,
                        Some(&ctx.admin),
                        Some(&json!({"instructions": format!("{i}/{step}")})),
                    ),
                    _ => served.request("DELETE", &path, Some(&ctx.admin), None),
                };
                assert!(status < 500, "{status}: {body}");
                match status {
                    201 => created += 1,
                    204 => deleted += 1,
                    _ => {}
                }
            }
            (created, deleted)
        });
        let (created, deleted) = outcomes
            .iter()
            .fold((0, 0), |(c, d), (dc, dd)| (c + dc, d + dd));
        assert_eq!(count(&served, &ctx.admin) as i64, created - deleted);
    }
}

#[test]
fn languages_race_like_projects() {
    for ctx in Ctx::all() {
        let served = served(&ctx);
        let language = json!({"code": "xx_race", "name": "Race", "plural": {"number": 2, "formula": "n != 1"}});
        let created = race(THREADS, |_| {
            served.request("POST", "/api/languages/", Some(&ctx.admin), Some(&language))
        });
        assert_eq!(
            created.iter().filter(|(s, _)| *s == 201).count(),
            1,
            "{created:?}"
        );
        for (status, body) in created.iter().filter(|(s, _)| *s != 201) {
            assert_eq!(*status, 400, "{body}");
            assert!(body.contains("\"code\":\"unique\""), "{body}");
        }
        let path = "/api/languages/xx_race/";
        let replies = race(THREADS, |i| {
            if i % 2 == 0 {
                served.request("DELETE", path, Some(&ctx.admin), None)
            } else {
                served.request(
                    "PATCH",
                    path,
                    Some(&ctx.admin),
                    Some(&json!({"population": i})),
                )
            }
        });
        let deleted = replies.iter().filter(|(s, _)| *s == 204).count();
        assert_eq!(deleted, 1, "{replies:?}");
        for (status, body) in &replies {
            assert!([200, 204, 404].contains(status), "{status}: {body}");
        }
        let (after, _) = served.request("GET", path, Some(&ctx.admin), None);
        assert_eq!(after, 404);
    }
}

/// The units of `demo/app/ja` as the served app lists them.
fn units(served: &Served, ctx: &Ctx) -> Vec<Value> {
    let (status, body) = served.request(
        "GET",
        "/api/translations/demo/app/ja/units/?page_size=1000",
        Some(&ctx.admin),
        None,
    );
    assert_eq!(status, 200, "{body}");
    serde_json::from_str::<Value>(&body).unwrap()["results"]
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn components_and_units_raced_end_as_one_serial_outcome() {
    for db in tolk_service::testing::TestDb::all() {
        let upstream = common::upstream();
        let ctx = common::context(db, &upstream);
        let served = served(&ctx);

        // Creates of one slug: one component, the others refused on slug or name.
        let body = json!({"name": "App", "slug": "app", "repo": upstream.url(),
                          "filemask": "po/*.po", "file_format": "po"});
        let replies = race(THREADS, |_| {
            served.request(
                "POST",
                "/api/projects/demo/components/",
                Some(&ctx.admin),
                Some(&body),
            )
        });
        assert_eq!(
            replies.iter().filter(|(s, _)| *s == 201).count(),
            1,
            "{replies:?}"
        );
        for (status, body) in replies.iter().filter(|(s, _)| *s != 201) {
            assert_eq!(*status, 400, "{body}");
            assert!(body.contains("\"code\":\"unique\""), "{body}");
        }
        assert_eq!(ctx.service.tasks().run_due().unwrap(), 1, "one setup task");

        // Edits of one unit with different texts: each is applied in turn
        // (a concurrent edit waits for the one before it, never a 404); the
        // unit ends holding one of them, and its translation's counts are exact.
        let unit = units(&served, &ctx)
            .into_iter()
            .find(|u| u["state"] == 20 && u["source"].as_array().unwrap().len() == 1)
            .unwrap();
        let path = format!("/api/units/{}/", unit["id"]);
        let texts: Vec<String> = (0..THREADS).map(|i| format!("race {i}")).collect();
        let replies = race(THREADS, |i| {
            let edit = json!({"target": [texts[i]], "state": 20});
            served.request("PATCH", &path, Some(&ctx.admin), Some(&edit))
        });
        let lost = replies.iter().filter(|(s, _)| *s == 404).count();
        assert_eq!(lost, 0, "edits reported as not found: {replies:?}");
        for (status, body) in &replies {
            assert_eq!(*status, 200, "{body}");
        }
        let (_, now) = served.request("GET", &path, Some(&ctx.admin), None);
        let now: Value = serde_json::from_str(&now).unwrap();
        assert!(
            texts.contains(&now["target"][0].as_str().unwrap().to_owned()),
            "{now}"
        );
        let (_, ja) = served.request(
            "GET",
            "/api/translations/demo/app/ja/",
            Some(&ctx.admin),
            None,
        );
        let ja: Value = serde_json::from_str(&ja).unwrap();
        let translated = units(&served, &ctx)
            .iter()
            .filter(|u| u["translated"] == true)
            .count();
        assert_eq!(
            ja["translated"], translated,
            "the counters moved once per applied edit"
        );

        // Edit against delete: the edit lands first or finds nothing.
        let replies = race(2, |i| {
            if i == 0 {
                served.request(
                    "DELETE",
                    "/api/translations/demo/app/ja/",
                    Some(&ctx.admin),
                    None,
                )
            } else {
                let edit = json!({"target": ["late"], "state": 20});
                served.request("PATCH", &path, Some(&ctx.admin), Some(&edit))
            }
        });
        assert_eq!(replies[0].0, 204, "{replies:?}");
        assert!([200, 404].contains(&replies[1].0), "{replies:?}");
        let (status, _) = served.request("GET", &path, Some(&ctx.admin), None);
        assert_eq!(status, 404);

        // Deletes of one component: one 204, the others 404.
        let replies = race(THREADS, |_| {
            served.request(
                "DELETE",
                "/api/components/demo/app/",
                Some(&ctx.admin),
                None,
            )
        });
        assert_eq!(
            replies.iter().filter(|(s, _)| *s == 204).count(),
            1,
            "{replies:?}"
        );
        assert!(
            replies.iter().all(|(s, _)| [204, 404].contains(s)),
            "{replies:?}"
        );
    }
}
