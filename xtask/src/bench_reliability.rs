//! What reliability costs and how fast Tolk recovers: the time from a
//! restart after SIGKILL to the interrupted task's end, and (on
//! PostgreSQL) the cost of rate-limit counters shared in the database,
//! against the same server without limits.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::bench::{Client, Options, Server, field, start};
use crate::bench_components::repository;

/// Requests the task at `path` until `done` says it is finished; its body.
fn poll(client: &mut Client, path: &str, done: impl Fn(&[u8]) -> bool) -> Result<Vec<u8>, String> {
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let (_, body) = client.request("GET", path, "").map_err(|e| e.to_string())?;
        if done(&body) {
            return Ok(body);
        }
        if Instant::now() > deadline {
            return Err(format!("task {path} still running"));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// SIGKILL while a 102,000-unit component is read; the time from the
/// restart to its task's end.
fn recovery(root: &Path, data: &Path, db: &str, token: &str) -> Result<Duration, String> {
    let server = start(root, data, db, &[])?;
    let mut client = Client::connect(&server.address, token).map_err(|e| e.to_string())?;
    client
        .request(
            "POST",
            "/api/projects/",
            r#"{"name":"Killed","slug":"killed","web":"https://example.com/"}"#,
        )
        .map_err(|e| e.to_string())?;
    let repo = repository(data, "killed", &[("po".into(), 50, 2000)])?;
    let body = format!(
        r#"{{"name":"big","slug":"big","repo":"{repo}","filemask":"po/*.po","file_format":"po"}}"#
    );
    let (status, answer) = client
        .request("POST", "/api/projects/killed/components/", &body)
        .map_err(|e| e.to_string())?;
    if status != 201 {
        return Err(format!(
            "creating: {status} {}",
            String::from_utf8_lossy(&answer)
        ));
    }
    let task = field(&answer, "task_url").ok_or("no task_url")?;
    let path = task[task.find("/api/").ok_or("odd task_url")?..].to_owned();
    // Killed a second after the setup began (cloning shows 1 %): in the
    // middle of reading and storing the strings, which take seconds.
    poll(&mut client, &path, |body| {
        field(body, "progress").and_then(|p| p.parse::<i64>().ok()) >= Some(1)
    })?;
    std::thread::sleep(Duration::from_secs(1));
    let (_, body) = client
        .request("GET", &path, "")
        .map_err(|e| e.to_string())?;
    if field(&body, "completed").as_deref() == Some("true") {
        return Err("the setup finished before it could be killed".into());
    }
    kill(server);
    let restarted = Instant::now();
    let server = start(root, data, db, &[])?;
    let mut client = Client::connect(&server.address, token).map_err(|e| e.to_string())?;
    let body = poll(&mut client, &path, |body| {
        field(body, "completed").as_deref() == Some("true")
    })?;
    let taken = restarted.elapsed();
    if !field(&body, "result").is_some_and(|r| r.contains("component")) {
        return Err(format!(
            "the task failed: {}",
            String::from_utf8_lossy(&body)
        ));
    }
    Ok(taken)
}

/// SIGKILL, at once.
fn kill(mut server: Server) {
    let _ = server.child.kill();
    let _ = server.child.wait();
}

/// The mean time of 2,000 requests for `/api/projects/bench-1/` from one
/// connection, by a user of its own (so that each run meets its own
/// limit), with the given rate limits.
fn single_connection_ms(
    root: &Path,
    data: &Path,
    db: &str,
    user: &str,
    limits: &str,
) -> Result<f64, String> {
    let created = crate::bench::run_tolk(
        root,
        data,
        db,
        &[
            "createadmin",
            "--username",
            user,
            "--email",
            &format!("{user}@example.com"),
            "--update",
        ],
    )?;
    let token = created.lines().last().unwrap_or_default().trim().to_owned();
    let env = [
        ("TOLK_API_RATELIMIT_USER", limits),
        ("TOLK_API_RATELIMIT_ANON", limits),
    ];
    let server = start(root, data, db, &env)?;
    let mut client = Client::connect(&server.address, &token).map_err(|e| e.to_string())?;
    let mut send = |n: u32| -> Result<(), String> {
        for _ in 0..n {
            let (status, _) = client
                .request("GET", "/api/projects/bench-1/", "")
                .map_err(|e| e.to_string())?;
            if status != 200 {
                return Err(format!("answered {status}"));
            }
        }
        Ok(())
    };
    send(200)?;
    let started = Instant::now();
    send(2000)?;
    Ok(started.elapsed().as_secs_f64() * 1000.0 / 2000.0)
}

/// Runs the reliability benchmarks on the benchmark's data and database,
/// after the main server stopped.
pub fn run(
    root: &Path,
    data: &Path,
    db: &str,
    token: &str,
    _options: &Options,
) -> Result<(), String> {
    let taken = recovery(root, data, db, token)?;
    println!(
        "SIGKILL while reading 102,000 units: restart to finished task in {:.2} s",
        taken.as_secs_f64()
    );
    if !db.starts_with("postgres") {
        println!("(shared rate-limit counters: run with --database-url postgres://… to measure)");
        return Ok(());
    }
    let mut off = Vec::new();
    let mut on = Vec::new();
    for round in 0..3 {
        off.push(single_connection_ms(
            root,
            data,
            db,
            &format!("off{round}"),
            "off",
        )?);
        on.push(single_connection_ms(
            root,
            data,
            db,
            &format!("on{round}"),
            "5000/hour",
        )?);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (off, on) = (median(&mut off), median(&mut on));
    println!(
        "one connection, median of 3 runs of 2,000 requests: {off:.3} ms per request without \
         rate limits, {on:.3} ms with Weblate's 5,000/hour counted in the database: {:.3} ms",
        on - off
    );
    Ok(())
}
