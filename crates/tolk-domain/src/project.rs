//! Projects: their settings, defaults and the rules a valid project follows.

use crate::checks::catalogue;
use crate::permission::AccessControl;
use crate::settings::settings;
use crate::validation::{FieldErrors, check_length, check_slug, check_text, check_url};

/// Longest project name and slug.
pub const NAME_MAX: usize = 60;

/// Accepted `commit_policy` values (§29.7).
pub const COMMIT_POLICIES: [i32; 3] = [0, 20, 30];
/// Accepted `new_lang` values (§29.9).
pub const NEW_LANG: [&str; 4] = ["contact", "url", "add", "none"];
/// Accepted `language_code_style` values (§29.9).
pub const LANGUAGE_CODE_STYLES: [&str; 14] = [
    "",
    "posix",
    "posix_lowercase",
    "bcp",
    "posix_long",
    "posix_long_lowercase",
    "bcp_long",
    "bcp_legacy",
    "bcp_lower",
    "android",
    "appstore",
    "googleplay",
    "linux",
    "linux_lowercase",
];

/// Default commit message for translation updates.
pub const DEFAULT_COMMIT_MESSAGE: &str = "chore(l10n): update {{ language_name }} translation\n\n\
Translation: {{ project_name }}/{{ component_name }}\n\
Language: {{ language_name }}\n\
Progress: {{ stats.translated_percent }}% ({{ stats.translated }} of {{ stats.all }} strings)\n\
Translate-URL: {{ url }}";
/// Default commit message for a new translation.
pub const DEFAULT_ADD_MESSAGE: &str = "chore(l10n): add {{ language_name }} translation\n\n\
Translation: {{ project_name }}/{{ component_name }}\n\
Language: {{ language_name }}\n\
Translate-URL: {{ url }}";
/// Default commit message for a removed translation.
pub const DEFAULT_DELETE_MESSAGE: &str = "chore(l10n): remove {{ language_name }} translation\n\n\
Translation: {{ project_name }}/{{ component_name }}\n\
Language: {{ language_name }}\n\
Translate-URL: {{ url }}";
/// Default commit message for merges of upstream changes.
pub const DEFAULT_MERGE_MESSAGE: &str = "chore(l10n): merge remote changes\n\n\
Translation: {{ project_name }}/{{ component_name }}\n\
Remote-Branch: {{ component_remote_branch }}\n\
Translate-URL: {{ url }}";
/// Default commit message for changes made by add-ons.
pub const DEFAULT_ADDON_MESSAGE: &str = "chore(l10n): update translation files\n\n\
Add-on: {{ addon_name }}\n\
Translation: {{ project_name }}/{{ component_name }}\n\
Translate-URL: {{ url }}";
/// Default pull-request description.
pub const DEFAULT_PULL_MESSAGE: &str = "chore(l10n): update translations\n\n\
Translations updated in [{{ site_title }}]({{ site_url }}) for \
[{{ project_name }}/{{ component_name }}]({{ url }}).\n\n\
{% if component_linked_children %}\nIncluded components:\n\
{% for linked in component_linked_children %}\n\
* [{{ linked.project_name }}/{{ linked.name }}]({{ linked.url }})\n{% endfor %}\n\
{% endif %}\n\nTranslation status:\n\n\
![Weblate translation status]({{widget_url}})\n";

settings! {
    /// Every writable setting of a project.
    pub struct ProjectSettings {
        create: ProjectCreate,
        patch: ProjectPatch,
        required: {
            /// Display name, unique.
            #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 60, pattern = r"\S"))]
            name: String = String::new(),
            /// URL slug, unique.
            #[cfg_attr(feature = "openapi", schema(max_length = 60, pattern = r"^[-a-zA-Z0-9_]+$"))]
            slug: String = String::new(),
            /// Project website.
            #[cfg_attr(feature = "openapi", schema(max_length = 200, pattern = r"^https?://[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)+(/\S*)?$"))]
            web: String = String::new(),
        },
        optional: {
            /// Markdown instructions for translators.
            instructions: String = String::new(),
            /// Comma-separated translation flags applied to every string.
            check_flags: String = String::new(),
            /// Translations need review.
            translation_review: bool = false,
            /// Source strings need review.
            source_review: bool = false,
            /// Which strings get committed (§29.7).
            commit_policy: i32 = 0,
            /// Repository hooks update this project.
            enable_hooks: bool = true,
            /// Language code aliases, e.g. `en_GB:en`.
            language_aliases: String = String::new(),
            /// Access level code (§29.6).
            access_control: i32 = AccessControl::Public.code(),
            /// Allow public links to the project.
            public_sharing: bool = false,
            /// Use the shared translation memory.
            use_shared_tm: bool = true,
            /// Contribute to the shared translation memory.
            contribute_shared_tm: bool = true,
            /// Remove memory entries when strings go away.
            autoclean_tm: bool = false,
            /// Translation license.
            license: String = String::new(),
            /// Contributor agreement text.
            agreement: String = String::new(),
            /// How new languages are added (§29.9).
            new_lang: String = "add".into(),
            /// How language codes are written in file names (§29.9).
            language_code_style: String = String::new(),
            /// Id of the secondary language shown to translators.
            secondary_language: Option<i64> = None,
            /// Commit message template.
            commit_message: String = DEFAULT_COMMIT_MESSAGE.into(),
            /// Message template for added translations.
            add_message: String = DEFAULT_ADD_MESSAGE.into(),
            /// Message template for removed translations.
            delete_message: String = DEFAULT_DELETE_MESSAGE.into(),
            /// Message template for merges.
            merge_message: String = DEFAULT_MERGE_MESSAGE.into(),
            /// Message template for add-on changes.
            addon_message: String = DEFAULT_ADDON_MESSAGE.into(),
            /// Pull-request description template.
            pull_message: String = DEFAULT_PULL_MESSAGE.into(),
            /// Members need two-factor authentication.
            enforced_2fa: bool = false,
            /// Quality checks that block saving (§29.13).
            enforced_checks: Vec<String> = Vec::new(),
        }
    }
}

