//! Uploads of a translation file (§9.7): the strings of a file, in any
//! format Tolk reads, merged into a translation's units by the rules of
//! the upload method (`add` also adds the strings the component lacks),
//! in one transaction. Unlike Weblate, the answer
//! says why each string of the file was skipped or not found.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::permission::{Permission, Subject};
use tolk_domain::unit::{UnitState, id_hash, join_plurals};
pub use tolk_domain::upload::{Conflicts, FuzzyStrings, UploadMethod};
use tolk_store::changes::{self, NewChange};
use tolk_store::units::{self, UnitRow};
use tolk_store::{DbConnection, time};

use crate::access::require;
use crate::bulk::{BulkEdit, BulkOutcome, apply_edits};
use crate::translations::TranslationView;
use crate::unit_add::{NewString, add_string};
use crate::{ServiceError, ServiceResult};

/// A translation file upload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileUpload {
    /// The name it was uploaded as (its extension names its format) and
    /// its bytes; `None` when the request sent no file (a 400, after the
    /// caller's rights are checked).
    pub file: Option<(String, Vec<u8>)>,
    /// What to do with its strings.
    pub method: UploadMethod,
    /// Which translations it may overwrite.
    pub conflicts: Conflicts,
    /// What becomes of strings marked as needing editing.
    pub fuzzy: FuzzyStrings,
}

/// Why a string of the file changed nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadSkip {
    /// The string's key: its context, else its source text.
    pub key: String,
    /// True when the translation has no such string; false when it was skipped.
    pub not_found: bool,
    /// Why, in words.
    pub reason: String,
}

/// What an upload did (Weblate's counts, and each skipped string).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UploadReport {
    /// Strings of the file the translation does not have.
    pub not_found: usize,
    /// Strings of the file left as they were.
    pub skipped: usize,
    /// Strings taken.
    pub accepted: usize,
    /// Translatable strings in the file.
    pub total: usize,
    /// Each string that was not found or skipped, and why.
    pub issues: Vec<UploadSkip>,
}

impl UploadReport {
    fn skip(&mut self, key: &str, reason: &str) {
        self.skipped += 1;
        self.issues.push(UploadSkip {
            key: key.to_owned(),
            not_found: false,
            reason: reason.to_owned(),
        });
    }
}

const CANNOT: &str = "This method is not available here.";

