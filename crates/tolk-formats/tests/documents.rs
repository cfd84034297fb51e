//! Documents written for these tests (`tests/documents/`): HTML (a modern
//! page, legacy markup with optional end tags and upper-case names, a
//! fragment) and Markdown (a README, a changelog). Each reads into the
//! strings a translator expects, writes back byte for byte, keeps the
//! parsers' invariants on damaged copies, and a translation filled in from
//! the template reads back against it.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

#[path = "common/invariants.rs"]
mod invariants;

use tolk_formats::Paired;
use tolk_formats::html;
use tolk_formats::{State, TranslationFile};

fn document(name: &str) -> Vec<u8> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/documents");
    std::fs::read(dir.join(name)).unwrap()
}

/// The format a document is read as, by its extension.
fn format_of(name: &str) -> &'static str {
    if name.ends_with(".md") {
        "markdown"
    } else {
        "html"
    }
}

fn texts(name: &str) -> Vec<String> {
    let file = tolk_formats::parse(format_of(name), name, &document(name)).unwrap();
    file.units()
        .into_iter()
        .map(|u| u.source[0].clone())
        .collect()
}

const DOCUMENTS: [&str; 5] = [
    "guide.html",
    "legacy.html",
    "fragment.html",
    "README.md",
    "CHANGELOG.md",
];

#[test]
fn strings_are_the_texts_a_translator_expects() {
    let guide = texts("guide.html");
    assert_eq!(guide.len(), 24, "{guide:#?}");
    assert_eq!(guide[0], "Getting started with Tolk");
    assert_eq!(
        &guide[1..4],
        [
            "<a href=\"index.html\">Home</a>",
            "<a href=\"guide.html\" aria-current=\"page\">Guide</a>",
            "<a href=\"api.html\">API</a>"
        ]
    );
    assert_eq!(
        guide[5],
        "Tolk keeps the translations of your project next to its code. Each <em>component</em> is bound to a Git repository and a <strong>file mask</strong> that finds the translation files."
    );
    assert_eq!(guide[8], "<code>cargo install tolk\ntolk serve</code>");
    assert_eq!(guide[20], "From upstream to translators and back.");
    assert_eq!(
        guide[23],
        "&copy; 2026 The Tolk authors. Licensed under the MIT licence."
    );
    assert!(
        guide
            .iter()
            .all(|t| !t.contains("querySelector") && !t.contains("font-family"))
    );

    let legacy = texts("legacy.html");
    assert_eq!(
        legacy,
        [
            "Release notes",
            "Release notes",
            "This release fixes <B>three</B> bugs and adds one feature.",
            "Upgrading is safe: no settings changed.",
            "Uploads no longer time out",
            "Searches with <TT>NOT</TT> work again",
            "The log names the request id",
            "Feature",
            "HTML documents can be translated",
            "Known issue",
            "Attributes such as <I>alt</I> are not translated yet",
            "Questions? Write to <A HREF=mailto:team@example.com>the team</A>.",
            "Last changed on 25 November 2026.",
        ]
    );
    assert_eq!(
        texts("fragment.html"),
        [
            "Frequently asked questions",
            "Is Tolk compatible with Weblate clients?",
            "It speaks Weblate's REST API, so <code>wlc</code> and scripts work unchanged.",
            "Which databases are supported?",
            "SQLite, embedded, and PostgreSQL for several instances.",
            "Still stuck? <a href=\"https://example.com/forum\">Ask in the forum</a>.",
        ]
    );
}

#[test]
fn documents_keep_the_invariants_also_when_damaged() {
    for name in DOCUMENTS {
        let bytes = document(name);
        let format = format_of(name);
        invariants::check(format, &bytes);
        let mut state = bytes.len() as u64;
        for i in 0..200 {
            let mut copy = bytes.clone();
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let at = (state >> 33) as usize % copy.len();
            if i % 4 == 3 {
                copy.truncate(at);
            } else {
                copy[at] = b"<>/\"'=!-\n #|*`"[(state >> 40) as usize % 14];
            }
            if std::panic::catch_unwind(|| invariants::check(format, &copy)).is_err() {
                let kept = std::env::temp_dir().join("tolk-document-failure");
                std::fs::write(&kept, &copy).unwrap();
                panic!("a damaged copy of {name} fails; kept in {}", kept.display());
            }
        }
    }
}

#[test]
fn a_translation_is_the_template_filled_in() {
    let source = document("legacy.html");
    let mut filled = html::parse("cs.html", &source).unwrap();
    filled
        .set_translation(
            3,
            &["Přechod je bezpečný: žádné nastavení se nezměnilo.".into()],
            false,
        )
        .unwrap();
    filled
        .set_translation(5, &["Hledání s <TT>NOT</TT> opět funguje".into()], false)
        .unwrap();
    let written = filled.to_bytes().unwrap();
    let text = String::from_utf8(written.clone()).unwrap();
    assert_eq!(
        text,
        String::from_utf8(source.clone())
            .unwrap()
            .replace(
                "Upgrading is safe: no settings changed.",
                "Přechod je bezpečný: žádné nastavení se nezměnilo."
            )
            .replace(
                "Searches with <TT>NOT</TT> work again",
                "Hledání s <TT>NOT</TT> opět funguje"
            )
    );
    let template = html::parse("en.html", &source).unwrap();
    let Paired::Units(units) =
        tolk_formats::with_document("html", ("en.html", &source), ("cs.html", &written)).unwrap()
    else {
        panic!("the same structure");
    };
    let translated: Vec<usize> = (0..units.len())
        .filter(|&i| units[i].state == State::Translated)
        .collect();
    assert_eq!(translated, [3, 5]);
    assert_eq!(units[5].target, ["Hledání s <TT>NOT</TT> opět funguje"]);
    assert_eq!(units[5].source, ["Searches with <TT>NOT</TT> work again"]);
    assert_eq!(units[5].context, template.units()[5].context);
}

