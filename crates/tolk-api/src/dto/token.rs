//! API tokens: project tokens and one's own personal token.

use serde::{Deserialize, Serialize};
use tolk_domain::time::UtcTime;
use tolk_service::ProjectToken;
use utoipa::ToSchema;

use crate::links::{Links, timestamp};

/// A project token as its project's managers see it (never its key).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ProjectTokenDto {
    /// Id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// The bot account acting with it (API link).
    pub user: String,
    /// The bot's username.
    pub username: String,
    /// Whether it still works (revoked tokens are gone).
    pub is_active: bool,
    /// When it was made.
    pub created: String,
    /// When it stops working, or null.
    pub expires: Option<String>,
}

impl ProjectTokenDto {
    /// The token as the API shows it.
    pub fn new(token: &ProjectToken, links: &Links) -> ProjectTokenDto {
        ProjectTokenDto {
            id: token.id,
            name: token.user.full_name.clone(),
            user: links.api(&["users", &token.user.username]),
            username: token.user.username.clone(),
            is_active: token.user.is_active,
            created: timestamp(token.created),
            expires: token.expires.map(timestamp),
        }
    }
}

/// A new project token: what it is, and its key, shown only this once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ProjectTokenCreated {
    /// The token.
    #[serde(flatten)]
    pub token: ProjectTokenDto,
    /// The key (`wlp_…`) to send as `Authorization: Token …`.
    pub token_key: String,
}

/// Makes a project token.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
pub struct ProjectTokenCreate {
    /// Its name.
    #[schema(min_length = 1, max_length = 150, pattern = r"\S")]
    pub name: String,
    /// The project team its bot joins (default: the project's `Administration`).
    pub team_id: Option<i64>,
    /// When it stops working.
    pub expires: Option<UtcTime>,
}

/// A new personal token, shown only this once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct TokenKey {
    /// The key (`wlu_…`).
    pub token: String,
}
