//! What installed add-ons do, at the moments Weblate runs them:
//!
//! * on each file a commit writes: removal of keys the template lost
//!   (`cleanup.generic`) and of untranslated strings (`cleanup.blank`),
//!   JSON layout (`json.customize`);
//! * once installed, and after each pull: the same cleanups over every
//!   translation file, PO files brought in line with the POT
//!   (`gettext.msgmerge`), `LINGUAS` and `configure` listing the
//!   languages (`gettext.linguas`, `gettext.configure`), committed with
//!   the add-on message;
//! * when a language is added: `LINGUAS` and `configure` again, and the
//!   language added to the project's other components
//!   (`consistency.languages`, also once installed);
//! * before a push: the commits not yet upstream squashed (`git.squash`).
//!
//! File work happens under the repository's lock, outside any database
//! transaction; a file an add-on cannot read is left alone and reported.

use std::collections::{BTreeSet, HashSet};

use serde_json::{Map, Value, json};
use tolk_domain::addon::{AddonKind, JsonLayout, SquashMode, SquashSettings, Support, find};
use tolk_domain::permission::Subject;
use tolk_store::translations::{self, Translation};
use tolk_store::{addons, components, languages};
use tolk_vcs::{Grouping, SquashPlan, WorkTree};

use crate::addons::{configuration_of, facts};
use crate::commit_messages::addon_message;
use crate::component_view::{ComponentView, views};
use crate::git_identity::author_of;
use crate::tasks::{Run, TaskResult};
use crate::{Service, ServiceError, ServiceResult};

const CLEANUP: &str = "weblate.cleanup.generic";
const BLANK: &str = "weblate.cleanup.blank";
const CONSISTENCY: &str = "weblate.consistency.languages";
const CONFIGURE: &str = "weblate.gettext.configure";
const LINGUAS: &str = "weblate.gettext.linguas";
const MSGMERGE: &str = "weblate.gettext.msgmerge";
const MO: &str = "weblate.gettext.mo";
const SQUASH: &str = "weblate.git.squash";
const JSON_LAYOUT: &str = "weblate.json.customize";
/// The scripts `gettext.configure` updates, at the repository's root.
const CONFIGURE_SCRIPTS: &[&str] = &["configure", "configure.in", "configure.ac"];

/// When add-ons run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Event {
    /// Right after installation.
    Installed,
    /// After upstream's changes were merged.
    Pulled,
    /// After a language was added; `spread` lets `consistency.languages`
    /// add it to the other components (not when it added it itself). Once
    /// installed, that add-on acts on the project in the installation's task.
    LanguageAdded {
        /// Other components may get the language too.
        spread: bool,
    },
}

/// An add-on acting on a component, with its configuration.
#[derive(Debug, Clone)]
struct Acting {
    id: i64,
    kind: &'static AddonKind,
    configuration: Map<String, Value>,
}

/// What the add-ons acting on a component do to each file a commit writes.
#[derive(Debug, Clone, Default)]
pub(crate) struct FileTidy {
    /// The template's keys, when keys it lost leave the files.
    keys: Option<HashSet<String>>,
    /// Untranslated strings leave the files.
    blank: bool,
    /// JSON files get this layout.
    layout: Option<tolk_formats::json::Layout>,
    /// The template's path (left alone).
    template: String,
    /// Each PO file written gets its compiled MO file beside it.
    mo: Option<MoOutput>,
}

/// Where `gettext.mo` writes a compiled catalogue, and what goes in.
#[derive(Debug, Clone, Default)]
struct MoOutput {
    /// The path, with `{{ filename|stripext }}` and `{{ language_code }}`
    /// placeholders; empty: the PO file's path ending in `.mo`.
    path: String,
    /// Strings needing editing are compiled too.
    fuzzy: bool,
}

impl FileTidy {
    /// A translation file's bytes as the add-ons want them written.
    pub(crate) fn apply(
        &self,
        format: &str,
        path: &str,
        bytes: Vec<u8>,
    ) -> Result<Vec<u8>, String> {
        if path == self.template {
            return Ok(bytes);
        }
        let mut bytes = bytes;
        if let Some(keys) = &self.keys
            && let Some(kept) = tolk_formats::cleanup::drop_keys(format, path, &bytes, keys)
                .map_err(|e| e.to_string())?
        {
            bytes = kept;
        }
        if self.blank
            && let Some(kept) = tolk_formats::cleanup::drop_blank(format, path, &bytes)
                .map_err(|e| e.to_string())?
        {
            bytes = kept;
        }
        // The layout is cosmetic: a file it cannot lay out (comments,
        // say) is written as the codec left it.
        if let Some(layout) = &self.layout {
            match tolk_formats::json::relayout(path, &bytes, layout) {
                Ok(Some(laid)) => bytes = laid,
                Ok(None) => {}
                Err(e) => tracing::warn!("{JSON_LAYOUT} left {path} as it is: {e}"),
            }
        }
        Ok(bytes)
    }
}

