//! Reading a component's files into the database: the file mask finds the
//! translation files, each becomes a translation (language from the path),
//! a source translation holds the source strings, and every unit gets its
//! hash, position and word count. Statistics are counted here, once per
//! read; afterwards edits keep them up to date.
//!
//! Files are read with no transaction open; the database is written in
//! one transaction afterwards. Units edited in Tolk and not yet written to
//! their file keep their translation when the file is read again.

use std::collections::{HashMap, HashSet};

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::checks::catalogue::INCONSISTENT;
use tolk_domain::filemask::code_candidates;
use tolk_store::changes::{self, NewChange};
use tolk_store::components::{self, Component};
use tolk_store::languages::{self, Language};
use tolk_store::time;
use tolk_store::translations::{self};
use tolk_store::units::{self};
use tolk_vcs::Repository;

use crate::memory::MemoryScopes;
use crate::scan_read::read_tree;
use crate::scan_store::{
    Role, ScanTotals, TranslationRead, checks, refresh_source_checks, store_translation,
    with_edited_sources,
};
use crate::tasks::{Run, TaskResult};
use crate::{Service, ServiceError, ServiceResult};

/// Strings read at once past which the database's planner statistics are
/// brought up to date (see `Store::refresh_planner_statistics`).
const PLANNER_REFRESH_STRINGS: i64 = 100_000;

pub use crate::scan_read::SKIPPED;

impl Service {
    /// Task: clone a new component's repository (unless it shares
    /// another's) and read its files.
    pub(crate) fn setup_component(
        &self,
        component_id: i64,
        staged: Option<&str>,
        run: &Run<'_>,
    ) -> TaskResult {
        let component = self.task_component(component_id)?;
        if component.linked_component_id.is_none() {
            let dir = self.workspace.dir(&component);
            let _lock = self
                .workspace
                .lock(&component)
                .map_err(ServiceError::from)?;
            if let Some(staged) = staged.filter(|_| !dir.exists()) {
                run.report(1, "storing the uploaded files".into());
                std::fs::rename(staged, &dir).map_err(|e| {
                    tracing::warn!("cannot move {staged} to {}: {e}", dir.display());
                    "The uploaded files could not be stored.".to_owned()
                })?;
            }
            if !dir.exists() {
                let s = &component.settings;
                if s.vcs == "local" {
                    return Err("The component's local repository is missing."
                        .to_owned()
                        .into());
                }
                run.report(
                    1,
                    format!("cloning {}", tolk_vcs::strip_credentials(&s.repo)),
                );
                self.workspace
                    .policy()
                    .check(&s.repo)
                    .map_err(ServiceError::from)?;
                // The clone is most of a new component's wait.
                run.step(0, 50);
                let repo = Repository::clone_reporting(
                    self.workspace.git(),
                    &s.repo,
                    &s.branch,
                    &dir,
                    &|percent| run.advance(i32::from(percent)),
                )
                .map_err(ServiceError::from)?;
                run.step(50, 100);
                if s.branch.is_empty() {
                    let mut settings = s.clone();
                    settings.branch = repo.branch().to_owned();
                    self.store
                        .write(|conn| {
                            components::update(
                                conn,
                                component.id,
                                &settings,
                                component.source_language_id,
                            )
                            .map(|_| ())
                        })
                        .map_err(ServiceError::from)?;
                }
            }
        }
        let scanned = self.rescan_component(component_id, run)?;
        self.ensure_glossary(&component)?;
        Ok(scanned)
    }

    /// Task: after its `repo` or `branch` changed, point the component's
    /// work tree at them (cloning when it has none), then read every
    /// component sharing it again.
    pub(crate) fn relocate_component(&self, component_id: i64, run: &Run<'_>) -> TaskResult {
        let component = self.task_component(component_id)?;
        let dir = self.workspace.dir(&component);
        if !dir.exists() {
            return self.setup_component(component_id, None, run);
        }
        let s = &component.settings;
        run.report(
            1,
            format!(
                "moving to {} {}",
                tolk_vcs::strip_credentials(&s.repo),
                if s.branch.is_empty() {
                    "(default branch)"
                } else {
                    &s.branch
                }
            ),
        );
        self.workspace
            .policy()
            .check(&s.repo)
            .map_err(ServiceError::from)?;
        let moved = {
            let _lock = self
                .workspace
                .lock(&component)
                .map_err(ServiceError::from)?;
            self.workspace
                .open(&component, &s.branch)
                .relocate(&s.repo, &s.branch)
                .map_err(ServiceError::from)?
        };
        if s.branch.is_empty() {
            let mut settings = s.clone();
            settings.branch = moved.branch().to_owned();
            self.store
                .write(|conn| {
                    components::update(conn, component.id, &settings, component.source_language_id)
                        .map(|_| ())
                })
                .map_err(ServiceError::from)?;
        }
        let sharing = self
            .store
            .read(|conn| components::sharing(conn, component.id))
            .map_err(ServiceError::from)?;
        for other in &sharing {
            self.rescan_component(other.id, run)?;
        }
        Ok(json!({"component": component_id}))
    }

