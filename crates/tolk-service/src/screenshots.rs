//! Screenshots (§13): images showing where strings appear, on a
//! translation (usually the source language's), linked to its units.
//! Whoever sees the component sees its screenshots; uploading, editing
//! and removing need `screenshot.add`, `.edit` and `.delete` on the
//! translation. Images are checked to be PNG, JPEG, WebP or GIF and kept
//! as files under the media directory, written before the row that names
//! them and removed after it: a failure leaves at most an unnamed file,
//! never a row without its image.

use std::collections::HashMap;
use std::path::PathBuf;

use tolk_domain::change::Action;
use tolk_domain::permission::{Permission, Subject};
use tolk_domain::validation::{FieldErrors, check_length, check_text};
use tolk_store::changes::{self, NewChange};
use tolk_store::screenshots::{self, NewScreenshot, Screenshot};
use tolk_store::{DbConnection, Page, PageRequest, time, translations, units};

use crate::access::{page, require};
use crate::components::visible_component;
use crate::translations::{TranslationView, translation_views, visible_translation};
use crate::{Service, ServiceError, ServiceResult};

/// Longest screenshot name.
const MAX_NAME: usize = 200;
/// Longest repository file name.
const MAX_FILENAME: usize = 255;
/// The media directory's folder for screenshots.
const FOLDER: &str = "screenshots";
/// Django's words for a file that is no image.
const NOT_AN_IMAGE: &str =
    "Upload a valid image. The file you uploaded was either not an image or a corrupted image.";

/// A screenshot with the place of its translation and its units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScreenshotView {
    /// The stored screenshot.
    pub screenshot: Screenshot,
    /// Project slug, component slug and language code of its translation.
    pub translation: (String, String, String),
    /// Ids of its units.
    pub units: Vec<i64>,
}

/// What a new screenshot is given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NewImage {
    /// Name.
    pub name: Option<String>,
    /// Project of the translation.
    pub project_slug: Option<String>,
    /// Component of the translation.
    pub component_slug: Option<String>,
    /// Language of the translation.
    pub language_code: Option<String>,
    /// Where the repository holds the image.
    pub repository_filename: Option<String>,
    /// The image: file name and bytes.
    pub image: Option<(String, Vec<u8>)>,
}

/// The file extension of an image Tolk keeps, or why it is refused.
fn image_extension(bytes: &[u8]) -> Result<&'static str, &'static str> {
    use imagesize::ImageType;
    let extension = match imagesize::image_type(bytes).map_err(|_| NOT_AN_IMAGE)? {
        ImageType::Png => "png",
        ImageType::Jpeg => "jpg",
        ImageType::Gif => "gif",
        ImageType::Webp => "webp",
        _ => return Err(NOT_AN_IMAGE),
    };
    // The header must hold a size: a truncated or forged file does not.
    let size = imagesize::blob_size(bytes).map_err(|_| NOT_AN_IMAGE)?;
    if size.width == 0 || size.height == 0 {
        return Err(NOT_AN_IMAGE);
    }
    Ok(extension)
}

/// Views of screenshots whose translations the caller sees (the others
/// are left out), each with its translation, in a fixed number of
/// statements.
fn views_with_translations(
    conn: &mut DbConnection,
    subject: &Subject,
    rows: Vec<Screenshot>,
) -> ServiceResult<Vec<(ScreenshotView, TranslationView)>> {
    let mut ids: Vec<i64> = rows.iter().map(|s| s.translation_id).collect();
    ids.sort_unstable();
    ids.dedup();
    let found = translations::get_by_ids(conn, &ids)?;
    let seen: HashMap<i64, TranslationView> = translation_views(conn, found)?
        .into_iter()
        .filter(|t| t.component.visible_to(subject))
        .map(|t| (t.translation.id, t))
        .collect();
    let shot_ids: Vec<i64> = rows.iter().map(|s| s.id).collect();
    let links = screenshots::units_of(conn, &shot_ids)?;
    Ok(rows
        .into_iter()
        .filter_map(|screenshot| {
            let translation = seen.get(&screenshot.translation_id)?;
            let view = ScreenshotView {
                translation: (
                    translation.component.project.settings.slug.clone(),
                    translation.component.component.path.clone(),
                    translation.language.row.code.clone(),
                ),
                units: links
                    .iter()
                    .filter(|(s, _)| *s == screenshot.id)
                    .map(|(_, u)| *u)
                    .collect(),
                screenshot,
            };
            Some((view, translation.clone()))
        })
        .collect())
}

