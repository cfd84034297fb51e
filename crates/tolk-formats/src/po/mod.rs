//! Gettext PO files (`po`, and `pot` templates).
//!
//! The file is kept as its original bytes, split into lines, and each entry
//! remembers which lines it spans. Writing copies every untouched entry
//! byte for byte; an edited entry is written from its original lines with
//! only its `msgstr` lines (and, when the state changed, its flags line)
//! replaced, in the line-wrapping style of the file.

mod entry;
mod render;
mod syntax;
mod write;

pub use write::{DEFAULT_HEADER, set_header_field, write_new};

use std::ops::Range;

use encoding_rs::{Encoding, UTF_8};

use entry::Entry;

use crate::error::{FormatError, cannot_add, ensure_new, same_forms};
use crate::mo::CONTEXT_SEPARATOR;
use crate::translation_file::TranslationFile;
use crate::unit::Unit;
use syntax::{Classified, Keyword, Line, classify};

/// The UTF-8 byte order mark, kept if the file starts with one.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A parsed PO file.
#[derive(Debug, Clone)]
pub struct PoFile {
    name: String,
    source: Vec<u8>,
    /// Byte ranges of the lines, without their `\n`.
    lines: Vec<Range<usize>>,
    /// Decoded lines, without their line break.
    text: Vec<String>,
    entries: Vec<Entry>,
    encoding: &'static Encoding,
    /// Maximum line width of wrapped strings, or `None` when the file does not wrap.
    wrap: Option<usize>,
    /// Read as monolingual PO (`po-mono`): the `msgid` is each unit's key.
    monolingual: bool,
}

/// The charset named in the header, found before decoding the file.
fn detect_encoding(source: &[u8]) -> &'static Encoding {
    const NEEDLE: &[u8] = b"charset=";
    let head = &source[..source.len().min(8192)];
    head.windows(NEEDLE.len())
        .position(|w| w.eq_ignore_ascii_case(NEEDLE))
        .and_then(|at| {
            let rest = &head[at + NEEDLE.len()..];
            let end = rest
                .iter()
                .position(|b| !(b.is_ascii_alphanumeric() || *b == b'-' || *b == b'_'))
                .unwrap_or(rest.len());
            Encoding::for_label(&rest[..end])
        })
        .filter(|e| e.is_ascii_compatible())
        .unwrap_or(UTF_8)
}

/// Splits `source` into line ranges; the last range is what follows the final `\n`.
fn split_lines(source: &[u8]) -> Vec<Range<usize>> {
    let mut lines = Vec::new();
    let mut start = 0;
    for (i, b) in source.iter().enumerate() {
        if *b == b'\n' {
            lines.push(start..i);
            start = i + 1;
        }
    }
    lines.push(start..source.len());
    lines
}

/// Builds entries from classified lines.
struct EntryBuilder<'a> {
    name: &'a str,
    entries: Vec<Entry>,
    current: Entry,
    /// The keyword that continuation lines extend.
    open: Option<(Keyword, bool)>,
    seen_msgstr: bool,
}

