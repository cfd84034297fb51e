//! The corpus of real translation files (`tests/corpus`, with provenance
//! and licenses) and translate-toolkit's counts for it (`expected.tsv`).

#![allow(dead_code)]

use std::path::PathBuf;

use tolk_formats::stats::FileStats;

/// The corpus directory: `TOLK_CORPUS_DIR`, else the copy shipped in
/// `tests/corpus` (real files with their sources and licenses).
pub fn corpus() -> PathBuf {
    let dir = std::env::var_os("TOLK_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus"));
    assert!(
        dir.join("expected.tsv").exists(),
        "no corpus (expected.tsv) in {}",
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

/// How a format's counts are compared with translate-toolkit's.
pub type Compare = fn(&str, &[tolk_formats::Unit], &FileStats, &FileStats);

/// The counts must be equal.
pub fn same_counts(path: &str, _: &[tolk_formats::Unit], ours: &FileStats, theirs: &FileStats) {
    assert_eq!(ours, theirs, "{path}");
}

/// Reads every corpus file of directory `dir` (`files` of them) as format
/// `format` and checks that writing it back gives the same bytes, that
/// `compare` accepts its counts, and that setting one unit (a plural one
/// when there is one) to `value` changes that unit only, in at most
/// `max_lines` consecutive lines per form besides the unit's old lines.
pub fn check_corpus(
    dir: &str,
    format: &str,
    files: usize,
    value: &str,
    max_lines: usize,
    compare: Compare,
) {
    let rows = expected(&[dir]);
    assert_eq!(rows.len(), files, "{dir}");
    check_rows(rows, format, value, max_lines, compare);
}

/// [`check_corpus`] for the given rows of `expected.tsv`.
pub fn check_rows(
    rows: Vec<Expected>,
    format: &str,
    value: &str,
    max_lines: usize,
    compare: Compare,
) {
    for row in rows {
        let path = &row.path;
        let bytes = read_bytes(path);
        let mut parsed =
            tolk_formats::parse(format, path, &bytes).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            parsed.to_bytes().unwrap() == bytes,
            "{path} changed on a round trip"
        );
        let units = parsed.units();
        compare(path, &units, &parsed.stats(), &row.stats);
        let Some(index) = units
            .iter()
            .position(|u| u.target.len() > 1 && u.state != tolk_formats::State::ReadOnly)
            .or_else(|| (!units.is_empty()).then_some(units.len() / 2))
        else {
            continue;
        };
        let target: Vec<String> = (0..units[index].target.len())
            .map(|i| format!("{value} {i}"))
            .collect();
        parsed
            .set_translation(index, &target, false)
            .unwrap_or_else(|e| panic!("{e}"));
        let written = parsed.to_bytes().unwrap();
        let reread = tolk_formats::parse(format, path, &written)
            .unwrap_or_else(|e| panic!("{e}"))
            .units();
        assert_eq!(reread.len(), units.len(), "{path}");
        for (i, (a, b)) in units.iter().zip(&reread).enumerate() {
            if i == index {
                assert_eq!(b.target, target, "{path}");
                assert_eq!((&a.context, &a.source), (&b.context, &b.source), "{path}");
            } else {
                assert_eq!(a, b, "{path}: unit {i} changed");
            }
        }
        check_removal(format, path, &bytes, index);
        let changed = changed_lines(&bytes, &written);
        let unit = &units[index];
        let old_lines: usize = unit
            .target
            .iter()
            .chain(&unit.source)
            .map(|t| t.lines().count())
            .sum();
        assert!(
            changed <= max_lines * target.len() + old_lines,
            "{path}: {changed} lines changed"
        );
    }
}

/// Removing a string from file `path` of `format` after editing unit
/// `edited`: the formats that can lose a string keep every other unit as
/// it was (the edit included) and still parse; the others refuse and keep
/// the file unchanged.
pub fn check_removal(format: &str, path: &str, bytes: &[u8], edited: usize) {
    let mut file = tolk_formats::parse(format, path, bytes).unwrap();
    let units = file.units();
    let target: Vec<String> = (0..units[edited].target.len())
        .map(|i| format!("kept {i}"))
        .collect();
    let removed = if edited == 0 { units.len() - 1 } else { 0 };
    if units.len() < 2 || units[edited].state == tolk_formats::State::ReadOnly {
        return;
    }
    file.set_translation(edited, &target, false)
        .unwrap_or_else(|e| panic!("{e}"));
    let before = file.to_bytes().unwrap();
    let result = file.remove_unit(removed);
    if !tolk_formats::can_remove(format) {
        assert!(result.is_err(), "{path}: {format} removed a string");
        return;
    }
    if let Err(e) = &result
        && e.to_string().contains("cannot be removed alone")
    {
        // Part of a larger whole (an XLIFF plural group or segment).
        assert_eq!(
            file.to_bytes().unwrap(),
            before,
            "{path}: a refusal changed the file"
        );
        return;
    }
    result.unwrap_or_else(|e| panic!("{e}"));
    let written = file.to_bytes().unwrap();
    let reread = tolk_formats::parse(format, path, &written)
        .unwrap_or_else(|e| panic!("{path} after a removal: {e}"))
        .units();
    let mut expected = units.clone();
    expected[edited].target = target;
    expected.remove(removed);
    assert_eq!(reread.len(), expected.len(), "{path}");
    for (a, b) in expected.iter().zip(&reread) {
        assert_eq!(
            (&a.context, &a.source, &a.target),
            (&b.context, &b.source, &b.target),
            "{path}"
        );
    }
    assert_eq!(
        file.units().len(),
        expected.len(),
        "{path}: units after removal"
    );
    let runs = |b: &[u8]| String::from_utf8_lossy(b).matches("\n\n\n").count();
    assert!(
        runs(&written) <= runs(bytes),
        "{path}: a removal left blank lines"
    );
}

/// How many lines of `new` lie between the lines it shares with `old` at
/// the start and at the end.
pub fn changed_lines(old: &[u8], new: &[u8]) -> usize {
    let old: Vec<&[u8]> = old.split(|b| *b == b'\n').collect();
    let new: Vec<&[u8]> = new.split(|b| *b == b'\n').collect();
    let head = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let tail = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take_while(|(a, b)| a == b)
        .count()
        .min(old.len().min(new.len()) - head);
    new.len() - head - tail
}

/// What GNU gettext's `msgfmt --check` says of a file: `None` where it is
/// not installed (unless `TOLK_REQUIRE_MSGFMT` is set, as CI does), else
/// whether it accepts the file and its complaint.
pub fn msgfmt_check(bytes: &[u8]) -> Option<Result<(), String>> {
    if let Err(e) = std::process::Command::new("msgfmt")
        .arg("--version")
        .output()
    {
        assert!(
            std::env::var_os("TOLK_REQUIRE_MSGFMT").is_none(),
            "msgfmt is required here: {e}"
        );
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("checked.po");
    std::fs::write(&path, bytes).unwrap();
    let output = std::process::Command::new("msgfmt")
        .args(["--check", "-o", "/dev/null"])
        .arg(&path)
        .output()
        .unwrap();
    Some(if output.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    })
}
