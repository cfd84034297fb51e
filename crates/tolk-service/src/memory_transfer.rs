//! Moving translation memory in and out as files, as Weblate's
//! `import_memory` and `dump_memory` commands do: TMX documents and
//! Weblate's memory JSON (a list of entries with `source`, `target`,
//! `source_language` and `target_language`). Imported entries are marked
//! as from a file, which every project's suggestions and automatic
//! translation see.

use std::collections::{HashMap, HashSet};
use std::io::Write;

use serde::{Deserialize, Serialize};
use tolk_domain::unit::id_hash;
use tolk_domain::validation::FieldErrors;
use tolk_store::memory::{self, Entry, Feed};
use tolk_store::{DbConnection, languages, time};

use crate::memory::source_hash;
use crate::{ServiceError, ServiceResult};

/// The file formats of memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryFormat {
    /// Weblate's memory JSON.
    Json,
    /// A TMX document.
    Tmx,
}

impl MemoryFormat {
    /// The format a file's name says (`.json`, `.tmx`), if any.
    pub fn of_name(name: &str) -> Option<MemoryFormat> {
        let extension = name.rsplit_once('.')?.1.to_ascii_lowercase();
        match extension.as_str() {
            "json" => Some(MemoryFormat::Json),
            "tmx" => Some(MemoryFormat::Tmx),
            _ => None,
        }
    }
}

/// An entry of Weblate's memory JSON. `context`, `origin`, `category`
/// and `status` are written on export and ignored on import (an imported
/// entry's origin is its file).
#[derive(Debug, Serialize, Deserialize)]
struct JsonEntry {
    source: String,
    #[serde(default)]
    context: String,
    target: String,
    source_language: String,
    target_language: String,
    #[serde(default)]
    origin: String,
    #[serde(default)]
    category: i64,
    #[serde(default)]
    status: i64,
}

/// Weblate's memory categories, as its JSON writes them.
const CATEGORY_FILE: i64 = 1;
const CATEGORY_SHARED: i64 = 2;
const CATEGORY_PROJECT: i64 = 10_000_000;
const CATEGORY_USER: i64 = 20_000_000;
/// An entry in use (Weblate's `status`).
const STATUS_ACTIVE: i64 = 1;

/// Entries read or written per statement.
const PAGE: i64 = 500;

/// One pair of a memory file: languages as the file names them, texts.
struct Pair {
    source_language: String,
    target_language: String,
    source: String,
    target: String,
}

/// The pairs of a file; `name` names it in errors.
fn pairs_of(name: &str, format: MemoryFormat, bytes: &[u8]) -> Result<Vec<Pair>, String> {
    match format {
        MemoryFormat::Json => {
            let entries: Vec<JsonEntry> = serde_json::from_slice(bytes)
                .map_err(|e| format!("Could not parse JSON file {name}: {e}"))?;
            Ok(entries
                .into_iter()
                .map(|e| Pair {
                    source_language: e.source_language,
                    target_language: e.target_language,
                    source: e.source,
                    target: e.target,
                })
                .collect())
        }
        MemoryFormat::Tmx => {
            let (source_language, units) =
                tolk_formats::tmx::read_variants(name, bytes).map_err(|e| e.to_string())?;
            let source_language = source_language
                .filter(|l| !l.is_empty() && l != "*all*")
                .ok_or_else(|| format!("{name}: the header names no source language (srclang)"))?;
            let mut pairs = Vec::new();
            for unit in units {
                // A unit with no variant in the source language is skipped.
                let Some(from) = unit.source_index(&source_language) else {
                    continue;
                };
                let (source_code, source) = &unit.variants[from];
                for (i, (code, text)) in unit.variants.iter().enumerate() {
                    if i != from && !text.is_empty() && !source.is_empty() {
                        pairs.push(Pair {
                            source_language: source_code.clone(),
                            target_language: code.clone(),
                            source: source.clone(),
                            target: text.clone(),
                        });
                    }
                }
            }
            Ok(pairs)
        }
    }
}

/// A file's language code as Tolk spells codes (`en-US` as `en_US`),
/// after `language_map`.
fn mapped<'a>(code: &'a str, language_map: &'a HashMap<String, String>) -> String {
    language_map
        .get(code)
        .map_or_else(|| code.replace('-', "_"), Clone::clone)
}

