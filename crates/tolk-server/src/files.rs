//! `tolk file …`: the file codecs on the command line, without a server.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;

/// File commands.
#[derive(Debug, Subcommand)]
pub enum FileCommand {
    /// Print the unit, translated, fuzzy and obsolete counts as one JSON object.
    Stats {
        /// The file.
        path: PathBuf,
        /// Format id, e.g. `po`.
        #[arg(long, value_parser = readable())]
        format: String,
        /// The template of a monolingual file: its keys are the units and
        /// its values the source strings.
        #[arg(long)]
        template: Option<PathBuf>,
        /// The file's language code; plural units with another number of
        /// forms than the language has are reported.
        #[arg(long)]
        language: Option<String>,
    },
    /// Convert a file to another format.
    Convert {
        /// The input file.
        input: PathBuf,
        /// Format id of the input.
        #[arg(long, value_parser = readable())]
        from: String,
        /// Format id of the output.
        #[arg(long, value_parser = writable())]
        to: String,
        /// The file's language code: written into the new file's header
        /// (`Language`, `Plural-Forms`); `ne_NP` falls back to `ne`.
        #[arg(long)]
        language: Option<String>,
        /// Where to write; standard output when absent.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Parse the file and write it back to standard output.
    Roundtrip {
        /// The file.
        path: PathBuf,
        /// Format id, e.g. `po`.
        #[arg(long, value_parser = readable())]
        format: String,
        /// The template of a monolingual file (checked to read too).
        #[arg(long)]
        template: Option<PathBuf>,
    },
}

/// The format ids files can be read in, for the help and the checks of `--format`.
fn readable() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(tolk_formats::readable())
}

/// The format ids new files can be written in.
fn writable() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(tolk_formats::writable())
}

fn open(path: &PathBuf, format: &str) -> Result<Box<dyn tolk_formats::TranslationFile>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    tolk_formats::parse(format, &path.display().to_string(), &bytes).map_err(|e| e.to_string())
}

/// The plural units of `units` whose number of translation forms is not
/// the plural count of language `code`.
fn plural_warnings(
    path: &Path,
    units: &[tolk_formats::Unit],
    code: &str,
) -> Result<Vec<String>, String> {
    let language = language(code)?;
    let forms = usize::try_from(language.plurals[0].number).unwrap_or(1);
    Ok(units
        .iter()
        .filter(|u| u.has_plurals() && u.target.len() != forms)
        .map(|u| {
            format!(
                "{}: unit {:?} has {} translation forms, {} has {forms}",
                path.display(),
                u.context_or_source(),
                u.target.len(),
                language.code
            )
        })
        .collect())
}

/// A language code compared without case and with `_` for `-`.
fn normalize(code: &str) -> String {
    code.replace('-', "_").to_ascii_lowercase()
}

/// The built-in language of `code` (or of an alias), else of the code
/// without its country or script (`ne_NP` is `ne`), as Weblate matches.
fn language(code: &str) -> Result<tolk_domain::language::LanguageSeed, String> {
    let languages = tolk_domain::language::builtin_languages();
    let find = |wanted: &str| {
        languages
            .iter()
            .find(|l| {
                normalize(&l.code) == wanted || l.aliases.iter().any(|a| normalize(a) == wanted)
            })
            .cloned()
    };
    let wanted = normalize(code);
    find(&wanted)
        .or_else(|| wanted.split_once('_').and_then(|(base, _)| find(base)))
        .ok_or_else(|| format!("unknown language code {code:?}"))
}

/// The header of a converted file: the input's (or a default one), with
/// the language and its plural rule when the language is given.
fn converted_header(header: Option<String>, code: Option<&str>) -> Result<Option<String>, String> {
    let Some(code) = code else {
        return Ok(header);
    };
    let language = language(code)?;
    let plural = &language.plurals[0];
    let header = header.unwrap_or_else(|| tolk_formats::po::DEFAULT_HEADER.to_owned());
    let header = tolk_formats::po::set_header_field(&header, "Language", &language.code);
    Ok(Some(tolk_formats::po::set_header_field(
        &header,
        "Plural-Forms",
        &format!("nplurals={}; plural={};", plural.number, plural.formula),
    )))
}

/// Writes to the file, or to standard output.
fn emit(output: Option<&PathBuf>, bytes: &[u8]) -> Result<(), String> {
    match output {
        Some(path) => {
            std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
        None => std::io::stdout()
            .write_all(bytes)
            .map_err(|e| format!("cannot write: {e}")),
    }
}

/// Runs a file command.
pub fn run(command: FileCommand) -> Result<(), String> {
    match command {
        FileCommand::Stats {
            path,
            format,
            template,
            language,
        } => {
            let file = open(&path, &format)?;
            let units = match &template {
                Some(template) => {
                    tolk_formats::with_template(&open(template, &format)?.units(), &file.units())
                }
                None => file.units(),
            };
            for warning in file.warnings() {
                eprintln!("warning: {warning}");
            }
            if let Some(code) = &language {
                for warning in plural_warnings(&path, &units, code)? {
                    eprintln!("warning: {warning}");
                }
            }
            let stats = tolk_formats::stats::FileStats::count(&units, file.obsolete_count());
            println!("{}", stats.to_json());
        }
        FileCommand::Roundtrip {
            path,
            format,
            template,
        } => {
            if let Some(template) = &template {
                open(template, &format)?;
            }
            let bytes = open(&path, &format)?
                .to_bytes()
                .map_err(|e| e.to_string())?;
            emit(None, &bytes)?;
        }
        FileCommand::Convert {
            input,
            from,
            to,
            output,
            language,
        } => {
            let file = open(&input, &from)?;
            let name = output.as_ref().unwrap_or(&input).display().to_string();
            let header = converted_header(file.header_text(), language.as_deref())?;
            let bytes = tolk_formats::write_new(&to, &name, header.as_deref(), &file.units())
                .map_err(|e| e.to_string())?;
            emit(output.as_ref(), &bytes)?;
        }
    }
    Ok(())
}
