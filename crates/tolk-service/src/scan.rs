//! Reading a component's files into the database: the file mask finds the
//! translation files, each becomes a translation (language from the path),
//! a source translation holds the source strings, and every unit gets its
//! hash, position and word count. Statistics are counted here, once per
//! read; afterwards edits keep them up to date.
//!
//! Files are read with no transaction open; the database is written in
//! one transaction afterwards. Units edited in Tolk and not yet written to
//! their file keep their translation when the file is read again.

use std::collections::{HashMap, HashSet};

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::checks::Flags;
use tolk_domain::checks::catalogue::INCONSISTENT;
use tolk_domain::checks::source::{
    LONG_UNTRANSLATED_DAYS, Translations, failing_source, long_untranslated,
};
use tolk_domain::component::ComponentSettings;
use tolk_domain::filemask::code_candidates;
use tolk_domain::stats::Counters;
use tolk_domain::unit::{
    UnitState, after_source_change, id_hash, join_plurals, split_plurals, word_count,
};
use tolk_formats::{State, TranslationFile, Unit};
use tolk_store::changes::{self, NewChange};
use tolk_store::components::{self, Component};
use tolk_store::languages::{self, Language};
use tolk_store::translations::{self, NewTranslation};
use tolk_store::unit_removals;
use tolk_store::units::{self, NewUnit};
use tolk_store::{DbConnection, time};
use tolk_vcs::Repository;

use crate::memory::MemoryScopes;
use crate::nul::read_units;
use crate::tasks::{Run, TaskResult};
use crate::translated_check::Histories;
use crate::{Service, ServiceError, ServiceResult};

/// How a scan's log line about a file it left out begins (`skipped
/// PATH: why`), for whoever reads the log for them.
pub const SKIPPED: &str = "skipped";

/// One translation file as read.
struct FileRead {
    path: String,
    code: String,
    units: Vec<Unit>,
    /// A document written for another version of its template: the
    /// database keeps the translations, the file is written anew at the
    /// translation's next commit.
    stale: bool,
}

/// What a component's work tree holds.
struct Snapshot {
    /// The file of the source language, if any (template or base file).
    source_path: String,
    /// The source strings.
    source_units: Vec<Unit>,
    /// The translation files.
    files: Vec<FileRead>,
    /// Translation files refused or left out, with the reason.
    problems: Vec<String>,
    /// Every file of the work tree, read or refused.
    present: HashSet<String>,
    /// The work tree's head.
    revision: String,
}

/// A format's state as a unit state.
fn state_of(state: State) -> UnitState {
    match state {
        State::Untranslated => UnitState::Empty,
        State::Fuzzy => UnitState::Fuzzy,
        State::Translated => UnitState::Translated,
        State::Approved => UnitState::Approved,
        State::ReadOnly => UnitState::ReadOnly,
    }
}

/// A document of `format`, as a scan failure when it cannot be read.
fn parse_document(
    format: &str,
    path: &str,
    bytes: &[u8],
) -> Result<tolk_formats::DocumentFile, ServiceError> {
    let document = tolk_formats::parse_document(format, path, bytes)
        .map_err(|e| ServiceError::Failed(e.to_string()))?;
    crate::nul::refuse_nul(path, bytes, &document.units()).map_err(ServiceError::Failed)?;
    Ok(document)
}

