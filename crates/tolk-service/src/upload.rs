//! Components made from files instead of a clone (§8.3): an uploaded
//! archive (`zipfile`), one uploaded document (`docfile`) or the files of
//! another component (`from_component`). The files are written into a
//! staging directory and committed to a local repository there
//! (`vcs: local`), before the component exists; its setup task moves the
//! repository into place and reads it.

use std::path::{Path, PathBuf};

use tolk_domain::component::{ComponentSettings, LOCAL_REPO};
use tolk_domain::validation::FieldErrors;
use tolk_vcs::Repository;

use crate::Service;

/// The files a create request brings instead of a repository to clone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Upload {
    /// A ZIP archive of translation files (`zipfile`).
    Archive(Vec<u8>),
    /// One document (`docfile`), stored where the file mask puts the
    /// source language.
    Document {
        /// The name it was uploaded as.
        name: String,
        /// Its bytes.
        bytes: Vec<u8>,
    },
    /// Files copied from another component, by path.
    Files(Vec<(String, Vec<u8>)>),
}

/// The file mask a document is stored under when the request gives none:
/// `{slug}/*.{extension}`, the extension being the document's own, else
/// the format's usual one.
pub fn guess_filemask(slug: &str, document: &str, file_format: &str) -> String {
    let name = document.rsplit(['/', '\\']).next().unwrap_or(document);
    let extension = match name.rsplit_once('.') {
        Some((stem, extension)) if !stem.is_empty() => extension,
        _ => tolk_formats::find(file_format)
            .and_then(|f| f.extensions.first().copied())
            .unwrap_or(""),
    };
    let dir = if slug.is_empty() {
        "translations"
    } else {
        slug
    };
    match extension {
        "" => format!("{dir}/*"),
        extension => format!("{dir}/*.{extension}"),
    }
}

/// A staged repository, removed when dropped unless it was handed over.
pub(crate) struct Staged {
    path: Option<PathBuf>,
}

impl Staged {
    /// The directory.
    pub(crate) fn path(&self) -> String {
        self.path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default()
    }

    /// Keeps the directory: the setup task moves it into place.
    pub(crate) fn keep(mut self) {
        self.path = None;
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(path) = &self.path {
            let _ = std::fs::remove_dir_all(path);
        }
    }
}

/// Makes `settings` those of a component made from files: a local
/// repository on `main`, nothing to push to.
pub(crate) fn make_local(settings: &mut ComponentSettings) {
    settings.vcs = "local".into();
    settings.repo = LOCAL_REPO.into();
    settings.push = String::new();
    settings.branch = "main".into();
    settings.push_branch = String::new();
}

/// Writes `files` under `dest`; their paths were checked by the caller.
fn write_files(files: &[(String, Vec<u8>)], dest: &Path) -> std::io::Result<()> {
    for (path, bytes) in files {
        let target = dest.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&target, bytes)?;
    }
    Ok(())
}

impl Service {
    /// Stages the repository of a component made from files; problems go
    /// to `errors` (then nothing is staged, nor when there were some).
    /// `source` is the source language's code, which names a document.
    pub(crate) fn stage_upload(
        &self,
        upload: &Upload,
        settings: &ComponentSettings,
        source: &str,
        errors: &mut FieldErrors,
    ) -> Option<Staged> {
        if !errors.is_empty() {
            return None;
        }
        let mask = settings.mask()?;
        let dir = self.workspace.scratch_dir("upload");
        let staged = Staged {
            path: Some(dir.clone()),
        };
        let files = match upload {
            Upload::Archive(bytes) => {
                match crate::archive::unpack(bytes, &dir, crate::archive::Limits::default()) {
                    Ok(files) => files,
                    Err(reasons) => {
                        for reason in reasons {
                            errors.invalid("zipfile", &reason);
                        }
                        return None;
                    }
                }
            }
            Upload::Document { bytes, .. } => {
                let path = document_path(settings, source);
                let files = [(path.clone(), bytes.clone())];
                if let Err(e) = write_files(&files, &dir) {
                    tracing::error!("cannot stage a document: {e}");
                    errors.invalid("docfile", "Could not store the uploaded file.");
                    return None;
                }
                vec![path]
            }
            Upload::Files(files) => {
                if let Err(e) = write_files(files, &dir) {
                    tracing::error!("cannot stage copied files: {e}");
                    errors.invalid("from_component", "Could not copy the component's files.");
                    return None;
                }
                files.iter().map(|(path, _)| path.clone()).collect()
            }
        };
        if !files.iter().any(|f| mask.code_of(f).is_some()) {
            errors.invalid("filemask", "The file mask did not match any files.");
            return None;
        }
        if let Err(e) = Repository::init_local(self.workspace.git(), &dir, "Files uploaded to Tolk")
        {
            tracing::error!("cannot stage uploaded files: {e}");
            errors.invalid("repo", "Could not store the uploaded files.");
            return None;
        }
        Some(staged)
    }
}

/// Where a document goes: the file mask with the source language's code.
pub(crate) fn document_path(settings: &ComponentSettings, source: &str) -> String {
    settings.filemask.replacen('*', source, 1)
}
