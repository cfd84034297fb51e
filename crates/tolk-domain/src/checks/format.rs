//! Format strings: the placeholders of printf-style formats (C, PHP, Java,
//! JavaScript, Lua), Python's `%` and `{}`, Qt's `%1`, Java's and C#'s
//! `{0}`, Perl's `{name}`, `%NAME%`, the web's `{{name}}`, `${name}`,
//! `:name` and ICU messages ([`super::icu`]) must survive translation. A translated form
//! fails when its placeholders differ from its source form's; in plural
//! forms a placeholder may be left out (`one` often spells the number),
//! but none may be added.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use regex::Regex;

use super::fixed_regex::fixed_regex;

use crate::plural::PluralFormula;

/// A format the checks know: its check id, its flag and how to read it.
#[derive(Debug, Clone, Copy)]
pub struct Format {
    /// The check id (`c_format`).
    pub id: &'static str,
    /// The flag that turns it on (`c-format`).
    pub flag: &'static str,
    placeholders: fn(&str) -> Vec<String>,
    /// How many placeholders of a text take their argument by their place
    /// alone (`%s`, `{}`), for formats whose arguments can also be numbered
    /// or named (`unnamed_format`).
    positional: Option<fn(&str) -> usize>,
}

/// Every format checked.
pub const FORMATS: &[Format] = &[
    format("c_format", "c-format", c_placeholders).positional(|t| by_place(&C, t)),
    format("python_format", "python-format", python_placeholders).positional(|t| {
        python_placeholders(t)
            .iter()
            .filter(|p| !p.starts_with('('))
            .count()
    }),
    format(
        "python_brace_format",
        "python-brace-format",
        brace_placeholders,
    )
    .positional(unnamed_fields),
    format("php_format", "php-format", |t| printf_placeholders(&PHP, t))
        .positional(|t| by_place(&PHP, t)),
    format("java_printf_format", "java-printf-format", |t| {
        printf_placeholders(&JAVA_PRINTF, t)
    })
    .positional(|t| by_place(&JAVA_PRINTF, t)),
    format("javascript_format", "javascript-format", |t| {
        printf_placeholders(&JAVASCRIPT, t)
    })
    .positional(|t| by_place(&JAVASCRIPT, t)),
    format("lua_format", "lua-format", |t| printf_placeholders(&LUA, t))
        .positional(|t| by_place(&LUA, t)),
    format("qt_format", "qt-format", |t| sorted_names(&QT, t)),
    format("java_format", "java-format", |t| {
        sorted_names(&MESSAGE_FORMAT, t)
    }),
    format("c_sharp_format", "c-sharp-format", |t| {
        sorted_names(&C_SHARP, t)
    }),
    format("perl_brace_format", "perl-brace-format", |t| {
        sorted_names(&PERL_BRACE, t)
    }),
    format("percent_placeholders", "percent-placeholders", |t| {
        sorted_names(&PERCENT, t)
    }),
    format("perl_format", "perl-format", c_placeholders).positional(|t| by_place(&C, t)),
    format("objc_format", "objc-format", |t| {
        printf_placeholders(&OBJC, t)
    }),
    format("object_pascal_format", "object-pascal-format", |t| {
        printf_placeholders(&OBJECT_PASCAL, t)
    })
    .positional(|t| by_place(&OBJECT_PASCAL, t)),
    format("i18next_interpolation", "i18next-interpolation", |t| {
        sorted_names(&I18NEXT, t)
    }),
    format("es_format", "es-format", |t| sorted_names(&ES, t)),
    format("vue_format", "vue-format", |t| sorted_names(&VUE, t)),
    format("angularjs_format", "angularjs-format", |t| {
        sorted_names(&ANGULARJS, t)
    }),
    format(
        "automattic_components_format",
        "automattic-components-format",
        |t| sorted_names(&AUTOMATTIC, t),
    ),
    format("laravel_format", "laravel-format", |t| {
        sorted_names(&LARAVEL, t)
    }),
    format("ruby_format", "ruby-format", ruby_placeholders),
    format("scheme_format", "scheme-format", |t| {
        printf_placeholders(&SCHEME, t)
    })
    .positional(|t| by_place(&SCHEME, t)),
    format("qt_plural_format", "qt-plural-format", |t| {
        sorted_names(&QT_PLURAL, t)
    }),
    format("icu_message_format", "icu-message-format", |t| {
        super::icu::arguments(t).unwrap_or_else(|_| vec![INVALID.to_owned()])
    }),
];

