//! The addresses of a translation on the pages, as Weblate shapes them:
//! `/projects/{project}/{component path}/{language}/` for its page and
//! `/translate/{project}/{component path}/{language}/` for its editor,
//! the component path holding its categories' slugs before its own.

use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};

/// `text` made safe as a query value.
pub fn query_value(text: &str) -> String {
    utf8_percent_encode(text, NON_ALPHANUMERIC).to_string()
}

/// One translation named by its address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranslationPath {
    /// The project's slug.
    pub project: String,
    /// The component's path of slugs (`category/component`).
    pub component: String,
    /// The language's code.
    pub language: String,
}

impl TranslationPath {
    /// The translation `rest` names inside `project` (its component path
    /// then its language); `None` without both.
    pub fn parse(project: &str, rest: &str) -> Option<TranslationPath> {
        let parts: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
        let (language, component) = parts.split_last()?;
        if component.is_empty() {
            return None;
        }
        Some(TranslationPath {
            project: project.to_owned(),
            component: component.join("/"),
            language: (*language).to_owned(),
        })
    }

    /// As the use-cases name a translation.
    pub fn key(&self) -> (&str, &str, &str) {
        (&self.project, &self.component, &self.language)
    }

    /// Its page.
    pub fn page(&self) -> String {
        self.of("projects")
    }

    /// Its component's page.
    pub fn component_page(&self) -> String {
        format!("/projects/{}/{}/", self.project, self.component)
    }

    /// Its file: as stored, or converted by `format`.
    pub fn download(&self, format: Option<&str>) -> String {
        let format = format.map(|f| format!("format={}", query_value(f)));
        with_query(self.of("download"), [format])
    }

    /// Where its files are uploaded.
    pub fn upload(&self) -> String {
        self.of("upload")
    }

    /// The address of its page of `kind` (`translate`, `zen`...).
    fn of(&self, kind: &str) -> String {
        format!(
            "/{kind}/{}/{}/{}/",
            self.project, self.component, self.language
        )
    }

    /// Its list view, on page `page` when given, of the strings
    /// matching `q` when not empty.
    pub fn zen(&self, q: &str, page: Option<u64>) -> String {
        let page = page.map(|n| format!("page={n}"));
        with_query(self.of("zen"), [search(q), page])
    }

    /// Its editor, on the string named by `checksum` when given, among
    /// the strings matching `q` when not empty.
    pub fn editor(&self, checksum: Option<&str>, q: &str) -> String {
        let checksum = checksum.map(|c| format!("checksum={c}"));
        with_query(self.of("translate"), [checksum, search(q)])
    }
}

/// The query part of a search `q`; none when empty.
fn search(q: &str) -> Option<String> {
    (!q.is_empty()).then(|| format!("q={}", query_value(q)))
}

/// `url` with the query parts given.
fn with_query<const N: usize>(mut url: String, parts: [Option<String>; N]) -> String {
    let parts: Vec<String> = parts.into_iter().flatten().collect();
    if !parts.is_empty() {
        url.push('?');
        url.push_str(&parts.join("&"));
    }
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_a_translation_by_its_component_path_and_language() {
        let path = TranslationPath::parse("demo", "docs/guide/cs/").unwrap();
        assert_eq!(path.key(), ("demo", "docs/guide", "cs"));
        assert_eq!(path.page(), "/projects/demo/docs/guide/cs/");
        assert_eq!(path.component_page(), "/projects/demo/docs/guide/");
        assert_eq!(
            path.editor(Some("00ff"), "state:<translated & x"),
            "/translate/demo/docs/guide/cs/?checksum=00ff&q=state%3A%3Ctranslated%20%26%20x"
        );
        assert_eq!(path.editor(None, ""), "/translate/demo/docs/guide/cs/");
        assert_eq!(path.download(None), "/download/demo/docs/guide/cs/");
        assert_eq!(
            path.zen("has:comment", Some(2)),
            "/zen/demo/docs/guide/cs/?q=has%3Acomment&page=2"
        );
        assert_eq!(path.zen("", None), "/zen/demo/docs/guide/cs/");
        assert_eq!(
            path.download(Some("po")),
            "/download/demo/docs/guide/cs/?format=po"
        );
        assert_eq!(TranslationPath::parse("demo", "cs/"), None);
        assert_eq!(TranslationPath::parse("demo", ""), None);
    }
}
