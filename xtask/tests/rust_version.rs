//! The workspace's `rust-version` is the oldest toolchain that builds the
//! locked dependencies: the highest `rust-version` among them, no lower
//! (it would promise a toolchain that cannot build Tolk) and no higher.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

use std::process::Command;

fn version(text: &str) -> Vec<u32> {
    text.split('.').map(|n| n.parse().unwrap_or(0)).collect()
}

#[test]
fn rust_version_is_what_the_locked_dependencies_need() {
    let out = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--filter-platform",
            "x86_64-unknown-linux-gnu",
        ])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let members: Vec<&str> = metadata["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m.as_str())
        .collect();
    let resolved: Vec<&str> = metadata["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["id"].as_str())
        .collect();
    let mut ours = Vec::new();
    let mut needed: Option<(Vec<u32>, String)> = None;
    for package in metadata["packages"].as_array().unwrap() {
        let id = package["id"].as_str().unwrap();
        let Some(rust) = package["rust_version"].as_str() else {
            continue;
        };
        if members.contains(&id) {
            ours.push(rust.to_owned());
        } else if resolved.contains(&id) && needed.as_ref().is_none_or(|(v, _)| version(rust) > *v)
        {
            needed = Some((version(rust), format!("{} {rust}", package["name"])));
        }
    }
    let (needed, by) = needed.unwrap();
    assert!(!ours.is_empty());
    for stated in &ours {
        assert_eq!(
            version(stated),
            needed,
            "the workspace says {stated}; {by} needs its own"
        );
    }
}
