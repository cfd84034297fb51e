//! User accounts: identity fields, profile preferences and their rules.

use crate::settings::settings;
use crate::time::UtcTime;
use crate::validation::{FieldErrors, check_email, check_length, check_text};

/// Username of the built-in account that stands for anonymous callers.
pub const ANONYMOUS_USERNAME: &str = "anonymous";

/// Longest username and full name.
pub const NAME_MAX: usize = 150;

settings! {
    /// Identity fields of an account.
    pub struct UserFields {
        create: UserCreate,
        patch: UserPatch,
        required: {
            /// Login name, unique whatever its case.
            #[cfg_attr(feature = "openapi", schema(max_length = 150, pattern = r"^[\w.@+-]+$"))]
            username: String = String::new(),
            /// Display name.
            #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 150, pattern = r"\S"))]
            full_name: String = String::new(),
            /// Primary e-mail address, unique whatever its case.
            #[cfg_attr(feature = "openapi", schema(format = Email, max_length = 190))]
            email: String = String::new(),
        },
        optional: {
            /// Passes every permission check.
            is_superuser: bool = false,
            /// May sign in.
            is_active: bool = true,
            /// A bot account (project tokens).
            is_bot: bool = false,
            /// When the account expires.
            date_expires: Option<UtcTime> = None,
        },
        extra: {
            /// Profile preferences, languages and watched projects.
            profile: ProfilePatch,
        }
    }
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

settings! {
    /// Interface preferences kept for API compatibility (§3.2). Tolk itself has
    /// no web interface; clients may still store and read these values.
    pub struct ProfileSettings {
        create: ProfileCreate,
        patch: ProfilePatch,
        required: {},
        optional: {
            /// Interface language code.
            language: String = String::new(),
            /// `auto`, `light` or `dark`.
            theme: String = "auto".into(),
            /// Hide completed translations on the dashboard.
            hide_completed: bool = false,
            /// Show secondary translations in zen mode.
            secondary_in_zen: bool = true,
            /// Hide the source if a secondary translation exists.
            hide_source_secondary: bool = false,
            /// Use the full width of the screen for tables.
            wide_tables: bool = false,
            /// Columns shown in listings.
            listing_columns: Vec<String> = [
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
            /// Editor link template.
            editor_link: String = String::new(),
            /// 0 full editor, 1 zen.
            translate_mode: i64 = 0,
            /// 0 vertical, 1 horizontal.
            zen_mode: i64 = 0,
            /// Extra characters offered by the editor.
            special_chars: String = String::new(),
            /// Number of nearby strings shown.
            nearby_strings: i64 = 15,
            /// Watch projects the user contributes to.
            auto_watch: bool = true,
            /// Contribute to the personal translation memory.
            contribute_personal_tm: bool = true,
            /// Default dashboard view.
            dashboard_view: i64 = 1,
            /// Website.
            website: String = String::new(),
            /// Contact.
            contact: String = String::new(),
            /// Liberapay username.
            liberapay: String = String::new(),
            /// Fediverse address.
            fediverse: String = String::new(),
            /// Code site.
            codesite: String = String::new(),
            /// GitHub username.
            github: String = String::new(),
            /// Twitter username.
            twitter: String = String::new(),
            /// LinkedIn profile.
            linkedin: String = String::new(),
            /// Location.
            location: String = String::new(),
            /// Company.
            company: String = String::new(),
            /// Public e-mail.
            public_email: String = String::new(),
            /// E-mail used in commits.
            commit_email: String = String::new(),
            /// 0 default, 1 public, 2 private name in commits.
            commit_name: i64 = 0,
        },
        extra: {
            /// Codes of the languages the user translates.
            languages: Vec<String>,
            /// Codes of the user's secondary languages.
            secondary_languages: Vec<String>,
            /// Slugs of the projects the user watches.
            watched: Vec<String>,
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
