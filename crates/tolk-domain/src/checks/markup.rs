//! Markup in translations: XML tags must match the source's and stay well
//! formed, BBCode elements too (with `bbcode-text`), a string flagged
//! `url` must stay a URL.

use std::sync::LazyLock;

use regex::Regex;

use super::fixed_regex::fixed_regex;

// A tag with its attributes (quoted values without `<`, as XML wants):
// group 1 `/` of a closing tag, 2 the name, 3 the attributes, 4 `/` of an
// empty element.
static TAG: LazyLock<Regex> = LazyLock::new(|| {
    fixed_regex(
        r#"<(/?)([A-Za-z_][\w:.-]*)((?:\s+[A-Za-z_:][\w:.-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(/?)>"#,
    )
});

static ATTRIBUTE: LazyLock<Regex> = LazyLock::new(|| fixed_regex(r"([A-Za-z_:][\w:.-]*)\s*="));

/// The XML of a text: its elements as `name attribute…` (attribute names
/// sorted) in the order they open, or `None` when it is no well-formed
/// XML: tags that do not nest, a `<` that opens no tag, a namespace
/// prefix the text does not declare (`<_:media-1/>`).
fn elements(text: &str) -> Option<Vec<String>> {
    let mut found = Vec::new();
    let mut open: Vec<&str> = Vec::new();
    let mut read = 0;
    for tag in TAG.captures_iter(text) {
        let whole = tag.get(0)?;
        if text[read..whole.start()].contains('<') {
            return None;
        }
        read = whole.end();
        let name = tag.get(2).map_or("", |m| m.as_str());
        if let Some((prefix, _)) = name.split_once(':')
            && prefix != "xml"
            && !text.contains(&format!("xmlns:{prefix}="))
        {
            return None;
        }
        if !tag[1].is_empty() {
            if open.pop() != Some(name) {
                return None;
            }
            continue;
        }
        let mut attributes: Vec<&str> = ATTRIBUTE
            .captures_iter(&tag[3])
            .filter_map(|a| a.get(1).map(|m| m.as_str()))
            .collect();
        attributes.sort_unstable();
        found.push(
            std::iter::once(name)
                .chain(attributes)
                .collect::<Vec<_>>()
                .join(" "),
        );
        if tag[4].is_empty() {
            open.push(name);
        }
    }
    (open.is_empty() && !text[read..].contains('<')).then_some(found)
}

/// The elements of a source that holds XML markup, or `None`.
fn source_elements(source: &str) -> Option<Vec<String>> {
    elements(source).filter(|found| !found.is_empty())
}

/// `xml-tags`: the source holds XML markup and the well-formed translation
/// holds other elements, or the same with other attribute names (in any
/// order: a translation may reorder them).
pub fn xml_tags(source: &str, target: &str) -> bool {
    match (source_elements(source), elements(target)) {
        (Some(mut wanted), Some(mut given)) => {
            wanted.sort_unstable();
            given.sort_unstable();
            wanted != given
        }
        _ => false,
    }
}

/// `xml-invalid`: the source holds XML markup and the translation is no
/// well-formed XML.
pub fn xml_invalid(source: &str, target: &str) -> bool {
    source_elements(source).is_some() && elements(target).is_none()
}

// Anything between `<` and `>`: the tags whose neighbours
// `xml-chars-around-tags` compares.
static ANY_TAG: LazyLock<Regex> = LazyLock::new(|| fixed_regex(r"<[^>]+>"));

static LETTER: LazyLock<Regex> = LazyLock::new(|| fixed_regex(r"^\p{L}$"));

/// Arabic's conjunction waw (`و`), written against the next word.
const ARABIC_WAW: char = '\u{648}';

