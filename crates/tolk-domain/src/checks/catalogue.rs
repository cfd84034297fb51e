//! Every quality check Tolk runs, listed once with when it runs and a
//! string that fails it. `enforced_checks`, `ignore-*` flags, `check:`
//! searches and `docs/checks.md` follow this list; a test runs every
//! example, so that no id is accepted that is not run.

/// A check: its id and when it runs.
#[derive(Debug, Clone, Copy)]
pub struct Check {
    /// Its id (`end_stop`), as Weblate names it.
    pub id: &'static str,
    /// When it runs.
    pub runs: Runs,
}

/// When a check runs.
#[derive(Debug, Clone, Copy)]
pub enum Runs {
    /// On each translated string and each one needing editing, at every
    /// edit and read of the files ([`super::failing`]), as this example
    /// fails it.
    Translation(Example),
    /// On the source strings when the files are read
    /// ([`super::source::failing_source`]), as this example fails it.
    Source(Example),
    /// Across the strings of a project or component, or over a string's
    /// history, by the service: `inconsistent` and `reused` after edits
    /// and reads,
    /// `multiple_failures` and `long_untranslated` after reads, `translated`
    /// ([`super::history`]) at edits and reads.
    Batch,
}

/// A string that fails a check.
#[derive(Debug, Clone, Copy)]
pub struct Example {
    /// The source's plural forms.
    pub source: &'static [&'static str],
    /// The translation's plural forms (none for source checks).
    pub target: &'static [&'static str],
    /// The translation's language (Czech unless the check is a language's).
    pub language: &'static str,
    /// The flags that apply.
    pub flags: &'static str,
    /// The glossary's terms (source, translation) in the language.
    pub terms: &'static [(&'static str, &'static str)],
    /// Whether the string is a glossary's term.
    pub in_glossary: bool,
}

/// The id of the check of strings translated differently across
/// components.
pub const INCONSISTENT: &str = "inconsistent";

/// The id of the check of one translation given to different source
/// strings.
pub const REUSED: &str = "reused";

/// The id of the source check of strings whose translations fail checks
/// in several languages.
pub const MULTIPLE_FAILURES: &str = "multiple_failures";

/// The id of the source check of old strings most of whose translations
/// are missing.
pub const LONG_UNTRANSLATED: &str = "long_untranslated";

const fn translation(
    id: &'static str,
    source: &'static [&'static str],
    target: &'static [&'static str],
    flags: &'static str,
) -> Check {
    in_language(id, source, target, "cs", flags)
}

const fn in_language(
    id: &'static str,
    source: &'static [&'static str],
    target: &'static [&'static str],
    language: &'static str,
    flags: &'static str,
) -> Check {
    checked(id, source, target, language, flags, &[], false)
}

/// A translation check judged against a glossary: `terms` are the
/// glossary's (source, translation) in the language, and `in_glossary`
/// says whether the string is itself a glossary's term.
const fn glossary(
    id: &'static str,
    source: &'static [&'static str],
    target: &'static [&'static str],
    flags: &'static str,
    terms: &'static [(&'static str, &'static str)],
    in_glossary: bool,
) -> Check {
    checked(id, source, target, "cs", flags, terms, in_glossary)
}

/// A translation check with its example.
const fn checked(
    id: &'static str,
    source: &'static [&'static str],
    target: &'static [&'static str],
    language: &'static str,
    flags: &'static str,
    terms: &'static [(&'static str, &'static str)],
    in_glossary: bool,
) -> Check {
    Check {
        id,
        runs: Runs::Translation(Example {
            source,
            target,
            language,
            flags,
            terms,
            in_glossary,
        }),
    }
}

