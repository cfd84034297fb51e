//! `safe-html` (with its flag, or with `auto-safe-html` where the source
//! is plain text or HTML): the translation holds HTML that a sanitiser
//! would change, judged as Weblate 2026 judges it, with the same
//! sanitiser (ammonia, which Weblate reaches through nh3). The tags
//! allowed are those the source uses, each with the attributes the source
//! gives it; scripts and styles lose their content unless the source uses
//! them; comments, event handlers and links of unsafe schemes go; text is
//! written back as HTML writes it (`&` as `&amp;`), so a translation
//! passes when the sanitiser would give it back unchanged. No-break
//! spaces stay as written; with `md-text` Markdown links are left out of
//! the comparison; with `safe-mdx` void elements are written as JSX
//! writes them. A translation also fails when it wraps in quotes an
//! attribute whose value in the source is one placeholder.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use regex::Regex;

use super::Flags;
use super::fixed_regex::fixed_regex;
use super::format::is_one_placeholder;
use super::html_tokens::{self, Token};

/// What the sanitiser leaves instead of a no-break space while it works.
const NBSP_MARK: &str = "@@@@@tolk:nbsp@@@@@";

/// What the sanitiser leaves instead of the `n`th Markdown link while it
/// works (with `md-text`).
fn link_mark(n: usize) -> String {
    format!("@@@@@tolk:link:{n}@@@@@")
}

/// `safe-html`: the sanitiser would change the translation, or the
/// translation wraps in quotes an attribute whose value in the source is
/// one placeholder (`href="'{url}'"` for `href="{url}"`).
pub fn unsafe_html(source: &str, target: &str, flags: &Flags) -> bool {
    let target = if flags.has("md-text") {
        super::markdown::without_links(target)
    } else {
        target.to_owned()
    };
    sanitised(source, &target, flags) != target || wraps_placeholder_attribute(source, &target)
}

