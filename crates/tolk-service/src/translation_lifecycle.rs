//! Adding a language to a component (its file made from the base or
//! template, committed with the add message, then read) and deleting a
//! translation (its file, rows and screenshots; the same file's
//! translations in the components that share the clone).

use tolk_domain::change::Action;
use tolk_domain::filemask::safe_path;
use tolk_domain::filemask::styled_code;
use tolk_domain::message::render;
use tolk_domain::permission::{Permission, Subject};
use tolk_store::DbConnection;
use tolk_store::changes::{self, NewChange};
use tolk_store::components::Component;
use tolk_store::languages::LanguageRow;
use tolk_store::translations::Translation;
use tolk_store::{components, languages, time, translations};

use crate::commit_messages::{commit_message, message_values};
use crate::component_view::ComponentView;
use crate::{Service, ServiceError, ServiceResult};

impl crate::translations::Translations<'_> {
    /// Adds a language to a component (§8.4, `translation.add`): its file
    /// is made from `new_base` (bilingual formats) or empty (monolingual
    /// ones), named by the file mask in the component's language code
    /// style, committed with the add message (and pushed with
    /// `push_on_commit` and a push URL), then read.
    pub fn add(
        &self,
        subject: &Subject,
        project_slug: &str,
        slug: &str,
        code: &str,
    ) -> ServiceResult<crate::translations::TranslationView> {
        self.add_translation_as(subject, (project_slug, slug), code, true)
    }

    /// Removes a translation (`translation.delete`; never the source
    /// language's): its file leaves the repository in a commit with the
    /// component's delete message, then the translation and its units
    /// leave the database.
    pub fn delete(&self, subject: &Subject, path: (&str, &str, &str)) -> ServiceResult<()> {
        let view = self.translations().get(subject, path)?;
        crate::access::require(
            subject,
            Permission::TRANSLATION_DELETE,
            view.target(),
            "You do not have permission to perform this action.",
        )?;
        if view.is_source() {
            return Err(ServiceError::PermissionDenied(
                "The source translation can not be removed.".into(),
            ));
        }
        let component = &view.component;
        self.commit_component(component, false)?;
        let filename = &view.translation.filename;
        if !filename.is_empty() {
            let owner = self.repository_owner(&component.component)?;
            let _lock = self.workspace.lock(&owner)?;
            let repo = self.workspace.open(&owner, &owner.settings.branch);
            // Gone already: there is nothing to commit.
            let removed = repo.work_tree()?.remove(filename)?;
            let effective = component.effective();
            let message = commit_message(
                &effective.delete_message,
                component,
                &view.translation,
                &view.language.row.name,
                &self.config,
            );
            if removed {
                repo.commit(
                    std::slice::from_ref(filename),
                    &self.author(subject)?,
                    &message,
                )?;
            }
        }
        let images = self.store.write(|conn| {
            remove_translation(
                conn,
                &component.component,
                (view.translation.id, &view.language.row),
                subject.user_id(),
            )
        })?;
        self.forget_images(&images);
        if !filename.is_empty() {
            self.forget_elsewhere(component, filename)?;
        }
        if !component.component.settings.is_glossary {
            self.sync_glossaries(component.project.id)?;
        }
        Ok(())
    }

    /// Removes the translations of `filename` from the other components
    /// working in `view`'s clone, after the file left it; nothing is read
    /// again.
    fn forget_elsewhere(&self, view: &ComponentView, filename: &str) -> ServiceResult<()> {
        let owner = self.repository_owner(&view.component)?;
        let images = self.store.write(|conn| {
            let others: Vec<Component> = components::sharing(conn, owner.id)?
                .into_iter()
                .filter(|c| c.id != view.component.id)
                .collect();
            let ids: Vec<i64> = others.iter().map(|c| c.id).collect();
            let gone: Vec<Translation> = translations::of_components(conn, &ids)?
                .into_iter()
                .filter(|t| t.filename == filename)
                .collect();
            let codes: Vec<i64> = gone.iter().map(|t| t.language_id).collect();
            let languages = languages::get_full_by_ids(conn, &codes)?;
            let mut images = Vec::new();
            for translation in &gone {
                let component = others.iter().find(|c| c.id == translation.component_id);
                let language = languages
                    .iter()
                    .find(|l| l.row.id == translation.language_id);
                if let (Some(component), Some(language)) = (component, language) {
                    let row = (translation.id, &language.row);
                    images.extend(remove_translation(conn, component, row, None)?);
                }
            }
            Ok::<_, ServiceError>(images)
        })?;
        self.forget_images(&images);
        Ok(())
    }
}

