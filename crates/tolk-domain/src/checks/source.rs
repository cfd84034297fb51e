//! Checks of source strings (Weblate's source checks), run on the units of
//! the source language: on the text itself, and on how the string's
//! translations fare.

use std::sync::LazyLock;

use regex::Regex;

use super::fixed_regex::fixed_regex;

use super::Flags;

/// `(s)` right after a word, as English writes an optional plural.
static OPTIONAL_PLURAL: LazyLock<Regex> = LazyLock::new(|| fixed_regex(r"\w\(s\)(\W|$)"));

/// How many of a string's translations must fail a check before its
/// source is flagged (`multiple_failures`).
pub const SEVERAL: usize = 2;

/// Days after which a string whose translations are mostly missing is
/// long untranslated.
pub const LONG_UNTRANSLATED_DAYS: i64 = 90;

/// What a source string's units say (its translations' and its own), for
/// the checks that look at them.
#[derive(Debug, Clone, Copy, Default)]
pub struct Translations {
    /// How many of its translations fail a check.
    pub failing: usize,
    /// Whether it is long untranslated (see [`long_untranslated`]).
    pub long_untranslated: bool,
}

/// Whether a string older than [`LONG_UNTRANSLATED_DAYS`], of whose
/// `total` units (its own included) `not_translated` are empty or need
/// editing, is long untranslated: its translated share, in whole percent
/// rounded down, is under half the component's translated percentage.
pub fn long_untranslated(total: i64, not_translated: i64, component_percent: f64) -> bool {
    if total <= 0 {
        return false;
    }
    let share = 100 * (total - not_translated) / total;
    // A whole percentage, 0 to 100: exact as a float.
    (share as f64) < component_percent / 2.0
}

/// The ids of the checks a source string fails: `forms` are its forms,
/// `key` its key (context), `translations` what its units say, `flags`
/// every flag that applies (`ignore-*` turns a check off).
/// `ellipsis`: three dots where an ellipsis character belongs;
/// `optional_plural`: a single form written as a plural (`file(s)`);
/// `unnamed_format`: two placeholders or more that take their arguments
/// by place (`%s of %s`), which translators cannot reorder;
/// `icu_message_format_syntax`: with `icu-message-format`, the string is
/// no ICU message; `source-max-length`: with `max-length:N`, a form is
/// longer than N characters; `multiple_failures`: the translations in
/// several languages fail checks; `long_untranslated`: see
/// [`long_untranslated`]; `fluent-source-syntax`: with its flag, the
/// string is no valid Fluent ([`super::fluent`]);
/// `fluent-source-inner-html`: with its flag, its value is no simple
/// HTML ([`super::fluent_html`]).
pub fn failing_source(
    forms: &[String],
    key: &str,
    translations: Translations,
    flags: &Flags,
) -> Vec<&'static str> {
    let first = forms.first().map_or("", String::as_str);
    let limit = flags
        .value("max-length")
        .and_then(|v| v.parse::<usize>().ok());
    [
        ("ellipsis", first.contains("...")),
        (
            "optional_plural",
            forms.len() == 1 && OPTIONAL_PLURAL.is_match(first),
        ),
        ("unnamed_format", super::format::unnamed(flags, first) >= 2),
        (
            "icu_message_format_syntax",
            flags.has("icu-message-format")
                && !first.is_empty()
                && super::icu::arguments(first).is_err(),
        ),
        (
            "source-max-length",
            limit.is_some_and(|limit| forms.iter().any(|f| f.chars().count() > limit)),
        ),
        (
            "fluent-source-syntax",
            flags.has("fluent-source-syntax") && super::fluent::syntax_error(first, key, flags),
        ),
        (
            "fluent-source-inner-html",
            flags.has("fluent-source-inner-html")
                && super::fluent_html::source_fails(first, key, flags),
        ),
        (
            super::catalogue::MULTIPLE_FAILURES,
            translations.failing >= SEVERAL,
        ),
        (
            super::catalogue::LONG_UNTRANSLATED,
            translations.long_untranslated,
        ),
    ]
    .into_iter()
    .filter(|(id, failed)| *failed && !flags.ignores(id))
    .map(|(id, _)| id)
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(source: &[&str], failing: usize, flags: &str) -> Vec<&'static str> {
        let forms: Vec<String> = source.iter().map(|s| (*s).to_owned()).collect();
        let translations = Translations {
            failing,
            ..Translations::default()
        };
        failing_source(&forms, "", translations, &Flags::parse([flags]))
    }

    #[test]
    fn source_strings_fail_as_weblate_decides() {
        assert_eq!(ids(&["Loading..."], 0, ""), ["ellipsis"]);
        assert!(ids(&["Loading…"], 0, "").is_empty());
        assert_eq!(ids(&["Delete file(s)?"], 0, ""), ["optional_plural"]);
        assert!(ids(&["%d file(s)", "%d files"], 0, "").is_empty());
        assert!(ids(&["Remove (s)elected"], 0, "").is_empty());
        assert!(ids(&["Open file"], 1, "").is_empty());
        assert_eq!(ids(&["%s of %d"], 0, "c-format"), ["unnamed_format"]);
        assert_eq!(
            ids(&["{} of {:>3}"], 0, "python-brace-format"),
            ["unnamed_format"]
        );
        assert!(ids(&["%1$s of %2$s, 100%%"], 0, "c-format").is_empty());
        assert!(ids(&["%(a)s of %(b)s"], 0, "python-format").is_empty());
        assert!(ids(&["%s of %s"], 0, "").is_empty(), "no format flag");
        assert_eq!(
            ids(&["{n, plural, one {#}"], 0, "icu-message-format"),
            ["icu_message_format_syntax"]
        );
        assert!(ids(&["{n, plural, one {#} other {#}}"], 0, "icu-message-format").is_empty());
        assert_eq!(
            ids(&["Save file"], 0, "max-length:5"),
            ["source-max-length"]
        );
        assert!(ids(&["Save"], 0, "max-length:5").is_empty());
        assert_eq!(ids(&["Open file"], 2, ""), ["multiple_failures"]);
        assert!(
            ids(
                &["Open file..."],
                3,
                "ignore-ellipsis, ignore-multiple-failures"
            )
            .is_empty()
        );
    }

    #[test]
    fn a_string_is_long_untranslated_below_half_the_components_progress() {
        // 1 of 4 units translated: 25 %.
        assert!(long_untranslated(4, 3, 50.1));
        assert!(!long_untranslated(4, 3, 50.0));
        // 2 of 3: 66 % (rounded down), against a complete component.
        assert!(!long_untranslated(3, 1, 100.0));
        assert!(!long_untranslated(0, 0, 100.0));
        let long = Translations {
            long_untranslated: true,
            ..Translations::default()
        };
        let forms = ["Save".to_owned()];
        assert_eq!(
            failing_source(&forms, "", long, &Flags::default()),
            ["long_untranslated"]
        );
        let ignored = Flags::parse(["ignore-long-untranslated"]);
        assert!(failing_source(&forms, "", long, &ignored).is_empty());
    }
}