/// What a message that does not parse counts as (ICU): a source like
/// that is not judged, a translation like that fails.
const INVALID: &str = "\u{0}invalid";

/// A table row of [`FORMATS`].
const fn format(
    id: &'static str,
    flag: &'static str,
    placeholders: fn(&str) -> Vec<String>,
) -> Format {
    Format {
        id,
        flag,
        placeholders,
        positional: None,
    }
}

impl Format {
    /// The row with its count of placeholders taken by place.
    const fn positional(self, positional: fn(&str) -> usize) -> Format {
        Format {
            positional: Some(positional),
            ..self
        }
    }
}

/// A regular expression of the format's own, compiled once.
fn pattern(expression: &str) -> Regex {
    fixed_regex(expression)
}

// printf-like formats: group 1 the position (`1$`), group 2 the kind.
static PHP: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"%(?:(\d+)\$)?[-+ 0]*(?:'.)?-?\d*(?:\.\d+)?([bcdeEfFgGosuxX%])"));
static JAVA_PRINTF: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"%(?:(\d+)\$)?[-#+ 0,(<]*\d*(?:\.\d+)?([tT][a-zA-Z]|[bBhHsScCdoxXeEfgGaA%n])")
});
static JAVASCRIPT: LazyLock<Regex> = LazyLock::new(|| pattern(r"%(?:(\d+)\$)?([sdifjoO%])"));
static LUA: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"%(?:(\d+)\$)?[-+ #0]*\d*(?:\.\d+)?([cdiouxXeEfgGqsaA%])"));
// Named or numbered formats: group 1 the name.
static QT: LazyLock<Regex> = LazyLock::new(|| pattern(r"%L?(\d{1,2})"));
static MESSAGE_FORMAT: LazyLock<Regex> = LazyLock::new(|| pattern(r"\{(\d+)(?:,[^{}]*)?\}"));
static C_SHARP: LazyLock<Regex> = LazyLock::new(|| pattern(r"\{\{|\}\}|\{(\d+)(?:[,:][^{}]*)?\}"));
static PERL_BRACE: LazyLock<Regex> = LazyLock::new(|| pattern(r"\{([A-Za-z_]\w*)\}"));
static PERCENT: LazyLock<Regex> = LazyLock::new(|| pattern(r"%([A-Za-z0-9_]+)%"));
// `{{name}}`, `{{- name}}`, `{{name, format}}` and nesting `$t(key)`.
static I18NEXT: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"\{\{(-?)\s*([^{},\s]+)\s*(?:,[^{}]*)?\}\}|(\$t\([^)]*\))"));
static ES: LazyLock<Regex> = LazyLock::new(|| pattern(r"\$\{\s*([^{}\s]+)\s*\}"));
// `{name}`, Rails' `%{name}` and linked messages `@:key`, `@.lower:key`.
static VUE: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(%?\{)\s*([^{}\s]+)\s*\}|(@(?:\.\w+)?:[\w.]+)"));
static ANGULARJS: LazyLock<Regex> = LazyLock::new(|| pattern(r"\{\{\s*(.+?)\s*\}\}"));
static AUTOMATTIC: LazyLock<Regex> = LazyLock::new(|| pattern(r"\{\{(/?)\s*(\w+)\s*(/?)\}\}"));
static LARAVEL: LazyLock<Regex> = LazyLock::new(|| pattern(r"(?:^|[^\w:]):([A-Za-z_]\w*)"));
static OBJC: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"%(?:(\d+)\$)?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?([diouxXeEfFgGaAcspn@%])",
    )
});
// Ruby: printf's, then `%<name>s` and `%{name}` (groups 3 and 4).
static RUBY: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"%(?:(\d+)\$)?[-+ #0*]*\d*(?:\.\d+)?([bBdiouxXeEfgGaAcsp%])|%<(\w+)>[-+ #0*]*\d*(?:\.\d+)?[bBdiouxXeEfgGaAcsp]|%\{(\w+)\}",
    )
});
// Scheme's `format`: `~a`, `~s`, `~d`, … (`~%` and `~~` are no placeholders).
static SCHEME: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"~(?:(\d+)@\*)?(?:\d+(?:,\d+)*)?([aAsSdDbBoOxXcCfFeEgG$%~])"));
// Qt's plural forms: `%n`, `%Ln` and the numbered `%1`.
static QT_PLURAL: LazyLock<Regex> = LazyLock::new(|| pattern(r"%L?(n|\d{1,2})"));
// Object Pascal's `Format`: `%s`, `%0:s` (the argument's index), `%-8.2f`.
static OBJECT_PASCAL: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"%(?:(\d+):)?-?\d*(?:\.\d+)?([dDuUeEfFgGnNmMpPsSxX%])"));