impl FileTidy {
    /// The MO file `gettext.mo` compiles from the PO file `path` (of
    /// language `code`) now holding `bytes`: its path and bytes, none when
    /// the add-on is not installed, or why it cannot be made (its path
    /// must end in `.mo`, so that it never overwrites a translation).
    pub(crate) fn compiled(
        &self,
        path: &str,
        code: &str,
        bytes: &[u8],
    ) -> Option<Result<(String, Vec<u8>), String>> {
        let mo = self.mo.as_ref()?;
        let stem = path.rsplit_once('.').map_or(path, |(stem, _)| stem);
        let target = if mo.path.trim().is_empty() {
            format!("{stem}.mo")
        } else {
            tolk_domain::message::render(
                &mo.path,
                &[
                    ("filename", path.to_owned()),
                    ("filename|stripext", stem.to_owned()),
                    ("language_code", code.to_owned()),
                ],
            )
        };
        Some(compile_mo(path, &target, bytes, mo.fuzzy).map(|mo| (target, mo)))
    }
}

/// The MO file `target` compiled from the PO file `path` of `bytes`.
fn compile_mo(path: &str, target: &str, bytes: &[u8], fuzzy: bool) -> Result<Vec<u8>, String> {
    if !target.ends_with(".mo") || target == path {
        let name = find(MO).map_or(MO, |kind| kind.verbose);
        return Err(format!(
            "{name}: {target:?} is no MO file path (it must end in .mo)"
        ));
    }
    let file = tolk_formats::parse("po", path, bytes).map_err(|e| e.to_string())?;
    let mut units = file.units();
    if fuzzy {
        for unit in &mut units {
            if unit.state == tolk_formats::State::Fuzzy {
                unit.state = tolk_formats::State::Translated;
            }
        }
    }
    tolk_formats::write_new("mo", target, file.header_text().as_deref(), &units)
        .map_err(|e| e.to_string())
}

/// The keys of a monolingual template.
fn template_keys(format: &str, tree: &WorkTree, template: &str) -> Result<HashSet<String>, String> {
    let bytes = tree
        .read(template)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("the template {template} does not exist"))?;
    let file = tolk_formats::parse(format, template, &bytes).map_err(|e| e.to_string())?;
    Ok(file.units().into_iter().map(|u| u.context).collect())
}

/// Where `gettext.linguas` keeps its list: beside the POT file, or
/// beside the translation files.
fn linguas_path(view: &ComponentView) -> Option<String> {
    let settings = &view.component.settings;
    let beside = if settings.new_base.is_empty() {
        settings.mask()?.path_for("x")
    } else {
        settings.new_base.clone()
    };
    Some(match beside.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/LINGUAS"),
        None => "LINGUAS".to_owned(),
    })
}

/// The language codes of a component's translation files (not the
/// source language's), as the files name them.
fn file_codes(view: &ComponentView, translations: &[Translation]) -> Vec<String> {
    translations
        .iter()
        .filter(|t| t.language_id != view.component.source_language_id && !t.filename.is_empty())
        .map(|t| t.language_code.clone())
        .collect()
}

/// A file an add-on rewrote: its path and new bytes.
type Rewrite = (String, Vec<u8>);

/// What an add-on makes of one file (path, bytes): its new bytes, `None`
/// when it stays, or why it cannot be read.
type FileChange<'a> = &'a dyn Fn(&str, &[u8]) -> Result<Option<Vec<u8>>, String>;

impl Service {
    /// The add-ons Tolk runs that act on a component and suit it (its
    /// own and its project's), in installation order.
    fn acting(&self, view: &ComponentView) -> ServiceResult<Vec<Acting>> {
        let rows = self
            .store
            .read(|conn| addons::acting_on(conn, view.project.id, view.component.id))?;
        Ok(rows
            .into_iter()
            .filter_map(|row| {
                let kind = find(&row.name)?;
                let Support::Runs(compat) = kind.support else {
                    return None;
                };
                compat.suits(facts(view)).then(|| Acting {
                    id: row.id,
                    configuration: configuration_of(&row),
                    kind,
                })
            })
            .collect())
    }

