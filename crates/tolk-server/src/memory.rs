//! `tolk memory import|export`: the translation memory to and from files,
//! as Weblate's `import_memory` and `dump_memory` commands move it (TMX
//! documents and Weblate's memory JSON).

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use clap::{Subcommand, ValueEnum};
use tolk_service::memory_transfer::MemoryFormat;

use crate::config::StorageFlags;
use crate::opening::{describe, open_service, storage_settings};

/// Memory commands.
#[derive(Debug, Subcommand)]
pub enum MemoryCommand {
    /// Import a TMX or JSON file (Weblate's memory format) into the memory
    /// every project sees; entries already there are skipped.
    Import {
        /// The file: `.tmx` or `.json`.
        file: PathBuf,
        /// Map the file's language codes to Tolk's, e.g. `en_US:en,pt-BR:pt_BR`.
        #[arg(long)]
        language_map: Option<String>,
        #[command(flatten)]
        storage: StorageFlags,
    },
    /// Write the whole memory to standard output (or a file).
    Export {
        /// The format written.
        #[arg(long, value_enum, default_value = "json")]
        format: ExportFormat,
        /// Write to this file instead of standard output.
        #[arg(long)]
        output: Option<PathBuf>,
        #[command(flatten)]
        storage: StorageFlags,
    },
}

/// The formats of `tolk memory export`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    /// Weblate's memory JSON: a list of entries.
    Json,
    /// A TMX document.
    Tmx,
}

/// Runs a memory command.
pub fn run(command: MemoryCommand) -> Result<(), String> {
    match command {
        MemoryCommand::Import {
            file,
            language_map,
            storage,
        } => {
            let map = language_map_of(language_map.as_deref())?;
            let bytes = std::fs::read(&file)
                .map_err(|e| format!("Could not open file {}: {e}", file.display()))?;
            let service = open_service(&storage_settings(&storage)?)?;
            let name = file.display().to_string();
            let count = service
                .memory()
                .import(&name, &bytes, &map)
                .map_err(|e| format!("Import failed: {}", describe(e)))?;
            println!("Imported {count} translations from {name}.");
            Ok(())
        }
        MemoryCommand::Export {
            format,
            output,
            storage,
        } => {
            let service = open_service(&storage_settings(&storage)?)?;
            let format = match format {
                ExportFormat::Json => MemoryFormat::Json,
                ExportFormat::Tmx => MemoryFormat::Tmx,
            };
            let mut out: Box<dyn Write> = match &output {
                Some(path) => Box::new(std::io::BufWriter::new(
                    std::fs::File::create(path)
                        .map_err(|e| format!("Could not create {}: {e}", path.display()))?,
                )),
                None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
            };
            let count = service
                .memory()
                .export(format, &mut out)
                .map_err(describe)?;
            out.flush().map_err(|e| e.to_string())?;
            tracing::info!("exported {count} memory entries");
            Ok(())
        }
    }
}

/// The pairs of `--language-map` (`from:to`, comma-separated).
fn language_map_of(text: Option<&str>) -> Result<HashMap<String, String>, String> {
    let mut map = HashMap::new();
    for pair in text
        .unwrap_or_default()
        .split(',')
        .filter(|p| !p.trim().is_empty())
    {
        let (from, to) = pair
            .split_once(':')
            .ok_or_else(|| format!("--language-map: {pair} is not FROM:TO"))?;
        map.insert(from.trim().to_owned(), to.trim().to_owned());
    }
    Ok(map)
}