/// The placeholders an HTML attribute's value may be, as Weblate's
/// `safe-html` reads them: those of the printf-like formats, Python's,
/// Perl's, C#'s, Scheme's, Laravel's, the web's and Java's message
/// formats, each anchored to the whole value.
static ONE_PLACEHOLDER: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        &C,
        &PYTHON,
        &PHP,
        &OBJECT_PASCAL,
        &PERL_BRACE,
        &JAVASCRIPT,
        &LUA,
        &BRACE,
        &SCHEME,
        &C_SHARP,
        &JAVA_PRINTF,
        &AUTOMATTIC,
        &LARAVEL,
        &OBJC,
        &I18NEXT,
        &ES,
        &MESSAGE_FORMAT,
        &PERCENT,
        &VUE,
    ]
    .iter()
    .map(|expression| pattern(&format!("^(?:{})$", expression.as_str())))
    .collect()
});

/// Whether `value` is, whole, one placeholder of a format the checks know.
pub fn is_one_placeholder(value: &str) -> bool {
    ONE_PLACEHOLDER
        .iter()
        .any(|expression| expression.is_match(value))
}

/// A Java `MessageFormat` argument (`{0}`, `{1, number}`), as
/// `auto-java-messageformat` looks for one.
static MESSAGE_FORMAT_ARGUMENT: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"\{\s*\d+\s*(?:,\s*[a-z]+(?:,\s*\S+)?)?\s*\}"));

/// `auto-java-messageformat`: whether a source holds a Java
/// `MessageFormat` argument, so that `java-format` applies to it.
pub fn looks_like_message_format(source: &str) -> bool {
    MESSAGE_FORMAT_ARGUMENT.is_match(source)
}

/// How many placeholders of `text` take their argument by their place
/// alone (`%s`, `{}`, not `%1$s`, `%(name)s` or `{0}`), in the formats
/// `flags` turns on whose arguments can be numbered or named instead; a
/// translator cannot reorder such arguments.
pub fn unnamed(flags: &super::Flags, text: &str) -> usize {
    FORMATS
        .iter()
        .filter(|format| flags.has(format.flag))
        .filter_map(|format| format.positional)
        .map(|count| count(text))
        .sum()
}

/// The placeholders of a printf-like format with no position (`%s`, not
/// `%1$s`); `%%` is no placeholder.
fn by_place(expression: &Regex, text: &str) -> usize {
    expression
        .captures_iter(text)
        .filter(|c| {
            c.get(1).is_none()
                && c.get(2)
                    .is_some_and(|kind| !matches!(kind.as_str(), "%" | "n" | "~"))
        })
        .count()
}

/// Python `{}` fields without a name or number (`{}`, `{:>8}`).
fn unnamed_fields(text: &str) -> usize {
    BRACE
        .captures_iter(text)
        .filter_map(|c| c.get(1))
        .filter(|field| {
            field
                .as_str()
                .split([':', '!'])
                .next()
                .is_none_or(|name| name.trim().is_empty())
        })
        .count()
}

