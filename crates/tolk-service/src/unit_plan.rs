//! A translation of a unit checked against the rules and planned: its
//! text, state, failing checks, the move of the counters and the change
//! to record; and what it spreads to the same string elsewhere.

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::checks::Flags;
use tolk_domain::checks::dismissals;
use tolk_domain::checks::glossary::Glossary;
use tolk_domain::permission::{Permission, Subject};
use tolk_domain::stats::Counters;
use tolk_domain::unit::{UnitState, join_plurals, split_plurals, word_count};
use tolk_domain::validation::FieldErrors;
use tolk_store::DbConnection;
use tolk_store::changes::NewChange;
use tolk_store::units;

use crate::access::require;
use crate::unit_view::UnitView;
use crate::{ServiceError, ServiceResult};

/// A translation written, as it spreads to the same string elsewhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Spread {
    /// The string's identity (`id_hash`), the same in every component.
    pub(crate) id_hash: i64,
    /// The new text (plural forms joined).
    pub(crate) target: String,
    /// The new state number.
    pub(crate) state: i32,
    /// The text it replaced.
    pub(crate) previous: String,
}

/// A translation that passed the rules, ready to be written.
pub(crate) struct Planned {
    /// The unit's source text (plural forms joined).
    pub(crate) source: String,
    /// The new text (plural forms joined).
    pub(crate) text: String,
    /// The new state.
    pub(crate) state: UnitState,
    /// The quality checks the new text fails, as stored.
    pub(crate) failing: String,
    /// The dismissals of the string that still apply.
    pub(crate) dismissed: String,
    /// How the translation's counters move.
    pub(crate) delta: Counters,
    /// The change to record.
    pub(crate) change: NewChange,
    /// The words of the new text, when it is a template's: the string's
    /// source becomes the new text.
    pub(crate) source_words: Option<i32>,
}

impl Planned {
    /// Checks a translation of `view` against the rules; `None` when it
    /// changes nothing (nothing is then written or recorded).
    pub(crate) fn new(
        subject: &Subject,
        view: &UnitView,
        target: &[String],
        state: i32,
        glossary: &Glossary,
    ) -> ServiceResult<Option<Planned>> {
        check_edit(subject, view, target, state)?;
        let old_state = UnitState::from_code(view.unit.state).unwrap_or(UnitState::Empty);
        let mut new_state = UnitState::from_code(state).unwrap_or(UnitState::Empty);
        let text = join_plurals(target);
        if text == view.unit.target && new_state == old_state {
            return Ok(None);
        }
        let template = view.translation.is_template();
        let (failing, dismissed) = if template {
            // Source strings are not checked as translations.
            (String::new(), view.unit.dismissed.clone())
        } else {
            let checked = checks_of(view, &text, new_state, glossary);
            if checked.enforced {
                // An enforced check that fails keeps the string from counting as translated.
                new_state = UnitState::NeedsRewriting;
            }
            (checked.failing, checked.dismissed)
        };
        let source_words = template.then(|| word_count(&split_plurals(&text)));
        let (words, chars) = size(&view.unit.source, view.unit.num_words);
        let (new_words, new_chars) = match source_words {
            Some(count) => size(&text, count),
            None => (words, chars),
        };
        let delta = Counters::delta(
            Counters::of_unit(old_state, words, chars).with_failing(&view.unit.failing),
            Counters::of_unit(new_state, new_words, new_chars).with_failing(&failing),
        );
        let action = if template {
            Action::SOURCE_CHANGE
        } else if new_state.is_fuzzy() {
            Action::MARKED_EDIT
        } else if new_state == UnitState::Approved {
            Action::APPROVE
        } else if old_state >= UnitState::Fuzzy {
            Action::CHANGE
        } else {
            Action::NEW
        };
        let change = NewChange {
            old: view.unit.target.clone(),
            target: text.clone(),
            details: json!({
                "state": new_state.code(),
                "old_state": old_state.code(),
                "source": view.unit.source,
                "context": view.unit.context,
            }),
            ..unit_change(view, action, subject)
        };
        Ok(Some(Planned {
            source: view.unit.source.clone(),
            text,
            state: new_state,
            failing,
            dismissed,
            delta,
            change,
            source_words,
        }))
    }

