//! Failing checks a person looks at in the editor: the checks a text
//! would fail before it is saved (with the rules a save applies), and a
//! failing check dismissed on a string, or a dismissal undone.

use tolk_domain::checks::dismissals::{holds, with_id};
use tolk_domain::checks::glossary::Glossary;
use tolk_domain::permission::{Permission, Subject};
use tolk_domain::stats::Counters;
use tolk_domain::unit::{UnitState, join_plurals};
use tolk_store::{translations, units};

use crate::ServiceResult;
use crate::access::require;
use crate::glossary::GlossaryTerms;
use crate::unit_plan::{checks_of, size};
use crate::units::{UnitView, Units};

/// Whether a check is dismissed or a dismissal undone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dismissal {
    /// The failing check is dismissed: it stops counting.
    Dismiss,
    /// The dismissed check fails again.
    Restore,
}

impl Units<'_> {
    /// The checks `target` (its plural forms) would fail as the
    /// translation of the unit `id_hash` of the translation `path`,
    /// needing editing if `fuzzy`, dismissed ones left out: what a save of
    /// it would store. Not found for a hidden translation or unit.
    pub fn checks_for(
        &self,
        subject: &Subject,
        (path, id_hash): ((&str, &str, &str), i64),
        target: &[String],
        fuzzy: bool,
    ) -> ServiceResult<Vec<String>> {
        self.store.read(|conn| {
            let translation = self.translation_of_units(conn, subject, path)?;
            let unit = units::by_hash(conn, &[translation.translation.id], id_hash)?
                .pop()
                .ok_or(crate::ServiceError::NotFound)?;
            let view = UnitView {
                unit,
                translation: std::sync::Arc::new(translation),
                labels: Vec::new(),
            };
            if view.translation.is_template() {
                return Ok(Vec::new());
            }
            let text = join_plurals(target);
            let state = match (text.is_empty(), fuzzy) {
                (true, _) => UnitState::Empty,
                (false, true) => UnitState::Fuzzy,
                (false, false) => UnitState::Translated,
            };
            let mut terms = GlossaryTerms::default();
            let glossary: &Glossary = terms.for_unit(conn, &view)?;
            let checked = checks_of(&view, &text, state, glossary);
            Ok(tolk_domain::checks::dismissals::ids(&checked.failing)
                .map(str::to_owned)
                .collect())
        })
    }

    /// Dismisses the check `check` failing on the unit `id`, or restores
    /// one dismissed on it: it leaves (or rejoins) the unit's failing
    /// checks and the counts of failing strings. Needs the permission to
    /// dismiss checks (`unit.check`); not found for a hidden unit, or a
    /// check that is not failing (not dismissed) there.
    pub fn dismiss_check(
        &self,
        subject: &Subject,
        id: i64,
        check: &str,
        how: Dismissal,
    ) -> ServiceResult<UnitView> {
        self.store.write(|conn| {
            units::lock_translation_of(conn, id)?;
            let mut view = self.visible_unit(conn, subject, id)?;
            require(
                subject,
                Permission::UNIT_CHECK,
                view.translation.target(),
                "You do not have permission to dismiss checks.",
            )?;
            let dismiss = how == Dismissal::Dismiss;
            let unit = &view.unit;
            let from = if dismiss {
                &unit.failing
            } else {
                &unit.dismissed
            };
            if !holds(from, check) {
                return Err(crate::ServiceError::NotFound);
            }
            let failing = with_id(&unit.failing, check, !dismiss);
            let dismissed = with_id(&unit.dismissed, check, dismiss);
            units::set_checks(conn, id, &failing, &dismissed)?;
            let state = UnitState::from_code(unit.state).unwrap_or(UnitState::Empty);
            let (words, chars) = size(&unit.source, unit.num_words);
            let counted = Counters::of_unit(state, words, chars);
            let delta = Counters::delta(
                counted.with_failing(&unit.failing),
                counted.with_failing(&failing),
            );
            if delta.failing != 0 {
                let translation = view.translation.translation.id;
                translations::add_failing(conn, translation, &delta)?;
            }
            view.unit.failing = failing;
            view.unit.dismissed = dismissed;
            Ok(view)
        })
    }
}