/// Refuses an upload the caller may not make (Weblate's rules per method).
fn check_allowed(
    subject: &Subject,
    view: &TranslationView,
    upload: &FileUpload,
) -> ServiceResult<()> {
    let target = view.target();
    let can = |permission| subject.can(view.on_strings(permission), target);
    // Direct edits of a restricted language need `unit.override` too.
    let direct = || {
        can(Permission::UNIT_EDIT)
            && (!view.workflow().restrict_direct_editing || can(Permission::UNIT_OVERRIDE))
    };
    let permitted = match upload.method {
        UploadMethod::Translate | UploadMethod::Fuzzy => direct(),
        UploadMethod::Approve => can(Permission::UNIT_REVIEW),
        UploadMethod::Suggest => can(Permission::SUGGESTION_ADD),
        UploadMethod::Add => can(Permission::UNIT_ADD),
        // A direct edit that may also add and remove strings.
        UploadMethod::Replace => {
            direct()
                && (can(Permission::COMPONENT_EDIT)
                    || (can(Permission::UNIT_ADD) && can(Permission::UNIT_DELETE)))
        }
        UploadMethod::Source => true,
    };
    require(
        subject,
        view.on_strings(Permission::UPLOAD_PERFORM),
        target,
        "Insufficient privileges for uploading.",
    )?;
    if !permitted {
        return Err(ServiceError::invalid(
            "method",
            &format!("{CANNOT} You do not have permission for it."),
        ));
    }
    let settings = &view.component.component.settings;
    if upload.method == UploadMethod::Source {
        let bilingual_source = view.is_source()
            && settings.template.is_empty()
            && !settings.new_base.is_empty()
            && tolk_formats::can_remove(&settings.file_format);
        if !bilingual_source {
            return Err(ServiceError::invalid(
                "method",
                &format!(
                    "{CANNOT} Source strings are uploaded to the source language of a bilingual \
                     component whose template for new translations (new_base) Tolk can update."
                ),
            ));
        }
    } else if view.translation.filename.is_empty() {
        return Err(ServiceError::invalid(
            "method",
            "No translation file, try using method=source.",
        ));
    }
    if upload.method == UploadMethod::Add && !view.component.component.settings.manage_units {
        return Err(ServiceError::invalid(
            "method",
            &format!(
                "{CANNOT} Adding strings is disabled in the component configuration. The component's manage_units setting allows it."
            ),
        ));
    }
    if upload.method == UploadMethod::Suggest && !view.workflow().enable_suggestions {
        return Err(ServiceError::invalid(
            "method",
            &format!(
                "{CANNOT} Suggestions are not allowed on this translation. The component's enable_suggestions setting (or the project's workflow for the language) allows them."
            ),
        ));
    }
    // Overwriting needs `upload.overwrite`, approved strings `unit.review` too.
    let overwrite = match upload.conflicts {
        Conflicts::Ignore => true,
        Conflicts::ReplaceTranslated => subject.can(Permission::UPLOAD_OVERWRITE, target),
        Conflicts::ReplaceApproved => {
            subject.can(Permission::UPLOAD_OVERWRITE, target)
                && subject.can(Permission::UNIT_REVIEW, target)
        }
    };
    if !overwrite {
        return Err(ServiceError::invalid(
            "conflicts",
            "You can not overwrite existing translations.",
        ));
    }
    Ok(())
}

/// The strings of an uploaded file, read in the format its name's
/// extension names (the component's own format first), or in the
/// component's format when the name has no extension (`wlc` uploading
/// from its standard input); a 400 naming the file, line and problem when
/// it cannot be read.
fn read_upload(
    view: &TranslationView,
    name: &str,
    bytes: &[u8],
) -> ServiceResult<Vec<tolk_formats::Unit>> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let extension = base
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    let own = view.component.component.settings.file_format.as_str();
    let readable = tolk_formats::uploadable();
    let by_extension = |format: &&tolk_formats::FormatInfo| {
        readable.contains(&format.id)
            && (format.extensions.contains(&extension.as_str())
                || (extension.is_empty() && format.id == own))
    };
    // A codec no component uses (gettext's compiled MO files, TMX) reads
    // uploads named by its id.
    let codec_only = || readable.iter().copied().find(|id| *id == extension);
    let format = tolk_formats::find(own)
        .filter(|f| by_extension(f))
        .or_else(|| tolk_formats::FORMATS.iter().find(by_extension))
        .map(|f| f.id)
        .or_else(codec_only)
        .ok_or_else(|| {
            ServiceError::invalid(
                "file",
                &format!("Unsupported file format: Tolk cannot read {name}."),
            )
        })?;
    let format = tolk_formats::by_content(format, bytes);
    crate::nul::read_units(format, name, bytes).map_err(|why| ServiceError::invalid("file", &why))
}

