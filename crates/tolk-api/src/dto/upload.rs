//! The body and answer of a translation file upload (§9.7).

use serde::{Deserialize, Serialize};
use tolk_domain::upload::{Conflicts, FuzzyStrings, UploadMethod};
use tolk_service::file_upload::UploadReport;
use utoipa::ToSchema;

/// The fields of an upload besides the file.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct UploadOptions {
    /// What to do with the file's strings (`translate` when absent).
    pub method: Option<UploadMethod>,
    /// Which translations it may overwrite.
    pub conflicts: Option<Conflicts>,
    /// Older clients' way to ask for `conflicts=replace-translated`.
    pub overwrite: Option<bool>,
    /// What becomes of strings needing editing.
    pub fuzzy: Option<FuzzyStrings>,
    /// Author to credit (needs `upload.authorship`; accepted, not used yet).
    #[schema(max_length = 200)]
    pub author_name: Option<String>,
    /// The author's e-mail (as `author_name`).
    #[schema(max_length = 200)]
    pub author_email: Option<String>,
}

impl UploadOptions {
    /// The options as the service takes them: `overwrite` stands for
    /// `conflicts=replace-translated` when `conflicts` is not given.
    pub fn parts(&self) -> (UploadMethod, Conflicts, FuzzyStrings) {
        let conflicts = match (self.conflicts, self.overwrite) {
            (None, Some(true)) => Conflicts::ReplaceTranslated,
            (conflicts, _) => conflicts.unwrap_or_default(),
        };
        (
            self.method.unwrap_or_default(),
            conflicts,
            self.fuzzy.unwrap_or_default(),
        )
    }
}

/// An upload of a translation file (multipart).
#[derive(ToSchema)]
pub struct TranslationUpload {
    /// The file, in any format Tolk reads (named by its extension).
    pub file: crate::schemas::FileBytes,
    /// What to do with it.
    #[serde(flatten)]
    pub options: UploadOptions,
}

/// A string of the file that changed nothing (a Tolk extension).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct UploadIssueDto {
    /// Its key: context, else source text.
    pub key: String,
    /// `not_found` or `skipped`.
    pub result: String,
    /// Why.
    pub reason: String,
}

/// What an upload did (Weblate's counts; `issues` is a Tolk extension).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct UploadResultDto {
    /// Strings of the file the translation does not have.
    pub not_found: usize,
    /// Strings of the file left as they were.
    pub skipped: usize,
    /// Strings taken.
    pub accepted: usize,
    /// Translatable strings in the file.
    pub total: usize,
    /// Whether any string was taken.
    pub result: bool,
    /// `total`, for older clients.
    pub count: usize,
    /// Each string not found or skipped, and why.
    pub issues: Vec<UploadIssueDto>,
}

impl From<UploadReport> for UploadResultDto {
    fn from(report: UploadReport) -> Self {
        UploadResultDto {
            not_found: report.not_found,
            skipped: report.skipped,
            accepted: report.accepted,
            total: report.total,
            result: report.accepted > 0,
            count: report.total,
            issues: report
                .issues
                .into_iter()
                .map(|issue| UploadIssueDto {
                    key: issue.key,
                    result: if issue.not_found {
                        "not_found"
                    } else {
                        "skipped"
                    }
                    .into(),
                    reason: issue.reason,
                })
                .collect(),
        }
    }
}
