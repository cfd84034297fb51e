//! Adding a string to a component (§9.4): through one translation, into
//! every translation. The new units are marked `added`: a read of the
//! files keeps them, and the next commit writes them into the files.

use std::sync::Arc;

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::permission::{Permission, Subject};
use tolk_domain::stats::Counters;
use tolk_domain::unit::{UnitState, id_hash, join_plurals, word_count};
use tolk_domain::validation::FieldErrors;
use tolk_store::changes::{self, NewChange};
use tolk_store::time;
use tolk_store::units::{self, NewUnit};
use tolk_store::{translations, unit_removals};

use crate::access::require;
use crate::translations::{TranslationView, visible_translation};
use crate::unit_view::UnitView;
use crate::units::Units;
use crate::{ServiceError, ServiceResult};

/// A new string as the API gives it: `key` and `value` in monolingual
/// components, `context`, `source` and `target` in bilingual ones.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NewString {
    /// The key (monolingual).
    pub key: Option<String>,
    /// The source text's forms (monolingual).
    pub value: Option<Vec<String>>,
    /// The context (bilingual).
    pub context: Option<String>,
    /// The source text's forms (bilingual).
    pub source: Option<Vec<String>>,
    /// The translation's forms (bilingual).
    pub target: Option<Vec<String>>,
    /// The state of the translation.
    pub state: Option<i32>,
}

/// The string to add, checked: identity, source and the posting
/// translation's text and state.
struct Checked {
    context: String,
    source: Vec<String>,
    target: Vec<String>,
    state: UnitState,
}

/// Checks `new` against the rules of adding to `translation`.
fn check(
    subject: &Subject,
    translation: &TranslationView,
    monolingual: bool,
    new: NewString,
) -> ServiceResult<Checked> {
    let component = &translation.component.component;
    let target_ref = translation.target();
    if let Some(setting) = component.settings.units_locked_by() {
        return Err(ServiceError::PermissionDenied(format!(
            "Adding strings is disabled in the component configuration. The component's {setting} setting allows it."
        )));
    }
    require(
        subject,
        translation.on_strings(Permission::UNIT_ADD),
        target_ref,
        "You do not have permission to perform this action.",
    )?;
    if tolk_formats::is_document(&component.settings.file_format) {
        return Err(ServiceError::PermissionDenied(
            "The file format does not support this.".into(),
        ));
    }
    if monolingual && !translation.is_source() {
        return Err(ServiceError::PermissionDenied(
            "Add the string to the source language instead.".into(),
        ));
    }
    let mut errors = FieldErrors::default();
    let filled = |forms: &Option<Vec<String>>| {
        forms
            .as_ref()
            .is_some_and(|f| !f.is_empty() && !f.iter().all(String::is_empty))
    };
    let (context, source, target) = if monolingual {
        if new.key.as_deref().is_none_or(|k| k.trim().is_empty()) {
            errors.required("key");
        }
        if !filled(&new.value) {
            errors.required("value");
        }
        let value = new.value.unwrap_or_default();
        (new.key.unwrap_or_default(), value.clone(), value)
    } else {
        if !filled(&new.source) {
            errors.required("source");
        }
        let source = new.source.unwrap_or_default();
        let target = if translation.is_source() {
            new.target.unwrap_or_else(|| source.clone())
        } else {
            if new.target.is_none() {
                errors.required("target");
            }
            new.target.unwrap_or_default()
        };
        (new.context.unwrap_or_default(), source, target)
    };
    errors.into_result()?;
    let mut errors = FieldErrors::default();
    let forms = if source.len() > 1 {
        usize::try_from(translation.language.plural.number.max(1)).unwrap_or(1)
    } else {
        1
    };
    if !(translation.is_source() || target.len() == forms) {
        errors.invalid("target", "Number of plurals does not match");
    }
    let empty = target.iter().all(String::is_empty);
    let state = match new.state {
        None if empty => UnitState::Empty,
        None => UnitState::Translated,
        Some(code) => match UnitState::from_code(code) {
            Some(state) if state != UnitState::ReadOnly => state,
            _ => {
                errors.invalid_choice("state", &code.to_string());
                UnitState::Empty
            }
        },
    };
    if state == UnitState::Approved && !subject.can(Permission::UNIT_REVIEW, target_ref) {
        errors.invalid("state", "You do not have permission to approve strings.");
    }
    crate::unit_plan::check_state_fits_target(state.code(), &target, &mut errors);
    errors.into_result()?;
    Ok(Checked {
        context,
        source,
        target,
        state,
    })
}

impl Units<'_> {
    /// Adds a string to the component of the translation
    /// `project/component/language` (§9.4): a unit in every translation,
    /// this one's with the given text and state, written into the files at
    /// the next commit. Answers the new unit of this translation.
    pub fn add(
        &self,
        subject: &Subject,
        path: (&str, &str, &str),
        new: NewString,
    ) -> ServiceResult<UnitView> {
        self.store.write(|conn| {
            let translation = Arc::new(visible_translation(conn, subject, path)?);
            let id = add_string(conn, subject, &translation, new, Action::NEW_UNIT)?;
            let unit = units::get(conn, id)?.ok_or(ServiceError::NotFound)?;
            Ok(UnitView {
                unit,
                translation,
                labels: Vec::new(),
            })
        })
    }
}