    /// What the add-ons acting on `view` do to each file a commit writes
    /// (the template's keys are read from `tree`).
    pub(crate) fn file_tidy(
        &self,
        view: &ComponentView,
        tree: &WorkTree,
    ) -> ServiceResult<FileTidy> {
        let settings = &view.component.settings;
        let mut tidy = FileTidy {
            template: settings.template.clone(),
            ..FileTidy::default()
        };
        for acting in self.acting(view)? {
            match acting.kind.id {
                CLEANUP => match template_keys(&settings.file_format, tree, &settings.template) {
                    Ok(keys) => tidy.keys = Some(keys),
                    Err(why) => {
                        tracing::warn!(component = view.component.id, "cleanup skipped: {why}")
                    }
                },
                BLANK => tidy.blank = true,
                MO => {
                    let text = |key: &str| {
                        acting
                            .configuration
                            .get(key)
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_owned()
                    };
                    tidy.mo = Some(MoOutput {
                        path: text("path"),
                        fuzzy: acting
                            .configuration
                            .get("fuzzy")
                            .and_then(Value::as_bool)
                            .unwrap_or(false),
                    });
                }
                JSON_LAYOUT => {
                    let layout = JsonLayout::from_configuration(&acting.configuration);
                    let unit = if layout.tabs { "\t" } else { " " };
                    tidy.layout = Some(tolk_formats::json::Layout {
                        sort_keys: layout.sort_keys,
                        indent: unit.repeat(layout.indent),
                    });
                }
                _ => {}
            }
        }
        Ok(tidy)
    }

    /// Whether the files an add-on works on are there: `LINGUAS` for
    /// `gettext.linguas`, a `configure` script setting `ALL_LINGUAS` for
    /// `gettext.configure` (Weblate refuses both otherwise).
    pub(crate) fn addon_fits_files(
        &self,
        view: &ComponentView,
        kind: &AddonKind,
    ) -> ServiceResult<bool> {
        if kind.id != LINGUAS && kind.id != CONFIGURE {
            return Ok(true);
        }
        let owner = self.repository_owner(&view.component)?;
        if !self.workspace.dir(&owner).exists() {
            return Ok(false);
        }
        let _lock = self.workspace.lock(&owner)?;
        let tree = self
            .workspace
            .open(&owner, &owner.settings.branch)
            .work_tree()?;
        let read = |path: &str| -> Option<String> {
            tree.read(path)
                .ok()
                .flatten()
                .map(|b| String::from_utf8_lossy(&b).into_owned())
        };
        Ok(if kind.id == LINGUAS {
            linguas_path(view).and_then(|p| read(&p)).is_some()
        } else {
            CONFIGURE_SCRIPTS
                .iter()
                .filter_map(|p| read(p))
                .any(|text| tolk_formats::gettext_build::has_all_linguas(&text))
        })
    }

    /// Runs the add-ons acting on `view` that answer `event` (only the
    /// add-on `only`, when given); what could not be done, per file.
    pub(crate) fn run_addons(
        &self,
        view: &ComponentView,
        event: Event,
        only: Option<i64>,
    ) -> ServiceResult<Vec<String>> {
        let acting: Vec<Acting> = self
            .acting(view)?
            .into_iter()
            .filter(|a| only.is_none_or(|id| id == a.id))
            .collect();
        let mut problems = Vec::new();
        let rewriting: Vec<&Acting> = acting
            .iter()
            .filter(|a| match a.kind.id {
                CLEANUP | BLANK | MSGMERGE => matches!(event, Event::Installed | Event::Pulled),
                LINGUAS | CONFIGURE => true,
                _ => false,
            })
            .collect();
        if !rewriting.is_empty() {
            problems.extend(self.rewrite_files(view, &rewriting, event)?);
        }
        let spread = matches!(event, Event::LanguageAdded { spread: true });
        if spread && acting.iter().any(|a| a.kind.id == CONSISTENCY) {
            problems.extend(self.add_missing_languages(view.project.id)?);
        }
        Ok(problems)
    }

