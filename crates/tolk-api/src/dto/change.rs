//! Changes.

use serde::Serialize;
use serde_json::Value;
use tolk_domain::change::Action;
use tolk_service::{ChangeLinks, ChangeRow};
use utoipa::ToSchema;

use crate::links::{Links, nested, timestamp};

/// One recorded change.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct ChangeDto {
    /// The string concerned (API link), or null.
    pub unit: Option<String>,
    /// The component concerned (API link), or null.
    pub component: Option<String>,
    /// The translation concerned (API link), or null.
    pub translation: Option<String>,
    /// The add-on concerned (API link), or null.
    pub addon: Option<String>,
    /// Who acted (API link), or null.
    pub user: Option<String>,
    /// Whose content it is (API link), or null.
    pub author: Option<String>,
    /// The alert concerned, or null.
    #[schema(value_type = Option<Object>)]
    pub alert: Option<Value>,
    /// When it happened.
    #[schema(format = DateTime)]
    pub timestamp: String,
    /// Action code.
    pub action: i32,
    /// New value or related text.
    pub target: String,
    /// Previous value.
    pub old: String,
    /// Action-specific details.
    #[schema(value_type = Object)]
    pub details: Value,
    /// Id.
    pub id: i64,
    /// The action's label.
    pub action_name: String,
    /// API link.
    pub url: String,
}

impl ChangeDto {
    /// Serialises a change with the paths its links need.
    pub fn new(row: ChangeRow, refs: &ChangeLinks, links: &Links) -> Self {
        let user = |id: Option<i64>| {
            id.and_then(|id| refs.users.get(&id))
                .map(|name| links.api(&["users", name]))
        };
        Self {
            unit: row.unit_id.map(|id| links.api(&["units", &id.to_string()])),
            component: row
                .component_id
                .and_then(|id| refs.components.get(&id))
                .map(|(p, c)| links.api(&["components", p, &nested(c)])),
            translation: row
                .translation_id
                .and_then(|id| refs.translations.get(&id))
                .map(|(p, c, l)| links.api(&["translations", p, &nested(c), l])),
            addon: row
                .addon_id
                .map(|id| links.api(&["addons", &id.to_string()])),
            user: user(row.user_id),
            author: user(row.author_id),
            alert: None,
            timestamp: timestamp(row.created),
            action: row.action,
            target: row.target,
            old: row.old,
            details: serde_json::from_str(&row.details)
                .unwrap_or_else(|_| Value::Object(Default::default())),
            id: row.id,
            action_name: Action(row.action).label().to_owned(),
            url: links.api(&["changes", &row.id.to_string()]),
        }
    }
}