/// Placeholders of a printf-like format: kinds in order, numbered ones by
/// their numbers; `%%` is no placeholder.
fn printf_placeholders(expression: &Regex, text: &str) -> Vec<String> {
    let mut numbered = Vec::new();
    let mut plain = Vec::new();
    for found in expression.captures_iter(text) {
        // Other alternatives of the expression (Ruby's named ones) have no kind here.
        let Some(kind) = found.get(2).map(|k| k.as_str()) else {
            continue;
        };
        if matches!(kind, "%" | "n" | "~") {
            continue;
        }
        match found.get(1) {
            Some(position) => {
                let at = position.as_str().parse::<usize>().unwrap_or(0);
                numbered.push((at, kind.to_owned()));
            }
            None => plain.push(kind.to_owned()),
        }
    }
    // Numbered placeholders stand in the order of their numbers.
    numbered.sort();
    plain.extend(numbered.into_iter().map(|(_, kind)| kind));
    plain
}

/// Ruby's placeholders: printf's in order (numbered ones by number), then
/// the named ones (`%<name>s`, `%{name}`) sorted.
fn ruby_placeholders(text: &str) -> Vec<String> {
    let mut named: Vec<String> = RUBY
        .captures_iter(text)
        .filter_map(|c| c.get(3).or_else(|| c.get(4)))
        .map(|m| m.as_str().to_owned())
        .collect();
    named.sort();
    let mut found = printf_placeholders(&RUBY, text);
    found.extend(named);
    found
}

/// The names of a format's placeholders (the groups of each match that
/// took part, joined), sorted: their order may change in a translation.
fn sorted_names(expression: &Regex, text: &str) -> Vec<String> {
    let mut found: Vec<String> = expression
        .captures_iter(text)
        .map(|c| {
            c.iter()
                .skip(1)
                .flatten()
                .map(|m| m.as_str())
                .collect::<String>()
        })
        .filter(|name| !name.is_empty())
        .collect();
    found.sort();
    found
}

static C: LazyLock<Regex> = LazyLock::new(|| {
    fixed_regex(
        r"%(?:(\d+)\$)?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t|I64|I32)?([diouxXeEfFgGaAcspn%])",
    )
});

// Python's `%`: an optional `(name)`, then flags, width, precision, a
// length and any letter; a `%` followed by none of these is a placeholder
// too (group 2 empty), as Python refuses it.
static PYTHON: LazyLock<Regex> =
    LazyLock::new(|| fixed_regex(r"%(\([^)]+\))?([ +#-]*\d*(?:\.\d+)?(?:hh|h|ll|l)?[a-zA-Z%]|)"));

static BRACE: LazyLock<Regex> = LazyLock::new(|| fixed_regex(r"\{\{|\}\}|\{([^{}]*)\}"));

/// C placeholders as `type` in order, or `N$type` by position when
/// numbered; `%%` is no placeholder.
fn c_placeholders(text: &str) -> Vec<String> {
    printf_placeholders(&C, text)
}

/// Python `%` placeholders as written after the `%` (`(name)s`, `5.2f`):
/// in order while one is unnamed (they take the arguments in turn),
/// sorted when all are named; `%%` is no placeholder.
fn python_placeholders(text: &str) -> Vec<String> {
    let mut found: Vec<String> = PYTHON
        .captures_iter(text)
        .map(|c| format!("{}{}", c.get(1).map_or("", |m| m.as_str()), &c[2]))
        .filter(|p| p != "%")
        .collect();
    if found.iter().all(|p| p.starts_with('(')) {
        found.sort();
    }
    found
}

/// Python `{}` fields by name (format spec and conversion left out), sorted.
fn brace_placeholders(text: &str) -> Vec<String> {
    let mut found: Vec<String> = BRACE
        .captures_iter(text)
        .filter_map(|c| c.get(1))
        .map(|m| {
            m.as_str()
                .split([':', '!'])
                .next()
                .unwrap_or("")
                .trim()
                .to_owned()
        })
        .collect();
    found.sort();
    found
}