    /// Runs the file-rewriting add-ons over the component's files and
    /// commits what each changed with the add-on message; the files are
    /// read again when translation files changed.
    fn rewrite_files(
        &self,
        view: &ComponentView,
        rewriting: &[&Acting],
        event: Event,
    ) -> ServiceResult<Vec<String>> {
        if event == Event::Installed {
            // The add-on works on the files: pending edits go in first.
            self.commit_component(view, false)?;
        }
        let translations = self
            .store
            .read(|conn| translations::of_component(conn, view.component.id))?;
        let owner = self.repository_owner(&view.component)?;
        let mut problems = Vec::new();
        // Translation files the add-ons changed, to read again.
        let mut changed: Vec<String> = Vec::new();
        {
            let _lock = self.workspace.lock(&owner)?;
            let repo = self.workspace.open(&owner, &owner.settings.branch);
            let tree = repo.work_tree()?;
            for acting in rewriting {
                let (files, translation_files) =
                    self.rewrites(view, acting, &tree, &translations, &mut problems);
                if files.is_empty() {
                    continue;
                }
                for (path, bytes) in &files {
                    tree.write(path, bytes)?;
                }
                let message = addon_message(view, acting.kind.verbose, &self.config);
                let paths: Vec<String> = files.into_iter().map(|(p, _)| p).collect();
                if repo.commit(&paths, &author_of(None), &message)?.is_some() && translation_files {
                    changed.extend(paths);
                }
            }
        }
        if !changed.is_empty() {
            self.rescan_sharing(view, Some(&changed))?;
        }
        Ok(problems)
    }