impl EntryBuilder<'_> {
    fn error(&self, line: usize, message: impl Into<String>) -> FormatError {
        FormatError::new(self.name, line + 1, message)
    }

    /// Starts a new entry at `line` when the current one is complete.
    fn boundary(&mut self, line: usize) {
        if self.seen_msgstr {
            let mut done = std::mem::take(&mut self.current);
            done.lines.end = line;
            self.current.lines = line..line;
            self.entries.push(done);
            self.seen_msgstr = false;
            self.open = None;
        }
    }

    fn push(&mut self, index: usize, classified: Classified) -> Result<(), FormatError> {
        let Classified { obsolete, line } = classified;
        match line {
            Line::Blank => {
                self.open = None;
                return Ok(());
            }
            Line::Continuation(_) => {}
            Line::Keyword(Keyword::Msgstr(_), _) => {}
            Line::Keyword(Keyword::MsgidPlural, _) => {}
            _ => self.boundary(index),
        }
        if obsolete {
            self.current.obsolete = true;
        }
        match line {
            Line::Blank => {}
            Line::TranslatorComment(c) => self.current.translator_comments.push(c),
            Line::ExtractedComment(c) => self.current.extracted_comments.push(c),
            Line::Reference(r) => self.current.references.push(r),
            Line::Flags(flags) => {
                self.current.flags.extend(flags);
                self.current.flags_line = Some(index);
            }
            Line::Previous(Some(Keyword::Msgid), s) => {
                self.current.previous_msgid = Some(s);
                self.open = Some((Keyword::Msgid, true));
            }
            Line::Previous(Some(k), _) => self.open = Some((k, true)),
            Line::Previous(None, s) => match self.open {
                Some((Keyword::Msgid, true)) => {
                    if let Some(p) = &mut self.current.previous_msgid {
                        p.push_str(&s);
                    }
                }
                Some((_, true)) => {}
                _ => return Err(self.error(index, "a '#|' string without a keyword")),
            },
            Line::Keyword(keyword, s) => self.keyword(index, keyword, s)?,
            Line::Continuation(s) => {
                let Some((keyword, false)) = self.open else {
                    return Err(self.error(index, "a string without a keyword"));
                };
                self.append(index, keyword, &s);
            }
        }
        Ok(())
    }

    fn keyword(&mut self, index: usize, keyword: Keyword, s: String) -> Result<(), FormatError> {
        let entry = &mut self.current;
        match keyword {
            Keyword::Msgctxt => entry.msgctxt = Some(s),
            Keyword::Msgid => entry.msgid = s,
            Keyword::MsgidPlural => entry.msgid_plural = Some(s),
            Keyword::Msgstr(n) => {
                if n > 0 && entry.msgid_plural.is_none() {
                    return Err(FormatError::new(
                        self.name,
                        index + 1,
                        format!("msgstr[{n}] in an entry without msgid_plural"),
                    ));
                }
                let expected = entry.msgstr.len();
                if n != expected {
                    return Err(FormatError::new(
                        self.name,
                        index + 1,
                        format!("expected msgstr[{expected}]"),
                    ));
                }
                if entry.msgstr.is_empty() {
                    entry.msgstr_lines.start = index;
                }
                entry.msgstr_lines.end = index + 1;
                entry.msgstr.push(s);
                self.seen_msgstr = true;
            }
        }
        self.open = Some((keyword, false));
        Ok(())
    }

    fn append(&mut self, index: usize, keyword: Keyword, s: &str) {
        let entry = &mut self.current;
        match keyword {
            Keyword::Msgctxt => entry.msgctxt.get_or_insert_with(String::new).push_str(s),
            Keyword::Msgid => entry.msgid.push_str(s),
            Keyword::MsgidPlural => entry
                .msgid_plural
                .get_or_insert_with(String::new)
                .push_str(s),
            Keyword::Msgstr(_) => {
                if let Some(last) = entry.msgstr.last_mut() {
                    last.push_str(s);
                }
                entry.msgstr_lines.end = index + 1;
            }
        }
    }
}

impl PoFile {
    /// Parses a PO file; `name` is used in error messages.
    pub fn parse(name: &str, source: &[u8]) -> Result<PoFile, FormatError> {
        let encoding = detect_encoding(source);
        let lines = split_lines(source);
        let mut text = Vec::with_capacity(lines.len());
        let mut builder = EntryBuilder {
            name,
            entries: Vec::new(),
            current: Entry::default(),
            open: None,
            seen_msgstr: false,
        };
        let mut wraps = false;
        let mut widest = 0;
        for (index, range) in lines.iter().enumerate() {
            let mut bytes = &source[range.clone()];
            if index == 0 {
                bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
            }
            let decoded = encoding
                .decode_without_bom_handling_and_without_replacement(bytes)
                .ok_or_else(|| {
                    FormatError::new(name, index + 1, format!("not valid {}", encoding.name()))
                })?
                .into_owned();
            let classified =
                classify(&decoded).map_err(|m| FormatError::new(name, index + 1, m))?;
            if let Line::Continuation(s) = &classified.line {
                wraps = true;
                if !s.ends_with('\n') {
                    widest = widest.max(decoded.trim_end().chars().count());
                }
            }
            builder.push(index, classified)?;
            text.push(decoded);
        }
        let mut last = builder.current;
        last.lines.end = lines.len();
        if builder.seen_msgstr {
            builder.entries.push(last);
        } else if !last.msgid.is_empty() || last.msgctxt.is_some() || last.msgid_plural.is_some() {
            return Err(FormatError::new(
                name,
                lines.len(),
                "the last entry has no msgstr",
            ));
        } else if let Some(previous) = builder.entries.last_mut() {
            // Trailing comments and blank lines belong to the last entry.
            previous.lines.end = lines.len();
        }
        Ok(PoFile {
            name: name.to_owned(),
            source: source.to_vec(),
            lines,
            text,
            entries: builder.entries,
            encoding,
            // gettext wraps at 79 columns unless the file was written without wrapping.
            wrap: if wraps && widest > 80 { None } else { Some(79) },
            monolingual: false,
        })
    }

