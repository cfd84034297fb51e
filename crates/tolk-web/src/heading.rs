//! What the pages of one translation (the editor, the list view) show
//! above their strings: the names of the project, component and language,
//! the way back up to each, and the language tags and directions of the
//! source and translation texts.

use tolk_domain::language::html_lang;
use tolk_service::translations::TranslationView;

use crate::paths::TranslationPath;

/// The heading of a translation's pages.
#[derive(Debug, Clone)]
pub struct Heading {
    /// The project's name.
    pub project: String,
    /// The component's name.
    pub component: String,
    /// The language's name.
    pub language: String,
    /// The translation's language tag.
    pub code: String,
    /// Its direction (`ltr`, `rtl`).
    pub direction: String,
    /// The source language's tag.
    pub source_code: String,
    /// The source language's direction.
    pub source_direction: String,
    /// The project's page.
    pub project_href: String,
    /// The component's page.
    pub component_href: String,
    /// The translation's page.
    pub translation_href: String,
}

impl Heading {
    /// The heading of `translation`, at `path`.
    pub fn of(translation: &TranslationView, path: &TranslationPath) -> Heading {
        let component = &translation.component;
        let (language, source) = (&translation.language.row, &component.source_language.row);
        Heading {
            project: component.project.settings.name.clone(),
            component: component.component.settings.name.clone(),
            language: language.name.clone(),
            code: html_lang(&language.code),
            direction: language.direction.clone(),
            source_code: html_lang(&source.code),
            source_direction: source.direction.clone(),
            project_href: format!("/projects/{}/", path.project),
            component_href: path.component_page(),
            translation_href: path.page(),
        }
    }
}
