//! Units: listing (with the query language), reading and translating.

use std::collections::HashMap;
use std::sync::Arc;

use tolk_domain::change::Action;
use tolk_domain::permission::{Permission, Subject};
use tolk_domain::stats::Counters;
use tolk_domain::unit::{content_sum, split_plurals};
use tolk_domain::validation::{FieldErrors, check_length};
use tolk_store::changes::{self, NewChange};
use tolk_store::labels::{self, Label};
use tolk_store::translations::{self, Translation};
use tolk_store::units::{self, UnitFilter, UnitRow};
use tolk_store::{DbConnection, Page, PageRequest, time};

use crate::access::{page, require};
use crate::cache::Generation;
use crate::glossary::GlossaryTerms;
use crate::translated_check::Histories;
use crate::translations::TranslationView;
use crate::unit_plan::{Planned, Spread, unit_change};
pub use crate::unit_view::UnitView;
use crate::{Service, ServiceError, ServiceResult};

impl Service {
    /// Views of units with their translations; components and languages
    /// come from the cache (a translation's `last_author` is not read).
    pub(crate) fn unit_views(
        &self,
        conn: &mut DbConnection,
        generation: Generation,
        rows: Vec<(UnitRow, Translation)>,
        read_labels: bool,
    ) -> ServiceResult<Vec<UnitView>> {
        let (components, languages) =
            self.cached_parts(conn, generation, rows.iter().map(|(_, t)| t))?;
        let mut shared: HashMap<i64, Arc<TranslationView>> = HashMap::new();
        rows.into_iter()
            .map(|(unit, translation)| {
                let translation = match shared.get(&translation.id) {
                    Some(view) => Arc::clone(view),
                    None => {
                        let view = Arc::new(TranslationView::assemble(
                            translation,
                            &components,
                            &languages,
                            None,
                        )?);
                        shared.insert(view.translation.id, Arc::clone(&view));
                        view
                    }
                };
                Ok(UnitView {
                    unit,
                    translation,
                    labels: Vec::new(),
                })
            })
            .collect::<ServiceResult<Vec<_>>>()
            .and_then(|views| {
                if read_labels {
                    with_labels(conn, views)
                } else {
                    Ok(views)
                }
            })
    }

    /// The unit with this id if the caller may see it, else not found.
    pub(crate) fn visible_unit(
        &self,
        conn: &mut DbConnection,
        subject: &Subject,
        id: i64,
    ) -> ServiceResult<UnitView> {
        let found = units::get_with_translation(conn, id)?.ok_or(ServiceError::NotFound)?;
        let generation = self.cache.observe(found.generation);
        let view = self
            .unit_views(
                conn,
                generation,
                vec![(found.unit, found.translation)],
                true,
            )?
            .pop()
            .ok_or(ServiceError::NotFound)?;
        if view.translation.component.visible_to(subject) {
            Ok(view)
        } else {
            Err(ServiceError::NotFound)
        }
    }
}

/// Views of units of one translation.
pub(crate) fn views_of(rows: Vec<UnitRow>, translation: &Arc<TranslationView>) -> Vec<UnitView> {
    rows.into_iter()
        .map(|unit| UnitView {
            unit,
            translation: Arc::clone(translation),
            labels: Vec::new(),
        })
        .collect()
}

/// Units with the labels of their strings; one statement when one of
/// them has labels, none otherwise.
pub(crate) fn with_labels(
    conn: &mut DbConnection,
    mut views: Vec<UnitView>,
) -> ServiceResult<Vec<UnitView>> {
    let ids: Vec<i64> = views
        .iter()
        .filter(|view| view.unit.labelled)
        .map(UnitView::source_id)
        .collect();
    if ids.is_empty() {
        return Ok(views);
    }
    let found = labels::of_units(conn, &ids)?;
    for view in &mut views {
        if let Some(labels) = found.get(&view.source_id()) {
            view.labels.clone_from(labels);
        }
    }
    Ok(views)
}

/// The condition `q` sets on units, or the field error naming the problem.
pub(crate) fn condition_of(
    q: Option<&str>,
) -> ServiceResult<Option<tolk_domain::query::Condition>> {
    let parsed = match q.map(tolk_domain::query::parse).transpose() {
        Ok(parsed) => parsed.flatten(),
        Err(message) => {
            return Err(query_error(&format!(
                "Failed to parse the query string: {message}"
            )));
        }
    };
    match parsed {
        None => Ok(None),
        Some(query) => match query.condition(time::now()) {
            Ok(condition) => Ok(Some(condition)),
            Err(message) => Err(query_error(&message)),
        },
    }
}

