//! Projects.

use serde::Serialize;
use tolk_service::projects::ProjectView;
use utoipa::ToSchema;

use crate::links::Links;

/// A project, with every key Weblate emits. Tolk has no workspaces, so
/// `workspace` is null, nothing is inherited and every `effective_*`
/// value is the project's own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ProjectDto {
    /// Display name, unique.
    pub name: String,
    /// URL slug, unique.
    pub slug: String,
    /// Id.
    pub id: i64,
    /// Project website.
    pub web: String,
    /// Browser link.
    pub web_url: String,
    /// API link.
    pub url: String,
    /// Translation flags for every string.
    pub check_flags: String,
    /// Same as `check_flags`.
    pub effective_check_flags: String,
    /// Components of the project.
    pub components_list_url: String,
    /// Repository status and operations.
    pub repository_url: String,
    /// Statistics.
    pub statistics_url: String,
    /// Metrics.
    pub metrics_url: String,
    /// Categories.
    pub categories_url: String,
    /// Changes.
    pub changes_list_url: String,
    /// Statistics per language.
    pub languages_url: String,
    /// Labels.
    pub labels_url: String,
    /// Reports.
    pub reports_url: String,
    /// Lock state.
    pub lock_url: String,
    /// Translations need review.
    pub translation_review: bool,
    /// Source strings need review.
    pub source_review: bool,
    /// 0 all, 20 skip needing editing, 30 only approved.
    pub commit_policy: i32,
    /// Always null: Tolk has no workspaces.
    pub workspace: Option<String>,
    /// Instructions for translators (Markdown).
    pub instructions: String,
    /// Repository hooks update this project.
    pub enable_hooks: bool,
    /// Language code aliases.
    pub language_aliases: String,
    /// 0 public, 1 protected, 100 private, 200 custom.
    pub access_control: i32,
    /// Public links to the project are allowed.
    pub public_sharing: bool,
    /// Uses the shared translation memory.
    pub use_shared_tm: bool,
    /// Contributes to the shared translation memory.
    pub contribute_shared_tm: bool,
    /// Always false: no workspaces.
    pub use_workspace_tm: bool,
    /// Always false: no workspaces.
    pub contribute_workspace_tm: bool,
    /// Cleans memory entries up with their strings.
    pub autoclean_tm: bool,
    /// Translation license.
    pub license: String,
    /// Always false.
    pub inherit_license: bool,
    /// The license in effect.
    pub effective_license: String,
    /// Contributor agreement.
    pub agreement: String,
    /// Always false.
    pub inherit_agreement: bool,
    /// The agreement in effect.
    pub effective_agreement: String,
    /// How new languages are added.
    pub new_lang: String,
    /// Always false.
    pub inherit_new_lang: bool,
    /// The setting in effect.
    pub effective_new_lang: String,
    /// Language code style of file names.
    pub language_code_style: String,
    /// Always false.
    pub inherit_language_code_style: bool,
    /// The style in effect.
    pub effective_language_code_style: String,
    /// Id of the secondary language, or null.
    pub secondary_language: Option<i64>,
    /// Always false.
    pub inherit_secondary_language: bool,
    /// The secondary language in effect.
    pub effective_secondary_language: Option<i64>,
    /// Commit message template.
    pub commit_message: String,
    /// Always false.
    pub inherit_commit_message: bool,
    /// The template in effect.
    pub effective_commit_message: String,
    /// Template for added translations.
    pub add_message: String,
    /// Always false.
    pub inherit_add_message: bool,
    /// The template in effect.
    pub effective_add_message: String,
    /// Template for removed translations.
    pub delete_message: String,
    /// Always false.
    pub inherit_delete_message: bool,
    /// The template in effect.
    pub effective_delete_message: String,
    /// Template for merges.
    pub merge_message: String,
    /// Always false.
    pub inherit_merge_message: bool,
    /// The template in effect.
    pub effective_merge_message: String,
    /// Template for add-on changes.
    pub addon_message: String,
    /// Always false.
    pub inherit_addon_message: bool,
    /// The template in effect.
    pub effective_addon_message: String,
    /// Pull-request template.
    pub pull_message: String,
    /// Always false.
    pub inherit_pull_message: bool,
    /// The template in effect.
    pub effective_pull_message: String,
    /// Members need two-factor authentication.
    pub enforced_2fa: bool,
    /// Machinery settings link.
    pub machinery_settings: String,
    /// True when every component is locked.
    pub locked: bool,
    /// Announcements.
    pub announcements_url: String,
    /// Checks that block saving.
    pub enforced_checks: Vec<String>,
    /// Always false.
    pub inherit_enforced_checks: bool,
    /// The checks in effect.
    pub effective_enforced_checks: Vec<String>,
}

