//! Announcements (§17.2).

use serde::{Deserialize, Serialize};
use tolk_service::Announcement;
use utoipa::ToSchema;

/// An announcement, as Weblate shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct AnnouncementDto {
    /// Id.
    pub id: i64,
    /// The message, in Markdown.
    pub message: String,
    /// `info`, `warning`, `danger` or `success`: the colour it is shown in.
    pub severity: String,
    /// The last day it is shown (`YYYY-MM-DD`), or null.
    #[schema(format = Date)]
    pub expiry: Option<String>,
    /// Whether subscribers were to be told.
    pub notify: bool,
}

impl From<&Announcement> for AnnouncementDto {
    fn from(a: &Announcement) -> Self {
        Self {
            id: a.id,
            message: a.message.clone(),
            severity: a.severity.clone(),
            expiry: a.expiry.map(|d| d.format("%Y-%m-%d").to_string()),
            notify: a.notify,
        }
    }
}

/// What `POST …/announcements/` takes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct AnnouncementCreate {
    /// The message, in Markdown (at most 10,000 characters).
    pub message: String,
    /// `info` (the default), `warning`, `danger` or `success`.
    #[serde(default)]
    pub severity: Option<String>,
    /// The last day it is shown (`YYYY-MM-DD`).
    #[serde(default)]
    #[schema(format = Date)]
    pub expiry: Option<String>,
    /// Tell subscribers (Tolk sends no mail; kept for Weblate's clients).
    #[serde(default)]
    pub notify: bool,
}