fn query_error(message: &str) -> ServiceError {
    ServiceError::invalid("q", &format!("Could not parse query string: {message}"))
}

/// An edit of a unit as the API asks for it (§10.3): its translation,
/// and on source units the string's properties.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UnitEdit {
    /// The translated forms.
    pub target: Option<Vec<String>>,
    /// The new state number.
    pub state: Option<i32>,
    /// The explanation of the string.
    pub explanation: Option<String>,
    /// Flags added to the file's.
    pub extra_flags: Option<String>,
    /// The ids of the string's labels.
    pub labels: Option<Vec<i64>>,
    /// The [`tolk_domain::unit::content_sum`] of what the person saving
    /// was shown (the web editor): the edit is refused if the unit holds
    /// anything else by then, so that nobody overwrites what they did not
    /// see.
    pub shown: Option<String>,
}

/// Longest `extra_flags` accepted.
const MAX_FLAGS: usize = 500;

crate::service::area!(
    /// The use-cases of strings: listing (with the query language),
    /// reading, translating, adding, deleting, editing in bulk.
    Units,
    units
);

impl Units<'_> {
    /// Units the caller may see, of one translation when given, matching `q`.
    pub fn list(
        &self,
        subject: &Subject,
        translation: Option<(&str, &str, &str)>,
        q: Option<&str>,
        request: PageRequest,
    ) -> ServiceResult<Page<UnitView>> {
        let condition = condition_of(q)?;
        self.store.read(move |conn| {
            let known = match translation {
                Some(path) => Some(self.translation_of_units(conn, subject, path)?),
                None => None,
            };
            let project = known.as_ref().map(|t| t.component.project.id);
            let condition = crate::glossary::resolve_search(conn, condition, project)?;
            // A translation's counters count its units.
            let known_count = known
                .as_ref()
                .filter(|_| condition.is_none())
                .map(|t| t.translation.counters.total.strings);
            let filter = UnitFilter {
                translation_id: known.as_ref().map(|t| t.translation.id),
                condition,
                known_count,
            };
            let found = page(units::list(
                conn,
                &subject.project_visibility(),
                &filter,
                request,
            ))?;
            match known.map(Arc::new) {
                // The translation is read already: its units need nothing more.
                Some(translation) => {
                    found.try_map_items(|rows| with_labels(conn, views_of(rows, &translation)))
                }
                None => found.try_map_items(|rows| {
                    let mut ids: Vec<i64> = rows.iter().map(|u| u.translation_id).collect();
                    ids.sort_unstable();
                    ids.dedup();
                    let translations: HashMap<i64, Translation> =
                        translations::get_by_ids(conn, &ids)?
                            .into_iter()
                            .map(|t| (t.id, t))
                            .collect();
                    let paired = rows
                        .into_iter()
                        .map(|u| {
                            let translation = translations
                                .get(&u.translation_id)
                                .cloned()
                                .ok_or(ServiceError::NotFound)?;
                            Ok((u, translation))
                        })
                        .collect::<ServiceResult<Vec<_>>>()?;
                    let generation = self.cache.sync(conn)?;
                    self.unit_views(conn, generation, paired, true)
                }),
            }
        })
    }

    /// The units of the other languages of a source unit's string (§10.2);
    /// 400 for a unit that is not a source unit.
    pub fn in_other_languages(&self, subject: &Subject, id: i64) -> ServiceResult<Vec<UnitView>> {
        self.store.read(|conn| {
            let source = self.visible_unit(conn, subject, id)?;
            if !source.is_source() {
                let mut errors = FieldErrors::default();
                errors.general(
                    "not-a-source-unit",
                    "Specified unit id is not a translation source unit.",
                );
                return Err(errors.into());
            }
            let rows = units::translations_of(conn, id)?;
            let generation = self.cache.sync(conn)?;
            self.unit_views(conn, generation, rows, true)
        })
    }

    /// One unit, if the caller may see it.
    pub fn get(&self, subject: &Subject, id: i64) -> ServiceResult<UnitView> {
        self.store.read(|conn| self.visible_unit(conn, subject, id))
    }

    /// Edits a unit (§10.3): translates it when `target` or `state` is
    /// given (checks the text and state, records the change, marks the
    /// unit pending and moves the statistics), and sets the properties of
    /// a source string. Answers with what it wrote. Edits of many callers
    /// at once commit together (on SQLite, see `Store::write_together`).
    pub fn edit(&self, subject: &Subject, id: i64, edit: UnitEdit) -> ServiceResult<UnitView> {
        let (service, subject) = (Service::clone(self), subject.clone());
        self.store
            .write_together(move |conn| service.units().edit_in(conn, &subject, id, edit))
    }

    /// [`Units::edit`] inside its transaction.
    fn edit_in(
        &self,
        conn: &mut DbConnection,
        subject: &Subject,
        id: i64,
        edit: UnitEdit,
    ) -> ServiceResult<UnitView> {
        // A concurrent edit of this unit waits here until this one
        // ends, then reads what it wrote: edits apply in order.
        units::lock_translation_of(conn, id)?;
        let mut view = self.visible_unit(conn, subject, id)?;
        let at = time::now();
        if let Some(shown) = &edit.shown {
            let unit = &view.unit;
            if *shown != content_sum(&unit.target, unit.state) {
                let now = split_plurals(&unit.target).join(" | ");
                let mut errors = FieldErrors::default();
                errors.invalid(
                    "target",
                    &format!(
                        "Someone changed this string since it was shown to you: it now reads “{now}”. Your text is kept here; save it again to replace theirs."
                    ),
                );
                return Err(errors.into());
            }
        }
        if edit.target.is_some() || edit.state.is_some() {
            let (Some(target), Some(state)) = (edit.target, edit.state) else {
                let mut errors = FieldErrors::default();
                let message = "Please provide both state and target for a partial update";
                errors.invalid("state", message);
                errors.invalid("target", message);
                return Err(errors.into());
            };
            if let Some(written) = translate(conn, subject, &mut view, &target, state, at)? {
                let mut verdicts = self.propagate(conn, subject, &view.translation, &[written])?;
                if let Some(verdict) = verdicts.remove(&view.unit.id) {
                    view.unit.failing = verdict.failing;
                    if let Some(state) = verdict.state {
                        view.unit.state = state;
                    }
                }
            }
        }
        let properties = SourceProperties {
            explanation: edit.explanation,
            extra_flags: edit.extra_flags,
            labels: edit.labels,
        };
        properties.apply(conn, subject, &mut view, at)?;
        Ok(view)
    }
}