impl ProjectDto {
    /// Serialises a project.
    pub fn new(view: ProjectView, links: &Links) -> Self {
        let s = view.project.settings;
        let slug = s.slug.clone();
        let sub = |name: &str| links.api(&["projects", &slug, name]);
        Self {
            name: s.name,
            id: view.project.id,
            web: s.web,
            web_url: links.web(&["projects", &slug]),
            url: links.api(&["projects", &slug]),
            effective_check_flags: s.check_flags.clone(),
            check_flags: s.check_flags,
            components_list_url: sub("components"),
            repository_url: sub("repository"),
            statistics_url: sub("statistics"),
            metrics_url: sub("metrics"),
            categories_url: sub("categories"),
            changes_list_url: sub("changes"),
            languages_url: sub("languages"),
            labels_url: sub("labels"),
            reports_url: sub("reports"),
            lock_url: sub("lock"),
            translation_review: s.translation_review,
            source_review: s.source_review,
            commit_policy: s.commit_policy,
            workspace: None,
            instructions: s.instructions,
            enable_hooks: s.enable_hooks,
            language_aliases: s.language_aliases,
            access_control: s.access_control,
            public_sharing: s.public_sharing,
            use_shared_tm: s.use_shared_tm,
            contribute_shared_tm: s.contribute_shared_tm,
            use_workspace_tm: false,
            contribute_workspace_tm: false,
            autoclean_tm: s.autoclean_tm,
            effective_license: s.license.clone(),
            license: s.license,
            inherit_license: false,
            effective_agreement: s.agreement.clone(),
            agreement: s.agreement,
            inherit_agreement: false,
            effective_new_lang: s.new_lang.clone(),
            new_lang: s.new_lang,
            inherit_new_lang: false,
            effective_language_code_style: s.language_code_style.clone(),
            language_code_style: s.language_code_style,
            inherit_language_code_style: false,
            secondary_language: s.secondary_language,
            inherit_secondary_language: false,
            effective_secondary_language: s.secondary_language,
            effective_commit_message: s.commit_message.clone(),
            commit_message: s.commit_message,
            inherit_commit_message: false,
            effective_add_message: s.add_message.clone(),
            add_message: s.add_message,
            inherit_add_message: false,
            effective_delete_message: s.delete_message.clone(),
            delete_message: s.delete_message,
            inherit_delete_message: false,
            effective_merge_message: s.merge_message.clone(),
            merge_message: s.merge_message,
            inherit_merge_message: false,
            effective_addon_message: s.addon_message.clone(),
            addon_message: s.addon_message,
            inherit_addon_message: false,
            effective_pull_message: s.pull_message.clone(),
            pull_message: s.pull_message,
            inherit_pull_message: false,
            enforced_2fa: s.enforced_2fa,
            machinery_settings: sub("machinery_settings"),
            locked: view.locked,
            announcements_url: sub("announcements"),
            effective_enforced_checks: s.enforced_checks.clone(),
            enforced_checks: s.enforced_checks,
            inherit_enforced_checks: false,
            slug,
        }
    }
}
