//! `tolk import`: a project and its components from one repository or
//! directory in one step. [`Imports::plan`](crate::import::Imports::plan) looks at the files
//! (a repository's tip without cloning it) and finds the components;
//! [`Imports::run`](crate::import::Imports::run) creates them, the first cloning or holding the
//! files and the others sharing its repository, each with its setup task.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use tolk_domain::component::{ComponentSettings, LINK_PREFIX};
use tolk_domain::filemask::Filemask;
use tolk_domain::permission::Subject;
use tolk_domain::project::ProjectSettings;

use crate::component_view::ComponentView;
use crate::components::CreateOptions;
use tolk_vcs::WorkTree;

use crate::discovery::{Discovery, discover, slug_of};
use crate::projects::ProjectView;
use crate::upload::Upload;
use crate::{ServiceError, ServiceResult};

/// Most files a directory may hold to be imported.
const DIRECTORY_FILES_MAX: usize = 100_000;

/// Where an import's files come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportSource {
    /// A Git repository, by URL (or local path, where the server allows
    /// local repositories); the branch, or its default when empty.
    Repository {
        /// Its URL.
        url: String,
        /// The branch.
        branch: String,
    },
    /// A directory that is no Git repository: its translation files
    /// become a local repository in the data directory.
    Directory(PathBuf),
}

impl ImportSource {
    /// What a command-line argument names: a URL, a local Git work tree
    /// (cloned from, by its absolute path) or another directory.
    pub fn from_argument(argument: &str, branch: &str) -> Result<ImportSource, String> {
        let path = Path::new(argument);
        if argument.contains("://") || argument.starts_with("git@") {
            return Ok(ImportSource::Repository {
                url: argument.to_owned(),
                branch: branch.to_owned(),
            });
        }
        if !path.is_dir() {
            return Err(format!(
                "{argument} is neither a repository URL nor a directory"
            ));
        }
        let absolute = path
            .canonicalize()
            .map_err(|e| format!("cannot read {argument}: {e}"))?;
        let is_git = absolute.join(".git").exists()
            || (absolute.join("HEAD").is_file() && absolute.join("objects").is_dir());
        Ok(if is_git {
            ImportSource::Repository {
                url: absolute.display().to_string(),
                branch: branch.to_owned(),
            }
        } else {
            ImportSource::Directory(absolute)
        })
    }

    /// The web page of a repository on a forge (its `https` URL without
    /// `.git` and credentials), for the project's `web`.
    pub fn web(&self) -> Option<String> {
        match self {
            ImportSource::Repository { url, .. } if url.starts_with("https://") => {
                let url = tolk_vcs::strip_credentials(url);
                Some(
                    url.trim_end_matches('/')
                        .trim_end_matches(".git")
                        .to_owned(),
                )
            }
            _ => None,
        }
    }

    /// The name of a project made from it: the last part of its URL or
    /// path, without `.git`.
    pub fn project_name(&self) -> String {
        let whole = match self {
            ImportSource::Repository { url, .. } => url.clone(),
            ImportSource::Directory(path) => path.display().to_string(),
        };
        let last = whole
            .trim_end_matches('/')
            .rsplit(['/', ':'])
            .next()
            .unwrap_or("")
            .trim_end_matches(".git")
            .to_owned();
        if last.is_empty() {
            "Imported".into()
        } else {
            last
        }
    }
}

/// What an import will create: the components found in the source's
/// files, and the branch they were found on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportPlan {
    /// Where the files come from.
    pub source: ImportSource,
    /// The branch looked at (a repository's default when none was asked).
    pub branch: String,
    /// The components found and the groups left out.
    pub discovery: Discovery,
    /// A directory's files, as listed when it was looked at.
    listed: Vec<String>,
}

/// What an import created.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The project.
    pub project: ProjectView,
    /// False when the components were added to an existing project.
    pub project_created: bool,
    /// The components created, each with its setup task queued.
    pub components: Vec<ComponentView>,
    /// The components of the plan the project already had from the same
    /// repository (an import run again, or cut off before), left as they are.
    pub kept: Vec<ComponentView>,
}

