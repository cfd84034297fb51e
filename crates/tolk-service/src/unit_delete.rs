//! Deleting a string (§10: `DELETE /api/units/{id}/`): the source unit's
//! string leaves every translation, a bilingual translation's unit leaves
//! its own. The units go from the database at once, with their counters;
//! the files lose the string at the next commit, which a read of the
//! files meanwhile respects.

use std::collections::HashSet;

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::permission::{Permission, Subject};
use tolk_domain::stats::Counters;
use tolk_domain::unit::UnitState;
use tolk_store::changes::{self, NewChange};
use tolk_store::unit_removals::{self, Removal};
use tolk_store::units::{self, UnitRow};
use tolk_store::{comments, time, translations};

use crate::access::require;
use crate::unit_view::UnitView;
use crate::units::Units;
use crate::{ServiceError, ServiceResult};

/// Checks that `unit`'s string may be deleted by `subject`.
fn check(subject: &Subject, unit: &UnitView) -> ServiceResult<()> {
    let translation = &unit.translation;
    let settings = &translation.component.component.settings;
    require(
        subject,
        translation.on_strings(Permission::UNIT_DELETE),
        translation.target(),
        "You do not have permission to perform this action.",
    )?;
    if let Some(setting) = settings.units_locked_by() {
        return Err(ServiceError::PermissionDenied(format!(
            "Removing strings is disabled in the component configuration. The component's {setting} setting allows it."
        )));
    }
    if !tolk_formats::can_remove(&settings.file_format) {
        return Err(ServiceError::PermissionDenied(
            "The file format does not support this.".into(),
        ));
    }
    if !settings.template.is_empty() && !translation.is_source() {
        return Err(ServiceError::PermissionDenied(
            "Remove the string from the source language instead.".into(),
        ));
    }
    Ok(())
}

/// What a unit counts for in its translation's statistics.
fn counted(unit: &UnitRow, commented: bool) -> Counters {
    let state = UnitState::from_code(unit.state).unwrap_or(UnitState::Empty);
    let chars = i64::try_from(unit.source.chars().count()).unwrap_or(i64::MAX);
    Counters {
        suggestions: i64::from(unit.has_suggestion),
        comments: i64::from(commented),
        ..Counters::of_unit(state, i64::from(unit.num_words), chars).with_failing(&unit.failing)
    }
}

impl Units<'_> {
    /// Deletes the string of unit `id`: from every translation when it is
    /// the source unit, else from its own translation.
    pub fn delete(&self, subject: &Subject, id: i64) -> ServiceResult<()> {
        self.store.write(|conn| {
            let unit = self.visible_unit(conn, subject, id)?;
            check(subject, &unit)?;
            let translation = &unit.translation;
            let component = &translation.component;
            let all = if translation.is_source() {
                translations::of_component(conn, component.component.id)?
            } else {
                vec![translation.translation.clone()]
            };
            let ids: Vec<i64> = all.iter().map(|t| t.id).collect();
            // Locked as adding does: a concurrent add or delete of the
            // string waits, then finds what this one did.
            translations::lock_all(conn, &ids)?;
            let gone = units::by_hash(conn, &ids, unit.unit.id_hash)?;
            if !gone.iter().any(|u| u.id == id) {
                return Err(ServiceError::NotFound);
            }
            let gone_ids: Vec<i64> = gone.iter().map(|u| u.id).collect();
            let commented: HashSet<i64> = comments::units_with_unresolved(conn, &gone_ids)?;
            let at = time::now();
            // Translations by what their unit counted for: one counters
            // statement per kind, not per translation.
            let mut by_counters: Vec<(Counters, Vec<i64>)> = Vec::new();
            for u in &gone {
                let counters = -counted(u, commented.contains(&u.id));
                match by_counters.iter_mut().find(|(c, _)| *c == counters) {
                    Some((_, ids)) => ids.push(u.translation_id),
                    None => by_counters.push((counters, vec![u.translation_id])),
                }
            }
            for (counters, ids) in &by_counters {
                translations::add_counters_to(conn, ids, counters, at)?;
            }
            // Strings added through the API and never committed are in no file.
            let removals: Vec<Removal> = gone
                .iter()
                .filter(|u| !u.added)
                .filter(|u| {
                    all.iter()
                        .any(|t| t.id == u.translation_id && !t.filename.is_empty())
                })
                .map(|u| Removal {
                    translation_id: u.translation_id,
                    id_hash: u.id_hash,
                    context: u.context.clone(),
                    source: u.source.clone(),
                    created: at,
                })
                .collect();
            unit_removals::insert_many(conn, &removals)?;
            units::delete_ids(conn, &gone_ids)?;
            let records: Vec<NewChange> = gone
                .iter()
                .filter_map(|u| {
                    let t = all.iter().find(|t| t.id == u.translation_id)?;
                    Some(NewChange {
                        project_id: Some(component.project.id),
                        component_id: Some(component.component.id),
                        translation_id: Some(t.id),
                        language_id: Some(t.language_id),
                        author_id: subject.user_id(),
                        target: u.source.clone(),
                        details: json!({"source": u.source, "context": u.context}),
                        ..NewChange::new(Action::STRING_REMOVE, subject.user_id())
                    })
                })
                .collect();
            changes::record_many(conn, records.iter().collect(), at)?;
            // Its twins elsewhere may agree with each other now.
            let mut languages: Vec<i64> = all.iter().map(|t| t.language_id).collect();
            languages.sort_unstable();
            languages.dedup();
            let owner = (component.project.id, component.component.id);
            self.refresh_strings(conn, owner, &languages, &[unit.unit.id_hash])?;
            // Texts it held may now be held by one source only.
            let generation = self.cache.latest_or_sync(conn)?;
            let texts: Vec<(i64, String)> = gone
                .iter()
                .filter_map(|u| {
                    let t = all.iter().find(|t| t.id == u.translation_id)?;
                    (t.language_id != component.component.source_language_id)
                        .then(|| (t.language_id, u.target.clone()))
                })
                .collect();
            self.refresh_reused(conn, generation, (component.project.id, None), &texts)?;
            Ok(())
        })
    }
}