/// How many numbers a plural form stands for, as far as a translation
/// may spell the number instead of keeping its placeholder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spelled {
    /// A single number (`one` in most languages, Arabic `zero` and `two`).
    One,
    /// Only 0 and 1 (French `one`).
    ZeroOrOne,
    /// Several numbers.
    Many,
}

/// The forms of the plural `formula` (a gettext expression), by the counts
/// 0 to 9,999 and every thousand up to two million falling into each;
/// worked out once per formula. An unreadable formula gives no forms.
fn spelled_forms(formula: &str) -> Arc<[Spelled]> {
    static KNOWN: LazyLock<Mutex<HashMap<String, Arc<[Spelled]>>>> = LazyLock::new(Mutex::default);
    let mut known = KNOWN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(forms) = known.get(formula) {
        return forms.clone();
    }
    let mut counts: Vec<Vec<u64>> = Vec::new();
    if let Ok(parsed) = PluralFormula::parse(formula) {
        for n in (0..10_000).chain((10_000..=2_000_000).step_by(1000)) {
            let Ok(form) = usize::try_from(parsed.index(n)) else {
                continue;
            };
            if form < crate::language::MAX_PLURALS as usize {
                if counts.len() <= form {
                    counts.resize(form + 1, Vec::new());
                }
                if counts[form].len() < 3 {
                    counts[form].push(n);
                }
            }
        }
    }
    let forms: Arc<[Spelled]> = counts
        .iter()
        .map(|numbers| match numbers.as_slice() {
            [_] => Spelled::One,
            [0, 1] => Spelled::ZeroOrOne,
            _ => Spelled::Many,
        })
        .collect();
    known.insert(formula.to_owned(), forms.clone());
    forms
}

impl Format {
    /// Whether the translated forms `target` break the placeholders of the
    /// source forms `source`. A target language of one form is compared
    /// with the source's plural; else the first form with the singular (or
    /// with the plural, when only it holds placeholders) and the others
    /// with the plural. A form that stands for a single number (by the
    /// target language's `plural` formula; the first one also when it
    /// stands for 0 and 1, unless `strict`) may spell the number and leave
    /// placeholders out, but add none.
    pub fn fails_forms(
        &self,
        source: &[String],
        target: &[String],
        plural: &str,
        strict: bool,
    ) -> bool {
        match (source, target) {
            ([singular], [first, ..]) => self.fails(singular, first, false),
            ([_, many, ..], [only]) => self.fails(many, only, false),
            ([singular, many, ..], [first, rest @ ..]) => {
                let forms = spelled_forms(plural);
                let spelled = |form: usize| forms.get(form).copied().unwrap_or(Spelled::Many);
                let first_source = if (self.placeholders)(singular).is_empty()
                    && !(self.placeholders)(many).is_empty()
                {
                    many
                } else {
                    singular
                };
                let lenient = !strict && spelled(0) != Spelled::Many;
                self.fails(first_source, first, lenient)
                    || rest
                        .iter()
                        .enumerate()
                        .any(|(i, form)| self.fails(many, form, spelled(i + 1) == Spelled::One))
            }
            _ => false,
        }
    }

