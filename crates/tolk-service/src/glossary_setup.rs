//! The glossary component of a project, as Weblate keeps it: made with
//! the project's first components (a local TBX repository named after the
//! project), and holding a translation for every language the project
//! translates into, added and dropped as the project's languages change.

use std::collections::{HashMap, HashSet};

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::component::ComponentSettings;
use tolk_store::changes::{self, NewChange};
use tolk_store::components::{self, Component, NewComponent};
use tolk_store::{languages, projects, time, translations};
use tolk_vcs::Repository;

use crate::commit_messages::commit_message;
use crate::git_identity::author_of;
use crate::tasks::Run;
use crate::{Service, ServiceError, ServiceResult};

/// The slug of a glossary Tolk makes.
const SLUG: &str = "glossary";
/// The file format of a glossary Tolk makes.
const FORMAT: &str = "tbx";
/// Past this many components a project is taken as set up without one.
const MAX_SIBLINGS: usize = 2;

impl Service {
    /// After `component` was set up: makes its project's glossary when it
    /// has none yet and the site makes glossaries.
    pub(crate) fn ensure_glossary(&self, component: &Component) -> ServiceResult<()> {
        if self.config.create_glossaries && !component.settings.is_glossary {
            self.create_glossary(component)?;
        }
        Ok(())
    }

    /// Makes the glossary of `component`'s project, as Weblate does when
    /// the project has none, at most two components and none named like a
    /// glossary: named after the project, in `component`'s source language
    /// and under its license.
    fn create_glossary(&self, component: &Component) -> ServiceResult<()> {
        let project_id = component.project_id;
        let created = self.store.write(|conn| {
            let siblings = components::of_project(conn, project_id)?;
            let taken = |c: &Component| {
                c.settings.is_glossary || c.settings.slug == SLUG || c.settings.name == "Glossary"
            };
            if siblings.len() > MAX_SIBLINGS || siblings.iter().any(taken) {
                return Ok::<_, ServiceError>(None);
            }
            let project = projects::get_by_ids(conn, &[project_id])?
                .pop()
                .ok_or(ServiceError::NotFound)?;
            let name = if siblings
                .iter()
                .any(|c| c.settings.name == project.settings.name)
            {
                "Glossary".to_owned()
            } else {
                project.settings.name.clone()
            };
            let mut settings = ComponentSettings {
                name,
                slug: SLUG.into(),
                file_format: FORMAT.into(),
                filemask: format!("*.{FORMAT}"),
                is_glossary: true,
                manage_units: true,
                new_lang: "none".into(),
                allow_translation_propagation: false,
                license: component.settings.license.clone(),
                ..ComponentSettings::default()
            };
            crate::upload::make_local(&mut settings);
            let glossary = components::insert(
                conn,
                &NewComponent {
                    project_id,
                    category_id: None,
                    path: SLUG.into(),
                    source_language_id: component.source_language_id,
                    linked_component_id: None,
                    task_id: None,
                    settings: &settings,
                    created: time::now(),
                },
            )?;
            crate::component_lists::assign_new(conn, glossary.id)?;
            let change = NewChange {
                project_id: Some(project_id),
                component_id: Some(glossary.id),
                target: settings.name.clone(),
                details: json!({"origin": "glossary"}),
                ..NewChange::new(Action::CREATE_COMPONENT, None)
            };
            changes::record(conn, &change, glossary.created)?;
            Ok(Some(glossary))
        })?;
        let Some(glossary) = created else {
            return Ok(());
        };
        {
            let _lock = self.workspace.lock(&glossary)?;
            let dir = self.workspace.dir(&glossary);
            Repository::init_local(self.workspace.git(), &dir, "Glossary made by Tolk")?;
        }
        self.rescan_component(glossary.id, &Run::detached(self))?;
        self.sync_glossaries(project_id)
    }

    /// Gives every glossary of the project a translation for each language
    /// the project's other components translate into, and takes away the
    /// ones without translated terms of languages they no longer have (local glossaries
    /// only, as Weblate); one commit per language, by the server.
    pub(crate) fn sync_glossaries(&self, project_id: i64) -> ServiceResult<()> {
        let (glossaries, used) = self.store.read(|conn| {
            let all = components::of_project(conn, project_id)?;
            let (glossaries, others): (Vec<Component>, Vec<Component>) =
                all.into_iter().partition(|c| c.settings.is_glossary);
            if glossaries.is_empty() {
                return Ok::<_, ServiceError>((glossaries, HashSet::new()));
            }
            let ids: Vec<i64> = others.iter().map(|c| c.id).collect();
            let used = translations::of_components(conn, &ids)?
                .into_iter()
                .map(|t| t.language_id)
                .collect();
            Ok((glossaries, used))
        })?;
        for glossary in glossaries {
            self.sync_glossary(glossary, &used)?;
        }
        Ok(())
    }

    /// [`Self::sync_glossaries`] for one glossary.
    fn sync_glossary(&self, glossary: Component, used: &HashSet<i64>) -> ServiceResult<()> {
        let (view, present) = self.store.read(|conn| {
            let present = translations::of_component(conn, glossary.id)?;
            let view = crate::component_view::views(conn, vec![glossary])?
                .pop()
                .ok_or(ServiceError::NotFound)?;
            Ok::<_, ServiceError>((view, present))
        })?;
        let source = view.component.source_language_id;
        let have: HashSet<i64> = present.iter().map(|t| t.language_id).collect();
        let mut missing: Vec<i64> = used
            .iter()
            .copied()
            .filter(|id| !have.contains(id) && *id != source)
            .collect();
        // Added in the order of the languages' ids, whatever the set's.
        missing.sort_unstable();
        let local = view.component.settings.repo == tolk_domain::component::LOCAL_REPO;
        let stale: Vec<&translations::Translation> = present
            .iter()
            .filter(|t| {
                local
                    && t.language_id != source
                    && !used.contains(&t.language_id)
                    && t.counters.translated.strings == 0
                    && !t.filename.is_empty()
            })
            .collect();
        if missing.is_empty() && stale.is_empty() {
            return Ok(());
        }
        let ids: Vec<i64> = missing
            .iter()
            .copied()
            .chain(stale.iter().map(|t| t.language_id))
            .collect();
        let languages: HashMap<i64, languages::Language> = self
            .store
            .read(|conn| languages::get_full_by_ids(conn, &ids))?
            .into_iter()
            .map(|l| (l.row.id, l))
            .collect();
        let server = author_of(None);
        let owner = self.repository_owner(&view.component)?;
        {
            let _lock = self.workspace.lock(&owner)?;
            let repo = self.workspace.open(&owner, &owner.settings.branch);
            for id in &missing {
                if let Some(language) = languages.get(id) {
                    self.add_language_file(&view, &repo, language, &server)?;
                }
            }
            let tree = repo.work_tree()?;
            for translation in stale {
                let Some(language) = languages.get(&translation.language_id) else {
                    continue;
                };
                if tree.remove(&translation.filename)? {
                    let message = commit_message(
                        &view.effective().delete_message,
                        &view,
                        translation,
                        &language.row.name,
                        &self.config,
                    );
                    let path = std::slice::from_ref(&translation.filename);
                    repo.commit(path, &server, &message)?;
                }
            }
        }
        self.rescan_component(view.component.id, &Run::detached(self))?;
        Ok(())
    }
}
