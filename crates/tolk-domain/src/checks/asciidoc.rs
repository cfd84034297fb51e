//! `asciidoc-markup` (Weblate 2026, with `asciidoc-text`): the
//! translation keeps the source's AsciiDoc markup, counted as a multiset
//! in any order: macros (`link:url[text]`, `image::file.png[]`, compared
//! by name and target, as their bracketed text is translated; `pass:[…]`
//! whole), cross references (`<<id>>`, `<<id,text>>`, by id), inline
//! anchors (`[[id]]`, by id) and passthroughs (`+++…+++`, `++…++`,
//! `` `+…+` ``, `$$…$$`, whole). Markup after an odd number of
//! backslashes is literal text and does not count.
//!
//! The text is scanned by hand (Weblate's patterns use look-behind and
//! possessive repetition), each kind left to right without overlaps, as a
//! regular-expression search finds them.

/// `asciidoc-markup`: source and translation hold different AsciiDoc markup.
pub fn asciidoc_markup(source: &str, target: &str) -> bool {
    markup(source) != markup(target)
}

/// The markup of a text, sorted.
fn markup(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for scan in [macro_at, xref_at, anchor_at, passthrough_at] {
        let mut at = 0;
        while at < text.len() {
            match scan(text, at) {
                Some((token, end)) => {
                    if !escaped(text, at) {
                        found.push(token);
                    }
                    at = end.max(next_char(text, at));
                }
                None => at = next_char(text, at),
            }
        }
    }
    found.sort_unstable();
    found
}

/// Where the character at `at` ends.
fn next_char(text: &str, at: usize) -> usize {
    at + text[at..].chars().next().map_or(1, char::len_utf8)
}

/// The character before `at`.
fn before(text: &str, at: usize) -> Option<char> {
    text[..at].chars().next_back()
}