impl crate::files::Files<'_> {
    /// Merges an uploaded file into the translation
    /// `project/component/language` (§9.7): every string of the file
    /// whose unit exists is translated, approved, marked as needing
    /// editing or suggested, as `upload.method` says, unless the rules
    /// keep it; all or nothing, in one transaction.
    pub fn upload(
        &self,
        subject: &Subject,
        path: (&str, &str, &str),
        upload: FileUpload,
    ) -> ServiceResult<UploadReport> {
        let view = self.translations().get(subject, path)?;
        check_allowed(subject, &view, &upload)?;
        let Some((name, bytes)) = &upload.file else {
            let mut errors = tolk_domain::validation::FieldErrors::default();
            errors.required("file");
            return Err(errors.into());
        };
        match upload.method {
            UploadMethod::Replace => {
                return self.replace_translation_file(subject, &view, (name, bytes));
            }
            UploadMethod::Source => return self.upload_source(subject, &view, (name, bytes)),
            _ => {}
        }
        let strings = read_upload(&view, name, bytes)?;
        let monolingual = !view.component.component.settings.template.is_empty();
        self.store.write(|conn| {
            let translation = Arc::new(self.translation_of_units(conn, subject, path)?);
            tolk_store::translations::lock(conn, translation.translation.id)?;
            let rows: HashMap<i64, UnitRow> =
                units::of_translation(conn, translation.translation.id)?
                    .into_iter()
                    .map(|u| (u.id_hash, u))
                    .collect();
            let forms = usize::try_from(translation.language.plural.number.max(1)).unwrap_or(1);
            let mut report = UploadReport::default();
            let mut wanted: Vec<(String, &UnitRow, Vec<String>, UnitState)> = Vec::new();
            let mut additions: Vec<(String, NewString)> = Vec::new();
            for string in &strings {
                if string.state == tolk_formats::State::ReadOnly {
                    continue;
                }
                report.total += 1;
                let key = string.context_or_source().to_owned();
                let source = join_plurals(&string.source);
                let hash = if monolingual {
                    id_hash("", &key, true)
                } else {
                    id_hash(&source, &string.context, false)
                };
                let Some(row) = rows.get(&hash) else {
                    if upload.method == UploadMethod::Add {
                        additions.push((key, new_string(string, monolingual)));
                        continue;
                    }
                    report.not_found += 1;
                    report.issues.push(UploadSkip {
                        key,
                        not_found: true,
                        reason: "The translation has no such string.".into(),
                    });
                    continue;
                };
                let Some(state) = state_of(&upload, string) else {
                    report.skip(&key, "The file does not translate it.");
                    continue;
                };
                let mut target = string.target.clone();
                if row.source.contains(tolk_domain::unit::PLURAL_SEPARATOR) {
                    if target.len() != forms {
                        let reason = format!(
                            "It has {} plural forms where the language has {forms}.",
                            target.len()
                        );
                        report.skip(&key, &reason);
                        continue;
                    }
                } else {
                    target.truncate(1);
                }
                if let Some(reason) = kept(row, &upload, &target, state) {
                    report.skip(&key, reason);
                    continue;
                }
                wanted.push((key, row, target, state));
            }
            if upload.method == UploadMethod::Suggest {
                let batch: Vec<(UnitRow, String)> = wanted
                    .iter()
                    .map(|(_, row, target, _)| ((*row).clone(), join_plurals(target)))
                    .collect();
                let added = crate::autotranslate::suggest(conn, subject, &translation, &batch)?;
                for ((key, ..), added) in wanted.iter().zip(added) {
                    if added {
                        report.accepted += 1;
                    } else {
                        report.skip(key, "You have made this suggestion already.");
                    }
                }
            } else {
                let keys: Vec<String> = wanted.iter().map(|(key, ..)| key.clone()).collect();
                let edits: Vec<BulkEdit> = wanted
                    .iter()
                    .map(|(_, row, target, state)| BulkEdit {
                        id: row.id,
                        target: target.clone(),
                        state: state.code(),
                    })
                    .collect();
                let (outcomes, spread) =
                    apply_edits(conn, subject, &translation, edits, Some(Action::UPLOAD))?;
                for (key, outcome) in keys.iter().zip(outcomes) {
                    match outcome {
                        BulkOutcome::Applied => report.accepted += 1,
                        BulkOutcome::Refused(why) => report.skip(key, &reason(&why)),
                    }
                }
                self.propagate(conn, subject, &translation, &spread)?;
            }
            for (key, new) in additions {
                match add_string(conn, subject, &translation, new, Action::NEW_UNIT_UPLOAD) {
                    Ok(_) => report.accepted += 1,
                    Err(refused) => report.skip(&key, &reason(&refused)),
                }
            }
            record_upload(conn, subject, &translation, &upload, &report)?;
            Ok(report)
        })
    }
}

