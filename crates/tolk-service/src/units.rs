//! Units: listing (with the query language), reading and translating.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::permission::{Permission, Subject};
use tolk_domain::stats::Counters;
use tolk_domain::unit::{PLURAL_SEPARATOR, UnitState, join_plurals};
use tolk_domain::validation::FieldErrors;
use tolk_store::changes::{self, NewChange};
use tolk_store::translations::{self, Translation};
use tolk_store::units::{self, UnitFilter, UnitRow};
use tolk_store::{DbConnection, Page, PageRequest, time};

use crate::access::{page, require};
use crate::cache::Generation;
use crate::translations::{TranslationView, visible_translation};
use crate::{Service, ServiceError, ServiceResult};

/// A unit with its translation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitView {
    /// The stored unit.
    pub unit: UnitRow,
    /// Its translation, shared by the units of one list (without its
    /// `last_author`, which units do not show).
    pub translation: Arc<TranslationView>,
}

impl UnitView {
    /// Number of target forms: the language's plural count for plural
    /// strings, else one.
    pub fn forms(&self) -> usize {
        if self.unit.source.contains(PLURAL_SEPARATOR) {
            usize::try_from(self.translation.language.plural.number.max(1)).unwrap_or(1)
        } else {
            1
        }
    }
}

impl Service {
    /// Views of units with their translations; components and languages
    /// come from the cache (a translation's `last_author` is not read).
    fn unit_views(
        &self,
        conn: &mut DbConnection,
        generation: Generation,
        rows: Vec<(UnitRow, Translation)>,
    ) -> ServiceResult<Vec<UnitView>> {
        let component_ids: Vec<i64> = rows.iter().map(|(_, t)| t.component_id).collect();
        let components = self.cache.components(generation, conn, &component_ids)?;
        let mut language_ids: Vec<i64> = rows.iter().map(|(_, t)| t.language_id).collect();
        language_ids.extend(components.values().map(|c| c.source_language.row.id));
        let languages = self.cache.languages(generation, conn, &language_ids)?;
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
                Ok(UnitView { unit, translation })
            })
            .collect()
    }

    /// The unit with this id if the caller may see it, else not found.
    fn visible_unit(
        &self,
        conn: &mut DbConnection,
        subject: &Subject,
        id: i64,
    ) -> ServiceResult<UnitView> {
        let found = units::get_with_translation(conn, id)?.ok_or(ServiceError::NotFound)?;
        let generation = self.cache.observe(found.generation);
        let view = self
            .unit_views(conn, generation, vec![(found.unit, found.translation)])?
            .pop()
            .ok_or(ServiceError::NotFound)?;
        if view.translation.component.visible_to(subject) {
            Ok(view)
        } else {
            Err(ServiceError::NotFound)
        }
    }
}

/// The condition `q` sets on units, or the field error naming the problem.
fn condition_of(q: Option<&str>) -> ServiceResult<Option<tolk_domain::query::Condition>> {
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

/// A translation of a unit as the API asks for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitEdit {
    /// The translated forms.
    pub target: Option<Vec<String>>,
    /// The new state number.
    pub state: Option<i32>,
}

