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

/// The lengths (in characters) a text may have to be [`LEAST_SIMILAR`]
/// alike to one of `length`: the edit distance is at least the difference
/// of lengths, and at most a share of the longer one (a score is rounded,
/// hence the half percent).
fn alike_lengths(length: i64) -> (i64, i64) {
    // Per mille of the longer length the distance may reach.
    let reach = 1000 - (LEAST_SIMILAR * 10 - 5);
    let kept = 1000 - reach;
    (
        length.saturating_mul(kept) / 1000,
        (length.saturating_mul(1000) + kept - 1) / kept,
    )
}

/// How often a text holds its characters, folded into 64 counts: a bound
/// below the edit distance between two texts (each edit moves one count
/// up or one down, or both), far cheaper than the distance.
struct Letters {
    counts: [i32; 64],
    length: usize,
}

impl Letters {
    fn of(text: &str) -> Letters {
        let mut counts = [0; 64];
        let mut length = 0;
        for c in text.chars() {
            counts[(u32::from(c) % 64) as usize] += 1;
            length += 1;
        }
        Letters { counts, length }
    }

    /// False when `other` cannot be [`LEAST_SIMILAR`] alike to this text.
    fn may_be_alike(&self, other: &str) -> bool {
        let theirs = Letters::of(other);
        let (mut more, mut fewer) = (0i64, 0i64);
        for (mine, their) in self.counts.iter().zip(theirs.counts) {
            let d = i64::from(their - mine);
            if d > 0 {
                more += d;
            } else {
                fewer -= d;
            }
        }
        let longer = i64::try_from(self.length.max(theirs.length)).unwrap_or(i64::MAX);
        // At least this many edits, and a score of round(100 - 100 d / n).
        let least = more.max(fewer);
        200 * least <= (201 - 2 * LEAST_SIMILAR) * longer
    }
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
        memory::with_sources(conn, &scope, languages, &[source_hash(source)])?;
    if !source.contains(PLURAL_SEPARATOR) {
        let length = i64::try_from(source.chars().count()).unwrap_or(i64::MAX);
        found.extend(memory::of_languages(
            conn,
            &scope,
            languages,
            alike_lengths(length),
            CANDIDATES,
        )?);
    }
    let letters = Letters::of(source);
    let mut offers: Vec<Offer> = Vec::new();
    for entry in found {
        if !letters.may_be_alike(&entry.source) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounds_keep_every_text_alike_enough() {
        let source = "Open the file in a new window";
        let texts = [
            "Open the file in a new window",
            "Open the files in a new window",
            "Open a file in the new window",
            "Open the file in new windows!",
            "Close the file",
            "window new a in file the Open",
            "Open the file in a new window, then close it again",
            "Öffne die Datei in einem neuen Fenster",
        ];
        let length = i64::try_from(source.chars().count()).unwrap();
        let (low, high) = alike_lengths(length);
        let letters = Letters::of(source);
        for text in texts {
            let alike = similarity(text, source) >= LEAST_SIMILAR;
            let chars = i64::try_from(text.chars().count()).unwrap();
            if alike {
                // Nothing alike enough is left out by the bounds.
                assert!(
                    (low..=high).contains(&chars),
                    "{text}: {chars} not in {low}..={high}"
                );
                assert!(letters.may_be_alike(text), "{text}");
            }
        }
        assert_eq!(alike_lengths(100), (74, 135));
        assert!(!letters.may_be_alike("Close the file"));
        // Exhaustively over short texts: the bounds never refuse a text
        // alike enough.
        let pieces = ["a", "b", "ab", "ba", "c", "abc"];
        let mut all = vec![String::new()];
        for _ in 0..4 {
            all = all
                .iter()
                .flat_map(|t| pieces.iter().map(move |p| format!("{t}{p}")))
                .collect();
        }
        for a in &all {
            let letters = Letters::of(a);
            let (low, high) = alike_lengths(i64::try_from(a.chars().count()).unwrap());
            for b in all.iter().step_by(7) {
                if similarity(a, b) >= LEAST_SIMILAR {
                    let chars = i64::try_from(b.chars().count()).unwrap();
                    assert!((low..=high).contains(&chars), "{a} {b}");
                    assert!(letters.may_be_alike(b), "{a} {b}");
                }
            }
        }
    }
}
