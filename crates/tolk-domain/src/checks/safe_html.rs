//! `safe-html` (with its flag): the translation holds HTML that a
//! sanitiser would change, judged as Weblate judges it, with the same
//! sanitiser (ammonia, which Weblate reaches through nh3). The tags
//! allowed are those the source uses, each with the attributes the source
//! gives it; scripts and styles lose their content unless the source uses
//! them; comments, event handlers and links of unsafe schemes go; text is
//! written back as HTML writes it (`&` as `&amp;`), so a translation
//! passes when the sanitiser would give it back unchanged. No-break
//! spaces stay as written, and with `md-text` Markdown links are left out
//! of the comparison.

use std::collections::{HashMap, HashSet};

/// What the sanitiser leaves instead of a no-break space while it works.
const NBSP_MARK: &str = "@@@@@tolk:nbsp@@@@@";

/// `safe-html`: the sanitiser would change the translation (`markdown`:
/// the string is flagged `md-text`).
pub fn unsafe_html(source: &str, target: &str, markdown: bool) -> bool {
    let target = if markdown {
        super::markdown::without_links(target)
    } else {
        target.to_owned()
    };
    let (tags, attributes) = start_tags(source);
    let tags: HashSet<&str> = tags.iter().map(String::as_str).collect();
    let attributes: HashMap<&str, HashSet<&str>> = attributes
        .iter()
        .map(|(tag, names)| (tag.as_str(), names.iter().map(String::as_str).collect()))
        .collect();
    let cleared: HashSet<&str> = ["script", "style"]
        .into_iter()
        .filter(|tag| !tags.contains(tag))
        .collect();
    let cleaned = ammonia::Builder::default()
        .tags(tags)
        .tag_attributes(attributes)
        .clean_content_tags(cleared)
        .link_rel(None)
        .clean(&target.replace('\u{a0}', NBSP_MARK))
        .to_string()
        .replace(NBSP_MARK, "\u{a0}");
    cleaned != target
}

/// The tags of the elements a text opens, in lower case, and the names of
/// the attributes it gives each (as an HTML parser reads start tags: a
/// `<` and a letter open one; `html` and `body` are left out).
fn start_tags(text: &str) -> (HashSet<String>, HashMap<String, HashSet<String>>) {
    let mut tags = HashSet::new();
    let mut attributes: HashMap<String, HashSet<String>> = HashMap::new();
    let c: Vec<char> = text.chars().collect();
    let mut at = 0;
    while at < c.len() {
        if c[at] != '<' || !c.get(at + 1).is_some_and(|ch| ch.is_ascii_alphabetic()) {
            at += 1;
            continue;
        }
        let (name, mut next) = name_at(&c, at + 1);
        let mut names = HashSet::new();
        loop {
            while c
                .get(next)
                .is_some_and(|ch| ch.is_whitespace() || *ch == '/')
            {
                next += 1;
            }
            if next >= c.len() || c[next] == '>' {
                break;
            }
            let (attribute, after) = attribute_at(&c, next);
            if !attribute.is_empty() {
                names.insert(attribute);
            }
            next = after.max(next + 1);
        }
        at = next + 1;
        if name == "html" || name == "body" {
            continue;
        }
        attributes.entry(name.clone()).or_default().extend(names);
        tags.insert(name);
    }
    (tags, attributes)
}

/// The tag name from `at` on, in lower case, and where it ends.
fn name_at(c: &[char], at: usize) -> (String, usize) {
    let end = (at..c.len())
        .find(|&i| !(c[i].is_alphanumeric() || matches!(c[i], ':' | '-' | '_' | '.')))
        .unwrap_or(c.len());
    (c[at..end].iter().collect::<String>().to_lowercase(), end)
}

/// The attribute from `at` on: its name in lower case (empty when none
/// starts there), and where it ends, past its value.
fn attribute_at(c: &[char], at: usize) -> (String, usize) {
    let end = (at..c.len())
        .find(|&i| c[i].is_whitespace() || matches!(c[i], '=' | '>' | '/'))
        .unwrap_or(c.len());
    let name = c[at..end].iter().collect::<String>().to_lowercase();
    let mut next = end;
    while c.get(next).is_some_and(|ch| ch.is_whitespace()) {
        next += 1;
    }
    if c.get(next) != Some(&'=') {
        return (name, end);
    }
    next += 1;
    while c.get(next).is_some_and(|ch| ch.is_whitespace()) {
        next += 1;
    }
    let value_end = match c.get(next) {
        Some(&quote @ ('"' | '\'')) => (next + 1..c.len())
            .find(|&i| c[i] == quote)
            .map_or(c.len(), |i| i + 1),
        _ => (next..c.len())
            .find(|&i| c[i].is_whitespace() || c[i] == '>')
            .unwrap_or(c.len()),
    };
    (name, value_end)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINK: &str = r#"<a href="https://weblate.org/">link</a>"#;

    #[test]
    fn markup_the_source_uses_passes() {
        assert!(!unsafe_html(LINK, LINK, false));
        assert!(!unsafe_html("string", "string", false));
        assert!(!unsafe_html("Save <b>all</b>", "Uložit <b>vše</b>", false));
        assert!(!unsafe_html("A\u{a0}B", "A\u{a0}B", false));
    }

    #[test]
    fn unsafe_or_foreign_markup_fails() {
        assert!(unsafe_html(
            LINK,
            r#"<a href="javascript:foo()">link</a>"#,
            false
        ));
        assert!(unsafe_html(
            LINK,
            r##"<a href="#" onclick="x()">link</a>"##,
            false
        ));
        assert!(unsafe_html(LINK, r#"<iframe src="xxx"></iframe>"#, false));
        assert!(unsafe_html("Save all", "Uložit <b>vše</b>", false));
        assert!(unsafe_html(
            "Save",
            "Uložit<script>alert(1)</script>",
            false
        ));
        assert!(unsafe_html("Save", "Uložit <!-- x -->", false));
        // Text the sanitiser would write otherwise.
        assert!(unsafe_html("Tom and Jerry", "Tom & Jerry", false));
    }

    #[test]
    fn markdown_links_are_left_out_with_md_text() {
        let (source, target) = ("See <https://weblate.org>", "Viz <https://weblate.org>");
        assert!(!unsafe_html(source, target, true));
        assert!(unsafe_html(source, target, false));
        let (source, target) = ("See <noreply@weblate.org>", "Viz <noreply@weblate.org>");
        assert!(!unsafe_html(source, target, true));
        assert!(unsafe_html(source, target, false));
    }

    #[test]
    fn the_source_gives_tags_and_their_attributes() {
        let (tags, attributes) =
            start_tags(r#"<A HREF="x" title='y' data-x=1>a</a> <br/> < b> <body><img src=x alt>"#);
        let mut tags: Vec<&str> = tags.iter().map(String::as_str).collect();
        tags.sort_unstable();
        assert_eq!(tags, ["a", "br", "img"]);
        let mut a: Vec<&String> = attributes["a"].iter().collect();
        a.sort();
        assert_eq!(a, ["data-x", "href", "title"]);
        let mut img: Vec<&String> = attributes["img"].iter().collect();
        img.sort();
        assert_eq!(img, ["alt", "src"]);
        assert!(attributes["br"].is_empty());
    }

    #[test]
    fn damaged_markup_never_panics() {
        for text in super::super::shuffled_texts(
            &[
                "<", ">", "a", " ", "=", "\"", "'", "<script>", "</", "<a href=", "&", "\u{a0}",
            ],
            300,
            40,
        ) {
            unsafe_html(&text, &text, false);
            unsafe_html(&text, "x", true);
        }
    }
}
