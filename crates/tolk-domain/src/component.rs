//! Components: their settings, defaults and the rules a valid component
//! follows. A component is a set of translation files in a repository,
//! found by a file mask, in one format.

use std::collections::BTreeMap;

use crate::filemask::{Filemask, safe_path};
use crate::project::{LANGUAGE_CODE_STYLES, NEW_LANG, ProjectSettings};
use crate::settings::settings;
use crate::validation::{FieldErrors, check_length, check_slug, check_text};

/// Longest component name and slug.
pub const NAME_MAX: usize = 100;
/// Accepted `merge_style` values (§29.9).
pub const MERGE_STYLES: [&str; 3] = ["merge", "rebase", "merge_noff"];
/// Version control systems Tolk runs: Git with a remote, or a local repository.
pub const VCS: [&str; 2] = ["git", "local"];
/// Accepted `priority` values.
pub const PRIORITIES: [i32; 5] = [60, 80, 100, 120, 140];
/// Accepted `glossary_color` values.
pub const COLORS: [&str; 18] = [
    "navy", "blue", "aqua", "teal", "olive", "green", "lime", "yellow", "orange", "red", "maroon",
    "fuchsia", "purple", "black", "gray", "silver", "white", "",
];
/// Longest `commit_pending_age`, in hours.
pub const PENDING_AGE_MAX: i32 = 2160;
/// The `repo` of a component made from uploaded files.
pub const LOCAL_REPO: &str = "local:";
/// The prefix of `repo` values that share another component's repository.
pub const LINK_PREFIX: &str = "weblate://";
/// The settings that tell where a component's repository is and how it is
/// laid out: shown only to callers holding `vcs.view` on the component.
pub const REPOSITORY_SETTINGS: [&str; 8] = [
    "vcs",
    "repo",
    "branch",
    "filemask",
    "screenshot_filemask",
    "push",
    "push_branch",
    "repoweb",
];