impl Service {
    /// Adds a language to a component; with `spread`, the add-on adding
    /// missing languages may add it to the project's other components.
    pub(crate) fn add_translation_as(
        &self,
        subject: &Subject,
        (project_slug, slug): (&str, &str),
        code: &str,
        spread: bool,
    ) -> ServiceResult<crate::translations::TranslationView> {
        let view = self.components().get(subject, project_slug, slug)?;
        crate::access::require(
            subject,
            Permission::TRANSLATION_ADD,
            view.target(),
            "Can not create translation",
        )?;
        let effective = view.effective();
        if effective.new_lang != "add" {
            return Err(ServiceError::PermissionDenied(
                "Adding new translations is turned off for this component. Its new_lang setting (or its project's) set to add allows it.".into(),
            ));
        }
        let could_not =
            || ServiceError::invalid("language_code", &format!("Could not add '{code}'!"));
        let (language, exists) = self.store.read(|conn| {
            let found = languages::resolve(conn, &[code.to_owned()])?;
            let Some(language) = found.into_values().next() else {
                return Ok::<_, ServiceError>((None, false));
            };
            let exists = translations::of_component(conn, view.component.id)?
                .iter()
                .any(|t| t.language_id == language.row.id);
            Ok((Some(language), exists))
        })?;
        let language = language.ok_or_else(could_not)?;
        if exists {
            return Err(could_not());
        }
        let author = self.author(subject)?;
        let owner = self.repository_owner(&view.component)?;
        let path = {
            let _lock = self.workspace.lock(&owner)?;
            let repo = self.workspace.open(&owner, &owner.settings.branch);
            self.add_language_file(&view, &repo, &language, &author)?
                .ok_or_else(could_not)?
        };
        self.rescan_sharing(&view, Some(std::slice::from_ref(&path)))?;
        let event = crate::addon_runs::Event::LanguageAdded { spread };
        for problem in self.run_addons(&view, event, None)? {
            tracing::warn!(component = view.component.id, "{problem}");
        }
        if owner.settings.push_on_commit && !owner.settings.push.is_empty() {
            self.push_component(&view, subject.user_id())?;
        }
        self.store.read(|conn| {
            let translation = translations::of_component(conn, view.component.id)?
                .into_iter()
                .find(|t| t.language_id == language.row.id)
                .ok_or(ServiceError::NotFound)?;
            crate::translations::translation_views(conn, vec![translation])?
                .pop()
                .ok_or(ServiceError::NotFound)
        })
    }

    /// Writes the new translation file of `language` into `repo` (the
    /// work tree of `view`'s clone, locked by the caller), from the
    /// component's base file (or a document's template), and commits it
    /// with the component's add message by `author`. Answers its path, or
    /// `None` when the component cannot hold the language there: outside
    /// its mask or language filter, or something already at that path.
    pub(crate) fn add_language_file(
        &self,
        view: &ComponentView,
        repo: &tolk_vcs::Repository,
        language: &languages::Language,
        author: &tolk_vcs::Identity,
    ) -> ServiceResult<Option<String>> {
        let settings = &view.component.settings;
        let effective = view.effective();
        let Some(mask) = settings.mask() else {
            return Ok(None);
        };
        let file_code = styled_code(&language.row.code, &effective.language_code_style);
        let path = mask.path_for(&file_code);
        if !settings.accepts_language(&file_code) || !safe_path(&path) {
            return Ok(None);
        }
        let tree = repo.work_tree()?;
        // A link or anything else already there: the file is not made.
        if std::fs::symlink_metadata(tree.resolve(&path)?).is_ok() {
            return Ok(None);
        }
        // A document's translation starts as a copy of its template.
        let base_path = match settings.new_base.as_str() {
            "" if tolk_formats::is_document(&settings.file_format) => settings.template.as_str(),
            path => path,
        };
        let base = if base_path.is_empty() {
            None
        } else {
            Some(
                tree.read(base_path)?
                    .ok_or_else(|| ServiceError::MissingFile(base_path.to_owned()))?,
            )
        };
        let plural = tolk_formats::PluralRule {
            forms: usize::try_from(language.plural.number.max(1)).unwrap_or(1),
            formula: &language.plural.formula,
        };
        let bytes = tolk_formats::new_translation(
            &settings.file_format,
            &path,
            &language.row.code,
            Some(plural),
            base.as_deref(),
        )?;
        tree.write(&path, &bytes)?;
        let values = message_values(view, None, &self.config)
            .into_iter()
            .chain([
                ("language_code", file_code),
                ("language_name", language.row.name.clone()),
            ])
            .collect::<Vec<_>>();
        let message = render(&effective.add_message, &values);
        repo.commit(std::slice::from_ref(&path), author, &message)?;
        Ok(Some(path))
    }
}

/// Deletes the translation `id` (of `language`) from `component` and
/// records it, by `user` or by the server itself; answers the images of
/// its screenshots, to forget once the transaction is over.
pub(crate) fn remove_translation(
    conn: &mut DbConnection,
    component: &Component,
    (id, language): (i64, &LanguageRow),
    user: Option<i64>,
) -> ServiceResult<Vec<String>> {
    let holder = tolk_store::screenshots::Holder::Translation(id);
    let images = tolk_store::screenshots::images_of(conn, holder)?;
    if !translations::delete(conn, id)? {
        return Err(ServiceError::NotFound);
    }
    let change = NewChange {
        project_id: Some(component.project_id),
        component_id: Some(component.id),
        language_id: Some(language.id),
        target: language.name.clone(),
        ..NewChange::new(Action::REMOVE_TRANSLATION, user)
    };
    changes::record(conn, &change, time::now())?;
    Ok(images)
}