/// Reads the files of a component from its work tree. Files are reached
/// only inside it: a translation file, template or base that is a link
/// (or leads outside) is refused by name; a refused or broken translation
/// file is left out (with its reason in `problems`), not the component.
fn read_tree(
    repo: &Repository,
    settings: &ComponentSettings,
    run: &Run<'_>,
) -> Result<Snapshot, ServiceError> {
    let mask = settings.mask().ok_or_else(|| {
        ServiceError::Failed(format!("invalid file mask {:?}", settings.filemask))
    })?;
    let tree = repo.work_tree()?;
    let read = |path: &str| -> Result<Vec<u8>, ServiceError> {
        tree.read(path)?
            .ok_or_else(|| ServiceError::Failed(format!("{path}: the file does not exist")))
    };
    let format = settings.file_format.as_str();
    // A document's template is parsed once: each translation is read
    // against it.
    let mut document = None;
    let template = if settings.template.is_empty() {
        None
    } else {
        let bytes = read(&settings.template)?;
        Some(if tolk_formats::is_document(format) {
            let parsed = parse_document(format, &settings.template, &bytes)?;
            let units = parsed.units();
            document = Some(parsed);
            units
        } else {
            read_units(format, &settings.template, &bytes).map_err(ServiceError::Failed)?
        })
    };
    let intermediate = if template.is_none() || settings.intermediate.is_empty() {
        None
    } else {
        let bytes = read(&settings.intermediate)?;
        Some(read_units(format, &settings.intermediate, &bytes).map_err(ServiceError::Failed)?)
    };
    // What translators see of a template's string: the intermediate
    // file's text as its source, where the component has one.
    let shown = |units: Vec<Unit>| match &intermediate {
        Some(intermediate) => tolk_formats::with_intermediate(units, intermediate),
        None => units,
    };
    let special = [
        &settings.template,
        &settings.new_base,
        &settings.intermediate,
    ];
    let listing = tree.list()?;
    let present: HashSet<String> = listing
        .files
        .iter()
        .chain(listing.refused.iter().map(|(path, _)| path))
        .cloned()
        .collect();
    let wanted = |p: &String| {
        !special.contains(&p)
            && mask
                .code_of(p)
                .is_some_and(|code| settings.accepts_language(code))
    };
    let mut problems: Vec<String> = listing
        .refused
        .iter()
        .filter(|(p, _)| wanted(p))
        .map(|(path, reason)| format!("refused {path}: {reason}"))
        .collect();
    for problem in &problems {
        run.report(5, problem.clone());
    }
    let candidates: Vec<(String, String)> = listing
        .files
        .into_iter()
        .filter(wanted)
        .filter_map(|p| {
            let code = mask.code_of(&p)?.to_owned();
            Some((p, code))
        })
        .collect();
    let total = candidates.len().max(1);
    let mut files = Vec::new();
    for (i, (path, code)) in candidates.into_iter().enumerate() {
        let progress = i32::try_from(10 + 80 * i / total).unwrap_or(90);
        let parsed = read(&path).and_then(|bytes| {
            let (units, stale) = match (&document, &template) {
                (Some(document), _) => match document.pair(&parse_document(format, &path, &bytes)?)
                {
                    tolk_formats::Paired::Units(units) => (units, false),
                    tolk_formats::Paired::Stale(units) => (units, true),
                },
                (None, Some(base)) => (
                    tolk_formats::with_template(
                        base,
                        &read_units(format, &path, &bytes).map_err(ServiceError::Failed)?,
                    ),
                    false,
                ),
                (None, None) => (
                    read_units(format, &path, &bytes).map_err(ServiceError::Failed)?,
                    false,
                ),
            };
            Ok((shown(units), stale))
        });
        match parsed {
            Ok((units, stale)) => {
                run.report(
                    progress,
                    if stale {
                        format!(
                            "processing {path} ({code}), {} strings: written for another \
                             version of the template, so its translations are kept from the \
                             database and the file is written anew at its next commit",
                            units.len()
                        )
                    } else {
                        format!("processing {path} ({code}), {} strings", units.len())
                    },
                );
                files.push(FileRead {
                    path,
                    code,
                    units,
                    stale,
                });
            }
            // A broken file is left out, not the whole component.
            Err(error) => {
                let problem = format!("{SKIPPED} {path}: {error}");
                run.report(progress, problem.clone());
                problems.push(problem);
            }
        }
    }
    let (source_path, source_units) = match template {
        // The template's strings as a translation of their own: its
        // text is their source and their target, the key their context.
        Some(units) => (
            settings.template.clone(),
            shown(tolk_formats::with_template(&units, &units)),
        ),
        None if !settings.new_base.is_empty() => (
            settings.new_base.clone(),
            read_units(format, &settings.new_base, &read(&settings.new_base)?)
                .map_err(ServiceError::Failed)?,
        ),
        None => (String::new(), union_of_sources(&files)),
    };
    Ok(Snapshot {
        source_path,
        source_units,
        files,
        problems,
        present,
        revision: repo.head()?,
    })
}

/// The strings of every translation file, each once, in first-seen order.
fn union_of_sources(files: &[FileRead]) -> Vec<Unit> {
    let mut seen = std::collections::HashSet::new();
    files
        .iter()
        .flat_map(|f| f.units.iter())
        .filter(|u| seen.insert((u.context.clone(), u.source.clone())))
        .cloned()
        .collect()
}

/// What the quality checks of a translation's strings need besides the
/// strings: the language and the flags of the component and project.
#[derive(Debug, Clone, Copy)]
struct CheckContext<'a> {
    /// Where the strings are checked.
    context: tolk_domain::checks::Context<'a>,
    flags: &'a str,
}

