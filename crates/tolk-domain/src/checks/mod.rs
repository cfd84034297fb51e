//! Quality checks (§29.13): the identifiers `enforced_checks` and
//! `check:` searches name, and the checks Tolk runs on translated strings
//! ([`failing`]), each after Weblate's rules.

pub mod chars;
pub mod flags;
pub mod format;
pub mod icu;
pub mod markdown;
pub mod markup;
pub mod rst;
pub mod same;
pub mod source;
pub mod words;

pub use flags::Flags;

/// The ids of the checks a translated string fails: `source` and `target`
/// are its forms, `language` its language code (`source_language` the
/// source's), `plural` the gettext formula of the translation's plural
/// forms (which forms stand for a single number), `flags` every flag that
/// applies (file, unit, component, project). `ignore-*` flags turn checks
/// off; `max-length` and the format checks run only with their flags.
pub fn failing(
    source: &[String],
    target: &[String],
    language: &str,
    source_language: &str,
    plural: &str,
    flags: &Flags,
) -> Vec<&'static str> {
    let mut found: Vec<&'static str> = Vec::new();
    let mut fail = |id: &'static str, failed: bool| {
        if failed && !found.contains(&id) && !flags.ignores(id) {
            found.push(id);
        }
    };
    for (i, text) in target.iter().enumerate() {
        let Some(original) = source.get(i.min(source.len().saturating_sub(1))) else {
            continue;
        };
        let (s, t) = (original.as_str(), text.as_str());
        fail("same", same::same(s, t, language, source_language, flags));
        fail("begin_newline", chars::begin_newline(s, t));
        fail("end_newline", chars::end_newline(s, t));
        fail("begin_space", chars::begin_space(s, t));
        fail("end_space", chars::end_space(s, t));
        fail("double_space", chars::double_space(s, t));
        fail("end_stop", chars::end_stop(s, t, language));
        fail("end_colon", chars::end_colon(s, t, language));
        fail("end_question", chars::end_question(s, t, language));
        fail("end_exclamation", chars::end_exclamation(s, t, language));
        fail("end_ellipsis", chars::end_ellipsis(s, t, language));
        fail("end_semicolon", chars::end_semicolon(s, t, language));
        fail("escaped_newline", chars::count_differs(s, t, "\\n"));
        fail("newline-count", chars::count_differs(s, t, "\n"));
        fail("zero-width-space", chars::zero_width_space(s, t, language));
        fail("kashida", chars::kashida(t));
        fail(
            "punctuation_spacing",
            chars::punctuation_spacing(t, language),
        );
        fail(
            "duplicate",
            words::duplicate(s, t, language, source_language),
        );
        fail("xml-tags", markup::xml_tags(s, t));
        fail("xml-invalid", markup::xml_invalid(s, t));
        if flags.has("bbcode-text") {
            fail("bbcode", markup::bbcode(s, t));
        }
        if flags.has("md-text") {
            fail("md-link", markdown::md_link(s, t));
            fail("md-reflink", markdown::md_reflink(s, t));
            fail("md-syntax", markdown::md_syntax(s, t));
        }
        if flags.has("rst-text") {
            fail("rst-references", rst::rst_references(s, t));
        }
        if flags.has("url") {
            fail("url", !t.is_empty() && markup::url(t));
        }
        if let Some(listed) = flags.value("placeholders") {
            fail("placeholders", words::placeholders(s, t, listed));
        }
    }
    let strict = flags.has("strict-format");
    for format in format::FORMATS {
        if flags.has(format.flag) {
            fail(
                format.id,
                format.fails_forms(source, target, plural, strict),
            );
        }
    }
    if let Some(limit) = flags
        .value("max-length")
        .and_then(|v| v.parse::<usize>().ok())
    {
        fail(
            "max-length",
            target.iter().any(|t| t.chars().count() > limit),
        );
    }
    let filled = target.iter().filter(|t| !t.is_empty()).count();
    fail(
        "plurals",
        target.len() > 1 && filled > 0 && filled < target.len(),
    );
    fail(
        "same-plurals",
        target.len() > 1 && filled == target.len() && target.iter().all(|t| *t == target[0]),
    );
    found
}

/// Every quality check id Tolk accepts.
pub const CHECK_IDS: &[&str] = &[
    "accelerator",
    "asciidoc-markup",
    "bbcode",
    "xml-chars-around-tags",
    "duplicate",
    "check_glossary",
    "double_space",
    "fluent-parts",
    "fluent-references",
    "fluent-target-inner-html",
    "fluent-target-syntax",
    "angularjs_format",
    "automattic_components_format",
    "c_format",
    "c_sharp_format",
    "es_format",
    "icu_message_format",
    "java_printf_format",
    "java_format",
    "javascript_format",
    "laravel_format",
    "lua_format",
    "object_pascal_format",
    "objc_format",
    "percent_placeholders",
    "perl_brace_format",
    "perl_format",
    "php_format",
    "python_brace_format",
    "python_format",
    "qt_format",
    "qt_plural_format",
    "ruby_format",
    "scheme_format",
    "vue_format",
    "translated",
    "inconsistent",
    "rst-references",
    "kashida",
    "md-link",
    "md-reflink",
    "md-syntax",
    "max-length",
    "max-lines",
    "max-size",
    "escaped_newline",
    "end_colon",
    "end_ellipsis",
    "end_exclamation",
    "end_stop",
    "end_interrobang",
    "end_question",
    "end_semicolon",
    "newline-count",
    "plurals",
    "multiple_capital",
    "kabyle-characters",
    "placeholders",
    "prohibited_initial_character",
    "punctuation_spacing",
    "regex",
    "rst-syntax",
    "reused",
    "safe-mdx",
    "same-plurals",
    "begin_newline",
    "begin_space",
    "end_newline",
    "end_space",
    "same",
    "safe-html",
    "url",
    "xml-tags",
    "xml-invalid",
    "zero-width-space",
    "ellipsis",
    "fluent-source-inner-html",
    "fluent-source-syntax",
    "icu_message_format_syntax",
    "long_untranslated",
    "multiple_failures",
    "unnamed_format",
    "source-max-length",
    "optional_plural",
];

