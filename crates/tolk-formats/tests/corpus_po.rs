//! Every PO and POT file of the shared corpus: byte-for-byte round trips,
//! minimal edits, and unit counts against translate-toolkit's (expected.tsv).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use tolk_formats::TranslationFile;

use common::{expected, msgfmt_check, read_bytes};
use tolk_formats::po::PoFile;

fn read(path: &str) -> (Vec<u8>, PoFile) {
    let bytes = read_bytes(path);
    let po = PoFile::parse(path, &bytes).unwrap_or_else(|e| panic!("{e}"));
    (bytes, po)
}

#[test]
fn every_file_round_trips_byte_for_byte() {
    let files = expected(&["po", "pot"]);
    assert_eq!(files.len(), 37);
    for file in files {
        let (bytes, po) = read(&file.path);
        assert!(
            po.to_bytes().unwrap() == bytes,
            "{} changed on a round trip",
            file.path
        );
    }
}

#[test]
fn counts_match_translate_toolkit() {
    for file in expected(&["po", "pot"]) {
        let (_, po) = read(&file.path);
        assert_eq!(po.stats(), file.stats, "{}", file.path);
    }
}

#[test]
fn editing_a_unit_rewrites_only_that_entry() {
    for file in expected(&["po"]) {
        let (bytes, mut po) = read(&file.path);
        let units = po.units();
        let Some(index) = units.iter().position(|u| !u.source[0].is_empty()) else {
            continue;
        };
        let forms = units[index].target.len();
        let target: Vec<String> = (0..forms).map(|i| format!("Tolk {i} \"quoted\"")).collect();
        common::check_removal("po", &file.path, &bytes, index);
        po.set_translation(index, &target, true).unwrap();
        let written = po.to_bytes().unwrap();
        let reread = PoFile::parse(&file.path, &written).unwrap();
        let after = reread.units();
        assert_eq!(after[index].target, target, "{}", file.path);
        assert_eq!(after.len(), units.len());
        for (i, (a, b)) in units.iter().zip(&after).enumerate() {
            if i != index {
                assert_eq!(a, b, "{}: unit {i} changed", file.path);
            }
        }
        let old: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
        let new: Vec<&[u8]> = written.split(|b| *b == b'\n').collect();
        let same_start = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
        let same_end = old
            .iter()
            .rev()
            .zip(new.iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        let changed = |lines: &[&[u8]]| -> Vec<String> {
            let end = lines.len() - same_end.min(lines.len() - same_start);
            lines[same_start..end]
                .iter()
                .map(|l| String::from_utf8_lossy(l).into_owned())
                .collect()
        };
        // Files msgfmt accepts must stay acceptable after an edit.
        if let Some(Ok(())) = msgfmt_check(&bytes)
            && let Some(Err(complaint)) = msgfmt_check(&written)
        {
            panic!(
                "{}: msgfmt --check refused the edited file: {complaint}",
                file.path
            );
        }
        for region in [changed(&old), changed(&new)] {
            let entries = region.iter().filter(|l| l.starts_with("msgid ")).count();
            assert!(
                entries <= 1,
                "{}: the change reaches beyond one entry: {region:?}",
                file.path
            );
        }
    }
}

#[test]
fn converted_files_keep_every_unit_and_pass_msgfmt() {
    for file in expected(&["po", "pot"]) {
        let (bytes, po) = read(&file.path);
        let header = po.header_text();
        let written =
            tolk_formats::write_new("po", "converted.po", Some(&header), &po.units()).unwrap();
        let reread = PoFile::parse("converted.po", &written)
            .unwrap_or_else(|e| panic!("{}: {e}", file.path));
        // A catalogue gives each plural as many forms as its header says.
        let forms = header
            .split("nplurals=")
            .nth(1)
            .and_then(|rest| rest.split(';').next()?.trim().parse::<usize>().ok())
            .unwrap_or(1);
        let expected: Vec<_> = po
            .units()
            .into_iter()
            .map(|mut unit| {
                if unit.source.len() > 1 && unit.target.len() < forms {
                    unit.target.resize(forms, String::new());
                }
                unit
            })
            .collect();
        assert!(
            reread.units() == expected,
            "{}: units changed in conversion",
            file.path
        );
        assert_eq!(
            reread.obsolete_count(),
            0,
            "obsolete entries are not converted"
        );
        if let Some(Ok(())) = msgfmt_check(&bytes)
            && let Some(Err(complaint)) = msgfmt_check(&written)
        {
            panic!(
                "{}: msgfmt --check refused the converted file: {complaint}",
                file.path
            );
        }
    }
}
