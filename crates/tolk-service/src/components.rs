//! Components: listing, creating (the clone and first read run as a
//! task), editing, locking and removing.

use std::collections::HashMap;

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::component::{ComponentSettings, LINK_PREFIX};
use tolk_domain::permission::{Permission, Subject, Target};
use tolk_domain::validation::FieldErrors;
use tolk_store::changes::{self, NewChange};
use tolk_store::components::{self, NewComponent};
use tolk_store::languages::{self};
use tolk_store::projects::{self, Project};
use tolk_store::screenshots::{self, Holder};
use tolk_store::{DbConnection, Page, PageRequest, time};

use crate::access::require;
pub use crate::component_view::ComponentView;
use crate::component_view::views;
use crate::conflict::{Unique, unique_violation};
use crate::jobs::{Job, Owner, enqueue};
use crate::projects::{page_of_children, visible_project};
use crate::upload::Upload;
use crate::{ServiceError, ServiceResult};

const NAME: Unique = Unique {
    attr: "name",
    model: "Component",
    label: "Component name",
};
const SLUG: Unique = Unique {
    attr: "slug",
    model: "Component",
    label: "URL slug",
};

/// What a create request gives beside the settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CreateOptions {
    /// Source language code (default `en`).
    pub source_language: Option<String>,
    /// Do not share another component's clone of the same repository.
    pub disable_autoshare: bool,
    /// Uploaded files to make a local repository of, instead of a clone.
    pub upload: Option<Upload>,
    /// API link of the project's category to create it in.
    pub category: Option<String>,
}

/// What a change of a component asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct ComponentEdit {
    /// Its settings afterwards.
    pub settings: ComponentSettings,
    /// A new source language, by code.
    pub source_language: Option<String>,
    /// A move: into the category this API link names, or out of any
    /// (`Some(None)`); `None` leaves it where it is.
    pub category: Option<Option<String>>,
}

impl From<(ComponentSettings, Option<String>)> for ComponentEdit {
    fn from((settings, source_language): (ComponentSettings, Option<String>)) -> Self {
        ComponentEdit {
            settings,
            source_language,
            category: None,
        }
    }
}

/// The component `project/slug` if the caller may see it, else not found.
pub(crate) fn visible_component(
    conn: &mut DbConnection,
    subject: &Subject,
    project_slug: &str,
    slug: &str,
) -> ServiceResult<ComponentView> {
    let project = visible_project(conn, subject, project_slug)?;
    let component =
        components::get_by_slugs(conn, project.id, slug)?.ok_or(ServiceError::NotFound)?;
    views(conn, vec![component])?
        .pop()
        .filter(|view| view.visible_to(subject))
        .ok_or(ServiceError::NotFound)
}

/// The component `project/slug` if the caller may see it and holds
/// `permission` on it: not found when hidden, `denied` (403) otherwise.
pub(crate) fn component_for(
    conn: &mut DbConnection,
    subject: &Subject,
    (project_slug, slug): (&str, &str),
    permission: Permission,
    denied: &str,
) -> ServiceResult<ComponentView> {
    let view = visible_component(conn, subject, project_slug, slug)?;
    require(subject, permission, view.target(), denied)?;
    Ok(view)
}

crate::service::area!(
    /// The use-cases of components: listing, reading, creating (and copying),
    /// changing, deleting, locking, and linking them to other projects.
    Components,
    components
);

