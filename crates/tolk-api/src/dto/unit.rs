//! Units: one string of a translation.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tolk_domain::unit::{UnitState, content_hash, split_plurals};
use tolk_service::Label;
use tolk_service::unit_add::NewString;
use tolk_service::units::{UnitEdit, UnitView};
use utoipa::ToSchema;

use crate::links::{Links, nested, timestamp};

/// A unit (§10.1). Plural forms are lists; `target` has as many entries
/// as the language has plural forms for a plural string, else one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct UnitDto {
    /// Glossary terms found in the source, by term (none yet: Tolk has no glossaries).
    pub tbx_terms: BTreeMap<String, String>,
    /// API link of its translation.
    pub translation: String,
    /// Language code of its translation.
    pub language_code: String,
    /// Source text, one entry per plural form.
    pub source: Vec<String>,
    /// Source text before the last upstream change.
    pub previous_source: String,
    /// Translation, one entry per plural form.
    pub target: Vec<String>,
    /// Identity of the string in its translation.
    pub id_hash: i64,
    /// Hash of source and context.
    pub content_hash: i64,
    /// Source locations.
    pub location: String,
    /// Context or key.
    pub context: String,
    /// Developer notes.
    pub note: String,
    /// Flags from the file.
    pub flags: String,
    /// The string's labels.
    pub labels: Vec<LabelDto>,
    /// State (§29.2): 0 empty, 10 needs editing, 20 translated, 30 approved, 100 read-only.
    pub state: i32,
    /// Needs editing.
    pub fuzzy: bool,
    /// Translated (approved and read-only included).
    pub translated: bool,
    /// Approved.
    pub approved: bool,
    /// 1-based order in the file.
    pub position: i32,
    /// Has suggestions.
    pub has_suggestion: bool,
    /// Has unresolved comments.
    pub has_comment: bool,
    /// Fails a quality check.
    pub has_failing_check: bool,
    /// Source words.
    pub num_words: i32,
    /// API link of the source language's unit (a source unit links itself).
    pub source_unit: String,
    /// The screenshots showing its string.
    pub screenshots_url: String,
    /// The unit this one is a variant of, or null.
    pub translation_parent: Option<String>,
    /// The source text translators see.
    pub effective_source: Vec<String>,
    /// The previous source text, per form.
    pub effective_previous_source: Vec<String>,
    /// Code of the source language.
    pub effective_source_language: String,
    /// Priority.
    pub priority: i32,
    /// Id.
    pub id: i64,
    /// Browser link to translate it.
    pub web_url: String,
    /// API link.
    pub url: String,
    /// Explanation of the source string.
    pub explanation: String,
    /// Flags added in Tolk.
    pub extra_flags: String,
    /// Edited but not yet written to the file.
    pub pending: bool,
    /// When it was created.
    #[schema(format = DateTime)]
    pub timestamp: String,
    /// When it last changed.
    #[schema(format = DateTime)]
    pub last_updated: String,
    /// Translated by machine.
    pub automatically_translated: bool,
}

impl UnitDto {
    /// Serialises a unit.
    pub fn new(view: UnitView, links: &Links) -> Self {
        let forms = view.forms();
        let labels = view.labels.iter().map(LabelDto::from).collect();
        let u = view.unit;
        let t = &view.translation;
        let c = &t.component;
        let (project, component) = (&c.project.settings.slug, &nested(&c.component.path));
        let code = &t.language.row.code;
        let mut target = split_plurals(&u.target);
        target.resize(forms, String::new());
        let source = split_plurals(&u.source);
        let state = UnitState::from_code(u.state);
        let unit_url = |id: i64| links.api(&["units", &id.to_string()]);
        let checksum = tolk_domain::unit::checksum(u.id_hash);
        Self {
            tbx_terms: BTreeMap::new(),
            translation: links.api(&["translations", project, component, code]),
            language_code: code.clone(),
            effective_source: source.clone(),
            effective_previous_source: vec![u.previous_source.clone()],
            effective_source_language: c.source_language.row.code.clone(),
            source,
            previous_source: u.previous_source,
            target,
            id_hash: u.id_hash,
            content_hash: content_hash(&u.source, &u.context),
            location: u.location,
            context: u.context,
            note: u.note,
            flags: u.flags,
            labels,
            state: u.state,
            fuzzy: state.is_some_and(UnitState::is_fuzzy),
            translated: state.is_some_and(UnitState::is_translated),
            approved: state == Some(UnitState::Approved),
            position: u.position,
            has_suggestion: u.has_suggestion,
            has_comment: u.has_comment,
            has_failing_check: !u.failing.is_empty(),
            num_words: u.num_words,
            source_unit: unit_url(u.source_unit_id.unwrap_or(u.id)),
            screenshots_url: links.api(&["units", &u.id.to_string(), "screenshots"]),
            translation_parent: None,
            priority: u.priority,
            id: u.id,
            web_url: format!(
                "{}?checksum={checksum}",
                links.web(&["translate", project, &c.component.path, code])
            ),
            url: unit_url(u.id),
            explanation: u.explanation,
            extra_flags: u.extra_flags,
            pending: u.pending,
            timestamp: timestamp(u.created),
            last_updated: timestamp(u.last_updated),
            automatically_translated: false,
        }
    }
}

/// A project's label (§17.1), as projects list it and units show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct LabelDto {
    /// Id.
    pub id: i64,
    /// Name, unique in the project.
    pub name: String,
    /// What it means.
    pub description: String,
    /// Colour: one of the glossary colours.
    pub color: String,
}