/// Adds a string through `translation` in the caller's transaction, as
/// [`Units::add`](crate::units::Units::add) does, recording `action` for each new unit; the
/// id of the new unit of `translation`.
pub(crate) fn add_string(
    conn: &mut tolk_store::DbConnection,
    subject: &Subject,
    translation: &TranslationView,
    new: NewString,
    action: Action,
) -> ServiceResult<i64> {
    let monolingual = !translation.component.component.settings.template.is_empty();
    let checked = check(subject, translation, monolingual, new)?;
    let source = join_plurals(&checked.source);
    let hash = id_hash(&source, &checked.context, monolingual);
    let own = translation.translation.id;
    let all = translations::of_component(conn, translation.component.component.id)?;
    let ids: Vec<i64> = all.iter().map(|t| t.id).collect();
    // Locked before the duplicate check: a concurrent add of the
    // same string waits, then finds this one.
    translations::lock_all(conn, &ids)?;
    if units::has_hash(conn, own, hash)? {
        let mut errors = FieldErrors::default();
        errors.general("invalid", "This string seems to already exist.");
        return Err(errors.into());
    }
    // Deleted and not yet committed: the files keep the string
    // and take the new text instead.
    unit_removals::forget_string(conn, &ids, hash)?;
    let last = units::last_positions(conn, &ids)?;
    let source_language = translation.component.component.source_language_id;
    let at = time::now();
    let words = word_count(&checked.source);
    let chars = i64::try_from(source.chars().count()).unwrap_or(i64::MAX);
    // The posting translation's text is checked as an edit is
    // (the source language's is not).
    let (settings, project) = (
        &translation.component.component.settings,
        translation.component.inherited(),
    );
    let check_flags = settings.check_flags_in(project);
    let own_failing = if translation.is_source() {
        String::new()
    } else {
        let names = translation.component.check_names();
        let flags = tolk_domain::checks::Flags::parse([check_flags.as_str()]);
        let mut glossary = crate::glossary::GlossaryTerms::default();
        let terms = if flags.has(crate::glossary::CHECK_GLOSSARY) {
            glossary.of(conn, translation)?
        } else {
            &tolk_domain::checks::glossary::NO_GLOSSARY
        };
        tolk_domain::checks::stored(
            &source,
            &join_plurals(&checked.target),
            checked.state,
            &translation
                .check_context(&names)
                .with_glossary(terms, settings.is_glossary)
                .at_key(&checked.context),
            &flags,
        )
    };
    let enforced = settings.enforced_checks_in(project);
    let own_state = if checked.state.is_translated()
        && own_failing
            .split(',')
            .any(|id| enforced.iter().any(|e| e == id))
    {
        UnitState::NeedsRewriting
    } else {
        checked.state
    };
    let mut rows = Vec::new();
    // Translations by the state their new unit starts in: one
    // counters statement per state, not per translation.
    let mut by_state: Vec<((UnitState, String), Vec<i64>)> = Vec::new();
    for t in &all {
        let is_source = t.language_id == source_language;
        let (target, state) = if t.id == own {
            (join_plurals(&checked.target), own_state)
        } else if is_source {
            (source.clone(), UnitState::ReadOnly)
        } else {
            (String::new(), UnitState::Empty)
        };
        // Empty keys are not written into monolingual translations.
        let empty_key = monolingual && target.is_empty() && !is_source;
        let pending = !(t.filename.is_empty() || empty_key);
        let failing = if t.id == own {
            own_failing.clone()
        } else {
            String::new()
        };
        let kind = (state, failing.clone());
        match by_state.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, ids)) => ids.push(t.id),
            None => by_state.push((kind, vec![t.id])),
        }
        rows.push(NewUnit {
            translation_id: t.id,
            id_hash: hash,
            position: last.get(&t.id).copied().unwrap_or(0).saturating_add(1),
            context: checked.context.clone(),
            source: source.clone(),
            previous_source: String::new(),
            target,
            state: state.code(),
            original_state: state.code(),
            note: String::new(),
            location: String::new(),
            flags: String::new(),
            num_words: words,
            pending,
            created: at,
            last_updated: at,
            added: true,
            failing,
        });
    }
    for ((state, failing), ids) in &by_state {
        let counters = Counters::of_unit(*state, i64::from(words), chars).with_failing(failing);
        translations::add_counters_to(conn, ids, &counters, at)?;
    }
    units::insert_many(conn, &rows)?;
    let made = units::ids_by_hash(conn, &ids, hash)?;
    if let Some(source_translation) = all.iter().find(|t| t.language_id == source_language) {
        units::link_string(conn, &ids, source_translation.id, hash)?;
    }
    let records: Vec<NewChange> = all
        .iter()
        .map(|t| NewChange {
            project_id: Some(translation.component.project.id),
            component_id: Some(translation.component.component.id),
            translation_id: Some(t.id),
            unit_id: made.get(&t.id).copied(),
            language_id: Some(t.language_id),
            author_id: subject.user_id(),
            target: source.clone(),
            details: json!({"source": source, "context": checked.context}),
            ..NewChange::new(action, subject.user_id())
        })
        .collect();
    changes::record_many(conn, records.iter().collect(), at)?;
    made.get(&own).copied().ok_or(ServiceError::NotFound)
}
