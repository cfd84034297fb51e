//! Identifiers and capabilities of every format a component may use.

/// Whether a format keeps the source text next to each translation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Linguality {
    /// Keys only; the source text comes from a template file.
    Monolingual,
    /// Source and translation in every file.
    Bilingual,
    /// Either, depending on whether a template is configured.
    Both,
    /// A whole document split into translatable strings.
    Document,
}

/// What Tolk knows about one file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatInfo {
    /// Weblate's format id, e.g. `po` or `aresource`.
    pub id: &'static str,
    /// Human-readable name.
    pub name: &'static str,
    /// Monolingual, bilingual or both.
    pub linguality: Linguality,
    /// Whether the format stores plural forms.
    pub plurals: bool,
    /// Usual file extensions, without the dot.
    pub extensions: &'static [&'static str],
}

impl FormatInfo {
    /// The media type files of this format are served as, from their usual extension.
    pub fn mime_type(&self) -> &'static str {
        match self.extensions.first().copied().unwrap_or("") {
            "po" => "text/x-po",
            "xlf" | "xliff" | "poxliff" => "application/x-xliff+xml",
            "json" | "arb" | "resjson" => "application/json",
            "ts" | "xml" | "resx" | "tbx" | "wxl" | "xaml" | "stringsdict" => "application/xml",
            "dtd" => "application/xml-dtd",
            "csv" => "text/csv",
            "yaml" | "yml" => "application/x-yaml",
            "toml" => "application/toml",
            "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "html" | "htm" => "text/html",
            "md" | "mdx" => "text/markdown",
            "idml" | "odt" | "ods" | "odp" => "application/octet-stream",
            _ => "text/plain",
        }
    }

    /// True for whole documents (HTML, …) split into strings.
    pub fn is_document(&self) -> bool {
        self.linguality == Linguality::Document
    }

    /// True when a component with this format needs a template file.
    pub fn needs_template(&self) -> bool {
        matches!(
            self.linguality,
            Linguality::Monolingual | Linguality::Document
        )
    }

    /// True when files of this format can take their source strings from
    /// a template (monolingual files, documents, and formats that are either).
    pub fn takes_template(&self) -> bool {
        self.linguality != Linguality::Bilingual
    }
}