    /// Task: read every file of a component again.
    pub(crate) fn rescan_component(
        &self,
        component_id: i64,
        run: &Run<'_>,
    ) -> ServiceResult<serde_json::Value> {
        let component = self.task_component(component_id)?;
        let totals = self.scan(&component, run)?;
        // Languages may have come or gone: the glossaries follow.
        if !component.settings.is_glossary {
            self.sync_glossaries(component.project_id)?;
        }
        run.report(
            99,
            format!(
                "read {} translations, {} strings",
                totals.translations, totals.units
            ),
        );
        Ok(json!({"component": component_id}))
    }

    /// The component a task works on, read afresh.
    fn task_component(&self, component_id: i64) -> ServiceResult<Component> {
        self.store
            .read(|conn| components::get_by_ids(conn, &[component_id]))?
            .pop()
            .ok_or(ServiceError::NotFound)
    }

    /// Reads the component's work tree, then writes what it holds; files
    /// refused or left out are recorded in the component's history.
    fn scan(&self, component: &Component, run: &Run<'_>) -> Result<ScanTotals, ServiceError> {
        let owner = self.repository_owner(component)?;
        let snapshot = {
            let _lock = self.workspace.lock(&owner)?;
            let repo = self.workspace.open(&owner, &owner.settings.branch);
            read_tree(&repo, &component.settings, run)?
        };
        let codes: Vec<String> = snapshot
            .files
            .iter()
            .flat_map(|f| code_candidates(&f.code))
            .collect();
        let (languages, source, check_flags, memory, names) = self.store.read(|conn| {
            let languages = languages::resolve(conn, &codes)?;
            let source = languages::get_full_by_ids(conn, &[component.source_language_id])?
                .pop()
                .ok_or(ServiceError::NotFound)?;
            let view = crate::component_view::views(conn, vec![component.clone()])?
                .pop()
                .ok_or(ServiceError::NotFound)?;
            let check_flags = component.settings.check_flags_in(view.inherited());
            Ok::<_, ServiceError>((
                languages,
                source,
                check_flags,
                MemoryScopes::of(&view),
                view.check_names(),
            ))
        })?;
        // One transaction per translation, the source one first: a large
        // component never holds the database's writer for long.
        let (source_id, strings) = self.store.write(|conn| {
            let read = TranslationRead {
                language: &source,
                code: &source.row.code,
                path: &snapshot.source_path,
                units: &snapshot.source_units,
                memory: None,
                role: if component.settings.template.is_empty() {
                    Role::Source
                } else {
                    Role::Template {
                        editable: component.settings.edit_template
                            && !tolk_formats::is_document(&component.settings.file_format),
                    }
                },
                stale: false,
            };
            let checks = checks(&source, &source, &names, &check_flags);
            store_translation(conn, component, &snapshot.revision, &read, None, checks)
        })?;
        let mut totals = ScanTotals {
            translations: 1,
            units: strings,
        };
        // Source strings edited and not yet written to the template are
        // the translations' sources still.
        let edited: HashMap<String, String> = if component.settings.template.is_empty() {
            HashMap::new()
        } else {
            self.store
                .read(|conn| units::to_write(conn, &[source_id], false))?
                .into_iter()
                .map(|u| (u.context, u.target))
                .collect()
        };
        let mut done = HashSet::from([source.row.id]);
        for file in &snapshot.files {
            let Some(language) = code_candidates(&file.code)
                .iter()
                .find_map(|c| languages.get(c))
            else {
                continue;
            };
            if !done.insert(language.row.id) {
                continue; // Two files of one language: the first counts.
            }
            let units = with_edited_sources(&file.units, &edited);
            let read = TranslationRead {
                language,
                code: &file.code,
                path: &file.path,
                units: &units,
                role: Role::Translation,
                memory: Some(&memory),
                stale: file.stale,
            };
            let (_, strings) = self.store.write(|conn| {
                store_translation(
                    conn,
                    component,
                    &snapshot.revision,
                    &read,
                    Some(source_id),
                    checks(language, &source, &names, &check_flags),
                )
            })?;
            totals.translations += 1;
            totals.units += strings;
        }
        self.remove_stale(component, &snapshot.present, &done)?;
        self.refresh_component_consistency(component, source.row.id)?;
        self.refresh_component_reuse(component, source.row.id)?;
        self.store
            .write(|conn| refresh_source_checks(conn, component, source_id, &check_flags))?;
        self.store.write(|conn| {
            let now = time::now();
            for problem in &snapshot.problems {
                let change = NewChange {
                    project_id: Some(component.project_id),
                    component_id: Some(component.id),
                    target: problem.clone(),
                    ..NewChange::new(Action::PARSE_ERROR, None)
                };
                changes::record(conn, &change, now)?;
            }
            Ok::<_, ServiceError>(())
        })?;
        if totals.units >= PLANNER_REFRESH_STRINGS {
            self.store.refresh_planner_statistics()?;
        }
        Ok(totals)
    }

