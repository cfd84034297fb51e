//! Markdown in translations (strings flagged `md-text`), after Weblate's
//! rules: the translation keeps the source's reference labels
//! (`md-reflink`), its links (`md-link`: as many, and the same relative,
//! anchor and templated targets; other targets may be localised) and its
//! kinds of inline markup (`md-syntax`: emphasis, strong, code, strike,
//! autolinks).
//!
//! The text is scanned by hand, as the patterns Weblate uses need
//! look-ahead and back-references: each scan walks forward from every
//! position and takes the first construct that starts there, as a regular
//! expression search would.

use std::collections::HashMap;

/// `md-reflink`: the source uses reference links (`[text][label]`) and
/// the translation's labels are not the same set.
pub fn md_reflink(source: &str, target: &str) -> bool {
    let wanted = reference_labels(&chars(source));
    if wanted.is_empty() {
        return false;
    }
    sorted(wanted) != sorted(reference_labels(&chars(target)))
}

/// `md-link`: the source holds links and the translation holds another
/// number of them, or other relative (`.`), anchor (`#`) or templated
/// (`{`) targets, or (Weblate 2026) a link whose title is left out,
/// added, or left `unchanged` from the source's. Links are paired by
/// target first (a translation may reorder them), the rest in order.
pub fn md_link(source: &str, target: &str, unchanged: impl Fn(&str, &str) -> bool) -> bool {
    let wanted = links(&chars(source));
    if wanted.is_empty() {
        return false;
    }
    let given = links(&chars(target));
    if wanted.len() != given.len() {
        return true;
    }
    let fixed = |links: &[Link]| {
        sorted(
            links
                .iter()
                .map(|link| link.target.clone())
                .filter(|url| url.starts_with(['.', '#', '{']))
                .collect(),
        )
    };
    if fixed(&wanted) != fixed(&given) {
        return true;
    }
    if wanted.iter().chain(&given).all(|link| link.title.is_none()) {
        return false;
    }
    let mut free: Vec<bool> = vec![true; given.len()];
    let mut pairs: Vec<(usize, Option<usize>)> = Vec::new();
    for (i, link) in wanted.iter().enumerate() {
        let same_target = (0..given.len()).find(|&j| free[j] && given[j].target == link.target);
        if let Some(j) = same_target {
            free[j] = false;
        }
        pairs.push((i, same_target));
    }
    let mut rest = (0..given.len()).filter(|&j| free[j]);
    let inner = |title: &Option<String>| -> String {
        let text: Vec<char> = title.as_deref().unwrap_or_default().chars().collect();
        text.get(1..text.len().saturating_sub(1))
            .map(text_of)
            .unwrap_or_default()
    };
    let mut paired: Vec<(usize, usize)> = pairs
        .iter()
        .filter_map(|&(i, j)| j.map(|j| (i, j)))
        .collect();
    for &(i, _) in pairs.iter().filter(|(_, j)| j.is_none()) {
        if let Some(j) = rest.next() {
            paired.push((i, j));
        }
    }
    paired.iter().any(|&(i, j)| {
        let (title, translated) = (inner(&wanted[i].title), inner(&given[j].title));
        title.is_empty() != translated.is_empty()
            || (!title.is_empty() && unchanged(&title, &translated))
    })
}

/// `md-syntax`: the kinds of inline markup of source and translation
/// differ (as sets: `**`, `__`, `*`, `_`, each run of backticks, `~~`,
/// and `<` for autolinks).
pub fn md_syntax(source: &str, target: &str) -> bool {
    sorted(markers(&chars(source))) != sorted(markers(&chars(target)))
}

fn chars(text: &str) -> Vec<char> {
    text.chars().collect()
}

/// The distinct items of `list`, in order.
fn sorted(mut list: Vec<String>) -> Vec<String> {
    list.sort();
    list.dedup();
    list
}

fn text_of(chars: &[char]) -> String {
    chars.iter().collect()
}