    /// Parses a monolingual PO file (`po-mono`), whose `msgid`s are keys:
    /// each unit's context is its key (`msgctxt` and `msgid` joined by
    /// U+0004 when there is a `msgctxt`, as in MO files).
    pub fn parse_monolingual(name: &str, source: &[u8]) -> Result<PoFile, FormatError> {
        Ok(PoFile {
            monolingual: true,
            ..PoFile::parse(name, source)?
        })
    }

    fn translatable(&self) -> impl Iterator<Item = &Entry> {
        self.entries
            .iter()
            .filter(|e| !e.is_header() && !e.obsolete)
    }

    /// Where translatable unit `index` is among the entries.
    fn position_of(&self, index: usize) -> Result<usize, FormatError> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| !e.is_header() && !e.obsolete)
            .nth(index)
            .map(|(i, _)| i)
            .ok_or_else(|| FormatError::new(&self.name, 0, format!("no unit {index}")))
    }

    /// The whole header text (the `msgstr` of the empty `msgid`).
    pub fn header_text(&self) -> String {
        self.entries
            .iter()
            .find(|e| e.is_header())
            .and_then(|h| h.msgstr.first().cloned())
            .unwrap_or_default()
    }

    /// A header field such as `Plural-Forms`.
    pub fn header(&self, field: &str) -> Option<String> {
        self.header_text().lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.trim()
                .eq_ignore_ascii_case(field)
                .then(|| value.trim().to_owned())
        })
    }
}

/// A unit of a monolingual PO file: its key (context and msgid) as context.
fn keyed_unit(unit: Unit) -> Unit {
    let msgid = unit.source.first().cloned().unwrap_or_default();
    let context = if unit.context.is_empty() {
        msgid
    } else {
        format!("{}{CONTEXT_SEPARATOR}{msgid}", unit.context)
    };
    Unit { context, ..unit }
}

/// The entry of a monolingual unit: its key split into `msgctxt` and
/// `msgid` (the key is the source of each form).
pub(crate) fn keyed_entry(unit: &Unit) -> Unit {
    let (context, msgid) = match unit.context.split_once(CONTEXT_SEPARATOR) {
        Some((context, msgid)) => (context.to_owned(), msgid.to_owned()),
        None => (String::new(), unit.context.clone()),
    };
    let mut source = vec![msgid];
    source.extend(unit.source.get(1).cloned());
    Unit {
        context,
        source,
        ..unit.clone()
    }
}

/// The `nplurals` of a `Plural-Forms` header value.
fn nplurals(plural_forms: &str) -> Option<usize> {
    plural_forms.split(';').find_map(|part| {
        let (key, value) = part.split_once('=')?;
        (key.trim() == "nplurals").then(|| value.trim().parse().ok())?
    })
}

impl TranslationFile for PoFile {
    fn units(&self) -> Vec<Unit> {
        let units = self.translatable().map(Entry::unit);
        if self.monolingual {
            units.map(keyed_unit).collect()
        } else {
            units.collect()
        }
    }

    fn obsolete_count(&self) -> usize {
        self.entries.iter().filter(|e| e.obsolete).count()
    }

    fn header_text(&self) -> Option<String> {
        Some(PoFile::header_text(self))
    }

    fn warnings(&self) -> Vec<FormatError> {
        let Some(declared) = self.header("Plural-Forms").and_then(|p| nplurals(&p)) else {
            return Vec::new();
        };
        self.translatable()
            .filter(|e| e.msgid_plural.is_some() && e.msgstr.len() != declared)
            .map(|e| {
                FormatError::new(
                    &self.name,
                    e.msgstr_lines.start + 1,
                    format!(
                        "{} translation forms, but the header's Plural-Forms declares {declared}",
                        e.msgstr.len()
                    ),
                )
            })
            .collect()
    }

