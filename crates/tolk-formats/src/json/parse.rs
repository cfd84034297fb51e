//! A JSON reader that remembers where every value is in the text, so that
//! edits replace exactly one value and leave the rest of the file alone.

use std::ops::Range;

/// Deepest nesting accepted; keeps hostile input from exhausting the stack.
pub(super) const MAX_DEPTH: usize = 128;

/// A JSON value with the byte span of its text.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// An object: keys in file order with their values, and the span from
    /// its `{` to its `}` included.
    Object(Vec<(String, Value)>, Range<usize>),
    /// An array.
    Array(Vec<Value>),
    /// A string: its content and the span of the quoted token.
    String(String, Range<usize>),
    /// A number, `true`, `false` or `null`: its text and span.
    Scalar(String, Range<usize>),
}

/// A syntax error at a byte offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Byte offset of the problem.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth: usize,
}

/// Parses a whole JSON document.
pub fn parse(text: &str) -> Result<Value, SyntaxError> {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        depth: 0,
    };
    if text.starts_with('\u{feff}') {
        parser.pos = '\u{feff}'.len_utf8();
    }
    let value = parser.value()?;
    parser.skip_ws();
    if parser.pos != parser.bytes.len() {
        return Err(parser.error("unexpected text after the JSON value"));
    }
    Ok(value)
}

impl Parser<'_> {
    fn error(&self, message: &str) -> SyntaxError {
        SyntaxError {
            offset: self.pos,
            message: message.to_owned(),
        }
    }

    fn skip_ws(&mut self) {
        while self
            .bytes
            .get(self.pos)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.pos += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), SyntaxError> {
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected '{}'", char::from(byte))))
        }
    }

    fn value(&mut self) -> Result<Value, SyntaxError> {
        self.skip_ws();
        match self.bytes.get(self.pos) {
            Some(b'{') => self.nested(Self::object),
            Some(b'[') => self.nested(Self::array),
            Some(b'"') => {
                let start = self.pos;
                let content = self.string()?;
                Ok(Value::String(content, start..self.pos))
            }
            Some(_) => self.scalar(),
            None => Err(self.error("unexpected end of the document")),
        }
    }

    fn nested(
        &mut self,
        inner: fn(&mut Self) -> Result<Value, SyntaxError>,
    ) -> Result<Value, SyntaxError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error("the document is nested too deeply"));
        }
        let value = inner(self)?;
        self.depth -= 1;
        Ok(value)
    }

    fn object(&mut self) -> Result<Value, SyntaxError> {
        let start = self.pos;
        self.pos += 1;
        let mut members = Vec::new();
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            return Ok(Value::Object(members, start..self.pos));
        }
        loop {
            self.skip_ws();
            if self.bytes.get(self.pos) != Some(&b'"') {
                return Err(self.error("expected a quoted key"));
            }
            let key = self.string()?;
            self.expect(b':')?;
            let value = self.value()?;
            members.push((key, value));
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Value::Object(members, start..self.pos));
                }
                _ => return Err(self.error("expected ',' or '}'")),
            }
        }
    }

    fn array(&mut self) -> Result<Value, SyntaxError> {
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b']') {
            self.pos += 1;
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value()?);
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    fn scalar(&mut self) -> Result<Value, SyntaxError> {
        let start = self.pos;
        while self
            .bytes
            .get(self.pos)
            .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.'))
        {
            self.pos += 1;
        }
        let token = &self.text[start..self.pos];
        let valid = matches!(token, "true" | "false" | "null")
            || (!token.is_empty() && token.parse::<f64>().is_ok() && !token.starts_with('+'));
        if valid {
            Ok(Value::Scalar(token.to_owned(), start..self.pos))
        } else {
            self.pos = start;
            Err(self.error("expected a value"))
        }
    }

    /// Reads a quoted string starting at the opening quote.
    fn string(&mut self) -> Result<String, SyntaxError> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let run_start = self.pos;
            while self
                .bytes
                .get(self.pos)
                .is_some_and(|b| *b != b'"' && *b != b'\\' && *b >= 0x20)
            {
                self.pos += 1;
            }
            out.push_str(&self.text[run_start..self.pos]);
            match self.bytes.get(self.pos) {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    out.push(self.escape()?);
                }
                Some(_) => return Err(self.error("control character in a string")),
                None => return Err(self.error("unterminated string")),
            }
        }
    }

    fn escape(&mut self) -> Result<char, SyntaxError> {
        let byte = *self
            .bytes
            .get(self.pos)
            .ok_or_else(|| self.error("unterminated escape"))?;
        self.pos += 1;
        Ok(match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let first = self.hex4()?;
                if (0xD800..0xDC00).contains(&first) && self.text[self.pos..].starts_with("\\u") {
                    self.pos += 2;
                    let second = self.hex4()?;
                    let combined =
                        0x10000 + ((first - 0xD800) << 10) + (second.wrapping_sub(0xDC00) & 0x3FF);
                    char::from_u32(combined).unwrap_or('\u{fffd}')
                } else {
                    char::from_u32(first).unwrap_or('\u{fffd}')
                }
            }
            _ => {
                self.pos -= 1;
                return Err(self.error("invalid escape sequence"));
            }
        })
    }

    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        let digits = self
            .text
            .get(self.pos..self.pos + 4)
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.error("expected four hexadecimal digits"))?;
        self.pos += 4;
        u32::from_str_radix(digits, 16).map_err(|_| self.error("invalid \\u escape"))
    }
}

