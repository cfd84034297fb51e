//! Automatic translation (§9.5): the strings of a translation that a query
//! selects are filled from other components' translations of the same
//! source text and from the translation memory, as translations (needing
//! editing, or approved) or as suggestions. The request is checked at
//! once; the work runs as a background task that reports its progress and
//! what it did. Machine translation services on the internet are refused.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::permission::{Permission, Subject};
use tolk_domain::stats::Counters;
use tolk_domain::unit::{PLURAL_SEPARATOR, UnitState, split_plurals};
use tolk_domain::validation::FieldErrors;
use tolk_store::changes::{self, NewChange};
use tolk_store::memory::{self, Entry, Scope};
use tolk_store::units::{self, UnitFilter, UnitRow};
use tolk_store::{DbConnection, components, suggestions, time, translations};

use crate::access::require;
pub use crate::autotranslate_job::AutoMode;
use crate::autotranslate_job::{AutoJob, OtherComponents, Sources};
use crate::bulk::{BulkEdit, BulkOutcome, apply_edits};
use crate::jobs::{Job, Owner, enqueue};
use crate::memory::{similarity, source_hash};
use crate::tasks::{Run, TaskFailure, TaskResult};
use crate::translations::{TranslationView, visible_translation};
use crate::unit_plan::unit_change;
use crate::unit_view::UnitView;
use crate::units::condition_of;
use crate::{Service, ServiceError, ServiceResult};

/// The machinery engine of other components' translations.
pub const ENGINE_OTHERS: &str = "weblate";
/// The machinery engine of the translation memory.
pub const ENGINE_MEMORY: &str = "weblate-translation-memory";
/// Edits written per transaction.
const BATCH: usize = 1_000;
/// Most memory entries compared with each string for similar texts.
const SIMILAR_CANDIDATES: i64 = 20_000;

/// An automatic translation as the API gives it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AutoRequest {
    /// `suggest`, `translate`, `fuzzy` or `approved`.
    pub mode: Option<String>,
    /// The strings to fill (§30); `state:<translated` when not given.
    pub q: Option<String>,
    /// `others` (other components) or `mt` (machinery engines).
    pub auto_source: Option<String>,
    /// The one component to take translations from (id, or slug in the project).
    pub component: Option<String>,
    /// Machinery engines, for `mt`.
    pub engines: Vec<String>,
    /// Least similarity (1-100) of a memory match.
    pub threshold: Option<i64>,
}

/// Checks a request against the translation it is for.
fn check(
    conn: &mut DbConnection,
    subject: &Subject,
    translation: &TranslationView,
    request: &AutoRequest,
) -> ServiceResult<(AutoMode, String, Sources, i64)> {
    let component = &translation.component;
    require(
        subject,
        Permission::TRANSLATION_AUTO,
        translation.target(),
        "You do not have permission to perform this action.",
    )?;
    if component.component.locked {
        return Err(ServiceError::PermissionDenied("Component is locked".into()));
    }
    if translation.is_source() {
        return Err(ServiceError::PermissionDenied(
            "The source language is not translated.".into(),
        ));
    }
    let mut errors = FieldErrors::default();
    let mode = match request.mode.as_deref() {
        None | Some("") => {
            errors.required("mode");
            None
        }
        Some(value) => match AutoMode::parse(value) {
            Some(AutoMode::Approved)
                if !subject.can(Permission::UNIT_REVIEW, translation.target()) =>
            {
                errors.invalid_choice("mode", value);
                None
            }
            Some(mode) => Some(mode),
            None => {
                errors.invalid_choice("mode", value);
                None
            }
        },
    };
    let threshold = request.threshold.unwrap_or(80);
    if !(1..=100).contains(&threshold) {
        errors.invalid("threshold", "Ensure this value is between 1 and 100.");
    }
    let q = request
        .q
        .clone()
        .filter(|q| !q.trim().is_empty())
        .unwrap_or_else(|| "state:<translated".to_owned());
    if let Err(ServiceError::Validation(e)) = condition_of(Some(&q)) {
        for item in e.iter() {
            errors.invalid("q", &item.detail);
        }
    }
    let sources = match request.auto_source.as_deref().unwrap_or("others") {
        "others" => {
            let others = match request.component.as_deref().filter(|c| !c.is_empty()) {
                None => OtherComponents::All,
                Some(given) => {
                    let found = match given.parse::<i64>() {
                        Ok(id) => components::get_by_ids(conn, &[id])?.pop(),
                        Err(_) => components::get_by_slugs(conn, component.project.id, given)?,
                    };
                    match found {
                        Some(c) if c.project_id == component.project.id => {
                            OtherComponents::Only(c.id)
                        }
                        _ => {
                            errors.invalid("component", "Component not found.");
                            OtherComponents::All
                        }
                    }
                }
            };
            Sources {
                others: Some(others),
                memory: false,
            }
        }
        "mt" => {
            let mut sources = Sources {
                others: None,
                memory: false,
            };
            for engine in &request.engines {
                match engine.as_str() {
                    ENGINE_OTHERS => sources.others = Some(OtherComponents::All),
                    ENGINE_MEMORY => sources.memory = true,
                    other => errors.invalid(
                        "engines",
                        &format!(
                            "{other} is a service on the internet, which Tolk does not use; \
                             the engines here are {ENGINE_OTHERS} and {ENGINE_MEMORY}."
                        ),
                    ),
                }
            }
            if request.engines.is_empty() {
                errors.required("engines");
            }
            sources
        }
        other => {
            errors.invalid_choice("auto_source", other);
            Sources {
                others: None,
                memory: false,
            }
        }
    };
    errors.into_result()?;
    let mode = mode.ok_or(ServiceError::NotFound)?;
    Ok((mode, q, sources, threshold))
}