settings! {
    /// Every writable setting of a component. Texts left empty that a
    /// project also has (license, agreement, messages, language styles)
    /// are inherited from the project.
    pub struct ComponentSettings {
        create: ComponentCreate,
        patch: ComponentPatch,
        required: {
            /// Display name, unique in the project.
            #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 100, pattern = r"\S"))]
            name: String = String::new(),
            /// URL slug, unique in the project.
            #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 100, pattern = r"^[-a-zA-Z0-9_]+$"))]
            slug: String = String::new(),
            /// Path of the translation files with `*` for the language code, e.g. `po/*.po`.
            #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 400, pattern = r"\*"))]
            filemask: String = String::new(),
            /// Format id of the files (§29.9), e.g. `po`.
            file_format: String = String::new(),
        },
        optional: {
            /// Version control: `git`, or `local` for a repository without a remote.
            vcs: String = "git".into(),
            /// Parameters of the version control system.
            vcs_params: BTreeMap<String, serde_json::Value> = BTreeMap::new(),
            /// Repository to clone, or `weblate://project/component` to share another's.
            #[cfg_attr(feature = "openapi", schema(max_length = 300))]
            repo: String = String::new(),
            /// Repository to push to; empty pushes to `repo`.
            #[cfg_attr(feature = "openapi", schema(max_length = 300))]
            push: String = String::new(),
            /// Branch to translate; empty takes the repository's default.
            #[cfg_attr(feature = "openapi", schema(max_length = 200))]
            branch: String = String::new(),
            /// Branch to push to; empty pushes to `branch`.
            #[cfg_attr(feature = "openapi", schema(max_length = 200))]
            push_branch: String = String::new(),
            /// Path of screenshots with `*` for the language code.
            screenshot_filemask: String = String::new(),
            /// Monolingual base file: the source strings of key-value formats.
            #[cfg_attr(feature = "openapi", schema(max_length = 400))]
            template: String = String::new(),
            /// Whether the base file may be edited.
            edit_template: bool = true,
            /// Intermediate file: the source text translators see, where it differs from the template.
            #[cfg_attr(feature = "openapi", schema(max_length = 400))]
            intermediate: String = String::new(),
            /// File new translations start from (e.g. a POT file).
            #[cfg_attr(feature = "openapi", schema(max_length = 400))]
            new_base: String = String::new(),
            /// Format-specific parameters.
            file_format_params: BTreeMap<String, serde_json::Value> = BTreeMap::new(),
            /// Translation license; empty inherits the project's.
            license: String = String::new(),
            /// Contributor agreement; empty inherits the project's.
            agreement: String = String::new(),
            /// How new languages are added (§29.9); empty inherits the project's.
            new_lang: String = String::new(),
            /// How language codes are written in file names; empty inherits the project's.
            language_code_style: String = String::new(),
            /// Comma-separated translation flags.
            check_flags: String = String::new(),
            /// Priority (60 very high to 140 very low).
            priority: i32 = 100,
            /// Quality checks that block saving; empty inherits the project's.
            enforced_checks: Vec<String> = Vec::new(),
            /// Visible only to those granted it explicitly.
            restricted: bool = false,
            /// Link template to the repository browser.
            repoweb: String = String::new(),
            /// Link template to the browser of the repository Tolk pushes to.
            repoweb_translations: String = String::new(),
            /// Address for reporting source string bugs.
            report_source_bugs: String = String::new(),
            /// How upstream changes are merged: `rebase`, `merge` or `merge_noff`.
            merge_style: String = "rebase".into(),
            /// Commit message template; empty inherits the project's.
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
            /// Translations of identical strings spread to other components.
            allow_translation_propagation: bool = true,
            /// Glossary matches are not shown while translating.
            hide_glossary_matches: bool = false,
            /// Translations feed the project's translation memory.
            contribute_project_tm: bool = true,
            /// Strings may be added and removed over the API.
            manage_units: bool = false,
            /// Suggestions are accepted.
            enable_suggestions: bool = true,
            /// Suggestions are voted on.
            suggestion_voting: bool = false,
            /// Votes that accept a suggestion.
            suggestion_autoaccept: i32 = 0,
            /// Push after every commit.
            push_on_commit: bool = true,
            /// Push after every update from upstream.
            push_on_update: bool = true,
            /// Hours after which pending changes are committed.
            commit_pending_age: i32 = 24,
            /// Lock the component when the repository fails.
            auto_lock_error: bool = true,
            /// Only languages whose code matches are read.
            language_regex: String = "^[^.]+$".into(),
            /// Only keys matching are read (monolingual formats).
            key_filter: String = String::new(),
            /// Id of the secondary language; none inherits the project's.
            secondary_language: Option<i64> = None,
            /// Regular expression telling string variants.
            variant_regex: String = String::new(),
            /// The component is a glossary.
            is_glossary: bool = false,
            /// Glossary color.
            glossary_color: String = "silver".into(),
        },
        extra: {
            /// Source language code (default `en`).
            source_language: LanguageCode,
            /// Do not share the repository of another component with the same URL.
            disable_autoshare: bool,
            /// API link of the project's category to create it in, or null.
            category: Option<String>,
            /// True: the commit message is the project's (any text given is dropped).
            inherit_commit_message: bool,
            /// True: the message of added translations is the project's.
            inherit_add_message: bool,
            /// True: the message of removed translations is the project's.
            inherit_delete_message: bool,
            /// True: the merge message is the project's.
            inherit_merge_message: bool,
            /// True: the add-on message is the project's.
            inherit_addon_message: bool,
            /// True: the pull-request message is the project's.
            inherit_pull_message: bool,
        }
    }
}

/// A language named in a request: its code, or an object with the code.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum LanguageCode {
    /// The code, e.g. `en`.
    Code(String),
    /// An object with the code, as a language's own representation.
    Object {
        /// The code.
        code: String,
    },
}

impl LanguageCode {
    /// The code.
    pub fn code(&self) -> &str {
        match self {
            LanguageCode::Code(code) | LanguageCode::Object { code } => code,
        }
    }
}

