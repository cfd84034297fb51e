//! What helps translate one string, shown beside it in the editor: the
//! glossary terms its source holds, the translations the memory offers
//! for it with how alike their sources are, and its history.

use tolk_domain::checks::glossary::{Term, separates_words};
use tolk_domain::permission::Subject;
use tolk_domain::unit::PLURAL_SEPARATOR;
use tolk_store::DbConnection;
use tolk_store::changes::{self, ChangeRow};
use tolk_store::memory;

use crate::ServiceResult;
use crate::glossary::terms_of;
use crate::memory::{scope_of, similarity, source_hash};
use crate::memory_match::{Letters, alike_lengths};
use crate::unit_view::UnitView;

/// Offers shown at most.
const OFFERS: usize = 5;

/// Least similarity of an offer, in percent.
const LEAST_SIMILAR: i64 = 75;

/// Memory entries compared with a string for similar sources: the
/// newest of about its length.
const CANDIDATES: i64 = 1_000;

/// Changes of a string shown, newest first.
const HISTORY: i64 = 10;

/// A translation the memory offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    /// The source it translated.
    pub source: String,
    /// Its translation.
    pub target: String,
    /// How alike the sources are, in percent.
    pub similarity: i64,
    /// Where it was made (`project/component`), if known.
    pub origin: String,
}

/// What helps translate a string.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Aids {
    /// Glossary terms its source holds, in the translation's language.
    pub terms: Vec<Term>,
    /// What the memory offers, most alike first.
    pub offers: Vec<Offer>,
    /// Its changes with who made them, newest first.
    pub history: Vec<(ChangeRow, Option<String>)>,
}

/// The aids for `unit` as `subject` may see them: terms and offers only
/// for translations (not the source language), offers only for those
/// who may read the memory; five statements at most.
pub(crate) fn aids(
    conn: &mut DbConnection,
    subject: &Subject,
    unit: &UnitView,
) -> ServiceResult<Aids> {
    let history = changes::of_unit(conn, unit.unit.id, HISTORY)?;
    if unit.translation.is_source() {
        return Ok(Aids {
            history,
            ..Aids::default()
        });
    }
    let translation = &unit.translation;
    let component = &translation.component;
    let source = &unit.unit.source;
    let glossary = terms_of(
        conn,
        component.project.id,
        component.component.source_language_id,
        translation.language.row.id,
    )?;
    let words = separates_words(&component.source_language.row.code);
    let terms = glossary
        .matching(source, words)
        .into_iter()
        .cloned()
        .collect();
    Ok(Aids {
        terms,
        offers: offers(conn, subject, unit)?,
        history,
    })
}

/// What the memory offers for `unit`'s source: exact matches, then the
/// most alike of its candidates.
fn offers(
    conn: &mut DbConnection,
    subject: &Subject,
    unit: &UnitView,
) -> ServiceResult<Vec<Offer>> {
    let Ok(scope) = scope_of(subject) else {
        return Ok(Vec::new());
    };
    let translation = &unit.translation;
    let languages = (
        translation.component.source_language.row.id,
        translation.language.row.id,
    );
    let source = &unit.unit.source;
    let mut found: Vec<memory::Entry> =
        memory::with_sources(conn, &scope, languages, None, &[source_hash(source)])?;
    if !source.contains(PLURAL_SEPARATOR) {
        let length = i64::try_from(source.chars().count()).unwrap_or(i64::MAX);
        found.extend(memory::of_languages(
            conn,
            &scope,
            languages,
            None,
            alike_lengths(length, LEAST_SIMILAR),
            CANDIDATES,
        )?);
    }
    let letters = Letters::of(source);
    let mut offers: Vec<Offer> = Vec::new();
    for entry in found {
        if !letters.may_be_alike(&entry.source, LEAST_SIMILAR) {
            continue;
        }
        let score = similarity(&entry.source, source);
        let seen = offers.iter().any(|o| o.target == entry.target);
        if score >= LEAST_SIMILAR && !entry.target.is_empty() && !seen {
            offers.push(Offer {
                source: entry.source,
                target: entry.target,
                similarity: score,
                origin: entry.origin,
            });
        }
    }
    // Most alike first; among equals, as found (newest first).
    offers.sort_by_key(|o| std::cmp::Reverse(o.similarity));
    offers.truncate(OFFERS);
    Ok(offers)
}
