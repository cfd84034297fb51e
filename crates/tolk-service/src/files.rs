//! Downloads of files from a component's repository: a translation's file
//! with its pending edits written, the monolingual base and the base of
//! new translations.

use chrono::NaiveDateTime;
use tolk_domain::permission::{Permission, Subject};

use crate::access::require;
use crate::components::ComponentView;
use crate::{Service, ServiceError, ServiceResult};

/// A file as a download serves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Download {
    /// The name offered to save it as.
    pub name: String,
    /// Its media type.
    pub mime: &'static str,
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

impl Service {
    /// A translation's file as the repository holds it, after its pending
    /// edits are written and committed (§9.6, without conversion).
    pub fn translation_file(
        &self,
        subject: &Subject,
        path: (&str, &str, &str),
    ) -> ServiceResult<Download> {
        let view = self.translation(subject, path)?;
        require(
            subject,
            Permission::TRANSLATION_DOWNLOAD,
            view.target(),
            DENIED,
        )?;
        let filename = view.translation.filename.clone();
        if filename.is_empty() {
            return Err(ServiceError::NotFound);
        }
        self.commit_component(&view.component, false)?;
        let bytes = self.read_file(&view.component, &filename)?;
        let extension = filename.rsplit_once('.').map_or("", |(_, e)| e);
        let c = &view.component;
        Ok(Download {
            name: format!(
                "{}-{}-{}.{extension}",
                c.project.settings.slug, c.component.settings.slug, view.language.row.code
            ),
            mime: mime_of(&c.component.settings.file_format),
            bytes,
            modified: view.translation.last_change,
        })
    }

    /// The monolingual base or new-translation base of a component; not
    /// found when the component has none.
    pub fn component_file(
        &self,
        subject: &Subject,
        project_slug: &str,
        slug: &str,
        which: ComponentFile,
    ) -> ServiceResult<Download> {
        let view = self.component(subject, project_slug, slug)?;
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
            bytes,
            modified: None,
        })
    }

    /// A file of the component's work tree, read under the repository's lock.
    fn read_file(&self, view: &ComponentView, path: &str) -> ServiceResult<Vec<u8>> {
        let owner = self.repository_owner(&view.component)?;
        let _lock = self.workspace.lock(&owner)?;
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