/// Where the bracketed text of a link opened at `open` (a `[`) may close:
/// the positions of the `]` that can end it, furthest first. Inside, a
/// bracketed part holds no `^` or `]`, and a `]` of the text itself must
/// be followed by another `]` before any `[`.
fn text_ends(c: &[char], open: usize) -> Vec<usize> {
    let mut ends = Vec::new();
    let mut at = open + 1;
    while let Some(&ch) = c.get(at) {
        match ch {
            '[' => match bracket_close(c, at + 1) {
                Some(close) => at = close + 1,
                None => break,
            },
            ']' => {
                ends.push(at);
                let later = c[at + 1..].iter().find(|&&x| x == '[' || x == ']');
                if later != Some(&']') {
                    break;
                }
                at += 1;
            }
            _ => at += 1,
        }
    }
    ends.reverse();
    ends
}

fn skip_space(c: &[char], mut at: usize) -> usize {
    while c.get(at).is_some_and(|ch| ch.is_whitespace()) {
        at += 1;
    }
    at
}

/// The labels of reference links `[text][label]` (text and label may be
/// apart by white space).
fn reference_labels(c: &[char]) -> Vec<String> {
    super::matches::matches_in(c.len(), |at| {
        if c[at] != '[' {
            return None;
        }
        text_ends(c, at).into_iter().find_map(|end| {
            let open = skip_space(c, end + 1);
            if c.get(open) != Some(&'[') {
                return None;
            }
            let close = bracket_close(c, open + 1)?;
            Some((text_of(&c[open + 1..close]), close + 1))
        })
    })
}

/// The `]` that closes a bracketed part from `from` on, with no `^` before it.
fn bracket_close(c: &[char], from: usize) -> Option<usize> {
    let close = from + c.get(from..)?.iter().position(|&x| x == ']' || x == '^')?;
    (c[close] == ']').then_some(close)
}

/// A link of a text.
#[derive(Debug, PartialEq, Eq)]
struct Link {
    /// Its target (empty for autolinks).
    target: String,
    /// Its title with its delimiters (`"…"`, `'…'`, `(…)`), if any.
    title: Option<String>,
}

/// The links of `c`: inline links `[text](target "title")` and autolinks
/// `<https://…>` and `<name@host.domain>`.
fn links(c: &[char]) -> Vec<Link> {
    super::matches::matches_in(c.len(), |at| link_at(c, at))
}

/// `text` without its links (as [`links`] finds them).
pub(crate) fn without_links(text: &str) -> String {
    replacing_links(text, |_| String::new())
}

/// `text` with each of its links (as [`links`] finds them) replaced by
/// what `by` makes of it.
pub(crate) fn replacing_links(text: &str, mut by: impl FnMut(String) -> String) -> String {
    let c = chars(text);
    let spans = super::matches::matches_in(c.len(), |at| {
        link_at(&c, at).map(|(_, next)| ((at, next), next))
    });
    let mut kept = String::with_capacity(text.len());
    let mut from = 0;
    for (start, end) in spans {
        kept.extend(&c[from..start]);
        kept.push_str(&by(c[start..end].iter().collect()));
        from = end;
    }
    kept.extend(&c[from..]);
    kept
}

/// The link that starts at `at`, and where it ends.
fn link_at(c: &[char], at: usize) -> Option<(Link, usize)> {
    match c[at] {
        '[' => text_ends(c, at).into_iter().find_map(|end| {
            (c.get(end + 1) == Some(&'('))
                .then(|| link_target(c, end + 2))
                .flatten()
        }),
        '<' => autolink(c, at).map(|next| {
            let link = Link {
                target: String::new(),
                title: None,
            };
            (link, next)
        }),
        _ => None,
    }
}

