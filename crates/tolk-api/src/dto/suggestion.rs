//! Suggestions (§11.1) and comments (§10.4).

use serde::{Deserialize, Serialize};
use tolk_domain::unit::split_plurals;
use tolk_service::{Comment, Suggestion};
use utoipa::ToSchema;

use crate::links::{Links, timestamp};

/// A suggestion (§11.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct SuggestionDto {
    /// Id.
    pub id: i64,
    /// API link of its unit.
    pub unit: String,
    /// The proposed translation, one entry per plural form.
    pub target: Vec<String>,
    /// API link of its author; null for anonymous suggestions.
    pub user: Option<String>,
    /// When it was made.
    #[schema(format = DateTime)]
    pub timestamp: String,
    /// Net votes: the sum of the +1 and -1 votes.
    pub votes: i64,
}

impl SuggestionDto {
    /// Serialises a suggestion.
    pub fn new(s: Suggestion, links: &Links) -> Self {
        Self {
            id: s.id,
            unit: links.api(&["units", &s.unit_id.to_string()]),
            target: split_plurals(&s.target),
            user: s.username.map(|u| links.api(&["users", &u])),
            timestamp: timestamp(s.created),
            votes: s.votes,
        }
    }
}

/// What `POST /api/units/{id}/suggestions/` takes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct SuggestionCreate {
    /// The proposed translation, one entry per plural form.
    pub target: Vec<String>,
}

/// What `POST /api/suggestions/{id}/accept/` takes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct SuggestionAccept {
    /// Approve the translation as well (needs `unit.review`).
    #[serde(default)]
    pub approve: bool,
}

/// What `POST /api/suggestions/{id}/vote/` takes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct SuggestionVote {
    /// `1` for, `-1` against.
    pub value: i32,
}

/// What a vote answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct SuggestionVoted {
    /// `voted`, or `accepted` when the votes reached the component's
    /// `suggestion_autoaccept`.
    pub result: String,
    /// The suggestion with its votes; null once accepted.
    pub suggestion: Option<SuggestionDto>,
}

impl SuggestionVoted {
    /// The answer for a suggestion after a vote, or `None` once accepted.
    pub fn new(voted: Option<Suggestion>, links: &Links) -> SuggestionVoted {
        match voted {
            Some(s) => SuggestionVoted {
                result: "voted".into(),
                suggestion: Some(SuggestionDto::new(s, links)),
            },
            None => SuggestionVoted {
                result: "accepted".into(),
                suggestion: None,
            },
        }
    }
}

/// What accepting a suggestion answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct SuggestionAccepted {
    /// `accepted`.
    pub result: String,
}

/// A comment (§10.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct CommentDto {
    /// The text (Markdown).
    pub comment: String,
    /// When it was made.
    #[schema(format = DateTime)]
    pub timestamp: String,
    /// Id.
    pub id: i64,
    /// API link of its author; null for a removed account.
    pub user: Option<String>,
}

impl CommentDto {
    /// Serialises a comment.
    pub fn new(c: Comment, links: &Links) -> Self {
        Self {
            comment: c.comment,
            timestamp: timestamp(c.created),
            id: c.id,
            user: c.username.map(|u| links.api(&["users", &u])),
        }
    }
}

/// What `POST /api/units/{id}/comments/` takes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct CommentCreate {
    /// `global` (the string, every translation), `translation` (this
    /// unit) or `report` (a problem of the source string).
    pub scope: String,
    /// The text (Markdown, at most 1,000 characters).
    pub comment: String,
}