/// Records translations written at one time: their changes, the
/// translation's counters, the author's count and the accepted ones in
/// the translation memory, in a fixed number of statements.
pub(crate) fn record_translations(
    conn: &mut DbConnection,
    subject: &Subject,
    translation: &TranslationView,
    written: &[Planned],
    at: chrono::NaiveDateTime,
) -> ServiceResult<()> {
    if written.is_empty() {
        return Ok(());
    }
    let mut delta = Counters::default();
    for planned in written {
        delta += planned.delta;
    }
    translations::add_counters(conn, translation.translation.id, &delta, at)?;
    let accepted: Vec<(&str, &str)> = written
        .iter()
        .filter(|p| p.state.is_translated())
        .map(|p| (p.source.as_str(), p.text.as_str()))
        .collect();
    if translation.is_template() {
        // New source strings: each translation of them follows.
        for planned in written {
            if let Some(unit) = planned.change.unit_id {
                crate::source_edit::follow(conn, translation, unit, planned, at)?;
            }
        }
    } else {
        crate::memory::remember(conn, subject, translation, &accepted)?;
    }
    let records: Vec<&NewChange> = written.iter().map(|p| &p.change).collect();
    changes::record_many(conn, records, at)?;
    if let Some(user) = subject.user_id() {
        let count = i64::try_from(written.len()).unwrap_or(i64::MAX);
        tolk_store::users::count_translated(conn, user, count)?;
    }
    Ok(())
}

