//! Quality checks (§29.13): the identifiers `enforced_checks` and
//! `check:` searches name, and the checks Tolk runs on translated strings
//! ([`failing`]), each after Weblate's rules.

pub mod asciidoc;
pub mod auto_flags;
pub mod catalogue;
pub mod chars;
mod context;
pub mod dismissals;
mod fixed_regex;
pub mod flags;
pub mod fluent;
pub mod fluent_html;
pub mod format;
pub mod glossary;
pub mod history;
mod html_tokens;
pub mod icu;
pub mod markdown;
pub mod markup;
mod matches;
pub mod mdx;
pub mod rst;
pub mod safe_html;
pub mod same;
pub mod source;
pub mod words;

pub use context::Context;
pub use flags::Flags;

/// The ids of the checks a string in need of editing or translated fails:
/// `source` and `target` are its forms, `context` where it is checked,
/// `flags` every flag that applies (file, unit, component, project).
/// `ignore-*` flags turn checks off; `max-length` and the format checks
/// run only with their flags.
pub fn failing(
    source: &[String],
    target: &[String],
    context: &Context<'_>,
    flags: &Flags,
) -> Vec<&'static str> {
    let Context {
        language,
        source_language,
        plural,
        ..
    } = *context;
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
        fail("same", same::same(s, t, context, flags));
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
        fail("end_interrobang", chars::end_interrobang(s, t));
        fail("kabyle-characters", chars::kabyle_characters(t, language));
        fail("multiple_capital", chars::multiple_capital(s, t));
        if let Some(mark) = flags.value("accelerator") {
            fail("accelerator", chars::accelerator(s, t, mark));
        }
        if let Some(expression) = flags.value("regex") {
            fail("regex", words::regex_misses(t, expression));
        }
        if flags.has("check-glossary") {
            let spaced = (
                glossary::separates_words(source_language),
                glossary::separates_words(language),
            );
            fail(
                "check_glossary",
                glossary::misses_terms(
                    s,
                    t,
                    context.glossary.unwrap_or(&glossary::NO_GLOSSARY),
                    spaced,
                ),
            );
        }
        if context.is_glossary {
            fail(
                "prohibited_initial_character",
                glossary::prohibited_initial_character(s, t),
            );
        }
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
        // As in Weblate 2026, strings that may be checked as HTML are not
        // checked as XML.
        if !auto_flags::may_be_html(flags) {
            fail("xml-tags", markup::xml_tags(s, t));
            fail("xml-invalid", markup::xml_invalid(s, t));
            fail(
                "xml-chars-around-tags",
                markup::xml_chars_around_tags(s, t, flags.has("xml-text")),
            );
        }
        if flags.has("bbcode-text") {
            fail("bbcode", markup::bbcode(s, t));
        }
        if flags.has("md-text") {
            let unchanged =
                |a: &str, b: &str| !flags.ignores("same") && same::same(a, b, context, flags);
            fail("md-link", markdown::md_link(s, t, unchanged));
            fail("md-reflink", markdown::md_reflink(s, t));
            fail("md-syntax", markdown::md_syntax(s, t));
        }
        if flags.has("safe-mdx") {
            fail("safe-mdx", mdx::safe_mdx(s, t));
        }
        if flags.has("asciidoc-text") {
            fail("asciidoc-markup", asciidoc::asciidoc_markup(s, t));
        }
        if auto_flags::is_active(flags, "safe-html", &[s]) {
            fail("safe-html", safe_html::unsafe_html(s, t, flags));
        }
        if flags.has("rst-text") {
            fail("rst-references", rst::rst_references(s, t));
        }
        if flags.has("url") {
            fail("url", !t.is_empty() && markup::url(t));
        }
        let key = context.key;
        if flags.has("fluent-target-syntax") {
            fail("fluent-target-syntax", fluent::syntax_error(t, key, flags));
        }
        if flags.has("fluent-parts") {
            fail("fluent-parts", fluent::parts_differ(s, t, key, flags));
        }
        if flags.has("fluent-references") {
            fail(
                "fluent-references",
                fluent::references_differ(s, t, key, flags),
            );
        }
        if flags.has("fluent-target-inner-html") {
            fail(
                "fluent-target-inner-html",
                fluent_html::target_fails(s, t, key, flags),
            );
        }
        if let Some(listed) = flags.value("placeholders") {
            fail("placeholders", words::placeholders(s, t, listed));
        }
    }
    let strict = flags.has("strict-format");
    let sources: Vec<&str> = source.iter().map(String::as_str).collect();
    for format in format::FORMATS {
        if auto_flags::is_active(flags, format.flag, &sources) {
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
    if let Some(limit) = flags
        .value("max-lines")
        .and_then(|v| v.parse::<usize>().ok())
    {
        fail(
            "max-lines",
            target.iter().any(|t| t.matches('\n').count() + 1 > limit),
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

/// The failing checks of a stored string (plural forms joined) as they
/// are stored: ids joined by commas; empty when it fails none, and for
/// strings not checked (untranslated and read-only ones, as Weblate leaves
/// them; strings needing editing are checked).
pub fn stored(
    source: &str,
    target: &str,
    state: crate::unit::UnitState,
    context: &Context<'_>,
    flags: &Flags,
) -> String {
    use crate::unit::split_plurals;
    if !state.is_checked() {
        return String::new();
    }
    failing(
        &split_plurals(source),
        &split_plurals(target),
        context,
        flags,
    )
    .join(",")
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
                &Context::of("cs", "en", CS),
                &none
            ),
            Vec::<&str>::new()
        );
        assert_eq!(
            failing(
                &forms(&["Save file.\n"]),
                &forms(&["Uložit  soubor"]),
                &Context::of("cs", "en", CS),
                &none
            ),
            ["end_newline", "double_space", "newline-count"]
        );
        let ignoring = Flags::parse(["ignore-end-stop, max-length:5, c-format"]);
        assert_eq!(
            failing(
                &forms(&["%d files."]),
                &forms(&["%s souborů"]),
                &Context::of("cs", "en", CS),
                &ignoring
            ),
            ["c_format", "max-length"]
        );
        let open = forms(&["Save file"]);
        assert_eq!(
            failing(&open, &open, &Context::of("cs", "en", CS), &none),
            ["same"]
        );
        // Plural forms: each against its source form, a form left empty.
        let source = forms(&["%d file", "%d files"]);
        let c = Flags::parse(["c-format"]);
        assert_eq!(
            failing(
                &source,
                &forms(&["jeden soubor", "%d soubory", ""]),
                &Context::of("cs", "en", CS),
                &c
            ),
            ["plurals"]
        );
    }

    #[test]
    fn markup_checks_run_with_their_flags() {
        let source = forms(&["See **[the guide](./guide.md)** and [faq][faq]."]);
        let target = forms(&["Viz *[návod](./navod.md)* a faq."]);
        assert_eq!(
            failing(
                &source,
                &target,
                &Context::of("cs", "en", CS),
                &Flags::default()
            ),
            Vec::<&str>::new()
        );
        assert_eq!(
            failing(
                &source,
                &target,
                &Context::of("cs", "en", CS),
                &Flags::parse(["md-text"])
            ),
            ["md-link", "md-reflink", "md-syntax"]
        );
        let rst = Flags::parse(["rst-text"]);
        assert_eq!(
            failing(
                &forms(&["See :ref:`setup`."]),
                &forms(&["Viz :ref:`nastaveni`."]),
                &Context::of("cs", "en", CS),
                &rst
            ),
            ["rst-references"]
        );
        let ignoring = Flags::parse(["md-text, ignore-md-syntax"]);
        assert_eq!(
            failing(&source, &target, &Context::of("cs", "en", CS), &ignoring),
            ["md-link", "md-reflink"]
        );
    }
}
