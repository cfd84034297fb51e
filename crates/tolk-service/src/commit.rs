//! Writing pending edits into their files and committing them: each
//! translation's file is rewritten through its codec (only edited spans
//! change) and committed as its last editor, with co-authors named. A
//! string that cannot be written (its file is refused, unreadable or
//! broken; a bilingual string no longer in its file) stays pending and is
//! reported, in the answer and as a `Saving failed` change; it is never
//! silently cleared. Strings deleted through the API leave their files
//! in the same commit.

use std::collections::HashMap;

use tolk_domain::change::Action;
use tolk_domain::permission::Subject;
use tolk_domain::unit::{UnitState, join_plurals, split_plurals};
use tolk_formats::{DocumentFile, TranslationFile, Unit};
use tolk_store::changes::{self, NewChange};
use tolk_store::translations::Translation;
use tolk_store::unit_removals::{self, Removal};
use tolk_store::units::{self, UnitRow};
use tolk_store::{languages, time, translations, users};
use tolk_vcs::{Identity, Repository, WorkTree};

use crate::addon_runs::FileTidy;
use crate::commit_messages::commit_message;
use crate::component_view::ComponentView;
use crate::git_identity::author_of;
use crate::{Service, ServiceError, ServiceResult};

/// What a commit of pending edits did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Committed {
    /// A commit was made.
    pub made: bool,
    /// Files or strings that could not be written, each with why; their
    /// strings stay pending.
    pub problems: Vec<String>,
}

impl Committed {
    /// The answer of a repository operation that committed: success, or
    /// failure with what could not be written.
    pub(crate) fn answer(&self) -> crate::repository::OperationResult {
        if self.problems.is_empty() {
            (true, None)
        } else {
            (false, Some(self.problems.join("\n")))
        }
    }
}

/// Writes `pending` units into the file `bytes` of `format` and takes the
/// `removed` strings out: the new bytes, and the ids of bilingual units
/// the file no longer holds (they are not written). Units are found by
/// key (monolingual) or by source and context; a key missing from a
/// monolingual file is added, and so is a string added through the API;
/// a removed string the file does not hold is gone already.
fn write_units(
    format: &str,
    path: &str,
    bytes: &[u8],
    pending: &[&UnitRow],
    removed: &[&Removal],
    monolingual: bool,
) -> Result<Written, String> {
    let mut file = tolk_formats::parse(format, path, bytes).map_err(|e| e.to_string())?;
    let read = file.units().len();
    let key = |context: &str, source: &str| {
        if monolingual {
            context.to_owned()
        } else {
            format!("{context}\u{4}{source}")
        }
    };
    let index: HashMap<String, usize> = file
        .units()
        .iter()
        .enumerate()
        .map(|(i, u)| (key(&u.context, &join_plurals(&u.source)), i))
        .collect();
    let mut missing = Vec::new();
    for unit in pending {
        let forms = split_plurals(&unit.target);
        let fuzzy = UnitState::from_code(unit.state).is_some_and(UnitState::is_fuzzy);
        match index.get(&key(&unit.context, &unit.source)) {
            Some(&i) => file
                .set_translation(i, &forms, fuzzy)
                .map_err(|e| e.to_string())?,
            None if monolingual => {
                let mut new = Unit::keyed(
                    &unit.context,
                    forms.first().map_or("", String::as_str),
                    Vec::new(),
                );
                new.target = forms;
                file.add_unit(&new).map_err(|e| e.to_string())?;
            }
            None if unit.added => {
                let mut new = Unit::new(unit.context.clone(), split_plurals(&unit.source), forms);
                new.state = tolk_formats::State::from_marks(!unit.target.is_empty(), fuzzy);
                file.add_unit(&new).map_err(|e| e.to_string())?;
            }
            None => missing.push(unit.id),
        }
    }
    // Added strings went to the end: the places found first still hold,
    // and removing from the last keeps the earlier ones.
    let mut gone: Vec<usize> = removed
        .iter()
        .filter_map(|r| index.get(&key(&r.context, &r.source)).copied())
        .collect();
    gone.sort_unstable();
    gone.dedup();
    // A string the file cannot lose alone (part of a plural group, say)
    // stays in it: the removal is reported and the next scan reads the
    // string again, instead of keeping every edit of the file pending.
    let mut refused = Vec::new();
    let mut taken_out = 0;
    for i in gone.into_iter().rev() {
        match file.remove_unit(i) {
            Ok(()) => taken_out += 1,
            Err(e) => refused.push(e.to_string()),
        }
    }
    Ok(Written {
        bytes: file.to_bytes().map_err(|e| e.to_string())?,
        missing,
        refused,
        kept: Some(read - taken_out),
    })
}

