//! Every MO file of the shared corpus: round trips and counts against
//! translate-toolkit's; every PO file compiled to MO and read back.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use tolk_formats::TranslationFile;

use common::{expected, read_bytes};
use tolk_formats::State;
use tolk_formats::mo::MoFile;
use tolk_formats::po::PoFile;

#[test]
fn reads_counts_and_round_trips() {
    let files = expected(&["mo"]);
    assert_eq!(files.len(), 11);
    for file in files {
        let bytes = read_bytes(&file.path);
        let mo = MoFile::parse(&file.path, &bytes).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            mo.to_bytes().unwrap() == bytes,
            "{} changed on a round trip",
            file.path
        );
        assert_eq!(mo.stats(), file.stats, "{}", file.path);
    }
}

#[test]
fn compiling_po_files_keeps_every_translated_message() {
    let files = expected(&["po"]);
    assert_eq!(files.len(), 35);
    for file in files {
        let po = PoFile::parse(&file.path, &read_bytes(&file.path)).unwrap();
        let mut translated: Vec<_> = po
            .units()
            .into_iter()
            .filter(|u| u.state == State::Translated)
            .map(|u| (u.context, u.source, u.target))
            .collect();
        let compiled = MoFile::from_units("ours.mo", &po.header_text(), &po.units())
            .to_bytes()
            .unwrap();
        let mut reread: Vec<_> = MoFile::parse("ours.mo", &compiled)
            .unwrap()
            .units()
            .into_iter()
            .map(|u| (u.context, u.source, u.target))
            .collect();
        translated.sort();
        reread.sort();
        assert_eq!(reread.len(), translated.len(), "{}", file.path);
        assert!(
            reread == translated,
            "{}: messages differ after compiling",
            file.path
        );
        assert_gettext_reads(&file.path, &compiled);
    }
}

/// GNU gettext's `msgunfmt`, where installed, must read what Tolk compiles.
fn assert_gettext_reads(name: &str, mo: &[u8]) {
    if std::process::Command::new("msgunfmt")
        .arg("--version")
        .output()
        .is_err()
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("compiled.mo");
    std::fs::write(&path, mo).unwrap();
    let output = std::process::Command::new("msgunfmt")
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{name}: msgunfmt refused the compiled catalogue: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn edits_rewrite_a_valid_catalogue() {
    let bytes = read_bytes("mo/django-conf-ru.mo");
    let mut mo = MoFile::parse("ru.mo", &bytes).unwrap();
    let target: Vec<String> = mo.units()[3]
        .target
        .iter()
        .map(|t| format!("{t}!"))
        .collect();
    mo.set_translation(3, &target, false).unwrap();
    let written = mo.to_bytes().unwrap();
    let again = MoFile::parse("ru.mo", &written).unwrap();
    assert_eq!(again.units().len(), mo.units().len());
    assert!(again.units().iter().any(|u| u.target == target));
    assert!(
        mo.set_translation(3, &target, true).is_err(),
        "MO has no fuzzy state"
    );
}
