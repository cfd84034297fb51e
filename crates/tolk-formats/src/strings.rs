//! Apple `.strings` files (`strings`): `"key" = "value";` entries with
//! `/* … */` or `//` comments, in UTF-8 or in UTF-16 with a byte order
//! mark. The comment just before an entry is its developer note.
//!
//! The original text (and encoding) is kept; an edit replaces the one
//! quoted value token.

use std::ops::Range;

use crate::edits::{SpanEdits, line_at, removal_span, set_token, utf8};
use crate::error::{FormatError, ensure_new, single_new_value, unit_at};
use crate::translation_file::TranslationFile;
use crate::unit::Unit;

/// How the file's bytes encode its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Utf8,
    Utf16Le,
    Utf16Be,
}

/// One entry.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    key: String,
    value: String,
    /// The quoted value token.
    span: Range<usize>,
    /// The whole `key = value;` entry.
    entry: Range<usize>,
    note: Option<String>,
}

/// A parsed `.strings` file.
#[derive(Debug, Clone)]
pub struct StringsFile {
    name: String,
    text: String,
    encoding: Encoding,
    entries: Vec<Entry>,
    edits: SpanEdits,
}

/// Decodes UTF-16 bytes (after the byte order mark).
fn utf16(name: &str, bytes: &[u8], little: bool) -> Result<String, FormatError> {
    if !bytes.len().is_multiple_of(2) {
        return Err(FormatError::new(
            name,
            0,
            "odd number of bytes in a UTF-16 file",
        ));
    }
    let units = bytes.chunks_exact(2).map(|pair| {
        let pair = [pair[0], pair[1]];
        if little {
            u16::from_le_bytes(pair)
        } else {
            u16::from_be_bytes(pair)
        }
    });
    let mut text = String::with_capacity(bytes.len() / 2);
    for c in char::decode_utf16(units) {
        match c {
            Ok(c) => text.push(c),
            Err(_) => {
                let line = text.matches('\n').count() + 1;
                return Err(FormatError::new(name, line, "invalid UTF-16"));
            }
        }
    }
    Ok(text)
}

/// Reads the entries of the text.
struct Reader<'a> {
    name: &'a str,
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn error(&self, message: &str) -> FormatError {
        FormatError::new(self.name, line_at(self.bytes, self.pos), message)
    }

    /// Skips white space and comments; returns the last comment's text.
    fn skip(&mut self) -> Result<Option<String>, FormatError> {
        let mut comment = None;
        loop {
            let rest = &self.text[self.pos..];
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            if let Some(body) = trimmed.strip_prefix("/*") {
                let end = body
                    .find("*/")
                    .ok_or_else(|| self.error("the comment is not closed"))?;
                comment = Some(body[..end].trim().to_owned());
                self.pos += end + 4;
            } else if let Some(body) = trimmed.strip_prefix("//") {
                let end = body.find('\n').unwrap_or(body.len());
                comment = Some(body[..end].trim().to_owned());
                self.pos += end + 2;
            } else {
                return Ok(comment);
            }
        }
    }

    fn expect(&mut self, byte: u8, what: &str) -> Result<(), FormatError> {
        self.skip()?;
        if self.bytes.get(self.pos) == Some(&byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected {what}")))
        }
    }

    /// A quoted string or a bare word, with its span.
    fn token(&mut self) -> Result<(String, Range<usize>), FormatError> {
        self.skip()?;
        let start = self.pos;
        if self.bytes.get(self.pos) != Some(&b'"') {
            let len = self.text[start..]
                .find(|c: char| !(c.is_alphanumeric() || "_.-$:/".contains(c)))
                .unwrap_or(self.text.len() - start);
            if len == 0 {
                return Err(self.error("expected a quoted string"));
            }
            self.pos += len;
            return Ok((self.text[start..self.pos].to_owned(), start..self.pos));
        }
        self.pos += 1;
        let mut value = String::new();
        loop {
            let rest = &self.text[self.pos..];
            let at = rest
                .find(['"', '\\'])
                .ok_or_else(|| self.error("the string is not closed"))?;
            value.push_str(&rest[..at]);
            self.pos += at + 1;
            if rest.as_bytes()[at] == b'"' {
                return Ok((value, start..self.pos));
            }
            let escaped = self.text[self.pos..]
                .chars()
                .next()
                .ok_or_else(|| self.error("the string is not closed"))?;
            self.pos += escaped.len_utf8();
            match escaped {
                'n' => value.push('\n'),
                't' => value.push('\t'),
                'r' => value.push('\r'),
                '0' => value.push('\0'),
                'u' | 'U' => {
                    let hex = self.text.get(self.pos..self.pos + 4).unwrap_or("");
                    let c = u32::from_str_radix(hex, 16)
                        .ok()
                        .and_then(char::from_u32)
                        .ok_or_else(|| self.error("invalid \\U escape"))?;
                    value.push(c);
                    self.pos += 4;
                }
                other => value.push(other),
            }
        }
    }

    fn entries(&mut self) -> Result<Vec<Entry>, FormatError> {
        let mut entries = Vec::new();
        loop {
            let note = self.skip()?;
            if self.pos >= self.text.len() {
                return Ok(entries);
            }
            let start = self.pos;
            let (key, _) = self.token()?;
            self.expect(b'=', "'=' after the key")?;
            let (value, span) = self.token()?;
            self.expect(b';', "';' after the value")?;
            entries.push(Entry {
                key,
                value,
                span,
                entry: start..self.pos,
                note,
            });
        }
    }
}

/// `value` as a quoted `.strings` token.
fn quote(value: &str) -> String {
    crate::edits::backslash_quoted(value, |c| (c == '\0').then(|| "\\0".to_owned()))
}

