//! Translation propagation (Weblate's `allow_translation_propagation`):
//! a string translated by an edit, a bulk edit or an accepted suggestion
//! is translated alike, as an edit of the same person, in the other
//! components of its project that share translations and hold the same
//! string (same key, or same source and context) in the same language.
//! Each such edit follows that unit's own rules (permissions, read-only
//! strings, reviews, its component's checks) and is recorded as a
//! `Propagated change`; what the rules refuse is left as it was, and
//! fails the `inconsistent` check ([`crate::consistency`]). A project of
//! one component spreads nothing; the `reused` verdicts of the texts
//! ([`crate::reused`]) follow in every project.

use std::collections::HashMap;
use std::sync::Arc;

use tolk_domain::change::Action;
use tolk_domain::permission::Subject;
use tolk_domain::unit::split_plurals;
use tolk_store::{DbConnection, units};

use crate::bulk::{BulkEdit, apply_edits};
use crate::cache::Generation;
use crate::translations::TranslationView;
use crate::unit_plan::Spread;
use crate::verdicts::{self, Verdict};
use crate::{Service, ServiceResult};

impl Service {
    /// Spreads what was `written` in `translation` to the same strings of
    /// the project's other components that share translations, in the
    /// caller's transaction, then brings the strings' `inconsistent`
    /// verdicts and the `reused` verdicts of the old and new texts up to
    /// date; the units whose failing checks changed.
    pub(crate) fn propagate(
        &self,
        conn: &mut DbConnection,
        subject: &Subject,
        translation: &TranslationView,
        written: &[Spread],
    ) -> ServiceResult<HashMap<i64, Verdict>> {
        // Source strings are a component's own (a template's edits
        // change them, see `source_edit`).
        if written.is_empty() || translation.is_source() {
            return Ok(HashMap::new());
        }
        let generation = self.cache.latest_or_sync(conn)?;
        let mut verdicts = self.spread(conn, generation, subject, translation, written)?;
        let language = translation.translation.language_id;
        let texts: Vec<(i64, String)> = written
            .iter()
            .flat_map(|w| [w.previous.clone(), w.target.clone()])
            .map(|text| (language, text))
            .collect();
        let place = (translation.component.project.id, None);
        let reused = self.refresh_reused(conn, generation, place, &texts)?;
        verdicts::merge(&mut verdicts, reused);
        Ok(verdicts)
    }

    /// [`Service::propagate`]'s spreading and `inconsistent` verdicts.
    fn spread(
        &self,
        conn: &mut DbConnection,
        generation: Generation,
        subject: &Subject,
        translation: &TranslationView,
        written: &[Spread],
    ) -> ServiceResult<HashMap<i64, Verdict>> {
        let component = &translation.component;
        let Some(sharing) = self.sharing(
            conn,
            generation,
            component.project.id,
            component.component.id,
        )?
        else {
            return Ok(HashMap::new());
        };
        let wanted: HashMap<i64, &Spread> = written.iter().map(|w| (w.id_hash, w)).collect();
        let hashes: Vec<i64> = wanted.keys().copied().collect();
        let language = translation.translation.language_id;
        let found = units::same_strings(conn, &sharing.others, language, Some(&hashes))?;
        if found.is_empty() {
            // Strings of this component alone: nothing to spread or compare.
            return Ok(HashMap::new());
        }
        let views = self.unit_views(conn, generation, found, false)?;
        let mut by_translation: HashMap<i64, (Arc<TranslationView>, Vec<BulkEdit>)> =
            HashMap::new();
        for view in views {
            let Some(spread) = wanted.get(&view.unit.id_hash) else {
                continue;
            };
            if view.unit.target == spread.target && view.unit.state == spread.state {
                continue;
            }
            let entry = by_translation
                .entry(view.translation.translation.id)
                .or_insert_with(|| (Arc::clone(&view.translation), Vec::new()));
            entry.1.push(BulkEdit {
                id: view.unit.id,
                target: split_plurals(&spread.target),
                state: spread.state,
            });
        }
        for (other, edits) in by_translation.into_values() {
            // Refusals (rights, read-only strings, reviews) leave the unit.
            apply_edits(conn, subject, &other, edits, Some(Action::PROPAGATED_EDIT))?;
        }
        self.refresh_consistency(conn, generation, &sharing.all, language, Some(&hashes))
    }
}