    /// Whether `target` breaks the placeholders of `source`; `plural`
    /// allows leaving some out.
    fn fails(&self, source: &str, target: &str, plural: bool) -> bool {
        if target.is_empty() || source.is_empty() {
            return false;
        }
        let wanted = (self.placeholders)(source);
        if wanted.iter().any(|p| p == INVALID) {
            return false;
        }
        let given = (self.placeholders)(target);
        if !plural {
            return wanted != given;
        }
        let mut left = wanted;
        for placeholder in given {
            match left.iter().position(|p| *p == placeholder) {
                Some(i) => {
                    left.remove(i);
                }
                None => return true,
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_value_is_one_placeholder_or_not() {
        for one in [
            "{url}", "%s", "%1$s", "%(name)s", "${v}", "{{t}}", ":name", "{0}", "%NAME%", "~a",
            "{0:N2}",
        ] {
            assert!(is_one_placeholder(one), "{one}");
        }
        for not_one in ["url", "{url} x", "%s%s", "'{url}'", ""] {
            assert!(!is_one_placeholder(not_one), "{not_one}");
        }
    }

    fn check(id: &str) -> Format {
        *FORMATS.iter().find(|f| f.id == id).unwrap()
    }

    #[test]
    fn c_format_placeholders() {
        let c = check("c_format");
        assert!(!c.fails("%d files in %s", "%d souborů v %s", false));
        assert!(c.fails("%d files in %s", "%d souborů", false));
        assert!(
            c.fails("%d files in %s", "%s souborů v %d", false),
            "order matters"
        );
        assert!(!c.fails("%d files in %s", "V %2$s je %1$d souborů", false));
        assert!(!c.fails("100%% done", "Hotovo", false));
        assert!(
            !c.fails("%d file", "jeden soubor", true),
            "a plural form may spell it"
        );
        assert!(c.fails("%d file", "%d soubor %s", true));
    }

    #[test]
    fn python_formats() {
        let py = check("python_format");
        assert!(!py.fails("%(count)d of %(total)d", "%(total)d: %(count)d", false));
        assert!(py.fails("%(count)d of %(total)d", "%(count)d", false));
        let brace = check("python_brace_format");
        assert!(!brace.fails("{name} has {count:d}", "{count} má {name}", false));
        assert!(brace.fails("{name}", "{jmeno}", false));
        assert!(!brace.fails("{{literal}} {x}", "{x} {{doslova}}", false));
        assert!(
            py.fails("%s of %d", "%d z %s", false),
            "unnamed ones take the arguments in turn"
        );
        assert!(py.fails("%b %d, %Y", "%d.%m.%Y", false), "any letter");
        assert!(!py.fails("100%% done", "Hotovo", false));
    }

    #[test]
    fn plural_forms_follow_the_numbers_they_stand_for() {
        let py = check("python_format");
        let forms = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let arabic =
            "n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5";
        let source = forms(&["an hour ago", "%(count)s hours ago"]);
        let target = forms(&[
            "منذ %(count)s ساعة",
            "منذ ساعة",
            "منذ %(count)s ساعة",
            "منذ %(count)s ساعة",
            "منذ %(count)s ساعة",
            "منذ %(count)s ساعة",
        ]);
        assert!(
            !py.fails_forms(&source, &target, arabic, false),
            "a singular without placeholders counts as the plural; `one` may spell it"
        );
        let russian =
            "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)";
        let source = forms(&["%(count)d file", "%(count)d files"]);
        assert!(
            py.fails_forms(
                &source,
                &forms(&["один файл", "%(count)d файла", "%(count)d файлов"]),
                russian,
                false
            ),
            "Russian `one` stands for 1, 21, 31…: it must keep the count"
        );
        let czech = "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2";
        let target = forms(&["jeden soubor", "%(count)d soubory", "%(count)d souborů"]);
        assert!(!py.fails_forms(&source, &target, czech, false));
        assert!(
            py.fails_forms(&source, &target, czech, true),
            "strict-format"
        );
        assert!(
            py.fails_forms(
                &source,
                &forms(&["%(count)d 個のファイル %(x)s"]),
                "0",
                false
            ),
            "one form is compared with the plural"
        );
    }

    #[test]
    fn other_formats() {
        let php = check("php_format");
        assert!(!php.fails("%s has %d", "%s má %d", false));
        assert!(php.fails("%s has %d", "%d má %s", false));
        assert!(!php.fails("%1$s has %2$d", "%2$d má %1$s", false));
        let java = check("java_printf_format");
        assert!(!java.fails("%s: %d%n", "%s: %d", false));
        assert!(java.fails("%s: %d", "%s", false));
        let js = check("javascript_format");
        assert!(js.fails("%s and %d", "%d a %s", false));
        let lua = check("lua_format");
        assert!(lua.fails("%q", "%s", false));
        let qt = check("qt_format");
        assert!(!qt.fails("%1 of %2", "%2 z %1", false));
        assert!(qt.fails("%1 of %2", "%1 z %3", false));
        let message = check("java_format");
        assert!(!message.fails("{0} of {1,number}", "{1,number} z {0}", false));
        assert!(message.fails("{0} of {1}", "{0}", false));
        let sharp = check("c_sharp_format");
        assert!(!sharp.fails("{0:N2} {{x}}", "{{y}} {0:N2}", false));
        assert!(sharp.fails("{0}", "{1}", false));
        let perl = check("perl_brace_format");
        assert!(perl.fails("{name}", "{jmeno}", false));
        let percent = check("percent_placeholders");
        assert!(!percent.fails("%NAME% at %TIME%", "%TIME%: %NAME%", false));
        assert!(percent.fails("%NAME%", "%JMENO%", false));
    }

    #[test]
    fn web_and_template_formats() {
        let i18next = check("i18next_interpolation");
        assert!(!i18next.fails(
            "{{count}} of {{- total, number}} $t(unit)",
            "$t(unit) {{ count }} z {{-total}}",
            false
        ));
        assert!(i18next.fails("{{count}} files", "{{pocet}} souborů", false));
        assert!(i18next.fails("See $t(help)", "Viz $t(napoveda)", false));
        let es = check("es_format");
        assert!(!es.fails("${a} and ${ b }", "${b} a ${a}", false));
        assert!(es.fails("${a}", "${b}", false));
        let vue = check("vue_format");
        assert!(!vue.fails("{n} @:common.files %{x}", "%{x} {n} @:common.files", false));
        assert!(
            vue.fails("{n} items", "%{n} položek", false),
            "{{n}} is not %{{n}}"
        );
        assert!(vue.fails("@.lower:app.name", "@:app.name", false));
        let angular = check("angularjs_format");
        assert!(!angular.fails(
            "{{ user.name }} logged in",
            "{{user.name}} se přihlásil",
            false
        ));
        assert!(angular.fails("{{user}}", "{{uzivatel}}", false));
        let automattic = check("automattic_components_format");
        assert!(!automattic.fails("{{b}}Bold{{/b}} {{br/}}", "{{br/}} {{b}}Tučně{{/b}}", false));
        assert!(automattic.fails("{{b}}Bold{{/b}}", "{{b}}Tučně", false));
        let laravel = check("laravel_format");
        assert!(!laravel.fails("Hello :name, at 10:30", "Ahoj :name, v 10:30", false));
        assert!(laravel.fails("Hello :name", "Ahoj :jmeno", false));
        let objc = check("objc_format");
        assert!(objc.fails("%@ has %d", "%d má %@", false));
        let pascal = check("object_pascal_format");
        assert!(!pascal.fails("%0:s has %1:d", "%1:d má %0:s", false));
        assert!(pascal.fails("%s has %d", "%d má %s", false));
    }

    #[test]
    fn ruby_scheme_and_qt_plural_formats() {
        let ruby = check("ruby_format");
        assert!(!ruby.fails(
            "%s has %<count>d of %{total}",
            "%s má %{total}: %<count>d",
            false
        ));
        assert!(ruby.fails("%s has %d", "%d má %s", false));
        assert!(ruby.fails("%{total}", "%{celkem}", false));
        let scheme = check("scheme_format");
        assert!(!scheme.fails("~a has ~d~%", "~a má ~d", false));
        assert!(scheme.fails("~a has ~d", "~d má ~a", false));
        let qt = check("qt_plural_format");
        assert!(!qt.fails("%Ln files in %1", "%1: %Ln souborů", false));
        assert!(qt.fails("%n files", "soubory", false));
    }

    #[test]
    fn icu_messages() {
        let icu = check("icu_message_format");
        let source = "{name} has {count, plural, one {# file} other {# files}}";
        assert!(!icu.fails(
            source,
            "{count, plural, one {# soubor} few {# soubory} other {# souborů}} má {name}",
            false
        ));
        assert!(
            icu.fails(source, "{name} má {count} souborů", false),
            "a number became text"
        );
        assert!(icu.fails(source, "{jmeno} má {count, number} souborů", false));
        assert!(
            icu.fails(source, "{name} má {count, plural, one {# soubor}", false),
            "broken"
        );
        assert!(
            !icu.fails("{broken", "cokoli", false),
            "a broken source is not judged"
        );
    }
}
