//! Every Android string resource of the shared corpus: round trips, edits
//! that touch only the element's text, counts against translate-toolkit's.

mod common;

use common::{expected, read_bytes};
use tolk_formats::TranslationFile;
use tolk_formats::android::AndroidFile;

#[test]
fn round_trips_counts_and_edits() {
    let files = expected(&["android"]);
    assert_eq!(files.len(), 13);
    for file in files {
        let bytes = read_bytes(&file.path);
        let mut parsed = AndroidFile::parse(&file.path, &bytes).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            parsed.to_bytes().unwrap() == bytes,
            "{} changed on a round trip",
            file.path
        );
        assert_eq!(parsed.stats(), file.stats, "{}", file.path);

        let units = parsed.units();
        if units.is_empty() {
            continue;
        }
        // Edit a plural unit when there is one, else one in the middle.
        let index = units
            .iter()
            .position(|u| u.target.len() > 1)
            .unwrap_or(units.len() / 2);
        let target: Vec<String> = (0..units[index].target.len())
            .map(|i| format!("Tolk's <{i}> & \"edit\""))
            .collect();
        parsed.set_translation(index, &target, false).unwrap();
        let written = parsed.to_bytes().unwrap();
        let reread = AndroidFile::parse(&file.path, &written).unwrap().units();
        for (i, (a, b)) in units.iter().zip(&reread).enumerate() {
            if i == index {
                assert_eq!(b.target, target, "{}", file.path);
            } else {
                assert_eq!(a, b, "{}: unit {i} changed", file.path);
            }
        }
        let old: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
        let new: Vec<&[u8]> = written.split(|b| *b == b'\n').collect();
        assert_eq!(
            old.len(),
            new.len(),
            "{}: no lines added or removed",
            file.path
        );
        let differing = old.iter().zip(&new).filter(|(a, b)| a != b).count();
        assert!(
            differing <= target.len(),
            "{}: {differing} lines changed",
            file.path
        );
    }
}