impl From<&Label> for LabelDto {
    fn from(label: &Label) -> Self {
        Self {
            id: label.id,
            name: label.name.clone(),
            description: label.description.clone(),
            color: label.color.clone(),
        }
    }
}

/// What `POST /api/projects/{slug}/labels/` takes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct LabelCreate {
    /// Name, unique in the project.
    pub name: String,
    /// Colour: one of the glossary colours.
    pub color: String,
    /// What it means.
    #[serde(default)]
    pub description: String,
}

/// What `PATCH /api/units/{id}/` takes (§10.3): a translation is given as
/// both `target` and `state`; `explanation`, `extra_flags` and `labels`
/// are properties of source strings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct UnitPatch {
    /// The translated forms, one per plural form.
    pub target: Option<Vec<String>>,
    /// The new state: 0 empty, 10 needs editing, 20 translated, 30 approved.
    pub state: Option<i32>,
    /// Explanation of the source string.
    pub explanation: Option<String>,
    /// Flags added to the file's, e.g. `max-length:40`.
    pub extra_flags: Option<String>,
    /// Ids of the project's labels the string carries.
    pub labels: Option<Vec<i64>>,
}

impl From<UnitPatch> for UnitEdit {
    fn from(body: UnitPatch) -> Self {
        Self {
            target: body.target,
            state: body.state,
            explanation: body.explanation,
            extra_flags: body.extra_flags,
            labels: body.labels,
            shown: None,
        }
    }
}

/// What `PUT /api/units/{id}/` takes (§10.3): the whole writable unit,
/// `target` and `labels` required (values equal to the current ones
/// change nothing, so a client may send back what it read).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct UnitPut {
    /// The translated forms, one per plural form.
    pub target: Vec<String>,
    /// The new state: 0 empty, 10 needs editing, 20 translated, 30 approved.
    pub state: Option<i32>,
    /// Explanation of the source string.
    pub explanation: Option<String>,
    /// Flags added to the file's, e.g. `max-length:40`.
    pub extra_flags: Option<String>,
    /// Ids of the project's labels the string carries.
    pub labels: Vec<i64>,
}

impl From<UnitPut> for UnitEdit {
    fn from(body: UnitPut) -> Self {
        Self {
            target: Some(body.target),
            state: body.state,
            explanation: body.explanation,
            extra_flags: body.extra_flags,
            labels: Some(body.labels),
            shown: None,
        }
    }
}

/// What a unit edit answers: the unit's writable fields after the edit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct UnitWritten {
    /// The translated forms.
    pub target: Vec<String>,
    /// The state.
    pub state: i32,
    /// Explanation of the source string.
    pub explanation: String,
    /// Flags added in Tolk.
    pub extra_flags: String,
    /// Label ids.
    pub labels: Vec<i64>,
}

impl From<UnitDto> for UnitWritten {
    fn from(unit: UnitDto) -> Self {
        Self {
            target: unit.target,
            state: unit.state,
            explanation: unit.explanation,
            extra_flags: unit.extra_flags,
            labels: unit.labels.iter().map(|l| l.id).collect(),
        }
    }
}

/// One edit of a bulk translation.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
pub struct BulkUnitEdit {
    /// The unit's id; it must belong to the translation.
    pub id: i64,
    /// The translated forms, one per plural form.
    pub target: Vec<String>,
    /// The new state: 0 empty, 10 needs editing, 20 translated, 30 approved.
    pub state: i32,
}

/// What `PATCH .../translations/{p}/{c}/{l}/units/` takes (a Tolk
/// extension): up to 10,000 edits, applied in one transaction.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, ToSchema)]
pub struct BulkUnitEdits {
    /// The edits, each with the rules of a single unit PATCH.
    pub units: Vec<BulkUnitEdit>,
}

/// What became of one edit of a bulk translation.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct BulkUnitResult {
    /// The unit's id.
    pub id: i64,
    /// `applied` or `refused`.
    pub result: String,
    /// For a refused edit: the status a single PATCH would have answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// For a refused edit: the error a single PATCH would have answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<crate::error::ErrorBody>,
}

/// The answer of a bulk translation.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct BulkUnitResults {
    /// Edits applied (or already so).
    pub applied: usize,
    /// Edits refused; they changed nothing.
    pub refused: usize,
    /// One result per edit, in order.
    pub results: Vec<BulkUnitResult>,
}

/// What `POST .../translations/{p}/{c}/{l}/units/` takes (§9.4): `key`
/// and `value` in monolingual components (on the source language),
/// `source` (and `target` outside the source language), optionally
/// `context`, in bilingual ones.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct UnitCreate {
    /// The key of the new string (monolingual).
    pub key: Option<String>,
    /// The source text, one entry per plural form (monolingual).
    pub value: Option<Vec<String>>,
    /// The context of the new string (bilingual).
    pub context: Option<String>,
    /// The source text, one entry per plural form (bilingual).
    pub source: Option<Vec<String>>,
    /// The translation, one entry per plural form (bilingual).
    pub target: Option<Vec<String>>,
    /// The state: 0 empty, 10 needs editing, 20 translated, 30 approved.
    pub state: Option<i32>,
}

impl From<UnitCreate> for NewString {
    fn from(body: UnitCreate) -> Self {
        Self {
            key: body.key,
            value: body.value,
            context: body.context,
            source: body.source,
            target: body.target,
            state: body.state,
        }
    }
}
