//! The i18next and go-i18n files of the shared corpus: plural keys merged
//! into one unit, round trips, edits, counts against translate-toolkit's.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use common::{check_rows, expected, same_counts};

/// The rows of `dir` whose file name starts with `prefix`.
fn rows(dir: &str, prefix: &str) -> Vec<common::Expected> {
    let rows: Vec<_> = expected(&[dir])
        .into_iter()
        .filter(|r| r.path.starts_with(&format!("{dir}/{prefix}")))
        .collect();
    assert!(!rows.is_empty(), "{dir}/{prefix}");
    rows
}

#[test]
fn i18next_v3_files() {
    check_rows(
        rows("i18next", "jitsi"),
        "i18next",
        "Tolk \"edit\"",
        1,
        same_counts,
    );
}

#[test]
fn i18next_v4_files() {
    check_rows(
        rows("i18next", "actual"),
        "i18nextv4",
        "Tolk \"edit\"",
        1,
        same_counts,
    );
}

#[test]
fn go_i18n_files() {
    check_rows(
        rows("go-i18n", ""),
        "go-i18n-json",
        "Tolk {{.Count}}",
        1,
        same_counts,
    );
}
