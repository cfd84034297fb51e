//! Laravel PHP language files (`laravel`): `<?php return [ 'key' =>
//! 'value', 'group' => [ … ] ];` (or `array( … )`). Every string leaf is a
//! unit; keys of nested arrays are joined with `->`, and items without a
//! key are numbered from 0.
//!
//! The original text is kept; an edit replaces the one string literal.

use std::ops::Range;

use crate::edits::{SpanEdits, line_at, set_token, utf8};
use crate::error::{FormatError, ensure_new, single_new_value, unit_at};
use crate::translation_file::TranslationFile;
use crate::unit::Unit;

/// Deepest nesting of arrays accepted.
const MAX_DEPTH: usize = 64;

/// One string value and where its literal is.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    key: String,
    value: String,
    span: Range<usize>,
}

/// A parsed Laravel language file.
#[derive(Debug, Clone)]
pub struct PhpFile {
    name: String,
    text: String,
    entries: Vec<Entry>,
    /// Where the root array's closing bracket is.
    closer: usize,
    /// The root array's last item: where it ends and whether a comma follows.
    last_item: Option<(usize, bool)>,
    edits: SpanEdits,
}

/// Reads the tokens the files use.
struct Reader<'a> {
    name: &'a str,
    text: &'a str,
    pos: usize,
}

impl Reader<'_> {
    fn error(&self, message: &str) -> FormatError {
        FormatError::new(self.name, line_at(self.text.as_bytes(), self.pos), message)
    }

    /// Skips white space and comments.
    fn skip(&mut self) -> Result<(), FormatError> {
        loop {
            let rest = &self.text[self.pos..];
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            if let Some(body) = trimmed.strip_prefix("/*") {
                let end = body
                    .find("*/")
                    .ok_or_else(|| self.error("the comment is not closed"))?;
                self.pos += end + 4;
            } else if trimmed.starts_with("//") || trimmed.starts_with('#') {
                self.pos += trimmed.find('\n').unwrap_or(trimmed.len());
            } else {
                return Ok(());
            }
        }
    }

    /// Consumes `token` when it comes next.
    fn eat(&mut self, token: &str) -> Result<bool, FormatError> {
        self.skip()?;
        let found = self.text[self.pos..].starts_with(token);
        if found {
            self.pos += token.len();
        }
        Ok(found)
    }

    fn expect(&mut self, token: &str) -> Result<(), FormatError> {
        if self.eat(token)? {
            Ok(())
        } else {
            Err(self.error(&format!("expected `{token}`")))
        }
    }

    /// A quoted string literal at the current position.
    fn string(&mut self) -> Result<String, FormatError> {
        let quote = self.text.as_bytes()[self.pos];
        self.pos += 1;
        let mut value = String::new();
        loop {
            let rest = &self.text[self.pos..];
            let at = rest
                .find([quote as char, '\\'])
                .ok_or_else(|| self.error("the string is not closed"))?;
            value.push_str(&rest[..at]);
            self.pos += at + 1;
            if rest.as_bytes()[at] == quote {
                return Ok(value);
            }
            let Some(escaped) = self.text[self.pos..].chars().next() else {
                return Err(self.error("the string is not closed"));
            };
            let resolved = match (quote, escaped) {
                (b'\'', '\'' | '\\') => Some(escaped),
                (b'"', 'n') => Some('\n'),
                (b'"', 't') => Some('\t'),
                (b'"', 'r') => Some('\r'),
                (b'"', '"' | '\\' | '$') => Some(escaped),
                _ => None,
            };
            match resolved {
                Some(c) => {
                    value.push(c);
                    self.pos += escaped.len_utf8();
                }
                None => value.push('\\'),
            }
        }
    }

    /// A scalar that is not a string (number, constant): its text.
    fn bare(&mut self) -> Result<(), FormatError> {
        let rest = &self.text[self.pos..];
        let len = rest
            .find(|c: char| c.is_whitespace() || ",])=;".contains(c))
            .unwrap_or(rest.len());
        if len == 0 {
            return Err(self.error("expected a value"));
        }
        self.pos += len;
        Ok(())
    }

    /// The items of an array whose opening token was read, up to `close`;
    /// returns where `close` is and where the last item ends, with whether
    /// a comma follows it.
    fn array(
        &mut self,
        prefix: &str,
        close: &str,
        depth: usize,
        out: &mut Vec<Entry>,
    ) -> Result<(usize, Option<(usize, bool)>), FormatError> {
        if depth > MAX_DEPTH {
            return Err(self.error("the arrays are nested too deeply"));
        }
        let mut index = 0;
        let mut last = None;
        loop {
            self.skip()?;
            if self.text[self.pos..].starts_with(close) {
                let at = self.pos;
                self.pos += close.len();
                return Ok((at, last));
            }
            let (key, span, value) = self.item()?;
            let key = match key {
                Some(key) => key,
                None => {
                    index += 1;
                    (index - 1).to_string()
                }
            };
            let full = if prefix.is_empty() {
                key
            } else {
                format!("{prefix}->{key}")
            };
            let end = match value {
                Item::String(value) => {
                    let end = span.end;
                    out.push(Entry {
                        key: full,
                        value,
                        span,
                    });
                    end
                }
                Item::Array(close) => {
                    self.array(&full, close, depth + 1, out)?;
                    self.pos
                }
                Item::Other => span.end,
            };
            let comma = self.eat(",")?;
            last = Some((end, comma));
            if !comma {
                self.skip()?;
                if !self.text[self.pos..].starts_with(close) {
                    return Err(self.error(&format!("expected `,` or `{close}`")));
                }
            }
        }
    }

    /// One item: its key (if written), the span of its value and the value.
    fn item(&mut self) -> Result<(Option<String>, Range<usize>, Item), FormatError> {
        let (start, first) = self.value()?;
        let end = self.pos;
        if self.eat("=>")? {
            let key = match first {
                Item::String(key) => key,
                _ => self.text[start..self.pos - 2].trim().to_owned(),
            };
            let (start, value) = self.value()?;
            return Ok((Some(key), start..self.pos, value));
        }
        Ok((None, start..end, first))
    }

    /// A value at the current position and where it starts.
    fn value(&mut self) -> Result<(usize, Item), FormatError> {
        self.skip()?;
        let start = self.pos;
        let rest = &self.text[self.pos..];
        let item = if rest.starts_with('\'') || rest.starts_with('"') {
            Item::String(self.string()?)
        } else if rest.starts_with('[') {
            self.pos += 1;
            Item::Array("]")
        } else if rest
            .get(..6)
            .is_some_and(|word| word.eq_ignore_ascii_case("array("))
        {
            self.pos += 6;
            Item::Array(")")
        } else {
            self.bare()?;
            Item::Other
        };
        Ok((start, item))
    }
}

