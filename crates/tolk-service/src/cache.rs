//! What nearly every request reads and rarely changes, kept in memory:
//! callers by token hash, the anonymous caller, component views and
//! languages. Everything kept belongs to one cache generation
//! ([`tolk_store::generation`]), and the cache forgets everything when the
//! generation has moved.
//!
//! A request reads the generation (one statement) unless the one read
//! last is trusted: read less than [`ServiceConfig::generation_trust`]
//! ago (20 ms by default), with no transaction committed by this process
//! since ([`tolk_store::Commits`]). So a change made through this process
//! holds from its next request, and one made by another instance or by
//! the command line within the trust, while a busy server reads the
//! generation some fifty times a second instead of at every request (a
//! round trip of some 150 µs on PostgreSQL).
//!
//! [`ServiceConfig::generation_trust`]: crate::ServiceConfig::generation_trust
//!
//! A value is stored under the generation read *before* the value was
//! read: a change committed in between moves the generation, so the next
//! request reads the value again rather than trusting a stale one.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use chrono::NaiveDateTime;
use tolk_domain::permission::Subject;
use tolk_store::languages::{self, Language};
use tolk_store::{Commits, DbConnection, components, generation};

use crate::ServiceResult;
use crate::component_view::{ComponentView, views};

/// Callers kept at most; past this the callers are forgotten and read again.
const MAX_CALLERS: usize = 10_000;

/// A cache generation as read by one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Generation(i64);

/// A caller resolved from a token, until the token expires.
#[derive(Debug, Clone)]
struct Caller {
    subject: Subject,
    expires: Option<NaiveDateTime>,
}

/// When the kept generation was last read from the database.
#[derive(Debug, Clone, Copy)]
struct Read {
    /// This process's commits counted before the read.
    commits: u64,
    /// When the read began.
    at: Instant,
}

#[derive(Debug, Default)]
struct Kept {
    generation: Option<i64>,
    /// The last read that found `generation`, if it was read on its own.
    read: Option<Read>,
    callers: HashMap<String, Caller>,
    anonymous: Option<Subject>,
    components: HashMap<i64, ComponentView>,
    languages: HashMap<i64, Language>,
    /// Per project, its components that share translations.
    propagating: HashMap<i64, Vec<i64>>,
}

/// The in-memory copies, shared by every clone of the service.
#[derive(Debug)]
pub(crate) struct Cache {
    kept: Mutex<Kept>,
    /// The store's commits, to tell whether this process changed anything.
    commits: Commits,
    /// How long a generation read is trusted when nothing was committed.
    trust: Duration,
}

impl Cache {
    /// An empty cache over the store whose `commits` it follows, trusting
    /// a generation read for `trust`.
    pub(crate) fn new(commits: Commits, trust: Duration) -> Cache {
        Cache {
            kept: Mutex::default(),
            commits,
            trust,
        }
    }

    /// The current generation: the one read last while it is trusted,
    /// else read now (forgetting everything kept when it has moved on).
    pub(crate) fn sync(&self, conn: &mut DbConnection) -> ServiceResult<Generation> {
        let read = Read {
            commits: self.commits.count(),
            at: Instant::now(),
        };
        if let Some(generation) = self.trusted_at(read) {
            return Ok(generation);
        }
        let generation = self.observe(generation::current(conn)?);
        let mut kept = self.lock();
        if kept.generation == Some(generation.0)
            && kept.read.is_none_or(|last| last.commits <= read.commits)
        {
            kept.read = Some(read);
        }
        Ok(generation)
    }

    /// The generation read last, while it is trusted: no statement needed.
    pub(crate) fn trusted(&self) -> Option<Generation> {
        self.trusted_at(Read {
            commits: self.commits.count(),
            at: Instant::now(),
        })
    }

    /// The kept generation if its last read counts as current at `now`:
    /// the same commits seen, within the trust.
    fn trusted_at(&self, now: Read) -> Option<Generation> {
        let kept = self.lock();
        let (generation, read) = (kept.generation?, kept.read?);
        (read.commits == now.commits && now.at.saturating_duration_since(read.at) < self.trust)
            .then_some(Generation(generation))
    }

    /// Takes note of a generation read along with other rows, forgetting
    /// everything kept when it has moved on.
    pub(crate) fn observe(&self, current: i64) -> Generation {
        let mut kept = self.lock();
        if kept.generation.is_none_or(|g| g < current) {
            *kept = Kept {
                generation: Some(current),
                ..Kept::default()
            };
        }
        Generation(current)
    }

    fn lock(&self) -> MutexGuard<'_, Kept> {
        // A panic while holding the lock leaves plain maps: still usable.
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The kept values when they belong to `generation` (a request that
    /// read an older one neither reads nor stores them).
    fn at(&self, generation: Generation) -> Option<MutexGuard<'_, Kept>> {
        let kept = self.lock();
        (kept.generation == Some(generation.0)).then_some(kept)
    }

