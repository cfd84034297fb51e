//! The shared corpus of real translation files and translate-toolkit's
//! counts for it (`expected.tsv`).

#![allow(dead_code)]

use std::path::PathBuf;

use tolk_formats::stats::FileStats;

/// The corpus directory: `TOLK_CORPUS_DIR`, else `../shared/corpus` beside the checkout.
pub fn corpus() -> PathBuf {
    let dir = std::env::var_os("TOLK_CORPUS_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
        PathBuf::from,
    );
    assert!(
        dir.join("expected.tsv").exists(),
        "the shared corpus is missing at {}; set TOLK_CORPUS_DIR",
        dir.display()
    );
    dir
}

/// translate-toolkit's counts for one corpus file.
pub struct Expected {
    pub path: String,
    pub stats: FileStats,
}

/// The rows of `expected.tsv` for the given format directories.
pub fn expected(formats: &[&str]) -> Vec<Expected> {
    let table = std::fs::read_to_string(corpus().join("expected.tsv")).unwrap();
    table
        .lines()
        .skip(1)
        .map(|line| line.split('\t').collect::<Vec<_>>())
        .filter(|cols| formats.contains(&cols[1]))
        .map(|cols| {
            let n = |i: usize| cols[i].parse::<usize>().unwrap();
            Expected {
                path: cols[0].to_owned(),
                stats: FileStats {
                    units: n(2),
                    translated: n(3),
                    fuzzy: n(6),
                    obsolete: n(7),
                    plural_units: n(8),
                    nonempty_target: n(9),
                },
            }
        })
        .collect()
}

/// The bytes of a corpus file.
pub fn read_bytes(path: &str) -> Vec<u8> {
    std::fs::read(corpus().join(path)).unwrap()
}
