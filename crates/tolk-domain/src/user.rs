//! User accounts: identity fields, profile preferences and their rules.

use serde::{Deserialize, Serialize};

use crate::validation::{FieldErrors, check_email, check_length, check_text};

/// Username of the built-in account that stands for anonymous callers.
pub const ANONYMOUS_USERNAME: &str = "anonymous";

/// Longest username and full name.
pub const NAME_MAX: usize = 150;

/// Identity fields of an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserFields {
    /// Login name, unique.
    pub username: String,
    /// Display name.
    pub full_name: String,
    /// Primary e-mail address.
    pub email: String,
    /// Passes every permission check.
    pub is_superuser: bool,
    /// May sign in.
    pub is_active: bool,
    /// A bot account (project tokens).
    pub is_bot: bool,
    /// When the account expires.
    pub date_expires: Option<chrono::NaiveDateTime>,
}

impl UserFields {
    /// Checks the identity fields; uniqueness is checked by the caller.
    pub fn validate(&self) -> FieldErrors {
        let mut errors = FieldErrors::default();
        check_username(&self.username, &mut errors);
        check_text(&self.full_name, "full_name", NAME_MAX, &mut errors);
        if self.full_name.chars().any(char::is_control) {
            errors.invalid(
                "full_name",
                "Please avoid using special characters in the full name.",
            );
        }
        check_email(&self.email, "email", &mut errors);
        errors
    }
}

/// Usernames: letters, digits and `@ . + - _`, at most 150 characters.
fn check_username(username: &str, errors: &mut FieldErrors) {
    if username.is_empty() {
        errors.blank("username");
    } else if !username
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '@' | '.' | '+' | '-' | '_'))
    {
        errors.invalid(
            "username",
            "Username may only contain letters, numbers or the following characters: @ . + - _",
        );
    } else {
        check_length(username, "username", NAME_MAX, errors);
    }
}

/// Interface preferences kept for API compatibility (§3.2). Tolk itself has
/// no web interface; clients may still store and read these values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProfileSettings {
    /// Interface language code.
    pub language: String,
    /// `auto`, `light` or `dark`.
    pub theme: String,
    /// Hide completed translations on the dashboard.
    pub hide_completed: bool,
    /// Show secondary translations in zen mode.
    pub secondary_in_zen: bool,
    /// Hide the source if a secondary translation exists.
    pub hide_source_secondary: bool,
    /// Use the full width of the screen for tables.
    pub wide_tables: bool,
    /// Columns shown in listings.
    pub listing_columns: Vec<String>,
    /// Editor link template.
    pub editor_link: String,
    /// 0 full editor, 1 zen.
    pub translate_mode: i64,
    /// 0 vertical, 1 horizontal.
    pub zen_mode: i64,
    /// Extra characters offered by the editor.
    pub special_chars: String,
    /// Number of nearby strings shown.
    pub nearby_strings: i64,
    /// Watch projects the user contributes to.
    pub auto_watch: bool,
    /// Contribute to the personal translation memory.
    pub contribute_personal_tm: bool,
    /// Default dashboard view.
    pub dashboard_view: i64,
    /// Website.
    pub website: String,
    /// Contact.
    pub contact: String,
    /// Liberapay username.
    pub liberapay: String,
    /// Fediverse address.
    pub fediverse: String,
    /// Code site.
    pub codesite: String,
    /// GitHub username.
    pub github: String,
    /// Twitter username.
    pub twitter: String,
    /// LinkedIn profile.
    pub linkedin: String,
    /// Location.
    pub location: String,
    /// Company.
    pub company: String,
    /// Public e-mail.
    pub public_email: String,
    /// E-mail used in commits.
    pub commit_email: String,
    /// 0 default, 1 public, 2 private name in commits.
    pub commit_name: i64,
}

impl Default for ProfileSettings {
    fn default() -> Self {
        Self {
            language: String::new(),
            theme: "auto".into(),
            hide_completed: false,
            secondary_in_zen: true,
            hide_source_secondary: false,
            wide_tables: false,
            listing_columns: [
                "untranslated",
                "untranslated_words",
                "untranslated_chars",
                "nottranslated",
                "checks",
                "suggestions",
                "comments",
            ]
            .map(String::from)
            .to_vec(),
            editor_link: String::new(),
            translate_mode: 0,
            zen_mode: 0,
            special_chars: String::new(),
            nearby_strings: 15,
            auto_watch: true,
            contribute_personal_tm: true,
            dashboard_view: 1,
            website: String::new(),
            contact: String::new(),
            liberapay: String::new(),
            fediverse: String::new(),
            codesite: String::new(),
            github: String::new(),
            twitter: String::new(),
            linkedin: String::new(),
            location: String::new(),
            company: String::new(),
            public_email: String::new(),
            commit_email: String::new(),
            commit_name: 0,
        }
    }
}

impl ProfileSettings {
    /// Checks choice fields and ranges.
    pub fn validate(&self) -> FieldErrors {
        let mut errors = FieldErrors::default();
        let mut choice = |attr: &str, ok: bool, value: String| {
            if !ok {
                errors.invalid_choice(&format!("profile.{attr}"), &value);
            }
        };
        choice(
            "theme",
            ["auto", "light", "dark"].contains(&self.theme.as_str()),
            self.theme.clone(),
        );
        choice(
            "translate_mode",
            [0, 1].contains(&self.translate_mode),
            self.translate_mode.to_string(),
        );
        choice(
            "zen_mode",
            [0, 1].contains(&self.zen_mode),
            self.zen_mode.to_string(),
        );
        choice(
            "dashboard_view",
            [1, 4, 5, 6, 7].contains(&self.dashboard_view),
            self.dashboard_view.to_string(),
        );
        choice(
            "commit_name",
            [0, 1, 2].contains(&self.commit_name),
            self.commit_name.to_string(),
        );
        if !(0..=50).contains(&self.nearby_strings) {
            errors.push(
                "profile.nearby_strings",
                "invalid",
                "Ensure this value is between 0 and 50.",
            );
        }
        errors
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields() -> UserFields {
        UserFields {
            username: "jane.doe+l10n".into(),
            full_name: "Jane Doe".into(),
            email: "jane@example.com".into(),
            is_superuser: false,
            is_active: true,
            is_bot: false,
            date_expires: None,
        }
    }

    #[test]
    fn valid_user() {
        assert!(fields().validate().is_empty());
    }

    #[test]
    fn invalid_user_fields() {
        let user = UserFields {
            username: "jane doe".into(),
            full_name: "".into(),
            email: "jane".into(),
            ..fields()
        };
        let attrs: Vec<String> = user
            .validate()
            .into_iter()
            .map(|e| e.attr.unwrap())
            .collect();
        assert_eq!(attrs, vec!["username", "full_name", "email"]);
    }

    #[test]
    fn profile_defaults_and_choices() {
        let profile = ProfileSettings::default();
        assert!(profile.validate().is_empty());
        let json = serde_json::to_value(&profile).unwrap();
        assert_eq!(json["nearby_strings"], 15);
        let partial: ProfileSettings = serde_json::from_str(r#"{"theme":"dark"}"#).unwrap();
        assert_eq!(partial.theme, "dark");
        assert!(partial.auto_watch, "missing keys take defaults");
        let bad = ProfileSettings {
            theme: "pink".into(),
            dashboard_view: 2,
            ..ProfileSettings::default()
        };
        let attrs: Vec<String> = bad
            .validate()
            .into_iter()
            .map(|e| e.attr.unwrap())
            .collect();
        assert_eq!(attrs, vec!["profile.theme", "profile.dashboard_view"]);
    }
}