impl ProjectSettings {
    /// Checks every field's value; uniqueness and references are checked by the caller.
    pub fn validate(&self) -> FieldErrors {
        let mut errors = FieldErrors::default();
        check_text(&self.name, "name", NAME_MAX, &mut errors);
        check_slug(&self.slug, "slug", NAME_MAX, &mut errors);
        check_url(&self.web, "web", &mut errors);
        if !COMMIT_POLICIES.contains(&self.commit_policy) {
            errors.invalid_choice("commit_policy", &self.commit_policy.to_string());
        }
        if AccessControl::from_code(self.access_control).is_none() {
            errors.invalid_choice("access_control", &self.access_control.to_string());
        }
        if !NEW_LANG.contains(&self.new_lang.as_str()) {
            errors.invalid_choice("new_lang", &self.new_lang);
        }
        if !LANGUAGE_CODE_STYLES.contains(&self.language_code_style.as_str()) {
            errors.invalid_choice("language_code_style", &self.language_code_style);
        }
        check_length(&self.license, "license", 150, &mut errors);
        check_length(&self.language_aliases, "language_aliases", 200, &mut errors);
        check_aliases(&self.language_aliases, &mut errors);
        for (i, check) in self.enforced_checks.iter().enumerate() {
            let field = format!("enforced_checks.{i}");
            if catalogue::NOT_RUN.contains(&check.as_str()) {
                errors.invalid(&field, &catalogue::refusal(check).unwrap_or_default());
            } else if !catalogue::runs(check) {
                errors.invalid_choice(&field, check);
            }
        }
        for (attr, text) in [
            ("commit_message", &self.commit_message),
            ("add_message", &self.add_message),
            ("delete_message", &self.delete_message),
            ("merge_message", &self.merge_message),
            ("addon_message", &self.addon_message),
        ] {
            check_text(text, attr, 1000, &mut errors);
        }
        errors
    }

    /// The access level.
    pub fn access(&self) -> AccessControl {
        AccessControl::from_code(self.access_control).unwrap_or(AccessControl::Private)
    }

    /// Names of the settings that differ between `self` and `other`, in field order.
    pub fn changed_fields(&self, other: &ProjectSettings) -> Vec<String> {
        let (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) =
            (serde_json::to_value(self), serde_json::to_value(other))
        else {
            return Vec::new();
        };
        a.iter()
            .filter(|(k, v)| b.get(*k) != Some(*v))
            .map(|(k, _)| k.clone())
            .collect()
    }
}

/// `language_aliases` is a comma-separated list of `from:to` pairs.
fn check_aliases(aliases: &str, errors: &mut FieldErrors) {
    let bad = aliases
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .any(|pair| {
            pair.split_once(':')
                .is_none_or(|(a, b)| a.trim().is_empty() || b.trim().is_empty())
        });
    if bad {
        errors.invalid(
            "language_aliases",
            "Use a comma-separated list of alias:code pairs.",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn valid() -> ProjectSettings {
        ProjectSettings {
            name: "Demo".into(),
            slug: "demo".into(),
            web: "https://demo.example.com/".into(),
            ..ProjectSettings::default()
        }
    }

    #[test]
    fn defaults_are_valid_once_identified() {
        assert!(valid().validate().is_empty());
    }

    #[test]
    fn reports_every_bad_field_in_order() {
        let settings = ProjectSettings {
            name: " ".into(),
            slug: "no spaces".into(),
            web: "nope".into(),
            commit_policy: 5,
            new_lang: "maybe".into(),
            language_aliases: "en_GB".into(),
            enforced_checks: vec!["same".into(), "bogus".into()],
            ..ProjectSettings::default()
        };
        let attrs: Vec<String> = settings
            .validate()
            .into_iter()
            .map(|e| e.attr.unwrap())
            .collect();
        assert_eq!(
            attrs,
            vec![
                "name",
                "slug",
                "web",
                "commit_policy",
                "new_lang",
                "language_aliases",
                "enforced_checks.1"
            ]
        );
    }

    #[test]
    fn changed_fields_lists_differences() {
        let a = valid();
        let mut b = valid();
        b.web = "https://other.example.com/".into();
        b.enforced_checks = vec!["same".into()];
        assert_eq!(a.changed_fields(&b), vec!["web", "enforced_checks"]);
        assert!(a.changed_fields(&a).is_empty());
    }
}
