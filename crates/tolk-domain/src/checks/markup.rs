//! Markup in translations: XML tags must match the source's and stay well
//! formed, a string flagged `url` must stay a URL.

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
    fn urls() {
        assert!(!url("https://weblate.org/cs/"));
        assert!(url("weblate.org"));
        assert!(url("https://"));
        assert!(url("javascript://x"));
        assert!(url("https://a b"));
    }
}