impl crate::memory::Memory<'_> {
    /// Imports the entries of a memory file (`name` says its format,
    /// `.json` or `.tmx`) into the memory every project sees, marked as
    /// from a file and named after it; `language_map` renames the file's
    /// language codes (`en_US` to `en`). Entries already there are
    /// skipped. Returns how many pairs the file held. A file that does not
    /// parse or names an unknown language changes nothing.
    pub fn import(
        &self,
        name: &str,
        bytes: &[u8],
        language_map: &HashMap<String, String>,
    ) -> ServiceResult<usize> {
        let refuse = |detail: String| {
            let mut errors = FieldErrors::default();
            errors.invalid("file", &detail);
            ServiceError::Validation(errors)
        };
        let format = MemoryFormat::of_name(name).ok_or_else(|| {
            refuse(format!(
                "Unsupported file extension: {name} (use .json or .tmx)"
            ))
        })?;
        let pairs = pairs_of(name, format, bytes).map_err(refuse)?;
        let codes: Vec<String> = pairs
            .iter()
            .flat_map(|p| [&p.source_language, &p.target_language])
            .map(|code| mapped(code, language_map))
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        let known = self.store.read(|conn| languages::resolve(conn, &codes))?;
        if let Some(unknown) = codes.iter().find(|code| !known.contains_key(*code)) {
            return Err(refuse(format!("Could not find language {unknown}!")));
        }
        let origin = std::path::Path::new(name)
            .file_name()
            .map_or_else(|| name.to_owned(), |n| n.to_string_lossy().to_lowercase());
        let id = |code: &str| known[&mapped(code, language_map)].row.id;
        let feeds: Vec<Feed> = pairs
            .iter()
            .map(|pair| {
                let (from, into) = (id(&pair.source_language), id(&pair.target_language));
                let identity = format!(
                    "file\u{1f}{from}\u{1f}{into}\u{1f}{}\u{1f}{}",
                    pair.source, pair.target
                );
                Feed {
                    source_language_id: from,
                    target_language_id: into,
                    source: pair.source.clone(),
                    source_hash: source_hash(&pair.source),
                    target: pair.target.clone(),
                    origin: origin.clone(),
                    project_id: None,
                    user_id: None,
                    shared: false,
                    from_file: true,
                    digest: Some(id_hash(&identity, "", false)),
                }
            })
            .collect();
        self.store
            .write(|conn| memory::remember(conn, &feeds, time::now()))?;
        Ok(pairs.len())
    }

    /// Writes the whole memory to `out` as `format`, a page at a time;
    /// returns how many entries were written.
    pub fn export(&self, format: MemoryFormat, out: &mut dyn Write) -> ServiceResult<usize> {
        let mut codes: HashMap<i64, String> = HashMap::new();
        let sources = self.store.read(|conn| {
            let sources = memory::source_languages(conn)?;
            add_codes(conn, &mut codes, &sources)?;
            Ok::<_, ServiceError>(sources)
        })?;
        let io = ServiceError::writing("the memory");
        let source = match sources.as_slice() {
            [one] => codes.get(one).cloned().unwrap_or_default(),
            _ => "*all*".to_owned(),
        };
        let mut sink = match format {
            MemoryFormat::Json => {
                out.write_all(b"[").map_err(io)?;
                Sink::Json { out, first: true }
            }
            MemoryFormat::Tmx => {
                Sink::Tmx(tolk_formats::tmx::PairWriter::start(out, &source).map_err(io)?)
            }
        };
        let (mut after, mut written) = (0, 0);
        loop {
            let page = self.store.read(|conn| {
                let page = memory::after(conn, after, PAGE)?;
                let ids: Vec<i64> = page.iter().map(|e| e.target_language_id).collect();
                add_codes(conn, &mut codes, &ids)?;
                Ok::<_, ServiceError>(page)
            })?;
            let Some(last) = page.last() else { break };
            after = last.id;
            let code = |id: i64| codes.get(&id).map_or("", String::as_str);
            for entry in &page {
                let languages = (
                    code(entry.source_language_id),
                    code(entry.target_language_id),
                );
                sink.write(entry, languages).map_err(io)?;
                written += 1;
            }
        }
        sink.finish().map_err(io)?;
        Ok(written)
    }
}

/// Where an export writes, in its format.
enum Sink<'a> {
    /// A JSON list, its entries one per line.
    Json { out: &'a mut dyn Write, first: bool },
    /// A TMX document.
    Tmx(tolk_formats::tmx::PairWriter<&'a mut dyn Write>),
}

impl Sink<'_> {
    /// Writes `entry`, whose languages' codes are `languages`.
    fn write(&mut self, entry: &Entry, languages: (&str, &str)) -> std::io::Result<()> {
        match self {
            Sink::Tmx(writer) => {
                writer.pair(languages.0, languages.1, &entry.source, &entry.target)
            }
            Sink::Json { out, first } => {
                let line = serde_json::to_string(&json_entry(entry, languages))?;
                out.write_all(if *first { b"\n" } else { b",\n" })?;
                *first = false;
                out.write_all(line.as_bytes())
            }
        }
    }

    /// Ends the document.
    fn finish(self) -> std::io::Result<()> {
        match self {
            Sink::Tmx(writer) => writer.finish().map(drop),
            Sink::Json { out, .. } => out.write_all(b"\n]\n"),
        }
    }
}

/// Adds the codes of the languages `ids` that `codes` lacks.
fn add_codes(
    conn: &mut DbConnection,
    codes: &mut HashMap<i64, String>,
    ids: &[i64],
) -> ServiceResult<()> {
    let missing: Vec<i64> = ids
        .iter()
        .copied()
        .filter(|id| !codes.contains_key(id))
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    if !missing.is_empty() {
        for row in languages::get_by_ids(conn, &missing)? {
            codes.insert(row.id, row.code);
        }
    }
    Ok(())
}

/// An entry as Weblate's memory JSON writes it.
fn json_entry(entry: &Entry, (source_language, target_language): (&str, &str)) -> JsonEntry {
    let category = if entry.from_file {
        CATEGORY_FILE
    } else if entry.shared {
        CATEGORY_SHARED
    } else if let Some(project) = entry.project_id {
        CATEGORY_PROJECT + project
    } else {
        entry.user_id.map_or(0, |user| CATEGORY_USER + user)
    };
    JsonEntry {
        source: entry.source.clone(),
        context: String::new(),
        target: entry.target.clone(),
        source_language: source_language.to_owned(),
        target_language: target_language.to_owned(),
        origin: entry.origin.clone(),
        category,
        status: STATUS_ACTIVE,
    }
}