    /// After a scan of `component`: deletes its translations whose file
    /// left the work tree (the languages `read` aside), as Weblate does.
    fn remove_stale(
        &self,
        component: &Component,
        present: &HashSet<String>,
        read: &HashSet<i64>,
    ) -> ServiceResult<()> {
        let gone: Vec<_> = self
            .store
            .read(|conn| translations::of_component(conn, component.id))?
            .into_iter()
            .filter(|t| {
                !read.contains(&t.language_id)
                    && !t.filename.is_empty()
                    && !present.contains(&t.filename)
            })
            .collect();
        if gone.is_empty() {
            return Ok(());
        }
        let images = self.store.write(|conn| {
            let ids: Vec<i64> = gone.iter().map(|t| t.language_id).collect();
            let languages: HashMap<i64, Language> = languages::get_full_by_ids(conn, &ids)?
                .into_iter()
                .map(|l| (l.row.id, l))
                .collect();
            let mut images = Vec::new();
            for translation in &gone {
                let Some(language) = languages.get(&translation.language_id) else {
                    continue;
                };
                let row = (translation.id, &language.row);
                images.extend(crate::translation_lifecycle::remove_translation(
                    conn, component, row, None,
                )?);
            }
            Ok::<_, ServiceError>(images)
        })?;
        self.forget_images(&images);
        Ok(())
    }

    /// After a scan of `component`: the `inconsistent` verdicts of its
    /// strings (the source language's left out) across the components of
    /// its project that share translations, one transaction per
    /// translation; nothing when it shares with none.
    fn refresh_component_consistency(
        &self,
        component: &Component,
        source_language: i64,
    ) -> ServiceResult<()> {
        let all = self
            .store
            .read(|conn| translations::of_component(conn, component.id))?;
        for translation in all.iter().filter(|t| t.language_id != source_language) {
            let compared = self.store.write(|conn| {
                let generation = self.cache.sync(conn)?;
                let mut sharing = self
                    .cache
                    .propagating(generation, conn, component.project_id)?;
                let shares = sharing.contains(&component.id);
                sharing.retain(|id| *id != component.id);
                if shares && sharing.is_empty() {
                    return Ok::<_, ServiceError>(false);
                }
                // Only the strings another component holds can disagree;
                // those of a component that stopped sharing are cleared.
                let language = translation.language_id;
                let strings = units::hashes_of(conn, translation.id)?;
                let hashes: Vec<i64> = strings.iter().map(|(hash, _)| *hash).collect();
                let mut compared = units::shared_hashes(conn, &sharing, language, &hashes)?;
                if !shares {
                    compared.extend(strings.iter().filter_map(|(hash, failing)| {
                        failing
                            .split(',')
                            .any(|id| id == INCONSISTENT)
                            .then_some(*hash)
                    }));
                }
                if !compared.is_empty() {
                    sharing.push(component.id);
                    let hashes = Some(compared.as_slice());
                    self.refresh_consistency(conn, generation, &sharing, language, hashes)?;
                }
                Ok(true)
            })?;
            if !compared {
                break;
            }
        }
        Ok(())
    }

    /// The component whose work tree `component` uses (itself, or the one it links to).
    pub(crate) fn repository_owner(
        &self,
        component: &Component,
    ) -> Result<Component, ServiceError> {
        match component.linked_component_id {
            None => Ok(component.clone()),
            Some(id) => self
                .store
                .read(|conn| components::get_by_ids(conn, &[id]))?
                .pop()
                .ok_or(ServiceError::NotFound),
        }
    }
}
