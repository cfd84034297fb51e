//! Many large request bodies at once (uploads by translators, and
//! notifications anyone may send) keep `tolk serve` within a bounded
//! memory: the bodies in flight share one budget (`TOLK_BODY_MEMORY`).
//! On SQLite, and on PostgreSQL when `TOLK_TEST_DATABASE_URL` is set.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod harness;

use harness::{Site, demo_component, upstream};
use serde_json::json;
use tolk_service::testing::TestDb;

/// A gettext catalogue of about `bytes` of strings this component lacks.
fn catalogue(bytes: usize) -> Vec<u8> {
    let mut text =
        String::from("msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n");
    let mut n = 0;
    while text.len() < bytes {
        let words = "lorem ipsum dolor sit amet ".repeat(40);
        text.push_str(&format!(
            "msgid \"{n} {words}\"\nmsgstr \"{n} {words}\"\n\n"
        ));
        n += 1;
    }
    text.into_bytes()
}

/// How far above its idle peak `tolk serve` may go under 48 parallel
/// uploads of almost 4 MiB and 48 parallel notifications of 1 MiB: the
/// bodies' budget (128 MiB) and what parsing and answering them holds
/// beyond it (164–248 MiB measured), where the bodies without a budget
/// took the server to 1,139 MiB. Measured above the idle peak, so that the memory
/// the server holds before the bodies arrive (some 180 MiB in a debug
/// build, more as the server grows) does not count against the bodies.
const GROWTH_CEILING: u64 = 300 * 1024 * 1024;

#[test]
fn parallel_large_bodies_keep_the_server_within_its_memory() {
    for db in TestDb::all() {
        let upstream = upstream();
        let site = Site::new(db);
        let server = site.start_with("bodies", &[("TOLK_ENABLE_HOOKS", "true")]);
        demo_component(&server, &upstream);
        let idle = server.peak_memory();
        let upload = catalogue(4 * 1024 * 1024 - 64 * 1024);
        let padding = "x".repeat(1024 * 1024 - 1024);
        let hook = json!({"object_kind": "push", "ref": "refs/heads/main",
                          "project": {"path_with_namespace": "acme/elsewhere"},
                          "padding": padding,
                          "repository": {"name": "elsewhere",
                                         "url": "https://gitlab.example/acme/elsewhere",
                                         "homepage": "https://gitlab.example/acme/elsewhere"}});
        let answers: Vec<u16> = std::thread::scope(|scope| {
            let running: Vec<_> = (0..96)
                .map(|i| {
                    let (server, upload, hook) = (&server, &upload, &hook);
                    scope.spawn(move || {
                        if i % 2 == 0 {
                            server
                                .send_form(
                                    "/api/translations/demo/app/ja/file/",
                                    &[("method", "translate")],
                                    ("file", "ja.po", upload),
                                )
                                .0
                        } else {
                            server.send("POST", "/hooks/gitlab/", Some(hook.clone())).0
                        }
                    })
                })
                .collect();
            running.into_iter().map(|r| r.join().unwrap()).collect()
        });
        let peak = server.peak_memory();
        eprintln!(
            "peak memory {} MiB (idle {} MiB) under 48 uploads of {} KiB and 48 notifications of 1 MiB",
            peak >> 20,
            idle >> 20,
            upload.len() >> 10
        );
        let uploads: Vec<u16> = answers.iter().step_by(2).copied().collect();
        let hooks: Vec<u16> = answers.iter().skip(1).step_by(2).copied().collect();
        assert_eq!(uploads, vec![200; 48], "{}", server.log());
        assert_eq!(hooks, vec![202; 48], "no component matches");
        assert!(
            peak.saturating_sub(idle) < GROWTH_CEILING,
            "peak {} MiB, idle {} MiB",
            peak >> 20,
            idle >> 20
        );
        assert!(server.terminate());
    }
}
