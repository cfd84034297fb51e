//! The unchanged-translation check (`same`): a translation identical to
//! its source, unless the source holds nothing one translates — numbers,
//! placeholders, addresses, paths, short or international words.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use super::fixed_regex::fixed_regex;

use super::{Context, Flags};

/// Words that stay the same in many languages (technical names, units,
/// keys, international words); Tolk's own list, see `docs/checks.md`.
/// Language names (from the built-in language table) count too. Sorted,
/// for a binary search.
const INTERNATIONAL: &[&str] = &[
    "account",
    "administration",
    "alpha",
    "alt",
    "api",
    "apr",
    "aug",
    "backspace",
    "backup",
    "bar",
    "bit",
    "bluetooth",
    "browser",
    "byte",
    "bytes",
    "celsius",
    "code",
    "copyright",
    "css",
    "csv",
    "ctrl",
    "debug",
    "dec",
    "delete",
    "details",
    "dns",
    "document",
    "documentation",
    "dollar",
    "download",
    "e-mail",
    "eib",
    "email",
    "error",
    "esc",
    "euro",
    "event",
    "export",
    "feb",
    "file",
    "filter",
    "firmware",
    "font",
    "for",
    "ftp",
    "gal",
    "general",
    "gib",
    "gif",
    "git",
    "gpl",
    "gps",
    "hardware",
    "hex",
    "home",
    "html",
    "http",
    "https",
    "icon",
    "image",
    "import",
    "info",
    "int",
    "involved",
    "ip",
    "ipv",
    "jan",
    "javascript",
    "jpeg",
    "jpg",
    "json",
    "jul",
    "jun",
    "kib",
    "label",
    "link",
    "linux",
    "lock",
    "log",
    "login",
    "logo",
    "logout",
    "mac",
    "macos",
    "mar",
    "median",
    "medium",
    "menu",
    "message",
    "mib",
    "mime",
    "mm²",
    "monitor",
    "mp",
    "name",
    "navigation",
    "normal",
    "not",
    "nov",
    "oct",
    "offline",
    "ok",
    "online",
    "open",
    "pdf",
    "php",
    "pib",
    "pixel",
    "plural",
    "png",
    "portal",
    "project",
    "proxy",
    "python",
    "radio",
    "rand",
    "rate",
    "release",
    "report",
    "root",
    "rss",
    "sep",
    "server",
    "shift",
    "sms",
    "software",
    "sql",
    "ssh",
    "ssl",
    "status",
    "svg",
    "syndication",
    "tab",
    "tcp",
    "team",
    "template",
    "term",
    "text",
    "the",
    "tib",
    "tip",
    "tls",
    "total",
    "udp",
    "unicode",
    "union",
    "unix",
    "update",
    "upload",
    "url",
    "usb",
    "utf",
    "version",
    "video",
    "volume",
    "vpn",
    "web",
    "wi-fi",
    "wifi",
    "windows",
    "xml",
    "yaml",
    "zip",
    "zoom",
];

