//! ICU MessageFormat: the arguments a message uses, read with a small
//! parser of the syntax (`{name}`, `{name, type}`, `{name, type, style}`,
//! `{name, plural|select|selectordinal, … case {message} …}`, `#` in
//! plural cases, apostrophe quoting). A translation must use the same
//! arguments, each of a compatible type (number, plural and
//! selectordinal stand for one another), and must itself parse.

/// How deep messages may nest in cases of cases; deeper is an error
/// (the text is user input).
const MAX_DEPTH: usize = 32;

/// The arguments of `text` as `name:kind`, sorted and each once, or the
/// error that keeps it from parsing.
pub fn arguments(text: &str) -> Result<Vec<String>, String> {
    let mut parser = Parser {
        chars: text.chars().collect(),
        at: 0,
        found: Vec::new(),
    };
    parser.message(0, false)?;
    if parser.at < parser.chars.len() {
        return Err(format!("unexpected '}}' at character {}", parser.at + 1));
    }
    let mut found = parser.found;
    found.sort();
    found.dedup();
    Ok(found)
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    found: Vec<String>,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    /// Text and arguments up to an unmatched `}` (left unread) or the end;
    /// `in_case` when inside a case of a plural or select.
    fn message(&mut self, depth: usize, in_case: bool) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(format!("messages nest deeper than {MAX_DEPTH}"));
        }
        while let Some(c) = self.peek() {
            match c {
                '{' => {
                    self.at += 1;
                    self.argument(depth)?;
                }
                '}' => return Ok(()),
                '\'' => self.quoted(),
                _ => self.at += 1,
            }
        }
        if in_case {
            return Err("a case's message is not closed with '}'".into());
        }
        Ok(())
    }

    /// An apostrophe: `''` is one, `'{…'` quotes syntax characters up to
    /// the next lone apostrophe; otherwise it is plain text.
    fn quoted(&mut self) {
        self.at += 1;
        match self.peek() {
            Some('\'') => self.at += 1,
            Some('{' | '}' | '#' | '|') => {
                while let Some(c) = self.peek() {
                    self.at += 1;
                    if c == '\'' {
                        if self.peek() == Some('\'') {
                            self.at += 1;
                        } else {
                            break;
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    /// A word: letters, digits and the like, up to space or syntax.
    fn word(&mut self) -> String {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|c| !c.is_whitespace() && !matches!(c, '{' | '}' | ',' | '\'' | '#'))
        {
            self.at += 1;
        }
        self.chars[start..self.at].iter().collect()
    }

    fn expect(&mut self, wanted: char) -> Result<(), String> {
        self.skip_space();
        match self.peek() {
            Some(c) if c == wanted => {
                self.at += 1;
                Ok(())
            }
            Some(c) => Err(format!(
                "expected '{wanted}' at character {}, found '{c}'",
                self.at + 1
            )),
            None => Err(format!("expected '{wanted}' at the end")),
        }
    }

    /// An argument after its `{`, through its `}`.
    fn argument(&mut self, depth: usize) -> Result<(), String> {
        self.skip_space();
        let name = self.word();
        if name.is_empty() {
            return Err(format!(
                "an argument without a name at character {}",
                self.at + 1
            ));
        }
        self.skip_space();
        if self.peek() == Some('}') {
            self.at += 1;
            self.found.push(format!("{name}:"));
            return Ok(());
        }
        self.expect(',')?;
        self.skip_space();
        let kind = self.word().to_lowercase();
        let kind_of = match kind.as_str() {
            "number" | "plural" | "selectordinal" => "number",
            "" => {
                return Err(format!(
                    "an argument without a type at character {}",
                    self.at + 1
                ));
            }
            other => other,
        };
        self.found.push(format!("{name}:{kind_of}"));
        self.skip_space();
        match kind.as_str() {
            "plural" | "selectordinal" | "select" => {
                self.expect(',')?;
                self.cases(depth)
            }
            _ => {
                if self.peek() == Some(',') {
                    // A style: anything up to the argument's end.
                    self.at += 1;
                    let mut open = 0_usize;
                    loop {
                        match self.peek() {
                            None => return Err("an argument's style is not closed".into()),
                            Some('{') => open += 1,
                            Some('}') if open == 0 => break,
                            Some('}') => open -= 1,
                            Some('\'') => {
                                self.quoted();
                                continue;
                            }
                            Some(_) => {}
                        }
                        self.at += 1;
                    }
                }
                self.expect('}')
            }
        }
    }

    /// The cases of a plural or select (`offset:N` first, then
    /// `key {message}` pairs), through the argument's `}`.
    fn cases(&mut self, depth: usize) -> Result<(), String> {
        let mut cases = 0;
        loop {
            self.skip_space();
            match self.peek() {
                Some('}') => {
                    self.at += 1;
                    return if cases == 0 {
                        Err("a plural or select without cases".into())
                    } else {
                        Ok(())
                    };
                }
                None => return Err("a plural or select is not closed".into()),
                Some(_) => {}
            }
            let key = self.word();
            if key.is_empty() {
                return Err(format!("expected a case at character {}", self.at + 1));
            }
            if key.starts_with("offset:") {
                continue;
            }
            self.expect('{')?;
            self.message(depth + 1, true)?;
            self.expect('}')?;
            cases += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_arguments_and_their_kinds() {
        assert_eq!(
            arguments("{name} has {count, plural, one {# file} other {# files in {dir}}}"),
            Ok(vec!["count:number".into(), "dir:".into(), "name:".into()])
        );
        assert_eq!(
            arguments("{when, date, short} '{literal}' it''s {n, number, ::currency/EUR}"),
            Ok(vec!["n:number".into(), "when:date".into()])
        );
        assert_eq!(
            arguments("{g, select, male {he} female {she} other {they}}"),
            Ok(vec!["g:select".into()])
        );
    }

    #[test]
    fn broken_messages_are_errors() {
        for broken in [
            "{name",
            "{n, plural, one {x}",
            "{n, plural,}",
            "{, number}",
            "a } b",
        ] {
            assert!(arguments(broken).is_err(), "{broken}");
        }
        let deep = "{a, select, x {".repeat(100) + &"}}".repeat(100);
        assert!(arguments(&deep).is_err());
    }

    #[test]
    fn damaged_messages_never_panic() {
        let pieces = [
            "{", "}", ",", "'", "''", "#", " ", "n", "plural", "select", "one", "other", "number",
            "offset:1", "é", "\u{0}",
        ];
        let mut parsed = 0;
        for text in crate::checks::shuffled_texts(&pieces, 20_000, 24) {
            parsed += usize::from(arguments(&text).is_ok());
        }
        assert!(parsed > 1_000, "valid messages come up too: {parsed}");
    }
}
