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
            std::io::stdout()
                .write_all(&bytes)
                .map_err(|e| format!("cannot write: {e}"))?;
        }
    }
    Ok(())
}
