//! The permissions part of `cargo xtask bench`: 100 private projects and a
//! user in 50 teams that each open two of them; the project list read by
//! the superuser, by that user and anonymously costs the same statements
//! (the access check reads the caller's teams in a fixed number), so it
//! should serve at about the same rate.

use crate::bench::{Client, Options, field, load};

/// Sends a request that must succeed; the body.
fn send(client: &mut Client, method: &str, path: &str, body: &str) -> Result<Vec<u8>, String> {
    let (status, reply) = client
        .request(method, path, body)
        .map_err(|e| e.to_string())?;
    if !(200..300).contains(&status) {
        return Err(format!(
            "{method} {path} answered {status}: {}",
            String::from_utf8_lossy(&reply)
        ));
    }
    Ok(reply)
}

/// The id in a JSON answer.
fn id(body: &[u8]) -> Result<String, String> {
    field(body, "id").ok_or_else(|| "no id in the answer".to_owned())
}

/// Runs the permission benchmarks against the server at `address`, where
/// `token` is a superuser's.
pub fn run(address: &str, token: &str, options: &Options) -> Result<(), String> {
    let mut client = Client::connect(address, token).map_err(|e| e.to_string())?;
    let mut projects = Vec::new();
    for i in 0..100 {
        let body = format!(
            r#"{{"name":"Private {i}","slug":"private-{i}","web":"https://example.com/","access_control":100}}"#
        );
        projects.push(id(&send(&mut client, "POST", "/api/projects/", &body)?)?);
    }
    send(
        &mut client,
        "POST",
        "/api/users/",
        r#"{"username":"member","full_name":"Member","email":"member@example.com"}"#,
    )?;
    let member = field(
        &send(&mut client, "POST", "/api/users/member/token/", "")?,
        "token",
    )
    .ok_or("no token for the member")?;
    let roles: serde_json::Value =
        serde_json::from_slice(&send(&mut client, "GET", "/api/roles/?page_size=100", "")?)
            .map_err(|e| e.to_string())?;
    let translate = roles["results"]
        .as_array()
        .and_then(|all| all.iter().find(|r| r["name"] == "Translate"))
        .map(|r| r["id"].to_string())
        .ok_or("no Translate role")?;
    for (n, pair) in projects.chunks(2).enumerate() {
        let body = format!(r#"{{"name":"Team {n}","project_selection":0,"language_selection":1}}"#);
        let team = id(&send(&mut client, "POST", "/api/groups/", &body)?)?;
        let base = format!("/api/groups/{team}/");
        let body = format!(r#"{{"role_id":{translate}}}"#);
        send(&mut client, "POST", &format!("{base}roles/"), &body)?;
        for project in pair {
            let body = format!(r#"{{"project_id":{project}}}"#);
            send(&mut client, "POST", &format!("{base}projects/"), &body)?;
        }
        let body = format!(r#"{{"group_id":{team}}}"#);
        send(&mut client, "POST", "/api/users/member/groups/", &body)?;
    }
    println!("100 more projects, private; a user in 50 teams:");
    let list = "/api/projects/?page_size=100";
    for (who, key) in [
        ("superuser", token),
        ("user in 50 teams", member.as_str()),
        ("anonymous", ""),
    ] {
        println!("{who:<17} {}", load(address, key, list, options)?);
    }
    Ok(())
}
