//! Notifications from Git hosts (§26).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A Git host's event as JSON: its own keys, which differ by service
/// (§26.4: `repository`, `ref`, `project`, `msg`, `resource`, `push`, …).
pub struct HookPayload;

impl utoipa::PartialSchema for HookPayload {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, Type};
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some(
                "The event as the Git host sends it; which keys are read depends on the service.",
            ))
            .min_properties(Some(1))
            .additional_properties(Some(AdditionalProperties::FreeForm(true)))
            .into()
    }
}

impl ToSchema for HookPayload {}

/// A Git host's event as a form: the JSON text in `payload`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
pub struct HookForm {
    /// The event as JSON text.
    pub payload: String,
}

/// How many components a notification matched at each stage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct MatchStatus {
    /// Components whose repository the push names.
    pub repository_matches: usize,
    /// Of those, the ones on the pushed branch.
    pub branch_matches: usize,
    /// Of those, the ones whose project takes notifications.
    pub enabled_hook_matches: usize,
}

/// What a notification did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct HookAnswer {
    /// What happened, in words.
    pub message: String,
    /// `success` or `failure`.
    pub status: String,
    /// The matches, for a push.
    pub match_status: Option<MatchStatus>,
    /// API links of the components updated.
    pub updated_components: Option<Vec<String>>,
}
