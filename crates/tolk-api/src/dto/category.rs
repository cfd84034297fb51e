//! Categories (§16).

use serde::Serialize;
use tolk_service::categories::CategoryView;
use utoipa::ToSchema;

use crate::links::Links;

/// A category, in Weblate's key order: its links, then each inheritable
/// setting as its own value, whether it inherits, and the value in effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[allow(missing_docs)]
pub struct CategoryDto {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Slug.
    pub slug: String,
    /// API link of its project.
    pub project: String,
    /// API link of its parent category, or null.
    pub category: Option<String>,
    /// API link.
    pub url: String,
    /// Its statistics.
    pub statistics_url: String,
    /// Its announcements.
    pub announcements_url: String,
    /// Its own flags.
    pub check_flags: String,
    /// The inherited flags followed by its own.
    pub effective_check_flags: String,
    pub license: String,
    pub inherit_license: bool,
    pub effective_license: String,
    pub agreement: String,
    pub inherit_agreement: bool,
    pub effective_agreement: String,
    pub new_lang: String,
    pub inherit_new_lang: bool,
    pub effective_new_lang: String,
    pub language_code_style: String,
    pub inherit_language_code_style: bool,
    pub effective_language_code_style: String,
    pub secondary_language: Option<i64>,
    pub inherit_secondary_language: bool,
    pub effective_secondary_language: Option<i64>,
    pub commit_message: String,
    pub inherit_commit_message: bool,
    pub effective_commit_message: String,
    pub add_message: String,
    pub inherit_add_message: bool,
    pub effective_add_message: String,
    pub delete_message: String,
    pub inherit_delete_message: bool,
    pub effective_delete_message: String,
    pub merge_message: String,
    pub inherit_merge_message: bool,
    pub effective_merge_message: String,
    pub addon_message: String,
    pub inherit_addon_message: bool,
    pub effective_addon_message: String,
    pub pull_message: String,
    pub inherit_pull_message: bool,
    pub effective_pull_message: String,
}

impl CategoryDto {
    /// The category as the API shows it.
    pub fn new(view: CategoryView, links: &Links) -> CategoryDto {
        let effective = view.effective();
        let id = view.category.id.to_string();
        let url = |part: Option<&str>| {
            let mut segments = vec!["categories", id.as_str()];
            segments.extend(part);
            links.api(&segments)
        };
        let own = view.category.settings;
        CategoryDto {
            id: view.category.id,
            project: links.api(&["projects", &view.project.settings.slug]),
            category: view
                .category
                .parent_id
                .map(|p| links.api(&["categories", &p.to_string()])),
            url: url(None),
            statistics_url: url(Some("statistics")),
            announcements_url: url(Some("announcements")),
            effective_check_flags: effective.check_flags,
            inherit_license: own.license.is_empty(),
            effective_license: effective.license,
            inherit_agreement: own.agreement.is_empty(),
            effective_agreement: effective.agreement,
            inherit_new_lang: own.new_lang.is_empty(),
            effective_new_lang: effective.new_lang,
            inherit_language_code_style: own.language_code_style.is_empty(),
            effective_language_code_style: effective.language_code_style,
            inherit_secondary_language: own.secondary_language.is_none(),
            effective_secondary_language: effective.secondary_language,
            inherit_commit_message: own.commit_message.is_empty(),
            effective_commit_message: effective.commit_message,
            inherit_add_message: own.add_message.is_empty(),
            effective_add_message: effective.add_message,
            inherit_delete_message: own.delete_message.is_empty(),
            effective_delete_message: effective.delete_message,
            inherit_merge_message: own.merge_message.is_empty(),
            effective_merge_message: effective.merge_message,
            inherit_addon_message: own.addon_message.is_empty(),
            effective_addon_message: effective.addon_message,
            inherit_pull_message: own.pull_message.is_empty(),
            effective_pull_message: effective.pull_message,
            name: own.name,
            slug: own.slug,
            check_flags: own.check_flags,
            license: own.license,
            agreement: own.agreement,
            new_lang: own.new_lang,
            language_code_style: own.language_code_style,
            secondary_language: own.secondary_language,
            commit_message: own.commit_message,
            add_message: own.add_message,
            delete_message: own.delete_message,
            merge_message: own.merge_message,
            addon_message: own.addon_message,
            pull_message: own.pull_message,
        }
    }
}
