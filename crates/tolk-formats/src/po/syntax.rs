//! The line-level grammar of PO files: what each line is, and the C-like
//! escapes inside quoted strings.

/// Keywords that open a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keyword {
    /// `msgctxt`
    Msgctxt,
    /// `msgid`
    Msgid,
    /// `msgid_plural`
    MsgidPlural,
    /// `msgstr` (index 0) or `msgstr[N]`.
    Msgstr(usize),
}

/// What one line of a PO file is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// Empty or only white space.
    Blank,
    /// `# text`: a translator comment.
    TranslatorComment(String),
    /// `#. text`: a developer comment.
    ExtractedComment(String),
    /// `#: file:line …`: source references.
    Reference(String),
    /// `#, flag, flag`.
    Flags(Vec<String>),
    /// `#| msgid "…"` and its continuation lines: the previous source.
    Previous(Option<Keyword>, String),
    /// A keyword with its quoted string.
    Keyword(Keyword, String),
    /// A quoted string continuing the previous keyword.
    Continuation(String),
}

/// A classified line: whether it was commented out as obsolete (`#~`), and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classified {
    /// The line was inside an obsolete entry.
    pub obsolete: bool,
    /// What the line is.
    pub line: Line,
}

/// Classifies one line (without its line break).
pub fn classify(text: &str) -> Result<Classified, String> {
    let text = text.strip_suffix('\r').unwrap_or(text);
    let trimmed = text.trim_start();
    if let Some(rest) = trimmed.strip_prefix("#~") {
        let rest = rest.strip_prefix('|').map_or(rest, |previous| previous);
        let line = if rest.trim().is_empty() {
            Line::Blank
        } else if trimmed.starts_with("#~|") {
            previous(rest)?
        } else {
            strings(rest.trim_start())?
        };
        return Ok(Classified {
            obsolete: true,
            line,
        });
    }
    let line = if trimmed.is_empty() {
        Line::Blank
    } else if let Some(rest) = trimmed.strip_prefix("#|") {
        previous(rest)?
    } else if let Some(rest) = trimmed.strip_prefix("#.") {
        Line::ExtractedComment(strip_one_space(rest).to_owned())
    } else if let Some(rest) = trimmed.strip_prefix("#:") {
        Line::Reference(strip_one_space(rest).to_owned())
    } else if let Some(rest) = trimmed.strip_prefix("#,") {
        Line::Flags(
            rest.split(',')
                .map(str::trim)
                .filter(|f| !f.is_empty())
                .map(str::to_owned)
                .collect(),
        )
    } else if let Some(rest) = trimmed.strip_prefix('#') {
        Line::TranslatorComment(strip_one_space(rest).to_owned())
    } else {
        strings(trimmed)?
    };
    Ok(Classified {
        obsolete: false,
        line,
    })
}

fn strip_one_space(text: &str) -> &str {
    text.strip_prefix(' ').unwrap_or(text)
}

fn previous(rest: &str) -> Result<Line, String> {
    match strings(rest.trim_start())? {
        Line::Keyword(k, s) => Ok(Line::Previous(Some(k), s)),
        Line::Continuation(s) => Ok(Line::Previous(None, s)),
        _ => Err("expected a keyword or a string after '#|'".into()),
    }
}

/// A keyword line or a continuation line.
fn strings(text: &str) -> Result<Line, String> {
    if text.starts_with('"') {
        return Ok(Line::Continuation(quoted(text)?));
    }
    let (word, rest) = text
        .split_once(|c: char| c.is_whitespace() || c == '"')
        .map(|(w, _)| (w, &text[w.len()..]))
        .unwrap_or((text, ""));
    let keyword = match word {
        "msgctxt" => Keyword::Msgctxt,
        "msgid" => Keyword::Msgid,
        "msgid_plural" => Keyword::MsgidPlural,
        "msgstr" => Keyword::Msgstr(0),
        w if w.starts_with("msgstr[") && w.ends_with(']') => {
            let index = &w["msgstr[".len()..w.len() - 1];
            Keyword::Msgstr(
                index
                    .parse()
                    .map_err(|_| format!("invalid plural index in '{w}'"))?,
            )
        }
        _ => return Err(format!("unexpected text '{}'", shorten(text))),
    };
    Ok(Line::Keyword(keyword, quoted(rest.trim_start())?))
}

fn shorten(text: &str) -> String {
    text.chars().take(40).collect()
}