/// What writing a translation's units gave.
struct Written {
    /// The file's new bytes.
    bytes: Vec<u8>,
    /// Pending units the file no longer holds (they stay pending).
    missing: Vec<i64>,
    /// Why removed strings could not be taken out of the file.
    refused: Vec<String>,
    /// How many strings the new bytes must hold at least: those of the
    /// file as read, less the removals asked for (`None` for a document,
    /// rebuilt whole from its template).
    kept: Option<usize>,
}

/// A document format's template, parsed once per commit, with the place
/// of each string's key.
struct DocumentTemplate {
    file: DocumentFile,
    index: HashMap<String, usize>,
}

impl DocumentTemplate {
    fn new(file: DocumentFile) -> Self {
        let index = file
            .units()
            .into_iter()
            .enumerate()
            .map(|(i, u)| (u.context, i))
            .collect();
        DocumentTemplate { file, index }
    }
}

/// A translated document: its template with every translated string of
/// `units` (the translation's, pending or not) in place of the source
/// text, so a translation always has the source document's markup. The
/// ids of pending units whose string the template no longer has (they
/// are not written).
fn write_document(template: &DocumentTemplate, units: &[&UnitRow]) -> Result<Written, String> {
    let mut file = template.file.clone();
    let mut missing = Vec::new();
    for unit in units {
        match template.index.get(&unit.context) {
            // Needing editing or not: the document has no such mark, and
            // the text is kept rather than lost.
            Some(&i) if !unit.target.is_empty() => file
                .set_translation(i, std::slice::from_ref(&unit.target), false)
                .map_err(|e| e.to_string())?,
            Some(_) => {}
            None if unit.pending => missing.push(unit.id),
            None => {}
        }
    }
    Ok(Written {
        bytes: file.to_bytes().map_err(|e| e.to_string())?,
        missing,
        refused: Vec::new(),
        kept: None,
    })
}

/// The commit message of one translation's commit: the component's
/// template, then a `Co-authored-by:` line for every other editor.
fn message_with_coauthors(
    base: String,
    mine: &[&UnitRow],
    editors: &HashMap<i64, users::UserRow>,
    last: Option<&users::UserRow>,
) -> String {
    let author = last.map(|l| author_of(Some(l)));
    let mut others: Vec<Identity> = Vec::new();
    for unit in mine {
        if let Some(user) = editors.get(&unit.id) {
            let who = author_of(Some(user));
            if Some(&who) != author.as_ref() && !others.contains(&who) {
                others.push(who);
            }
        }
    }
    let mut message = base;
    if !others.is_empty() {
        message.push('\n');
        for who in &others {
            message.push_str(&format!("\nCo-authored-by: {} <{}>", who.name, who.email));
        }
    }
    message
}

/// The pending units of a component with what their commits need.
struct Pending {
    translations: Vec<Translation>,
    units: Vec<UnitRow>,
    removals: Vec<Removal>,
    editors: HashMap<i64, users::UserRow>,
    language_names: HashMap<i64, String>,
}

/// What writing one translation's file did.
struct FileWritten {
    /// The pending units written.
    ids: Vec<i64>,
    /// Why some or all stay pending.
    problem: Option<String>,
    /// The file was written, its removals made.
    written: bool,
    /// A commit was made.
    made: bool,
}

/// One translation's file written and committed: the ids written, or why not.
struct FileCommit<'a> {
    repo: &'a Repository,
    tree: &'a WorkTree,
    format: &'a str,
    monolingual: bool,
    /// For a document format, its template, or why it could not be read.
    document: Option<Result<DocumentTemplate, String>>,
    /// What add-ons do to each file written.
    tidy: FileTidy,
}

