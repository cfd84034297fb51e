//! Downloads of files from a component's repository: a translation's file
//! with its pending edits written (or converted, see [`crate::conversion`]),
//! the monolingual base and the base of new translations.

use chrono::NaiveDateTime;
use tolk_domain::permission::{Permission, Subject};

use tolk_store::units::{self, UnitFilter};

use crate::access::require;
use crate::component_view::ComponentView;
use crate::conversion::{INCOMPATIBLE, converter};
use crate::units::condition_of;
use crate::{ServiceError, ServiceResult};

/// A file as a download serves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Download {
    /// The name offered to save it as.
    pub name: String,
    /// Its media type.
    pub mime: &'static str,
    /// Whether the media type names UTF-8 as its character set.
    pub charset: bool,
    /// Its content.
    pub bytes: Vec<u8>,
    /// When what it holds last changed.
    pub modified: Option<NaiveDateTime>,
}

/// Which file of a component a download asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ComponentFile {
    /// The monolingual base (`template`).
    MonolingualBase,
    /// The file new translations start from (`new_base`).
    NewTemplate,
}

const DENIED: &str = "You do not have permission to perform this action.";

crate::service::area!(
    /// The use-cases of translation files: downloads (as stored or converted),
    /// uploads and ZIP archives.
    Files,
    files
);

impl Files<'_> {
    /// A translation's file (§9.6): without `format`, as the repository
    /// holds it after its pending edits are written and committed; with
    /// it, its units (those `q` selects) converted by that converter.
    pub fn translation(
        &self,
        subject: &Subject,
        path: (&str, &str, &str),
        format: Option<&str>,
        q: Option<&str>,
    ) -> ServiceResult<Download> {
        let converter = match (format, q) {
            (None, Some(_)) => {
                return Err(ServiceError::invalid(
                    "q",
                    "Query string is ignored without format",
                ));
            }
            (None, None) => None,
            (Some(id), _) => Some(converter(id).ok_or_else(|| {
                ServiceError::invalid("format", &format!("Conversion to {id} is not supported"))
            })?),
        };
        let condition = condition_of(q)?;
        let (view, condition) = self.store.read(|conn| {
            let view = self.translation_of_units(conn, subject, path)?;
            let project = Some(view.component.project.id);
            let condition = crate::glossary::resolve_search(conn, condition, project)?;
            Ok::<_, ServiceError>((view, condition))
        })?;
        require(
            subject,
            Permission::TRANSLATION_DOWNLOAD,
            view.target(),
            DENIED,
        )?;
        let stem = view.file_stem();
        let modified = view.translation.last_change;
        if let Some(converter) = converter {
            if !converter.fits(&view) {
                return Err(ServiceError::invalid("format", INCOMPATIBLE));
            }
            let filter = UnitFilter {
                translation_id: Some(view.translation.id),
                condition,
                known_count: None,
            };
            let rows = self.store.read(|conn| units::for_export(conn, &filter))?;
            let name = format!("{stem}.{}", converter.extension);
            let bytes = converter
                .write(&view, &name, rows)
                .map_err(|message| ServiceError::invalid("format", &message))?;
            return Ok(Download {
                name,
                mime: converter.mime,
                charset: true,
                bytes,
                modified,
            });
        }
        let filename = view.translation.filename.clone();
        if filename.is_empty() {
            return Err(ServiceError::NotFound);
        }
        self.commit_component(&view.component, false)?;
        let bytes = self.read_file(&view.component, &filename)?;
        let extension = filename.rsplit_once('.').map_or("", |(_, e)| e);
        Ok(Download {
            name: format!("{stem}.{extension}"),
            mime: mime_of(&view.component.component.settings.file_format),
            charset: false,
            bytes,
            modified,
        })
    }

    /// The monolingual base or new-translation base of a component; not
    /// found when the component has none.
    pub fn component(
        &self,
        subject: &Subject,
        project_slug: &str,
        slug: &str,
        which: ComponentFile,
    ) -> ServiceResult<Download> {
        let view = self.components().get(subject, project_slug, slug)?;
        require(
            subject,
            Permission::TRANSLATION_DOWNLOAD,
            view.target(),
            DENIED,
        )?;
        let settings = &view.component.settings;
        let (path, mime) = match which {
            ComponentFile::MonolingualBase => {
                (settings.template.clone(), mime_of(&settings.file_format))
            }
            ComponentFile::NewTemplate => (settings.new_base.clone(), "application/binary"),
        };
        if path.is_empty() {
            return Err(ServiceError::NotFound);
        }
        let bytes = self.read_file(&view, &path)?;
        Ok(Download {
            name: path.rsplit('/').next().unwrap_or(&path).to_owned(),
            mime,
            charset: false,
            bytes,
            modified: None,
        })
    }

    /// A file of the component's work tree, read under the repository's lock.
    pub(crate) fn read_file(&self, view: &ComponentView, path: &str) -> ServiceResult<Vec<u8>> {
        let owner = self.repository_owner(&view.component)?;
        let _lock = self.workspace.lock_to_read(&owner)?;
        let tree = self
            .workspace
            .open(&owner, &owner.settings.branch)
            .work_tree()?;
        tree.read(path)?.ok_or(ServiceError::NotFound)
    }
}

fn mime_of(format: &str) -> &'static str {
    tolk_formats::find(format).map_or("application/octet-stream", |f| f.mime_type())
}