/// Sets a unit's translation and state after the rules allow it; records
/// the change and moves the statistics. `view` becomes what was written;
/// what spreads to the same string elsewhere, or `None` when the edit
/// changed nothing.
fn translate(
    conn: &mut DbConnection,
    subject: &Subject,
    view: &mut UnitView,
    target: &[String],
    state: i32,
    at: chrono::NaiveDateTime,
) -> ServiceResult<Option<Spread>> {
    let mut glossary = GlossaryTerms::default();
    let terms = glossary.for_unit(conn, view)?;
    let Some(mut planned) = Planned::new(subject, view, target, state, terms)? else {
        return Ok(None);
    };
    if planned.needs_history() {
        let histories = Histories::of_units(conn, &[view.unit.id])?;
        planned.judge_history(&histories, view);
    }
    if !planned.write(conn, view, at)? {
        // Changed or removed since it was read: the caller's edit lost.
        return Err(ServiceError::NotFound);
    }
    let translation = Arc::clone(&view.translation);
    let spread = planned.spread(view.unit.id_hash);
    let written = [planned];
    record_translations(conn, subject, &translation, &written, at)?;
    let [planned] = written;
    // The answer is what was written, not read again.
    planned.apply_to(view, at);
    Ok(Some(spread))
}

/// The properties of a source string an edit sets (each when given).
struct SourceProperties {
    explanation: Option<String>,
    extra_flags: Option<String>,
    labels: Option<Vec<i64>>,
}

impl SourceProperties {
    /// Sets what differs from `view`: only on source units, with
    /// `source.edit`. Values equal to the current ones are accepted
    /// anywhere, as a full update (PUT) sends them back unchanged.
    fn apply(
        self,
        conn: &mut DbConnection,
        subject: &Subject,
        view: &mut UnitView,
        at: chrono::NaiveDateTime,
    ) -> ServiceResult<()> {
        let explanation = self.explanation.filter(|e| *e != view.unit.explanation);
        let extra_flags = self.extra_flags.filter(|f| *f != view.unit.extra_flags);
        let mut current: Vec<i64> = view.labels.iter().map(|l| l.id).collect();
        current.sort_unstable();
        let labels = self
            .labels
            .map(|mut ids| {
                ids.sort_unstable();
                ids.dedup();
                ids
            })
            .filter(|ids| *ids != current);
        if explanation.is_none() && extra_flags.is_none() && labels.is_none() {
            return Ok(());
        }
        if !view.is_source() {
            return Err(ServiceError::PermissionDenied(
                "Source strings properties can be set only on source strings".into(),
            ));
        }
        require(
            subject,
            Permission::SOURCE_EDIT,
            view.translation.target(),
            "You do not have permission to perform this action.",
        )?;
        let mut errors = FieldErrors::default();
        if let Some(flags) = &extra_flags {
            check_length(flags, "extra_flags", MAX_FLAGS, &mut errors);
        }
        let project = view.translation.component.project.id;
        let wanted = match &labels {
            Some(ids) => labels::of_project(conn, project, ids)?,
            None => Vec::new(),
        };
        if labels.as_ref().is_some_and(|ids| ids.len() != wanted.len()) {
            errors.invalid(
                "labels",
                "Label with this ID was not found in this project.",
            );
        }
        errors.into_result()?;
        if explanation.is_some() || extra_flags.is_some() {
            let explanation = explanation.unwrap_or_else(|| view.unit.explanation.clone());
            let extra_flags = extra_flags.unwrap_or_else(|| view.unit.extra_flags.clone());
            units::set_source_properties(conn, view.unit.id, &explanation, &extra_flags)?;
            view.unit.explanation = explanation;
            view.unit.extra_flags = extra_flags;
        }
        if labels.is_some() {
            let added: Vec<&Label> = wanted.iter().filter(|l| !current.contains(&l.id)).collect();
            let removed: Vec<&Label> = view.labels.iter().filter(|l| !wanted.contains(l)).collect();
            let ids = |list: &[&Label]| list.iter().map(|l| l.id).collect::<Vec<_>>();
            labels::change_unit_labels(conn, view.unit.id, &ids(&added), &ids(&removed))?;
            let records: Vec<NewChange> = added
                .iter()
                .map(|l| (Action::LABEL_ADD, format!("Added label {}", l.name)))
                .chain(
                    removed
                        .iter()
                        .map(|l| (Action::LABEL_REMOVE, format!("Removed label {}", l.name))),
                )
                .map(|(action, target)| NewChange {
                    target,
                    ..unit_change(view, action, subject)
                })
                .collect();
            changes::record_many(conn, records.iter().collect(), at)?;
            view.labels = wanted;
        }
        Ok(())
    }
}