/// Whether an odd number of backslashes precedes `at`.
fn escaped(text: &str, at: usize) -> bool {
    text[..at].bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

/// A macro `name:target[attributes]` or `name::target[attributes]`
/// starting at `at` (not after a small letter or digit): its token and end.
fn macro_at(text: &str, at: usize) -> Option<(String, usize)> {
    let rest = &text[at..];
    if !rest.starts_with(|c: char| c.is_ascii_lowercase())
        || before(text, at).is_some_and(is_name_char)
    {
        return None;
    }
    let name_end = rest.find(|c: char| !is_name_char(c))?;
    let name = &rest[..name_end];
    let after_name = &rest[name_end..];
    let sep = if after_name.starts_with("::") {
        "::"
    } else if after_name.starts_with(':') {
        ":"
    } else {
        return None;
    };
    let target_start = name_end + sep.len();
    let target_len = rest[target_start..]
        .find(|c: char| c.is_whitespace() || c == '[')
        .unwrap_or(rest.len() - target_start);
    let target = &rest[target_start..target_start + target_len];
    let open = target_start + target_len;
    if !rest[open..].starts_with('[') {
        return None;
    }
    let mut chars = rest[open + 1..].char_indices();
    let close = loop {
        match chars.next()? {
            (_, '\\') => {
                chars.next();
            }
            (i, ']') => break open + 1 + i,
            _ => {}
        }
    };
    let end = at + close + 1;
    let token = if name == "pass" {
        text[at..end].to_owned()
    } else {
        format!("{name}{sep}{target}[]")
    };
    Some((token, end))
}

/// A pair of `open` marks (`<<`, `[[`) not after a third, an id without
/// `,` or `close`, an optional `,` and text without `close`, and a pair of
/// `close` marks: `open open id close close` as the token, and the end.
fn bracketed_at(text: &str, at: usize, open: char, close: char) -> Option<(String, usize)> {
    let rest = &text[at..];
    let pair: String = [open, open].iter().collect();
    if !rest.starts_with(&pair) || before(text, at) == Some(open) {
        return None;
    }
    let inner = &rest[2..];
    let id_len = inner.find([',', close]).unwrap_or(inner.len());
    if id_len == 0 {
        return None;
    }
    let mut end = 2 + id_len;
    if rest[end..].starts_with(',') {
        end += 1 + rest[end + 1..].find(close).unwrap_or(rest.len() - end - 1);
    }
    let closing: String = [close, close].iter().collect();
    if !rest[end..].starts_with(&closing) {
        return None;
    }
    let token = format!("{pair}{}{closing}", &inner[..id_len]);
    Some((token, at + end + 2))
}

/// A cross reference `<<id>>` or `<<id,text>>`.
fn xref_at(text: &str, at: usize) -> Option<(String, usize)> {
    bracketed_at(text, at, '<', '>')
}

/// An inline anchor `[[id]]` or `[[id,label]]`.
fn anchor_at(text: &str, at: usize) -> Option<(String, usize)> {
    bracketed_at(text, at, '[', ']')
}

/// A passthrough: `+++…+++`, `++…++`, `` `+…+` `` or `$$…$$`, each with
/// one character or more inside, closed by the first closing mark.
fn passthrough_at(text: &str, at: usize) -> Option<(String, usize)> {
    let rest = &text[at..];
    [("+++", "+++"), ("++", "++"), ("`+", "+`"), ("$$", "$$")]
        .iter()
        .find_map(|(open, close)| {
            let inner = rest.strip_prefix(open)?;
            let first = inner.chars().next()?.len_utf8();
            let close_at = first + inner[first..].find(close)?;
            let end = open.len() + close_at + close.len();
            Some((rest[..end].to_owned(), at + end))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn macros_keep_name_and_target() {
        assert_eq!(
            markup("See link:https://x.org[the site] and image::a.png[Logo]."),
            ["image::a.png[]", "link:https://x.org[]"]
        );
        // The bracketed text is translated; the target is not.
        assert!(!asciidoc_markup(
            "See link:https://x.org[the site].",
            "Viz link:https://x.org[stránku]."
        ));
        assert!(asciidoc_markup(
            "See link:https://x.org[the site].",
            "Viz link:https://x.cz[stránku]."
        ));
        // `pass:` keeps its content; escaped brackets stay inside.
        assert_eq!(markup(r"pass:q[a\]b] x"), [r"pass:q[a\]b]"]);
        // A name after a small letter or digit is none; after a capital it is.
        assert_eq!(markup("xlink:a[b]"), ["xlink:a[]"]);
        assert_eq!(markup("Xlink:a[b]"), ["link:a[]"]);
        assert_eq!(markup("no: macro [here]"), Vec::<String>::new());
    }

    #[test]
    fn references_anchors_and_passthroughs() {
        assert_eq!(
            markup("Go <<setup,to setup>> at [[top]] with +++<b>+++ and $$x$$"),
            ["$$x$$", "+++<b>+++", "<<setup>>", "[[top]]"]
        );
        assert!(!asciidoc_markup(
            "See <<setup,Setup>>.",
            "Viz <<setup,Nastavení>>."
        ));
        assert!(asciidoc_markup("See <<setup>>.", "Viz <<nastaveni>>."));
        assert!(asciidoc_markup("Keep ++a++ twice ++a++", "Drž ++a++"));
        assert_eq!(markup("`+code+` and ++++"), ["`+code+`"]);
        assert_eq!(markup("<<<a>>"), ["<<<a>>"]);
    }

    #[test]
    fn escaped_markup_is_text() {
        assert_eq!(markup(r"\<<setup>> \\<<ok>>"), ["<<ok>>"]);
        assert!(!asciidoc_markup(r"Write \link:x[y]", "Piš"));
    }

    #[test]
    fn damaged_markup_never_panics() {
        for text in super::super::shuffled_texts(
            &[
                "<<", ">>", "[[", "]]", ",", "link:", "::", "[", "]", "\\", "+", "$$", "`", "é",
                " ",
            ],
            400,
            40,
        ) {
            markup(&text);
        }
    }
}