    /// The files one add-on rewrites, and whether translation files are
    /// among them; files it cannot read go to `problems`.
    fn rewrites(
        &self,
        view: &ComponentView,
        acting: &Acting,
        tree: &WorkTree,
        translations: &[Translation],
        problems: &mut Vec<String>,
    ) -> (Vec<Rewrite>, bool) {
        let settings = &view.component.settings;
        let format = settings.file_format.as_str();
        let mut files = Vec::new();
        let read = |path: &str| tree.read(path).ok().flatten();
        let translation_files = translations
            .iter()
            .map(|t| t.filename.as_str())
            .filter(|p| !p.is_empty() && *p != settings.template);
        let mut each_file = |change: FileChange<'_>| {
            for path in translation_files.clone() {
                let Some(bytes) = read(path) else { continue };
                match change(path, &bytes) {
                    Ok(Some(new)) => files.push((path.to_owned(), new)),
                    Ok(None) => {}
                    Err(why) => problems.push(format!("{}: {path}: {why}", acting.kind.id)),
                }
            }
        };
        match acting.kind.id {
            CLEANUP => match template_keys(format, tree, &settings.template) {
                Ok(keys) => each_file(&|path, bytes| {
                    tolk_formats::cleanup::drop_keys(format, path, bytes, &keys)
                        .map_err(|e| e.to_string())
                }),
                Err(why) => problems.push(format!("{CLEANUP}: {why}")),
            },
            BLANK => each_file(&|path, bytes| {
                tolk_formats::cleanup::drop_blank(format, path, bytes).map_err(|e| e.to_string())
            }),
            MSGMERGE => match read(&settings.new_base) {
                Some(template) => each_file(&|path, bytes| {
                    tolk_formats::cleanup::sync_with_template(format, path, bytes, &template)
                        .map(|synced| synced.map(|s| s.bytes))
                        .map_err(|e| e.to_string())
                }),
                None => problems.push(format!("{MSGMERGE}: {} does not exist", settings.new_base)),
            },
            LINGUAS => {
                let codes = file_codes(view, translations);
                if let Some(path) = linguas_path(view)
                    && let Some(bytes) = read(&path)
                    && let Some(text) = tolk_formats::gettext_build::update_linguas(
                        &String::from_utf8_lossy(&bytes),
                        &codes,
                    )
                {
                    files.push((path, text.into_bytes()));
                }
                return (files, false);
            }
            CONFIGURE => {
                let codes = file_codes(view, translations);
                for path in CONFIGURE_SCRIPTS {
                    if let Some(bytes) = read(path)
                        && let Some(text) = tolk_formats::gettext_build::update_configure(
                            &String::from_utf8_lossy(&bytes),
                            &codes,
                        )
                    {
                        files.push(((*path).to_owned(), text.into_bytes()));
                    }
                }
                return (files, false);
            }
            _ => {}
        }
        (files, true)
    }

    /// Adds to every component of a project that takes new languages the
    /// languages any of its components has; what could not be added.
    fn add_missing_languages(&self, project_id: i64) -> ServiceResult<Vec<String>> {
        let (views, translations) = self.store.read(|conn| {
            let found = components::of_project(conn, project_id)?;
            let ids: Vec<i64> = found.iter().map(|c| c.id).collect();
            let translations = translations::of_components(conn, &ids)?;
            Ok::<_, ServiceError>((views(conn, found)?, translations))
        })?;
        let held: Vec<Vec<i64>> = views
            .iter()
            .map(|view| {
                translations
                    .iter()
                    .filter(|t| t.component_id == view.component.id)
                    .map(|t| t.language_id)
                    .collect()
            })
            .collect();
        let all: BTreeSet<i64> = held.iter().flatten().copied().collect();
        let codes: Vec<(i64, String)> = self.store.read(|conn| {
            let ids: Vec<i64> = all.iter().copied().collect();
            Ok::<_, ServiceError>(
                languages::get_by_ids(conn, &ids)?
                    .into_iter()
                    .map(|l| (l.id, l.code))
                    .collect(),
            )
        })?;
        let mut problems = Vec::new();
        for (view, have) in views.iter().zip(&held) {
            let effective = view.effective();
            if effective.new_lang != "add" {
                continue;
            }
            for (_, code) in codes.iter().filter(|(id, _)| !have.contains(id)) {
                if let Err(e) = self.add_translation_as(
                    &Subject::System,
                    (&view.project.settings.slug, &view.component.path),
                    code,
                    false,
                ) {
                    problems.push(format!(
                        "{CONSISTENCY}: {}: {code}: {e}",
                        view.component.path
                    ));
                }
            }
        }
        Ok(problems)
    }

    /// How `git.squash` acting on `view` squashes before a push, if it does.
    pub(crate) fn squash_plan(&self, view: &ComponentView) -> ServiceResult<Option<SquashPlan>> {
        let Some(acting) = self.acting(view)?.into_iter().find(|a| a.kind.id == SQUASH) else {
            return Ok(None);
        };
        let settings = SquashSettings::from_configuration(&acting.configuration);
        let grouping = match settings.mode {
            SquashMode::All => Grouping::All,
            SquashMode::Author => Grouping::Author,
            SquashMode::Language | SquashMode::File => {
                let files: Vec<String> = self
                    .store
                    .read(|conn| translations::of_component(conn, view.component.id))?
                    .into_iter()
                    .map(|t| t.filename)
                    .filter(|f| !f.is_empty())
                    .collect();
                // A translation has one file: per language and per file
                // group alike.
                Grouping::Paths(files.into_iter().map(|f| vec![f]).collect())
            }
        };
        Ok(Some(SquashPlan {
            grouping,
            append_trailers: settings.append_trailers,
            message: settings.commit_message,
            author: author_of(None),
            rest_message: addon_message(view, acting.kind.verbose, &self.config),
        }))
    }

    /// Task: run a newly installed (or reconfigured) add-on once on the
    /// components it acts on.
    pub(crate) fn run_installed_addon(&self, addon_id: i64, run: &Run<'_>) -> TaskResult {
        let (name, targets) = self.store.read(|conn| {
            let Some(addon) = addons::get(conn, addon_id)? else {
                return Ok::<_, ServiceError>((String::new(), Vec::new()));
            };
            let found = match (addon.component_id, addon.project_id) {
                (Some(id), _) => components::get_by_ids(conn, &[id])?,
                (None, Some(project)) => components::of_project(conn, project)?,
                (None, None) => Vec::new(),
            };
            Ok((addon.name, views(conn, found)?))
        })?;
        let mut problems = Vec::new();
        let total = targets.len().max(1);
        for (done, view) in targets.iter().enumerate() {
            run.report(
                i32::try_from(done * 100 / total).unwrap_or(100),
                format!("running the add-on on {}", view.component.path),
            );
            problems.extend(self.run_addons(view, Event::Installed, Some(addon_id))?);
        }
        // Language consistency acts on the whole project, once.
        if name == CONSISTENCY
            && let Some(view) = targets.first()
        {
            problems.extend(self.add_missing_languages(view.project.id)?);
        }
        Ok(json!({"addon": addon_id, "problems": problems}))
    }
}