impl Components<'_> {
    /// Lists the components the caller may see (of one project, when given), by id.
    pub fn list(
        &self,
        subject: &Subject,
        project_slug: Option<&str>,
        request: PageRequest,
    ) -> ServiceResult<Page<ComponentView>> {
        self.store.read(|conn| {
            page_of_children(
                conn,
                subject,
                project_slug,
                request,
                components::list,
                views,
            )
        })
    }

    /// One component, if the caller may see it.
    pub fn get(
        &self,
        subject: &Subject,
        project_slug: &str,
        slug: &str,
    ) -> ServiceResult<ComponentView> {
        self.store
            .read(|conn| visible_component(conn, subject, project_slug, slug))
    }

    /// Creates a component in a project and queues the task that clones
    /// and reads it.
    pub fn create(
        &self,
        subject: &Subject,
        project_slug: &str,
        settings: Result<ComponentSettings, FieldErrors>,
        options: CreateOptions,
    ) -> ServiceResult<ComponentView> {
        let project = self.creatable_in(subject, project_slug)?;
        let mut settings = settings?;
        let source_code = options.source_language.as_deref().unwrap_or("en");
        if let Some(upload) = &options.upload {
            crate::upload::make_local(&mut settings);
            let monolingual =
                tolk_formats::find(&settings.file_format).is_some_and(|f| f.takes_template());
            if matches!(upload, Upload::Document { .. })
                && monolingual
                && settings.template.is_empty()
            {
                settings.template = crate::upload::document_path(&settings, source_code);
                // A document's new translations start as copies of it.
                if tolk_formats::is_document(&settings.file_format) && settings.new_base.is_empty()
                {
                    settings.new_base = settings.template.clone();
                }
            }
        }
        let mut errors = settings.validate();
        self.check_format(&settings, &mut errors);
        let (link, staged) = match &options.upload {
            Some(upload) => (
                None,
                self.stage_upload(upload, &settings, source_code, &mut errors),
            ),
            None => {
                let link = self.store.read(|conn| {
                    self.resolve_link(
                        conn,
                        subject,
                        project.id,
                        &mut settings,
                        &options,
                        &mut errors,
                    )
                })?;
                match link {
                    Some(owner) => self.check_shared_files(owner, &settings, &mut errors)?,
                    None if !errors.has("repo") && settings.vcs == "git" => {
                        self.check_remote(&settings, &mut errors);
                    }
                    None => {}
                }
                (link, None)
            }
        };
        let view = self.store.write(|conn| {
            let source =
                self.source_language(conn, options.source_language.as_deref(), &mut errors)?;
            let category = match options.category.as_deref() {
                Some(url) => Some(self.categories().for_component(conn, project.id, url)?),
                None => None,
            };
            let category_id = category.as_ref().map(|c| c.id);
            check_names(
                conn,
                (project.id, category_id),
                &settings,
                None,
                &mut errors,
            )?;
            errors.into_result()?;
            let path = match &category {
                Some(category) => format!("{}/{}", category.path, settings.slug),
                None => settings.slug.clone(),
            };
            let component = components::insert(
                conn,
                &NewComponent {
                    project_id: project.id,
                    category_id,
                    path,
                    source_language_id: source,
                    linked_component_id: link,
                    task_id: None,
                    settings: &settings,
                    created: time::now(),
                },
            )
            .map_err(|e| unique_violation(e, &[SLUG, NAME]))?;
            crate::component_lists::assign_new(conn, component.id)?;
            let owner = Owner {
                user_id: subject.user_id(),
                project_id: Some(project.id),
                component_id: Some(component.id),
            };
            let job = Job::Setup {
                component_id: component.id,
                staged: staged.as_ref().map(crate::upload::Staged::path),
            };
            let task = enqueue(conn, &job, owner)?;
            components::set_task(conn, component.id, Some(&task))?;
            let change = NewChange {
                project_id: Some(project.id),
                component_id: Some(component.id),
                target: settings.name.clone(),
                details: json!({"origin": "api"}),
                ..NewChange::new(Action::CREATE_COMPONENT, subject.user_id())
            };
            changes::record(conn, &change, component.created)?;
            let component = components::get_by_ids(conn, &[component.id])?
                .pop()
                .ok_or(ServiceError::NotFound)?;
            views(conn, vec![component])?
                .pop()
                .ok_or(ServiceError::NotFound)
        })?;
        if let Some(staged) = staged {
            staged.keep();
        }
        self.queued();
        Ok(view)
    }

    /// The project `slug`, if the caller may create components in it.
    pub(crate) fn creatable_in(&self, subject: &Subject, slug: &str) -> ServiceResult<Project> {
        let project = self
            .store
            .read(|conn| visible_project(conn, subject, slug))?;
        require(
            subject,
            Permission::PROJECT_EDIT,
            Target::Project(project.as_ref()),
            "Can not create components",
        )?;
        Ok(project)
    }

    /// Refuses formats Tolk cannot read and monolingual formats without a template.
    fn check_format(&self, settings: &ComponentSettings, errors: &mut FieldErrors) {
        let format = settings.file_format.as_str();
        match tolk_formats::find(format) {
            Some(_) if !tolk_formats::readable().contains(&format) => errors.invalid(
                "file_format",
                &format!("Tolk cannot read the {format} format yet."),
            ),
            Some(info) if info.needs_template() && settings.template.is_empty() => errors.invalid(
                "template",
                "You have to fill in the monolingual base language file for this format.",
            ),
            Some(_) => {}
            None => errors.invalid_choice("file_format", format),
        }
    }

    /// Checks the repository before the component exists, as Weblate's
    /// validation does, but without a clone: only the tip of the branch's
    /// trees are fetched. It must answer, have the branch, and hold what
    /// the settings name: files the mask matches (unless new translations
    /// start from `new_base`), and the template, intermediate and base files.
    fn check_remote(&self, settings: &ComponentSettings, errors: &mut FieldErrors) {
        let policy = self.workspace.policy();
        if let Err(e) = policy.check(&settings.repo) {
            errors.invalid("repo", &e.to_string());
            return;
        }
        if !settings.push.is_empty()
            && let Err(e) = policy.check(&settings.push)
        {
            errors.invalid("push", &e.to_string());
        }
        let scratch = self.workspace.scratch_dir("probe");
        let listed = tolk_vcs::RemoteProbe::open(
            self.workspace.git(),
            &settings.repo,
            &settings.branch,
            &scratch,
        );
        let probe = match listed {
            Ok(probe) => probe,
            Err(e) => {
                tracing::info!("repository check failed: {e}");
                match e {
                    tolk_vcs::VcsError::NotFound(_) if !settings.branch.is_empty() => errors
                        .invalid(
                            "branch",
                            &format!(
                                "The repository was not found, or has no branch {}.",
                                settings.branch
                            ),
                        ),
                    tolk_vcs::VcsError::TimedOut { .. } => {
                        errors.invalid("repo", "The repository did not answer in time.");
                    }
                    _ => errors.invalid("repo", "Could not fetch the repository."),
                }
                return;
            }
        };
        check_files(
            settings,
            probe.tip(),
            &|path| probe.read(path).ok().flatten(),
            errors,
        );
    }

    /// Checks a component that shares the clone of component `owner_id`
    /// against the files of that work tree, as [`Components::check_remote`]
    /// checks a new repository; nothing is checked while the clone is not
    /// made yet (its setup task still waits).
    fn check_shared_files(
        &self,
        owner_id: i64,
        settings: &ComponentSettings,
        errors: &mut FieldErrors,
    ) -> ServiceResult<()> {
        let Some(owner) = self
            .store
            .read(|conn| components::get_by_ids(conn, &[owner_id]))?
            .pop()
        else {
            return Ok(());
        };
        let repo = self.workspace.open(&owner, &owner.settings.branch);
        if !repo.path().join(".git").is_dir() {
            return Ok(());
        }
        let tree = repo.work_tree()?;
        let listing = tree.list()?;
        let tip = tolk_vcs::RemoteTip {
            branch: owner.settings.branch.clone(),
            files: listing.files,
            links: listing.refused.into_iter().map(|(path, _)| path).collect(),
        };
        check_files(
            settings,
            &tip,
            &|path| tree.read(path).ok().flatten(),
            errors,
        );
        Ok(())
    }

    /// Finds the component whose clone this one shares: the one `repo`
    /// names with `weblate://project/component`, or (unless disabled)
    /// one of the same project (`project_id`) the caller may edit with the
    /// same repository and branch, in which case `repo` becomes its link;
    /// as in Weblate, a clone is never shared across projects unasked.
    /// Linking to a linked component shares its owner's clone.
    fn resolve_link(
        &self,
        conn: &mut DbConnection,
        subject: &Subject,
        project_id: i64,
        settings: &mut ComponentSettings,
        options: &CreateOptions,
        errors: &mut FieldErrors,
    ) -> ServiceResult<Option<i64>> {
        if let Some((project_slug, slug)) = settings.linked() {
            let found = projects::get_by_slug(conn, project_slug)?
                .filter(|p| subject.can_view_project(p.as_ref()))
                .map(|p| components::get_by_slugs(conn, p.id, slug))
                .transpose()?
                .flatten();
            return Ok(match found {
                Some(target) => Some(target.linked_component_id.unwrap_or(target.id)),
                None => {
                    errors.invalid(
                        "repo",
                        "Invalid link to a Weblate project, use weblate://project/component.",
                    );
                    None
                }
            });
        }
        if options.disable_autoshare || settings.vcs != "git" || settings.repo.is_empty() {
            return Ok(None);
        }
        let same: Vec<_> = components::with_repo(conn, std::slice::from_ref(&settings.repo))?
            .into_iter()
            .filter(|c| c.project_id == project_id)
            .collect();
        let projects: HashMap<i64, Project> = projects::get_by_ids(conn, &[project_id])?
            .into_iter()
            .map(|p| (p.id, p))
            .collect();
        let shared = same.into_iter().find(|c| {
            (c.settings.branch == settings.branch || settings.branch.is_empty())
                && projects.get(&c.project_id).is_some_and(|p| {
                    subject.can(
                        Permission::COMPONENT_EDIT,
                        Target::Component {
                            project: p.as_ref(),
                            id: c.id,
                            restricted: c.settings.restricted,
                        },
                    )
                })
        });
        Ok(shared.map(|c| {
            let slug = &projects[&c.project_id].settings.slug;
            settings.repo = format!("{LINK_PREFIX}{slug}/{}", c.settings.slug);
            settings.branch = String::new();
            c.id
        }))
    }

    /// The id of the source language named by `code` (default `en`).
    fn source_language(
        &self,
        conn: &mut DbConnection,
        code: Option<&str>,
        errors: &mut FieldErrors,
    ) -> ServiceResult<i64> {
        let code = code.unwrap_or("en");
        Ok(
            match languages::get_by_codes(conn, &[code.to_owned()])?.pop() {
                Some(row) => row.id,
                None => {
                    errors.does_not_exist("source_language", code);
                    0
                }
            },
        )
    }

    /// Edits a component: `edit` turns the current settings into the new
    /// ones and may name a new source language. New repository URLs pass
    /// the policy before any transaction opens (it may look names up).
    /// When `repo`, `branch`, `push` or `push_branch` change, pending edits
    /// are committed first; a new `repo` or `branch` is then given to the
    /// work tree by a task (its remote and branch, then a rescan), and
    /// settings that change how the files are read (mask, format,
    /// template, checks...) or what it shares translations with
    /// (propagation, source language) have them read again by a task.
    pub fn update<E>(
        &self,
        subject: &Subject,
        project_slug: &str,
        slug: &str,
        edit: impl Fn(&ComponentSettings) -> Result<E, FieldErrors>,
    ) -> ServiceResult<ComponentView>
    where
        E: Into<ComponentEdit>,
    {
        let path = (project_slug, slug);
        let denied = "Can not edit component";
        let before = self
            .store
            .read(|conn| component_for(conn, subject, path, Permission::COMPONENT_EDIT, denied))?;
        let planned = edit(&before.component.settings)?.into().settings;
        let checked = self.check_new_urls(&before.component.settings, &planned);
        if checked.is_empty() && repository_settings_differ(&before.component.settings, &planned) {
            self.commit_component(&before, false)?;
        }
        let mut queued = false;
        let view = self.store.write(|conn| {
            let view = component_for(conn, subject, path, Permission::COMPONENT_EDIT, denied)?;
            let old = &view.component.settings;
            let ComponentEdit {
                settings,
                source_language: source,
                category: moved,
            } = edit(old)?.into();
            let mut errors = settings.validate();
            if settings.restricted != old.restricted
                && !subject.can_on_listed_component(Permission::COMPONENT_EDIT, view.component.id)
            {
                errors.invalid(
                    "restricted",
                    "Only a superuser or a team naming this component may change its restricted access.",
                );
            }
            self.check_format(&settings, &mut errors);
            if (&settings.repo, &settings.push) == (&planned.repo, &planned.push) {
                errors.extend(checked.clone());
            } else {
                // Changed meanwhile by another request: checked again here (rare).
                errors.extend(self.check_new_urls(old, &settings));
            }
            let source_id = match source {
                Some(code) => self.source_language(conn, Some(&code), &mut errors)?,
                None => view.component.source_language_id,
            };
            // Where it goes: into the category `moved` names, out of any
            // (null), or where it is.
            let category = match &moved {
                Some(Some(url)) => Some(self.categories().for_component(conn, view.project.id, url)?),
                Some(None) => None,
                None => match view.component.category_id {
                    Some(id) => tolk_store::categories::get_by_ids(conn, &[id])?.pop(),
                    None => None,
                },
            };
            let category_id = category.as_ref().map(|c| c.id);
            let place = (view.project.id, category_id);
            check_names(conn, place, &settings, Some(view.component.id), &mut errors)?;
            errors.into_result()?;
            let updated = components::update(conn, view.component.id, &settings, source_id)
                .map_err(|e| unique_violation(e, &[SLUG, NAME]))?;
            if !updated {
                return Err(ServiceError::NotFound);
            }
            let path = match &category {
                Some(category) => format!("{}/{}", category.path, settings.slug),
                None => settings.slug.clone(),
            };
            if path != view.component.path {
                components::place(conn, view.component.id, category_id, &path)?;
            }
            if settings != *old {
                let change = NewChange {
                    project_id: Some(view.project.id),
                    component_id: Some(view.component.id),
                    ..NewChange::new(Action::COMPONENT_SETTING_CHANGE, subject.user_id())
                };
                changes::record(conn, &change, time::now())?;
            }
            let moves = (&settings.repo, &settings.branch) != (&old.repo, &old.branch);
            let component_id = view.component.id;
            let job = if moves
                && view.component.linked_component_id.is_none()
                && settings.linked().is_none()
            {
                Some(Job::Relocate { component_id })
            } else if settings.reads_files_unlike(old)
                || settings.allow_translation_propagation != old.allow_translation_propagation
                || source_id != view.component.source_language_id
            {
                // Read again, and compared again with the strings of the
                // components it shares translations with.
                Some(Job::Rescan { component_id })
            } else {
                None
            };
            if let Some(job) = job {
                let owner = Owner {
                    user_id: subject.user_id(),
                    project_id: Some(view.project.id),
                    component_id: Some(view.component.id),
                };
                let task = enqueue(conn, &job, owner)?;
                components::set_task(conn, view.component.id, Some(&task))?;
                queued = true;
            }
            let component = components::get_by_ids(conn, &[view.component.id])?
                .pop()
                .ok_or(ServiceError::NotFound)?;
            views(conn, vec![component])?
                .pop()
                .ok_or(ServiceError::NotFound)
        })?;
        if queued {
            self.queued();
        }
        Ok(view)
    }

    /// The policy's verdict on the repository URLs `new` changes from
    /// `old` (links to other components excepted).
    fn check_new_urls(&self, old: &ComponentSettings, new: &ComponentSettings) -> FieldErrors {
        let mut errors = FieldErrors::default();
        let policy = self.workspace.policy();
        if new.repo != old.repo
            && new.linked().is_none()
            && let Err(e) = policy.check(&new.repo)
        {
            errors.invalid("repo", &e.to_string());
        }
        if new.push != old.push
            && !new.push.is_empty()
            && let Err(e) = policy.check(&new.push)
        {
            errors.invalid("push", &e.to_string());
        }
        errors
    }

    /// Removes a component with its translations; its work tree is removed
    /// by a task when no other component shares it.
    pub fn delete(&self, subject: &Subject, project_slug: &str, slug: &str) -> ServiceResult<()> {
        let images = self.store.write(|conn| {
            let view = component_for(
                conn,
                subject,
                (project_slug, slug),
                Permission::COMPONENT_EDIT,
                "Can not delete component",
            )?;
            let owns_tree = view.component.linked_component_id.is_none();
            let images = screenshots::images_of(conn, Holder::Component(view.component.id))?;
            if !components::delete(conn, view.component.id)? {
                return Err(ServiceError::NotFound);
            }
            let change = NewChange {
                project_id: Some(view.project.id),
                target: view.component.settings.name.clone(),
                details: json!({"slug": view.component.settings.slug}),
                ..NewChange::new(Action::REMOVE_COMPONENT, subject.user_id())
            };
            changes::record(conn, &change, time::now())?;
            if owns_tree {
                let path = self.workspace.dir(&view.component).display().to_string();
                let owner = Owner {
                    user_id: subject.user_id(),
                    project_id: Some(view.project.id),
                    component_id: None,
                };
                enqueue(conn, &Job::RemoveTree { path }, owner)?;
            }
            Ok(images)
        })?;
        self.forget_images(&images);
        self.queued();
        Ok(())
    }

    /// Locks or unlocks a component; its lock state afterwards.
    pub fn lock(
        &self,
        subject: &Subject,
        project_slug: &str,
        slug: &str,
        lock: Option<bool>,
    ) -> ServiceResult<bool> {
        let Some(lock) = lock else {
            return self
                .components()
                .get(subject, project_slug, slug)
                .map(|v| v.component.locked);
        };
        self.store.write(|conn| {
            let view = visible_component(conn, subject, project_slug, slug)?;
            require(
                subject,
                Permission::COMPONENT_LOCK,
                view.target(),
                "You do not have permission to perform this action.",
            )?;
            if view.component.locked != lock {
                components::set_locked(conn, &[view.component.id], lock)?;
                let action = if lock { Action::LOCK } else { Action::UNLOCK };
                let change = NewChange {
                    project_id: Some(view.project.id),
                    component_id: Some(view.component.id),
                    ..NewChange::new(action, subject.user_id())
                };
                changes::record(conn, &change, time::now())?;
            }
            Ok(lock)
        })
    }
}