impl FileCommit<'_> {
    /// Checks that `bytes`, a translation file about to be written, hold
    /// every string they must: those of the file as read less the removals
    /// asked for (`kept`), and for a bilingual file every string the
    /// database holds for the translation (each is one of the file's).
    /// A file cut short or emptied by a crash or another program is
    /// refused here, before it can be committed and pushed; its edits
    /// stay pending. Why, when it is refused.
    fn holds_enough(
        &self,
        translation: &Translation,
        bytes: &[u8],
        kept: usize,
    ) -> Result<(), String> {
        let path = &translation.filename;
        let held = tolk_formats::parse(self.format, path, bytes)
            .map_err(|e| format!("the file as it would be written cannot be read back ({e})"))?
            .units()
            .len();
        let stored = if self.monolingual {
            0
        } else {
            usize::try_from(translation.counters.total.strings).unwrap_or(0)
        };
        let needed = kept.max(stored);
        if held < needed {
            return Err(format!(
                "written, the file would hold {held} strings where {needed} are expected \
                 (the file on disk or in Git may be damaged), so it was not written"
            ));
        }
        Ok(())
    }

    /// Writes `mine` into the translation's file, takes `removed` out of it
    /// and commits it.
    fn run(
        &self,
        translation: &Translation,
        mine: &[&UnitRow],
        removed: &[&Removal],
        author: &Identity,
        message: &str,
    ) -> Result<FileWritten, ServiceError> {
        let path = &translation.filename;
        let unwritten = |why: String| {
            let n = mine.len() + removed.len();
            Ok(FileWritten {
                ids: Vec::new(),
                problem: Some(format!("{path}: {why}; {n} strings stay pending")),
                written: false,
                made: false,
            })
        };
        let bytes = match self.tree.read(path) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => return unwritten("the file does not exist".into()),
            Err(tolk_vcs::VcsError::Refused { reason, .. }) => return unwritten(reason),
            Err(e) => return Err(e.into()),
        };
        let written = match &self.document {
            Some(Ok(template)) => write_document(template, mine),
            Some(Err(why)) => Err(why.clone()),
            None => write_units(self.format, path, &bytes, mine, removed, self.monolingual),
        };
        let Written {
            bytes: new,
            missing,
            refused,
            kept,
        } = match written {
            Ok(written) => written,
            Err(why) => return unwritten(why),
        };
        if let Some(kept) = kept
            && let Err(why) = self.holds_enough(translation, &new, kept)
        {
            return unwritten(why);
        }
        let new = match self.tidy.apply(self.format, path, new) {
            Ok(new) => new,
            Err(why) => return unwritten(why),
        };
        if new != bytes {
            self.tree.write(path, &new)?;
        }
        let mut problems = Vec::new();
        let mut paths = vec![path.clone()];
        // `gettext.mo`: the compiled catalogue goes into the same commit.
        match self.tidy.compiled(path, &translation.language_code, &new) {
            Some(Ok((compiled, mo))) => match self.tree.write(&compiled, &mo) {
                Ok(()) => paths.push(compiled),
                Err(e) => problems.push(format!("{compiled}: {e}")),
            },
            Some(Err(why)) => problems.push(format!("{path}: {why}")),
            None => {}
        }
        let made = self.repo.commit(&paths, author, message)?.is_some();
        let ids = mine
            .iter()
            .filter(|u| u.pending)
            .map(|u| u.id)
            .filter(|id| !missing.contains(id))
            .collect();
        if !missing.is_empty() {
            problems.push(format!(
                "{path}: {} strings are no longer in the file; they stay pending",
                missing.len()
            ));
        }
        if let Some(why) = refused.first() {
            problems.push(format!(
                "{path}: {} removed strings stay in the file and come back at the next scan: {why}",
                refused.len()
            ));
        }
        let problem = (!problems.is_empty()).then(|| problems.join("; "));
        Ok(FileWritten {
            ids,
            problem,
            written: true,
            made,
        })
    }
}

impl Service {
    /// The pending units (with `all`, every unit) of a component's
    /// translations, their last editors and the languages' names.
    fn pending_of(&self, component_id: i64, all: bool) -> ServiceResult<Pending> {
        self.store.read(|conn| {
            let translations = translations::of_component(conn, component_id)?;
            let language_ids: Vec<i64> = translations.iter().map(|t| t.language_id).collect();
            let language_names = languages::get_by_ids(conn, &language_ids)?
                .into_iter()
                .map(|l| (l.id, l.name))
                .collect();
            let ids: Vec<i64> = translations.iter().map(|t| t.id).collect();
            let units = units::to_write(conn, &ids, all)?;
            let removals = unit_removals::of_translations(conn, &ids)?;
            let unit_ids: Vec<i64> = units.iter().map(|u| u.id).collect();
            let editors = changes::last_editors(conn, &unit_ids)?;
            let mut user_ids: Vec<i64> = editors.values().copied().collect();
            user_ids.sort_unstable();
            user_ids.dedup();
            let people: HashMap<i64, users::UserRow> = users::get_by_ids(conn, &user_ids)?
                .into_iter()
                .map(|u| (u.id, u))
                .collect();
            let editors = editors
                .into_iter()
                .filter_map(|(unit, user)| Some((unit, people.get(&user)?.clone())))
                .collect();
            Ok(Pending {
                translations,
                units,
                removals,
                editors,
                language_names,
            })
        })
    }

