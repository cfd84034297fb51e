//! Automatic translation (§9.5).

use serde::{Deserialize, Serialize};
use tolk_service::autotranslate::AutoRequest;
use utoipa::ToSchema;

/// A component named by id or by slug.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum ComponentRef {
    /// Its id.
    Id(i64),
    /// Its slug in the project (or its id as text).
    Slug(String),
}

/// What `POST …/autotranslate/` takes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct AutoTranslateBody {
    /// `suggest`, `translate`, `fuzzy`, or `approved` (needs `unit.review`).
    #[serde(default)]
    pub mode: Option<String>,
    /// The strings to fill (§30); `state:<translated` when not given.
    #[serde(default)]
    pub q: Option<String>,
    /// Before Weblate 5.13: `all`, `nottranslated`, `todo` or `fuzzy`, used when `q` is not given.
    #[serde(default)]
    pub filter_type: Option<String>,
    /// `others` (other components of the project, the default) or `mt`
    /// (the `engines`: `weblate` and `weblate-translation-memory`; services
    /// on the internet are refused).
    #[serde(default)]
    pub auto_source: Option<String>,
    /// The one component to take translations from, for `others`.
    #[serde(default)]
    pub component: Option<ComponentRef>,
    /// Machinery engines, for `mt`.
    #[serde(default)]
    pub engines: Vec<String>,
    /// Least similarity (1-100) of a translation memory match; 80 when not given.
    #[serde(default)]
    pub threshold: Option<i64>,
}

impl AutoTranslateBody {
    /// The request, with a legacy `filter_type` turned into its query; an
    /// unknown one is left for the service to refuse as a query.
    pub fn into_request(self) -> AutoRequest {
        let q = self.q.filter(|q| !q.is_empty()).or_else(|| {
            self.filter_type.map(|f| {
                match f.as_str() {
                    "all" => "",
                    "nottranslated" => "state:empty",
                    "todo" => "state:<translated",
                    "fuzzy" => "state:needs-editing",
                    other => other,
                }
                .to_owned()
            })
        });
        AutoRequest {
            mode: self.mode,
            q,
            auto_source: self.auto_source.filter(|s| !s.is_empty()),
            component: self.component.map(|c| match c {
                ComponentRef::Id(id) => id.to_string(),
                ComponentRef::Slug(slug) => slug,
            }),
            engines: self.engines,
            threshold: self.threshold,
        }
    }
}

/// What starting an automatic translation answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct AutoTranslateStarted {
    /// What happens now.
    pub details: String,
    /// The task doing it; its result says how many strings were updated.
    pub task_url: String,
}
