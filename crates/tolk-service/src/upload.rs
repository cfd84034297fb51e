//! Components made from uploaded files (`zipfile`, §8.3): the archive is
//! unpacked into a staging directory and committed to a local repository
//! there (`vcs: local`), before the component exists; its setup task moves
//! the repository into place and reads it.

use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

use tolk_domain::component::{ComponentSettings, LOCAL_REPO};
use tolk_domain::validation::FieldErrors;
use tolk_vcs::Repository;

use crate::Service;

/// What a ZIP upload adds to a create request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upload {
    /// The archive's bytes.
    pub bytes: Vec<u8>,
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

/// Most bytes an archive may unpack to (a small archive of repeated
/// bytes can claim gigabytes).
const UNPACKED_MAX: u64 = 256 * 1024 * 1024;

/// Unpacks `archive` into `dest`; the paths of its files. Entries whose
/// names would leave `dest`, and archives unpacking to more than
/// [`UNPACKED_MAX`], are refused.
fn unpack(archive: &[u8], dest: &Path) -> Result<Vec<String>, String> {
    let mut zip = zip::ZipArchive::new(Cursor::new(archive)).map_err(|e| e.to_string())?;
    let mut files = Vec::new();
    let mut left = UNPACKED_MAX;
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(|e| e.to_string())?;
        if entry.is_dir() {
            continue;
        }
        let name = entry
            .enclosed_name()
            .ok_or_else(|| "an entry would leave the repository".to_owned())?;
        let target = dest.join(&name);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        let mut bytes = Vec::new();
        (&mut entry)
            .take(left + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| e.to_string())?;
        left = left
            .checked_sub(bytes.len() as u64)
            .ok_or("the archive unpacks to too much")?;
        std::fs::write(&target, bytes).map_err(|e| e.to_string())?;
        files.push(name.to_string_lossy().replace('\\', "/"));
    }
    Ok(files)
}

/// Makes `settings` those of a component of uploaded files: a local
/// repository on `main`, nothing to push to.
pub(crate) fn make_local(settings: &mut ComponentSettings) {
    settings.vcs = "local".into();
    settings.repo = LOCAL_REPO.into();
    settings.push = String::new();
    settings.branch = "main".into();
    settings.push_branch = String::new();
}

impl Service {
    /// Stages the repository of a component of uploaded files; problems
    /// go to `errors` (then nothing is staged, nor when there were some).
    pub(crate) fn stage_upload(
        &self,
        upload: &Upload,
        settings: &ComponentSettings,
        errors: &mut FieldErrors,
    ) -> Option<Staged> {
        if !errors.is_empty() {
            return None;
        }
        let dir = self.workspace.staging_dir();
        let staged = Staged {
            path: Some(dir.clone()),
        };
        let Ok(files) = unpack(&upload.bytes, &dir) else {
            errors.invalid("zipfile", "Could not parse uploaded ZIP file.");
            return None;
        };
        let mask = settings.mask()?;
        if !files.iter().any(|f| mask.code_of(f).is_some()) {
            errors.invalid("filemask", "The file mask did not match any files.");
            return None;
        }
        if let Err(e) = Repository::init_local(self.workspace.git(), &dir, "Files uploaded to Tolk")
        {
            tracing::error!("cannot stage an upload: {e}");
            errors.invalid("zipfile", "Could not store the uploaded files.");
            return None;
        }
        Some(staged)
    }
}