/// Reads `"…"` (followed only by white space) and unescapes its content.
fn quoted(text: &str) -> Result<String, String> {
    let text = text.trim_end();
    let inner = text
        .strip_prefix('"')
        .ok_or_else(|| format!("expected a quoted string, found '{}'", shorten(text)))?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                let rest: String = chars.collect();
                if rest.trim().is_empty() {
                    return Ok(out);
                }
                return Err(format!(
                    "unexpected text after the closing quote: '{}'",
                    shorten(&rest)
                ));
            }
            '\\' => out.push(unescape(&mut chars)?),
            c => out.push(c),
        }
    }
    Err("missing closing quote".into())
}

fn unescape(chars: &mut std::str::Chars<'_>) -> Result<char, String> {
    let c = chars.next().ok_or("a backslash ends the string")?;
    Ok(match c {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        'a' => '\u{7}',
        'b' => '\u{8}',
        'f' => '\u{c}',
        'v' => '\u{b}',
        '\\' | '"' | '\'' | '?' => c,
        '0'..='7' => {
            let mut value = c.to_digit(8).unwrap_or(0);
            for _ in 0..2 {
                match chars.clone().next().and_then(|d| d.to_digit(8)) {
                    Some(d) => {
                        value = value * 8 + d;
                        chars.next();
                    }
                    None => break,
                }
            }
            char::from_u32(value).ok_or("invalid octal escape")?
        }
        'x' => {
            let mut value = 0u32;
            let mut digits = 0;
            while let Some(d) = chars.clone().next().and_then(|d| d.to_digit(16)) {
                value = value.saturating_mul(16).saturating_add(d);
                digits += 1;
                chars.next();
            }
            if digits == 0 {
                return Err("'\\x' without hexadecimal digits".into());
            }
            char::from_u32(value).ok_or("invalid hexadecimal escape")?
        }
        other => return Err(format!("invalid escape sequence '\\{other}'")),
    })
}

/// Escapes text for a quoted PO string.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Line {
        classify(text).unwrap().line
    }

    #[test]
    fn classifies_lines() {
        assert_eq!(line(""), Line::Blank);
        assert_eq!(line("  \r"), Line::Blank);
        assert_eq!(
            line("# Jane, 2020"),
            Line::TranslatorComment("Jane, 2020".into())
        );
        assert_eq!(line("#"), Line::TranslatorComment(String::new()));
        assert_eq!(
            line("#. TRANSLATORS: hi"),
            Line::ExtractedComment("TRANSLATORS: hi".into())
        );
        assert_eq!(
            line("#: a.c:1 b.c:2"),
            Line::Reference("a.c:1 b.c:2".into())
        );
        assert_eq!(
            line("#, fuzzy, c-format"),
            Line::Flags(vec!["fuzzy".into(), "c-format".into()])
        );
        assert_eq!(
            line("#| msgid \"old\""),
            Line::Previous(Some(Keyword::Msgid), "old".into())
        );
        assert_eq!(
            line("msgstr[2] \"x\""),
            Line::Keyword(Keyword::Msgstr(2), "x".into())
        );
        assert_eq!(
            line("msgid\"x\""),
            Line::Keyword(Keyword::Msgid, "x".into())
        );
        assert_eq!(line("\"a\\\"b\\n\""), Line::Continuation("a\"b\n".into()));
        let obsolete = classify("#~ msgid \"gone\"").unwrap();
        assert!(obsolete.obsolete);
        assert_eq!(obsolete.line, Line::Keyword(Keyword::Msgid, "gone".into()));
        let obsolete_previous = classify("#~| msgid \"older\"").unwrap();
        assert_eq!(
            obsolete_previous.line,
            Line::Previous(Some(Keyword::Msgid), "older".into())
        );
    }

    #[test]
    fn escapes_round_trip() {
        let text = "tab\there \"quoted\" back\\slash\nbell\u{7}";
        assert_eq!(
            line(&format!("\"{}\"", escape(text))),
            Line::Continuation(text.into())
        );
        assert_eq!(line("\"\\101\\x42\\?\""), Line::Continuation("AB?".into()));
    }

    #[test]
    fn reports_bad_lines() {
        for bad in [
            "msgid x",
            "msgid \"open",
            "msgid \"a\" b",
            "msgstr[x] \"\"",
            "\"\\q\"",
            "\"\\x\"",
            "hello",
            "#| hello",
        ] {
            assert!(classify(bad).is_err(), "{bad}");
        }
    }
}