/// Views of screenshots whose translations the caller sees.
pub(crate) fn views(
    conn: &mut DbConnection,
    subject: &Subject,
    rows: Vec<Screenshot>,
) -> ServiceResult<Vec<ScreenshotView>> {
    Ok(views_with_translations(conn, subject, rows)?
        .into_iter()
        .map(|(view, _)| view)
        .collect())
}

/// The screenshot `id` if the caller sees it, with its translation.
pub(crate) fn visible(
    conn: &mut DbConnection,
    subject: &Subject,
    id: i64,
) -> ServiceResult<(ScreenshotView, TranslationView)> {
    let row = screenshots::get(conn, id)?.ok_or(ServiceError::NotFound)?;
    views_with_translations(conn, subject, vec![row])?
        .pop()
        .ok_or(ServiceError::NotFound)
}

/// The screenshot `id` if the caller sees it and holds `permission` on
/// its translation.
fn permitted(
    conn: &mut DbConnection,
    subject: &Subject,
    id: i64,
    permission: Permission,
) -> ServiceResult<(ScreenshotView, TranslationView)> {
    let (view, translation) = visible(conn, subject, id)?;
    require(
        subject,
        permission,
        translation.target(),
        "You do not have permission to perform this action.",
    )?;
    Ok((view, translation))
}

/// A change about a screenshot of `translation`.
fn change(action: Action, subject: &Subject, translation: &TranslationView) -> NewChange {
    NewChange {
        project_id: Some(translation.component.project.id),
        component_id: Some(translation.component.component.id),
        translation_id: Some(translation.translation.id),
        language_id: Some(translation.language.row.id),
        ..NewChange::new(action, subject.user_id())
    }
}

crate::service::area!(
    /// The use-cases of screenshots and the strings they show.
    Screenshots,
    screenshots
);

