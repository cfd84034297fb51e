//! Screenshots (§13) and the bodies that make and change them.

use serde::{Deserialize, Serialize};
use tolk_service::screenshots::ScreenshotView;
use utoipa::ToSchema;

use crate::links::{Links, nested};
use crate::schemas::FileBytes;

/// A screenshot, in Weblate's key order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ScreenshotDto {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Path in the repository the image comes from, or empty.
    pub repository_filename: String,
    /// API link of its translation.
    pub translation: String,
    /// Where to download the image.
    pub file_url: String,
    /// API links of the units it shows.
    pub units: Vec<String>,
    /// API link.
    pub url: String,
}

impl ScreenshotDto {
    /// The screenshot as the API shows it.
    pub fn new(view: ScreenshotView, links: &Links) -> ScreenshotDto {
        let id = view.screenshot.id.to_string();
        let (project, component, language) = &view.translation;
        ScreenshotDto {
            id: view.screenshot.id,
            name: view.screenshot.name,
            repository_filename: view.screenshot.repository_filename,
            translation: links.api(&["translations", project, &nested(component), language]),
            file_url: links.api(&["screenshots", &id, "file"]),
            units: view
                .units
                .iter()
                .map(|unit| links.api(&["units", &unit.to_string()]))
                .collect(),
            url: links.api(&["screenshots", &id]),
        }
    }
}

/// A new screenshot as Weblate answers its upload: without `id`, with
/// `image` (Tolk's link to the image is its `file_url`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ScreenshotCreatedDto {
    /// Name.
    pub name: String,
    /// Path in the repository the image comes from, or empty.
    pub repository_filename: String,
    /// API link of its translation.
    pub translation: String,
    /// Where to download the image.
    pub file_url: String,
    /// API links of the units it shows.
    pub units: Vec<String>,
    /// API link.
    pub url: String,
    /// Link to the image.
    pub image: String,
}

impl From<ScreenshotDto> for ScreenshotCreatedDto {
    fn from(dto: ScreenshotDto) -> Self {
        ScreenshotCreatedDto {
            image: dto.file_url.clone(),
            name: dto.name,
            repository_filename: dto.repository_filename,
            translation: dto.translation,
            file_url: dto.file_url,
            units: dto.units,
            url: dto.url,
        }
    }
}

/// The text fields of a screenshot upload.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct ScreenshotFields {
    /// Name.
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub name: Option<String>,
    /// Project of the translation it shows.
    pub project_slug: Option<String>,
    /// Component of the translation it shows.
    pub component_slug: Option<String>,
    /// Language of the translation it shows (usually the source language).
    pub language_code: Option<String>,
    /// Path in the repository the image comes from.
    #[schema(max_length = 255)]
    pub repository_filename: Option<String>,
}

/// A screenshot upload (multipart): the image and its fields.
#[derive(ToSchema)]
pub struct ScreenshotUpload {
    /// PNG, JPEG, WebP or GIF image.
    pub image: FileBytes,
    /// Its fields.
    #[serde(flatten)]
    pub fields: ScreenshotFields,
}

/// A new image for a screenshot (multipart).
#[derive(ToSchema)]
pub struct ScreenshotImage {
    /// PNG, JPEG, WebP or GIF image.
    pub image: FileBytes,
}

/// Replaces a screenshot's fields (`name` required).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
pub struct ScreenshotChange {
    /// Name.
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub name: String,
    /// Path in the repository the image comes from.
    #[schema(max_length = 255)]
    pub repository_filename: Option<String>,
}

/// Changes some of a screenshot's fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct ScreenshotPatch {
    /// Name.
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub name: Option<String>,
    /// Path in the repository the image comes from.
    #[schema(max_length = 255)]
    pub repository_filename: Option<String>,
}

impl From<ScreenshotChange> for ScreenshotPatch {
    fn from(change: ScreenshotChange) -> Self {
        ScreenshotPatch {
            name: Some(change.name),
            repository_filename: change.repository_filename,
        }
    }
}

/// Links a unit to a screenshot.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
pub struct UnitIdBody {
    /// Id of a unit of the screenshot's translation.
    pub unit_id: Option<i64>,
}

/// What `POST /api/units/{id}/screenshots/` takes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct ScreenshotIdBody {
    /// The screenshot to show the unit's string on.
    pub screenshot_id: i64,
}
