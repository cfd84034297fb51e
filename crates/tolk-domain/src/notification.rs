//! Notification subscriptions (§29.11): which notification a user gets,
//! for what scope, how often.

use crate::validation::FieldErrors;

/// Weblate's notification names (with its spelling).
pub const NAMES: [&str; 23] = [
    "RepositoryNotification",
    "LockNotification",
    "LicenseNotification",
    "ParseErrorNotification",
    "NewStringNotificaton",
    "TranslationActivitySummaryNotification",
    "NewContributorNotificaton",
    "NewSuggestionNotificaton",
    "LanguageTranslatedNotificaton",
    "ComponentTranslatedNotificaton",
    "NewCommentNotificaton",
    "MentionCommentNotificaton",
    "LastAuthorCommentNotificaton",
    "TranslatedStringNotificaton",
    "ApprovedStringNotificaton",
    "ChangedStringNotificaton",
    "NewTranslationNotificaton",
    "NewComponentNotificaton",
    "NewAnnouncementNotificaton",
    "NewAlertNotificaton",
    "MergeFailureNotification",
    "PendingSuggestionsNotification",
    "ToDoStringsNotification",
];

/// Notifications that summarise, so they cannot be instant.
const SUMMARIES: [&str; 3] = [
    "TranslationActivitySummaryNotification",
    "PendingSuggestionsNotification",
    "ToDoStringsNotification",
];

/// Scopes a subscription may have over the API: all, watched projects,
/// administered projects. (Project and component scopes need a project or
/// component, which the API cannot set.)
pub const SCOPES: [i32; 3] = [0, 10, 20];

/// Frequencies: none, instant, daily, weekly, monthly.
pub const FREQUENCIES: [i32; 5] = [0, 1, 2, 3, 4];

/// The instant frequency.
const INSTANT: i32 = 1;

/// A subscription's fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    /// Notification name.
    pub notification: String,
    /// Scope code.
    pub scope: i32,
    /// Frequency code.
    pub frequency: i32,
}

/// A request body creating or replacing a subscription.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SubscriptionCreate {
    /// Notification name (§29.11), e.g. `NewSuggestionNotificaton`.
    pub notification: String,
    /// 0 all, 10 watched projects, 20 administered projects.
    pub scope: i32,
    /// 0 none, 1 instant, 2 daily, 3 weekly, 4 monthly.
    pub frequency: i32,
}

/// A request body changing some of a subscription's fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SubscriptionPatch {
    /// Notification name.
    pub notification: Option<String>,
    /// Scope code.
    pub scope: Option<i32>,
    /// Frequency code.
    pub frequency: Option<i32>,
}

impl From<SubscriptionCreate> for SubscriptionPatch {
    fn from(create: SubscriptionCreate) -> Self {
        SubscriptionPatch {
            notification: Some(create.notification),
            scope: Some(create.scope),
            frequency: Some(create.frequency),
        }
    }
}

impl SubscriptionPatch {
    /// `current` with the given fields over it.
    pub fn apply(self, current: &Subscription) -> Subscription {
        Subscription {
            notification: self
                .notification
                .unwrap_or_else(|| current.notification.clone()),
            scope: self.scope.unwrap_or(current.scope),
            frequency: self.frequency.unwrap_or(current.frequency),
        }
    }
}

impl Subscription {
    /// Checks every field.
    pub fn validate(&self) -> FieldErrors {
        let mut errors = FieldErrors::default();
        if !NAMES.contains(&self.notification.as_str()) {
            errors.invalid_choice("notification", &self.notification);
        }
        if !SCOPES.contains(&self.scope) {
            errors.invalid_choice("scope", &self.scope.to_string());
        }
        if !FREQUENCIES.contains(&self.frequency) {
            errors.invalid_choice("frequency", &self.frequency.to_string());
        } else if self.frequency == INSTANT && SUMMARIES.contains(&self.notification.as_str()) {
            errors.invalid("frequency", "This notification can not be sent instantly.");
        }
        errors
    }
}