/// `text` as the sanitiser gives it back, allowing the tags the source
/// uses with the attributes it gives them; with `md-text` Markdown links
/// are kept as written, and with `safe-mdx` void elements are written as
/// JSX writes them (`<br />`).
fn sanitised(source: &str, text: &str, flags: &Flags) -> String {
    let mut links = Vec::new();
    let text = if flags.has("md-text") {
        super::markdown::replacing_links(text, |link| {
            links.push(link);
            link_mark(links.len())
        })
    } else {
        text.to_owned()
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
    let mut cleaned = ammonia::Builder::default()
        .tags(tags)
        .tag_attributes(attributes)
        .clean_content_tags(cleared)
        .link_rel(None)
        .clean(&text.replace('\u{a0}', NBSP_MARK))
        .to_string()
        .replace(NBSP_MARK, "\u{a0}");
    for (n, link) in links.iter().enumerate() {
        cleaned = cleaned.replace(&link_mark(n + 1), link);
    }
    if flags.has("safe-mdx") && !flags.ignores("safe-mdx") {
        void_elements_as_jsx(&cleaned)
    } else {
        cleaned
    }
}

/// Elements that have no content and take no end tag, as Weblate lists
/// them for the checks of HTML.
const VOID_ELEMENTS: [&str; 14] = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

/// A tag, comment or doctype, as the `auto-safe-html` rule reads markup.
static SEGMENT: LazyLock<Regex> = LazyLock::new(|| {
    fixed_regex(
        r#"(?i)<!--[\s\S]*?-->|<!DOCTYPE(?:\s+(?:"[^"]*"|'[^']*'|[^'">])*)?>|</?[A-Za-z](?:[^<>"']|"[^"]*"|'[^']*')*?>"#,
    )
});

/// The name of the tag a segment opens or closes.
static TAG_NAME: LazyLock<Regex> =
    LazyLock::new(|| fixed_regex(r"^</?\s*([A-Za-z][A-Za-z0-9:-]*)"));

/// A custom element's name (`my-widget`).
static CUSTOM_ELEMENT: LazyLock<Regex> =
    LazyLock::new(|| fixed_regex(r"^[a-z][a-z0-9._-]*-[a-z0-9._-]*$"));

/// The tag names `auto-safe-html` takes for HTML: the elements of HTML,
/// past and present, that sanitisers and parsers know (131 names,
/// separated by spaces).
const HTML_TAGS: &str = "\
     a abbr acronym address applet area article aside audio b base basefont bdi bdo big blink \
     blockquote body br button canvas caption center cite code col colgroup command data \
     datalist dd del details dfn dialog dir div dl dt em embed fieldset figcaption figure font \
     footer form frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img input ins \
     isindex kbd keygen label legend li link main map mark marquee math menu meta meter nav \
     noscript object ol optgroup option output p param picture pre progress q rp rt rtc ruby s \
     samp script search section select slot small source span strike strong style sub summary \
     sup svg table tbody td template textarea tfoot th thead time title tr track tt u ul var \
     video wbr";

/// `auto-safe-html`: whether a source is plain text or HTML the
/// sanitiser keeps as it is, so that `safe-html` applies to its
/// translations. Every `<` that starts markup must start a tag, comment
/// or doctype; every tag must name an element of HTML or a custom element
/// and hold no braces (JSX, templates); and the sanitiser must give the
/// source's tags and text back unchanged (a self-closed element it writes
/// open and closed still counts as unchanged).
pub fn looks_like_html(source: &str, flags: &Flags) -> bool {
    let source = if flags.has("md-text") {
        super::markdown::without_links(source)
    } else {
        source.to_owned()
    };
    let starts: Vec<usize> = source
        .match_indices('<')
        .map(|(at, _)| at)
        .filter(|at| {
            source[at + 1..]
                .chars()
                .next()
                .is_some_and(|c| matches!(c, '!' | '/' | '?') || c.is_ascii_alphabetic())
        })
        .collect();
    if starts.is_empty() {
        return true;
    }
    let segments: Vec<_> = SEGMENT.find_iter(&source).collect();
    // Both lists are in order and segments do not overlap: one walk.
    let mut remaining = segments.iter().peekable();
    let covered = starts.iter().all(|at| {
        while remaining.next_if(|s| s.end() <= *at).is_some() {}
        remaining.peek().is_some_and(|s| s.range().contains(at))
    });
    if segments.is_empty() || !covered {
        return false;
    }
    if !segments.iter().all(|s| names_html(s.as_str())) {
        return false;
    }
    same_markup(&source, &sanitised(&source, &source, flags))
}

/// Whether a segment is a comment, doctype, or tag of HTML or a custom
/// element, with no braces.
fn names_html(segment: &str) -> bool {
    if segment.contains(['{', '}']) {
        return false;
    }
    let lower = segment.to_lowercase();
    if lower.starts_with("<!--") || lower.starts_with("<!doctype") {
        return true;
    }
    TAG_NAME.captures(segment).is_some_and(|found| {
        let name = found[1].to_lowercase();
        HTML_TAGS.split_whitespace().any(|tag| tag == name) || CUSTOM_ELEMENT.is_match(&name)
    })
}

/// Whether the cleaned text holds the source's tags and text in order; a
/// self-closed element (`<br/>`, `<x-y/>`) may come back open, and closed
/// right after unless it is void.
fn same_markup(source: &str, cleaned: &str) -> bool {
    let before = html_tokens::tokens(source);
    let after = html_tokens::tokens(cleaned);
    let mut after = after.iter().peekable();
    for token in &before {
        let Some(next) = after.next() else {
            return false;
        };
        if token == next {
            continue;
        }
        let (Token::StartEnd(tag, attributes), Token::Start(tag_after, attributes_after)) =
            (token, next)
        else {
            return false;
        };
        if (tag, attributes) != (tag_after, attributes_after) {
            return false;
        }
        let closed = after.peek() == Some(&&Token::End(tag.clone()));
        if closed {
            after.next();
        } else if !VOID_ELEMENTS.contains(&tag.as_str()) {
            return false;
        }
    }
    after.next().is_none()
}

/// Void elements written as JSX writes them (`<br />`).
fn void_elements_as_jsx(text: &str) -> String {
    SEGMENT
        .replace_all(text, |found: &regex::Captures<'_>| {
            let segment = &found[0];
            let void = !segment.starts_with("</")
                && TAG_NAME
                    .captures(segment)
                    .is_some_and(|tag| VOID_ELEMENTS.contains(&tag[1].to_lowercase().as_str()));
            if !void {
                return segment.to_owned();
            }
            let opening = segment[..segment.len() - 1].trim_end();
            let opening = opening.strip_suffix('/').unwrap_or(opening).trim_end();
            format!("{opening} />")
        })
        .into_owned()
}

