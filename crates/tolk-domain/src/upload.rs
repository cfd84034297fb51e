//! What a translation file upload asks for (Weblate's `method`,
//! `conflicts` and `fuzzy`), as the API reads it and the use-case follows it.

use serde::Deserialize;

/// How an upload treats the file's strings (`method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum UploadMethod {
    /// Translations, as translated.
    #[default]
    Translate,
    /// Translations, as approved (needs `unit.review`).
    Approve,
    /// Suggestions for the strings.
    Suggest,
    /// Translations, as needing editing.
    Fuzzy,
    /// The file replaces the translation's file (not taken yet).
    Replace,
    /// A new source file (not taken yet).
    Source,
    /// New strings, besides translations of the known ones.
    Add,
}

impl UploadMethod {
    /// The name the API gives the method.
    pub fn name(self) -> &'static str {
        match self {
            UploadMethod::Translate => "translate",
            UploadMethod::Approve => "approve",
            UploadMethod::Suggest => "suggest",
            UploadMethod::Fuzzy => "fuzzy",
            UploadMethod::Replace => "replace",
            UploadMethod::Source => "source",
            UploadMethod::Add => "add",
        }
    }
}

/// Which translated strings an upload may overwrite (`conflicts`; empty
/// is `ignore`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Conflicts {
    /// Only untranslated strings change.
    #[default]
    #[serde(alias = "")]
    Ignore,
    /// Translated strings change too, approved ones do not (needs
    /// `upload.overwrite`).
    ReplaceTranslated,
    /// Approved strings change too (also needs `unit.review`).
    ReplaceApproved,
}

/// What becomes of the file's strings that need editing (`fuzzy`; empty
/// leaves them out).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum FuzzyStrings {
    /// They are left out.
    #[default]
    #[serde(rename = "")]
    Skip,
    /// They are imported as needing editing.
    Process,
    /// They are imported as translated.
    Approve,
}
