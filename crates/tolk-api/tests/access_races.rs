//! Requests racing on the objects of access control (roles, teams, their
//! lists and members, subscriptions, project tokens), from threads against
//! the app served over HTTP, on every configured database: each race ends
//! as one of its serial outcomes, losers get 400 or 404, never a 500.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use common::{Ctx, Served, race};
use serde_json::{Value, json};

const THREADS: usize = 8;

/// The statuses of `THREADS` identical requests sent at once as the superuser.
fn at_once(served: &Served, ctx: &Ctx, method: &str, path: &str, body: Option<&Value>) -> Vec<u16> {
    race(THREADS, |_| {
        served.request(method, path, Some(&ctx.admin), body).0
    })
}

/// Asserts exactly one `winner` and only `losers` for the rest.
fn one_wins(statuses: &[u16], winner: u16, losers: &[u16]) {
    assert_eq!(
        statuses.iter().filter(|s| **s == winner).count(),
        1,
        "{statuses:?}"
    );
    assert!(
        statuses.iter().all(|s| *s == winner || losers.contains(s)),
        "{statuses:?}"
    );
}

/// The JSON answer of a GET as the superuser.
fn get(served: &Served, ctx: &Ctx, path: &str) -> Value {
    let (status, body) = served.request("GET", path, Some(&ctx.admin), None);
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// The id in the answer of a POST that must create.
fn create(served: &Served, ctx: &Ctx, path: &str, body: Value) -> i64 {
    let (status, reply) = served.request("POST", path, Some(&ctx.admin), Some(&body));
    assert_eq!(status, 201, "{reply}");
    serde_json::from_str::<Value>(&reply).unwrap()["id"]
        .as_i64()
        .unwrap()
}

#[test]
fn roles_and_teams_are_made_and_removed_once() {
    for ctx in Ctx::all() {
        let served = Served::start(ctx.unthrottled_state(), 4);
        let role = json!({"name": "Racers", "permissions": ["unit.edit"]});
        one_wins(
            &at_once(&served, &ctx, "POST", "/api/roles/", Some(&role)),
            201,
            &[400],
        );
        let team = json!({"name": "Racers", "project_selection": 0, "language_selection": 1});
        one_wins(
            &at_once(&served, &ctx, "POST", "/api/groups/", Some(&team)),
            201,
            &[400],
        );
        let roles = get(&served, &ctx, "/api/roles/?page_size=100");
        let racers: Vec<&Value> = roles["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["name"] == "Racers")
            .collect();
        assert_eq!(racers.len(), 1);
        let role_id = racers[0]["id"].as_i64().unwrap();
        let teams = get(&served, &ctx, "/api/groups/?page_size=100");
        let team_id = teams["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "Racers")
            .and_then(|t| t["id"].as_i64())
            .unwrap();

        // Adding the same role, and the same member, at once: all succeed,
        // and the team lists it once.
        let roles_path = format!("/api/groups/{team_id}/roles/");
        let link = json!({"role_id": role_id});
        let added = at_once(&served, &ctx, "POST", &roles_path, Some(&link));
        assert!(added.iter().all(|s| *s == 200), "{added:?}");
        let join = json!({"group_id": team_id});
        let joined = at_once(
            &served,
            &ctx,
            "POST",
            "/api/users/jane/groups/",
            Some(&join),
        );
        assert!(joined.iter().all(|s| *s == 200), "{joined:?}");
        let seen = get(&served, &ctx, &format!("/api/groups/{team_id}/"));
        assert_eq!(seen["roles"].as_array().unwrap().len(), 1, "{seen}");
        let jane = get(&served, &ctx, "/api/users/jane/");
        let memberships = jane["groups"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| {
                g.as_str()
                    .unwrap()
                    .ends_with(&format!("/groups/{team_id}/"))
            })
            .count();
        assert_eq!(memberships, 1, "{jane}");

        // Removing them at once: one removal each, the rest find nothing.
        let unlink = format!("{roles_path}{role_id}/");
        one_wins(
            &at_once(&served, &ctx, "DELETE", &unlink, None),
            204,
            &[404],
        );
        let team_path = format!("/api/groups/{team_id}/");
        one_wins(
            &at_once(&served, &ctx, "DELETE", &team_path, None),
            204,
            &[404],
        );
        let role_path = format!("/api/roles/{role_id}/");
        one_wins(
            &at_once(&served, &ctx, "DELETE", &role_path, None),
            204,
            &[404],
        );
        let jane = get(&served, &ctx, "/api/users/jane/");
        assert_eq!(
            jane["groups"].as_array().unwrap().len(),
            2,
            "back to Viewers and Users: {jane}"
        );
    }
}

#[test]
fn subscriptions_and_tokens_race_to_one_outcome() {
    for ctx in Ctx::all() {
        let served = Served::start(ctx.unthrottled_state(), 4);
        let path = "/api/users/jane/notifications/";
        let subscription =
            json!({"notification": "NewStringNotificaton", "scope": 10, "frequency": 1});
        one_wins(
            &at_once(&served, &ctx, "POST", path, Some(&subscription)),
            201,
            &[400],
        );
        assert_eq!(get(&served, &ctx, path)["count"], 1);

        create(
            &served,
            &ctx,
            "/api/projects/",
            json!({"name": "Demo", "slug": "demo", "web": "https://demo.example/"}),
        );
        let token = create(
            &served,
            &ctx,
            "/api/projects/demo/tokens/",
            json!({"name": "CI"}),
        );
        let revoke = format!("/api/projects/demo/tokens/{token}/");
        one_wins(
            &at_once(&served, &ctx, "DELETE", &revoke, None),
            204,
            &[404],
        );
        assert_eq!(
            get(&served, &ctx, "/api/projects/demo/tokens/"),
            serde_json::json!([])
        );
    }
}