    /// Writes the pending units (with `all`, every unit) of each
    /// translation into its file and commits each translation's file as
    /// its last editor, with the component's message. Edits made
    /// meanwhile, and strings that could not be written, stay pending;
    /// the latter are reported and recorded.
    pub(crate) fn commit_component(
        &self,
        view: &ComponentView,
        all: bool,
    ) -> ServiceResult<Committed> {
        let component = &view.component;
        let owner = self.repository_owner(component)?;
        let format = component.settings.file_format.as_str();
        // A document is written whole: every translated string of a
        // translation with pending ones.
        let document = tolk_formats::is_document(format);
        let pending = self.pending_of(component.id, all || document)?;
        if !pending.units.iter().any(|u| all || u.pending) && pending.removals.is_empty() {
            return Ok(Committed::default());
        }
        let effective = view.effective();
        let mut outcome = Committed::default();
        let mut written: Vec<(i64, String)> = Vec::new();
        let mut removed: Vec<(i64, i64)> = Vec::new();
        {
            let _lock = self.workspace.lock(&owner)?;
            let repo = self.workspace.open(&owner, &owner.settings.branch);
            let tree = repo.work_tree()?;
            let template = &component.settings.template;
            let tidy = self.file_tidy(view, &tree)?;
            let files = FileCommit {
                tidy,
                repo: &repo,
                tree: &tree,
                format,
                monolingual: !template.is_empty(),
                document: document.then(|| match tree.read(template) {
                    Ok(Some(bytes)) => tolk_formats::parse_document(format, template, &bytes)
                        .map(DocumentTemplate::new)
                        .map_err(|e| e.to_string()),
                    Ok(None) => Err(format!("the template {template} does not exist")),
                    Err(tolk_vcs::VcsError::Refused { reason, .. }) => {
                        Err(format!("the template {template}: {reason}"))
                    }
                    Err(e) => {
                        tracing::warn!("cannot read the template {template}: {e}");
                        Err(format!("the template {template} could not be read"))
                    }
                }),
            };
            for translation in &pending.translations {
                let mine: Vec<&UnitRow> = pending
                    .units
                    .iter()
                    .filter(|u| u.translation_id == translation.id)
                    // The source language's file takes only new strings,
                    // but a template takes its edited source strings too.
                    .filter(|u| {
                        translation.language_id != component.source_language_id
                            || u.added
                            || files.monolingual
                    })
                    .collect();
                let gone: Vec<&Removal> = pending
                    .removals
                    .iter()
                    .filter(|r| r.translation_id == translation.id)
                    .collect();
                if translation.filename.is_empty()
                    || (gone.is_empty() && !mine.iter().any(|u| all || u.pending))
                {
                    continue;
                }
                let last = mine.iter().rev().find_map(|u| pending.editors.get(&u.id));
                let name = pending
                    .language_names
                    .get(&translation.language_id)
                    .map_or("", String::as_str);
                let base = commit_message(
                    &effective.commit_message,
                    view,
                    translation,
                    name,
                    &self.config,
                );
                let message = message_with_coauthors(base, &mine, &pending.editors, last);
                let file = files.run(translation, &mine, &gone, &author_of(last), &message)?;
                if file.written {
                    removed.extend(gone.iter().map(|r| (r.translation_id, r.id_hash)));
                }
                outcome.made |= file.made;
                outcome.problems.extend(file.problem);
                written.extend(
                    mine.iter()
                        .filter(|u| u.pending && file.ids.contains(&u.id))
                        .map(|u| (u.id, u.target.clone())),
                );
            }
        }
        self.store.write(|conn| {
            units::clear_pending(conn, &written)?;
            unit_removals::forget(conn, &removed)?;
            let now = time::now();
            if outcome.made {
                let change = NewChange {
                    project_id: Some(view.project.id),
                    component_id: Some(component.id),
                    ..NewChange::new(Action::COMMIT, None)
                };
                changes::record(conn, &change, now)?;
            }
            for problem in &outcome.problems {
                let change = NewChange {
                    project_id: Some(view.project.id),
                    component_id: Some(component.id),
                    target: problem.clone(),
                    ..NewChange::new(Action::SAVE_FAILED, None)
                };
                changes::record(conn, &change, now)?;
            }
            Ok::<_, ServiceError>(())
        })?;
        Ok(outcome)
    }

    /// Who a commit made for `subject` is by: its account's name and
    /// e-mail, or Tolk for the system.
    pub(crate) fn author(&self, subject: &Subject) -> ServiceResult<Identity> {
        let ids: Vec<i64> = subject.user_id().into_iter().collect();
        let found = self.store.read(|conn| users::get_by_ids(conn, &ids))?;
        Ok(author_of(found.first()))
    }
}
