//! Writing edited entries in the file's own layout.

use super::entry::Entry;
use super::syntax::escape;

/// Renders `keyword "value"` the way gettext does: one line when it fits
/// and has no inner line break, otherwise `keyword ""` followed by one
/// string per line of the text, each wrapped after white space so that it
/// stays within `wrap` columns.
pub(super) fn render_string(
    keyword: &str,
    value: &str,
    wrap: Option<usize>,
    eol: &str,
) -> Vec<String> {
    let mut text = String::new();
    render_into(&mut text, keyword, value, wrap, eol);
    // Escaped strings hold no line break: each line is one of them.
    text.split_terminator('\n').map(str::to_owned).collect()
}

/// Appends what [`render_string`] renders to `out`, each line ended by
/// `eol` and a line break.
pub(super) fn render_into(
    out: &mut String,
    keyword: &str,
    value: &str,
    wrap: Option<usize>,
    eol: &str,
) {
    let escaped = escape(value);
    let inner_break = escaped.find("\\n").is_some_and(|at| at + 2 < escaped.len());
    // `keyword "value"`: the keyword, a space and two quotes.
    let single_width = keyword.len() + 3 + escaped.chars().count();
    if !inner_break && wrap.is_none_or(|w| single_width <= w) {
        for part in [keyword, " \"", escaped.as_str(), "\"", eol, "\n"] {
            out.push_str(part);
        }
        return;
    }
    for part in [keyword, " \"\"", eol, "\n"] {
        out.push_str(part);
    }
    let limit = wrap.map(|w| w.saturating_sub(2).max(1));
    let chunks: Vec<&str> = if escaped.is_empty() {
        vec![""]
    } else {
        escaped.split_inclusive("\\n").collect()
    };
    for chunk in chunks {
        for piece in wrap_chunk(chunk, limit) {
            for part in ["\"", piece, "\"", eol, "\n"] {
                out.push_str(part);
            }
        }
    }
}

/// Splits an escaped chunk into pieces of at most `limit` characters,
/// breaking after spaces; a word longer than the limit stays whole.
fn wrap_chunk(chunk: &str, limit: Option<usize>) -> Vec<&str> {
    let Some(limit) = limit else {
        return vec![chunk];
    };
    let mut pieces = Vec::new();
    let mut rest = chunk;
    while rest.chars().count() > limit {
        let boundary = rest
            .char_indices()
            .nth(limit)
            .map_or(rest.len(), |(i, _)| i);
        let cut = rest[..boundary]
            .rfind(' ')
            .or_else(|| rest[boundary..].find(' ').map(|i| boundary + i))
            .map(|i| i + 1);
        match cut {
            Some(cut) if cut < rest.len() => {
                pieces.push(&rest[..cut]);
                rest = &rest[cut..];
            }
            _ => break,
        }
    }
    pieces.push(rest);
    pieces
}

fn is_keyword_line(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("msg") || t.starts_with("#|")
}

/// The lines of `entry` (originally `original`) with a new translation and flags.
pub(super) fn edit_entry(
    original: &[String],
    entry: &Entry,
    target: &[String],
    flags: &[String],
    wrap: Option<usize>,
) -> Vec<String> {
    let eol = if original.first().is_some_and(|l| l.ends_with('\r')) {
        "\r"
    } else {
        ""
    };
    let base = entry.lines.start;
    let mut lines: Vec<String> = original.to_vec();
    let plural = entry.msgid_plural.is_some();
    let rendered: Vec<String> = target
        .iter()
        .enumerate()
        .flat_map(|(i, text)| {
            let keyword = if plural {
                format!("msgstr[{i}]")
            } else {
                "msgstr".to_owned()
            };
            render_string(&keyword, text, wrap, eol)
        })
        .collect();
    let msgstr = entry.msgstr_lines.start - base..entry.msgstr_lines.end - base;
    lines.splice(msgstr, rendered);
    if flags != entry.flags.as_slice() {
        let flags_line = format!("#, {}{eol}", flags.join(", "));
        match (entry.flags_line, flags.is_empty()) {
            (Some(at), true) => {
                lines.remove(at - base);
            }
            (Some(at), false) => lines[at - base] = flags_line,
            (None, false) => {
                let at = lines.iter().position(|l| is_keyword_line(l)).unwrap_or(0);
                lines.insert(at, flags_line);
            }
            (None, true) => {}
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_strings_stay_on_one_line() {
        assert_eq!(
            render_string("msgstr", "Hallo", Some(79), ""),
            vec!["msgstr \"Hallo\""]
        );
        assert_eq!(
            render_string("msgstr", "", Some(79), "\r"),
            vec!["msgstr \"\"\r"]
        );
        assert_eq!(
            render_string("msgstr", "a\n", Some(79), ""),
            vec!["msgstr \"a\\n\""]
        );
    }

    #[test]
    fn long_and_multi_line_strings_wrap_like_gettext() {
        let text = "word ".repeat(30);
        let lines = render_string("msgstr", &text, Some(79), "");
        assert_eq!(lines[0], "msgstr \"\"");
        assert!(lines.iter().all(|l| l.chars().count() <= 79), "{lines:?}");
        let joined: String = lines[1..].iter().map(|l| &l[1..l.len() - 1]).collect();
        assert_eq!(joined, text);
        let multi = render_string("msgstr", "one\ntwo", Some(79), "");
        assert_eq!(multi, vec!["msgstr \"\"", "\"one\\n\"", "\"two\""]);
        let unwrapped = render_string("msgstr", &text, None, "");
        assert_eq!(unwrapped.len(), 1);
    }

    #[test]
    fn overlong_words_are_not_split() {
        let word = "x".repeat(100);
        assert_eq!(wrap_chunk(&word, Some(77)), vec![word.as_str()]);
        assert_eq!(wrap_chunk("ab cd", Some(3)), vec!["ab ", "cd"]);
    }
}