/// The lines of a new entry: its notes as comments, then `"key" = "value";`.
fn entry(unit: &Unit, value: &str) -> String {
    let mut out: String = unit
        .developer_notes
        .iter()
        .map(|note| format!("/* {} */\n", note.replace("*/", "* /")))
        .collect();
    out.push_str(&format!("{} = {};\n", quote(&unit.context), quote(value)));
    out
}

/// A new UTF-8 .strings file of single-valued keyed `units`.
pub(crate) fn write_new(units: &[Unit]) -> String {
    units
        .iter()
        .map(|u| entry(u, u.target.first().map_or("", String::as_str)))
        .collect()
}

impl StringsFile {
    /// Parses a `.strings` file; `name` is used in error messages.
    pub fn parse(name: &str, bytes: &[u8]) -> Result<StringsFile, FormatError> {
        let (encoding, text) = match bytes {
            [0xff, 0xfe, rest @ ..] => (Encoding::Utf16Le, utf16(name, rest, true)?),
            [0xfe, 0xff, rest @ ..] => (Encoding::Utf16Be, utf16(name, rest, false)?),
            _ => (Encoding::Utf8, utf8(name, bytes)?.to_owned()),
        };
        let entries = Reader {
            name,
            text: &text,
            bytes: text.as_bytes(),
            pos: usize::from(text.starts_with('\u{feff}')) * 3,
        }
        .entries()?;
        Ok(StringsFile {
            name: name.to_owned(),
            text,
            encoding,
            entries,
            edits: SpanEdits::default(),
        })
    }
}

impl TranslationFile for StringsFile {
    fn units(&self) -> Vec<Unit> {
        self.entries
            .iter()
            .map(|e| Unit::keyed(&e.key, &e.value, e.note.iter().cloned().collect()))
            .collect()
    }

    fn set_translation(
        &mut self,
        index: usize,
        target: &[String],
        fuzzy: bool,
    ) -> Result<(), FormatError> {
        let entry = unit_at(&mut self.entries, index, &self.name)?;
        entry.value = set_token(
            &self.name,
            &self.text,
            &mut self.edits,
            &entry.span,
            ".strings",
            target,
            fuzzy,
            quote,
        )?;
        Ok(())
    }

    fn add_unit(&mut self, unit: &Unit) -> Result<(), FormatError> {
        ensure_new(&self.name, &self.units(), unit, true)?;
        let value = single_new_value(&self.name, ".strings", unit)?;
        let mut text = self.edits.apply(&self.text);
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&entry(unit, value));
        let next = StringsFile {
            text,
            edits: SpanEdits::default(),
            ..self.clone()
        };
        *self = StringsFile::parse(&self.name, &next.to_bytes()?)?;
        Ok(())
    }

    fn remove_unit(&mut self, index: usize) -> Result<(), FormatError> {
        let entry = unit_at(&mut self.entries, index, &self.name)?;
        let span = removal_span(&self.text, entry.entry.clone());
        let mut next = self.clone();
        next.edits.replace(span, String::new());
        *self = StringsFile::parse(&self.name, &next.to_bytes()?)?;
        Ok(())
    }

    fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        let text = self.edits.apply(&self.text);
        Ok(match self.encoding {
            Encoding::Utf8 => text.into_bytes(),
            Encoding::Utf16Le => [0xff, 0xfe]
                .into_iter()
                .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
                .collect(),
            Encoding::Utf16Be => [0xfe, 0xff]
                .into_iter()
                .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "/* Greeting */\n\"hello\" = \"Ahoj \\\"světe\\\"\\n\";\n\n// Bare key\nbye=\"Na shle\\U00e1\";\n\"empty\" = \"\";\n";

    #[test]
    fn reads_notes_escapes_and_keys() {
        let file = StringsFile::parse("L.strings", SAMPLE.as_bytes()).unwrap();
        let units = file.units();
        let shape = crate::unit::keyed_values(&units);
        assert_eq!(
            shape,
            vec![
                ("hello", "Ahoj \"světe\"\n"),
                ("bye", "Na shleá"),
                ("empty", "")
            ]
        );
        assert_eq!(units[0].developer_notes, vec!["Greeting"]);
        assert_eq!(units[1].developer_notes, vec!["Bare key"]);
        assert_eq!(file.stats().translated, 2);
        assert_eq!(file.to_bytes().unwrap(), SAMPLE.as_bytes());
    }

    #[test]
    fn utf16_files_stay_utf16() {
        let mut bytes = vec![0xff, 0xfe];
        bytes.extend(SAMPLE.encode_utf16().flat_map(u16::to_le_bytes));
        let mut file = StringsFile::parse("L.strings", &bytes).unwrap();
        assert_eq!(file.to_bytes().unwrap(), bytes);
        file.set_translation(2, &["Prázdné \"ne\"".into()], false)
            .unwrap();
        let written = file.to_bytes().unwrap();
        let expected = SAMPLE.replace("\"empty\" = \"\";", "\"empty\" = \"Prázdné \\\"ne\\\"\";");
        let mut expected_bytes = vec![0xff, 0xfe];
        expected_bytes.extend(expected.encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(written, expected_bytes);
    }

    #[test]
    fn broken_files_name_the_line() {
        let err = StringsFile::parse("L.strings", b"\"a\" = \"b\";\n\"c\" \"d\";").unwrap_err();
        assert_eq!(err.line, 2, "{err}");
        assert!(StringsFile::parse("L.strings", b"/* open").is_err());
        assert!(StringsFile::parse("L.strings", b"\"a\" = \"b").is_err());
        assert!(StringsFile::parse("L.strings", &[0xff, 0xfe, 0x00]).is_err());
        assert!(StringsFile::parse("L.strings", &[0xff, 0xfe, 0x00, 0xd8]).is_err());
    }
}
