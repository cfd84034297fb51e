//! The two uploads that replace files instead of merging strings (§9.7):
//! `replace` puts the uploaded file in place of the translation's, and
//! `source` makes it the template new translations start from (`new_base`)
//! and brings every translation file in line with it, keeping the
//! translations of the strings that stay. Both commit pending edits
//! first, write and commit under the repository's lock, then read the
//! files again; a file the component's format cannot read changes nothing.

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::permission::Subject;
use tolk_store::changes::{self, NewChange};
use tolk_store::{time, translations};

use crate::commit_messages::{addon_message, commit_message};
use crate::file_upload::{UploadMethod, UploadReport};
use crate::git_identity::author_of;
use crate::translations::TranslationView;
use crate::{Service, ServiceError, ServiceResult};

/// The name `source` uploads commit under, as Weblate's add-on message says it.
const SOURCE_UPDATE: &str = "Source update";

/// Reads `bytes` in the component's own format: the number of its
/// strings, or a 400 naming the file, line and problem.
fn strings_in(view: &TranslationView, name: &str, bytes: &[u8]) -> ServiceResult<usize> {
    let format = &view.component.component.settings.file_format;
    let units = crate::nul::read_units(format, name, bytes)
        .map_err(|why| ServiceError::invalid("file", &why))?;
    Ok(units.len())
}

impl Service {
    /// Checks the uploaded file and commits pending edits, which the
    /// replaced files must hold first: the file's number of strings, and
    /// the component owning the repository.
    fn before_replacing(
        &self,
        view: &TranslationView,
        name: &str,
        bytes: &[u8],
    ) -> ServiceResult<(usize, tolk_store::components::Component)> {
        let total = strings_in(view, name, bytes)?;
        self.commit_component(&view.component, false)?;
        let owner = self.repository_owner(&view.component.component)?;
        Ok((total, owner))
    }

    /// `replace`: the uploaded file becomes the translation's file.
    pub(crate) fn replace_translation_file(
        &self,
        subject: &Subject,
        view: &TranslationView,
        (name, bytes): (&str, &[u8]),
    ) -> ServiceResult<UploadReport> {
        let (total, owner) = self.before_replacing(view, name, bytes)?;
        let component = &view.component;
        let effective = component.effective();
        let author = self.author(subject)?;
        {
            let _lock = self.workspace.lock(&owner)?;
            let repo = self.workspace.open(&owner, &owner.settings.branch);
            let tree = repo.work_tree()?;
            let path = &view.translation.filename;
            tree.write(path, bytes)?;
            let message = commit_message(
                &effective.commit_message,
                component,
                &view.translation,
                &view.language.row.name,
                &self.config,
            );
            repo.commit(std::slice::from_ref(path), &author, &message)?;
        }
        let written = [view.translation.filename.clone()];
        self.replaced(subject, view, UploadMethod::Replace, total, &written)
    }

    /// `source`: the uploaded file becomes the component's `new_base`, and
    /// every translation file follows it.
    pub(crate) fn upload_source(
        &self,
        subject: &Subject,
        view: &TranslationView,
        (name, bytes): (&str, &[u8]),
    ) -> ServiceResult<UploadReport> {
        let (total, owner) = self.before_replacing(view, name, bytes)?;
        let component = &view.component;
        let settings = &component.component.settings;
        let files: Vec<String> = self
            .store
            .read(|conn| translations::of_component(conn, component.component.id))?
            .into_iter()
            .map(|t| t.filename)
            .filter(|f| !f.is_empty() && *f != settings.new_base)
            .collect();
        let paths: Vec<String>;
        {
            let _lock = self.workspace.lock(&owner)?;
            let repo = self.workspace.open(&owner, &owner.settings.branch);
            let tree = repo.work_tree()?;
            // Every file is made first: a translation the format cannot
            // bring in line stops the upload before anything is written.
            let mut written = vec![(settings.new_base.clone(), bytes.to_vec())];
            for path in &files {
                let Some(old) = tree.read(path)? else {
                    continue;
                };
                let synced = tolk_formats::cleanup::sync_with_template(
                    &settings.file_format,
                    path,
                    &old,
                    bytes,
                )
                .map_err(|e| ServiceError::invalid("file", &e.to_string()))?;
                if let Some(synced) = synced {
                    written.push((path.clone(), synced.bytes));
                }
            }
            for (path, new) in &written {
                tree.write(path, new)?;
            }
            let message = addon_message(component, SOURCE_UPDATE, &self.config);
            paths = written.into_iter().map(|(p, _)| p).collect();
            repo.commit(&paths, &author_of(None), &message)?;
        }
        self.replaced(subject, view, UploadMethod::Source, total, &paths)
    }

    /// Reads the component again after the files `written` were replaced
    /// (and the other components of its clone that read them), records
    /// the upload and answers as Weblate: nothing skipped or not found, the
    /// translation's strings accepted, the file's strings in total.
    fn replaced(
        &self,
        subject: &Subject,
        view: &TranslationView,
        method: UploadMethod,
        total: usize,
        written: &[String],
    ) -> ServiceResult<UploadReport> {
        let component = &view.component;
        self.rescan_sharing(component, Some(written))?;
        let accepted = self.store.write(|conn| {
            let now = translations::of_component(conn, component.component.id)?
                .into_iter()
                .find(|t| t.id == view.translation.id)
                .ok_or(ServiceError::NotFound)?;
            let accepted = usize::try_from(now.counters.total.strings).unwrap_or(0);
            let place = NewChange {
                project_id: Some(component.project.id),
                component_id: Some(component.component.id),
                translation_id: Some(view.translation.id),
                language_id: Some(view.language.row.id),
                ..NewChange::new(Action::FILE_UPLOAD, subject.user_id())
            };
            let action = if method == UploadMethod::Replace {
                Action::REPLACE_UPLOAD
            } else {
                Action::SOURCE_UPLOAD
            };
            let done = NewChange {
                action,
                ..place.clone()
            };
            let uploaded = NewChange {
                details: json!({
                    "method": method.name(),
                    "not_found": 0,
                    "skipped": 0,
                    "accepted": accepted,
                    "total": total,
                }),
                ..place
            };
            changes::record_many(conn, vec![&done, &uploaded], time::now())?;
            Ok::<_, ServiceError>(accepted)
        })?;
        Ok(UploadReport {
            accepted,
            total,
            ..UploadReport::default()
        })
    }
}
