//! The paths that name components and translations, read from the URL and
//! documented as parameters by one type each.

use serde::Deserialize;
use utoipa::IntoParams;

/// A component's place: `/…/{project}/{component}/…`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct ComponentPath {
    /// Project slug.
    pub project: String,
    /// Component slug.
    pub component: String,
}

/// A translation's place: `/…/{project}/{component}/{language}/…`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct TranslationPath {
    /// Project slug.
    pub project: String,
    /// Component slug.
    pub component: String,
    /// Language code.
    pub language: String,
}

impl TranslationPath {
    /// The three parts, as the use-cases take them.
    pub fn parts(&self) -> (&str, &str, &str) {
        (&self.project, &self.component, &self.language)
    }
}
