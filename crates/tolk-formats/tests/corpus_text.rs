//! The text formats of the shared corpus (Apple .strings, CSV, YAML,
//! Laravel PHP): round trips, edits of one value, counts against translate-toolkit's.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use common::{check_corpus, read_bytes, same_counts};
use tolk_formats::Unit;
use tolk_formats::stats::FileStats;

/// translate-toolkit turns a file's leading comment block that is followed
/// by a blank line (GlotPress writes its header so) into one more unit,
/// with no key and no value; Tolk leaves it as the file's header.
fn strings_counts(path: &str, units: &[Unit], ours: &FileStats, theirs: &FileStats) {
    let text = String::from_utf8_lossy(&read_bytes(path)).into_owned();
    let header = text.starts_with("/*")
        && text
            .split("\n\n")
            .next()
            .is_some_and(|block| block.lines().all(|l| l.starts_with("/*")));
    let ours = FileStats {
        units: ours.units + usize::from(header),
        ..*ours
    };
    assert_eq!(&ours, theirs, "{path}");
    assert!(units.iter().all(|u| !u.context.is_empty()), "{path}");
}

#[test]
fn apple_strings_files() {
    check_corpus(
        "strings",
        "strings",
        12,
        "Tolk \"edit\" ✓",
        1,
        strings_counts,
    );
}

/// translate-toolkit guesses the CSV dialect from the file's first KiB; for
/// the Magento pack (rows such as `20,20,,`) Python's sniffer picks the
/// space as the delimiter, which splits rows at spaces into 13946 units of
/// which 12549 have a second field. Read with commas, as Magento writes it
/// (and as Python's `csv.reader` reads it by default), the file has 13852
/// rows, every one translated. The other files agree with the toolkit.
fn csv_counts(path: &str, units: &[Unit], ours: &FileStats, theirs: &FileStats) {
    if path.ends_with("magento-de-pack-de_DE.csv") {
        assert_eq!((theirs.units, theirs.translated), (13946, 12549));
        assert_eq!((ours.units, ours.translated), (13852, 13852), "{path}");
        assert!(units.iter().all(|u| !u.source[0].is_empty()), "{path}");
    } else {
        same_counts(path, units, ours, theirs);
    }
}

#[test]
fn csv_files() {
    check_corpus("csv", "csv", 9, "Tolk, \"edit\"", 1, csv_counts);
}

#[test]
fn rails_yaml_files() {
    check_corpus("yaml", "ruby-yaml", 9, "Tolk: \"edit\"", 1, same_counts);
}

#[test]
fn laravel_php_files() {
    check_corpus("php", "laravel", 7, "Tolk's \\ edit", 1, same_counts);
}
