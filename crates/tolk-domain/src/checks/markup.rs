//! Markup in translations: XML tags must match the source's and stay well
//! formed, BBCode elements too (with `bbcode-text`), a string flagged
//! `url` must stay a URL.

use std::sync::LazyLock;

use regex::Regex;

static TAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"<(/?)([A-Za-z_][\w:.-]*)(?:\s[^<>]*?)?(/?)>").expect("a valid expression")
});

/// The tags of `text` in order (`name`, `/name`, `name/`), or `None`
/// when it holds none or they do not nest (the text is no XML).
fn tags(text: &str) -> Option<Vec<String>> {
    let mut found = Vec::new();
    let mut open: Vec<&str> = Vec::new();
    for tag in TAG.captures_iter(text) {
        let name = tag.get(2).map_or("", |m| m.as_str());
        let closing = !tag[1].is_empty();
        let empty = !tag[3].is_empty();
        if closing {
            if open.pop() != Some(name) {
                return None;
            }
            found.push(format!("/{name}"));
        } else if empty {
            found.push(format!("{name}/"));
        } else {
            open.push(name);
            found.push(name.to_owned());
        }
    }
    (open.is_empty() && !found.is_empty()).then_some(found)
}

/// `xml-tags`: the source holds well-nested XML tags and the translation
/// holds other tags (or the same in another nesting).
pub fn xml_tags(source: &str, target: &str) -> bool {
    match (tags(source), tags(target)) {
        (Some(wanted), Some(given)) => {
            let names = |list: &[String]| {
                let mut sorted: Vec<String> = list.to_vec();
                sorted.sort();
                sorted
            };
            names(&wanted) != names(&given)
        }
        (Some(_), None) => !broken(target),
        _ => false,
    }
}

/// `xml-invalid`: the source holds well-nested XML tags and the
/// translation's tags do not nest.
pub fn xml_invalid(source: &str, target: &str) -> bool {
    tags(source).is_some() && broken(target)
}

/// Tags that do not nest.
fn broken(text: &str) -> bool {
    TAG.is_match(text) && tags(text).is_none()
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
        assert!(xml_invalid("<b>Save</b>", "<b>Uložit</i>"));
        assert!(
            !xml_tags("<b>Save</b>", "<b>Uložit</i>"),
            "reported as invalid"
        );
        assert!(!xml_invalid("<b>Save</b>", "<b>Uložit</b>"));
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
