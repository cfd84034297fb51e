//! The second half of a scan, in the caller's transaction: one file as
//! read made a translation with its units (kept edits, states, checks,
//! positions, counters), what changed recorded, the source strings'
//! checks refreshed.

use std::collections::HashMap;

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::checks::Flags;
use tolk_domain::checks::dismissals;
use tolk_domain::checks::source::{
    LONG_UNTRANSLATED_DAYS, Translations, failing_source, long_untranslated,
};
use tolk_domain::stats::Counters;
use tolk_domain::unit::{
    UnitState, after_source_change, id_hash, join_plurals, split_plurals, word_count,
};
use tolk_formats::{State, Unit};
use tolk_store::changes::{self, NewChange};
use tolk_store::components::Component;
use tolk_store::languages::Language;
use tolk_store::translations::{self, NewTranslation};
use tolk_store::unit_removals;
use tolk_store::units::{self, NewUnit};
use tolk_store::{DbConnection, time};

use crate::ServiceError;
use crate::memory::MemoryScopes;
use crate::translated_check::Histories;

/// A format's state as a unit state.
pub(crate) fn state_of(state: State) -> UnitState {
    match state {
        State::Untranslated => UnitState::Empty,
        State::Fuzzy => UnitState::Fuzzy,
        State::Translated => UnitState::Translated,
        State::Approved => UnitState::Approved,
        State::ReadOnly => UnitState::ReadOnly,
    }
}

/// What the quality checks of a translation's strings need besides the
/// strings: the language and the flags of the component and project.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CheckContext<'a> {
    /// Where the strings are checked.
    pub(crate) context: tolk_domain::checks::Context<'a>,
    pub(crate) flags: &'a str,
}

/// What a translation's units are to their strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// A translation into another language.
    Translation,
    /// A bilingual component's source strings: read-only, the source
    /// text their target.
    Source,
    /// A monolingual component's template: the template's text is the
    /// source and the target; `editable` (the component's
    /// `edit_template`, for formats whose template Tolk writes) lets it be
    /// translated as any string, which changes the source string.
    Template { editable: bool },
}

/// A unit of a file as a row to store, with the checks it fails (the
/// source language's strings are not checked as translations).
pub(crate) fn new_unit(
    translation_id: i64,
    position: usize,
    unit: &Unit,
    role: Role,
    checks: CheckContext<'_>,
    now: chrono::NaiveDateTime,
) -> NewUnit {
    let source_text = join_plurals(&unit.source);
    let (target, state) = match role {
        Role::Translation | Role::Template { editable: true } => {
            (join_plurals(&unit.target), state_of(unit.state))
        }
        Role::Template { editable: false } => (join_plurals(&unit.target), UnitState::ReadOnly),
        Role::Source => (source_text.clone(), UnitState::ReadOnly),
    };
    let flags = unit.flags.join(", ");
    let failing = if role == Role::Translation {
        tolk_domain::checks::stored(
            &source_text,
            &target,
            state,
            &checks.context.at_key(&unit.context),
            &tolk_domain::checks::Flags::parse([flags.as_str(), checks.flags]),
        )
    } else {
        String::new()
    };
    NewUnit {
        translation_id,
        id_hash: 0,
        position: i32::try_from(position + 1).unwrap_or(i32::MAX),
        context: unit.context.clone(),
        source: source_text,
        previous_source: unit.previous_source.clone().unwrap_or_default(),
        target,
        state: state.code(),
        original_state: state.code(),
        note: unit.developer_notes.join("\n"),
        location: unit.locations.join(", "),
        flags,
        num_words: word_count(&unit.source),
        pending: false,
        created: now,
        last_updated: now,
        added: false,
        failing,
    }
}

/// What only the database knows of a monolingual translation's state,
/// kept when its file is read again (files of such formats have no place
/// for it): a string whose source text changed while its own text did not
/// needs editing (see [`after_source_change`]); one marked needing
/// editing or approved in Tolk stays so while its file's text is the same.
pub(crate) fn keep_monolingual_state(old: &units::UnitRow, row: &mut NewUnit) {
    let read = UnitState::from_code(row.state).unwrap_or(UnitState::Empty);
    if old.target != row.target
        || !(read.is_translated() || read.is_fuzzy())
        || read == UnitState::ReadOnly
    {
        return;
    }
    let stored = UnitState::from_code(old.state).unwrap_or(UnitState::Empty);
    let (state, previous_source) = if old.source == row.source {
        if !matches!(stored, UnitState::Fuzzy | UnitState::Approved)
            || read != UnitState::Translated
        {
            return;
        }
        (stored, old.previous_source.clone())
    } else {
        after_source_change(stored, &old.previous_source, &old.source, &row.source)
    };
    if !state.is_checked() {
        row.failing.clear();
    }
    row.state = state.code();
    row.previous_source = previous_source;
}