/// `xml-chars-around-tags` (Weblate 2026): the source holds XML markup
/// (or is flagged `xml-text`), source and translation hold as many tags,
/// and next to some tag (before it, after it, or both for a tag inside
/// the text) one of them has a letter where the other has none, as in
/// `<b>soubor</b>y` for `<b>file</b>s`. A space beside an Arabic waw passes.
pub fn xml_chars_around_tags(source: &str, target: &str, xml_text: bool) -> bool {
    if !xml_text && source_elements(source).is_none() {
        return false;
    }
    let spans = |text: &str| -> (Vec<char>, Vec<(usize, usize)>) {
        // Positions in characters, as Weblate (Python) counts them.
        let at = |byte: usize| text[..byte].chars().count();
        let spans = ANY_TAG
            .find_iter(text)
            .map(|m| (at(m.start()), at(m.end())))
            .collect();
        (text.chars().collect(), spans)
    };
    let (s, s_tags) = spans(source);
    let (t, t_tags) = spans(target);
    if s_tags.len() != t_tags.len() {
        return false;
    }
    s_tags
        .iter()
        .zip(&t_tags)
        .any(|(&(s_start, s_end), &(t_start, t_end))| {
            let after = || s_end < s.len() && t_end < t.len() && letter_differs(s[s_end], t[t_end]);
            let before =
                || s_start > 0 && t_start > 0 && letter_differs(s[s_start - 1], t[t_start - 1]);
            if s_start == 0 || t_start == 0 {
                after()
            } else if s_end == s.len() || t_end == t.len() {
                before()
            } else {
                before() || after()
            }
        })
}

/// Whether one of two characters is a letter and the other not (a space
/// against an Arabic waw passes).
fn letter_differs(a: char, b: char) -> bool {
    let is_letter = |c: char| LETTER.is_match(c.encode_utf8(&mut [0; 4]));
    if is_letter(a) == is_letter(b) {
        return false;
    }
    let other = if a == ARABIC_WAW {
        Some(b)
    } else if b == ARABIC_WAW {
        Some(a)
    } else {
        None
    };
    !other.is_some_and(char::is_whitespace)
}

