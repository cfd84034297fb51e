//! Components.

use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;
use tolk_domain::component::{ComponentSettings, REPOSITORY_SETTINGS};
use tolk_domain::permission::Subject;
use tolk_service::components::ComponentView;
use tolk_service::projects::ProjectView;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{Schema, SchemaType, Type};
use utoipa::{PartialSchema, ToSchema};

use crate::dto::language::LanguageDto;
use crate::dto::project::ProjectDto;
use crate::links::{Links, nested};

/// A component's settings as one caller sees them: without `vcs.view` on
/// the component, the [`REPOSITORY_SETTINGS`] are null.
#[derive(Debug, Clone, PartialEq)]
pub struct ShownComponentSettings {
    /// Every setting.
    pub settings: ComponentSettings,
    /// Whether the caller may see where the repository is.
    pub repository: bool,
}

impl Serialize for ShownComponentSettings {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.repository {
            return self.settings.serialize(serializer);
        }
        let mut value = serde_json::to_value(&self.settings).map_err(serde::ser::Error::custom)?;
        if let Some(map) = value.as_object_mut() {
            for key in REPOSITORY_SETTINGS {
                map.insert(key.to_owned(), Value::Null);
            }
        }
        value.serialize(serializer)
    }
}

impl PartialSchema for ShownComponentSettings {
    /// [`ComponentSettings`]' schema with the repository settings nullable.
    fn schema() -> RefOr<Schema> {
        let mut schema = ComponentSettings::schema();
        if let RefOr::T(Schema::Object(object)) = &mut schema {
            for key in REPOSITORY_SETTINGS {
                if let Some(RefOr::T(Schema::Object(field))) = object.properties.get_mut(key) {
                    field.schema_type = SchemaType::from_iter([Type::String, Type::Null]);
                }
            }
        }
        schema
    }
}

impl ToSchema for ShownComponentSettings {}

/// A component, with every key Weblate emits: its settings as the API
/// shows them (flattened from [`ComponentSettings`]; repository URLs
/// without credentials, a linked component's repository settings from the
/// component it shares; where the repository is only for callers with
/// `vcs.view`) and what is derived from them. An `inherit_*` key is true
/// when the component leaves that setting empty and so takes its
/// project's, which `effective_*` reports.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct ComponentDto {
    /// Id.
    pub id: i64,
    /// Source language.
    pub source_language: LanguageDto,
    /// The project (left out in a project's component list).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project: Option<ProjectDto>,
    /// Every setting.
    #[serde(flatten)]
    pub settings: ShownComponentSettings,
    /// Link to an exported Git repository; empty: Tolk exports none (null
    /// without `vcs.view`).
    pub git_export: Option<String>,
    /// Whether the license is the project's.
    pub inherit_license: bool,
    /// The license in effect.
    pub effective_license: String,
    /// The SPDX page of the license, or empty.
    pub license_url: String,
    /// Its announcements.
    pub announcements_url: String,
    /// Whether the agreement is the project's.
    pub inherit_agreement: bool,
    /// The agreement in effect.
    pub effective_agreement: String,
    /// Browser link.
    pub web_url: String,
    /// API link.
    pub url: String,
    /// Repository status and operations.
    pub repository_url: String,
    /// Translations.
    pub translations_url: String,
    /// Statistics per translation.
    pub statistics_url: String,
    /// Lock state.
    pub lock_url: String,
    /// Projects sharing the component.
    pub links_url: String,
    /// Changes.
    pub changes_list_url: String,
    /// The background task working on the component, or null.
    pub task_url: Option<String>,
    /// Whether `new_lang` is the project's.
    pub inherit_new_lang: bool,
    /// How new languages are added, in effect.
    pub effective_new_lang: String,
    /// Whether the language code style is the project's.
    pub inherit_language_code_style: bool,
    /// The language code style in effect.
    pub effective_language_code_style: String,
    /// The project's flags followed by the component's.
    pub effective_check_flags: String,
    /// Whether the enforced checks are the project's.
    pub inherit_enforced_checks: bool,
    /// The enforced checks in effect.
    pub effective_enforced_checks: Vec<String>,
    /// Whether the commit message is the project's.
    pub inherit_commit_message: bool,
    /// The commit message in effect.
    pub effective_commit_message: String,
    /// Whether the add message is the project's.
    pub inherit_add_message: bool,
    /// The add message in effect.
    pub effective_add_message: String,
    /// Whether the delete message is the project's.
    pub inherit_delete_message: bool,
    /// The delete message in effect.
    pub effective_delete_message: String,
    /// Whether the merge message is the project's.
    pub inherit_merge_message: bool,
    /// The merge message in effect.
    pub effective_merge_message: String,
    /// Whether the add-on message is the project's.
    pub inherit_addon_message: bool,
    /// The add-on message in effect.
    pub effective_addon_message: String,
    /// Whether the pull-request message is the project's.
    pub inherit_pull_message: bool,
    /// The pull-request message in effect.
    pub effective_pull_message: String,
    /// Whether the secondary language is the project's.
    pub inherit_secondary_language: bool,
    /// The secondary language in effect.
    pub effective_secondary_language: Option<i64>,
    /// API links of the component's add-ons.
    pub addons: Vec<String>,
    /// API link of the component's category, or null.
    pub category: Option<String>,
    /// API link of the component whose repository this one shares, or null
    /// (also without `vcs.view`).
    pub linked_component: Option<String>,
    /// Whether the component refuses edits.
    pub locked: bool,
}

