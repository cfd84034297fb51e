//! The first half of a scan, with no transaction open: a component's
//! files read from its work tree (translations by the file mask, the
//! template, the intermediate file, the base), each broken file left out
//! with its reason.

use std::collections::HashSet;

use tolk_domain::component::ComponentSettings;
use tolk_formats::{TranslationFile, Unit};
use tolk_vcs::Repository;

use crate::ServiceError;
use crate::nul::read_units;
use crate::tasks::Run;

/// How a scan's log line about a file it left out begins (`skipped
/// PATH: why`), for whoever reads the log for them.
pub const SKIPPED: &str = "skipped";

/// One translation file as read.
pub(crate) struct FileRead {
    pub(crate) path: String,
    pub(crate) code: String,
    pub(crate) units: Vec<Unit>,
    /// A document written for another version of its template: the
    /// database keeps the translations, the file is written anew at the
    /// translation's next commit.
    pub(crate) stale: bool,
}

/// What a component's work tree holds.
pub(crate) struct Snapshot {
    /// The file of the source language, if any (template or base file).
    pub(crate) source_path: String,
    /// The source strings.
    pub(crate) source_units: Vec<Unit>,
    /// The translation files.
    pub(crate) files: Vec<FileRead>,
    /// Translation files refused or left out, with the reason.
    pub(crate) problems: Vec<String>,
    /// Every file of the work tree, read or refused.
    pub(crate) present: HashSet<String>,
    /// The work tree's head.
    pub(crate) revision: String,
}

/// A document of `format`, as a scan failure when it cannot be read.
pub(crate) fn parse_document(
    format: &str,
    path: &str,
    bytes: &[u8],
) -> Result<tolk_formats::DocumentFile, ServiceError> {
    let document = tolk_formats::parse_document(format, path, bytes)?;
    crate::nul::refuse_nul(path, bytes, &document.units()).map_err(ServiceError::UnreadableFile)?;
    Ok(document)
}

/// Reads the files of a component from its work tree. Files are reached
/// only inside it: a translation file, template or base that is a link
/// (or leads outside) is refused by name; a refused or broken translation
/// file is left out (with its reason in `problems`), not the component.
pub(crate) fn read_tree(
    repo: &Repository,
    settings: &ComponentSettings,
    run: &Run<'_>,
) -> Result<Snapshot, ServiceError> {
    let mask = settings
        .mask()
        .ok_or_else(|| ServiceError::InvalidFileMask(settings.filemask.clone()))?;
    let tree = repo.work_tree()?;
    let read = |path: &str| -> Result<Vec<u8>, ServiceError> {
        tree.read(path)?
            .ok_or_else(|| ServiceError::MissingFile(path.to_owned()))
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
            read_units(format, &settings.template, &bytes).map_err(ServiceError::UnreadableFile)?
        })
    };
    let intermediate = if template.is_none() || settings.intermediate.is_empty() {
        None
    } else {
        let bytes = read(&settings.intermediate)?;
        Some(
            read_units(format, &settings.intermediate, &bytes)
                .map_err(ServiceError::UnreadableFile)?,
        )
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
                        &read_units(format, &path, &bytes).map_err(ServiceError::UnreadableFile)?,
                    ),
                    false,
                ),
                (None, None) => (
                    read_units(format, &path, &bytes).map_err(ServiceError::UnreadableFile)?,
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
                .map_err(ServiceError::UnreadableFile)?,
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
pub(crate) fn union_of_sources(files: &[FileRead]) -> Vec<Unit> {
    let mut seen = std::collections::HashSet::new();
    files
        .iter()
        .flat_map(|f| f.units.iter())
        .filter(|u| seen.insert((u.context.clone(), u.source.clone())))
        .cloned()
        .collect()
}
