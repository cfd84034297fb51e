//! The quality checks on real files of the corpus, against the verdicts
//! Weblate 5.14.3's own checks reached on the same strings (run beside
//! Tolk on this machine: every translated string of each file, with the
//! file's flags and the language's plural forms). For each file, how many
//! strings fail each check; the few places where Tolk differs on purpose
//! are listed in `docs/checks.md` and marked here.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use tolk_domain::checks::{Context, Flags, failing};
use tolk_domain::language::builtin_languages;
use tolk_formats::State;

/// A corpus file: its path, format, language and the number of strings
/// failing each check.
struct Case {
    path: &'static str,
    format: &'static str,
    language: &'static str,
    translated: usize,
    verdicts: &'static [(&'static str, usize)],
}

const CASES: &[Case] = &[
    Case {
        path: "po/django-admin-ar.po",
        format: "po",
        language: "ar",
        translated: 200,
        verdicts: &[
            ("double_space", 1),
            ("duplicate", 3),
            ("end_ellipsis", 2),
            ("end_space", 2),
            ("end_stop", 5),
            ("kashida", 1),
        ],
    },
    Case {
        path: "po/django-conf-ga.po",
        format: "po",
        language: "ga",
        translated: 348,
        verdicts: &[
            ("double_space", 1),
            ("end_space", 2),
            ("end_stop", 2),
            ("same-plurals", 6),
        ],
    },
    // Plural forms with Python placeholders the singular spells out.
    Case {
        path: "po/django-humanize-ar.po",
        format: "po",
        language: "ar",
        translated: 56,
        verdicts: &[("same-plurals", 10)],
    },
    Case {
        path: "po/gnome-calculator-ar.po",
        format: "po",
        language: "ar",
        translated: 638,
        verdicts: &[
            ("double_space", 1),
            ("duplicate", 12),
            ("end_stop", 3),
            ("newline-count", 1),
            ("same-plurals", 1),
        ],
    },
    Case {
        path: "po/gnome-calculator-es.po",
        format: "po",
        language: "es_ES",
        translated: 786,
        verdicts: &[
            ("end_stop", 4),
            ("newline-count", 1),
            ("same", 103),
            ("same-plurals", 1),
        ],
    },
    Case {
        path: "po/sphinx-de.po",
        format: "po",
        language: "de",
        translated: 170,
        verdicts: &[
            ("end_ellipsis", 1),
            ("end_space", 1),
            ("newline-count", 1),
            ("python_format", 1),
            ("same", 2),
        ],
    },
    Case {
        path: "ts/keepassxc-he.ts",
        format: "ts",
        language: "he",
        translated: 2100,
        verdicts: &[
            ("begin_space", 9),
            ("double_space", 4),
            ("duplicate", 1),
            ("end_colon", 13),
            ("end_ellipsis", 64),
            ("end_exclamation", 2),
            ("end_newline", 1),
            ("end_question", 5),
            ("end_space", 24),
            ("end_stop", 87),
            ("newline-count", 8),
            ("same", 5),
            ("same-plurals", 1),
        ],
    },
    Case {
        path: "xliff12/kimai-messages-ar.xlf",
        format: "xliff",
        language: "ar",
        translated: 526,
        verdicts: &[
            ("end_colon", 2),
            ("end_ellipsis", 2),
            ("end_exclamation", 2),
            ("end_question", 4),
            ("end_stop", 42),
        ],
    },
    Case {
        path: "xliff12/aam-digital-messages-de.xlf",
        format: "xliff",
        language: "de",
        translated: 1312,
        verdicts: &[
            ("begin_space", 178),
            ("double_space", 3),
            ("duplicate", 3),
            ("end_colon", 1),
            ("end_ellipsis", 2),
            ("end_exclamation", 1),
            ("end_newline", 10),
            ("end_question", 1),
            ("end_space", 88),
            ("end_stop", 29),
            ("newline-count", 19),
            ("same", 7),
            ("xml-invalid", 3),
            ("xml-tags", 3),
        ],
    },
];

/// Checks Weblate added after 5.14.3, which the counts above cannot hold.
const NEWER_THAN_5_14: &[&str] = &[
    "multiple_capital",
    "accelerator",
    "max-lines",
    "xml-chars-around-tags",
];

fn corpus(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tolk-formats/tests/corpus")
        .join(path)
}

#[test]
fn checks_reach_weblates_verdicts_on_corpus_files() {
    let languages = builtin_languages();
    for case in CASES {
        let bytes = std::fs::read(corpus(case.path)).unwrap();
        let file = tolk_formats::parse(case.format, case.path, &bytes).unwrap();
        let language = languages
            .iter()
            .find(|l| l.code == case.language)
            .or_else(|| {
                let base = case.language.split('_').next().unwrap();
                languages.iter().find(|l| l.code == base)
            })
            .unwrap();
        let plural = &language.plurals[0].formula;
        let mut translated = 0;
        let mut verdicts: BTreeMap<&str, usize> = BTreeMap::new();
        for unit in file.units() {
            if unit.state != State::Translated || unit.source.iter().all(String::is_empty) {
                continue;
            }
            translated += 1;
            let flags = unit.flags.join(", ");
            let flags = Flags::parse([flags.as_str()]);
            for id in failing(
                &unit.source,
                &unit.target,
                &Context::of(case.language, "en", plural),
                &flags,
            ) {
                if !NEWER_THAN_5_14.contains(&id) {
                    *verdicts.entry(id).or_default() += 1;
                }
            }
        }
        let expected: BTreeMap<&str, usize> = case.verdicts.iter().copied().collect();
        assert_eq!(
            (translated, verdicts),
            (case.translated, expected),
            "{}",
            case.path
        );
    }
}