    fn set_translation(
        &mut self,
        index: usize,
        target: &[String],
        fuzzy: bool,
    ) -> Result<(), FormatError> {
        let name = self.name.clone();
        let position = self.position_of(index)?;
        let entry = &self.entries[position];
        same_forms(
            &name,
            entry.msgstr_lines.start + 1,
            target.len(),
            entry.msgstr.len(),
        )?;
        let mut flags: Vec<String> = entry
            .flags
            .iter()
            .filter(|f| *f != "fuzzy")
            .cloned()
            .collect();
        if fuzzy {
            flags.insert(0, "fuzzy".into());
        }
        let edited = render::edit_entry(
            &self.text[entry.lines.clone()],
            entry,
            target,
            &flags,
            self.wrap,
        );
        let entry = &mut self.entries[position];
        entry.msgstr = target.to_vec();
        entry.flags = flags;
        entry.edited = Some(edited);
        Ok(())
    }

    fn add_unit(&mut self, unit: &Unit) -> Result<(), FormatError> {
        ensure_new(&self.name, &self.units(), unit, self.monolingual)?;
        let entry_unit;
        let unit = if self.monolingual {
            entry_unit = keyed_entry(unit);
            &entry_unit
        } else {
            unit
        };
        if unit.source.first().is_none_or(String::is_empty) {
            return Err(cannot_add(&self.name, "a string without a source text"));
        }
        let mut bytes = self.to_bytes()?;
        if !bytes.is_empty() && !bytes.ends_with(b"\n") {
            bytes.push(b'\n');
        }
        if !bytes.is_empty() && !bytes.ends_with(b"\n\n") {
            bytes.push(b'\n');
        }
        let mut entry = String::new();
        write::entry_into(&mut entry, unit, self.wrap);
        let (encoded, _, unmappable) = self.encoding.encode(&entry);
        if unmappable {
            return Err(FormatError::new(
                &self.name,
                0,
                format!("the text cannot be written in {}", self.encoding.name()),
            ));
        }
        bytes.extend_from_slice(&encoded);
        *self = PoFile {
            monolingual: self.monolingual,
            ..PoFile::parse(&self.name, &bytes)?
        };
        Ok(())
    }

    fn remove_unit(&mut self, index: usize) -> Result<(), FormatError> {
        let position = self.position_of(index)?;
        self.entries[position].edited = Some(Vec::new());
        let bytes = self.to_bytes()?;
        *self = PoFile {
            monolingual: self.monolingual,
            ..PoFile::parse(&self.name, &bytes)?
        };
        Ok(())
    }

    fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        let mut out = Vec::with_capacity(self.source.len() + 64);
        let mut first = true;
        let mut push_line = |out: &mut Vec<u8>, bytes: &[u8]| {
            if !first {
                out.push(b'\n');
            }
            first = false;
            out.extend_from_slice(bytes);
        };
        let mut covered = 0;
        for entry in &self.entries {
            for line in covered..entry.lines.start {
                push_line(&mut out, &self.source[self.lines[line].clone()]);
            }
            covered = entry.lines.end;
            match &entry.edited {
                None => {
                    for line in entry.lines.clone() {
                        push_line(&mut out, &self.source[self.lines[line].clone()]);
                    }
                }
                Some(edited) => {
                    for (offset, text) in edited.iter().enumerate() {
                        let (mut bytes, _, unmappable) = self.encoding.encode(text);
                        if entry.lines.start + offset == 0 && self.source.starts_with(BOM) {
                            bytes = [BOM, &bytes].concat().into();
                        }
                        if unmappable {
                            return Err(FormatError::new(
                                &self.name,
                                entry.lines.start + offset + 1,
                                format!("the text cannot be written in {}", self.encoding.name()),
                            ));
                        }
                        push_line(&mut out, &bytes);
                    }
                }
            }
        }
        for line in covered..self.lines.len() {
            push_line(&mut out, &self.source[self.lines[line].clone()]);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests;