/// Quote-like characters a translator may wrap a value in.
const WRAPPERS: &[char] = &[
    '"', '\'', '`', '“', '”', '„', '‟', '‘', '’', '‚', '‛', '«', '»', '‹', '›',
];

/// Whether the translation gives an attribute, whose value in the source
/// is one placeholder, that placeholder wrapped in quotes (`"'{url}'"`)
/// where the source's tag gives it bare.
fn wraps_placeholder_attribute(source: &str, target: &str) -> bool {
    let bare: HashSet<(String, String, String)> = html_tokens::attributes(source)
        .into_iter()
        .filter_map(|(tag, (name, value))| {
            value
                .filter(|v| is_attribute_placeholder(v))
                .map(|v| (tag, name, v))
        })
        .collect();
    if bare.is_empty() {
        return false;
    }
    html_tokens::attributes(target)
        .into_iter()
        .any(|(tag, (name, value))| {
            let Some(value) = value else {
                return false;
            };
            let inner = unwrapped(&value);
            inner != value
                && is_attribute_placeholder(inner)
                && bare.contains(&(tag, name, inner.to_owned()))
        })
}

/// Whether an attribute's value is one placeholder of a format the checks
/// know (not a lone `%`, `%%`, `{{` or `}}`).
fn is_attribute_placeholder(value: &str) -> bool {
    !matches!(value, "%" | "%%" | "{{" | "}}") && is_one_placeholder(value)
}

/// A value without the spaces and quote-like characters (each perhaps
/// escaped with a backslash) around it.
fn unwrapped(value: &str) -> &str {
    let mut inner = value;
    loop {
        let before = inner;
        inner = inner.trim_start();
        if let Some(rest) = inner.strip_prefix(WRAPPERS) {
            inner = rest.trim_start();
        } else if let Some(rest) = inner
            .strip_prefix('\\')
            .and_then(|r| r.strip_prefix(WRAPPERS))
        {
            inner = rest.trim_start();
        }
        inner = inner.trim_end();
        if let Some(rest) = inner.strip_suffix(WRAPPERS) {
            inner = rest.strip_suffix('\\').unwrap_or(rest).trim_end();
        }
        if inner == before {
            return inner;
        }
    }
}