impl ComponentDto {
    /// Serialises a component as `subject` sees it; `with_project` nests
    /// its project.
    pub fn new(view: ComponentView, links: &Links, with_project: bool, subject: &Subject) -> Self {
        let repository = view.shows_repository_to(subject);
        let settings = view.public_settings();
        let project_slug = view.project.settings.slug.clone();
        let effective = view.effective();
        let shown_effective = effective.clone();
        let own = &view.component.settings;
        let path = nested(&view.component.path);
        let url = |parts: &[&str]| {
            let mut segments = vec!["components", project_slug.as_str(), path.as_str()];
            segments.extend_from_slice(parts);
            links.api(&segments)
        };
        let license_url = if effective.license.is_empty() {
            String::new()
        } else {
            format!("https://spdx.org/licenses/{}.html", effective.license)
        };
        Self {
            id: view.component.id,
            source_language: LanguageDto::new(view.source_language.clone(), links),
            git_export: repository.then(String::new),
            inherit_license: own.license.is_empty(),
            effective_license: effective.license,
            license_url,
            announcements_url: url(&["announcements"]),
            inherit_agreement: own.agreement.is_empty(),
            effective_agreement: effective.agreement,
            web_url: links.web(&["projects", &project_slug, &view.component.path]),
            url: url(&[]),
            repository_url: url(&["repository"]),
            translations_url: url(&["translations"]),
            statistics_url: url(&["statistics"]),
            lock_url: url(&["lock"]),
            links_url: url(&["links"]),
            changes_list_url: url(&["changes"]),
            task_url: view
                .component
                .task_id
                .as_deref()
                .map(|id| links.api(&["tasks", id])),
            inherit_new_lang: own.new_lang.is_empty(),
            effective_new_lang: effective.new_lang,
            inherit_language_code_style: own.language_code_style.is_empty(),
            effective_language_code_style: effective.language_code_style,
            effective_check_flags: effective.check_flags,
            inherit_enforced_checks: own.enforced_checks.is_empty(),
            effective_enforced_checks: effective.enforced_checks,
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
            inherit_secondary_language: own.secondary_language.is_none(),
            effective_secondary_language: effective.secondary_language,
            addons: view
                .addon_ids
                .iter()
                .map(|id| links.api(&["addons", &id.to_string()]))
                .collect(),
            category: view
                .component
                .category_id
                .map(|id| links.api(&["categories", &id.to_string()])),
            linked_component: view
                .linked
                .as_ref()
                .filter(|_| repository)
                .map(|(p, c, _)| links.api(&["components", p, &nested(c)])),
            locked: view.component.locked,
            project: with_project.then(|| {
                ProjectDto::new(
                    ProjectView {
                        project: view.project.clone(),
                        locked: view.project_locked,
                    },
                    links,
                )
            }),
            settings: ShownComponentSettings {
                settings: settings.with_messages_shown(&shown_effective),
                repository,
            },
        }
    }
}

/// A component created from uploaded files (multipart): its settings, and
/// a ZIP archive of its translation files, kept in a local repository
/// (`vcs: local`) instead of a clone.
#[derive(ToSchema)]
pub struct ComponentUpload {
    /// Every setting, as in a JSON body.
    #[serde(flatten)]
    pub settings: tolk_domain::component::ComponentCreate,
    /// The translation files as a ZIP archive.
    pub zipfile: Option<crate::schemas::FileBytes>,
    /// One document, stored where the file mask puts the source language
    /// (the file mask defaults to `{slug}/*.{extension of the document}`).
    pub docfile: Option<crate::schemas::FileBytes>,
}

/// What creates a component: its settings, with a repository to clone, or
/// a copy of another component (whose other settings, given beside, override
/// the copied ones).
#[derive(Deserialize, ToSchema)]
#[serde(untagged)]
pub enum ComponentCreateBody {
    /// Settings and a repository.
    Settings(Box<tolk_domain::component::ComponentCreate>),
    /// A copy of another component.
    Copy(tolk_domain::component::ComponentCopy),
}

/// Shares a component into another project (`links/`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
pub struct LinkCreate {
    /// Slug of the project to share the component into.
    #[schema(min_length = 1, max_length = 100)]
    pub project_slug: String,
    /// Category of that project to place it in (categories come later:
    /// only null or absent is accepted).
    pub category_id: Option<i64>,
}

/// What sharing a component answers.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct ComponentLinked {
    /// The shared component.
    pub data: ComponentDto,
}
