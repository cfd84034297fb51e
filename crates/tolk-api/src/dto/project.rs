//! Projects.

use serde::Serialize;
use tolk_domain::project::ProjectSettings;
use tolk_service::projects::ProjectView;
use utoipa::ToSchema;

use crate::links::Links;

/// A project, with every key Weblate emits: its settings as they are
/// (flattened from [`ProjectSettings`], so a new setting needs no change
/// here) and what is derived from them. Tolk has no workspaces, so
/// `workspace` is null, nothing is inherited and every `effective_*` value
/// is the project's own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ProjectDto {
    /// Id.
    pub id: i64,
    /// Every setting.
    #[serde(flatten)]
    pub settings: ProjectSettings,
    /// Browser link.
    pub web_url: String,
    /// API link.
    pub url: String,
    /// Same as `check_flags`.
    pub effective_check_flags: String,
    /// Components of the project.
    pub components_list_url: String,
    /// Repository status and operations.
    pub repository_url: String,
    /// Statistics.
    pub statistics_url: String,
    /// Figures of every translation.
    pub metrics_url: String,
    /// Categories.
    pub categories_url: String,
    /// Changes.
    pub changes_list_url: String,
    /// Statistics per language.
    pub languages_url: String,
    /// Labels.
    pub labels_url: String,
    /// Lock state of all the project's components.
    pub lock_url: String,
    /// Always null: Tolk has no workspaces.
    pub workspace: Option<String>,
    /// Always false: no workspaces.
    pub use_workspace_tm: bool,
    /// Always false: no workspaces.
    pub contribute_workspace_tm: bool,
    /// Always false.
    pub inherit_license: bool,
    /// The license in effect.
    pub effective_license: String,
    /// Always false.
    pub inherit_agreement: bool,
    /// The agreement in effect.
    pub effective_agreement: String,
    /// Always false.
    pub inherit_new_lang: bool,
    /// The setting in effect.
    pub effective_new_lang: String,
    /// Always false.
    pub inherit_language_code_style: bool,
    /// The style in effect.
    pub effective_language_code_style: String,
    /// Always false.
    pub inherit_secondary_language: bool,
    /// The secondary language in effect.
    pub effective_secondary_language: Option<i64>,
    /// Always false.
    pub inherit_commit_message: bool,
    /// The template in effect.
    pub effective_commit_message: String,
    /// Always false.
    pub inherit_add_message: bool,
    /// The template in effect.
    pub effective_add_message: String,
    /// Always false.
    pub inherit_delete_message: bool,
    /// The template in effect.
    pub effective_delete_message: String,
    /// Always false.
    pub inherit_merge_message: bool,
    /// The template in effect.
    pub effective_merge_message: String,
    /// Always false.
    pub inherit_addon_message: bool,
    /// The template in effect.
    pub effective_addon_message: String,
    /// Always false.
    pub inherit_pull_message: bool,
    /// The template in effect.
    pub effective_pull_message: String,
    /// True when every component is locked.
    pub locked: bool,
    /// Its announcements.
    pub announcements_url: String,
    /// Always false.
    pub inherit_enforced_checks: bool,
    /// The checks in effect.
    pub effective_enforced_checks: Vec<String>,
}

impl ProjectDto {
    /// Serialises a project.
    pub fn new(view: ProjectView, links: &Links) -> Self {
        let s = view.project.settings;
        let sub = |name: &str| links.api(&["projects", &s.slug, name]);
        Self {
            id: view.project.id,
            web_url: links.web(&["projects", &s.slug]),
            url: links.api(&["projects", &s.slug]),
            effective_check_flags: s.check_flags.clone(),
            components_list_url: sub("components"),
            repository_url: sub("repository"),
            statistics_url: sub("statistics"),
            metrics_url: sub("metrics"),
            categories_url: sub("categories"),
            changes_list_url: sub("changes"),
            languages_url: sub("languages"),
            labels_url: sub("labels"),
            lock_url: sub("lock"),
            announcements_url: sub("announcements"),
            workspace: None,
            use_workspace_tm: false,
            contribute_workspace_tm: false,
            inherit_license: false,
            effective_license: s.license.clone(),
            inherit_agreement: false,
            effective_agreement: s.agreement.clone(),
            inherit_new_lang: false,
            effective_new_lang: s.new_lang.clone(),
            inherit_language_code_style: false,
            effective_language_code_style: s.language_code_style.clone(),
            inherit_secondary_language: false,
            effective_secondary_language: s.secondary_language,
            inherit_commit_message: false,
            effective_commit_message: s.commit_message.clone(),
            inherit_add_message: false,
            effective_add_message: s.add_message.clone(),
            inherit_delete_message: false,
            effective_delete_message: s.delete_message.clone(),
            inherit_merge_message: false,
            effective_merge_message: s.merge_message.clone(),
            inherit_addon_message: false,
            effective_addon_message: s.addon_message.clone(),
            inherit_pull_message: false,
            effective_pull_message: s.pull_message.clone(),
            locked: view.locked,
            inherit_enforced_checks: false,
            effective_enforced_checks: s.enforced_checks.clone(),
            settings: s,
        }
    }
}
