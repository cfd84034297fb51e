//! `tolk serve` killed at chosen moments (SIGKILL) and started again:
//! nothing accepted is lost or applied twice, stale locks are recovered,
//! an interrupted task finishes, and the next commit works. Two servers
//! on one PostgreSQL database and one data directory share the work:
//! every edit reaches upstream once and every task runs once. On SQLite,
//! and on PostgreSQL when `TOLK_TEST_DATABASE_URL` is set.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod harness;

use std::time::{Duration, Instant};

use harness::{Site, demo_component, edit, japanese_units, upstream};
use serde_json::json;
use tolk_service::testing::TestDb;

/// How often `text` stands in upstream's Japanese catalogue.
fn upstream_count(upstream: &tolk_service::vcs_testing::Upstream, text: &str) -> usize {
    upstream
        .file("po/ja.po")
        .matches(&format!("msgstr \"{text}\""))
        .count()
}

#[test]
fn killed_twice_among_edits_and_a_commit_nothing_accepted_is_lost() {
    for db in TestDb::all() {
        let upstream = upstream();
        let site = Site::new(db);
        let server = site.start("first");
        demo_component(&server, &upstream);
        let ids = japanese_units(&server, 30);
        let text = |n: usize| format!("生存 {n}");

        // Fifteen edits accepted, then SIGKILL at once.
        for (n, id) in ids[..15].iter().enumerate() {
            edit(&server, *id, &text(n));
        }
        server.kill();
        let server = site.start("second");
        for (n, id) in ids[..15].iter().enumerate() {
            let unit = server.get(&format!("/api/units/{id}/"));
            assert_eq!(unit["target"], json!([text(n)]), "edit {n} survived");
            assert_eq!(unit["pending"], true);
        }

        // Five more at a time, then SIGKILL while a push (commit first)
        // runs, at three moments; started again after each.
        let mut server = server;
        let mut kills = Vec::new();
        for (round, delay) in [15u64, 45, 90].into_iter().enumerate() {
            let first = 15 + 5 * round;
            for (n, id) in ids.iter().enumerate().skip(first).take(5) {
                edit(&server, *id, &text(n));
            }
            let push = json!({"operation": "push"});
            std::thread::scope(|scope| {
                scope.spawn(|| {
                    // The connection breaks when the server dies.
                    let answer =
                        server.try_send("POST", "/api/components/demo/app/repository/", Some(push));
                    kills.push((delay, answer.is_ok()));
                });
                std::thread::sleep(Duration::from_millis(delay));
                server.signal_kill();
            });
            server.kill();
            server = site.start(&format!("round {round}"));
        }
        // Started again, the next push works and carries every edit once.
        let (status, reply) = server.send(
            "POST",
            "/api/components/demo/app/repository/",
            Some(json!({"operation": "push"})),
        );
        assert_eq!(
            (status, reply.clone()),
            (200, json!({"result": true})),
            "{}",
            server.log()
        );
        for n in 0..30 {
            assert_eq!(
                upstream_count(&upstream, &text(n)),
                1,
                "edit {n} upstream once"
            );
        }
        let status = server.get("/api/components/demo/app/repository/");
        assert_eq!(
            (status["needs_commit"].clone(), status["needs_push"].clone()),
            (json!(false), json!(false)),
            "{status}"
        );
        assert_eq!(status["pending_units"]["total"], 0);
        let git_dir = site.data.path().join("vcs/1/.git");
        assert!(!git_dir.join("index.lock").exists());
        assert!(server.terminate(), "a clean stop after SIGTERM");
        eprintln!("killed into pushes (delay ms, answered before): {kills:?}");
    }
}

/// How long the commit-killing test goes on killing, per database:
/// `TOLK_KILL_SECONDS` (a longer run, e.g. 600, finds rarer moments), at
/// least four rounds.
fn kill_budget() -> Duration {
    let seconds = std::env::var("TOLK_KILL_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(25);
    Duration::from_secs(seconds)
}

/// Cuts a work-tree file as a kill in the middle of an in-place write
/// leaves it (emptied, or cut at a page boundary or half-way); `how`
/// picks the way, and the length cut to is returned.
fn tear(path: &std::path::Path, how: usize) -> Option<u64> {
    let length = std::fs::metadata(path).ok()?.len();
    let cut = match how % 3 {
        0 => 0,
        1 => length.min(4096),
        _ => length / 2,
    };
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|f| f.set_len(cut))
        .ok()?;
    Some(cut)
}

