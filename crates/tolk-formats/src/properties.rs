//! Java `.properties` files (`properties`), read as `java.util.Properties`
//! does: `key = value`, `key: value` or `key value`, `#`/`!` comments,
//! lines continued by a trailing backslash, and `\uXXXX` escapes.
//!
//! Files are UTF-8 when valid, else ISO-8859-1. An edit rewrites only the
//! entry's lines, keeping its key and separator as written; files that use
//! `\u` escapes (or are Latin-1) get non-ASCII characters escaped.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::error::{FormatError, ensure_new, single_new_value, single_value, unit_at};
use crate::translation_file::TranslationFile;
use crate::unit::Unit;

/// One key and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    key: String,
    value: String,
    /// Natural lines the entry spans.
    lines: Range<usize>,
    /// The text before the value (key and separator, as written).
    prefix: String,
    /// Comment lines directly above.
    comments: Vec<String>,
}

/// A parsed properties file.
#[derive(Debug, Clone)]
pub struct PropertiesFile {
    name: String,
    /// Natural lines, each with its line break.
    lines: Vec<String>,
    entries: Vec<Entry>,
    /// Rewritten lines by entry index.
    edits: BTreeMap<usize, String>,
    /// Non-ASCII characters are written as `\u` escapes.
    ascii: bool,
    latin1: bool,
}

/// Splits text into lines that keep their `\n`, `\r\n` or `\r`.
fn split_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                lines.push(text[start..=i].to_owned());
                start = i + 1;
            }
            b'\r' => {
                let end = if bytes.get(i + 1) == Some(&b'\n') {
                    i + 1
                } else {
                    i
                };
                lines.push(text[start..=end].to_owned());
                i = end;
                start = end + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < text.len() {
        lines.push(text[start..].to_owned());
    }
    lines
}

fn content(line: &str) -> &str {
    line.trim_end_matches(['\n', '\r'])
}

/// True when the line ends with an odd number of backslashes.
fn continues(line: &str) -> bool {
    content(line)
        .chars()
        .rev()
        .take_while(|c| *c == '\\')
        .count()
        % 2
        == 1
}

/// The text a key of a properties file stands for (`c\u00e9` is `cé`).
/// Keys are kept as written, escapes and all (as translate-toolkit keeps
/// them), so that each finds its line again; what is written in another
/// format takes their text. A key that does not unescape stays as it is.
pub(crate) fn key_text(key: String) -> String {
    unescape(&key).unwrap_or(key)
}

/// Resolves escapes; `\uXXXX` must have four hex digits.
fn unescape(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('f') => out.push('\u{c}'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                let code = u32::from_str_radix(&hex, 16)
                    .ok()
                    .filter(|_| hex.len() == 4)
                    .ok_or_else(|| format!("malformed \\u escape '\\u{hex}'"))?;
                if (0xD800..0xDC00).contains(&code) {
                    // A surrogate pair: the low half follows as another escape.
                    let rest: String = chars.clone().take(6).collect();
                    if let Some(low) = rest
                        .strip_prefix("\\u")
                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                        .filter(|l| (0xDC00..0xE000).contains(l))
                    {
                        chars.by_ref().take(6).for_each(drop);
                        out.push(
                            char::from_u32(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
                                .unwrap_or('\u{fffd}'),
                        );
                        continue;
                    }
                }
                out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    Ok(out)
}

/// Escapes a value for writing.
fn escape(value: &str, ascii: bool) -> String {
    let mut out = String::with_capacity(value.len());
    for (i, c) in value.chars().enumerate() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{c}' => out.push_str("\\f"),
            ' ' if i == 0 => out.push_str("\\ "),
            c if ascii && !c.is_ascii() || (c as u32) < 0x20 => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04X}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// Escapes a key for writing: also its separators and comment marks.
fn escape_key(key: &str, ascii: bool) -> String {
    let mut out = String::with_capacity(key.len());
    for c in key.chars() {
        if matches!(c, ' ' | ':' | '=' | '#' | '!') {
            out.push('\\');
            out.push(c);
        } else {
            out.push_str(&escape(&c.to_string(), ascii));
        }
    }
    out
}

/// Where the key ends and the value starts in a logical line.
fn split_key(logical: &str) -> (usize, usize) {
    let start = logical.len() - logical.trim_start().len();
    let bytes = logical.as_bytes();
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'=' | b':' | b' ' | b'\t' | b'\x0c' => break,
            _ => i += 1,
        }
    }
    let key_end = i.min(bytes.len());
    let mut value = key_end;
    while bytes
        .get(value)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\x0c'))
    {
        value += 1;
    }
    if bytes.get(value).is_some_and(|b| matches!(b, b'=' | b':')) {
        value += 1;
        while bytes
            .get(value)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\x0c'))
        {
            value += 1;
        }
    }
    (key_end, value)
}