crate::service::area!(
    /// The use-cases of importing repositories and folders from the command line.
    Imports,
    imports
);

impl Imports<'_> {
    /// Looks at the source's files and finds its components; nothing is
    /// created. A repository is not cloned: only its tip's file list and
    /// one file per component are fetched.
    pub fn plan(&self, source: ImportSource, source_language: &str) -> ServiceResult<ImportPlan> {
        match &source {
            ImportSource::Repository { url, branch } => {
                self.workspace
                    .policy()
                    .check(url)
                    .map_err(|e| ServiceError::invalid("repo", &e.to_string()))?;
                let scratch = self.workspace.scratch_dir("probe");
                let probe =
                    tolk_vcs::RemoteProbe::open(self.workspace.git(), url, branch, &scratch)
                        .map_err(|e| {
                            ServiceError::invalid("repo", &format!("Could not fetch {url}: {e}"))
                        })?;
                let discovery = discover(
                    &probe.tip().files,
                    &mut |path| probe.read(path).ok().flatten(),
                    source_language,
                );
                Ok(ImportPlan {
                    branch: probe.tip().branch.clone(),
                    source,
                    discovery,
                    listed: Vec::new(),
                })
            }
            ImportSource::Directory(dir) => {
                let tree = WorkTree::plain(dir);
                let files = list_directory(&tree)?;
                let discovery = discover(
                    &files,
                    &mut |path| tree.read(path).ok().flatten(),
                    source_language,
                );
                Ok(ImportPlan {
                    source,
                    branch: String::new(),
                    discovery,
                    listed: files,
                })
            }
        }
    }

    /// Creates the project (unless it exists) and the components of
    /// `plan`: the first clones the repository (or holds the directory's
    /// files), the others share it. Components the project already has
    /// from the same repository with the same file mask are kept as they
    /// are, so an import can be run again; other names taken in the
    /// project get a number. When one cannot be created, what this call
    /// created is removed again.
    pub fn run(
        &self,
        subject: &Subject,
        plan: &ImportPlan,
        project: ProjectSettings,
        source_language: &str,
    ) -> ServiceResult<Imported> {
        if plan.discovery.components.is_empty() {
            return Err(ServiceError::invalid(
                "repo",
                "No translation files were found to import.",
            ));
        }
        let slug = project.slug.clone();
        let existing = match self.projects().get(subject, &slug) {
            Ok(view) => Some(view),
            Err(ServiceError::NotFound) => None,
            Err(e) => return Err(e),
        };
        let project_created = existing.is_none();
        let project = match existing {
            Some(view) => view,
            None => self.projects().create(subject, Ok(project))?,
        };
        let mut made = Vec::new();
        match self.import_components(subject, plan, &project, source_language, &mut made) {
            Ok(kept) => Ok(Imported {
                project,
                project_created,
                components: made,
                kept,
            }),
            Err(error) => {
                for component in made.iter().rev() {
                    let _ = self.components().delete(
                        subject,
                        &slug,
                        &component.component.settings.slug,
                    );
                }
                if project_created {
                    let _ = self.projects().delete(subject, &slug);
                }
                Err(error)
            }
        }
    }

    /// Creates the components of `plan` in `project` into `made`; the
    /// components of the plan it already had.
    fn import_components(
        &self,
        subject: &Subject,
        plan: &ImportPlan,
        project: &ProjectView,
        source_language: &str,
        made: &mut Vec<ComponentView>,
    ) -> ServiceResult<Vec<ComponentView>> {
        let project_slug = project.project.settings.slug.clone();
        let present = self.store.read(|conn| {
            let items = tolk_store::components::of_project(conn, project.project.id)?;
            crate::component_view::views(conn, items)
        })?;
        let same_source = |view: &&ComponentView| match &plan.source {
            ImportSource::Repository { url, .. } => {
                view.component.settings.repo == *url
                    || view.linked.as_ref().is_some_and(|(_, _, s)| s.repo == *url)
            }
            ImportSource::Directory(_) => false,
        };
        let mut taken: Vec<(String, String)> = present
            .iter()
            .map(|c| {
                (
                    c.component.settings.name.clone(),
                    c.component.settings.slug.clone(),
                )
            })
            .collect();
        // The component whose clone the new ones share, once there is one.
        let mut anchor: Option<String> = present
            .iter()
            .find(same_source)
            .map(|c| c.component.settings.slug.clone());
        let mut kept = Vec::new();
        for found in &plan.discovery.components {
            if let Some(view) = present
                .iter()
                .filter(same_source)
                .find(|c| c.component.settings.filemask == found.filemask)
            {
                kept.push(view.clone());
                continue;
            }
            let (name, slug) = free_name(&found.name, &taken);
            taken.push((name.clone(), slug.clone()));
            let mut settings = ComponentSettings {
                name,
                slug,
                filemask: found.filemask.clone(),
                file_format: found.file_format.into(),
                template: found.template.clone(),
                new_base: found.new_base.clone(),
                ..ComponentSettings::default()
            };
            let mut options = CreateOptions {
                source_language: Some(source_language.to_owned()),
                disable_autoshare: true,
                ..CreateOptions::default()
            };
            match (&anchor, &plan.source) {
                (Some(first), _) => settings.repo = format!("{LINK_PREFIX}{project_slug}/{first}"),
                (None, ImportSource::Repository { url, .. }) => {
                    settings.repo = url.clone();
                    settings.branch = plan.branch.clone();
                }
                (None, ImportSource::Directory(dir)) => {
                    options.upload = Some(Upload::Files(plan_files(plan, &WorkTree::plain(dir))?));
                }
            }
            let view = self
                .components()
                .create(subject, &project_slug, Ok(settings), options)?;
            anchor.get_or_insert_with(|| view.component.settings.slug.clone());
            made.push(view);
        }
        Ok(kept)
    }
}

