//! Every JSON, nested JSON, WebExtension and ARB file of the shared corpus:
//! byte-for-byte round trips, one-token edits, and counts against
//! translate-toolkit's (expected.tsv).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use tolk_formats::TranslationFile;

use common::{expected, read_bytes};
use tolk_formats::json::{Flavor, JsonFile};

const FORMATS: [(&str, Flavor); 4] = [
    ("json", Flavor::KeyValue),
    ("json-nested", Flavor::KeyValue),
    ("webextension", Flavor::WebExtension),
    ("arb", Flavor::Arb),
];

fn files() -> Vec<(common::Expected, Vec<u8>, JsonFile)> {
    let mut all = Vec::new();
    for (dir, flavor) in FORMATS {
        for file in expected(&[dir]) {
            let bytes = read_bytes(&file.path);
            let json =
                JsonFile::parse(&file.path, &bytes, flavor).unwrap_or_else(|e| panic!("{e}"));
            all.push((file, bytes, json));
        }
    }
    all
}

#[test]
fn round_trips_and_counts() {
    let all = files();
    assert_eq!(all.len(), 23);
    for (file, bytes, json) in all {
        assert!(
            json.to_bytes().unwrap() == bytes,
            "{} changed on a round trip",
            file.path
        );
        // translate-toolkit reports no plural units and no fuzzy state for these files.
        assert_eq!(json.stats(), file.stats, "{}", file.path);
    }
}

#[test]
fn removals_keep_the_other_strings() {
    for (dir, _) in FORMATS {
        for file in expected(&[dir]) {
            let bytes = read_bytes(&file.path);
            let units = tolk_formats::parse(dir, &file.path, &bytes)
                .unwrap()
                .units();
            common::check_removal(dir, &file.path, &bytes, units.len() / 2);
        }
    }
}

#[test]
fn an_edit_replaces_one_value_token() {
    for (file, bytes, mut json) in files() {
        let units = json.units();
        let index = units.len() / 2;
        json.set_translation(index, &["Tolk \"edit\"\nline".into()], false)
            .unwrap();
        let written = json.to_bytes().unwrap();
        let same_start = bytes
            .iter()
            .zip(&written)
            .take_while(|(a, b)| a == b)
            .count();
        let same_end = bytes
            .iter()
            .rev()
            .zip(written.iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        let changed = &bytes[same_start..bytes.len() - same_end.min(bytes.len() - same_start)];
        assert!(
            !changed.contains(&b'\n'),
            "{}: the edit spans lines",
            file.path
        );
        let reread = JsonFile::parse(
            &file.path,
            &written,
            FORMATS
                .iter()
                .find(|(d, _)| file.path.starts_with(&format!("{d}/")))
                .unwrap()
                .1,
        )
        .unwrap();
        let after = reread.units();
        assert_eq!(
            after[index].target,
            vec!["Tolk \"edit\"\nline"],
            "{}",
            file.path
        );
        for (i, (a, b)) in units.iter().zip(&after).enumerate() {
            if i != index {
                assert_eq!(a, b, "{}: unit {i} changed", file.path);
            }
        }
    }
}