/// What the sources offer for the strings of one translation.
struct Offers {
    /// Other components' translations by source and context, and by source.
    by_string: HashMap<(String, String), String>,
    by_source: HashMap<String, String>,
    /// Memory entries by source text, and the candidates for similar texts.
    exact: HashMap<String, String>,
    similar: Vec<Entry>,
}

impl Offers {
    /// The best translation of `unit`, if one is good enough.
    fn best(&self, unit: &UnitRow, threshold: i64) -> Option<String> {
        let key = (unit.source.clone(), unit.context.clone());
        if let Some(found) = self.by_string.get(&key) {
            return Some(found.clone());
        }
        if let Some(found) = self
            .by_source
            .get(&unit.source)
            .or_else(|| self.exact.get(&unit.source))
        {
            return Some(found.clone());
        }
        if threshold >= 100 || unit.source.contains(PLURAL_SEPARATOR) {
            return None;
        }
        self.similar
            .iter()
            .map(|e| (similarity(&e.source, &unit.source), e))
            .filter(|(score, _)| *score >= threshold)
            .max_by_key(|(score, _)| *score)
            .map(|(_, e)| e.target.clone())
    }
}

/// Reads what the sources offer for `wanted` units of `translation`.
fn offers(
    conn: &mut DbConnection,
    subject: &Subject,
    translation: &TranslationView,
    wanted: &[UnitRow],
    sources: &Sources,
) -> ServiceResult<Offers> {
    let mut offers = Offers {
        by_string: HashMap::new(),
        by_source: HashMap::new(),
        exact: HashMap::new(),
        similar: Vec::new(),
    };
    let component = &translation.component;
    let language = translation.language.row.id;
    if let Some(others) = sources.others {
        let ids: Vec<i64> = match others {
            OtherComponents::Only(id) => vec![id],
            OtherComponents::All => components::of_project(conn, component.project.id)?
                .into_iter()
                .map(|c| c.id)
                .collect(),
        };
        let ids: Vec<i64> = ids
            .into_iter()
            .filter(|id| *id != component.component.id)
            .collect();
        // Newest first: the first seen of a text wins.
        for (source, context, target) in units::translated_in(conn, language, &ids)? {
            offers
                .by_source
                .entry(source.clone())
                .or_insert(target.clone());
            offers.by_string.entry((source, context)).or_insert(target);
        }
    }
    if sources.memory {
        let scope = match subject.user_id() {
            _ if subject.is_superuser() => Scope::All,
            Some(user_id) => Scope::Of {
                user_id,
                projects: subject.project_visibility(),
            },
            None => return Ok(offers),
        };
        let languages = (component.source_language.row.id, language);
        let mut hashes: Vec<i64> = wanted.iter().map(|u| source_hash(&u.source)).collect();
        hashes.sort_unstable();
        hashes.dedup();
        for entry in memory::with_sources(conn, &scope, languages, None, &hashes)? {
            offers.exact.entry(entry.source).or_insert(entry.target);
        }
        let lengths = wanted
            .iter()
            .map(|u| i64::try_from(u.source.chars().count()).unwrap_or(0));
        if let (Some(shortest), Some(longest)) = (lengths.clone().min(), lengths.max()) {
            offers.similar = memory::of_languages(
                conn,
                &scope,
                languages,
                None,
                (shortest / 2, longest * 2),
                SIMILAR_CANDIDATES,
            )?;
        }
    }
    Ok(offers)
}

impl crate::translations::Translations<'_> {
    /// Starts an automatic translation of `project/component/language`
    /// (§9.5) once the request passes the checks; the id of its task.
    pub fn autotranslate(
        &self,
        subject: &Subject,
        path: (&str, &str, &str),
        request: AutoRequest,
    ) -> ServiceResult<String> {
        let id = self.store.write(|conn| {
            let translation = visible_translation(conn, subject, path)?;
            let (mode, q, sources, threshold) = check(conn, subject, &translation, &request)?;
            let component = &translation.component;
            let job = Job::AutoTranslate(AutoJob {
                path: (path.0.to_owned(), path.1.to_owned(), path.2.to_owned()),
                user_id: subject.user_id(),
                mode,
                q,
                sources,
                threshold,
            });
            let owner = Owner {
                user_id: subject.user_id(),
                project_id: Some(component.project.id),
                component_id: Some(component.component.id),
            };
            Ok::<_, ServiceError>(enqueue(conn, &job, owner)?)
        })?;
        self.queued();
        Ok(id)
    }
}