/// `url`: a string flagged `url` whose translation is no absolute URL.
pub fn url(target: &str) -> bool {
    let Some((scheme, rest)) = target.split_once("://") else {
        return true;
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    !matches!(
        scheme.to_ascii_lowercase().as_str(),
        "http" | "https" | "ftp" | "ftps"
    ) || host.is_empty()
        || target.chars().any(char::is_whitespace)
}

/// The tag names of the BBCode elements of `text`, in order: an opening
/// tag `[name]` (which may go on with `@value`) closed by `[/name]` later
/// on the same line. As in Weblate, a name is anything up to the `]` (or
/// an `@`), the longest that is closed winning, and elements do not nest.
fn bbcode_elements(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find('[').map(|at| from + at) {
        from = open + 1;
        let Some(inside_end) = text[open + 1..].find(']').map(|at| open + 1 + at) else {
            break;
        };
        let inside = &text[open + 1..inside_end];
        let line_end = text[inside_end..]
            .find('\n')
            .map_or(text.len(), |at| inside_end + at);
        let rest = &text[inside_end + 1..line_end];
        // The whole inside first, then each part before an `@`, longest first.
        let names = std::iter::once(inside).chain(
            inside
                .char_indices()
                .rev()
                .filter(|&(_, c)| c == '@')
                .map(|(at, _)| &inside[..at]),
        );
        for name in names.filter(|name| !name.is_empty()) {
            if let Some(close) = rest.find(&format!("[/{name}]")) {
                found.push(name);
                from = inside_end + 1 + close + name.len() + 3;
                break;
            }
        }
    }
    found
}

/// `bbcode` (with the `bbcode-text` flag): the translation holds another
/// number of BBCode elements than the source, or elements of other names.
pub fn bbcode(source: &str, target: &str) -> bool {
    let (wanted, given) = (bbcode_elements(source), bbcode_elements(target));
    if wanted.len() != given.len() {
        return true;
    }
    let set = |list: &[&str]| -> std::collections::BTreeSet<String> {
        list.iter().map(|name| (*name).to_owned()).collect()
    };
    set(&wanted) != set(&given)
}

#[cfg(test)]
mod tests {
    #[test]
    fn letters_around_tags_follow_the_source() {
        use super::xml_chars_around_tags as around;
        let source = "Open <b>file</b> now";
        assert!(!around(source, "Otevřít <b>soubor</b> teď", false));
        // A letter glued to a tag where the source has a space.
        assert!(around(source, "Otevřít<b>soubor</b> teď", false));
        assert!(around(source, "Otevřít <b>soubor</b>y teď", false));
        // A tag at the start: only what follows it counts.
        assert!(!around("<b>Open</b> it", "<b>Otevři</b> to", false));
        assert!(around("<b>Open</b> it", "<b>Otevři</b>to", false));
        // At the end: only what precedes it.
        assert!(around("Open <br/>", "Otevřít<br/>", false));
        // Another number of tags, or a source without XML: not judged.
        assert!(!around(source, "Otevřít<b>soubor teď", false));
        assert!(!around("a < b and c > d", "a<b a c>d", false));
        // Unless flagged `xml-text`.
        assert!(around("x <y> z", "x<y> z", true));
        // Arabic's waw may be written against a tag where the source has a space.
        assert!(!around("Open <b>file</b>", "افتح و<b>ملف</b>", false));
        assert!(!around("Open <b>file</b>", "افتح <b>ملف</b>", false));
        assert!(!around("a <b>x</b> b", "a \u{648}<b>x</b> b", false));
    }

    use super::*;

    #[test]
    fn tags_match_and_nest() {
        assert!(!xml_tags("Press <b>Save</b>", "Stiskněte <b>Uložit</b>"));
        assert!(xml_tags("Press <b>Save</b>", "Stiskněte <i>Uložit</i>"));
        assert!(xml_tags("Press <b>Save</b>", "Stiskněte Uložit"));
        assert!(!xml_tags(
            "<a href=\"x\">Link</a><br/>",
            "<br/><a href=\"y\">Odkaz</a>"
        ));
        assert!(!xml_tags("1 < 2", "1 < 2 <b>"), "no XML in the source");
        assert!(
            !xml_invalid("1 < 2 <b>x</b>", "1 < 2"),
            "a stray < makes the source no XML"
        );
        assert!(
            xml_tags("<x id=\"PH\" xid=\"7\"/> left", "<x id=\"PH\"/> übrig"),
            "an attribute left out"
        );
        assert!(
            xml_invalid("<x id=\"PH\"/> done", "<x id=\"a<b\"/> fertig"),
            "no < in an attribute value"
        );
        assert!(xml_invalid("<b>Save</b>", "<b>Uložit</i>"));
        assert!(
            !xml_tags("<b>Save</b>", "<b>Uložit</i>"),
            "reported as invalid"
        );
        assert!(!xml_invalid("<b>Save</b>", "<b>Uložit</b>"));
        assert!(
            !xml_tags("<_:media-1/> Help", "Nápověda"),
            "an undeclared prefix is no XML"
        );
    }

    #[test]
    fn bbcode_elements_match_by_count_and_name() {
        assert!(!bbcode("[a]string[/a]", "[a]řetězec[/a]"));
        assert!(bbcode("[a]string[/a]", "[b]řetězec[/b]"));
        assert!(bbcode("[a]string[/a]", "řetězec"));
        assert!(bbcode("no markup", "[b]tučně[/b]"), "an element added");
        assert!(
            !bbcode("[b]x[/b] [i]y[/i]", "[i]y[/i] [b]x[/b]"),
            "order is free"
        );
        assert!(
            bbcode("[b]x[/b] [b]y[/b]", "[b]x y[/b]"),
            "one element less"
        );
        assert!(!bbcode(
            "[url@https://a.cz]a[/url]",
            "[url@https://b.cz]b[/url]"
        ));
        assert_eq!(
            bbcode_elements("[b]x\n[/b]"),
            Vec::<&str>::new(),
            "one line"
        );
        assert_eq!(bbcode_elements("[[b]x[/b] [/x] ["), vec!["b"]);
    }

    #[test]
    fn urls() {
        assert!(!url("https://weblate.org/cs/"));
        assert!(url("weblate.org"));
        assert!(url("https://"));
        assert!(url("javascript://x"));
        assert!(url("https://a b"));
    }
}
