//! The fuzz targets' checks over every corpus file, damaged copies of the
//! smaller ones and the inputs fuzzing once found failing
//! (`tests/regressions/<format id>/`): what CI runs in place of fuzzing time.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

#[path = "common/invariants.rs"]
mod invariants;

/// The format id each corpus directory is read as.
const FORMATS: &[(&str, &str)] = &[
    ("android", "aresource"),
    ("arb", "arb"),
    ("csv", "csv"),
    ("go-i18n", "go-i18n-json"),
    ("i18next", "i18next"),
    ("json", "json"),
    ("json-nested", "json-nested"),
    ("mo", "mo"),
    ("php", "laravel"),
    ("po", "po"),
    ("pot", "po"),
    ("properties", "properties"),
    ("resx", "resx"),
    ("strings", "strings"),
    ("stringsdict", "stringsdict"),
    ("tbx", "tbx"),
    ("ts", "ts"),
    ("webextension", "webextension"),
    ("xliff12", "xliff"),
    ("xliff20", "xliff2"),
    ("yaml", "ruby-yaml"),
];

/// Damaged copies of `bytes`: bytes replaced by syntax characters, and
/// truncations.
fn damaged(bytes: &[u8], seed: u64, count: usize) -> Vec<Vec<u8>> {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    (0..count)
        .map(|i| {
            let mut copy = bytes.to_vec();
            if copy.is_empty() {
                return copy;
            }
            if i % 4 == 3 {
                copy.truncate(next() % copy.len());
                return copy;
            }
            for _ in 0..1 + next() % 3 {
                let at = next() % copy.len();
                copy[at] = b"<>/\"'&;![]{}=:,#-\\\n \x00\xff"[next() % 22];
            }
            copy
        })
        .collect()
}

#[test]
fn every_parser_keeps_its_invariants_on_seeds() {
    let mut checked = 0;
    for (dir, format) in FORMATS {
        for row in common::expected(&[dir]) {
            let bytes = common::read_bytes(&row.path);
            invariants::check(format, &bytes);
            checked += 1;
            if bytes.len() <= 40_000 {
                for copy in damaged(&bytes, bytes.len() as u64, 24) {
                    if std::panic::catch_unwind(|| invariants::check(format, &copy)).is_err() {
                        let kept = std::env::temp_dir().join("tolk-seed-failure");
                        std::fs::write(&kept, &copy).unwrap();
                        panic!(
                            "a damaged copy of {} fails; it is kept in {}",
                            row.path,
                            kept.display()
                        );
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1_000, "{checked} inputs checked");
}

#[test]
fn inputs_fuzzing_found_stay_fixed() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions");
    let (mut checked, mut failing) = (0, Vec::new());
    for format in std::fs::read_dir(&dir).unwrap() {
        let format = format.unwrap();
        let id = format.file_name().to_string_lossy().into_owned();
        for input in std::fs::read_dir(format.path()).unwrap() {
            let path = input.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            if std::panic::catch_unwind(|| invariants::check(&id, &bytes)).is_err() {
                failing.push(path.display().to_string());
            }
            checked += 1;
        }
    }
    assert!(checked >= 2, "{checked} regression inputs");
    assert!(failing.is_empty(), "failing again: {failing:#?}");
}