impl Service {
    /// Task: fills the selected strings as `job` says, a batch per
    /// transaction, acting as the user who asked (with the rights they
    /// hold now).
    pub(crate) fn run_autotranslate(&self, job: &AutoJob, run: &Run<'_>) -> TaskResult {
        let subject = self.subject_of(job.user_id)?;
        let path = (
            job.path.0.as_str(),
            job.path.1.as_str(),
            job.path.2.as_str(),
        );
        let condition = condition_of(Some(&job.q))?;
        let (translation, proposals) = self.store.read(|conn| {
            let translation = Arc::new(visible_translation(conn, &subject, path)?);
            let project = Some(translation.component.project.id);
            let condition = crate::glossary::resolve_search(conn, condition, project)?;
            let filter = UnitFilter {
                translation_id: Some(translation.translation.id),
                condition,
                known_count: None,
            };
            let wanted: Vec<UnitRow> = units::matching(conn, &filter)?
                .into_iter()
                .filter(|u| u.state < UnitState::ReadOnly.code())
                .collect();
            let offers = offers(conn, &subject, &translation, &wanted, &job.sources)?;
            let proposals: Vec<(UnitRow, String)> = wanted
                .into_iter()
                .filter_map(|u| {
                    let found = offers.best(&u, job.threshold)?;
                    (found != u.target || job.mode.state().code() != u.state).then_some((u, found))
                })
                .collect();
            Ok::<_, ServiceError>((translation, proposals))
        })?;
        run.report(10, format!("{} strings to fill", proposals.len()));
        let total = proposals.len().max(1);
        let mut updated = 0usize;
        for (done, batch) in proposals.chunks(BATCH).enumerate() {
            // The strings filled so far stay filled.
            if run.cancelled() {
                return Err(TaskFailure::cancelled());
            }
            updated += if job.mode == AutoMode::Suggest {
                self.store
                    .write(|conn| suggest(conn, &subject, &translation, batch))?
                    .into_iter()
                    .filter(|added| *added)
                    .count()
            } else {
                let edits: Vec<BulkEdit> = batch
                    .iter()
                    .map(|(unit, target)| BulkEdit {
                        id: unit.id,
                        target: split_plurals(target),
                        state: job.mode.state().code(),
                    })
                    .collect();
                // As in Weblate, automatic translation does not propagate.
                let (outcomes, _) = self.store.write(|conn| {
                    apply_edits(conn, &subject, &translation, edits, Some(Action::AUTO))
                })?;
                outcomes
                    .iter()
                    .filter(|o| matches!(o, BulkOutcome::Applied))
                    .count()
            };
            let finished = (done + 1) * BATCH;
            let progress = 10 + i32::try_from(finished.min(total) * 89 / total).unwrap_or(89);
            run.report(progress, format!("{updated} strings filled"));
        }
        let details = match updated {
            0 => "Automatic translation completed, no strings were updated.".to_owned(),
            1 => "Automatic translation completed, 1 string was updated.".to_owned(),
            n => format!("Automatic translation completed, {n} strings were updated."),
        };
        Ok(json!({"details": details, "updated": updated}))
    }
}

/// Adds `batch` as suggestions by `subject` where the unit has no such
/// suggestion yet; whether each was added.
pub(crate) fn suggest(
    conn: &mut DbConnection,
    subject: &Subject,
    translation: &Arc<TranslationView>,
    batch: &[(UnitRow, String)],
) -> ServiceResult<Vec<bool>> {
    let at = time::now();
    let ids: Vec<i64> = batch.iter().map(|(u, _)| u.id).collect();
    let existing: std::collections::HashSet<(i64, String, Option<i64>)> =
        suggestions::of_units(conn, &ids)?.into_iter().collect();
    let mut records: Vec<NewChange> = Vec::new();
    let mut made: Vec<(i64, &str)> = Vec::new();
    let mut first = 0;
    let mut added = Vec::with_capacity(batch.len());
    for (unit, target) in batch {
        let new = !existing.contains(&(unit.id, target.clone(), subject.user_id()));
        added.push(new);
        if !new {
            continue;
        }
        made.push((unit.id, target));
        first += i64::from(!unit.has_suggestion);
        let view = UnitView {
            unit: unit.clone(),
            translation: Arc::clone(translation),
            labels: Vec::new(),
        };
        records.push(NewChange {
            target: target.clone(),
            ..unit_change(&view, Action::SUGGESTION, subject)
        });
    }
    let delta = Counters {
        suggestions: first,
        ..Counters::default()
    };
    suggestions::insert_many(conn, &made, subject.user_id(), at)?;
    translations::add_counters(conn, translation.translation.id, &delta, at)?;
    changes::record_many(conn, records.iter().collect(), at)?;
    Ok(added)
}