/// What a translation's units are to their strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
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
fn new_unit(
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
fn keep_monolingual_state(old: &units::UnitRow, row: &mut NewUnit) {
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
fn counted(unit: &NewUnit, state: i32, failing: &str) -> Counters {
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
fn sync_units(
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
struct Synced {
    /// The translation's counters.
    counters: Counters,
    /// Whether a unit was added, changed or removed.
    changed: bool,
    /// The changes to record about its strings.
    history: Vec<Recorded>,
}

/// A change a read of the files made to a string, as Weblate records it,
/// until its unit has an id.
struct Recorded {
    id_hash: i64,
    /// The unit's id, unless it was just inserted.
    unit_id: Option<i64>,
    action: Action,
    /// The string's state after the change.
    state: UnitState,
    source: String,
    target: String,
    old: String,
    details: serde_json::Value,
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
fn refresh_source_checks(
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
        let verdict = failing_source(&forms, &unit.context, units, &flags).join(",");
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
        translations::add_failing(conn, source_id, delta.failing, delta.failing_words)?;
    }
    Ok(())
}

/// What a read of the files changed, for the task's result and log.
#[derive(Debug, Default)]
struct ScanTotals {
    translations: usize,
    units: i64,
}

/// `units` with the source text of each edited source string (by key).
fn with_edited_sources<'a>(
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
fn checks<'a>(
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
struct TranslationRead<'a> {
    language: &'a Language,
    code: &'a str,
    path: &'a str,
    units: &'a [Unit],
    /// What its units are to their strings.
    role: Role,
    /// Where the translations read are remembered (none for the source
    /// language).
    memory: Option<&'a MemoryScopes>,
    /// Keep the translations the database has (the file is older).
    stale: bool,
}

/// Stores one translation of a snapshot and its units, in the caller's
/// transaction: the translation's row made or pointed at the file, its
/// units made what the file holds, its counters, its units linked to the
/// source translation's (`source_id`, or its own when it is the source).
/// Its id and number of strings.
fn store_translation(
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

impl Service {
    /// Task: clone a new component's repository (unless it shares
    /// another's) and read its files.
    pub(crate) fn setup_component(
        &self,
        component_id: i64,
        staged: Option<&str>,
        run: &Run<'_>,
    ) -> TaskResult {
        let component = self.task_component(component_id)?;
        if component.linked_component_id.is_none() {
            let dir = self.workspace.dir(&component);
            let _lock = self
                .workspace
                .lock(&component)
                .map_err(ServiceError::from)?;
            if let Some(staged) = staged.filter(|_| !dir.exists()) {
                run.report(1, "storing the uploaded files".into());
                std::fs::rename(staged, &dir).map_err(|e| {
                    tracing::warn!("cannot move {staged} to {}: {e}", dir.display());
                    "The uploaded files could not be stored.".to_owned()
                })?;
            }
            if !dir.exists() {
                let s = &component.settings;
                if s.vcs == "local" {
                    return Err("The component's local repository is missing."
                        .to_owned()
                        .into());
                }
                run.report(
                    1,
                    format!("cloning {}", tolk_vcs::strip_credentials(&s.repo)),
                );
                self.workspace
                    .policy()
                    .check(&s.repo)
                    .map_err(ServiceError::from)?;
                // The clone is most of a new component's wait.
                run.step(0, 50);
                let repo = Repository::clone_reporting(
                    self.workspace.git(),
                    &s.repo,
                    &s.branch,
                    &dir,
                    &|percent| run.advance(i32::from(percent)),
                )
                .map_err(ServiceError::from)?;
                run.step(50, 100);
                if s.branch.is_empty() {
                    let mut settings = s.clone();
                    settings.branch = repo.branch().to_owned();
                    self.store
                        .write(|conn| {
                            components::update(
                                conn,
                                component.id,
                                &settings,
                                component.source_language_id,
                            )
                            .map(|_| ())
                        })
                        .map_err(ServiceError::from)?;
                }
            }
        }
        let scanned = self.rescan_component(component_id, run)?;
        self.ensure_glossary(&component)?;
        Ok(scanned)
    }

    /// Task: after its `repo` or `branch` changed, point the component's
    /// work tree at them (cloning when it has none), then read every
    /// component sharing it again.
    pub(crate) fn relocate_component(&self, component_id: i64, run: &Run<'_>) -> TaskResult {
        let component = self.task_component(component_id)?;
        let dir = self.workspace.dir(&component);
        if !dir.exists() {
            return self.setup_component(component_id, None, run);
        }
        let s = &component.settings;
        run.report(
            1,
            format!(
                "moving to {} {}",
                tolk_vcs::strip_credentials(&s.repo),
                if s.branch.is_empty() {
                    "(default branch)"
                } else {
                    &s.branch
                }
            ),
        );
        self.workspace
            .policy()
            .check(&s.repo)
            .map_err(ServiceError::from)?;
        let moved = {
            let _lock = self
                .workspace
                .lock(&component)
                .map_err(ServiceError::from)?;
            self.workspace
                .open(&component, &s.branch)
                .relocate(&s.repo, &s.branch)
                .map_err(ServiceError::from)?
        };
        if s.branch.is_empty() {
            let mut settings = s.clone();
            settings.branch = moved.branch().to_owned();
            self.store
                .write(|conn| {
                    components::update(conn, component.id, &settings, component.source_language_id)
                        .map(|_| ())
                })
                .map_err(ServiceError::from)?;
        }
        let sharing = self
            .store
            .read(|conn| components::sharing(conn, component.id))
            .map_err(ServiceError::from)?;
        for other in &sharing {
            self.rescan_component(other.id, run)?;
        }
        Ok(json!({"component": component_id}))
    }

    /// Task: read every file of a component again.
    pub(crate) fn rescan_component(
        &self,
        component_id: i64,
        run: &Run<'_>,
    ) -> ServiceResult<serde_json::Value> {
        let component = self.task_component(component_id)?;
        let totals = self.scan(&component, run)?;
        // Languages may have come or gone: the glossaries follow.
        if !component.settings.is_glossary {
            self.sync_glossaries(component.project_id)?;
        }
        run.report(
            99,
            format!(
                "read {} translations, {} strings",
                totals.translations, totals.units
            ),
        );
        Ok(json!({"component": component_id}))
    }

    /// The component a task works on, read afresh.
    fn task_component(&self, component_id: i64) -> ServiceResult<Component> {
        self.store
            .read(|conn| components::get_by_ids(conn, &[component_id]))?
            .pop()
            .ok_or(ServiceError::NotFound)
    }

    /// Reads the component's work tree, then writes what it holds; files
    /// refused or left out are recorded in the component's history.
    fn scan(&self, component: &Component, run: &Run<'_>) -> Result<ScanTotals, ServiceError> {
        let owner = self.repository_owner(component)?;
        let snapshot = {
            let _lock = self.workspace.lock(&owner)?;
            let repo = self.workspace.open(&owner, &owner.settings.branch);
            read_tree(&repo, &component.settings, run)?
        };
        let codes: Vec<String> = snapshot
            .files
            .iter()
            .flat_map(|f| code_candidates(&f.code))
            .collect();
        let (languages, source, check_flags, memory, names) = self.store.read(|conn| {
            let languages = languages::resolve(conn, &codes)?;
            let source = languages::get_full_by_ids(conn, &[component.source_language_id])?
                .pop()
                .ok_or(ServiceError::NotFound)?;
            let view = crate::component_view::views(conn, vec![component.clone()])?
                .pop()
                .ok_or(ServiceError::NotFound)?;
            let check_flags = component.settings.check_flags_in(view.inherited());
            Ok::<_, ServiceError>((
                languages,
                source,
                check_flags,
                MemoryScopes::of(&view),
                view.check_names(),
            ))
        })?;
        // One transaction per translation, the source one first: a large
        // component never holds the database's writer for long.
        let (source_id, strings) = self.store.write(|conn| {
            let read = TranslationRead {
                language: &source,
                code: &source.row.code,
                path: &snapshot.source_path,
                units: &snapshot.source_units,
                memory: None,
                role: if component.settings.template.is_empty() {
                    Role::Source
                } else {
                    Role::Template {
                        editable: component.settings.edit_template
                            && !tolk_formats::is_document(&component.settings.file_format),
                    }
                },
                stale: false,
            };
            let checks = checks(&source, &source, &names, &check_flags);
            store_translation(conn, component, &snapshot.revision, &read, None, checks)
        })?;
        let mut totals = ScanTotals {
            translations: 1,
            units: strings,
        };
        // Source strings edited and not yet written to the template are
        // the translations' sources still.
        let edited: HashMap<String, String> = if component.settings.template.is_empty() {
            HashMap::new()
        } else {
            self.store
                .read(|conn| units::to_write(conn, &[source_id], false))?
                .into_iter()
                .map(|u| (u.context, u.target))
                .collect()
        };
        let mut done = HashSet::from([source.row.id]);
        for file in &snapshot.files {
            let Some(language) = code_candidates(&file.code)
                .iter()
                .find_map(|c| languages.get(c))
            else {
                continue;
            };
            if !done.insert(language.row.id) {
                continue; // Two files of one language: the first counts.
            }
            let units = with_edited_sources(&file.units, &edited);
            let read = TranslationRead {
                language,
                code: &file.code,
                path: &file.path,
                units: &units,
                role: Role::Translation,
                memory: Some(&memory),
                stale: file.stale,
            };
            let (_, strings) = self.store.write(|conn| {
                store_translation(
                    conn,
                    component,
                    &snapshot.revision,
                    &read,
                    Some(source_id),
                    checks(language, &source, &names, &check_flags),
                )
            })?;
            totals.translations += 1;
            totals.units += strings;
        }
        self.remove_stale(component, &snapshot.present, &done)?;
        self.refresh_component_consistency(component, source.row.id)?;
        self.refresh_component_reuse(component, source.row.id)?;
        self.store
            .write(|conn| refresh_source_checks(conn, component, source_id, &check_flags))?;
        self.store.write(|conn| {
            let now = time::now();
            for problem in &snapshot.problems {
                let change = NewChange {
                    project_id: Some(component.project_id),
                    component_id: Some(component.id),
                    target: problem.clone(),
                    ..NewChange::new(Action::PARSE_ERROR, None)
                };
                changes::record(conn, &change, now)?;
            }
            Ok::<_, ServiceError>(())
        })?;
        Ok(totals)
    }

    /// After a scan of `component`: deletes its translations whose file
    /// left the work tree (the languages `read` aside), as Weblate does.
    fn remove_stale(
        &self,
        component: &Component,
        present: &HashSet<String>,
        read: &HashSet<i64>,
    ) -> ServiceResult<()> {
        let gone: Vec<_> = self
            .store
            .read(|conn| translations::of_component(conn, component.id))?
            .into_iter()
            .filter(|t| {
                !read.contains(&t.language_id)
                    && !t.filename.is_empty()
                    && !present.contains(&t.filename)
            })
            .collect();
        if gone.is_empty() {
            return Ok(());
        }
        let images = self.store.write(|conn| {
            let ids: Vec<i64> = gone.iter().map(|t| t.language_id).collect();
            let languages: HashMap<i64, Language> = languages::get_full_by_ids(conn, &ids)?
                .into_iter()
                .map(|l| (l.row.id, l))
                .collect();
            let mut images = Vec::new();
            for translation in &gone {
                let Some(language) = languages.get(&translation.language_id) else {
                    continue;
                };
                let row = (translation.id, &language.row);
                images.extend(crate::repository::remove_translation(
                    conn, component, row, None,
                )?);
            }
            Ok::<_, ServiceError>(images)
        })?;
        self.forget_images(&images);
        Ok(())
    }

    /// After a scan of `component`: the `inconsistent` verdicts of its
    /// strings (the source language's left out) across the components of
    /// its project that share translations, one transaction per
    /// translation; nothing when it shares with none.
    fn refresh_component_consistency(
        &self,
        component: &Component,
        source_language: i64,
    ) -> ServiceResult<()> {
        let all = self
            .store
            .read(|conn| translations::of_component(conn, component.id))?;
        for translation in all.iter().filter(|t| t.language_id != source_language) {
            let compared = self.store.write(|conn| {
                let generation = self.cache.sync(conn)?;
                let mut sharing = self
                    .cache
                    .propagating(generation, conn, component.project_id)?;
                let shares = sharing.contains(&component.id);
                sharing.retain(|id| *id != component.id);
                if shares && sharing.is_empty() {
                    return Ok::<_, ServiceError>(false);
                }
                // Only the strings another component holds can disagree;
                // those of a component that stopped sharing are cleared.
                let language = translation.language_id;
                let strings = units::hashes_of(conn, translation.id)?;
                let hashes: Vec<i64> = strings.iter().map(|(hash, _)| *hash).collect();
                let mut compared = units::shared_hashes(conn, &sharing, language, &hashes)?;
                if !shares {
                    compared.extend(strings.iter().filter_map(|(hash, failing)| {
                        failing
                            .split(',')
                            .any(|id| id == INCONSISTENT)
                            .then_some(*hash)
                    }));
                }
                if !compared.is_empty() {
                    sharing.push(component.id);
                    let hashes = Some(compared.as_slice());
                    self.refresh_consistency(conn, generation, &sharing, language, hashes)?;
                }
                Ok(true)
            })?;
            if !compared {
                break;
            }
        }
        Ok(())
    }

    /// The component whose work tree `component` uses (itself, or the one it links to).
    pub(crate) fn repository_owner(
        &self,
        component: &Component,
    ) -> Result<Component, ServiceError> {
        match component.linked_component_id {
            None => Ok(component.clone()),
            Some(id) => self
                .store
                .read(|conn| components::get_by_ids(conn, &[id]))?
                .pop()
                .ok_or(ServiceError::NotFound),
        }
    }
}