const fn source(id: &'static str, source: &'static [&'static str], flags: &'static str) -> Check {
    Check {
        id,
        runs: Runs::Source(Example {
            source,
            target: &[],
            language: "en",
            flags,
            terms: &[],
            in_glossary: false,
        }),
    }
}

const fn batch(id: &'static str) -> Check {
    Check {
        id,
        runs: Runs::Batch,
    }
}

/// Every check Tolk runs.
pub const CHECKS: &[Check] = &[
    translation("same", &["Save file"], &["Save file"], ""),
    translation("begin_newline", &["\nSave"], &["Uložit"], ""),
    translation("end_newline", &["Save\n"], &["Uložit"], ""),
    translation("begin_space", &["  Save"], &["Uložit"], ""),
    translation("end_space", &["Save file "], &["Uložit soubor"], ""),
    translation("double_space", &["Save file"], &["Uložit  soubor"], ""),
    translation("end_stop", &["Save file."], &["Uložit soubor"], ""),
    translation("end_colon", &["File:"], &["Soubor"], ""),
    translation("end_question", &["Save file?"], &["Uložit soubor"], ""),
    translation("end_exclamation", &["Save file!"], &["Uložit soubor"], ""),
    translation("end_interrobang", &["Really?!"], &["Opravdu?"], ""),
    translation("end_ellipsis", &["Saving…"], &["Ukládání"], ""),
    translation("end_semicolon", &["Save file;"], &["Uložit soubor"], ""),
    translation("escaped_newline", &["Save\\nfile"], &["Uložit soubor"], ""),
    translation("newline-count", &["Save\nfile"], &["Uložit soubor"], ""),
    translation(
        "zero-width-space",
        &["Save file"],
        &["Uložit\u{200b}soubor"],
        "",
    ),
    in_language("kashida", &["Save"], &["حـفظ"], "ar", ""),
    in_language(
        "punctuation_spacing",
        &["Save file?"],
        &["Enregistrer le fichier?"],
        "fr",
        "",
    ),
    in_language("kabyle-characters", &["Year"], &["Aseggas γ"], "kab", ""),
    translation("multiple_capital", &["Save file"], &["ULožit soubor"], ""),
    translation(
        "duplicate",
        &["Save the file"],
        &["Uložit soubor soubor"],
        "",
    ),
    translation(
        "xml-tags",
        &["Save <b>file</b>"],
        &["Uložit <i>soubor</i>"],
        "",
    ),
    translation(
        "xml-invalid",
        &["Save <b>file</b>"],
        &["Uložit <b>soubor"],
        "",
    ),
    translation(
        "xml-chars-around-tags",
        &["Open <b>file</b> now"],
        &["Otevřít<b>soubor</b> teď"],
        "",
    ),
    translation(
        "bbcode",
        &["[b]Save[/b] file"],
        &["Uložit soubor"],
        "bbcode-text",
    ),
    translation(
        "md-link",
        &["See [guide](./guide.md)."],
        &["Viz návod."],
        "md-text",
    ),
    translation(
        "md-reflink",
        &["See [guide][g]."],
        &["Viz návod."],
        "md-text",
    ),
    translation(
        "md-syntax",
        &["Save **file**"],
        &["Uložit soubor"],
        "md-text",
    ),
    translation(
        "rst-references",
        &["See :ref:`setup`."],
        &["Viz nastavení."],
        "rst-text",
    ),
    translation("url", &["https://example.com/"], &["example"], "url"),
    translation(
        "asciidoc-markup",
        &["See <<setup>>."],
        &["Viz nastavení."],
        "asciidoc-text",
    ),
    translation("safe-mdx", &["Hello {name}"], &["Ahoj {jmeno}"], "safe-mdx"),
    translation(
        "fluent-target-syntax",
        &["Hello { $name }"],
        &["Ahoj { $name"],
        "fluent-target-syntax",
    ),
    translation(
        "fluent-parts",
        &["Hello\n.title = Greeting"],
        &["Ahoj"],
        "fluent-parts",
    ),
    translation(
        "fluent-references",
        &["Hello { $name }"],
        &["Ahoj { $user }"],
        "fluent-references",
    ),
    translation(
        "fluent-target-inner-html",
        &["<b>Save</b>"],
        &["<i>Uložit</i>"],
        "fluent-target-inner-html",
    ),
    translation(
        "safe-html",
        &["<a href=\"https://example.com/\">Save</a>"],
        &["<a href=\"javascript:x()\">Uložit</a>"],
        "safe-html",
    ),
    translation(
        "placeholders",
        &["Hello $NAME$"],
        &["Ahoj"],
        "placeholders:$NAME$",
    ),
    translation("accelerator", &["&Save"], &["Uložit"], "accelerator:&"),
    translation("regex", &["save"], &["Uložit"], "regex:^[a-z]+$"),
    translation("max-length", &["Save"], &["Uložit soubor"], "max-length:5"),
    translation("max-lines", &["Save"], &["Uložit\nsoubor"], "max-lines:1"),
    translation(
        "plurals",
        &["%d file", "%d files"],
        &["%d soubor", "", "%d souborů"],
        "",
    ),
    translation(
        "same-plurals",
        &["file", "files"],
        &["soubor", "soubor", "soubor"],
        "",
    ),
    translation("c_format", &["%d files"], &["soubory"], "c-format"),
    translation(
        "python_format",
        &["%(count)d files"],
        &["soubory"],
        "python-format",
    ),
    translation(
        "python_brace_format",
        &["{count} files"],
        &["soubory"],
        "python-brace-format",
    ),
    translation("php_format", &["%s files"], &["soubory"], "php-format"),
    translation(
        "java_printf_format",
        &["%s files"],
        &["soubory"],
        "java-printf-format",
    ),
    translation(
        "javascript_format",
        &["%s files"],
        &["soubory"],
        "javascript-format",
    ),
    translation("lua_format", &["%s files"], &["soubory"], "lua-format"),
    translation("perl_format", &["%s files"], &["soubory"], "perl-format"),
    translation("objc_format", &["%@ files"], &["soubory"], "objc-format"),
    translation(
        "object_pascal_format",
        &["%s files"],
        &["soubory"],
        "object-pascal-format",
    ),
    translation(
        "scheme_format",
        &["~a files"],
        &["soubory"],
        "scheme-format",
    ),
    translation(
        "ruby_format",
        &["%{count} files"],
        &["soubory"],
        "ruby-format",
    ),
    translation("qt_format", &["%1 files"], &["soubory"], "qt-format"),
    translation(
        "qt_plural_format",
        &["%n files"],
        &["soubory"],
        "qt-plural-format",
    ),
    translation("java_format", &["{0} files"], &["soubory"], "java-format"),
    translation(
        "c_sharp_format",
        &["{0} files"],
        &["soubory"],
        "c-sharp-format",
    ),
    translation(
        "perl_brace_format",
        &["{count} files"],
        &["soubory"],
        "perl-brace-format",
    ),
    translation(
        "percent_placeholders",
        &["%COUNT% files"],
        &["soubory"],
        "percent-placeholders",
    ),
    translation(
        "i18next_interpolation",
        &["{{count}} files"],
        &["soubory"],
        "i18next-interpolation",
    ),
    translation("es_format", &["${count} files"], &["soubory"], "es-format"),
    translation("vue_format", &["{count} files"], &["soubory"], "vue-format"),
    translation(
        "angularjs_format",
        &["{{count}} files"],
        &["soubory"],
        "angularjs-format",
    ),
    translation(
        "automattic_components_format",
        &["{{b}}Save{{/b}}"],
        &["Uložit"],
        "automattic-components-format",
    ),
    translation(
        "laravel_format",
        &[":count files"],
        &["soubory"],
        "laravel-format",
    ),
    translation(
        "icu_message_format",
        &["{count, number} files"],
        &["soubory"],
        "icu-message-format",
    ),
    glossary(
        "check_glossary",
        &["Open file"],
        &["Otevřít dokument"],
        "check-glossary",
        &[("file", "soubor")],
        false,
    ),
    glossary(
        "prohibited_initial_character",
        &["=SUM"],
        &["=SUMA"],
        "",
        &[],
        true,
    ),
    source("ellipsis", &["Loading..."], ""),
    source("optional_plural", &["Delete file(s)"], ""),
    source("unnamed_format", &["%s of %s"], "c-format"),
    source(
        "icu_message_format_syntax",
        &["{count, plural,"],
        "icu-message-format",
    ),
    source("source-max-length", &["Save the file"], "max-length:4"),
    source(
        "fluent-source-syntax",
        &["Hello { $name"],
        "fluent-source-syntax",
    ),
    source(
        "fluent-source-inner-html",
        &["<b>Save</i>"],
        "fluent-source-inner-html",
    ),
    batch(INCONSISTENT),
    batch(REUSED),
    batch(MULTIPLE_FAILURES),
    batch(LONG_UNTRANSLATED),
    batch(super::history::TRANSLATED),
];

/// Weblate's checks Tolk does not run yet. They are refused in
/// `enforced_checks` (enforcing a check that never runs would promise
/// what does not happen) and listed as such in `docs/checks.md`.
pub const NOT_RUN: &[&str] = &["max-size", "rst-syntax"];

/// Whether Tolk runs the check `id`.
pub fn runs(id: &str) -> bool {
    CHECKS.iter().any(|check| check.id == id)
}

/// Whether the check `id` is judged across strings or over a string's
/// history ([`Runs::Batch`]), not on the string alone.
pub fn is_batch(id: &str) -> bool {
    CHECKS
        .iter()
        .any(|check| check.id == id && matches!(check.runs, Runs::Batch))
}

/// Why `id` cannot be enforced: `None` for a check Tolk runs.
pub fn refusal(id: &str) -> Option<String> {
    if runs(id) {
        None
    } else if NOT_RUN.contains(&id) {
        Some(format!(
            "Tolk does not run the check {id} yet, so it cannot be enforced."
        ))
    } else {
        Some(format!("Unsupported enforced check: {id}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::glossary::{Glossary, Term};
    use crate::checks::{Context, Flags, failing, source::failing_source};

    fn forms(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn every_check_listed_fails_its_example() {
        for check in CHECKS {
            let found = match check.runs {
                Runs::Translation(e) => {
                    let terms = Glossary::new(
                        e.terms
                            .iter()
                            .map(|(source, target)| Term {
                                source: (*source).into(),
                                target: (*target).into(),
                                ..Term::default()
                            })
                            .collect(),
                    );
                    failing(
                        &forms(e.source),
                        &forms(e.target),
                        &Context::of(e.language, "en", "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2")
                            .with_glossary(&terms, e.in_glossary),
                        &Flags::parse([e.flags]),
                    )
                }
                Runs::Source(e) => failing_source(
                    &forms(e.source),
                    "",
                    crate::checks::source::Translations::default(),
                    &Flags::parse([e.flags]),
                ),
                Runs::Batch => continue,
            };
            assert!(
                found.contains(&check.id),
                "{} is listed but its example fails {found:?}",
                check.id
            );
        }
    }

    #[test]
    fn ids_are_listed_once_and_run_or_not() {
        let mut ids: Vec<&str> = CHECKS
            .iter()
            .map(|c| c.id)
            .chain(NOT_RUN.iter().copied())
            .collect();
        let count = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), count, "an id listed twice");
        assert!(refusal("end_stop").is_none());
        assert!(refusal("rst-syntax").is_some_and(|r| r.contains("does not run")));
        assert_eq!(
            refusal("bogus").as_deref(),
            Some("Unsupported enforced check: bogus")
        );
    }

    /// The ids in the first cells of the tables of a part of a page.
    fn tabled(part: &str) -> Vec<&str> {
        let mut ids: Vec<&str> = part
            .lines()
            .filter(|line| line.starts_with("| `"))
            .filter_map(|line| line.split('|').nth(1))
            .flat_map(|cell| cell.split('`').skip(1).step_by(2))
            .collect();
        ids.sort_unstable();
        ids
    }

    #[test]
    fn the_documentation_tables_every_check() {
        let page = include_str!("../../../../docs/checks.md");
        let (run, not_run) = page
            .split_once("## Weblate's checks Tolk does not run yet")
            .expect("the page has its section of checks not run");
        let mut listed: Vec<&str> = CHECKS.iter().map(|c| c.id).collect();
        listed.sort_unstable();
        assert_eq!(tabled(run), listed);
        let mut not_listed = NOT_RUN.to_vec();
        not_listed.sort_unstable();
        assert_eq!(tabled(not_run), not_listed);
    }

    #[test]
    fn checks_run_only_when_listed() {
        // Strings built to fail every check a flag may turn on: whatever
        // `failing` reports must be listed.
        let flags = Flags::parse([
            "c-format, python-format, python-brace-format, php-format, qt-format, \
             java-format, i18next-interpolation, vue-format, icu-message-format, md-text, \
             rst-text, bbcode-text, url, safe-html, asciidoc-text, safe-mdx, max-length:1, max-lines:1, accelerator:&, \
             regex:^x$, placeholders:$A$, fluent-source-syntax, fluent-target-syntax, fluent-parts, \
             fluent-references, fluent-source-inner-html, fluent-target-inner-html",
        ]);
        let source = forms(&["&Open %s {0} {{a}} {a} [b]x[/b] **x** :ref:`x` $A$ <b>x</b>?!\n"]);
        let target = forms(&["ABC  ـ γ\u{200b} x x <i>"]);
        for language in ["cs", "fr", "ar", "kab"] {
            let context = Context::of(language, "en", "n != 1");
            for id in failing(&source, &target, &context, &flags) {
                assert!(runs(id), "{id} runs but is not listed");
            }
        }
        let translations = crate::checks::source::Translations {
            failing: 3,
            long_untranslated: true,
        };
        for id in failing_source(
            &forms(&["%s %s... file(s) {x, plural,"]),
            "",
            translations,
            &flags,
        ) {
            assert!(runs(id), "{id} runs but is not listed");
        }
    }
}