    /// Writes the unit's new text and state if it still holds what `view`
    /// read (false: another edit came first) and marks it pending.
    pub(crate) fn write(
        &self,
        conn: &mut DbConnection,
        view: &UnitView,
        at: chrono::NaiveDateTime,
    ) -> ServiceResult<bool> {
        Ok(units::set_translation(
            conn,
            view.unit.id,
            (&view.unit.target, view.unit.state),
            &self.text,
            self.state.code(),
            (&self.failing, &self.dismissed),
            at,
        )?)
    }

    /// What this translation of the string `id_hash` spreads to the same
    /// string in other components.
    pub(crate) fn spread(&self, id_hash: i64) -> Spread {
        Spread {
            id_hash,
            target: self.text.clone(),
            state: self.state.code(),
            previous: self.change.old.clone(),
        }
    }

    /// Makes `view` what was written.
    pub(crate) fn apply_to(self, view: &mut UnitView, at: chrono::NaiveDateTime) {
        if let Some(words) = self.source_words {
            view.unit.source.clone_from(&self.text);
            view.unit.num_words = words;
        }
        view.unit.target = self.text;
        view.unit.state = self.state.code();
        view.unit.failing = self.failing;
        view.unit.dismissed = self.dismissed;
        view.unit.pending = true;
        view.unit.last_updated = at;
    }
}

/// The words (`words`, as counted) and characters of a source `text`, as
/// the counters take them.
pub(crate) fn size(text: &str, words: i32) -> (i64, i64) {
    let chars = i64::try_from(text.chars().count()).unwrap_or(i64::MAX);
    (i64::from(words), chars)
}

/// Every flag that applies to `view`'s string: the unit's, its string's
/// (kept on the source unit), its component's and its project's.
pub(crate) fn flags_of(view: &UnitView) -> Flags {
    let component = &view.translation.component;
    let check_flags = component
        .component
        .settings
        .check_flags_in(component.inherited());
    Flags::parse([
        view.unit.flags.as_str(),
        view.unit.extra_flags.as_str(),
        view.unit.source_flags.as_str(),
        check_flags.as_str(),
    ])
}

/// What the checks of a translation's own text find.
pub(crate) struct Checked {
    /// The checks it fails, as stored (those dismissed on the string left out).
    pub(crate) failing: String,
    /// The dismissals of the string that still apply.
    pub(crate) dismissed: String,
    /// Whether a failing one is enforced by the component (a translated
    /// string failing one is sent back for editing; one that needs editing
    /// already stays as it is, as in Weblate).
    pub(crate) enforced: bool,
}

/// The quality checks `text` fails as a translation of `view` in `state`.
/// `glossary` holds the terms of its language when its flags ask for the
/// glossary check.
pub(crate) fn checks_of(
    view: &UnitView,
    text: &str,
    state: UnitState,
    glossary: &Glossary,
) -> Checked {
    let component = &view.translation.component;
    let (settings, project) = (&component.component.settings, component.inherited());
    let names = component.check_names();
    let context = view
        .translation
        .check_context(&names)
        .with_glossary(glossary, settings.is_glossary)
        .at_key(&view.unit.context);
    let found =
        tolk_domain::checks::stored(&view.unit.source, text, state, &context, &flags_of(view));
    let (failing, dismissed) = dismissals::split(&found, &view.unit.dismissed);
    let enforced = settings.enforced_checks_in(project);
    let enforced = state.is_translated()
        && dismissals::ids(&failing).any(|id| enforced.iter().any(|e| e == id));
    Checked {
        failing,
        dismissed,
        enforced,
    }
}

/// A change record about a unit.
pub(crate) fn unit_change(view: &UnitView, action: Action, subject: &Subject) -> NewChange {
    let component = &view.translation.component;
    NewChange {
        project_id: Some(component.project.id),
        component_id: Some(component.component.id),
        translation_id: Some(view.translation.translation.id),
        unit_id: Some(view.unit.id),
        language_id: Some(view.translation.language.row.id),
        author_id: subject.user_id(),
        ..NewChange::new(action, subject.user_id())
    }
}

