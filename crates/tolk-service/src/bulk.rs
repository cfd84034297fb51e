//! Bulk translation (a Tolk extension): up to [`MAX_EDITS`] edits of one
//! translation's units in one transaction, each applied or refused on its
//! own by the rules of a single edit. Refused items change nothing; the
//! applied ones are written a few hundred per statement, and the batch
//! costs a fixed few more (counters, changes, the author's count).

use std::collections::HashMap;
use std::sync::Arc;

use tolk_domain::change::Action;
use tolk_domain::permission::{Permission, Subject};
use tolk_domain::validation::FieldErrors;
use tolk_store::{time, units};

use crate::access::require;
use crate::translations::TranslationView;
use crate::unit_plan::Planned;
use crate::unit_plan::Spread;
use crate::unit_view::UnitView;
use crate::units::Units;
use crate::units::record_translations;
use crate::{ServiceError, ServiceResult};

/// Most edits one request may carry.
pub const MAX_EDITS: usize = 10_000;

/// One edit of a bulk request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulkEdit {
    /// The unit, which must belong to the translation.
    pub id: i64,
    /// The translated forms.
    pub target: Vec<String>,
    /// The new state number.
    pub state: i32,
}

/// What became of one edit.
#[derive(Debug)]
pub enum BulkOutcome {
    /// Written (or already so: nothing to write).
    Applied,
    /// Refused, with what a single edit would have answered.
    Refused(ServiceError),
}

impl Units<'_> {
    /// Applies `edits` to the units of the translation
    /// `project/component/language` in one transaction; one outcome per
    /// edit, in order.
    pub fn bulk_edit(
        &self,
        subject: &Subject,
        path: (&str, &str, &str),
        edits: Vec<BulkEdit>,
    ) -> ServiceResult<Vec<BulkOutcome>> {
        let mut errors = FieldErrors::default();
        if edits.len() > MAX_EDITS {
            errors.invalid(
                "units",
                &format!("Ensure this list has no more than {MAX_EDITS} elements."),
            );
            return Err(errors.into());
        }
        // One edit per unit: which of two would be meant is not the
        // server's to guess.
        let mut seen = std::collections::HashSet::with_capacity(edits.len());
        if let Some(twice) = edits.iter().find(|e| !seen.insert(e.id)) {
            errors.invalid(
                "units",
                &format!(
                    "Unit {} is edited more than once; send one edit per unit.",
                    twice.id
                ),
            );
            return Err(errors.into());
        }
        self.store.write(|conn| {
            let translation = Arc::new(self.translation_of_units(conn, subject, path)?);
            require(
                subject,
                translation.on_strings(Permission::UNIT_EDIT),
                translation.target(),
                "You do not have permission to perform this action.",
            )?;
            let (outcomes, spread) = apply_edits(conn, subject, &translation, edits, None)?;
            self.propagate(conn, subject, &translation, &spread)?;
            Ok(outcomes)
        })
    }
}

/// Applies `edits` to units of `translation` (whose access was checked)
/// in the caller's transaction, as [`Units::bulk_edit`](crate::units::Units::bulk_edit) does; the
/// changes are recorded with `action` when given, else as each edit's own.
/// What became of each edit, and what was written, to propagate.
pub(crate) fn apply_edits(
    conn: &mut tolk_store::DbConnection,
    subject: &Subject,
    translation: &Arc<TranslationView>,
    edits: Vec<BulkEdit>,
    action: Option<Action>,
) -> ServiceResult<(Vec<BulkOutcome>, Vec<Spread>)> {
    // Edits of these units by others wait for this batch to end.
    tolk_store::translations::lock(conn, translation.translation.id)?;
    let ids: Vec<i64> = edits.iter().map(|e| e.id).collect();
    let mut rows: HashMap<i64, units::UnitRow> =
        units::of_translation_by_ids(conn, translation.translation.id, &ids)?
            .into_iter()
            .map(|u| (u.id, u))
            .collect();
    let at = time::now();
    let mut planned = Vec::new();
    let mut outcomes = Vec::with_capacity(edits.len());
    let mut glossary = crate::glossary::GlossaryTerms::default();
    for edit in edits {
        let Some(unit) = rows.remove(&edit.id) else {
            // Missing, or of another translation.
            outcomes.push(BulkOutcome::Refused(ServiceError::NotFound));
            continue;
        };
        let view = UnitView {
            unit,
            translation: Arc::clone(translation),
            labels: Vec::new(),
        };
        let terms = glossary.for_unit(conn, &view)?;
        match Planned::new(subject, &view, &edit.target, edit.state, terms) {
            Err(refused) => outcomes.push(BulkOutcome::Refused(refused)),
            Ok(None) => outcomes.push(BulkOutcome::Applied),
            Ok(Some(mut plan)) => {
                if let Some(action) = action {
                    plan.change.action = action;
                }
                planned.push((outcomes.len(), view, plan));
                outcomes.push(BulkOutcome::Applied);
            }
        }
    }
    // Strings left untranslated: `translated` reads their histories at once.
    let untranslated: Vec<i64> = planned
        .iter()
        .filter(|(_, _, plan)| plan.needs_history())
        .map(|(_, view, _)| view.unit.id)
        .collect();
    if !untranslated.is_empty() {
        let histories = crate::translated_check::Histories::of_units(conn, &untranslated)?;
        for (_, view, plan) in &mut planned {
            plan.judge_history(&histories, view);
        }
    }
    let writes: Vec<units::TranslationWrite<'_>> = planned
        .iter()
        .map(|(_, view, plan)| units::TranslationWrite {
            id: view.unit.id,
            expected: (&view.unit.target, view.unit.state),
            target: &plan.text,
            state: plan.state.code(),
            failing: &plan.failing,
            dismissed: &plan.dismissed,
        })
        .collect();
    let done: std::collections::HashSet<i64> = units::set_translations(conn, &writes, at)?
        .into_iter()
        .collect();
    let mut written = Vec::with_capacity(planned.len());
    let mut spread = Vec::with_capacity(planned.len());
    for (at_index, view, plan) in planned {
        if done.contains(&view.unit.id) {
            spread.push(plan.spread(view.unit.id_hash));
            written.push(plan);
        } else {
            outcomes[at_index] = BulkOutcome::Refused(ServiceError::NotFound);
        }
    }
    record_translations(conn, subject, translation, &written, at)?;
    Ok((outcomes, spread))
}