impl PropertiesFile {
    /// Parses a properties file; `name` is used in error messages.
    pub fn parse(name: &str, bytes: &[u8]) -> Result<PropertiesFile, FormatError> {
        let (text, latin1) = match std::str::from_utf8(bytes) {
            Ok(text) => (text.to_owned(), false),
            Err(_) => (bytes.iter().map(|b| char::from(*b)).collect(), true),
        };
        let lines = split_lines(&text);
        let mut entries = Vec::new();
        let mut comments = Vec::new();
        let mut index = 0;
        while index < lines.len() {
            let first = content(&lines[index]).trim_start();
            if first.is_empty() {
                comments.clear();
                index += 1;
                continue;
            }
            if first.starts_with('#') || first.starts_with('!') {
                comments.push(first[1..].trim().to_owned());
                index += 1;
                continue;
            }
            let start = index;
            let mut logical = String::new();
            loop {
                let line = content(&lines[index]);
                let part = if index == start {
                    line
                } else {
                    line.trim_start()
                };
                index += 1;
                if continues(line) && index < lines.len() {
                    logical.push_str(&part[..part.len() - 1]);
                } else {
                    logical.push_str(
                        part.strip_suffix('\\')
                            .filter(|_| continues(line))
                            .unwrap_or(part),
                    );
                    break;
                }
            }
            let (key_end, value_start) = split_key(&logical);
            let error = |m: String| FormatError::new(name, start + 1, m);
            let key_start = logical.len() - logical.trim_start().len();
            // A key written without separator gets one when its value is rewritten.
            // A key that only continued a previous line may start like a
            // comment; written on its own line it needs an escape.
            let mut prefix = logical[..value_start].to_owned();
            if value_start == key_end {
                prefix.push('=');
            }
            if prefix.trim_start().starts_with(['#', '!']) {
                prefix.insert(prefix.len() - prefix.trim_start().len(), '\\');
            }
            // The key as written, escapes and all: translate-toolkit (and
            // so Weblate) names strings by it and matches translations to
            // the template by it. It must still read. (An escaped comment
            // mark that starts it counts without its escape: Tolk adds one
            // where a continued key would start like a comment.)
            let key = &logical[key_start..key_end];
            unescape(key).map_err(error)?;
            let key = match key.strip_prefix('\\') {
                Some(rest) if rest.starts_with(['#', '!']) => rest,
                _ => key,
            };
            entries.push(Entry {
                key: key.to_owned(),
                value: unescape(&logical[value_start..]).map_err(error)?,
                lines: start..index,
                prefix,
                comments: std::mem::take(&mut comments),
            });
        }
        let ascii = latin1 || text.is_ascii();
        Ok(PropertiesFile {
            name: name.to_owned(),
            lines,
            entries,
            edits: BTreeMap::new(),
            ascii,
            latin1,
        })
    }
}

impl TranslationFile for PropertiesFile {
    fn units(&self) -> Vec<Unit> {
        self.entries
            .iter()
            .map(|e| Unit::keyed(&e.key, &e.value, e.comments.clone()))
            .collect()
    }

    fn set_translation(
        &mut self,
        index: usize,
        target: &[String],
        fuzzy: bool,
    ) -> Result<(), FormatError> {
        let entry = unit_at(&mut self.entries, index, &self.name)?;
        let value = single_value(
            &self.name,
            entry.lines.start + 1,
            "properties",
            target,
            fuzzy,
        )?;
        let last = &self.lines[entry.lines.end - 1];
        let eol = &last[content(last).len()..];
        let eol = if eol.is_empty() && entry.lines.end < self.lines.len() {
            "\n"
        } else {
            eol
        };
        let line = entry.lines.start + 1;
        let value = value.clone();
        let replacement = format!("{}{}{eol}", entry.prefix, escape(&value, self.ascii));
        let previous = self.edits.insert(index, replacement);
        if self.latin1 && self.would_read_as_utf8() {
            // The file was read as ISO-8859-1 because some bytes were not
            // UTF-8; without them it would be read as UTF-8, differently.
            match previous {
                Some(previous) => self.edits.insert(index, previous),
                None => self.edits.remove(&index),
            };
            return Err(FormatError::new(
                &self.name,
                line,
                "this edit removes the only bytes that make the file ISO-8859-1; it would then be read as UTF-8",
            ));
        }
        self.entries[index].value = value;
        Ok(())
    }

