//! Every XLIFF 1.2 and 2.0 file of the shared corpus: round trips, edits
//! that touch one target, and counts against translate-toolkit's.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use common::check_corpus;
use tolk_formats::State;
use tolk_formats::stats::FileStats;

/// translate-toolkit calls every XLIFF 1.2 unit that is not
/// `approved="yes"` fuzzy; Tolk, like Weblate, reads the `state`
/// attribute instead. So its "translated" must be our approved units and
/// its "fuzzy" every other unit with a target. It also drops inline
/// placeholders from targets, so a target of placeholders and spaces
/// only counts as empty there; Tolk keeps such a translation.
fn xliff12_counts(path: &str, units: &[tolk_formats::Unit], ours: &FileStats, theirs: &FileStats) {
    let approved = units.iter().filter(|u| u.state == State::Approved).count();
    let with_text = units
        .iter()
        .filter(|u| !without_tags(&u.target[0]).trim().is_empty())
        .count();
    assert_eq!(
        (with_text, ours.units, ours.plural_units, ours.obsolete),
        (
            theirs.nonempty_target,
            theirs.units,
            theirs.plural_units,
            theirs.obsolete
        ),
        "{path}"
    );
    assert_eq!(approved, theirs.translated, "{path}");
    assert_eq!(with_text - approved, theirs.fuzzy, "{path}");
    assert!(ours.nonempty_target >= with_text, "{path}");
}

/// XLIFF 2.0 counts match translate-toolkit's once targets holding only
/// placeholders and white space count as empty, as explained above.
fn xliff20_counts(path: &str, units: &[tolk_formats::Unit], ours: &FileStats, theirs: &FileStats) {
    let with_text: Vec<&tolk_formats::Unit> = units
        .iter()
        .filter(|u| !without_tags(&u.target[0]).trim().is_empty())
        .collect();
    let count = |states: &[State]| {
        with_text
            .iter()
            .filter(|u| states.contains(&u.state))
            .count()
    };
    assert_eq!(
        (
            ours.units,
            with_text.len(),
            count(&[State::Translated, State::Approved]),
            count(&[State::Fuzzy]),
        ),
        (
            theirs.units,
            theirs.nonempty_target,
            theirs.translated,
            theirs.fuzzy
        ),
        "{path}"
    );
}

/// Text with the XLIFF 1.2 and 2.0 inline tags removed.
fn without_tags(text: &str) -> String {
    const INLINE: [&str; 16] = [
        "g", "x", "bx", "ex", "bpt", "ept", "ph", "it", "mrk", "sub", "cp", "pc", "sc", "ec", "sm",
        "em",
    ];
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let tag = rest[at + 1..].trim_start_matches('/');
        let name_len = tag.find([' ', '/', '>']).unwrap_or(tag.len());
        match rest[at..].find('>') {
            Some(end) if INLINE.contains(&&tag[..name_len]) => rest = &rest[at + end + 1..],
            _ => {
                out.push('<');
                rest = &rest[at + 1..];
            }
        }
    }
    out + rest
}

#[test]
fn xliff12_files() {
    check_corpus(
        "xliff12",
        "xliff",
        20,
        "Tolk <x id=\"1\"/> & \"edit\"",
        1,
        xliff12_counts,
    );
}

#[test]
fn xliff20_files() {
    check_corpus(
        "xliff20",
        "xliff2",
        17,
        "Tolk <ph id=\"1\"/> & edit",
        1,
        xliff20_counts,
    );
}
