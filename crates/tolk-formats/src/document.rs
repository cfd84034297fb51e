//! Documents (`html`, `markdown`): a whole text split into strings, one per
//! block (a paragraph, a heading, a list item, a table cell), each with its
//! inline markup as written. Each format finds its blocks
//! ([`crate::html`], [`crate::markdown`]); what follows is common to all.
//!
//! A document is monolingual: the component's template is the source
//! document, and each string's key is its element and a fingerprint of its
//! text (`p:9f3a61c2`, with `/2`, `/3` for repeats), so a string keeps its
//! key when paragraphs are added or moved around it. A translated document
//! is read against its template by structure ([`DocumentFile::pair`]); a translation is
//! written by filling the template with the translated texts
//! ([`TranslationFile::set_translation`] on the template), so translated
//! files always follow the source document's markup, byte for byte outside
//! the strings.

use std::collections::HashMap;
use std::ops::Range;

use crate::edits::SpanEdits;
use crate::error::FormatError;
use crate::translation_file::TranslationFile;
use crate::unit::{State, Unit};

/// One translatable block of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Block {
    /// Its place in the document's structure, e.g. `body[1]/ul[1]/li[2]`:
    /// two documents have the same structure when their paths are equal.
    pub(crate) path: String,
    /// The kind of block, e.g. `li`; it starts the key.
    pub(crate) element: String,
    /// Its bytes, without surrounding white space.
    pub(crate) span: Range<usize>,
    /// The 1-based line it begins on.
    pub(crate) line: usize,
    /// Its text as shown to translators.
    pub(crate) text: String,
    /// What a line break of a translation is written with (a Markdown
    /// quote's `> `, a list item's indent), or `None` where the block is
    /// one line (a heading, a table cell).
    pub(crate) continuation: Option<String>,
}

/// What one document format adds to the common rules.
#[derive(Debug)]
pub(crate) struct Dialect {
    /// The format's name in messages.
    pub(crate) kind: &'static str,
    /// Why a translation cannot stand in a block (it would open or close
    /// blocks), if it cannot.
    pub(crate) check: fn(&str, &Block) -> Option<String>,
}

/// A parsed document.
#[derive(Debug, Clone)]
pub struct DocumentFile {
    name: String,
    original: String,
    pub(crate) blocks: Vec<Block>,
    pub(crate) keys: Vec<String>,
    edits: SpanEdits,
    dialect: &'static Dialect,
}

impl DocumentFile {
    /// The document `text` (named `name`) with its `blocks`, in order.
    pub(crate) fn new(
        name: &str,
        text: &str,
        mut blocks: Vec<Block>,
        dialect: &'static Dialect,
    ) -> Self {
        blocks.sort_by_key(|b| b.span.start);
        // Lines counted once, from one block to the next.
        let (mut line, mut at) = (1, 0);
        for block in &mut blocks {
            line += text.as_bytes()[at..block.span.start]
                .iter()
                .filter(|b| **b == b'\n')
                .count();
            at = block.span.start;
            block.line = line;
        }
        DocumentFile {
            name: name.to_owned(),
            original: text.to_owned(),
            keys: keys(&blocks),
            blocks,
            edits: SpanEdits::default(),
            dialect,
        }
    }

    /// Reads `translation` (a translated document) against this one, its
    /// template, block by block.
    pub fn pair(&self, translation: &DocumentFile) -> Paired {
        let units: Vec<Unit> = self
            .units()
            .into_iter()
            .map(|unit| Unit {
                target: vec![String::new()],
                state: State::Untranslated,
                ..unit
            })
            .collect();
        let same_structure = self.blocks.len() == translation.blocks.len()
            && self
                .blocks
                .iter()
                .zip(&translation.blocks)
                .all(|(a, b)| a.path == b.path);
        if !same_structure {
            return Paired::Stale(units);
        }
        Paired::Units(
            units
                .into_iter()
                .zip(&translation.blocks)
                .map(|(unit, block)| {
                    if block.text == unit.source[0] {
                        return unit;
                    }
                    Unit {
                        target: vec![block.text.clone()],
                        state: State::Translated,
                        ..unit
                    }
                })
                .collect(),
        )
    }
}

/// The keys of `blocks`: element and fingerprint of the text, numbered
/// from the second time the same pair appears.
fn keys(blocks: &[Block]) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    blocks
        .iter()
        .map(|block| {
            let key = format!("{}:{:08x}", block.element, fingerprint(&block.text));
            let n = seen.entry(key.clone()).or_insert(0);
            *n += 1;
            if *n == 1 { key } else { format!("{key}/{n}") }
        })
        .collect()
}

/// FNV-1a of `text`, folded to 32 bits: stable across versions and builds.
fn fingerprint(text: &str) -> u32 {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    ((hash >> 32) ^ hash) as u32
}

impl TranslationFile for DocumentFile {
    fn units(&self) -> Vec<Unit> {
        self.blocks
            .iter()
            .zip(&self.keys)
            .map(|(block, key)| {
                let mut unit = Unit::keyed(key, &block.text, Vec::new());
                unit.source = vec![block.text.clone()];
                unit.locations = vec![format!("{}:{}", self.name, block.line)];
                unit
            })
            .collect()
    }

    fn set_translation(
        &mut self,
        index: usize,
        target: &[String],
        fuzzy: bool,
    ) -> Result<(), FormatError> {
        let block = self
            .blocks
            .get(index)
            .ok_or_else(|| FormatError::new(&self.name, 0, format!("no string number {index}")))?;
        let line = block.line;
        let kind = self.dialect.kind;
        let value = crate::error::single_value(&self.name, line, kind, target, fuzzy)?;
        // An emptied translation leaves the source text in place.
        if value.trim().is_empty() {
            return Ok(());
        }
        let value = value.trim();
        if let Some(problem) = (self.dialect.check)(value, block) {
            return Err(FormatError::new(&self.name, line, problem));
        }
        let written = match &block.continuation {
            Some(prefix) => value.replace('\n', &format!("\n{prefix}")),
            None if value.contains('\n') => {
                return Err(FormatError::new(
                    &self.name,
                    line,
                    format!("a {kind} {} is one line", block.element),
                ));
            }
            None => value.to_owned(),
        };
        self.edits.replace(block.span.clone(), written);
        Ok(())
    }

    fn add_unit(&mut self, _unit: &Unit) -> Result<(), FormatError> {
        Err(FormatError::new(
            &self.name,
            0,
            format!(
                "strings of a {} document come from its template and cannot be added",
                self.dialect.kind
            ),
        ))
    }

    fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        Ok(self.edits.apply(&self.original).into_bytes())
    }
}

/// How a translated document reads against its template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Paired {
    /// The template's strings (keys and source texts) with the translated
    /// texts; a block still equal to its source counts as untranslated (a
    /// new translation starts as a copy of the template).
    Units(Vec<Unit>),
    /// The translation has another structure than the template (written
    /// for an earlier version of it): its blocks cannot be told apart, so
    /// nothing is read from it. The template's strings, untranslated.
    Stale(Vec<Unit>),
}
