//! `tolk file …`: the file codecs on the command line, without a server.

use std::io::Write;
use std::path::PathBuf;

use clap::Subcommand;

/// File commands.
#[derive(Debug, Subcommand)]
pub enum FileCommand {
    /// Print the unit, translated, fuzzy and obsolete counts as one JSON object.
    Stats {
        /// The file.
        path: PathBuf,
        /// Format id, e.g. `po`.
        #[arg(long)]
        format: String,
    },
    /// Convert a file to another format (new files: po, mo).
    Convert {
        /// The input file.
        input: PathBuf,
        /// Format id of the input.
        #[arg(long)]
        from: String,
        /// Format id of the output.
        #[arg(long)]
        to: String,
        /// Where to write; standard output when absent.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Parse the file and write it back to standard output.
    Roundtrip {
        /// The file.
        path: PathBuf,
        /// Format id, e.g. `po`.
        #[arg(long)]
        format: String,
    },
}

fn open(path: &PathBuf, format: &str) -> Result<Box<dyn tolk_formats::TranslationFile>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    tolk_formats::parse(format, &path.display().to_string(), &bytes).map_err(|e| e.to_string())
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
        FileCommand::Stats { path, format } => {
            println!("{}", open(&path, &format)?.stats().to_json());
        }
        FileCommand::Roundtrip { path, format } => {
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
        } => {
            let file = open(&input, &from)?;
            let name = output.as_ref().unwrap_or(&input).display().to_string();
            let bytes =
                tolk_formats::write_new(&to, &name, file.header_text().as_deref(), &file.units())
                    .map_err(|e| e.to_string())?;
            emit(output.as_ref(), &bytes)?;
        }
    }
    Ok(())
}