/// Creates a component as a copy of another (`from_component`, §8.3): its
/// settings, files and source language, in a new local repository. Other
/// settings given beside these override the copied ones, except those that
/// [`ComponentPatch::copy_conflicts`] refuses.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ComponentCopy {
    /// Display name, unique in the project.
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 100, pattern = r"\S")
    )]
    pub name: String,
    /// URL slug, unique in the project.
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 100, pattern = r"^[-a-zA-Z0-9_]+$")
    )]
    pub slug: String,
    /// The component to copy: its id, or its path `project/component`.
    pub from_component: ComponentRef,
    /// API link of the project's category to create the copy in, or null.
    pub category: Option<Option<String>>,
}

/// A component named in a request: its id or its path `project/component`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum ComponentRef {
    /// The component's id.
    Id(i64),
    /// Its path, e.g. `project/component` (or the id as text).
    Path(String),
}

/// What a component copy may not be given: the repository settings, which
/// the copy's local repository replaces, and the settings that say how its
/// files are read, which must stay those of the files copied.
/// Longest repository address a component takes, in characters.
pub const REPO_MAX_LENGTH: usize = 300;

const COPY_REPOSITORY: [&str; 5] = ["repo", "vcs", "branch", "push", "push_branch"];

impl ComponentPatch {
    /// Refuses the settings a copy of another component may not be given.
    pub fn copy_conflicts(&self) -> FieldErrors {
        let mut errors = FieldErrors::default();
        let given = [
            ("repo", self.repo.is_some()),
            ("vcs", self.vcs.is_some()),
            ("branch", self.branch.is_some()),
            ("push", self.push.is_some()),
            ("push_branch", self.push_branch.is_some()),
            ("source_language", self.source_language.is_some()),
            ("filemask", self.filemask.is_some()),
            ("template", self.template.is_some()),
            ("edit_template", self.edit_template.is_some()),
            ("intermediate", self.intermediate.is_some()),
            ("new_base", self.new_base.is_some()),
            ("file_format", self.file_format.is_some()),
            ("file_format_params", self.file_format_params.is_some()),
            ("language_code_style", self.language_code_style.is_some()),
            ("language_regex", self.language_regex.is_some()),
            ("key_filter", self.key_filter.is_some()),
            ("variant_regex", self.variant_regex.is_some()),
            ("manage_units", self.manage_units.is_some()),
        ];
        for (attr, _) in given.iter().filter(|(_, given)| *given) {
            let message = if COPY_REPOSITORY.contains(attr) {
                "This field can not be used when using from_component."
            } else {
                "This field can not be overridden when using from_component."
            };
            errors.invalid(attr, message);
        }
        errors
    }
}

impl ComponentCreate {
    /// The settings of a new component: the defaults with the body's
    /// values over them. As in Weblate, a component created with a
    /// monolingual base manages its strings unless the body says otherwise.
    pub fn settings(self) -> ComponentSettings {
        let manage_units =
            self.manage_units.is_none() && self.template.as_deref().is_some_and(|t| !t.is_empty());
        let mut settings = ComponentSettings::default();
        ComponentPatch::from(self).apply_inheriting(&mut settings);
        settings.manage_units |= manage_units;
        settings
    }
}

impl ComponentPatch {
    /// Writes every given setting over `settings`, then empties the
    /// messages the body asks to inherit (`inherit_commit_message: true`
    /// and the like), so that they follow the project's again.
    pub fn apply_inheriting(self, settings: &mut ComponentSettings) {
        let inherit = [
            self.inherit_commit_message,
            self.inherit_add_message,
            self.inherit_delete_message,
            self.inherit_merge_message,
            self.inherit_addon_message,
            self.inherit_pull_message,
        ];
        self.apply(settings);
        for (message, inherit) in settings.messages_mut().into_iter().zip(inherit) {
            if inherit == Some(true) {
                message.clear();
            }
        }
    }
}

impl ComponentSettings {
    /// The message templates a component may inherit from its project:
    /// commit, add, delete, merge, add-on and pull request, in that order.
    fn messages_mut(&mut self) -> [&mut String; 6] {
        [
            &mut self.commit_message,
            &mut self.add_message,
            &mut self.delete_message,
            &mut self.merge_message,
            &mut self.addon_message,
            &mut self.pull_message,
        ]
    }