#[test]
fn killed_at_many_points_of_commits_and_pushes_upstream_and_database_agree() {
    for db in TestDb::all() {
        let upstream = upstream();
        let site = Site::new(db);
        let mut server = site.start("start");
        demo_component(&server, &upstream);
        let ids = japanese_units(&server, 48);
        let work = site.data.path().join("vcs/1");
        let mut latest: std::collections::BTreeMap<i64, String> = Default::default();
        let mut rounds = Vec::new();
        let began = Instant::now();
        let mut round = 0usize;
        while round < 4 || began.elapsed() < kill_budget() {
            for k in 0..6 {
                let id = ids[(round * 6 + k) % ids.len()];
                let text = format!("回 {round}.{k}");
                edit(&server, id, &text);
                latest.insert(id, text);
            }
            // A commit or a push, killed after a delay that moves on
            // every round through the writing, committing and pushing.
            let delay = Duration::from_millis((round as u64 * 37) % 240);
            let operation = if round.is_multiple_of(2) {
                "push"
            } else {
                "commit"
            };
            std::thread::scope(|scope| {
                scope.spawn(|| {
                    let body = json!({ "operation": operation });
                    let _ =
                        server.try_send("POST", "/api/components/demo/app/repository/", Some(body));
                });
                std::thread::sleep(delay);
                server.signal_kill();
            });
            server.kill();
            // Every second round, the files as a kill in an in-place
            // write leaves them (as Tolk wrote before it wrote atomically,
            // and other programs may).
            let torn = (!round.is_multiple_of(2)).then(|| {
                (
                    tear(&work.join("po/ja.po"), round / 2),
                    tear(&work.join("po/ru.po"), round / 2 + 1),
                )
            });
            rounds.push((operation, delay.as_millis(), torn));
            server = site.start(&format!("round {round}"));
            for (id, text) in &latest {
                let unit = server.get(&format!("/api/units/{id}/"));
                assert_eq!(unit["target"], json!([text]), "round {round}: unit {id}");
            }
            round += 1;
        }
        let (status, reply) = server.send(
            "POST",
            "/api/components/demo/app/repository/",
            Some(json!({"operation": "push"})),
        );
        assert_eq!(
            (status, reply),
            (200, json!({"result": true})),
            "{}",
            server.log()
        );
        // Upstream holds what the database holds, string by string, for
        // the catalogues edited and those only torn.
        for code in ["ja", "ru"] {
            let path = format!("po/{code}.po");
            let file = tolk_formats::parse("po", &path, upstream.file(&path).as_bytes()).unwrap();
            let stored = server.get(&format!(
                "/api/translations/demo/app/{code}/units/?page_size=1000"
            ));
            let stored = stored["results"].as_array().unwrap();
            assert_eq!(file.units().len(), stored.len(), "{code}: strings upstream");
            for (unit, row) in file.units().iter().zip(stored) {
                assert_eq!(json!(unit.source), row["source"], "{code}");
                // The database keeps the language's number of plural
                // forms; the file may hold more.
                let forms = row["target"].as_array().unwrap().len();
                let target = &unit.target[..forms.min(unit.target.len())];
                assert_eq!(json!(target), row["target"], "{code}: {}", row["id"]);
            }
        }
        for (id, text) in &latest {
            assert_eq!(
                upstream_count(&upstream, text),
                1,
                "unit {id}: {text} upstream once"
            );
        }
        let status = server.get("/api/components/demo/app/repository/");
        assert_eq!(
            (status["needs_commit"].clone(), status["needs_push"].clone()),
            (json!(false), json!(false)),
            "{status}"
        );
        assert!(server.terminate(), "a clean stop after SIGTERM");
        eprintln!(
            "killed {} commits and pushes (operation, delay ms, torn ja/ru at): {rounds:?}",
            rounds.len()
        );
    }
}

/// Strings per catalogue of the killed scans: enough that a kill lands
/// in the middle of the work, few enough that the four tests here, run
/// at once by a debug build on two cores, finish well within their limits.
const STRINGS: usize = 20_000;

/// A gettext catalogue of `n` strings translated into Czech.
fn big_catalogue(n: usize) -> Vec<u8> {
    let mut text =
        String::from("msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n");
    for i in 0..n {
        text.push_str(&format!(
            "msgid \"String number {i}\"\nmsgstr \"Řetězec číslo {i}\"\n\n"
        ));
    }
    text.into_bytes()
}

#[test]
fn a_scan_killed_midway_is_taken_over_at_the_next_start() {
    for db in TestDb::all() {
        let upstream = tolk_service::vcs_testing::Upstream::new(&[
            ("po/cs.po", big_catalogue(STRINGS)),
            ("po/de.po", big_catalogue(STRINGS)),
        ]);
        let site = Site::new(db);
        let server = site.start("first");
        let project = json!({"name": "Demo", "slug": "demo", "web": "https://example.com/"});
        assert_eq!(server.send("POST", "/api/projects/", Some(project)).0, 201);
        let component = json!({"name": "Big", "slug": "big", "repo": upstream.url(),
                               "filemask": "po/*.po", "file_format": "po"});
        let (status, created) =
            server.send("POST", "/api/projects/demo/components/", Some(component));
        assert_eq!(status, 201, "{created}");
        let task_url = created["task_url"].as_str().unwrap().to_owned();
        // Killed once the clone or the scan has begun, not finished.
        server.wait_for_progress(&task_url, Duration::from_secs(60));
        server.kill();

        let restarted = Instant::now();
        let server = site.start("second");
        let task = server.wait_for_task(&task_url, Duration::from_secs(60));
        let recovery = restarted.elapsed();
        assert_eq!(task["result"], json!({"component": 1}), "{task}");
        assert!(recovery < Duration::from_secs(60), "{recovery:?}");
        let cs = server.get("/api/translations/demo/big/cs/");
        assert_eq!(
            (cs["total"].clone(), cs["translated"].clone()),
            (json!(STRINGS), json!(STRINGS))
        );
        let (status, reply) = server.send(
            "POST",
            "/api/components/demo/big/repository/",
            Some(json!({"operation": "commit"})),
        );
        assert_eq!((status, reply), (200, json!({"result": true})));
        eprintln!("recovered the interrupted scan {recovery:?} after the restart");
    }
}