/// The target and title of an inline link whose `(` ends before `from`,
/// and where the link ends: the target may be in `<…>` and followed by a
/// title; it ends at the first place the rest closes the link.
fn link_target(c: &[char], from: usize) -> Option<(Link, usize)> {
    let start = skip_space(c, from);
    let link = |target: &[char], (title, next): (Option<String>, usize)| {
        let target = text_of(target);
        (Link { target, title }, next)
    };
    if c.get(start) == Some(&'<') {
        let found = (start + 1..c.len())
            .filter(|&gt| c[gt] == '>')
            .find_map(|gt| closing(c, gt + 1).map(|end| link(&c[start + 1..gt], end)));
        if found.is_some() {
            return found;
        }
    }
    (start..=c.len()).find_map(|end| closing(c, end).map(|rest| link(&c[start..end], rest)))
}

/// Where a link closes when its target ends at `at`: an optional title
/// (white space, then the title), white space, `)`; with the title.
fn closing(c: &[char], at: usize) -> Option<(Option<String>, usize)> {
    if c.get(at).is_some_and(|ch| ch.is_whitespace()) {
        let open = skip_space(c, at);
        if let Some(end) = title_end(c, open) {
            let close = skip_space(c, end);
            if c.get(close) == Some(&')') {
                return Some((Some(text_of(&c[open..end])), close + 1));
            }
        }
    }
    let close = skip_space(c, at);
    (c.get(close) == Some(&')')).then_some((None, close + 1))
}

/// Where a link title opened at `open` ends, past its closing delimiter:
/// `"…"`, `'…'` or `(…)` (holding no other `(`), where a backslash
/// escapes the next character but a line break.
fn title_end(c: &[char], open: usize) -> Option<usize> {
    let (close, nested) = match c.get(open)? {
        '"' => ('"', None),
        '\'' => ('\'', None),
        '(' => (')', Some('(')),
        _ => return None,
    };
    let mut p = open + 1;
    while let Some(&ch) = c.get(p) {
        if ch == '\\' {
            if c.get(p + 1).is_none_or(|next| *next == '\n') {
                return None;
            }
            p += 2;
        } else if ch == close {
            return Some(p + 1);
        } else if Some(ch) == nested {
            return None;
        } else {
            p += 1;
        }
    }
    None
}

/// Where an autolink opened at `open` (a `<`) ends: `<http://…>`,
/// `<https://…>` or `<a@b.c>`, with no `>` inside.
fn autolink(c: &[char], open: usize) -> Option<usize> {
    let close = open + 1 + c[open + 1..].iter().position(|&x| x == '>')?;
    let inner = text_of(&c[open + 1..close]);
    let web = ["http://", "https://"]
        .iter()
        .any(|scheme| inner.len() > scheme.len() && inner.starts_with(scheme));
    // Some `@` after the first character, with a `.` later that has a
    // character on either side.
    let mail = inner.match_indices('@').any(|(a, _)| {
        a > 0
            && inner[a + 1..]
                .match_indices('.')
                .any(|(d, _)| d > 0 && a + 1 + d + 1 < inner.len())
    });
    (web || mail).then_some(close + 1)
}

fn is_word(ch: Option<&char>) -> bool {
    ch.is_some_and(|ch| ch.is_alphanumeric() || *ch == '_')
}

/// The kinds of inline markup of `c`, as Weblate 2026 reads them: the
/// opening backticks of each code span and `<` for each autolink (not one
/// inside a code span), then emphasis, strong and strike-through markers
/// in the rest (code spans and autolinks blanked out).
fn markers(c: &[char]) -> Vec<String> {
    let links = autolinks(c);
    let spans = code_spans(c, &links);
    let mut found: Vec<String> = spans
        .iter()
        .map(|span| c[span.start..span.opening_end].iter().collect())
        .collect();
    let mut blank: Vec<(usize, usize)> = spans.iter().map(|s| (s.start, s.end)).collect();
    for (&start, &end) in &links {
        if !spans.iter().any(|s| s.start < start && start < s.end) {
            found.push("<".into());
            blank.push((start, end));
        }
    }
    let mut masked = c.to_vec();
    for (start, end) in blank {
        masked[start..end].iter_mut().for_each(|ch| *ch = 'x');
    }
    found.extend(super::matches::matches_in(masked.len(), |at| {
        emphasis(&masked, at)
    }));
    found
}