/// The rules of a translation edit, in Weblate's order and words.
pub(crate) fn check_edit(
    subject: &Subject,
    view: &UnitView,
    target: &[String],
    state: i32,
) -> ServiceResult<()> {
    let mut errors = FieldErrors::default();
    if target.len() != view.forms() {
        errors.invalid("target", "Number of plurals does not match");
        return Err(errors.into());
    }
    writable(view)?;
    match UnitState::from_code(state) {
        Some(UnitState::NeedsRewriting | UnitState::NeedsChecking) => {
            errors.invalid("state", "This state cannot be set manually.");
        }
        Some(UnitState::Empty | UnitState::Fuzzy | UnitState::Translated | UnitState::Approved) => {
        }
        _ => errors.invalid("state", "Invalid state"),
    }
    check_state_fits_target(state, target, &mut errors);
    errors.into_result()?;
    let target_ref = view.translation.target();
    translatable_by(subject, view)?;
    if state == UnitState::Approved.code() {
        if !reviews_on(view) {
            return Err(ServiceError::invalid(
                "state",
                "Translation reviews are turned off. The project's translation_review setting (or its workflow for the language) turns them on.",
            ));
        }
        require(
            subject,
            Permission::UNIT_REVIEW,
            target_ref,
            "You do not have permission to perform this action.",
        )?;
    }
    Ok(())
}

/// Whether `subject` may translate the unit of `view` (whatever the text
/// and state), with the reason when not: what the editor asks before it
/// offers a field.
pub(crate) fn editable_by(subject: &Subject, view: &UnitView) -> ServiceResult<()> {
    writable(view)?;
    translatable_by(subject, view)
}

/// Read-only strings are never translated.
fn writable(view: &UnitView) -> ServiceResult<()> {
    if view.unit.state == UnitState::ReadOnly.code() {
        return Err(ServiceError::PermissionDenied(
            "The string is read-only.".into(),
        ));
    }
    Ok(())
}

/// Whether the project reviews translations of the unit's language.
pub(crate) fn reviews_on(view: &UnitView) -> bool {
    view.translation.workflow().translation_review
}

/// The rules of who may change a unit's translation, in Weblate's order.
fn translatable_by(subject: &Subject, view: &UnitView) -> ServiceResult<()> {
    let target_ref = view.translation.target();
    require(
        subject,
        view.translation.on_strings(Permission::UNIT_EDIT),
        target_ref,
        "You do not have permission to perform this action.",
    )?;
    if view.translation.is_template() {
        require(
            subject,
            Permission::UNIT_TEMPLATE,
            target_ref,
            "Insufficient privileges for editing source strings.",
        )?;
    }
    if view.translation.component.component.locked {
        return Err(ServiceError::PermissionDenied(
            "This translation is currently locked.".into(),
        ));
    }
    if reviews_on(view)
        && view.unit.state == UnitState::Approved.code()
        && !subject.can(Permission::UNIT_REVIEW, target_ref)
    {
        return Err(ServiceError::PermissionDenied(
            "Only reviewers can change approved strings. Please add a suggestion if you \
             think the string should be changed."
                .into(),
        ));
    }
    if view.translation.workflow().restrict_direct_editing
        && !subject.can(Permission::UNIT_OVERRIDE, target_ref)
    {
        return Err(ServiceError::PermissionDenied(
            "Direct editing of this language is restricted in this project. Please add a \
             suggestion instead."
                .into(),
        ));
    }
    Ok(())
}

/// A state goes with its text, as Weblate checks both on an edit and on a
/// new string: empty (0) with an empty text only, any other with a text.
pub(crate) fn check_state_fits_target(state: i32, target: &[String], errors: &mut FieldErrors) {
    let empty = target.iter().all(String::is_empty);
    if state == UnitState::Empty.code() && !empty {
        errors.invalid("state", "Can not use empty state with non empty target");
    } else if state != UnitState::Empty.code() && empty {
        errors.invalid("state", "Can not use non empty state with empty target");
    }
}