impl Screenshots<'_> {
    /// Writes an image under the media directory, whole or not at all
    /// ([`tolk_vcs::write_atomic`]); its path there.
    fn store_image(&self, bytes: &[u8], extension: &str) -> ServiceResult<String> {
        let folder = self.screenshot_folder();
        std::fs::create_dir_all(&folder)
            .map_err(ServiceError::writing("the screenshots' folder"))?;
        let name = format!("{}.{extension}", crate::ids::new_uuid());
        tolk_vcs::write_atomic(&folder.join(&name), bytes)
            .map_err(ServiceError::writing("a screenshot"))?;
        Ok(format!("{FOLDER}/{name}"))
    }

    /// The screenshots the caller sees (of one component, when given), by id.
    pub fn list(
        &self,
        subject: &Subject,
        component: Option<(&str, &str)>,
        request: PageRequest,
    ) -> ServiceResult<Page<ScreenshotView>> {
        self.store.read(|conn| {
            let component_id = match component {
                Some((project, slug)) => Some(
                    visible_component(conn, subject, project, slug)?
                        .component
                        .id,
                ),
                None => None,
            };
            let found = page(screenshots::list(
                conn,
                &subject.project_visibility(),
                component_id,
                request,
            ))?;
            found.try_map_items(|rows| views(conn, subject, rows))
        })
    }

    /// One screenshot.
    pub fn get(&self, subject: &Subject, id: i64) -> ServiceResult<ScreenshotView> {
        self.store
            .read(|conn| visible(conn, subject, id).map(|(view, _)| view))
    }

    /// Uploads a screenshot of a translation (needs `screenshot.add` on it).
    pub fn create(&self, subject: &Subject, new: NewImage) -> ServiceResult<ScreenshotView> {
        // Where it goes first: the translation and the right to add to it.
        let place = match (&new.project_slug, &new.component_slug, &new.language_code) {
            (Some(project), Some(component), Some(language)) => {
                Some((project, component, language))
            }
            _ => None,
        };
        let Some((project, component, language)) = place else {
            let mut errors = FieldErrors::default();
            for (value, attr) in [
                (&new.name, "name"),
                (&new.project_slug, "project_slug"),
                (&new.component_slug, "component_slug"),
                (&new.language_code, "language_code"),
            ] {
                if value.is_none() {
                    errors.required(attr);
                }
            }
            return Err(ServiceError::Validation(errors));
        };
        let translation = self.store.read(|conn| {
            match visible_translation(conn, subject, (project, component, language)) {
                Err(ServiceError::NotFound) => {
                    let mut errors = FieldErrors::default();
                    for attr in ["project_slug", "component_slug", "language_code"] {
                        errors.invalid(attr, "Translation not found.");
                    }
                    Err(ServiceError::Validation(errors))
                }
                other => other,
            }
        })?;
        require(
            subject,
            Permission::SCREENSHOT_ADD,
            translation.target(),
            "You do not have permission to perform this action.",
        )?;
        let mut errors = FieldErrors::default();
        let name = new.name.clone().unwrap_or_default();
        if new.name.is_none() {
            errors.required("name");
        } else {
            check_text(&name, "name", MAX_NAME, &mut errors);
        }
        let repository_filename = new.repository_filename.clone().unwrap_or_default();
        check_length(
            &repository_filename,
            "repository_filename",
            MAX_FILENAME,
            &mut errors,
        );
        let extension = match &new.image {
            None => {
                errors.push("image", "required", "No file was submitted.");
                ""
            }
            Some((_, bytes)) => image_extension(bytes).unwrap_or_else(|message| {
                errors.invalid("image", message);
                ""
            }),
        };
        errors.into_result()?;
        let bytes = new.image.map(|(_, bytes)| bytes).unwrap_or_default();
        let image_path = self.store_image(&bytes, extension)?;
        let made = self.store.write(|conn| {
            let id = screenshots::insert(
                conn,
                &NewScreenshot {
                    translation_id: translation.translation.id,
                    user_id: subject.user_id(),
                    name: name.clone(),
                    repository_filename: repository_filename.clone(),
                    image_path: image_path.clone(),
                    created: time::now(),
                },
            )?;
            let record = NewChange {
                target: name.clone(),
                ..change(Action::SCREENSHOT_UPLOADED, subject, &translation)
            };
            changes::record(conn, &record, time::now())?;
            visible(conn, subject, id).map(|(view, _)| view)
        });
        if made.is_err() {
            self.forget_image(&image_path);
        }
        made
    }

    /// Renames a screenshot and sets its repository file (needs
    /// `screenshot.edit`); fields left out keep their values.
    pub fn update(
        &self,
        subject: &Subject,
        id: i64,
        name: Option<String>,
        repository_filename: Option<String>,
    ) -> ServiceResult<ScreenshotView> {
        self.store.write(|conn| {
            let (view, _) = permitted(conn, subject, id, Permission::SCREENSHOT_EDIT)?;
            let name = name.unwrap_or(view.screenshot.name);
            let file = repository_filename.unwrap_or(view.screenshot.repository_filename);
            let mut errors = FieldErrors::default();
            check_text(&name, "name", MAX_NAME, &mut errors);
            check_length(&file, "repository_filename", MAX_FILENAME, &mut errors);
            errors.into_result()?;
            if !screenshots::update(conn, id, &name, &file)? {
                return Err(ServiceError::NotFound);
            }
            visible(conn, subject, id).map(|(view, _)| view)
        })
    }

    /// Removes a screenshot and its image (needs `screenshot.delete`).
    pub fn delete(&self, subject: &Subject, id: i64) -> ServiceResult<()> {
        let image = self.store.write(|conn| {
            let (view, _) = permitted(conn, subject, id, Permission::SCREENSHOT_DELETE)?;
            if !screenshots::delete(conn, id)? {
                return Err(ServiceError::NotFound);
            }
            Ok(view.screenshot.image_path)
        })?;
        self.forget_image(&image);
        Ok(())
    }

    /// The image file of a screenshot the caller sees, and the name to
    /// download it under.
    pub fn image(&self, subject: &Subject, id: i64) -> ServiceResult<(PathBuf, String)> {
        let view = self.screenshots().get(subject, id)?;
        let path = self
            .image_file(&view.screenshot.image_path)
            .filter(|p| p.is_file())
            .ok_or(ServiceError::NotFound)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok((path, name))
    }

    /// Replaces a screenshot's image (needs `screenshot.edit`).
    pub fn replace_image(
        &self,
        subject: &Subject,
        id: i64,
        image: Option<(String, Vec<u8>)>,
    ) -> ServiceResult<()> {
        let Some((_, bytes)) = image else {
            return Err(ServiceError::invalid("image", "No file was submitted."));
        };
        let extension = image_extension(&bytes).map_err(|m| ServiceError::invalid("image", m))?;
        self.store
            .read(|conn| permitted(conn, subject, id, Permission::SCREENSHOT_EDIT))?;
        let image_path = self.store_image(&bytes, extension)?;
        let replaced = self.store.write(|conn| {
            let (view, _) = permitted(conn, subject, id, Permission::SCREENSHOT_EDIT)?;
            if !screenshots::set_image(conn, id, &image_path)? {
                return Err(ServiceError::NotFound);
            }
            Ok(view.screenshot.image_path)
        });
        match replaced {
            Ok(old) => {
                self.forget_image(&old);
                Ok(())
            }
            Err(e) => {
                self.forget_image(&image_path);
                Err(e)
            }
        }
    }

    /// Links a unit of the screenshot's translation to it (needs
    /// `screenshot.edit`).
    pub fn add_unit(
        &self,
        subject: &Subject,
        id: i64,
        unit_id: Option<i64>,
    ) -> ServiceResult<ScreenshotView> {
        self.store.write(|conn| {
            let (view, translation) = permitted(conn, subject, id, Permission::SCREENSHOT_EDIT)?;
            let unit_id = unit_id
                .ok_or_else(|| ServiceError::invalid("unit_id", "Missing unit_id parameter"))?;
            units::get(conn, unit_id)?
                .filter(|u| u.translation_id == view.screenshot.translation_id)
                .ok_or_else(|| ServiceError::invalid("unit_id", "Unit not found."))?;
            if screenshots::add_unit(conn, id, unit_id)? {
                let record = NewChange {
                    unit_id: Some(unit_id),
                    target: view.screenshot.name.clone(),
                    ..change(Action::SCREENSHOT_ADDED, subject, &translation)
                };
                changes::record(conn, &record, time::now())?;
            }
            visible(conn, subject, id).map(|(view, _)| view)
        })
    }

    /// Unlinks a unit from a screenshot (needs `screenshot.edit`); not
    /// found when it is not linked.
    pub fn remove_unit(&self, subject: &Subject, id: i64, unit_id: i64) -> ServiceResult<()> {
        self.store.write(|conn| {
            let (view, translation) = permitted(conn, subject, id, Permission::SCREENSHOT_EDIT)?;
            if !screenshots::remove_unit(conn, id, unit_id)? {
                return Err(ServiceError::NotFound);
            }
            let record = NewChange {
                unit_id: Some(unit_id),
                target: view.screenshot.name,
                ..change(Action::SCREENSHOT_REMOVED, subject, &translation)
            };
            changes::record(conn, &record, time::now())?;
            Ok(())
        })
    }
}

impl Service {
    fn screenshot_folder(&self) -> PathBuf {
        self.config().media_root.join(FOLDER)
    }

    /// The file of an image path a row holds, if it is one Tolk wrote.
    fn image_file(&self, image_path: &str) -> Option<PathBuf> {
        let name = image_path.strip_prefix(&format!("{FOLDER}/"))?;
        let plain = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
            && !name.starts_with('.');
        plain.then(|| self.screenshot_folder().join(name))
    }

    /// Removes an image file no row names any more (a failure is logged:
    /// the row is gone, the file is only waste).
    fn forget_image(&self, image_path: &str) {
        if let Some(path) = self.image_file(image_path)
            && let Err(e) = std::fs::remove_file(&path)
        {
            tracing::warn!(path = %path.display(), "cannot remove a screenshot's image: {e}");
        }
    }

    /// Removes the image files of screenshots whose rows went with what
    /// held them (a translation, component or project).
    pub(crate) fn forget_images(&self, image_paths: &[String]) {
        for path in image_paths {
            self.forget_image(path);
        }
    }
}