/// The emphasis, strong or strike-through markup starting at `at`, tried
/// in Weblate's order: its marker and where it ends.
fn emphasis(c: &[char], at: usize) -> Option<(String, usize)> {
    let is = |n: usize, ch: char| c.get(n) == Some(&ch);
    let pair = |ch: char| -> Option<usize> {
        // `__…__` and `**…**`: any text, closed by a pair not followed by a third.
        (is(at, ch) && is(at + 1, ch))
            .then(|| (at + 3..c.len()).find(|&p| is(p, ch) && is(p + 1, ch) && !is(p + 2, ch)))
            .flatten()
            .map(|p| p + 2)
    };
    if let Some(end) = pair('_') {
        return Some(("__".into(), end));
    }
    if let Some(end) = pair('*') {
        return Some(("**".into(), end));
    }
    // `_…_` between word boundaries, `*…*`: inside, doubled markers or other text.
    let single = |ch: char, closes: &dyn Fn(usize) -> bool| -> Option<usize> {
        let mut p = at + 1;
        let mut first = true;
        while p < c.len() {
            if !first && is(p, ch) && closes(p) {
                return Some(p + 1);
            }
            first = false;
            if is(p, ch) {
                if !is(p + 1, ch) {
                    return None;
                }
                p += 2;
            } else {
                p += 1;
            }
        }
        None
    };
    if is(at, '_')
        && !is_word(at.checked_sub(1).and_then(|p| c.get(p)))
        && let Some(end) = single('_', &|p| !is_word(c.get(p + 1)))
    {
        return Some(("_".into(), end));
    }
    if is(at, '*')
        && let Some(end) = single('*', &|p| !is(p + 1, '*'))
    {
        return Some(("*".into(), end));
    }
    if is(at, '~')
        && is(at + 1, '~')
        && c.get(at + 2).is_some_and(|ch| !ch.is_whitespace())
        && let Some(p) =
            (at + 3..c.len()).find(|&p| !c[p - 1].is_whitespace() && is(p, '~') && is(p + 1, '~'))
    {
        return Some(("~~".into(), p + 2));
    }
    None
}

/// Markdown autolinks (`<https://…>`, `<name@host.tld>`) as Weblate 2026
/// finds them: where each starts, with where it ends. A `<` after an odd number of backslashes
/// opens none.
pub(crate) fn autolinks(c: &[char]) -> HashMap<usize, usize> {
    let mut found = HashMap::new();
    let mut opening: Option<usize> = None;
    let mut backslashes = 0;
    for (at, &ch) in c.iter().enumerate() {
        if ch == '\\' {
            backslashes += 1;
            continue;
        }
        let escaped = backslashes % 2 == 1;
        backslashes = 0;
        if ch == '<' && !escaped {
            opening = Some(at);
        } else if ch == '>'
            && let Some(open) = opening.take()
            && is_autolink(&c[open + 1..at])
        {
            found.insert(open, at + 1);
        }
    }
    found
}

/// Whether the text between `<` and `>` makes an autolink: a web address
/// with something after the scheme, or an `@` after the first character
/// with a `.` later that has characters on both sides.
fn is_autolink(value: &[char]) -> bool {
    for scheme in ["http://", "https://"] {
        let scheme: Vec<char> = scheme.chars().collect();
        if value.starts_with(&scheme) {
            return value.len() > scheme.len();
        }
    }
    let Some(at) = value
        .iter()
        .skip(1)
        .position(|&ch| ch == '@')
        .map(|p| p + 1)
    else {
        return false;
    };
    (at + 2..value.len().saturating_sub(1)).any(|dot| value[dot] == '.')
}

/// A run of backticks: where it starts and ends, whether it may open and
/// close a code span.
struct Run {
    start: usize,
    end: usize,
    opens: bool,
    closes: bool,
}

/// A Markdown code span.
pub(crate) struct CodeSpan {
    /// Where its opening run of backticks starts.
    pub(crate) start: usize,
    /// Where that run ends.
    pub(crate) opening_end: usize,
    /// Where the span ends, past its closing run.
    pub(crate) end: usize,
}