/// Whether the settings that say where the repository is, and where it is
/// pushed, differ.
fn repository_settings_differ(a: &ComponentSettings, b: &ComponentSettings) -> bool {
    (&a.repo, &a.branch, &a.push, &a.push_branch) != (&b.repo, &b.branch, &b.push, &b.push_branch)
}

/// Checks that a repository's `tip` holds what `settings` name: a file
/// the mask matches, unless new translations start from an existing
/// `new_base`; and the template, intermediate and base files, which must
/// be files, not links.
///
/// One file is read as the component's format (the template, else the
/// first file the mask matches, through `read`): a format that cannot read
/// the files is refused on `file_format`, naming the file, line and reason,
/// instead of a component of no strings.
fn check_files(
    settings: &ComponentSettings,
    tip: &tolk_vcs::RemoteTip,
    read: &dyn Fn(&str) -> Option<Vec<u8>>,
    errors: &mut FieldErrors,
) {
    let files = &tip.files;
    let has = |path: &String| files.contains(path);
    for (attr, path) in [
        ("template", &settings.template),
        ("intermediate", &settings.intermediate),
        ("new_base", &settings.new_base),
    ] {
        if path.is_empty() || has(path) {
            continue;
        }
        if tip.links.contains(path) {
            errors.invalid(
                attr,
                "The file is a symbolic link; Tolk reads no file through a link.",
            );
        } else {
            errors.invalid(attr, "File does not exist.");
        }
    }
    let Some(mask) = settings.mask() else { return };
    let starts_from_base = !settings.new_base.is_empty() && has(&settings.new_base);
    let first = files.iter().find(|f| mask.code_of(f).is_some());
    if !starts_from_base && first.is_none() {
        errors.invalid("filemask", "The file mask did not match any files.");
    }
    let sample = if settings.template.is_empty() {
        first
    } else {
        Some(&settings.template).filter(|t| has(t))
    };
    if errors.has("file_format") {
        return;
    }
    if let Some((path, bytes)) = sample.and_then(|path| Some((path, read(path)?))) {
        let format = settings.file_format.as_str();
        let readable = if tolk_formats::is_document(format) {
            tolk_formats::parse_document(format, path, &bytes).map(|_| ())
        } else {
            tolk_formats::parse(format, path, &bytes).map(|_| ())
        };
        if let Err(e) = readable {
            errors.invalid(
                "file_format",
                &format!("The files cannot be read in this format: {e}"),
            );
        }
    }
}

/// Reports a name or slug another component in the same project and
/// category uses.
fn check_names(
    conn: &mut DbConnection,
    (project_id, category_id): (i64, Option<i64>),
    settings: &ComponentSettings,
    except: Option<i64>,
    errors: &mut FieldErrors,
) -> ServiceResult<()> {
    let (name_taken, slug_taken) = components::taken(
        conn,
        project_id,
        category_id,
        &settings.name,
        &settings.slug,
        except,
    )?;
    let slug_taken = slug_taken
        || tolk_store::categories::slug_taken(conn, project_id, category_id, &settings.slug)?;
    for (taken, field) in [(name_taken, NAME), (slug_taken, SLUG)] {
        if taken && !errors.has(field.attr) {
            field.report(errors);
        }
    }
    Ok(())
}
