//! Translation memory (§18): accepted translations are remembered in the
//! project's scope, the translator's and (when the project contributes to
//! it) the shared pool; signed-in callers list the entries they may see
//! and delete those they may delete.

use tolk_domain::permission::{Permission, Subject, Target};
use tolk_domain::unit::{PLURAL_SEPARATOR, id_hash};
use tolk_domain::validation::{FieldErrors, check_length};
use tolk_store::languages::{self, LanguageScope};
use tolk_store::memory::{self, Entry, Feed, Filter, Scope};
use tolk_store::{DbConnection, Page, PageRequest, projects, time};

use crate::access::{page, require_authenticated};
use crate::component_view::ComponentView;
use crate::translations::TranslationView;
use crate::{ServiceError, ServiceResult};

/// The longest text the `source` filter takes.
pub const MAX_SOURCE_FILTER: usize = 2_000;

/// The hash entries are found by: of the source text alone.
pub fn source_hash(source: &str) -> i64 {
    id_hash(source, "", false)
}

/// How alike two texts are, 0-100 (edit distance over the longer length).
pub(crate) fn similarity(a: &str, b: &str) -> i64 {
    (strsim::normalized_levenshtein(a, b) * 100.0).round() as i64
}

/// A list's filters as the API gives them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemoryFilter {
    /// Source text containing this, in any case.
    pub source: Option<String>,
    /// Source language code.
    pub source_language: Option<String>,
    /// Target language code.
    pub target_language: Option<String>,
    /// Project slug.
    pub project: Option<String>,
}

/// Whose entries `subject` sees.
pub(crate) fn scope_of(subject: &Subject) -> ServiceResult<Scope> {
    require_authenticated(subject)?;
    if subject.can(Permission::MEMORY_MANAGE, Target::Site) {
        return Ok(Scope::All);
    }
    let user_id = subject.user_id().ok_or(ServiceError::NotAuthenticated)?;
    Ok(Scope::Of {
        user_id,
        projects: subject.project_visibility(),
    })
}

/// Where the translations of one component's strings are remembered:
/// the project's scope and, when the project contributes to it, the
/// shared pool (and the translator's own scope, for edits).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MemoryScopes {
    source_language_id: i64,
    project_id: i64,
    origin: String,
    shared: bool,
}

impl MemoryScopes {
    /// The scopes of `component`'s strings.
    pub(crate) fn of(component: &ComponentView) -> Self {
        MemoryScopes {
            source_language_id: component.source_language.row.id,
            project_id: component.project.id,
            origin: component.full_slug(),
            shared: component.project.settings.contribute_shared_tm,
        }
    }

    /// The entries of the translations `written` (source and target
    /// texts, plural forms joined) into `target_language_id`, made by
    /// `user` (none for what was read from files). Empty translations are
    /// left out.
    pub(crate) fn feeds(
        &self,
        target_language_id: i64,
        user: Option<i64>,
        written: &[(&str, &str)],
    ) -> Vec<Feed> {
        let mut feeds = Vec::new();
        for (source, target) in written {
            if target.split(PLURAL_SEPARATOR).all(str::is_empty) {
                continue;
            }
            let feed = |project_id: Option<i64>, user_id: Option<i64>, shared| {
                let (source_language_id, origin) = (self.source_language_id, &self.origin);
                let identity = format!(
                    "{source_language_id}\u{1f}{target_language_id}\u{1f}{source}\u{1f}{target}\u{1f}\
                     {origin}\u{1f}{project_id:?}\u{1f}{user_id:?}\u{1f}{shared}"
                );
                Feed {
                    source_language_id,
                    target_language_id,
                    source: (*source).to_owned(),
                    source_hash: source_hash(source),
                    target: (*target).to_owned(),
                    origin: origin.clone(),
                    project_id,
                    user_id,
                    shared,
                    from_file: false,
                    digest: Some(id_hash(&identity, "", false)),
                }
            };
            feeds.push(feed(Some(self.project_id), None, false));
            if let Some(user) = user {
                feeds.push(feed(None, Some(user), false));
            }
            if self.shared {
                feeds.push(feed(None, None, true));
            }
        }
        feeds
    }
}

/// Remembers the accepted translations `written` (source and target
/// texts) of `translation` made by `subject` (see [`MemoryScopes`]). One
/// statement per few hundred entries.
pub(crate) fn remember(
    conn: &mut DbConnection,
    subject: &Subject,
    translation: &TranslationView,
    written: &[(&str, &str)],
) -> ServiceResult<()> {
    let feeds = MemoryScopes::of(&translation.component).feeds(
        translation.language.row.id,
        subject.user_id(),
        written,
    );
    if !feeds.is_empty() {
        memory::remember(conn, &feeds, time::now())?;
    }
    Ok(())
}

crate::service::area!(
    /// The use-cases of the translation memory: listing, reading, deleting,
    /// importing and exporting entries.
    Memory,
    memory
);

impl Memory<'_> {
    /// The memory entries `subject` sees (all with `memory.manage`; else
    /// their own and those of the projects they see), filtered, by id.
    pub fn list(
        &self,
        subject: &Subject,
        filter: &MemoryFilter,
        request: PageRequest,
    ) -> ServiceResult<Page<Entry>> {
        let scope = scope_of(subject)?;
        let mut errors = FieldErrors::default();
        check_length(
            filter.source.as_deref().unwrap_or(""),
            "source",
            MAX_SOURCE_FILTER,
            &mut errors,
        );
        errors.into_result()?;
        self.store.read(|conn| {
            let mut language = |code: &Option<String>| -> ServiceResult<Option<i64>> {
                Ok(match code {
                    // An unknown code matches nothing.
                    Some(code) => Some(
                        languages::get_by_code(conn, code, LanguageScope::All)?
                            .map_or(-1, |l| l.row.id),
                    ),
                    None => None,
                })
            };
            let source_language_id = language(&filter.source_language)?;
            let target_language_id = language(&filter.target_language)?;
            let project_id = match &filter.project {
                Some(slug) => Some(projects::get_by_slug(conn, slug)?.map_or(-1, |p| p.id)),
                None => None,
            };
            let filter = Filter {
                source: filter.source.clone(),
                source_language_id,
                target_language_id,
                project_id,
            };
            page(memory::list(conn, &scope, &filter, request))
        })
    }

    /// One memory entry `subject` sees.
    pub fn get(&self, subject: &Subject, id: i64) -> ServiceResult<Entry> {
        let scope = scope_of(subject)?;
        self.store
            .read(|conn| memory::get(conn, &scope, id)?.ok_or(ServiceError::NotFound))
    }

    /// Deletes a memory entry: one's own, a project's with `memory.delete`
    /// there, any with `memory.manage`.
    pub fn delete(&self, subject: &Subject, id: i64) -> ServiceResult<()> {
        let scope = scope_of(subject)?;
        self.store.write(|conn| {
            let entry = memory::get(conn, &scope, id)?.ok_or(ServiceError::NotFound)?;
            let own = entry.user_id.is_some() && entry.user_id == subject.user_id();
            let allowed =
                own || subject.can(Permission::MEMORY_MANAGE, Target::Site)
                    || match entry.project_id {
                        Some(project) => projects::get_by_ids(conn, &[project])?
                            .first()
                            .is_some_and(|p| {
                                subject.can(Permission::MEMORY_DELETE, Target::Project(p.as_ref()))
                            }),
                        None => false,
                    };
            if !allowed {
                return Err(ServiceError::PermissionDenied(
                    "Can not delete memory entry".into(),
                ));
            }
            memory::delete(conn, id)?;
            Ok(())
        })
    }
}