#[test]
fn a_zip_import_killed_midway_is_finished_at_the_next_start() {
    for db in TestDb::all() {
        let site = Site::new(db);
        let server = site.start("first");
        let project = json!({"name": "Demo", "slug": "demo", "web": "https://example.com/"});
        assert_eq!(server.send("POST", "/api/projects/", Some(project)).0, 201);
        let zip = tolk_service::upload_testing::archive(&[
            ("po/cs.po", big_catalogue(STRINGS)),
            ("po/de.po", big_catalogue(STRINGS)),
        ]);
        let (status, created) = server.send_form(
            "/api/projects/demo/components/",
            &[
                ("name", "Imported"),
                ("slug", "imported"),
                ("filemask", "po/*.po"),
                ("file_format", "po"),
            ],
            ("zipfile", "strings.zip", &zip),
        );
        assert_eq!(status, 201, "{created}");
        let task_url = created["task_url"].as_str().unwrap().to_owned();
        server.wait_for_progress(&task_url, Duration::from_secs(60));
        server.kill();

        let server = site.start("second");
        let task = server.wait_for_task(&task_url, Duration::from_secs(60));
        assert_eq!(task["result"], json!({"component": 1}), "{task}");
        for code in ["cs", "de"] {
            let translation = server.get(&format!("/api/translations/demo/imported/{code}/"));
            assert_eq!(translation["translated"], STRINGS, "{code}");
        }
        let leftovers: Vec<String> = std::fs::read_dir(site.data.path().join("vcs"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with('.'))
            .collect();
        assert_eq!(
            leftovers,
            Vec::<String>::new(),
            "the staged upload was moved"
        );
        let units = server.get("/api/translations/demo/imported/cs/units/?page_size=1");
        let id = units["results"][0]["id"].as_i64().unwrap();
        let edit = json!({"target": ["upravено"], "state": 20});
        assert_eq!(
            server
                .send("PATCH", &format!("/api/units/{id}/"), Some(edit))
                .0,
            200
        );
        let (status, reply) = server.send(
            "POST",
            "/api/components/demo/imported/repository/",
            Some(json!({"operation": "commit"})),
        );
        assert_eq!((status, reply), (200, json!({"result": true})));
    }
}

#[test]
fn two_servers_on_one_postgresql_share_the_work() {
    let Ok(url) = std::env::var(tolk_service::testing::DATABASE_URL_VAR) else {
        return; // PostgreSQL only: SQLite serves one instance.
    };
    let upstream = upstream();
    let site = Site::new(TestDb::postgres(&url));
    let servers = [site.start("one"), site.start("two")];
    demo_component(&servers[0], &upstream);
    let ids = japanese_units(&servers[1], 40);
    let text = |n: usize| format!("二台 {n}");
    for (n, id) in ids.iter().enumerate() {
        edit(&servers[n % 2], *id, &text(n));
        if n == 19 {
            // Half-way, a commit through the second and rescans through both.
            let (status, reply) = servers[1].send(
                "POST",
                "/api/components/demo/app/repository/",
                Some(json!({"operation": "push"})),
            );
            assert_eq!((status, reply), (200, json!({"result": true})));
        }
        if n % 10 == 5 {
            let (status, _) = servers[n % 2].send(
                "POST",
                "/api/components/demo/app/repository/",
                Some(json!({"operation": "file-scan"})),
            );
            assert_eq!(status, 200);
        }
    }
    let (status, reply) = servers[0].send(
        "POST",
        "/api/components/demo/app/repository/",
        Some(json!({"operation": "push"})),
    );
    assert_eq!((status, reply), (200, json!({"result": true})));
    for n in 0..40 {
        assert_eq!(
            upstream_count(&upstream, &text(n)),
            1,
            "edit {n} upstream once"
        );
    }
    // Every task ran, once.
    let deadline = Instant::now() + Duration::from_secs(60);
    let runs = loop {
        let runs = tolk_service::testing::task_runs(&site.db.store);
        if runs.iter().all(|(_, _, _, completed, _)| *completed) {
            break runs;
        }
        assert!(Instant::now() < deadline, "tasks left: {runs:?}");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(runs.len() >= 2, "{runs:?}");
    for (kind, attempts, failed, _, log) in runs {
        assert_eq!(
            (attempts, failed),
            (1, false),
            "a {kind} task: {log}\n{}\n{}",
            servers[0].log(),
            servers[1].log()
        );
    }
}