/// What one unit adds to its translation's counters, in `state` and
/// failing the checks `failing`.
pub(crate) fn counted(unit: &NewUnit, state: i32, failing: &str) -> Counters {
    let chars = i64::try_from(unit.source.chars().count()).unwrap_or(i64::MAX);
    Counters::of_unit(
        UnitState::from_code(state).unwrap_or(UnitState::Empty),
        i64::from(unit.num_words),
        chars,
    )
    .with_failing(failing)
}

/// Makes a translation's units those of `read` (matched by `id_hash`):
/// new ones inserted, gone ones deleted, changed ones updated, pending
/// edits kept (with `keep_translations`, every translation the database
/// has), strings deleted through the API left out until a commit removes
/// them from the file. Returns the counters of the result.
pub(crate) fn sync_units(
    conn: &mut DbConnection,
    translation_id: i64,
    read: &[Unit],
    monolingual: bool,
    role: Role,
    keep_translations: bool,
    checks: CheckContext<'_>,
) -> Result<Synced, ServiceError> {
    let mut existing: HashMap<i64, units::UnitRow> = units::of_translation(conn, translation_id)?
        .into_iter()
        .map(|u| (u.id_hash, u))
        .collect();
    let now = time::now();
    let mut counters = Counters::default();
    let mut inserts = Vec::new();
    let mut history = Vec::new();
    let mut updated = false;
    // Deleted strings count as seen: the file's copy is skipped.
    let mut seen = unit_removals::hashes_of(conn, translation_id)?;
    // What strings untranslated now were before (`translated`).
    let histories = if role == Role::Translation
        && !keep_translations
        && !existing.is_empty()
        && read.iter().any(|u| !state_of(u.state).is_translated())
    {
        Histories::of_translation(conn, translation_id)?
    } else {
        Histories::default()
    };
    for (position, unit) in read.iter().enumerate() {
        let mut row = new_unit(translation_id, position, unit, role, checks, now);
        row.id_hash = id_hash(&row.source, &row.context, monolingual);
        if !seen.insert(row.id_hash) {
            continue; // The same string twice in one file: the first counts.
        }
        match existing.remove(&row.id_hash) {
            None => {
                counters += counted(&row, row.state, &row.failing);
                history.push(Recorded::of(Action::NEW_UNIT_REPO, &row, None));
                inserts.push(row);
            }
            Some(old) => {
                let keep = old.pending || keep_translations;
                if keep && matches!(role, Role::Template { .. }) {
                    // An edited source string not yet in the template.
                    row.source.clone_from(&old.source);
                    row.num_words = old.num_words;
                }
                if monolingual && role == Role::Translation && !keep {
                    keep_monolingual_state(&old, &mut row);
                }
                let state = UnitState::from_code(row.state).unwrap_or(UnitState::Empty);
                if role == Role::Translation
                    && !keep
                    && histories.fails(old.id, state, &row.target, None)
                {
                    let flags = Flags::parse([row.flags.as_str(), checks.flags]);
                    crate::translated_check::add_to(&mut row.failing, &flags);
                }
                // Checks dismissed on the string stay dismissed.
                row.failing = dismissals::split(&row.failing, &old.dismissed).0;
                let changed = old.position != row.position
                    || old.context != row.context
                    || old.source != row.source
                    || old.note != row.note
                    || old.location != row.location
                    || old.flags != row.flags
                    || old.previous_source != row.previous_source
                    || (!keep
                        && (old.target != row.target
                            || old.state != row.state
                            || old.failing != row.failing));
                if changed {
                    units::update_from_file(conn, old.id, &row, keep)?;
                    updated = true;
                    if !keep && (old.target != row.target || old.state != row.state) {
                        history.push(Recorded::of(Action::STRING_REPO_UPDATE, &row, Some(&old)));
                    }
                }
                counters += if keep {
                    counted(&row, old.state, &old.failing)
                } else {
                    counted(&row, row.state, &row.failing)
                };
            }
        }
    }
    units::insert_many(conn, &inserts)?;
    // Strings added through the API stay until a commit writes them in.
    let (kept, gone): (Vec<units::UnitRow>, Vec<units::UnitRow>) =
        existing.into_values().partition(|u| u.added);
    for unit in &kept {
        let chars = i64::try_from(unit.source.chars().count()).unwrap_or(i64::MAX);
        let state = UnitState::from_code(unit.state).unwrap_or(UnitState::Empty);
        counters +=
            Counters::of_unit(state, i64::from(unit.num_words), chars).with_failing(&unit.failing);
    }
    let gone: Vec<i64> = gone.into_iter().map(|u| u.id).collect();
    units::delete_ids(conn, &gone)?;
    Ok(Synced {
        counters,
        changed: updated || !inserts.is_empty() || !gone.is_empty(),
        history,
    })
}

