//! HTML documents written for these tests (`tests/documents/`): a modern
//! page, legacy markup with optional end tags and upper-case names, and a
//! fragment. Each reads into the strings a translator expects, writes
//! back byte for byte, keeps the parsers' invariants on damaged copies,
//! and a translation filled in from the template reads back against it.

#[path = "common/invariants.rs"]
mod invariants;

use tolk_formats::Paired;
use tolk_formats::html;
use tolk_formats::{State, TranslationFile};

fn document(name: &str) -> Vec<u8> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/documents");
    std::fs::read(dir.join(name)).unwrap()
}

fn texts(name: &str) -> Vec<String> {
    let file = html::parse(name, &document(name)).unwrap();
    file.units()
        .into_iter()
        .map(|u| u.source[0].clone())
        .collect()
}

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
    for name in ["guide.html", "legacy.html", "fragment.html"] {
        let bytes = document(name);
        invariants::check("html", &bytes);
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
                copy[at] = b"<>/\"'=!-\n "[(state >> 40) as usize % 10];
            }
            if std::panic::catch_unwind(|| invariants::check("html", &copy)).is_err() {
                let kept = std::env::temp_dir().join("tolk-html-failure");
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
    let Paired::Units(units) = html::pair(&template, &html::parse("cs.html", &written).unwrap())
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