    fn add_unit(&mut self, unit: &Unit) -> Result<(), FormatError> {
        ensure_new(&self.name, &self.units(), unit, true)?;
        let value = single_new_value(&self.name, "properties", unit)?;
        let mut bytes = self.to_bytes()?;
        let eol = self.lines.first().map_or("\n", |l| &l[content(l).len()..]);
        let eol = if eol.is_empty() { "\n" } else { eol };
        if !bytes.is_empty() && !bytes.ends_with(b"\n") && !bytes.ends_with(b"\r") {
            bytes.extend_from_slice(eol.as_bytes());
        }
        // A last line continued by a backslash would take the new line in;
        // a blank line ends it.
        let text = self.text();
        let last = text
            .trim_end_matches(['\r', '\n'])
            .rsplit(['\n', '\r'])
            .next();
        if last.is_some_and(continues) {
            bytes.extend_from_slice(eol.as_bytes());
        }
        // Keys are as written (see `parse`): one that reads back as itself
        // is written so, one that would not (a separator in it) escaped.
        let raw = format!("{}=", unit.context);
        let reads_back = unescape(&unit.context).is_ok()
            && split_key(&raw).0 == unit.context.len()
            && !unit.context.starts_with(['#', '!'])
            && !unit.context.ends_with('\\');
        let key = if reads_back {
            unit.context.clone()
        } else {
            escape_key(&unit.context, self.ascii)
        };
        let line = format!("{key}={}{eol}", escape(value, self.ascii));
        if self.latin1 {
            bytes.extend(
                line.chars()
                    .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?')),
            );
        } else {
            bytes.extend_from_slice(line.as_bytes());
        }
        *self = PropertiesFile::parse(&self.name, &bytes)?;
        Ok(())
    }

    fn remove_unit(&mut self, index: usize) -> Result<(), FormatError> {
        let entry = unit_at(&mut self.entries, index, &self.name)?;
        let line = entry.lines.start + 1;
        let mut removed = self.clone();
        removed.edits.insert(index, String::new());
        if removed.latin1 && removed.would_read_as_utf8() {
            return Err(FormatError::new(
                &self.name,
                line,
                "removing this string removes the only bytes that make the file ISO-8859-1; it would then be read as UTF-8",
            ));
        }
        *self = PropertiesFile::parse(&self.name, &removed.to_bytes()?)?;
        Ok(())
    }

    fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        Ok(self.encode(&self.text()))
    }
}

impl PropertiesFile {
    /// The text with the edits made.
    fn text(&self) -> String {
        let mut text = String::new();
        let mut line = 0;
        for (index, replacement) in &self.edits {
            let span = &self.entries[*index].lines;
            self.lines[line..span.start]
                .iter()
                .for_each(|l| text.push_str(l));
            text.push_str(replacement);
            line = span.end;
        }
        self.lines[line..].iter().for_each(|l| text.push_str(l));
        text
    }

    /// `text` in the file's encoding (non-Latin-1 characters are escaped
    /// before they get here).
    fn encode(&self, text: &str) -> Vec<u8> {
        if self.latin1 {
            text.chars()
                .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
                .collect()
        } else {
            text.as_bytes().to_vec()
        }
    }