impl Service {
    /// Units the caller may see, of one translation when given, matching `q`.
    pub fn units(
        &self,
        subject: &Subject,
        translation: Option<(&str, &str, &str)>,
        q: Option<&str>,
        request: PageRequest,
    ) -> ServiceResult<Page<UnitView>> {
        let condition = condition_of(q)?;
        self.store.read(|conn| {
            let known = match translation {
                Some(path) => Some(visible_translation(conn, subject, path)?),
                None => None,
            };
            let filter = UnitFilter {
                translation_id: known.as_ref().map(|t| t.translation.id),
                condition,
            };
            let found = page(units::list(
                conn,
                &subject.project_visibility(),
                &filter,
                request,
            ))?;
            match known.map(Arc::new) {
                // The translation is read already: its units need nothing more.
                Some(translation) => found.try_map_items(|rows| {
                    Ok(rows
                        .into_iter()
                        .map(|unit| UnitView {
                            unit,
                            translation: Arc::clone(&translation),
                        })
                        .collect())
                }),
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
                    self.unit_views(conn, generation, paired)
                }),
            }
        })
    }

    /// One unit, if the caller may see it.
    pub fn unit(&self, subject: &Subject, id: i64) -> ServiceResult<UnitView> {
        self.store.read(|conn| self.visible_unit(conn, subject, id))
    }

    /// Translates a unit (§10.3): checks the text and state, records the
    /// change, marks the unit pending and moves the statistics.
    pub fn edit_unit(&self, subject: &Subject, id: i64, edit: UnitEdit) -> ServiceResult<UnitView> {
        self.store.write(|conn| {
            // A concurrent edit of this unit waits here until this one
            // ends, then reads what it wrote: edits apply in order.
            units::lock_translation_of(conn, id)?;
            let mut view = self.visible_unit(conn, subject, id)?;
            let (Some(target), Some(state)) = (edit.target, edit.state) else {
                let mut errors = FieldErrors::default();
                let message = "Please provide both state and target for a partial update";
                errors.invalid("state", message);
                errors.invalid("target", message);
                return Err(errors.into());
            };
            check_edit(subject, &view, &target, state)?;
            let old_state = UnitState::from_code(view.unit.state).unwrap_or(UnitState::Empty);
            let new_state = UnitState::from_code(state).unwrap_or(UnitState::Empty);
            let text = join_plurals(&target);
            if text == view.unit.target && new_state == old_state {
                return Ok(view);
            }
            let at = time::now();
            let updated = units::set_translation(
                conn,
                id,
                (&view.unit.target, view.unit.state),
                &text,
                new_state.code(),
                at,
            )?;
            if !updated {
                // Changed or removed since it was read: the caller's edit lost.
                return Err(ServiceError::NotFound);
            }
            let chars = i64::try_from(view.unit.source.chars().count()).unwrap_or(i64::MAX);
            let words = i64::from(view.unit.num_words);
            let delta = Counters::delta(
                Counters::of_unit(old_state, words, chars),
                Counters::of_unit(new_state, words, chars),
            );
            translations::add_counters(conn, view.translation.translation.id, &delta, at)?;
            let action = if new_state.is_fuzzy() {
                Action::MARKED_EDIT
            } else if new_state == UnitState::Approved {
                Action::APPROVE
            } else if old_state >= UnitState::Fuzzy {
                Action::CHANGE
            } else {
                Action::NEW
            };
            let component = &view.translation.component;
            let change = NewChange {
                project_id: Some(component.project.id),
                component_id: Some(component.component.id),
                translation_id: Some(view.translation.translation.id),
                unit_id: Some(id),
                language_id: Some(view.translation.language.row.id),
                author_id: subject.user_id(),
                old: view.unit.target.clone(),
                target: text,
                details: json!({
                    "state": new_state.code(),
                    "old_state": old_state.code(),
                    "source": view.unit.source,
                    "context": view.unit.context,
                }),
                ..NewChange::new(action, subject.user_id())
            };
            changes::record(conn, &change, at)?;
            if let Some(user) = subject.user_id() {
                tolk_store::users::count_translated(conn, user)?;
            }
            // The answer is what was written, not read again.
            view.unit.target = change.target;
            view.unit.state = new_state.code();
            view.unit.pending = true;
            view.unit.last_updated = at;
            Ok(view)
        })
    }
}

/// The rules of a translation edit, in Weblate's order and words.
fn check_edit(
    subject: &Subject,
    view: &UnitView,
    target: &[String],
    state: i32,
) -> ServiceResult<()> {
    let mut errors = FieldErrors::default();
    if target.len() != view.forms() {
        errors.invalid("target", "Number of plurals does not match");
        return Err(errors.into());
    }
    if view.unit.state == UnitState::ReadOnly.code() {
        return Err(ServiceError::PermissionDenied(
            "The string is read-only.".into(),
        ));
    }
    match UnitState::from_code(state) {
        Some(UnitState::NeedsRewriting | UnitState::NeedsChecking) => {
            errors.invalid("state", "This state cannot be set manually.");
        }
        Some(UnitState::Empty | UnitState::Fuzzy | UnitState::Translated | UnitState::Approved) => {
        }
        _ => errors.invalid("state", "Invalid state"),
    }
    let empty = target.iter().all(String::is_empty);
    if state == 0 && !empty {
        errors.invalid("state", "Can not use empty state with non empty target");
    } else if state != 0 && empty {
        errors.invalid("state", "Can not use non empty state with empty target");
    }
    errors.into_result()?;
    let target_ref = view.translation.target();
    require(
        subject,
        Permission::UNIT_EDIT,
        target_ref,
        "You do not have permission to perform this action.",
    )?;
    if view.translation.component.component.locked {
        return Err(ServiceError::PermissionDenied(
            "This translation is currently locked.".into(),
        ));
    }
    let reviews = view
        .translation
        .component
        .project
        .settings
        .translation_review;
    if reviews
        && view.unit.state == UnitState::Approved.code()
        && !subject.can(Permission::UNIT_REVIEW, target_ref)
    {
        return Err(ServiceError::PermissionDenied(
            "Only reviewers can change approved strings. Please add a suggestion if you \
             think the string should be changed."
                .into(),
        ));
    }
    if state == UnitState::Approved.code() {
        if !reviews {
            return Err(ServiceError::invalid(
                "state",
                "Translation reviews are turned off.",
            ));
        }
        require(
            subject,
            Permission::UNIT_REVIEW,
            target_ref,
            "You do not have permission to perform this action.",
        )?;
    }
    Ok(())
}