    /// The caller of a token hash, if kept and the token is still valid.
    pub(crate) fn caller(
        &self,
        generation: Generation,
        key_hash: &str,
        now: NaiveDateTime,
    ) -> Option<Subject> {
        let kept = self.at(generation)?;
        let caller = kept.callers.get(key_hash)?;
        caller
            .expires
            .is_none_or(|at| at > now)
            .then(|| caller.subject.clone())
    }

    /// Keeps the caller of a token hash.
    pub(crate) fn keep_caller(
        &self,
        generation: Generation,
        key_hash: String,
        subject: Subject,
        expires: Option<NaiveDateTime>,
    ) {
        if let Some(mut kept) = self.at(generation) {
            if kept.callers.len() >= MAX_CALLERS {
                kept.callers.clear();
            }
            kept.callers.insert(key_hash, Caller { subject, expires });
        }
    }

    /// The anonymous caller, if kept.
    pub(crate) fn kept_anonymous(&self, generation: Generation) -> Option<Subject> {
        self.at(generation).and_then(|k| k.anonymous.clone())
    }

    /// The anonymous caller, read by `load` when not kept.
    pub(crate) fn anonymous(
        &self,
        generation: Generation,
        load: impl FnOnce() -> ServiceResult<Subject>,
    ) -> ServiceResult<Subject> {
        if let Some(subject) = self.kept_anonymous(generation) {
            return Ok(subject);
        }
        let subject = load()?;
        if let Some(mut kept) = self.at(generation) {
            kept.anonymous = Some(subject.clone());
        }
        Ok(subject)
    }

    /// The generation last read (what a request that read it in its
    /// transaction may use), or the current one read now when none was.
    pub(crate) fn latest_or_sync(&self, conn: &mut DbConnection) -> ServiceResult<Generation> {
        let latest = self.lock().generation;
        match latest {
            Some(generation) => Ok(Generation(generation)),
            None => self.sync(conn),
        }
    }

    /// The ids of a project's components that share translations
    /// (`allow_translation_propagation`); one statement when not kept.
    pub(crate) fn propagating(
        &self,
        generation: Generation,
        conn: &mut DbConnection,
        project_id: i64,
    ) -> ServiceResult<Vec<i64>> {
        if let Some(ids) = self
            .at(generation)
            .and_then(|k| k.propagating.get(&project_id).cloned())
        {
            return Ok(ids);
        }
        let ids: Vec<i64> = components::of_project(conn, project_id)?
            .into_iter()
            .filter(|c| c.settings.allow_translation_propagation)
            .map(|c| c.id)
            .collect();
        if let Some(mut kept) = self.at(generation) {
            kept.propagating.insert(project_id, ids.clone());
        }
        Ok(ids)
    }

    /// Views of the components with these ids (missing ones left out);
    /// those not kept are read in a fixed number of statements.
    pub(crate) fn components(
        &self,
        generation: Generation,
        conn: &mut DbConnection,
        ids: &[i64],
    ) -> ServiceResult<HashMap<i64, ComponentView>> {
        self.through(
            generation,
            ids,
            |k| &mut k.components,
            |v| v.component.id,
            |missing| {
                let rows = components::get_by_ids(conn, missing)?;
                views(conn, rows)
            },
        )
    }

    /// The languages with these ids (missing ones left out), with their
    /// plurals and aliases.
    pub(crate) fn languages(
        &self,
        generation: Generation,
        conn: &mut DbConnection,
        ids: &[i64],
    ) -> ServiceResult<HashMap<i64, Language>> {
        self.through(
            generation,
            ids,
            |k| &mut k.languages,
            |l| l.row.id,
            |missing| Ok(languages::get_full_by_ids(conn, missing)?),
        )
    }

    /// The values of `ids`: kept ones from `map`, the others from `load`
    /// (and kept from then on).
    fn through<T: Clone>(
        &self,
        generation: Generation,
        ids: &[i64],
        map: fn(&mut Kept) -> &mut HashMap<i64, T>,
        id_of: fn(&T) -> i64,
        load: impl FnOnce(&[i64]) -> ServiceResult<Vec<T>>,
    ) -> ServiceResult<HashMap<i64, T>> {
        let mut found = HashMap::new();
        let mut missing = Vec::new();
        {
            let mut kept = self.at(generation);
            for id in ids {
                match kept.as_mut().and_then(|k| map(k).get(id)) {
                    Some(value) => {
                        found.insert(*id, value.clone());
                    }
                    None if !missing.contains(id) => missing.push(*id),
                    None => {}
                }
            }
        }
        if missing.is_empty() {
            return Ok(found);
        }
        let read = load(&missing)?;
        let mut kept = self.at(generation);
        for value in read {
            if let Some(kept) = kept.as_mut() {
                map(kept).insert(id_of(&value), value.clone());
            }
            found.insert(id_of(&value), value);
        }
        Ok(found)
    }
}