/// What a read of a translation's file did to its units.
pub(crate) struct Synced {
    /// The translation's counters.
    pub(crate) counters: Counters,
    /// Whether a unit was added, changed or removed.
    pub(crate) changed: bool,
    /// The changes to record about its strings.
    pub(crate) history: Vec<Recorded>,
}

/// A change a read of the files made to a string, as Weblate records it,
/// until its unit has an id.
pub(crate) struct Recorded {
    pub(crate) id_hash: i64,
    /// The unit's id, unless it was just inserted.
    pub(crate) unit_id: Option<i64>,
    pub(crate) action: Action,
    /// The string's state after the change.
    pub(crate) state: UnitState,
    pub(crate) source: String,
    pub(crate) target: String,
    pub(crate) old: String,
    pub(crate) details: serde_json::Value,
}

impl Recorded {
    /// `action` on the unit `row`, which was `old` (none when it is new).
    fn of(action: Action, row: &NewUnit, old: Option<&units::UnitRow>) -> Recorded {
        Recorded {
            id_hash: row.id_hash,
            unit_id: old.map(|o| o.id),
            action,
            state: UnitState::from_code(row.state).unwrap_or(UnitState::Empty),
            source: row.source.clone(),
            target: row.target.clone(),
            old: old.map(|o| o.target.clone()).unwrap_or_default(),
            details: json!({
                "state": row.state,
                "old_state": old.map_or(-1, |o| o.state),
                "source": row.source,
                "context": row.context,
            }),
        }
    }
}

/// Runs the source checks on the units of the source translation
/// `source_id` once its translations are read (as Weblate runs them in a
/// batch per component): `multiple_failures` counts the translations of
/// each string that fail checks. Writes only the verdicts that changed,
/// and moves the translation's failing counters by them.
pub(crate) fn refresh_source_checks(
    conn: &mut DbConnection,
    component: &Component,
    source_id: i64,
    check_flags: &str,
) -> Result<(), ServiceError> {
    // The translation's row first, as every writer of its units takes it:
    // a concurrent read of the same files queues instead of deadlocking.
    translations::lock(conn, source_id)?;
    let failing = units::failing_translations_by_source(conn, source_id)?;
    let mut counters = Counters::default();
    for translation in translations::of_component(conn, component.id)? {
        counters += translation.counters;
    }
    let translated =
        tolk_domain::stats::percent(counters.translated.strings, counters.total.strings, false);
    let old = time::now() - chrono::Duration::days(LONG_UNTRANSLATED_DAYS);
    let progress = units::progress_by_source(conn, source_id, old)?;
    let mut changed = Vec::new();
    let mut delta = Counters::default();
    for unit in units::of_translation(conn, source_id)? {
        let flags = Flags::parse([unit.flags.as_str(), unit.extra_flags.as_str(), check_flags]);
        let count = failing.get(&unit.id).copied().unwrap_or(0);
        let units = Translations {
            failing: usize::try_from(count).unwrap_or(usize::MAX),
            long_untranslated: progress
                .get(&unit.id)
                .is_some_and(|(total, missing)| long_untranslated(*total, *missing, translated)),
        };
        let forms = split_plurals(&unit.source);
        let found = failing_source(&forms, &unit.context, units, &flags).join(",");
        let verdict = dismissals::split(&found, &unit.dismissed).0;
        if verdict == unit.failing {
            continue;
        }
        let counted = Counters::of_unit(UnitState::Empty, i64::from(unit.num_words), 0);
        delta += Counters::delta(
            counted.with_failing(&unit.failing),
            counted.with_failing(&verdict),
        );
        changed.push((unit.id, verdict));
    }
    units::set_failing(conn, &changed)?;
    if delta.failing != 0 {
        translations::add_failing(conn, source_id, &delta)?;
    }
    Ok(())
}

/// What a read of the files changed, for the task's result and log.
#[derive(Debug, Default)]
pub(crate) struct ScanTotals {
    pub(crate) translations: usize,
    pub(crate) units: i64,
}

/// `units` with the source text of each edited source string (by key).
pub(crate) fn with_edited_sources<'a>(
    units: &'a [Unit],
    edited: &HashMap<String, String>,
) -> std::borrow::Cow<'a, [Unit]> {
    if edited.is_empty() {
        return std::borrow::Cow::Borrowed(units);
    }
    units
        .iter()
        .map(|unit| match edited.get(&unit.context) {
            Some(text) => Unit {
                source: split_plurals(text),
                ..unit.clone()
            },
            None => unit.clone(),
        })
        .collect()
}

/// What checks the strings of a translation in `language` run with, in a
/// project and component of these `names`.
pub(crate) fn checks<'a>(
    language: &'a Language,
    source: &'a Language,
    names: &'a str,
    flags: &'a str,
) -> CheckContext<'a> {
    CheckContext {
        context: tolk_domain::checks::Context::of(
            &language.row.code,
            &source.row.code,
            &language.plural.formula,
        )
        .named(names),
        flags,
    }
}