/// Every known format, in Weblate's order.
pub const FORMATS: &[FormatInfo] = &[
    FormatInfo {
        id: "po",
        name: "gettext PO file",
        linguality: Linguality::Bilingual,
        plurals: true,
        extensions: &["po", "pot"],
    },
    FormatInfo {
        id: "po-mono",
        name: "gettext PO file (monolingual)",
        linguality: Linguality::Monolingual,
        plurals: true,
        extensions: &["po", "pot"],
    },
    FormatInfo {
        id: "ts",
        name: "Qt Linguist translation file (version 2)",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["ts"],
    },
    FormatInfo {
        id: "ts1",
        name: "Qt Linguist translation file (version 1)",
        linguality: Linguality::Both,
        plurals: false,
        extensions: &["ts"],
    },
    FormatInfo {
        id: "plainxliff",
        name: "XLIFF 1.2 translation file",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["xlf", "xliff"],
    },
    FormatInfo {
        id: "xliff",
        name: "XLIFF 1.2 with placeables support",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["xlf", "xliff", "sdlxliff", "mxliff"],
    },
    FormatInfo {
        id: "xliff2",
        name: "XLIFF 2.0 translation file",
        linguality: Linguality::Bilingual,
        plurals: true,
        extensions: &["xlf", "xliff"],
    },
    FormatInfo {
        id: "xliff2-placeables",
        name: "XLIFF 2.0 translation file with placeables support",
        linguality: Linguality::Bilingual,
        plurals: true,
        extensions: &["xlf", "xliff"],
    },
    FormatInfo {
        id: "poxliff",
        name: "XLIFF 1.2 with gettext extensions",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["poxliff", "xlf"],
    },
    FormatInfo {
        id: "apple-xliff",
        name: "XLIFF 1.2 with Apple extensions",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["xliff"],
    },
    FormatInfo {
        id: "strings",
        name: "iOS strings",
        linguality: Linguality::Both,
        plurals: false,
        extensions: &["strings"],
    },
    FormatInfo {
        id: "properties",
        name: "Java Properties",
        linguality: Linguality::Both,
        plurals: false,
        extensions: &["properties"],
    },
    FormatInfo {
        id: "joomla",
        name: "Joomla language file",
        linguality: Linguality::Monolingual,
        plurals: false,
        extensions: &["ini"],
    },
    FormatInfo {
        id: "gwt",
        name: "GWT properties",
        linguality: Linguality::Monolingual,
        plurals: true,
        extensions: &["properties"],
    },
    FormatInfo {
        id: "php",
        name: "PHP strings",
        linguality: Linguality::Monolingual,
        plurals: false,
        extensions: &["php"],
    },
    FormatInfo {
        id: "laravel",
        name: "Laravel PHP strings",
        linguality: Linguality::Monolingual,
        plurals: true,
        extensions: &["php"],
    },
    FormatInfo {
        id: "resx",
        name: ".NET resource file",
        linguality: Linguality::Monolingual,
        plurals: false,
        extensions: &["resx"],
    },
    FormatInfo {
        id: "aresource",
        name: "Android String Resource",
        linguality: Linguality::Monolingual,
        plurals: true,
        extensions: &["xml"],
    },
    FormatInfo {
        id: "moko-resource",
        name: "Mobile Kotlin Resource",
        linguality: Linguality::Monolingual,
        plurals: true,
        extensions: &["xml"],
    },
    FormatInfo {
        id: "cmp-resource",
        name: "Compose Multiplatform Resource",
        linguality: Linguality::Monolingual,
        plurals: true,
        extensions: &["xml"],
    },
    FormatInfo {
        id: "json",
        name: "JSON file",
        linguality: Linguality::Both,
        plurals: false,
        extensions: &["json"],
    },
    FormatInfo {
        id: "json-nested",
        name: "JSON nested structure file",
        linguality: Linguality::Both,
        plurals: false,
        extensions: &["json"],
    },
    FormatInfo {
        id: "webextension",
        name: "WebExtension JSON file",
        linguality: Linguality::Monolingual,
        plurals: true,
        extensions: &["json"],
    },
    FormatInfo {
        id: "i18next",
        name: "i18next JSON file v3",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["json"],
    },
    FormatInfo {
        id: "i18nextv4",
        name: "i18next JSON file v4",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["json"],
    },
    FormatInfo {
        id: "catkeys",
        name: "Haiku catkeys",
        linguality: Linguality::Bilingual,
        plurals: false,
        extensions: &["catkeys"],
    },
    FormatInfo {
        id: "go-i18n-json",
        name: "go-i18n v1 JSON file",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["json"],
    },
    FormatInfo {
        id: "go-i18n-json-v2",
        name: "go-i18n v2 JSON file",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["json"],
    },
    FormatInfo {
        id: "gotext",
        name: "gotext JSON file",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["json"],
    },
    FormatInfo {
        id: "arb",
        name: "ARB file",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["arb"],
    },
    FormatInfo {
        id: "formatjs",
        name: "Format.JS JSON file",
        linguality: Linguality::Both,
        plurals: false,
        extensions: &["json"],
    },
    FormatInfo {
        id: "csv",
        name: "CSV file",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["csv", "txt"],
    },
    FormatInfo {
        id: "csv-simple",
        name: "Simple CSV file",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["csv", "txt"],
    },
    FormatInfo {
        id: "csv-multi",
        name: "Multivalue CSV file",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["csv"],
    },
    FormatInfo {
        id: "yaml",
        name: "YAML file",
        linguality: Linguality::Both,
        plurals: false,
        extensions: &["yaml", "yml", "pyml"],
    },
    FormatInfo {
        id: "ruby-yaml",
        name: "Ruby YAML file",
        linguality: Linguality::Monolingual,
        plurals: true,
        extensions: &["yaml", "yml", "ryml"],
    },
    FormatInfo {
        id: "srt",
        name: "SubRip subtitle file",
        linguality: Linguality::Monolingual,
        plurals: false,
        extensions: &["srt"],
    },
    FormatInfo {
        id: "sub",
        name: "MicroDVD subtitle file",
        linguality: Linguality::Monolingual,
        plurals: false,
        extensions: &["sub"],
    },
    FormatInfo {
        id: "ass",
        name: "Advanced SubStation Alpha subtitle file",
        linguality: Linguality::Monolingual,
        plurals: false,
        extensions: &["ass"],
    },
    FormatInfo {
        id: "ssa",
        name: "SubStation Alpha subtitle file",
        linguality: Linguality::Monolingual,
        plurals: false,
        extensions: &["ssa"],
    },
    FormatInfo {
        id: "dtd",
        name: "DTD file",
        linguality: Linguality::Monolingual,
        plurals: false,
        extensions: &["dtd"],
    },
    FormatInfo {
        id: "flatxml",
        name: "Flat XML file",
        linguality: Linguality::Monolingual,
        plurals: false,
        extensions: &["xml"],
    },
    FormatInfo {
        id: "resourcedictionary",
        name: "ResourceDictionary file",
        linguality: Linguality::Monolingual,
        plurals: false,
        extensions: &["xaml"],
    },
    FormatInfo {
        id: "ini",
        name: "INI file",
        linguality: Linguality::Monolingual,
        plurals: false,
        extensions: &["ini"],
    },
    FormatInfo {
        id: "islu",
        name: "Inno Setup INI file",
        linguality: Linguality::Monolingual,
        plurals: false,
        extensions: &["islu"],
    },
    FormatInfo {
        id: "mi18n-lang",
        name: "@draggable/i18n lang file",
        linguality: Linguality::Monolingual,
        plurals: false,
        extensions: &["properties"],
    },
    FormatInfo {
        id: "xlsx",
        name: "Excel Open XML",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["xlsx"],
    },
    FormatInfo {
        id: "appstore",
        name: "App store metadata files",
        linguality: Linguality::Monolingual,
        plurals: false,
        extensions: &["txt"],
    },
    FormatInfo {
        id: "html",
        name: "HTML file",
        linguality: Linguality::Document,
        plurals: false,
        extensions: &["html", "htm"],
    },
    FormatInfo {
        id: "idml",
        name: "IDML file",
        linguality: Linguality::Document,
        plurals: false,
        extensions: &["idml", "idms"],
    },
    FormatInfo {
        id: "odf",
        name: "OpenDocument file",
        linguality: Linguality::Document,
        plurals: false,
        extensions: &["odt", "ods", "odp"],
    },
    FormatInfo {
        id: "txt",
        name: "Plain text file",
        linguality: Linguality::Document,
        plurals: false,
        extensions: &["txt"],
    },
    FormatInfo {
        id: "dokuwiki",
        name: "DokuWiki text file",
        linguality: Linguality::Document,
        plurals: false,
        extensions: &["dw"],
    },
    FormatInfo {
        id: "markdown",
        name: "Markdown file",
        linguality: Linguality::Document,
        plurals: false,
        extensions: &["md", "markdown"],
    },
    FormatInfo {
        id: "mdx",
        name: "MDX file",
        linguality: Linguality::Document,
        plurals: false,
        extensions: &["mdx"],
    },
    FormatInfo {
        id: "mediawiki",
        name: "MediaWiki text file",
        linguality: Linguality::Document,
        plurals: false,
        extensions: &["mw"],
    },
    FormatInfo {
        id: "rc",
        name: "RC file",
        linguality: Linguality::Document,
        plurals: false,
        extensions: &["rc"],
    },
    FormatInfo {
        id: "asciidoc",
        name: "AsciiDoc file",
        linguality: Linguality::Document,
        plurals: false,
        extensions: &["adoc", "asciidoc", "ad"],
    },
    FormatInfo {
        id: "wxl",
        name: "WixLocalization file",
        linguality: Linguality::Document,
        plurals: false,
        extensions: &["wxl"],
    },
    FormatInfo {
        id: "xwiki-java-properties",
        name: "XWiki Java Properties",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["properties"],
    },
    FormatInfo {
        id: "xwiki-page-properties",
        name: "XWiki Page Properties",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["xml"],
    },
    FormatInfo {
        id: "xwiki-fullpage",
        name: "XWiki Full Page",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["xml"],
    },
    FormatInfo {
        id: "tbx",
        name: "TermBase eXchange file",
        linguality: Linguality::Bilingual,
        plurals: false,
        extensions: &["tbx"],
    },
    FormatInfo {
        id: "stringsdict",
        name: "Stringsdict file",
        linguality: Linguality::Both,
        plurals: true,
        extensions: &["stringsdict"],
    },
    FormatInfo {
        id: "fluent",
        name: "Fluent file",
        linguality: Linguality::Monolingual,
        plurals: false,
        extensions: &["ftl"],
    },
    FormatInfo {
        id: "go-i18n-toml",
        name: "go-i18n TOML file",
        linguality: Linguality::Monolingual,
        plurals: true,
        extensions: &["toml"],
    },
    FormatInfo {
        id: "toml",
        name: "TOML file",
        linguality: Linguality::Monolingual,
        plurals: false,
        extensions: &["toml"],
    },
    FormatInfo {
        id: "resjson",
        name: "RESJSON file",
        linguality: Linguality::Bilingual,
        plurals: false,
        extensions: &["json"],
    },
    FormatInfo {
        id: "nextcloud-json",
        name: "Nextcloud JSON file",
        linguality: Linguality::Bilingual,
        plurals: true,
        extensions: &["json"],
    },
];

