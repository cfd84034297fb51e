//! Looking up many texts in the translation memory at once
//! (`POST /api/memory/lookup/`, §18): for each, the newest exact match,
//! else (unless only exact ones are asked for) the entry whose source is
//! most alike, from [`LEAST_SIMILAR`] percent; in a fixed number of
//! statements whatever the number of texts.

use tolk_domain::permission::Subject;
use tolk_domain::validation::{FieldErrors, check_text};
use tolk_store::languages::{self, LanguageScope};
use tolk_store::memory::{self, Entry};
use tolk_store::projects;

use crate::memory::{Memory, scope_of, similarity, source_hash};
use crate::memory_match::{Letters, alike_lengths};
use crate::{ServiceError, ServiceResult};

/// Least similarity of a fuzzy match, in percent.
pub const LEAST_SIMILAR: i64 = 80;
/// Most texts looked up at once.
pub const MAX_STRINGS: usize = 100;
/// Longest text looked up, in characters.
pub const MAX_LENGTH: usize = 2_000;
/// Entries compared for alike sources: the newest of the texts' lengths.
const CANDIDATES: i64 = 5_000;

/// What a lookup asks, as the query string gives it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LookupQuery {
    /// Source language code (required).
    pub source_language: Option<String>,
    /// Target language code (required).
    pub target_language: Option<String>,
    /// Only entries of this project.
    pub project: Option<String>,
    /// Exact matches only.
    pub exact: bool,
}

/// What the memory holds for one text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LookupMatch {
    /// The entry.
    pub entry: Entry,
    /// Its source is the text itself.
    pub exact: bool,
    /// How alike its source is, in percent.
    pub quality: i64,
}

/// Checks the texts: one to [`MAX_STRINGS`], none blank or longer than
/// [`MAX_LENGTH`] (reported as `strings.N`).
fn check_strings(strings: &[String], errors: &mut FieldErrors) {
    if strings.is_empty() {
        errors.push("strings", "empty", "This list may not be empty.");
    } else if strings.len() > MAX_STRINGS {
        errors.push(
            "strings",
            "max_length",
            format!("Ensure this field has no more than {MAX_STRINGS} elements."),
        );
    } else {
        for (n, text) in strings.iter().enumerate() {
            check_text(text, &format!("strings.{n}"), MAX_LENGTH, errors);
        }
    }
}

/// The best match for `text` among exact entries and `similar` ones.
fn best(text: &str, exact: &[Entry], similar: &[Entry]) -> Option<LookupMatch> {
    if let Some(entry) = exact.iter().find(|e| e.source == text) {
        return Some(LookupMatch {
            entry: entry.clone(),
            exact: true,
            quality: 100,
        });
    }
    let length = i64::try_from(text.chars().count()).unwrap_or(i64::MAX);
    let (shortest, longest) = alike_lengths(length, LEAST_SIMILAR);
    let letters = Letters::of(text);
    let mut found: Option<LookupMatch> = None;
    for entry in similar {
        let chars = i64::try_from(entry.source.chars().count()).unwrap_or(i64::MAX);
        if !(shortest..=longest).contains(&chars)
            || !letters.may_be_alike(&entry.source, LEAST_SIMILAR)
        {
            continue;
        }
        let quality = similarity(&entry.source, text);
        // Newest first: a later one wins only by being more alike.
        if quality >= LEAST_SIMILAR && found.as_ref().is_none_or(|f| quality > f.quality) {
            found = Some(LookupMatch {
                entry: entry.clone(),
                exact: false,
                quality,
            });
        }
    }
    found
}

impl Memory<'_> {
    /// The best match of each of `strings`, in their order (`None` where
    /// the memory holds nothing alike enough), among the entries the
    /// caller sees.
    pub fn lookup(
        &self,
        subject: &Subject,
        query: &LookupQuery,
        strings: &[String],
    ) -> ServiceResult<Vec<Option<LookupMatch>>> {
        let scope = scope_of(subject)?;
        self.store.read(|conn| {
            let mut errors = FieldErrors::default();
            let mut language = |attr: &str, code: &Option<String>| -> ServiceResult<Option<i64>> {
                let Some(code) = code.as_deref().filter(|c| !c.is_empty()) else {
                    errors.push(attr, "required", "This query parameter is required.");
                    return Ok(None);
                };
                let found = languages::get_by_code(conn, code, LanguageScope::All)?;
                if found.is_none() {
                    errors.invalid(attr, "Language not found.");
                }
                Ok(found.map(|l| l.row.id))
            };
            let source = language("source_language", &query.source_language)?;
            let target = language("target_language", &query.target_language)?;
            let project_id = match query.project.as_deref().filter(|p| !p.is_empty()) {
                Some(slug) => {
                    let found = projects::get_by_slug(conn, slug)?
                        .filter(|p| subject.can_view_project(p.as_ref()));
                    if found.is_none() {
                        errors.invalid("project", "Project not found.");
                    }
                    found.map(|p| p.id)
                }
                None => None,
            };
            check_strings(strings, &mut errors);
            errors.into_result()?;
            let languages = (
                source.ok_or(ServiceError::NotFound)?,
                target.ok_or(ServiceError::NotFound)?,
            );
            let mut hashes: Vec<i64> = strings.iter().map(|s| source_hash(s)).collect();
            hashes.sort_unstable();
            hashes.dedup();
            let exact = memory::with_sources(conn, &scope, languages, project_id, &hashes)?;
            let wanted: Vec<&String> = strings
                .iter()
                .filter(|s| !exact.iter().any(|e| e.source == **s))
                .collect();
            let lengths = wanted.iter().map(|s| {
                let length = i64::try_from(s.chars().count()).unwrap_or(i64::MAX);
                alike_lengths(length, LEAST_SIMILAR)
            });
            let similar = match (
                lengths.clone().map(|l| l.0).min(),
                lengths.map(|l| l.1).max(),
            ) {
                (Some(shortest), Some(longest)) if !query.exact => memory::of_languages(
                    conn,
                    &scope,
                    languages,
                    project_id,
                    (shortest, longest),
                    CANDIDATES,
                )?,
                _ => Vec::new(),
            };
            Ok(strings.iter().map(|s| best(s, &exact, &similar)).collect())
        })
    }
}
