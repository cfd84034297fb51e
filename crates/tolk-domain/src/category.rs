//! Categories (§16): named folders of a project's components, nested at
//! most [`MAX_DEPTH`] deep, with settings their contents inherit.

use crate::project::{LANGUAGE_CODE_STYLES, NEW_LANG, ProjectSettings};
use crate::settings::settings;
use crate::validation::{FieldErrors, check_length, check_slug, check_text};

/// How deep categories nest (Weblate's `CATEGORY_DEPTH`).
pub const MAX_DEPTH: usize = 3;
/// Longest name and slug.
pub const MAX_NAME: usize = 100;
/// Longest message template, license or agreement.
const MAX_TEXT: usize = 10_000;

settings! {
    /// A category's own settings; an empty text (or no secondary
    /// language) inherits from the parent category, else the project.
    pub struct CategorySettings {
        create: CategoryCreate,
        patch: CategoryPatch,
        required: {
            /// Display name, unique among its siblings.
            #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 100, pattern = r"\S"))]
            name: String = String::new(),
            /// Name in URLs, unique among its sibling categories and components.
            #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 100, pattern = "^[A-Za-z0-9_-]+$"))]
            slug: String = String::new(),
        },
        optional: {
            /// Translation license; empty inherits.
            license: String = String::new(),
            /// Contributor agreement; empty inherits.
            agreement: String = String::new(),
            /// How new languages are added (§29.9); empty inherits.
            new_lang: String = String::new(),
            /// How language codes are written in file names; empty inherits.
            language_code_style: String = String::new(),
            /// Id of the secondary language; none inherits.
            secondary_language: Option<i64> = None,
            /// Comma-separated translation flags, after the inherited ones.
            check_flags: String = String::new(),
            /// Commit message template; empty inherits.
            commit_message: String = String::new(),
            /// Message template for added translations; empty inherits.
            add_message: String = String::new(),
            /// Message template for removed translations; empty inherits.
            delete_message: String = String::new(),
            /// Message template for merges; empty inherits.
            merge_message: String = String::new(),
            /// Message template for add-on changes; empty inherits.
            addon_message: String = String::new(),
            /// Pull-request description template; empty inherits.
            pull_message: String = String::new(),
        },
        extra: {
            /// API link of the project (`/api/projects/{slug}/`, relative
            /// or absolute); required on create, fixed afterwards.
            project: String,
            /// API link of the parent category, or null for none.
            category: Option<String>,
        }
    }
}

impl CategorySettings {
    /// Checks the settings' own rules.
    pub fn validate(&self) -> FieldErrors {
        let mut errors = FieldErrors::default();
        check_text(&self.name, "name", MAX_NAME, &mut errors);
        check_slug(&self.slug, "slug", MAX_NAME, &mut errors);
        if !self.new_lang.is_empty() && !NEW_LANG.contains(&self.new_lang.as_str()) {
            errors.invalid_choice("new_lang", &self.new_lang);
        }
        if !LANGUAGE_CODE_STYLES.contains(&self.language_code_style.as_str()) {
            errors.invalid_choice("language_code_style", &self.language_code_style);
        }
        for (value, attr) in [
            (&self.license, "license"),
            (&self.agreement, "agreement"),
            (&self.check_flags, "check_flags"),
            (&self.commit_message, "commit_message"),
            (&self.add_message, "add_message"),
            (&self.delete_message, "delete_message"),
            (&self.merge_message, "merge_message"),
            (&self.addon_message, "addon_message"),
            (&self.pull_message, "pull_message"),
        ] {
            check_length(value, attr, MAX_TEXT, &mut errors);
        }
        errors
    }

    /// What the category's contents inherit: `inherited` (the project's
    /// settings, or the parent category's result) with this category's
    /// own values over it, and its flags after the inherited ones.
    pub fn over(&self, inherited: &ProjectSettings) -> ProjectSettings {
        let pick = |own: &str, inherited: &str| {
            if own.is_empty() {
                inherited.to_owned()
            } else {
                own.to_owned()
            }
        };
        ProjectSettings {
            license: pick(&self.license, &inherited.license),
            agreement: pick(&self.agreement, &inherited.agreement),
            new_lang: pick(&self.new_lang, &inherited.new_lang),
            language_code_style: pick(&self.language_code_style, &inherited.language_code_style),
            secondary_language: self.secondary_language.or(inherited.secondary_language),
            check_flags: [inherited.check_flags.as_str(), self.check_flags.as_str()]
                .into_iter()
                .filter(|f| !f.is_empty())
                .collect::<Vec<_>>()
                .join(","),
            commit_message: pick(&self.commit_message, &inherited.commit_message),
            add_message: pick(&self.add_message, &inherited.add_message),
            delete_message: pick(&self.delete_message, &inherited.delete_message),
            merge_message: pick(&self.merge_message, &inherited.merge_message),
            addon_message: pick(&self.addon_message, &inherited.addon_message),
            pull_message: pick(&self.pull_message, &inherited.pull_message),
            ..inherited.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contents_inherit_through_the_chain() {
        let project = ProjectSettings {
            license: "MIT".into(),
            check_flags: "rst-text".into(),
            ..Default::default()
        };
        let outer = CategorySettings {
            license: "GPL-3.0".into(),
            check_flags: "safe-html".into(),
            ..Default::default()
        };
        let inner = CategorySettings {
            commit_message: "Docs: {{ language_name }}".into(),
            ..Default::default()
        };
        let effective = inner.over(&outer.over(&project));
        assert_eq!(effective.license, "GPL-3.0");
        assert_eq!(effective.check_flags, "rst-text,safe-html");
        assert_eq!(effective.commit_message, "Docs: {{ language_name }}");
        assert_eq!(effective.new_lang, project.new_lang);
    }

    #[test]
    fn names_slugs_and_choices_are_checked() {
        let bad = CategorySettings {
            name: " ".into(),
            slug: "a/b".into(),
            new_lang: "sometimes".into(),
            ..Default::default()
        };
        let errors = bad.validate();
        for attr in ["name", "slug", "new_lang"] {
            assert!(errors.has(attr), "{attr}");
        }
    }
}