    /// True when the edited ISO-8859-1 file would be valid UTF-8 with
    /// non-ASCII bytes, and so be read as UTF-8.
    fn would_read_as_utf8(&self) -> bool {
        let bytes = self.encode(&self.text());
        !bytes.is_ascii() && std::str::from_utf8(&bytes).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TranslationFile;

    const SAMPLE: &str = "# Greeting shown first\nhello = Hello\\u0021\nkey\\ with\\ spaces:value\nlong = first \\\n       second\nempty=\n\n! other comment\nplain value here\r\n";

    #[test]
    fn keys_read_as_their_text() {
        let text = |key: &str| key_text(key.to_owned());
        assert_eq!(text("c\\u00e9"), "cé");
        assert_eq!(text("key\\ with\\ spaces"), "key with spaces");
        assert_eq!(text("a\\:b"), "a:b");
        assert_eq!(text("broken\\u00"), "broken\\u00");
    }

    #[test]
    fn reads_keys_values_and_comments() {
        let file = PropertiesFile::parse("t.properties", SAMPLE.as_bytes()).unwrap();
        let units = file.units();
        let pairs = crate::unit::keyed_values(&units);
        assert_eq!(
            pairs,
            vec![
                ("hello", "Hello!"),
                ("key\\ with\\ spaces", "value"),
                ("long", "first second"),
                ("empty", ""),
                ("plain", "value here"),
            ]
        );
        assert_eq!(units[0].developer_notes, vec!["Greeting shown first"]);
        assert_eq!(units[4].developer_notes, vec!["other comment"]);
        assert_eq!(file.stats().translated, 4);
        assert_eq!(file.to_bytes().unwrap(), SAMPLE.as_bytes());
    }

    #[test]
    fn translations_match_the_template_by_the_key_as_written() {
        let template = "a\\:b = A colon\nsay\\\"hi = Hi\n";
        let translation = "a\\:b = Dvojtečka\nsay\"hi = Ahoj\n";
        let parse = |text: &str| PropertiesFile::parse("t.properties", text.as_bytes()).unwrap();
        let units = crate::with_template(&parse(template).units(), &parse(translation).units());
        let pairs: Vec<(&str, &str)> = units
            .iter()
            .map(|u| (u.context.as_str(), u.target[0].as_str()))
            .collect();
        // As in Weblate: `say\"hi` and `say"hi` are two keys.
        assert_eq!(pairs, [("a\\:b", "Dvojtečka"), ("say\\\"hi", "")]);
        // Added to another file, a key is written as it was read.
        let mut file = parse("x = y\n");
        file.add_unit(&units[0]).unwrap();
        file.add_unit(&Unit::keyed("new key", "v", vec![])).unwrap();
        let written = String::from_utf8(file.to_bytes().unwrap()).unwrap();
        assert_eq!(written, "x = y\na\\:b=Dvojte\\u010Dka\nnew\\ key=v\n");
    }

    #[test]
    fn edits_rewrite_only_the_entry() {
        let mut file = PropertiesFile::parse("t.properties", SAMPLE.as_bytes()).unwrap();
        file.set_translation(2, &["jedna\ndvě".into()], false)
            .unwrap();
        file.set_translation(4, &[" x".into()], false).unwrap();
        let written = String::from_utf8(file.to_bytes().unwrap()).unwrap();
        assert_eq!(
            written,
            SAMPLE
                .replace(
                    "long = first \\\n       second\n",
                    "long = jedna\\ndv\\u011B\n"
                )
                .replace("plain value here\r\n", "plain \\ x\r\n")
        );
        let reread = PropertiesFile::parse("t.properties", written.as_bytes()).unwrap();
        assert_eq!(reread.units()[2].target, vec!["jedna\ndvě"]);
        assert_eq!(reread.units()[4].target, vec![" x"]);
    }

    #[test]
    fn an_edit_that_would_make_a_latin1_file_utf8_is_refused() {
        // `é` as two UTF-8 bytes, and a lone Latin-1 `é` that makes the file
        // ISO-8859-1; replacing the lone one would make it valid UTF-8.
        let bytes = b"a=\xc3\xa9\nb=\xe9\n";
        let mut file = PropertiesFile::parse("l.properties", bytes).unwrap();
        assert_eq!(file.units()[0].target, vec!["\u{c3}\u{a9}"]);
        let err = file.set_translation(1, &["x".into()], false).unwrap_err();
        assert_eq!(err.line, 2);
        assert_eq!(file.to_bytes().unwrap(), bytes);
        assert_eq!(file.units()[1].target, vec!["\u{e9}"]);
    }

    #[test]
    fn utf8_and_latin1_files() {
        let utf8 = "k=žluť\n";
        let mut file = PropertiesFile::parse("u.properties", utf8.as_bytes()).unwrap();
        file.set_translation(0, &["kůň".into()], false).unwrap();
        assert_eq!(
            file.to_bytes().unwrap(),
            "k=kůň\n".as_bytes(),
            "UTF-8 files keep UTF-8"
        );
        let latin1 = b"k=caf\xe9\n";
        let mut file = PropertiesFile::parse("l.properties", latin1).unwrap();
        assert_eq!(file.units()[0].target, vec!["café"]);
        assert_eq!(file.to_bytes().unwrap(), latin1);
        file.set_translation(0, &["thé".into()], false).unwrap();
        assert_eq!(file.to_bytes().unwrap(), b"k=th\\u00E9\n");
    }

    #[test]
    fn bad_escapes_name_the_line_and_damage_never_panics() {
        let err = PropertiesFile::parse("b.properties", b"a=1\nb=\\u12\n").unwrap_err();
        assert_eq!(err.line, 2);
        let mut state: u64 = 11;
        let pieces = [
            "k", "=", ":", " ", "\\", "\\u", "00e9", "\n", "\r", "#", "é", "\t",
        ];
        for _ in 0..5_000 {
            let mut text = String::new();
            for _ in 0..12 {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                text.push_str(pieces[(state >> 33) as usize % pieces.len()]);
            }
            if let Ok(mut file) = PropertiesFile::parse("f.properties", text.as_bytes()) {
                assert_eq!(file.to_bytes().unwrap(), text.as_bytes());
                if let Some(first) = file.units().first().cloned() {
                    file.set_translation(0, &["v\\ é".into()], false).unwrap();
                    let again =
                        PropertiesFile::parse("f.properties", &file.to_bytes().unwrap()).unwrap();
                    assert_eq!(again.units()[0].target, vec!["v\\ é"], "{text:?}");
                    assert_eq!(again.units()[0].context, first.context, "{text:?}");
                    assert_eq!(again.units().len(), file.units().len(), "{text:?}");
                }
            }
        }
    }
}
