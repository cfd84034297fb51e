//! Flags that turn a check on only for the strings that look as if they
//! need it (Weblate's automatic detection): `auto-safe-html` turns on
//! `safe-html` for plain text and HTML the sanitiser keeps whole (not for
//! JSX, MDX or other markup of angle brackets), `auto-java-messageformat`
//! turns on `java-format` for sources holding a `{0}`-style argument. The
//! check's own flag turns it on whatever the source, and its `ignore-*`
//! flag turns it off whatever the rest.

use super::Flags;
use super::{format, safe_html};

/// A flag that another turns on by detection: the flag, the one that
/// detects, and the detection (on the source, with the string's flags).
struct Automatic {
    flag: &'static str,
    detecting: &'static str,
    detects: fn(&str, &Flags) -> bool,
}

/// Every flag Tolk can turn on by detection.
const AUTOMATIC: [Automatic; 2] = [
    Automatic {
        flag: "safe-html",
        detecting: "auto-safe-html",
        detects: safe_html::looks_like_html,
    },
    Automatic {
        flag: "java-format",
        detecting: "auto-java-messageformat",
        detects: |source, _| format::looks_like_message_format(source),
    },
];

/// Whether the flag `name` applies to a string of these source forms: set
/// itself, or detected in one of them by the flag that detects it, and
/// not ignored.
pub fn is_active(flags: &Flags, name: &str, sources: &[&str]) -> bool {
    let automatic = AUTOMATIC.iter().find(|a| a.flag == name);
    if automatic.is_some() && flags.has(&format!("ignore-{name}")) {
        return false;
    }
    if flags.has(name) {
        return true;
    }
    automatic.is_some_and(|a| {
        flags.has(a.detecting) && sources.iter().any(|source| (a.detects)(source, flags))
    })
}

/// Whether the string is one a detecting flag may treat as HTML (`safe-html`
/// or `auto-safe-html` set): such strings are not checked as XML.
pub fn may_be_html(flags: &Flags) -> bool {
    flags.has("safe-html") || flags.has("auto-safe-html")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_detecting_flag_turns_its_check_on_where_the_source_needs_it() {
        let auto = Flags::parse(["auto-safe-html, auto-java-messageformat"]);
        assert!(is_active(&auto, "safe-html", &["Save <b>all</b>"]));
        assert!(is_active(&auto, "safe-html", &["Save all"]));
        assert!(!is_active(&auto, "safe-html", &["<Trans>{count}</Trans>"]));
        assert!(is_active(&auto, "java-format", &["{0} files"]));
        assert!(is_active(
            &auto,
            "java-format",
            &["One", "{0, number} files"]
        ));
        assert!(!is_active(&auto, "java-format", &["{name} files"]));
        let set = Flags::parse(["safe-html"]);
        assert!(is_active(&set, "safe-html", &["<Trans>{count}</Trans>"]));
        let ignored = Flags::parse(["safe-html, auto-safe-html, ignore-safe-html"]);
        assert!(!is_active(&ignored, "safe-html", &["Save"]));
        assert!(!is_active(&Flags::default(), "safe-html", &["Save"]));
    }
}