/// The words of the built-in languages' English names (`esperanto`).
static LANGUAGE_NAMES: LazyLock<HashSet<String>> = LazyLock::new(|| {
    crate::language::builtin_languages()
        .iter()
        .flat_map(|l| {
            let name = l.name.split(" (").next().unwrap_or(&l.name).to_lowercase();
            name.split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect()
});

static STRIP: LazyLock<Regex> = LazyLock::new(|| {
    fixed_regex(concat!(
        r"<[^>]*>",                                                  // markup
        r"|[a-z0-9_.+-]+@[a-z0-9_.-]+\.[a-z0-9-]{2,}",               // e-mail addresses
        r"|(?:https?|ftps?)://\S+",                                  // URLs
        r"|#[a-z0-9_-]*",                                            // hash tags, channels
        r"|(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,6}\b", // domains
        r"|(?:^|\s)(?:/[a-z0-9=:?._-]+)+",                           // paths
        r"|\{[a-z_-]*\}|@[a-z_]+@",                                  // templates
        r"|%(?:\d+\$)?[-+ #0]*\d*(?:\.\d+)?[a-z%]",                  // printf placeholders
        r"|%\([^)]*\)[a-z]",                                         // named placeholders
    ))
});

static WORDS: LazyLock<Regex> =
    LazyLock::new(|| fixed_regex(r"[\s(),.^`'\\/_<>!?;:|{}*@%#&~=+\[\]0-9\x22✓—…-]+"));

/// Whether the source holds nothing a translator would change; the words
/// of `names` (the project's and component's names) count as such.
fn untranslatable(source: &str, names: &str) -> bool {
    let lower = source.to_lowercase();
    if source
        .trim_matches(|c: char| c.is_ascii_digit() || ":/,.".contains(c))
        .chars()
        .count()
        <= 1
        || lower.contains("(c) copyright")
        || source.contains('©')
    {
        return true;
    }
    let stripped = STRIP.replace_all(&lower, "");
    if stripped.trim().chars().count() <= 1 {
        return true;
    }
    WORDS.split(&stripped).filter(|w| !w.is_empty()).all(|w| {
        w.chars().count() <= 2
            || INTERNATIONAL.binary_search(&w).is_ok()
            || LANGUAGE_NAMES.contains(w)
            || names.split_whitespace().any(|n| n.to_lowercase() == w)
    })
}

/// Whether `target` leaves `source` untranslated. Not checked between
/// variants of the source language (nor English and Interlingua), with
/// `strict-same` every identical pair fails.
pub fn same(source: &str, target: &str, context: &Context<'_>, flags: &Flags) -> bool {
    let base = |code: &str| {
        code.split(['_', '-', '@'])
            .next()
            .unwrap_or(code)
            .to_ascii_lowercase()
    };
    let (to, from) = (base(context.language), base(context.source_language));
    if to == from || (from == "en" && to == "ia") {
        return false;
    }
    if source != target || (source.chars().count() <= 1 && target.chars().count() <= 1) {
        return false;
    }
    if flags.has("strict-same") {
        return true;
    }
    let letters = source.chars().filter(|c| c.is_alphabetic());
    if letters.clone().count() > 0 && letters.clone().all(char::is_uppercase) {
        return false; // Probably an accelerator or an acronym.
    }
    !untranslatable(source, context.names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_list_is_sorted() {
        assert!(INTERNATIONAL.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn identical_words_fail_unless_nothing_translatable() {
        let none = Flags::default();
        assert!(same(
            "Save file",
            "Save file",
            &Context::of("cs", "en", ""),
            &none
        ));
        let named = Context::of("cs", "en", "").named("Demo App");
        assert!(same(
            "Demo app",
            "Demo app",
            &Context::of("cs", "en", ""),
            &none
        ));
        assert!(
            !same("Demo app", "Demo app", &named, &none),
            "the project's and component's names"
        );
        assert!(!same(
            "Open file",
            "Otevřít soubor",
            &Context::of("cs", "en", ""),
            &none
        ));
        assert!(
            !same(
                "Save file",
                "Save file",
                &Context::of("en_GB", "en", ""),
                &none
            ),
            "a variant of the source"
        );
        assert!(
            !same("PDF", "PDF", &Context::of("cs", "en", ""), &none),
            "an acronym"
        );
        assert!(!same("12:30", "12:30", &Context::of("cs", "en", ""), &none));
        assert!(!same("%d %s", "%d %s", &Context::of("cs", "en", ""), &none));
        assert!(
            !same("Email", "Email", &Context::of("cs", "en", ""), &none),
            "an international word"
        );
        assert!(!same(
            "https://weblate.org/",
            "https://weblate.org/",
            &Context::of("cs", "en", ""),
            &none
        ));
        assert!(!same(
            "© Tolk",
            "© Tolk",
            &Context::of("cs", "en", ""),
            &none
        ));
        assert!(
            !same(
                "Esperanto",
                "Esperanto",
                &Context::of("ga", "en", ""),
                &none
            ),
            "a language name"
        );
        assert!(
            !same("IPv6", "IPv6", &Context::of("ja", "en", ""), &none),
            "digits separate words"
        );
        assert!(same(
            "Email",
            "Email",
            &Context::of("cs", "en", ""),
            &Flags::parse(["strict-same"])
        ));
    }
}