/// The tags of the elements a text opens, in lower case, and the names of
/// the attributes it gives each, as libxml2's HTML parser reads start
/// tags (a `<` and a letter open one; a name is letters, digits and
/// `:-_.`; `html` and `body` are left out). Weblate reads the tags it
/// allows with that parser, and the attributes and tags it compares with
/// Python's `html.parser`, which [`html_tokens`] follows: the two readers
/// differ on purpose.
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
        // Scripts and styles hold text, not tags, up to their end tag.
        if name == "script" || name == "style" {
            let end: Vec<char> = format!("</{name}").chars().collect();
            at = (at..c.len())
                .find(|&i| {
                    c.get(i..i + end.len()).is_some_and(|found| {
                        found
                            .iter()
                            .zip(&end)
                            .all(|(a, b)| a.to_ascii_lowercase() == *b)
                    })
                })
                .unwrap_or(c.len());
        }
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

    fn none() -> Flags {
        Flags::default()
    }

    fn markdown() -> Flags {
        Flags::parse(["md-text"])
    }

    #[test]
    fn markup_the_source_uses_passes() {
        assert!(!unsafe_html(LINK, LINK, &none()));
        assert!(!unsafe_html("string", "string", &none()));
        assert!(!unsafe_html(
            "Save <b>all</b>",
            "Uložit <b>vše</b>",
            &none()
        ));
        assert!(!unsafe_html("A\u{a0}B", "A\u{a0}B", &none()));
    }

    #[test]
    fn unsafe_or_foreign_markup_fails() {
        assert!(unsafe_html(
            LINK,
            r#"<a href="javascript:foo()">link</a>"#,
            &none()
        ));
        assert!(unsafe_html(
            LINK,
            r##"<a href="#" onclick="x()">link</a>"##,
            &none()
        ));
        assert!(unsafe_html(LINK, r#"<iframe src="xxx"></iframe>"#, &none()));
        assert!(unsafe_html("Save all", "Uložit <b>vše</b>", &none()));
        assert!(unsafe_html(
            "Save",
            "Uložit<script>alert(1)</script>",
            &none()
        ));
        assert!(unsafe_html("Save", "Uložit <!-- x -->", &none()));
        // Text the sanitiser would write otherwise.
        assert!(unsafe_html("Tom and Jerry", "Tom & Jerry", &none()));
    }

    #[test]
    fn a_placeholder_attribute_wrapped_in_quotes_fails() {
        let safe = Flags::parse(["safe-html"]);
        let source = r#"<a href="{url}">link</a>"#;
        assert!(!unsafe_html(source, r#"<a href="{url}">odkaz</a>"#, &safe));
        for wrapped in [
            r#"<a href="'{url}'">odkaz</a>"#,
            r#"<a href='"{url}"'>odkaz</a>"#,
            r#"<a href="„{url}“">odkaz</a>"#,
            r#"<a href=" \"{url}\" ">odkaz</a>"#,
        ] {
            assert!(unsafe_html(source, wrapped, &safe), "{wrapped}");
        }
        // Only where the source's tag gives the placeholder bare.
        assert!(!unsafe_html(
            r#"<a href="'{url}'">link</a>"#,
            r#"<a href="'{url}'">odkaz</a>"#,
            &safe
        ));
        assert!(!unsafe_html(
            r#"<a title="%">x</a>"#,
            r#"<a title="'%'">x</a>"#,
            &safe
        ));
        assert!(unsafe_html(
            r#"<img src="%s">"#,
            r#"<img src="«%s»">"#,
            &safe
        ));
    }

    #[test]
    fn auto_safe_html_checks_plain_text_and_html_only() {
        let auto = Flags::default();
        assert!(looks_like_html("Save all", &auto));
        assert!(looks_like_html("Save <b>all</b> &amp; exit<br/>", &auto));
        assert!(looks_like_html(
            "<my-widget>x</my-widget> <!-- note -->",
            &auto
        ));
        // JSX, templates, unknown tags, stray markup, and HTML the
        // sanitiser would rewrite are not taken for HTML.
        assert!(!looks_like_html("<Trans>{count} files</Trans>", &auto));
        assert!(!looks_like_html("<b>{name}</b> <Foo bar>", &auto));
        assert!(!looks_like_html("<widget>x</widget>", &auto));
        assert!(!looks_like_html("<b>open", &auto));
        assert!(!looks_like_html(r#"<a href="javascript:x()">y</a>"#, &auto));
        assert!(!looks_like_html("<td>cell</td>", &auto));
    }

    #[test]
    fn void_elements_are_written_as_jsx_with_safe_mdx() {
        let mdx = Flags::parse(["safe-html, safe-mdx"]);
        assert!(!unsafe_html("Line<br/>break", "Řádek<br />zlom", &mdx));
        assert!(unsafe_html("Line<br/>break", "Řádek<br>zlom", &mdx));
        assert!(!unsafe_html(
            "Line<br/>break",
            "Řádek<br>zlom",
            &Flags::parse(["safe-html"])
        ));
        assert_eq!(
            void_elements_as_jsx(r#"<img src="x"/><b>y</b><hr>"#),
            r#"<img src="x" /><b>y</b><hr />"#
        );
    }

    #[test]
    fn markdown_links_are_left_out_with_md_text() {
        let (source, target) = ("See <https://weblate.org>", "Viz <https://weblate.org>");
        assert!(!unsafe_html(source, target, &markdown()));
        assert!(unsafe_html(source, target, &none()));
        let (source, target) = ("See <noreply@weblate.org>", "Viz <noreply@weblate.org>");
        assert!(!unsafe_html(source, target, &markdown()));
        assert!(unsafe_html(source, target, &none()));
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
            unsafe_html(&text, &text, &none());
            unsafe_html(&text, "x", &markdown());
            looks_like_html(&text, &none());
        }
    }
}
