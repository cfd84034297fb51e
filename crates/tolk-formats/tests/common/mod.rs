//! The shared corpus of real translation files and translate-toolkit's
//! counts for it (`expected.tsv`).

#![allow(dead_code)]

use std::path::PathBuf;

use tolk_formats::stats::FileStats;

/// The corpus directory: `TOLK_CORPUS_DIR`, else the first `shared/corpus`
/// found beside the checkout or one of its parent directories.
pub fn corpus() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::var_os("TOLK_CORPUS_DIR")
        .map(PathBuf::from)
        .or_else(|| {
            manifest
                .ancestors()
                .map(|a| a.join("shared").join("corpus"))
                .find(|d| d.join("expected.tsv").exists())
        });
    match dir {
        Some(dir) if dir.join("expected.tsv").exists() => dir,
        _ => panic!(
            "the shared corpus was not found beside {}; set TOLK_CORPUS_DIR",
            manifest.display()
        ),
    }
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
