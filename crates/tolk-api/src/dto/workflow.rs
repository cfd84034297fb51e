//! Workflow settings of a project's language.

use serde::{Deserialize, Serialize};
use tolk_domain::workflow::Workflow;
use utoipa::ToSchema;

/// A language's workflow settings in a project, in Weblate's key order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct WorkflowDto {
    /// The language's code.
    pub language: String,
    /// The language translators read beside the source, or null.
    pub source_language: Option<String>,
    /// Approved state and reviewers, in place of the project's setting.
    pub translation_review: bool,
    /// Suggestions allowed, in place of the components' setting.
    pub enable_suggestions: bool,
    /// Only those who may override suggestions edit directly.
    pub restrict_direct_editing: bool,
    /// Votes on suggestions, in place of the components' setting.
    pub suggestion_voting: bool,
    /// Votes that accept a suggestion (0: off), in place of the components' setting.
    pub suggestion_autoaccept: i32,
}

impl WorkflowDto {
    /// The settings `workflow` of the language `language`.
    pub fn new(language: String, workflow: Workflow) -> Self {
        Self {
            language,
            source_language: workflow.source_language,
            translation_review: workflow.translation_review,
            enable_suggestions: workflow.enable_suggestions,
            restrict_direct_editing: workflow.restrict_direct_editing,
            suggestion_voting: workflow.suggestion_voting,
            suggestion_autoaccept: workflow.suggestion_autoaccept,
        }
    }
}

/// What `PATCH …/workflow/` takes: the settings to change; a language
/// without settings starts from the defaults with the project's review.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct WorkflowPatch {
    /// A language code, or null.
    pub source_language: Option<Option<String>>,
    /// Approved state and reviewers.
    pub translation_review: Option<bool>,
    /// Suggestions allowed.
    pub enable_suggestions: Option<bool>,
    /// Only those who may override suggestions edit directly.
    pub restrict_direct_editing: Option<bool>,
    /// Votes on suggestions.
    pub suggestion_voting: Option<bool>,
    /// Votes that accept a suggestion, 0 to 32767 (0: off).
    #[schema(minimum = 0, maximum = 32767)]
    pub suggestion_autoaccept: Option<i32>,
}

impl WorkflowPatch {
    /// `workflow` with the given settings changed.
    pub fn apply(self, workflow: Workflow) -> Workflow {
        Workflow {
            source_language: self.source_language.unwrap_or(workflow.source_language),
            translation_review: self
                .translation_review
                .unwrap_or(workflow.translation_review),
            enable_suggestions: self
                .enable_suggestions
                .unwrap_or(workflow.enable_suggestions),
            restrict_direct_editing: self
                .restrict_direct_editing
                .unwrap_or(workflow.restrict_direct_editing),
            suggestion_voting: self.suggestion_voting.unwrap_or(workflow.suggestion_voting),
            suggestion_autoaccept: self
                .suggestion_autoaccept
                .unwrap_or(workflow.suggestion_autoaccept),
        }
    }
}