#[test]
fn markdown_strings_are_the_texts_a_translator_expects() {
    let readme = texts("README.md");
    assert_eq!(readme.len(), 23, "{readme:#?}");
    assert_eq!(
        &readme[..9],
        [
            "Tolk",
            "[![CI](https://example.com/badge.svg)](https://example.com/ci)",
            "Tolk is a translation-management server that speaks **Weblate's REST API**,\nso `wlc`, generated clients and CI scripts work against it unchanged.",
            "Quick start",
            "Start the server on the embedded database:",
            "Open <http://127.0.0.1:8000/api/> and create a project.",
            "Add a component from a Git repository.",
            "**Note:** local repositories (`file://`) are refused unless\n`TOLK_VCS_ALLOW_LOCAL=true` is set.",
            "Formats",
        ]
    );
    assert_eq!(&readme[9..12], ["Format", "Extension", "Plurals"]);
    assert_eq!(readme[20], "—");
    assert_eq!(
        &readme[21..],
        [
            "Run the tests with:",
            "See the [architecture notes][arch] for how the crates fit together."
        ]
    );
    assert_eq!(
        texts("CHANGELOG.md"),
        [
            "Changelog",
            "All notable changes are listed here; dates are UTC.",
            "Unreleased",
            "Added",
            "HTML and Markdown documents can be translated:",
            "every paragraph, heading, list item and table cell is a string;",
            "translations keep the document's markup.",
            "Git processes left running by a killed server are stopped.",
            "Fixed",
            "A setup killed while cloning no longer fails at the next start.",
            "Rate limits shared through PostgreSQL cost less than 0.2 ms a request.",
            "0.1.0 — 2026-11-01",
            "First release.",
        ]
    );
}

#[test]
fn a_markdown_translation_is_the_template_filled_in() {
    let source = document("README.md");
    let mut filled = tolk_formats::markdown::parse("cs.md", &source).unwrap();
    let quote = "**Pozor:** místní repozitáře (`file://`) se odmítají, dokud\nnení nastaveno `TOLK_VCS_ALLOW_LOCAL=true`.";
    filled.set_translation(7, &[quote.into()], false).unwrap();
    filled
        .set_translation(4, &["Spusťte server na vestavěné databázi:".into()], false)
        .unwrap();
    let written = String::from_utf8(filled.to_bytes().unwrap()).unwrap();
    assert_eq!(
        written,
        String::from_utf8(source.clone())
            .unwrap()
            .replace(
                "**Note:** local repositories (`file://`) are refused unless\n> `TOLK_VCS_ALLOW_LOCAL=true` is set.",
                "**Pozor:** místní repozitáře (`file://`) se odmítají, dokud\n> není nastaveno `TOLK_VCS_ALLOW_LOCAL=true`."
            )
            .replace("Start the server on the embedded database:", "Spusťte server na vestavěné databázi:")
    );
    let template = tolk_formats::markdown::parse("en.md", &source).unwrap();
    let Paired::Units(units) = tolk_formats::with_document(
        "markdown",
        ("en.md", &source),
        ("cs.md", written.as_bytes()),
    )
    .unwrap() else {
        panic!("the same structure");
    };
    let translated: Vec<usize> = (0..units.len())
        .filter(|&i| units[i].state == State::Translated)
        .collect();
    assert_eq!(translated, [4, 7]);
    assert_eq!(units[7].target, [quote]);
    assert_eq!(units[7].context, template.units()[7].context);
}

/// Documents assembled at random from the pieces their syntax is made of
/// (a cheap, always-run stand-in for the fuzz targets in `fuzz/`).
#[test]
fn random_documents_keep_the_invariants() {
    const PIECES: &[&str] = &[
        "<p>",
        "</p>",
        "<li>",
        "<ul>",
        "</ul>",
        "<div>",
        "</div>",
        "<td>",
        "<tr>",
        "<table>",
        "<pre>",
        "</pre>",
        "<script>",
        "</script>",
        "<!--",
        "-->",
        "<a href=\"x>y\">",
        "</a>",
        "<br>",
        "<hr>",
        "<em>",
        "</em>",
        "<",
        ">",
        "&amp;",
        "\"",
        "'",
        "=",
        "é",
        "字",
        "text",
        " ",
        "  ",
        "\n",
        "\n\n",
        "\r\n",
        "\t",
        "# ",
        "## ",
        "- ",
        "* ",
        "1. ",
        "2) ",
        "> ",
        "```",
        "~~~",
        "|",
        "| a | b |",
        "|---|---|",
        "---",
        "===",
        "***",
        "    ",
        "[x]: y",
        "`",
        "\\",
        "*",
        "_",
        "<div>\n",
        "x\n===\n",
    ];
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    for format in ["html", "markdown"] {
        for _ in 0..3_000 {
            let length = 1 + next(40);
            let text: String = (0..length).map(|_| PIECES[next(PIECES.len())]).collect();
            if std::panic::catch_unwind(|| invariants::check(format, text.as_bytes())).is_err() {
                panic!("{format}: {text:?}");
            }
        }
    }
}