/// The state a string of the file is taken in, or `None` when the file
/// does not translate it (empty, or needing editing and left out).
fn state_of(upload: &FileUpload, string: &tolk_formats::Unit) -> Option<UnitState> {
    if string.target.iter().all(String::is_empty) {
        return None;
    }
    let fuzzy = string.state == tolk_formats::State::Fuzzy;
    let translated = match (fuzzy, upload.fuzzy) {
        (true, FuzzyStrings::Skip) => return None,
        (true, FuzzyStrings::Process) => UnitState::Fuzzy,
        _ => UnitState::Translated,
    };
    Some(match upload.method {
        UploadMethod::Fuzzy => UnitState::Fuzzy,
        UploadMethod::Approve if translated == UnitState::Translated => UnitState::Approved,
        _ => translated,
    })
}

/// Why a stored unit keeps its translation against the file's, if it does.
fn kept(
    row: &UnitRow,
    upload: &FileUpload,
    target: &[String],
    state: UnitState,
) -> Option<&'static str> {
    let stored = UnitState::from_code(row.state).unwrap_or(UnitState::Empty);
    if stored == UnitState::ReadOnly {
        return Some("The string is read-only.");
    }
    if join_plurals(target) == row.target
        && (stored == state || upload.method == UploadMethod::Suggest)
    {
        return Some("The translation is the same.");
    }
    if stored == UnitState::Approved && upload.conflicts != Conflicts::ReplaceApproved {
        return Some("The string is approved; conflicts=replace-approved overwrites it.");
    }
    if stored.is_translated()
        && upload.conflicts == Conflicts::Ignore
        && upload.method != UploadMethod::Suggest
    {
        return Some("The string is translated; conflicts=replace-translated overwrites it.");
    }
    None
}

/// A string of the file as a new string of the component: key and value
/// in monolingual components, else context, source and translation.
fn new_string(string: &tolk_formats::Unit, monolingual: bool) -> NewString {
    let translated = string.target.iter().any(|t| !t.is_empty());
    if monolingual {
        return NewString {
            key: Some(string.context_or_source().to_owned()),
            value: Some(string.target.clone()),
            ..NewString::default()
        };
    }
    NewString {
        context: Some(string.context.clone()),
        source: Some(string.source.clone()),
        target: Some(string.target.clone()),
        state: Some(if translated {
            UnitState::Translated.code()
        } else {
            UnitState::Empty.code()
        }),
        ..NewString::default()
    }
}

/// The words of a refusal.
fn reason(refused: &ServiceError) -> String {
    match refused {
        ServiceError::Validation(errors) => {
            let details: Vec<&str> = errors.iter().map(|e| e.detail.as_str()).collect();
            details.join(" ")
        }
        other => other.to_string(),
    }
}

/// Records the upload itself (`File uploaded`, with its counts).
fn record_upload(
    conn: &mut DbConnection,
    subject: &Subject,
    translation: &TranslationView,
    upload: &FileUpload,
    report: &UploadReport,
) -> ServiceResult<()> {
    let component = &translation.component;
    let change = NewChange {
        project_id: Some(component.project.id),
        component_id: Some(component.component.id),
        translation_id: Some(translation.translation.id),
        language_id: Some(translation.language.row.id),
        author_id: subject.user_id(),
        details: json!({
            "method": upload.method.name(),
            "not_found": report.not_found,
            "skipped": report.skipped,
            "accepted": report.accepted,
            "total": report.total,
        }),
        ..NewChange::new(Action::FILE_UPLOAD, subject.user_id())
    };
    changes::record(conn, &change, time::now())?;
    Ok(())
}
