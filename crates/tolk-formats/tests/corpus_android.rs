//! Every Android string resource of the shared corpus: round trips, edits
//! that touch only the element's text, counts against translate-toolkit's.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use common::check_corpus;
use tolk_formats::Unit;
use tolk_formats::stats::FileStats;

/// translate-toolkit reads a `<plurals>` with a single `<item>` (languages
/// with one plural form, such as Japanese) as a plain string; Tolk keeps it
/// a plural unit. Apart from that the counts are the same.
fn android_counts(path: &str, units: &[Unit], ours: &FileStats, theirs: &FileStats) {
    let several_forms = units.iter().filter(|u| u.target.len() > 1).count();
    assert_eq!(several_forms, theirs.plural_units, "{path}");
    let ours = FileStats {
        plural_units: several_forms,
        ..*ours
    };
    assert_eq!(&ours, theirs, "{path}");
}

#[test]
fn round_trips_counts_and_edits() {
    check_corpus(
        "android",
        "aresource",
        13,
        "Tolk's <b> & \"edit\"",
        1,
        android_counts,
    );
}
