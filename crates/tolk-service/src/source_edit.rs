//! A monolingual component's source strings, changed through its template
//! translation (an edit, a bulk edit, an accepted suggestion): every
//! translation of the string takes the new text as its source, keeps its
//! own text and needs editing ([`after_source_change`]), with its checks
//! and its translation's statistics brought up to date. The template file
//! gets the new text at the next commit; the translation files hold no
//! source and stay as they are.

use std::collections::HashMap;
use std::sync::Arc;

use tolk_domain::stats::Counters;
use tolk_domain::unit::{UnitState, after_source_change};
use tolk_store::languages::{self, Language};
use tolk_store::units::{self, SourceFollow};
use tolk_store::{DbConnection, translations};

use crate::ServiceResult;
use crate::translations::TranslationView;
use crate::unit_plan::{Planned, checks_of, size};
use crate::unit_view::UnitView;

/// What `planned` (written to the unit `unit_id` of the `template`
/// translation) changes in the string's other units: their source, words,
/// state, `previous_source` and checks, and their translations' counters.
/// Three statements, and one more per set of translations whose counters
/// move alike.
pub(crate) fn follow(
    conn: &mut DbConnection,
    template: &TranslationView,
    unit_id: i64,
    planned: &Planned,
    at: chrono::NaiveDateTime,
) -> ServiceResult<()> {
    let new_source = planned.text.as_str();
    let words = planned.source_words.unwrap_or_default();
    let own = SourceFollow {
        id: unit_id,
        source: new_source,
        num_words: words,
        state: planned.state.code(),
        previous_source: "",
        failing: "",
    };
    let rows = units::translations_of(conn, unit_id)?;
    if rows.is_empty() {
        units::follow_source(conn, &[own])?;
        return Ok(());
    }
    let mut language_ids: Vec<i64> = rows.iter().map(|(_, t)| t.language_id).collect();
    language_ids.sort_unstable();
    language_ids.dedup();
    let languages: HashMap<i64, Language> = languages::get_full_by_ids(conn, &language_ids)?
        .into_iter()
        .map(|l| (l.row.id, l))
        .collect();
    let component = &template.component;
    let components = HashMap::from([(component.component.id, component.clone())]);
    let (new_words, new_chars) = size(new_source, words);
    let mut deltas: HashMap<i64, Counters> = HashMap::new();
    let mut followed = Vec::with_capacity(rows.len());
    let mut glossary = crate::glossary::GlossaryTerms::default();
    for (unit, translation) in rows {
        let translation = TranslationView::assemble(translation, &components, &languages, None)?;
        let mut view = UnitView {
            unit,
            translation: Arc::new(translation),
            labels: Vec::new(),
        };
        let old_state = UnitState::from_code(view.unit.state).unwrap_or(UnitState::Empty);
        let (old_words, old_chars) = size(&view.unit.source, view.unit.num_words);
        let old =
            Counters::of_unit(old_state, old_words, old_chars).with_failing(&view.unit.failing);
        let (state, previous_source) = after_source_change(
            old_state,
            &view.unit.previous_source,
            &planned.source,
            new_source,
        );
        view.unit.source = new_source.to_owned();
        let terms = glossary.for_unit(conn, &view)?;
        let failing = checks_of(&view, &view.unit.target, state, terms).failing;
        let new = Counters::of_unit(state, new_words, new_chars).with_failing(&failing);
        *deltas.entry(view.translation.translation.id).or_default() += Counters::delta(old, new);
        followed.push((view.unit.id, state.code(), previous_source, failing));
    }
    let follows: Vec<SourceFollow<'_>> = std::iter::once(own)
        .chain(
            followed
                .iter()
                .map(|(id, state, previous_source, failing)| SourceFollow {
                    id: *id,
                    source: new_source,
                    num_words: words,
                    state: *state,
                    previous_source,
                    failing,
                }),
        )
        .collect();
    units::follow_source(conn, &follows)?;
    // Translations whose counters move alike move in one statement.
    let mut alike: Vec<(Counters, Vec<i64>)> = Vec::new();
    for (id, delta) in deltas {
        match alike.iter_mut().find(|(d, _)| *d == delta) {
            Some((_, ids)) => ids.push(id),
            None => alike.push((delta, vec![id])),
        }
    }
    for (delta, ids) in alike {
        translations::add_counters_to(conn, &ids, &delta, at)?;
    }
    Ok(())
}