/// What an item's value is.
enum Item {
    String(String),
    /// An array was opened; it closes with this token.
    Array(&'static str),
    Other,
}

/// `value` as a single-quoted PHP string.
fn quote(value: &str) -> String {
    format!("'{}'", value.replace('\\', "\\\\").replace('\'', "\\'"))
}

impl PhpFile {
    /// Parses a Laravel language file; `name` is used in error messages.
    pub fn parse(name: &str, bytes: &[u8]) -> Result<PhpFile, FormatError> {
        let text = utf8(name, bytes)?;
        let mut reader = Reader { name, text, pos: 0 };
        reader.skip()?;
        if !reader.eat("<?php")? {
            return Err(reader.error("expected `<?php`"));
        }
        // Statements such as `declare(strict_types=1);` may come first.
        while !reader.eat("return")? {
            let rest = &reader.text[reader.pos..];
            match rest.find(';') {
                Some(end) if !rest[..end].contains(['\'', '"']) => reader.pos += end + 1,
                _ => return Err(reader.error("expected `return`")),
            }
        }
        let close = match reader.value()? {
            (_, Item::Array(close)) => close,
            _ => return Err(reader.error("expected an array after `return`")),
        };
        let mut entries = Vec::new();
        let (closer, last_item) = reader.array("", close, 0, &mut entries)?;
        reader.expect(";")?;
        // Only comments and a closing `?>` may follow the array.
        reader.eat("?>")?;
        reader.skip()?;
        if reader.pos < text.len() {
            return Err(reader.error("unexpected text after the returned array"));
        }
        Ok(PhpFile {
            name: name.to_owned(),
            text: text.to_owned(),
            entries,
            closer,
            last_item,
            edits: SpanEdits::default(),
        })
    }
}

impl TranslationFile for PhpFile {
    fn units(&self) -> Vec<Unit> {
        self.entries
            .iter()
            .map(|e| Unit::keyed(&e.key, &e.value, Vec::new()))
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
            "PHP",
            target,
            fuzzy,
            quote,
        )?;
        Ok(())
    }

