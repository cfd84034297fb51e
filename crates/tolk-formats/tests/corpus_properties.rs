//! Every Java properties file of the shared corpus: round trips, one-entry
//! edits, and counts against translate-toolkit's (expected.tsv).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use tolk_formats::TranslationFile;

use common::{expected, read_bytes};
use tolk_formats::properties::PropertiesFile;

#[test]
fn round_trips_counts_and_edits() {
    let files = expected(&["properties"]);
    assert_eq!(files.len(), 9);
    for file in files {
        let bytes = read_bytes(&file.path);
        let mut parsed =
            PropertiesFile::parse(&file.path, &bytes).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            parsed.to_bytes().unwrap() == bytes,
            "{} changed on a round trip",
            file.path
        );
        assert_eq!(parsed.stats(), file.stats, "{}", file.path);

        let units = parsed.units();
        let index = units.len() / 2;
        common::check_removal("properties", &file.path, &bytes, index);
        parsed
            .set_translation(index, &["Změněno = ano: \\ {value}".into()], false)
            .unwrap();
        let written = parsed.to_bytes().unwrap();
        let reread = PropertiesFile::parse(&file.path, &written).unwrap().units();
        for (i, (a, b)) in units.iter().zip(&reread).enumerate() {
            if i == index {
                assert_eq!(b.target, vec!["Změněno = ano: \\ {value}"], "{}", file.path);
                assert_eq!(a.context, b.context);
            } else {
                assert_eq!(a, b, "{}: unit {i} changed", file.path);
            }
        }
        let old: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
        let new: Vec<&[u8]> = written.split(|b| *b == b'\n').collect();
        let differing = old.iter().zip(&new).filter(|(a, b)| a != b).count();
        assert_eq!(differing, 1, "{}: one line changes", file.path);
        assert!(written.is_ascii(), "{}: ASCII files stay ASCII", file.path);
    }
}