/// The failing checks of a stored string (plural forms joined) as they
/// are stored: ids joined by commas; empty when it fails none, and for
/// strings not translated (only translated strings are checked, read-only
/// ones not at all).
pub fn stored(
    source: &str,
    target: &str,
    state: crate::unit::UnitState,
    language: &str,
    source_language: &str,
    plural: &str,
    flags: &Flags,
) -> String {
    use crate::unit::{UnitState, split_plurals};
    if !state.is_translated() || state == UnitState::ReadOnly {
        return String::new();
    }
    failing(
        &split_plurals(source),
        &split_plurals(target),
        language,
        source_language,
        plural,
        flags,
    )
    .join(",")
}

/// Every match in a text of `len` characters, left to right and without
/// overlaps, as a regular-expression search finds them: `matched(at)` is
/// the match that starts at `at`, if any, with where it ends.
pub(crate) fn matches_in<T>(len: usize, matched: impl Fn(usize) -> Option<(T, usize)>) -> Vec<T> {
    let mut found = Vec::new();
    let mut at = 0;
    while at < len {
        match matched(at) {
            Some((item, next)) => {
                found.push(item);
                at = next.max(at + 1);
            }
            None => at += 1,
        }
    }
    found
}

/// Texts made of random runs of `pieces` (at most `longest` each), the
/// same ones at every run: damaged input for the checks' scanners.
#[cfg(test)]
pub(crate) fn shuffled_texts(pieces: &[&str], count: usize, longest: usize) -> Vec<String> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        usize::try_from(state >> 33).unwrap_or(0) % n
    };
    (0..count)
        .map(|_| {
            let length = next(longest);
            (0..length).map(|_| pieces[next(pieces.len())]).collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Czech plural forms: one, few (2-4), other.
    const CS: &str = "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2";

    fn forms(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_string_fails_each_check_once_and_flags_steer_them() {
        let none = Flags::default();
        assert_eq!(
            failing(
                &forms(&["Save file."]),
                &forms(&["Uložit soubor."]),
                "cs",
                "en",
                CS,
                &none
            ),
            Vec::<&str>::new()
        );
        assert_eq!(
            failing(
                &forms(&["Save file.\n"]),
                &forms(&["Uložit  soubor"]),
                "cs",
                "en",
                CS,
                &none
            ),
            ["end_newline", "double_space", "newline-count"]
        );
        let ignoring = Flags::parse(["ignore-end-stop, max-length:5, c-format"]);
        assert_eq!(
            failing(
                &forms(&["%d files."]),
                &forms(&["%s souborů"]),
                "cs",
                "en",
                CS,
                &ignoring
            ),
            ["c_format", "max-length"]
        );
        let open = forms(&["Open file"]);
        assert_eq!(failing(&open, &open, "cs", "en", CS, &none), ["same"]);
        // Plural forms: each against its source form, a form left empty.
        let source = forms(&["%d file", "%d files"]);
        let c = Flags::parse(["c-format"]);
        assert_eq!(
            failing(
                &source,
                &forms(&["jeden soubor", "%d soubory", ""]),
                "cs",
                "en",
                CS,
                &c
            ),
            ["plurals"]
        );
    }

    #[test]
    fn markup_checks_run_with_their_flags() {
        let source = forms(&["See **[the guide](./guide.md)** and [faq][faq]."]);
        let target = forms(&["Viz *[návod](./navod.md)* a FAQ."]);
        assert_eq!(
            failing(&source, &target, "cs", "en", CS, &Flags::default()),
            Vec::<&str>::new()
        );
        assert_eq!(
            failing(&source, &target, "cs", "en", CS, &Flags::parse(["md-text"])),
            ["md-link", "md-reflink", "md-syntax"]
        );
        let rst = Flags::parse(["rst-text"]);
        assert_eq!(
            failing(
                &forms(&["See :ref:`setup`."]),
                &forms(&["Viz :ref:`nastaveni`."]),
                "cs",
                "en",
                CS,
                &rst
            ),
            ["rst-references"]
        );
        let ignoring = Flags::parse(["md-text, ignore-md-syntax"]);
        assert_eq!(
            failing(&source, &target, "cs", "en", CS, &ignoring),
            ["md-link", "md-reflink"]
        );
    }

    #[test]
    fn ids_are_unique() {
        let mut ids = super::CHECK_IDS.to_vec();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), super::CHECK_IDS.len());
    }
}