/// `name` with a number when it or its slug is among `taken`.
fn free_name(name: &str, taken: &[(String, String)]) -> (String, String) {
    let used = |n: &str, s: &str| taken.iter().any(|(tn, ts)| tn == n || ts == s);
    let mut candidate = name.to_owned();
    let mut n = 2;
    while used(&candidate, &slug_of(&candidate)) {
        candidate = format!("{name} {n}");
        n += 1;
    }
    let slug = slug_of(&candidate);
    (candidate, slug)
}

/// The regular files of a directory (links and `.git` left out), at most
/// [`DIRECTORY_FILES_MAX`].
fn list_directory(tree: &WorkTree) -> ServiceResult<Vec<String>> {
    let files = tree.list()?.files;
    if files.len() > DIRECTORY_FILES_MAX {
        return Err(ServiceError::invalid(
            "repo",
            &format!(
                "The directory holds more than {DIRECTORY_FILES_MAX} files; \
                 import a repository or a smaller directory."
            ),
        ));
    }
    Ok(files)
}

/// The files of a directory the components of `plan` use: their
/// translations, templates and bases, read inside `tree`.
fn plan_files(plan: &ImportPlan, tree: &WorkTree) -> ServiceResult<Vec<(String, Vec<u8>)>> {
    let found = &plan.discovery.components;
    let masks: Vec<Filemask> = found
        .iter()
        .filter_map(|f| Filemask::new(&f.filemask).ok())
        .collect();
    let special: HashSet<&str> = found
        .iter()
        .flat_map(|f| [f.template.as_str(), f.new_base.as_str()])
        .collect();
    plan.listed
        .iter()
        .filter(|path| {
            special.contains(path.as_str()) || masks.iter().any(|m| m.code_of(path).is_some())
        })
        .map(|path| {
            let bytes = tree
                .read(path)?
                .ok_or_else(|| ServiceError::invalid("repo", &format!("Cannot read {path}.")))?;
            Ok((path.clone(), bytes))
        })
        .collect()
}