    fn add_unit(&mut self, unit: &Unit) -> Result<(), FormatError> {
        ensure_new(&self.name, &self.units(), unit, true)?;
        let value = single_new_value(&self.name, "PHP", unit)?;
        if unit.context.contains("->") {
            return Err(crate::error::cannot_add(
                &self.name,
                "nested keys to PHP files",
            ));
        }
        // On a line of its own after the last item and any comment after
        // it, with a comma after the last item unless it has one.
        let before = self.text[..self.closer].trim_end();
        let at = before.len();
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let line = &before[line_start..];
        let indent = match self.last_item {
            Some(_) => &line[..line.len() - line.trim_start().len()],
            None => "    ",
        };
        let item = format!("\n{indent}{} => {},", quote(&unit.context), quote(value));
        let mut edits = self.edits.clone();
        match self.last_item {
            Some((end, false)) if end == at => edits.replace(at..at, format!(",{item}")),
            Some((end, false)) => {
                edits.replace(end..end, ",".into());
                edits.replace(at..at, item);
            }
            _ => edits.replace(at..at, item),
        }
        *self = PhpFile::parse(&self.name, edits.apply(&self.text).as_bytes())?;
        Ok(())
    }

    fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        Ok(self.edits.apply(&self.text).into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "<?php\n\n/* Lines */\n\nreturn [\n    'accepted' => ':attribute must be accepted.', // note\n    \"quoted\"   => \"Tab\\there \\\"x\\\"\",\n    'between'  => [\n        'array' => 'It\\'s :min',\n        'count' => 5,\n    ],\n    'list' => array('a', 'b'), // a, b\n    'last' // no comma, a comment\n];\n";

    #[test]
    fn reads_nested_arrays_and_edits_one_literal() {
        let mut file = PhpFile::parse("v.php", SAMPLE.as_bytes()).unwrap();
        let units = file.units();
        assert_eq!(
            crate::unit::keyed_values(&units),
            vec![
                ("accepted", ":attribute must be accepted."),
                ("quoted", "Tab\there \"x\""),
                ("between->array", "It's :min"),
                ("list->0", "a"),
                ("list->1", "b"),
                ("0", "last"),
            ]
        );
        assert_eq!(file.to_bytes().unwrap(), SAMPLE.as_bytes());
        file.set_translation(2, &["To je 'ono' \\ ".into()], false)
            .unwrap();
        file.set_translation(5, &["poslední".into()], false)
            .unwrap();
        file.add_unit(&Unit::keyed("new", "Nový", vec![])).unwrap();
        let written = String::from_utf8(file.to_bytes().unwrap()).unwrap();
        assert_eq!(
            written,
            SAMPLE
                .replace("'It\\'s :min'", "'To je \\'ono\\' \\\\ '")
                .replace(
                    "'last' // no comma, a comment\n];",
                    "'poslední', // no comma, a comment\n    'new' => 'Nový',\n];"
                )
        );
        assert!(PhpFile::parse("v.php", b"<?php return ['a' => 'b'").is_err());
        assert!(PhpFile::parse("v.php", b"<?php return ['a' => 'b];").is_err());
        assert!(PhpFile::parse("v.php", b"<?php return ['a' => 'b']; ?>\n").is_ok());
        assert_eq!(
            PhpFile::parse("v.php", b"<?php return [\n'a'];\n => 'b',\n];")
                .unwrap_err()
                .message,
            "unexpected text after the returned array"
        );
        assert_eq!(
            PhpFile::parse("v.php", b"<?php\nreturn [\n'a' 'b'];")
                .unwrap_err()
                .line,
            3
        );
    }
}