/// Markdown code spans, in order. A span closes at the next run of as
/// many backticks; a backslash before a run escapes its first backtick
/// (the rest may open a span, the whole may close one); a run inside an
/// autolink opens none.
pub(crate) fn code_spans(c: &[char], autolinks: &HashMap<usize, usize>) -> Vec<CodeSpan> {
    let mut runs: Vec<Run> = Vec::new();
    let mut at = 0;
    let mut backslashes = 0;
    while at < c.len() {
        if c[at] != '`' {
            backslashes = if c[at] == '\\' { backslashes + 1 } else { 0 };
            at += 1;
            continue;
        }
        let mut end = at + 1;
        while c.get(end) == Some(&'`') {
            end += 1;
        }
        if backslashes % 2 == 1 {
            runs.push(Run {
                start: at,
                end,
                opens: false,
                closes: true,
            });
            if at + 1 < end {
                runs.push(Run {
                    start: at + 1,
                    end,
                    opens: true,
                    closes: false,
                });
            }
        } else {
            runs.push(Run {
                start: at,
                end,
                opens: true,
                closes: true,
            });
        }
        at = end;
        backslashes = 0;
    }
    // For each run, the next later run of its length that may close it.
    let mut closer: Vec<Option<usize>> = vec![None; runs.len()];
    let mut last_of_length: HashMap<usize, usize> = HashMap::new();
    for index in (0..runs.len()).rev() {
        let length = runs[index].end - runs[index].start;
        closer[index] = last_of_length.get(&length).copied();
        if runs[index].closes {
            last_of_length.insert(length, index);
        }
    }
    let inside_autolink = |at: usize| {
        autolinks
            .iter()
            .any(|(&start, &end)| start <= at && at < end)
    };
    let mut spans = Vec::new();
    let mut index = 0;
    while index < runs.len() {
        let run = &runs[index];
        let Some(close) = closer[index].filter(|_| run.opens && !inside_autolink(run.start)) else {
            index += 1;
            continue;
        };
        let end = runs[close].end;
        spans.push(CodeSpan {
            start: run.start,
            opening_end: run.end,
            end,
        });
        index = close + 1;
        while runs.get(index).is_some_and(|r| r.start < end) {
            index += 1;
        }
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_labels_must_match() {
        let source = "See [the guide][guide] and ![logo] [img].";
        assert!(!md_reflink(source, "Viz [návod][guide] a ![logo][img]."));
        assert!(md_reflink(source, "Viz [návod][navod] a ![logo][img]."));
        assert!(md_reflink(source, "Viz návod."));
        assert!(!md_reflink("No references [here](x).", "Nic [zde][x]."));
        assert_eq!(
            reference_labels(&chars("[a [b] c][d] [x^][y] [x][^y]")),
            ["d".to_owned(), "y".to_owned()]
        );
    }

    /// `md-link` with titles compared as they are written.
    fn md_link_check(source: &str, target: &str) -> bool {
        md_link(source, target, |a, b| a == b)
    }

    #[test]
    fn links_keep_count_and_fixed_targets() {
        let source = "Read [docs](./docs.md \"Docs\") or <https://example.com>.";
        assert!(!md_link_check(
            source,
            "Čti [dokumentaci](./docs.md 'Dokumentace') nebo <https://example.cz>."
        ));
        assert!(md_link_check(
            source,
            "Čti [dokumentaci](./dokumentace.md)."
        ));
        assert!(md_link_check(
            source,
            "Čti [dokumentaci](./jine.md) nebo <https://example.com>."
        ));
        // Remote targets may be localised.
        assert!(!md_link_check(
            "[Wiki](https://en.wikipedia.org/)",
            "[Wiki](https://cs.wikipedia.org/)"
        ));
        assert!(md_link_check("[top](#top)", "[nahoru](#nahoru)"));
        assert!(!md_link_check("plain", "[x](#y)"));
        assert_eq!(
            links(&chars("[a](<b c> \"t\") [d]( e ) <me@example.org> <x@y>")),
            [
                Link {
                    target: "b c".into(),
                    title: Some("\"t\"".into())
                },
                Link {
                    target: "e".into(),
                    title: None
                },
                Link {
                    target: String::new(),
                    title: None
                }
            ]
        );
    }

    #[test]
    fn link_titles_are_translated_and_kept() {
        let source = "See [a](./a.md \"Guide\") and [b](https://x.org/ (Site))";
        // Titles translated, links reordered: paired by target.
        assert!(!md_link_check(
            source,
            "Viz [b](https://x.org/ (Web)) a [a](./a.md \"Návod\")"
        ));
        // A title left out, or left as the source has it.
        assert!(md_link_check(
            source,
            "Viz [a](./a.md) a [b](https://x.org/ (Web))"
        ));
        assert!(md_link_check(
            source,
            "Viz [a](./a.md \"Guide\") a [b](https://x.org/ (Web))"
        ));
        // Escaped delimiters belong to the title; a bare `(` ends none.
        assert_eq!(
            links(&chars(r#"[a](u "x \" y") [b](v (p(q)))"#))
                .into_iter()
                .map(|l| l.title)
                .collect::<Vec<_>>(),
            // The second link's target is `v (p(q`, up to the first `)`.
            [Some(r#""x \" y""#.to_owned()), None]
        );
    }

    #[test]
    fn markup_kinds_must_match() {
        assert!(!md_syntax(
            "Use **bold** and `code`",
            "Použij `kód` a **tučné**"
        ));
        assert!(md_syntax("Use **bold**", "Použij *tučné*"));
        assert!(md_syntax("plain", "~~struck~~"));
        assert!(!md_syntax("snake_case_name", "snake_case_name"));
        assert_eq!(
            markers(&chars(
                "__a__ _b_ *c* ``d`` ~~e~~ <https://x.org> a_b_c ~~ f~~"
            )),
            ["``", "<", "__", "_", "*", "~~"]
        );
        assert_eq!(markers(&chars("**a *b* c**")), ["**"]);
        assert_eq!(markers(&chars("*a **b** c*")), ["*"]);
        // A code span closes only at a run as long as its opening one.
        assert!(markers(&chars("``a`")).is_empty());
        // Code spans and autolinks hide the markup inside them.
        assert_eq!(markers(&chars("Use `*x*` and <https://a_b_>")), ["`", "<"]);
    }

    #[test]
    fn damaged_markdown_never_panics() {
        let pieces = [
            "[", "]", "(", ")", "<", ">", "_", "__", "*", "**", "`", "``", "~~", "!", "^", " ",
            "\"", "'", "#", ".", "{", "@", "http://", "a", "é", "\n",
        ];
        let mut found = 0;
        for text in crate::checks::shuffled_texts(&pieces, 20_000, 30) {
            found += links(&chars(&text)).len() + markers(&chars(&text)).len();
            md_reflink(&text, "x");
        }
        assert!(found > 1_000, "links and markup come up too: {found}");
    }

    /// Long runs of what opens markup that never closes: each scan stays
    /// within a square of the length (a test run would hang otherwise).
    #[test]
    fn long_unclosed_markup_is_scanned_in_time() {
        for text in [
            "[".to_owned() + &"](".repeat(1500),
            "[".to_owned() + &"] ( \"".repeat(600),
            "[a".repeat(1500),
            "`".repeat(3000) + "a",
            "_a".repeat(1500),
            "~~a ".repeat(800),
            "<".repeat(3000),
            "[x](".repeat(800),
        ] {
            assert!(!md_link_check(&text, &text));
            assert!(!md_reflink(&text, &text));
            assert!(!md_syntax(&text, &text));
        }
    }

    #[test]
    fn hostile_text_ends() {
        let odd = "[[[[]]]](((( <<<< ____ **** ```` ~~~~ ]]]] [^] [a](< b";
        for text in [odd, "[", "]", "(", "<", "_", "*", "`", "~", ""] {
            md_link_check(text, text);
            md_reflink(text, text);
            md_syntax(text, text);
        }
    }
}