/// One file of a snapshot to store as a translation.
pub(crate) struct TranslationRead<'a> {
    pub(crate) language: &'a Language,
    pub(crate) code: &'a str,
    pub(crate) path: &'a str,
    pub(crate) units: &'a [Unit],
    /// What its units are to their strings.
    pub(crate) role: Role,
    /// Where the translations read are remembered (none for the source
    /// language).
    pub(crate) memory: Option<&'a MemoryScopes>,
    /// Keep the translations the database has (the file is older).
    pub(crate) stale: bool,
}

/// Stores one translation of a snapshot and its units, in the caller's
/// transaction: the translation's row made or pointed at the file, its
/// units made what the file holds, its counters, its units linked to the
/// source translation's (`source_id`, or its own when it is the source).
/// Its id and number of strings.
pub(crate) fn store_translation(
    conn: &mut DbConnection,
    component: &Component,
    revision: &str,
    read: &TranslationRead<'_>,
    source_id: Option<i64>,
    checks: CheckContext<'_>,
) -> Result<(i64, i64), ServiceError> {
    let monolingual = !component.settings.template.is_empty();
    let existing = translations::of_component(conn, component.id)?
        .into_iter()
        .find(|t| t.language_id == read.language.row.id);
    let new_file = existing.is_none();
    let id = match existing {
        Some(t) => {
            translations::set_file(conn, t.id, read.path, revision)?;
            t.id
        }
        None => translations::insert(
            conn,
            &NewTranslation {
                component_id: component.id,
                language_id: read.language.row.id,
                plural_id: read.language.plural.id,
                language_code: read.code.to_owned(),
                filename: read.path.to_owned(),
                revision: revision.to_owned(),
            },
        )?,
    };
    // The glossary's terms, for strings whose flags ask for its check.
    let glossary = crate::glossary::CHECK_GLOSSARY;
    let terms = if read.role == Role::Translation
        && (Flags::parse([checks.flags]).has(glossary)
            || read.units.iter().any(|u| {
                u.flags
                    .iter()
                    .any(|f| f.split(',').any(|f| f.trim() == glossary))
            })) {
        crate::glossary::terms_of(
            conn,
            component.project_id,
            component.source_language_id,
            read.language.row.id,
        )?
    } else {
        tolk_domain::checks::glossary::Glossary::new(Vec::new())
    };
    let checks = CheckContext {
        context: checks
            .context
            .with_glossary(&terms, component.settings.is_glossary),
        ..checks
    };
    let synced = sync_units(
        conn,
        id,
        read.units,
        monolingual,
        read.role,
        read.stale,
        checks,
    )?;
    let now = time::now();
    let changed = new_file || synced.changed;
    translations::set_counters(conn, id, &synced.counters, changed.then_some(now))?;
    units::link_sources(conn, id, source_id.unwrap_or(id))?;
    if changed {
        // What the server did itself: no user, no author.
        let scope = NewChange {
            project_id: Some(component.project_id),
            component_id: Some(component.id),
            translation_id: Some(id),
            language_id: Some(read.language.row.id),
            ..NewChange::new(Action::UPDATE, None)
        };
        if let Some(scopes) = read.memory {
            // Every translation read, needing editing or not, as Weblate
            // fills its memory from the files.
            let texts: Vec<(&str, &str)> = synced
                .history
                .iter()
                .filter(|r| r.state.is_fuzzy() || r.state.is_translated())
                .filter(|r| r.state != UnitState::ReadOnly)
                .map(|r| (r.source.as_str(), r.target.as_str()))
                .collect();
            let feeds = scopes.feeds(read.language.row.id, None, &texts);
            if !feeds.is_empty() {
                tolk_store::memory::remember(conn, &feeds, now)?;
            }
        }
        // Only the units just inserted need their ids looked up.
        let ids = if synced.history.iter().all(|r| r.unit_id.is_some()) {
            HashMap::new()
        } else {
            units::ids_of(conn, id)?
        };
        let mut records: Vec<NewChange> = synced
            .history
            .into_iter()
            .map(|r| NewChange {
                action: r.action,
                unit_id: r.unit_id.or_else(|| ids.get(&r.id_hash).copied()),
                target: r.target,
                old: r.old,
                details: r.details,
                ..scope.clone()
            })
            .collect();
        let reason = if new_file {
            "new file"
        } else {
            "content changed"
        };
        records.push(NewChange {
            details: json!({"reason": reason, "filename": read.path}),
            ..scope
        });
        changes::record_many(conn, records.iter().collect(), now)?;
    }
    Ok((id, synced.counters.total.strings))
}
