//! The unchanged-translation check (`same`): a translation identical to
//! its source, unless the source holds nothing one translates — numbers,
//! placeholders, addresses, paths, short or international words.

use std::sync::LazyLock;

use regex::Regex;

use super::Flags;

/// Words that stay the same in most languages (technical names and
/// acronyms); Tolk's own short list, see `docs/checks.md`.
const INTERNATIONAL: &[&str] = &[
    "api",
    "bluetooth",
    "csv",
    "css",
    "dns",
    "email",
    "e-mail",
    "ftp",
    "gif",
    "git",
    "gpl",
    "gps",
    "html",
    "http",
    "https",
    "ip",
    "ipv4",
    "ipv6",
    "javascript",
    "jpeg",
    "jpg",
    "json",
    "linux",
    "mac",
    "macos",
    "mime",
    "mp3",
    "ok",
    "pdf",
    "php",
    "png",
    "python",
    "rss",
    "sms",
    "sql",
    "ssh",
    "ssl",
    "svg",
    "tcp",
    "tls",
    "udp",
    "unicode",
    "unix",
    "url",
    "usb",
    "utf-8",
    "vpn",
    "wifi",
    "wi-fi",
    "windows",
    "xml",
    "yaml",
    "zip",
];

static STRIP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
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
    .expect("a valid expression")
});

static WORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[\s(),.^`'\\/_<>!?;:|{}*@%#&~=+\[\]0-9\x22✓—…-]+").expect("a valid expression")
});

/// Whether the source holds nothing a translator would change.
fn untranslatable(source: &str) -> bool {
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
    let stripped = STRIP.replace_all(&lower, " ");
    if stripped.trim().chars().count() <= 1 {
        return true;
    }
    WORDS
        .split(&stripped)
        .filter(|w| !w.is_empty())
        .all(|w| w.chars().count() <= 2 || INTERNATIONAL.contains(&w))
}

/// Whether `target` leaves `source` untranslated. Not checked between
/// variants of the source language (nor English and Interlingua), with
/// `strict-same` every identical pair fails.
pub fn same(
    source: &str,
    target: &str,
    language: &str,
    source_language: &str,
    flags: &Flags,
) -> bool {
    let base = |code: &str| {
        code.split(['_', '-', '@'])
            .next()
            .unwrap_or(code)
            .to_ascii_lowercase()
    };
    let (to, from) = (base(language), base(source_language));
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
    !untranslatable(source)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_words_fail_unless_nothing_translatable() {
        let none = Flags::default();
        assert!(same("Open file", "Open file", "cs", "en", &none));
        assert!(!same("Open file", "Otevřít soubor", "cs", "en", &none));
        assert!(
            !same("Open file", "Open file", "en_GB", "en", &none),
            "a variant of the source"
        );
        assert!(!same("PDF", "PDF", "cs", "en", &none), "an acronym");
        assert!(!same("12:30", "12:30", "cs", "en", &none));
        assert!(!same("%d %s", "%d %s", "cs", "en", &none));
        assert!(
            !same("Email", "Email", "cs", "en", &none),
            "an international word"
        );
        assert!(!same(
            "https://weblate.org/",
            "https://weblate.org/",
            "cs",
            "en",
            &none
        ));
        assert!(!same("© Tolk", "© Tolk", "cs", "en", &none));
        assert!(same(
            "Email",
            "Email",
            "cs",
            "en",
            &Flags::parse(["strict-same"])
        ));
    }
}
