//! The `inconsistent` check (Weblate's consistency check): a translated
//! string fails it when the same string (same key, or same source and
//! context) in the same language of another component of its project
//! that shares translations (`allow_translation_propagation`) holds
//! another text, or none. It needs the other components' units, so it is
//! kept up to date apart from the checks of one unit: after an edit has
//! propagated and after a scan, for the strings concerned, with the
//! translations' counters of failing strings.

use std::collections::HashMap;

use tolk_domain::checks::catalogue::INCONSISTENT;
use tolk_store::{DbConnection, units};

use crate::cache::Generation;
use crate::unit_view::UnitView;
use crate::verdicts::{self, Verdict};
use crate::{Service, ServiceResult};

/// The components of a project that share translations with one of them.
pub(crate) struct Sharing {
    /// All of them, that one included.
    pub(crate) all: Vec<i64>,
    /// All but that one.
    pub(crate) others: Vec<i64>,
}

impl Service {
    /// The components of a project sharing translations with `component_id`,
    /// when it shares with one or more; else `None`.
    pub(crate) fn sharing(
        &self,
        conn: &mut DbConnection,
        generation: Generation,
        project_id: i64,
        component_id: i64,
    ) -> ServiceResult<Option<Sharing>> {
        let all = self.cache.propagating(generation, conn, project_id)?;
        if all.len() < 2 || !all.contains(&component_id) {
            return Ok(None);
        }
        let others = all
            .iter()
            .copied()
            .filter(|id| *id != component_id)
            .collect();
        Ok(Some(Sharing { all, others }))
    }

    /// After strings (`id_hashes`) of a component changed or left in some
    /// `languages`: their `inconsistent` verdicts across the components
    /// of the project sharing translations with it, in the caller's
    /// transaction; nothing when it shares with none.
    pub(crate) fn refresh_strings(
        &self,
        conn: &mut DbConnection,
        (project_id, component_id): (i64, i64),
        languages: &[i64],
        id_hashes: &[i64],
    ) -> ServiceResult<()> {
        let generation = self.cache.latest_or_sync(conn)?;
        if let Some(sharing) = self.sharing(conn, generation, project_id, component_id)? {
            for language in languages {
                let hashes = Some(id_hashes);
                self.refresh_consistency(conn, generation, &sharing.all, *language, hashes)?;
            }
        }
        Ok(())
    }

    /// Brings the `inconsistent` verdicts of strings (`id_hashes`; all of
    /// them when `None`) in one language up to date across the components
    /// `sharing` (a component among them that no longer shares
    /// translations has its verdicts cleared); the units whose list of failing checks changed, with
    /// the new list.
    pub(crate) fn refresh_consistency(
        &self,
        conn: &mut DbConnection,
        generation: Generation,
        sharing: &[i64],
        language_id: i64,
        id_hashes: Option<&[i64]>,
    ) -> ServiceResult<HashMap<i64, Verdict>> {
        let found = units::same_strings(conn, sharing, language_id, id_hashes)?;
        let views = self.unit_views(conn, generation, found, false)?;
        let mut strings: HashMap<i64, Vec<&UnitView>> = HashMap::new();
        for view in &views {
            strings.entry(view.unit.id_hash).or_default().push(view);
        }
        let judged: Vec<(&UnitView, bool)> = strings
            .values()
            .flat_map(|units| {
                units.iter().map(|view| {
                    let fails = verdicts::checked(view, INCONSISTENT)
                        && shares(view)
                        && units.iter().any(|other| {
                            shares(other)
                                && other.translation.component.component.id
                                    != view.translation.component.component.id
                                && other.unit.target != view.unit.target
                        });
                    (*view, fails)
                })
            })
            .collect();
        verdicts::apply(conn, INCONSISTENT, &judged)
    }
}

/// Whether a unit's component shares translations: only those are
/// compared, by this check and by `reused`.
pub(crate) fn shares(view: &UnitView) -> bool {
    view.translation
        .component
        .component
        .settings
        .allow_translation_propagation
}
