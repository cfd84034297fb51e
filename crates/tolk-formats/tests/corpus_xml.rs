//! The RESX, stringsdict and Qt TS files of the shared corpus: round trips, edits
//! of one value, counts against translate-toolkit's.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use common::{check_corpus, same_counts};

#[test]
fn resx_files() {
    check_corpus("resx", "resx", 11, "Tolk <b> & \"edit\"", 1, same_counts);
}

#[test]
fn stringsdict_files() {
    check_corpus(
        "stringsdict",
        "stringsdict",
        7,
        "%ld Tolk & <edit>",
        1,
        same_counts,
    );
}

#[test]
fn qt_ts_files() {
    check_corpus("ts", "ts", 6, "Tolk 'edit' & <b>", 1, same_counts);
}

#[test]
fn tbx_files() {
    check_corpus("tbx", "tbx", 2, "Tolk <term> & edit", 1, same_counts);
}