/// Writes `text` as a JSON string literal; non-ASCII characters are kept
/// as they are unless `ascii_only`, then they become `\uXXXX` escapes.
pub fn quote(text: &str, ascii_only: bool) -> String {
    crate::edits::backslash_quoted(text, |c| {
        ((c as u32) < 0x20 || (ascii_only && !c.is_ascii())).then(|| {
            let mut units = [0u16; 2];
            c.encode_utf16(&mut units)
                .iter()
                .map(|unit| format!("\\u{unit:04x}"))
                .collect()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_values_with_spans() {
        let text = r#" {"a": "x\"y", "b": [1, true, null], "c": {"d": "\u00e9\ud83d\ude00"}} "#;
        let Value::Object(members, _) = parse(text).unwrap() else {
            panic!("object expected")
        };
        let Value::String(a, span) = &members[0].1 else {
            panic!()
        };
        assert_eq!(a, "x\"y");
        assert_eq!(&text[span.clone()], r#""x\"y""#);
        assert!(matches!(&members[1].1, Value::Array(items) if items.len() == 3));
        let Value::Object(c, span) = &members[2].1 else {
            panic!()
        };
        assert_eq!(&text[span.clone()], r#"{"d": "\u00e9\ud83d\ude00"}"#);
        assert!(matches!(&c[0].1, Value::String(s, _) if s == "é😀"));
    }

    #[test]
    fn reports_errors_with_offsets() {
        for (text, offset) in [
            ("{", 1),
            ("{\"a\" 1}", 5),
            ("[1,]", 3),
            ("\"a", 2),
            ("{} x", 3),
            ("[tru]", 1),
            ("\"\\q\"", 2),
        ] {
            assert_eq!(parse(text).unwrap_err().offset, offset, "{text}");
        }
        assert!(parse(&"[".repeat(1000)).is_err());
    }

    #[test]
    fn damaged_documents_never_panic() {
        let base = r#"{"a": {"b": ["x", 1.5e3, true, null]}, "c": "\u00e9\ud83d\ude00 \"q\""}"#;
        let junk = [
            '{', '}', '[', ']', '"', '\\', ',', ':', 'u', 'd', '8', ' ', 'é', '\u{0}',
        ];
        let mut state: u64 = 7;
        let mut next = |bound: usize| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 33) as usize % bound
        };
        for _ in 0..20_000 {
            let mut text: Vec<char> = base.chars().collect();
            for _ in 0..1 + next(4) {
                let at = next(text.len());
                match next(3) {
                    0 => {
                        text.remove(at);
                    }
                    1 => text.insert(at, junk[next(junk.len())]),
                    _ => text[at] = junk[next(junk.len())],
                }
            }
            let text: String = text.into_iter().collect();
            // Whatever parses can be quoted back.
            if let Ok(Value::Object(members, _)) = parse(&text) {
                for (key, _) in members {
                    parse(&quote(&key, true)).unwrap();
                }
            }
        }
    }

    #[test]
    fn quotes_round_trip() {
        for text in ["plain", "é \"q\" \\ \n\t\u{1}", "😀"] {
            for ascii in [false, true] {
                let quoted = quote(text, ascii);
                assert!(matches!(parse(&quoted).unwrap(), Value::String(s, _) if s == text));
            }
        }
        assert_eq!(quote("é", true), "\"\\u00e9\"");
    }
}
