//! Translation memory entries (§18).

use serde::{Deserialize, Serialize};
use tolk_service::MemoryEntry;
use tolk_service::memory::MemoryFilter;
use tolk_service::memory_lookup::{LookupMatch, LookupQuery};
use utoipa::{IntoParams, ToSchema};

/// A translation memory entry (§18).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct MemoryDto {
    /// Id.
    pub id: i64,
    /// Source text.
    pub source: String,
    /// Translation.
    pub target: String,
    /// Id of the source language.
    pub source_language: i64,
    /// Id of the target language.
    pub target_language: i64,
    /// Where it came from: `project/component`.
    pub origin: String,
    /// Id of the project whose memory holds it; null for personal and shared entries.
    pub project: Option<i64>,
    /// Imported from a file.
    pub from_file: bool,
    /// In the pool shared by every project.
    pub shared: bool,
}

impl From<MemoryEntry> for MemoryDto {
    fn from(e: MemoryEntry) -> Self {
        Self {
            id: e.id,
            source: e.source,
            target: e.target,
            source_language: e.source_language_id,
            target_language: e.target_language_id,
            origin: e.origin,
            project: e.project_id,
            from_file: e.from_file,
            shared: e.shared,
        }
    }
}

/// Filters of `GET /api/memory/`, as the query string gives them.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MemoryFilters {
    /// Source text containing this, in any case.
    #[param(max_length = 2000)]
    pub source: Option<String>,
    /// Source language code.
    pub source_language: Option<String>,
    /// Target language code.
    pub target_language: Option<String>,
    /// Project slug.
    pub project: Option<String>,
}

impl From<MemoryFilters> for MemoryFilter {
    fn from(f: MemoryFilters) -> Self {
        Self {
            source: f.source.filter(|s| !s.is_empty()),
            source_language: f.source_language.filter(|s| !s.is_empty()),
            target_language: f.target_language.filter(|s| !s.is_empty()),
            project: f.project.filter(|s| !s.is_empty()),
        }
    }
}

/// The query of `POST /api/memory/lookup/`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MemoryLookupParams {
    /// Source language code (required).
    pub source_language: Option<String>,
    /// Target language code (required).
    pub target_language: Option<String>,
    /// Only entries of this project (slug).
    pub project: Option<String>,
    /// Exact matches only, no fuzzy ones.
    pub exact: Option<bool>,
}

impl From<MemoryLookupParams> for LookupQuery {
    fn from(p: MemoryLookupParams) -> Self {
        Self {
            source_language: p.source_language,
            target_language: p.target_language,
            project: p.project,
            exact: p.exact.unwrap_or(false),
        }
    }
}

/// The body of `POST /api/memory/lookup/`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct MemoryLookupRequest {
    /// The texts to look up: 1 to 100, each 1 to 2,000 characters.
    #[schema(min_items = 1, max_items = 100)]
    pub strings: Vec<String>,
}

/// What the memory holds for one text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct MemoryLookupMatchDto {
    /// The entry's id.
    pub id: i64,
    /// Its source text.
    pub source: String,
    /// Its translation.
    pub target: String,
    /// Where it came from: `project/component`.
    pub origin: String,
    /// Its source is the text looked up.
    pub exact: bool,
    /// How alike its source is, 80-100.
    pub quality: i64,
}

/// One text looked up and its best match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct MemoryLookupResultDto {
    /// The text as sent.
    pub query: String,
    /// The best match, or null.
    #[serde(rename = "match")]
    #[schema(rename = "match")]
    pub found: Option<MemoryLookupMatchDto>,
}

impl MemoryLookupResultDto {
    /// The answer for `query`.
    pub fn new(query: String, found: Option<LookupMatch>) -> Self {
        Self {
            query,
            found: found.map(|m| MemoryLookupMatchDto {
                id: m.entry.id,
                source: m.entry.source,
                target: m.entry.target,
                origin: m.entry.origin,
                exact: m.exact,
                quality: m.quality,
            }),
        }
    }
}