    /// These settings as Weblate shows them: a message the component
    /// inherits shows the project's text in effect (its `inherit_*` flag
    /// says where it comes from).
    pub fn with_messages_shown(mut self, effective: &Effective) -> ComponentSettings {
        let inherited = [
            &effective.commit_message,
            &effective.add_message,
            &effective.delete_message,
            &effective.merge_message,
            &effective.addon_message,
            &effective.pull_message,
        ];
        for (message, inherited) in self.messages_mut().into_iter().zip(inherited) {
            if message.is_empty() {
                message.clone_from(inherited);
            }
        }
        self
    }

    /// Whether the strings read from the files under `other` may differ
    /// from those under these settings (the files are found, read or
    /// checked otherwise), so that the files must be read again.
    pub fn reads_files_unlike(&self, other: &ComponentSettings) -> bool {
        fn texts(s: &ComponentSettings) -> [&str; 8] {
            [
                &s.filemask,
                &s.file_format,
                &s.template,
                &s.intermediate,
                &s.new_base,
                &s.language_regex,
                &s.key_filter,
                &s.check_flags,
            ]
            .map(String::as_str)
        }
        texts(self) != texts(other)
            || self.edit_template != other.edit_template
            || self.file_format_params != other.file_format_params
    }

    /// The setting that keeps strings from being added and removed over
    /// the API, if one does: `manage_units`, or for a monolingual
    /// component `edit_template` (its strings live in the template).
    pub fn units_locked_by(&self) -> Option<&'static str> {
        if !self.manage_units {
            Some("manage_units")
        } else if !self.template.is_empty() && !self.edit_template {
            Some("edit_template")
        } else {
            None
        }
    }

    /// Checks every field's value; uniqueness, the repository and the files
    /// are checked by the caller.
    pub fn validate(&self) -> FieldErrors {
        let mut errors = FieldErrors::default();
        check_text(&self.name, "name", NAME_MAX, &mut errors);
        check_slug(&self.slug, "slug", NAME_MAX, &mut errors);
        if !VCS.contains(&self.vcs.as_str()) {
            errors.invalid_choice("vcs", &self.vcs);
        }
        check_length(&self.repo, "repo", REPO_MAX_LENGTH, &mut errors);
        check_length(&self.push, "push", 300, &mut errors);
        check_length(&self.branch, "branch", 200, &mut errors);
        check_length(&self.push_branch, "push_branch", 200, &mut errors);
        for (attr, value) in [("branch", &self.branch), ("push_branch", &self.push_branch)] {
            if !value.is_empty() && !valid_branch(value) {
                errors.invalid(attr, "Enter a valid branch name.");
            }
        }
        if self.vcs == "git" && self.repo.trim().is_empty() {
            errors.blank("repo");
        }
        if let Err(message) = Filemask::new(&self.filemask) {
            errors.invalid("filemask", &message);
        }
        if !self.screenshot_filemask.is_empty() && !self.screenshot_filemask.contains('*') {
            errors.invalid(
                "screenshot_filemask",
                "File mask does not contain * as a language placeholder!",
            );
        }
        for (attr, path) in [
            ("template", &self.template),
            ("intermediate", &self.intermediate),
            ("new_base", &self.new_base),
        ] {
            check_length(path, attr, 400, &mut errors);
            if !path.is_empty() && !safe_path(path) {
                errors.invalid(attr, "Enter a path inside the repository, outside .git.");
            }
        }
        if !self.new_lang.is_empty() && !NEW_LANG.contains(&self.new_lang.as_str()) {
            errors.invalid_choice("new_lang", &self.new_lang);
        }
        if !LANGUAGE_CODE_STYLES.contains(&self.language_code_style.as_str()) {
            errors.invalid_choice("language_code_style", &self.language_code_style);
        }
        if !PRIORITIES.contains(&self.priority) {
            errors.invalid_choice("priority", &self.priority.to_string());
        }
        for check in &self.enforced_checks {
            if let Some(why) = crate::checks::catalogue::refusal(check) {
                errors.invalid("enforced_checks", &why);
            }
        }
        if !MERGE_STYLES.contains(&self.merge_style.as_str()) {
            errors.invalid_choice("merge_style", &self.merge_style);
        }
        if !(0..=PENDING_AGE_MAX).contains(&self.commit_pending_age) {
            errors.invalid(
                "commit_pending_age",
                &format!("Ensure this value is less than or equal to {PENDING_AGE_MAX}."),
            );
        }
        if self.suggestion_autoaccept < 0 {
            errors.invalid(
                "suggestion_autoaccept",
                "Ensure this value is greater than or equal to 0.",
            );
        }
        if !COLORS.contains(&self.glossary_color.as_str()) {
            errors.invalid_choice("glossary_color", &self.glossary_color);
        }
        check_length(&self.license, "license", 150, &mut errors);
        for (attr, pattern) in [
            ("language_regex", &self.language_regex),
            ("key_filter", &self.key_filter),
            ("variant_regex", &self.variant_regex),
        ] {
            if let Err(e) = regex::Regex::new(pattern) {
                errors.invalid(attr, &format!("Compilation failed: {e}"));
            }
        }
        errors
    }

    /// Whether a language code read from a file name is one of the
    /// component's languages (`language_regex`).
    pub fn accepts_language(&self, code: &str) -> bool {
        regex::Regex::new(&self.language_regex).is_ok_and(|re| re.is_match(code))
    }

    /// The filemask (valid once [`ComponentSettings::validate`] passed).
    pub fn mask(&self) -> Option<Filemask> {
        Filemask::new(&self.filemask).ok()
    }

    /// Whether the component reads the work-tree file `path`: one its
    /// filemask matches, or its template, base or intermediate file.
    pub fn reads(&self, path: &str) -> bool {
        !path.is_empty()
            && ([&self.template, &self.new_base, &self.intermediate]
                .iter()
                .any(|special| special.as_str() == path)
                || self.mask().is_some_and(|mask| mask.code_of(path).is_some()))
    }

    /// The component whose repository this one shares (`weblate://p/c`), as project and component slug.
    pub fn linked(&self) -> Option<(&str, &str)> {
        self.repo.strip_prefix(LINK_PREFIX)?.split_once('/')
    }

    /// The settings in effect, with the project's values where the
    /// component inherits.
    pub fn effective(&self, project: &ProjectSettings) -> Effective {
        let pick = |own: &str, inherited: &str| {
            if own.is_empty() {
                inherited.to_owned()
            } else {
                own.to_owned()
            }
        };
        Effective {
            license: pick(&self.license, &project.license),
            agreement: pick(&self.agreement, &project.agreement),
            new_lang: pick(&self.new_lang, &project.new_lang),
            language_code_style: pick(&self.language_code_style, &project.language_code_style),
            commit_message: pick(&self.commit_message, &project.commit_message),
            add_message: pick(&self.add_message, &project.add_message),
            delete_message: pick(&self.delete_message, &project.delete_message),
            merge_message: pick(&self.merge_message, &project.merge_message),
            addon_message: pick(&self.addon_message, &project.addon_message),
            pull_message: pick(&self.pull_message, &project.pull_message),
            secondary_language: self.secondary_language.or(project.secondary_language),
            enforced_checks: self.enforced_checks_in(project).to_vec(),
            check_flags: self.check_flags_in(project),
        }
    }

    /// The checks enforced: the component's, else its project's.
    pub fn enforced_checks_in<'a>(&'a self, project: &'a ProjectSettings) -> &'a [String] {
        if self.enforced_checks.is_empty() {
            &project.enforced_checks
        } else {
            &self.enforced_checks
        }
    }

    /// The check flags in effect: the project's, then the component's.
    pub fn check_flags_in(&self, project: &ProjectSettings) -> String {
        [project.check_flags.as_str(), self.check_flags.as_str()]
            .into_iter()
            .filter(|f| !f.is_empty())
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// A component's settings in effect: its own, or its project's where it inherits.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Effective {
    pub license: String,
    pub agreement: String,
    pub new_lang: String,
    pub language_code_style: String,
    pub commit_message: String,
    pub add_message: String,
    pub delete_message: String,
    pub merge_message: String,
    pub addon_message: String,
    pub pull_message: String,
    pub secondary_language: Option<i64>,
    pub enforced_checks: Vec<String>,
    pub check_flags: String,
}

