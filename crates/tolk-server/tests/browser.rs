//! The pages in a real browser: Debian's Chromium driven by Playwright
//! for Python (`tests/browser/*.py`) against `tolk serve`, with axe-core
//! checking accessibility. Skipped where Playwright, Chromium or axe-core
//! (`TOLK_AXE_PATH`, the path of `axe.min.js`) is missing, unless
//! `TOLK_REQUIRE_BROWSER=1` (as CI sets) makes that a failure.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests fail loudly"
)]

mod harness;

use std::process::Command;

use harness::Site;
use tolk_service::testing::TestDb;

/// The path of axe-core's script, when the browser tests can run.
fn browser_tools() -> Option<String> {
    let playwright = Command::new("python3")
        .args(["-c", "import playwright"])
        .output()
        .is_ok_and(|out| out.status.success());
    let chromium = std::path::Path::new("/usr/bin/chromium").exists();
    let axe = std::env::var("TOLK_AXE_PATH")
        .ok()
        .filter(|path| std::path::Path::new(path).exists());
    if playwright && chromium && axe.is_some() {
        return axe;
    }
    let missing = format!(
        "browser tests need Playwright for Python ({playwright}), /usr/bin/chromium ({chromium}) \
         and TOLK_AXE_PATH naming axe.min.js ({})",
        axe.is_some()
    );
    assert!(
        std::env::var("TOLK_REQUIRE_BROWSER").as_deref() != Ok("1"),
        "{missing}"
    );
    eprintln!("skipping: {missing}");
    None
}

/// Runs a script of `tests/browser/` with arguments; fails with what it
/// printed, else returns it.
fn run_script(script: &str, args: &[&str]) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/browser/");
    let out = Command::new("python3")
        .arg(format!("{path}{script}"))
        .args(args)
        .output()
        .unwrap();
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{script}: {printed}");
    eprintln!("{printed}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The password of the superuser `root`.
const PASSWORD: &str = "root's own passphrase";

/// Makes the superuser `root` with [`PASSWORD`]; their API token.
fn root(site: &Site) -> String {
    let printed = site.tolk(&[
        "createadmin",
        "--username",
        "root",
        "--email",
        "root@example.com",
        "--update",
        "--password",
        PASSWORD,
    ]);
    printed.lines().last().unwrap().to_owned()
}

#[test]
fn a_person_signs_in_with_the_keyboard_and_every_page_is_accessible() {
    let Some(axe) = browser_tools() else {
        return;
    };
    for db in TestDb::all() {
        let site = Site::new(db);
        root(&site);
        site.tolk(&[
            "createadmin",
            "--username",
            "ada",
            "--email",
            "ada@example.com",
        ]);
        let server = site.start("browser");
        let printed = site.tolk(&[
            "password-link",
            "--username",
            "ada",
            "--site-url",
            server.base(),
        ]);
        let link = printed.lines().last().unwrap();
        assert!(
            link.starts_with(&format!("{}/accounts/password/set/", server.base())),
            "{printed}"
        );
        let demo = serde_json::json!({
            "name": "Demo", "slug": "demo", "web": "https://example.com/", "access_control": 100
        });
        let (status, body) = server.send("POST", "/api/projects/", Some(demo));
        assert_eq!(status, 201, "{body}");
        run_script("pages.py", &[server.base(), PASSWORD, link, &axe]);
    }
}

#[test]
fn a_person_translates_ten_strings_with_the_keyboard_and_the_commit_has_them() {
    let Some(axe) = browser_tools() else {
        return;
    };
    for db in TestDb::all() {
        let site = Site::new(db);
        let token = root(&site);
        let server = site.start("editor");
        let upstream = harness::upstream();
        harness::demo_component(&server, &upstream);
        let printed = run_script("editor.py", &[server.base(), PASSWORD, &token, &axe]);
        let saved: serde_json::Value =
            serde_json::from_str(printed.lines().last().unwrap()).unwrap();
        assert_eq!(saved.as_array().unwrap().len(), 10, "{saved}");

        // The next commit holds them: pushed upstream, as written in the file.
        let push = serde_json::json!({"operation": "push"});
        let (status, body) =
            server.send("POST", "/api/components/demo/app/repository/", Some(push));
        assert_eq!(status, 200, "{body}");
        let file = upstream.file("po/ja.po");
        for item in saved.as_array().unwrap() {
            let text = item["text"].as_str().unwrap();
            assert!(
                file.contains(&format!("msgstr \"{text}\"")),
                "{text} upstream:\n{file}"
            );
        }
    }
}