/// The format a file of `format` (chosen by its name) is read in once its
/// content is seen: an XLIFF file says its version in its namespace, so a
/// `.xlf` file of XLIFF 2 reads as `xliff2` and one of XLIFF 1 as `xliff`.
pub fn by_content(format: &'static str, bytes: &[u8]) -> &'static str {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(2048)]);
    let xliff2 = head.contains("urn:oasis:names:tc:xliff:document:2.");
    match format {
        "xliff" | "plainxliff" if xliff2 => "xliff2",
        "xliff2" | "xliff2-placeables" if head.contains("urn:oasis:names:tc:xliff:document:1.") => {
            "xliff"
        }
        other => other,
    }
}

/// Looks up a format by its id.
pub fn find(id: &str) -> Option<&'static FormatInfo> {
    FORMATS.iter().find(|f| f.id == id)
}

/// Whether `id` is a document format (HTML, Markdown, …): a whole
/// document split into strings.
pub fn is_document(id: &str) -> bool {
    find(id).is_some_and(|f| f.is_document())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_found() {
        let mut ids: Vec<&str> = FORMATS.iter().map(|f| f.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), FORMATS.len());
        let two = br#"<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0">"#;
        let one = br#"<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">"#;
        assert_eq!(by_content("xliff", two), "xliff2");
        assert_eq!(by_content("xliff2", one), "xliff");
        assert_eq!(by_content("xliff", one), "xliff");
        assert_eq!(by_content("po", two), "po");
        assert_eq!(
            find("po").map(|f| f.linguality),
            Some(Linguality::Bilingual)
        );
        assert!(find("aresource").is_some_and(|f| f.plurals && f.needs_template()));
        assert!(find("json").is_some_and(|f| !f.needs_template()));
        assert_eq!(find("nope"), None);
    }
}