/// A branch name Git accepts and nobody can mistake for an option.
fn valid_branch(name: &str) -> bool {
    !name.starts_with('-')
        && !name.contains("..")
        && !name.ends_with(".lock")
        && !name.ends_with('/')
        && name
            .chars()
            .all(|c| !c.is_control() && !" ~^:?*[\\".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn valid() -> ComponentSettings {
        ComponentSettings {
            name: "App".into(),
            slug: "app".into(),
            repo: "https://example.com/app.git".into(),
            filemask: "po/*.po".into(),
            file_format: "po".into(),
            ..ComponentSettings::default()
        }
    }

    #[test]
    fn components_read_the_files_of_their_mask_and_special_files() {
        let settings = ComponentSettings {
            filemask: "po/*.po".into(),
            new_base: "po/app.pot".into(),
            ..ComponentSettings::default()
        };
        assert!(settings.reads("po/cs.po"));
        assert!(settings.reads("po/app.pot"));
        assert!(!settings.reads("locales/cs.json"));
        assert!(!settings.reads("po/sub/cs.po"));
        assert!(!settings.reads(""));
    }

    #[test]
    fn defaults_are_weblates_and_valid_once_identified() {
        let settings = valid();
        assert!(settings.validate().is_empty(), "{:?}", settings.validate());
        assert_eq!(
            (
                settings.merge_style.as_str(),
                settings.commit_pending_age,
                settings.priority
            ),
            ("rebase", 24, 100)
        );
        assert_eq!(settings.language_regex, "^[^.]+$");
    }

    #[test]
    fn reports_every_bad_field() {
        let settings = ComponentSettings {
            slug: "a b".into(),
            repo: String::new(),
            filemask: "po/cs.po".into(),
            template: "../etc/passwd".into(),
            branch: "--upload-pack=x".into(),
            merge_style: "squash".into(),
            commit_pending_age: 5000,
            enforced_checks: vec!["bogus".into()],
            ..valid()
        };
        let errors: Vec<(String, String)> = settings
            .validate()
            .into_iter()
            .map(|e| (e.attr.unwrap(), e.detail))
            .collect();
        let attrs: Vec<&str> = errors.iter().map(|(a, _)| a.as_str()).collect();
        assert_eq!(
            attrs,
            vec![
                "slug",
                "branch",
                "repo",
                "filemask",
                "template",
                "enforced_checks",
                "merge_style",
                "commit_pending_age"
            ]
        );
        assert_eq!(
            errors[3].1,
            "File mask does not contain * as a language placeholder!"
        );
        assert_eq!(errors[5].1, "Unsupported enforced check: bogus");
    }

    #[test]
    fn inherits_empty_texts_from_the_project() {
        let project = ProjectSettings {
            license: "MIT".into(),
            check_flags: "safe-html".into(),
            ..ProjectSettings::default()
        };
        let own = ComponentSettings {
            commit_message: "Own".into(),
            check_flags: "strict-same".into(),
            ..valid()
        };
        let effective = own.effective(&project);
        assert_eq!(effective.license, "MIT");
        assert_eq!(effective.commit_message, "Own");
        assert_eq!(effective.add_message, project.add_message);
        assert_eq!(effective.new_lang, "add");
        assert_eq!(effective.check_flags, "safe-html,strict-same");
    }

    #[test]
    fn tells_linked_components() {
        let linked = ComponentSettings {
            repo: "weblate://demo/app".into(),
            ..valid()
        };
        assert_eq!(linked.linked(), Some(("demo", "app")));
        assert_eq!(valid().linked(), None);
    }
}
