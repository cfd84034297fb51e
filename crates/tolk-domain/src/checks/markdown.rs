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
/// (`{`) targets.
pub fn md_link(source: &str, target: &str) -> bool {
    let wanted = links(&chars(source));
    if wanted.is_empty() {
        return false;
    }
    let given = links(&chars(target));
    if wanted.len() != given.len() {
        return true;
    }
    let fixed = |links: Vec<Option<String>>| {
        sorted(
            links
                .into_iter()
                .flatten()
                .filter(|url| url.starts_with(['.', '#', '{']))
                .collect(),
        )
    };
    fixed(wanted) != fixed(given)
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
    super::matches_in(c.len(), |at| {
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

/// The links of `c`: inline links `[text](target "title")` with their
/// target, and autolinks `<https://…>` and `<name@host.domain>` (none).
fn links(c: &[char]) -> Vec<Option<String>> {
    super::matches_in(c.len(), |at| link_at(c, at))
}

/// `text` without its links (as [`links`] finds them).
pub(crate) fn without_links(text: &str) -> String {
    let c = chars(text);
    let spans = super::matches_in(c.len(), |at| {
        link_at(&c, at).map(|(_, next)| ((at, next), next))
    });
    let mut kept = String::with_capacity(text.len());
    let mut from = 0;
    for (start, end) in spans {
        kept.extend(&c[from..start]);
        from = end;
    }
    kept.extend(&c[from..]);
    kept
}

/// The link that starts at `at`, with its target, and where it ends.
fn link_at(c: &[char], at: usize) -> Option<(Option<String>, usize)> {
    match c[at] {
        '[' => text_ends(c, at).into_iter().find_map(|end| {
            (c.get(end + 1) == Some(&'('))
                .then(|| link_target(c, end + 2))
                .flatten()
                .map(|(target, next)| (Some(target), next))
        }),
        '<' => autolink(c, at).map(|next| (None, next)),
        _ => None,
    }
}

/// The target of an inline link whose `(` ends before `from`, and where
/// the link ends: the target may be in `<…>` and followed by a quoted
/// title; it ends at the first place the rest closes the link.
fn link_target(c: &[char], from: usize) -> Option<(String, usize)> {
    let start = skip_space(c, from);
    if c.get(start) == Some(&'<') {
        let found = (start + 1..c.len())
            .filter(|&gt| c[gt] == '>')
            .find_map(|gt| closing(c, gt + 1).map(|next| (text_of(&c[start + 1..gt]), next)));
        if found.is_some() {
            return found;
        }
    }
    (start..=c.len()).find_map(|end| closing(c, end).map(|next| (text_of(&c[start..end]), next)))
}

/// Where a link closes when its target ends at `at`: an optional title
/// (white space, then text between quotes), white space, `)`.
fn closing(c: &[char], at: usize) -> Option<usize> {
    let quote = |ch: Option<&char>| matches!(ch, Some('"' | '\''));
    if c.get(at).is_some_and(|ch| ch.is_whitespace()) {
        let open = skip_space(c, at);
        if quote(c.get(open)) {
            let titled = (open + 1..c.len())
                .filter(|&q| quote(c.get(q)))
                .find_map(|q| {
                    let close = skip_space(c, q + 1);
                    (c.get(close) == Some(&')')).then_some(close + 1)
                });
            if titled.is_some() {
                return titled;
            }
        }
    }
    let close = skip_space(c, at);
    (c.get(close) == Some(&')')).then_some(close + 1)
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

/// The markers of the inline markup of `c`, in order.
fn markers(c: &[char]) -> Vec<String> {
    super::matches_in(c.len(), |at| marked(c, at))
}

/// The markup starting at `at`, tried in Weblate's order: its marker and
/// where it ends.
fn marked(c: &[char], at: usize) -> Option<(String, usize)> {
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
    if is(at, '`') {
        // Code: a run of backticks closed by a later run of the same
        // length; the longest opening that closes wins (its rest, if
        // shorter, is part of the code).
        let run = c[at..].iter().take_while(|&&x| x == '`').count();
        let mut later: Vec<(usize, usize)> = Vec::new();
        let mut p = at + run;
        while p < c.len() {
            let length = c[p..].iter().take_while(|&&x| x == '`').count();
            if length > 0 {
                later.push((p, length));
            }
            p += length.max(1);
        }
        for n in (1..=run).rev() {
            let closed = later
                .iter()
                .find(|(start, length)| *length == n && *start > at + n);
            if let Some((start, _)) = closed {
                return Some(("`".repeat(n), start + n));
            }
        }
    }
    if is(at, '~')
        && is(at + 1, '~')
        && c.get(at + 2).is_some_and(|ch| !ch.is_whitespace())
        && let Some(p) =
            (at + 3..c.len()).find(|&p| !c[p - 1].is_whitespace() && is(p, '~') && is(p + 1, '~'))
    {
        return Some(("~~".into(), p + 2));
    }
    if is(at, '<') {
        return autolink(c, at).map(|end| ("<".into(), end));
    }
    None
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

    #[test]
    fn links_keep_count_and_fixed_targets() {
        let source = "Read [docs](./docs.md \"Docs\") or <https://example.com>.";
        assert!(!md_link(
            source,
            "Čti [dokumentaci](./docs.md 'Dokumentace') nebo <https://example.cz>."
        ));
        assert!(md_link(source, "Čti [dokumentaci](./dokumentace.md)."));
        assert!(md_link(
            source,
            "Čti [dokumentaci](./jine.md) nebo <https://example.com>."
        ));
        // Remote targets may be localised.
        assert!(!md_link(
            "[Wiki](https://en.wikipedia.org/)",
            "[Wiki](https://cs.wikipedia.org/)"
        ));
        assert!(md_link("[top](#top)", "[nahoru](#nahoru)"));
        assert!(!md_link("plain", "[x](#y)"));
        assert_eq!(
            links(&chars("[a](<b c> \"t\") [d]( e ) <me@example.org> <x@y>")),
            [Some("b c".to_owned()), Some("e".to_owned()), None]
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
            ["__", "_", "*", "``", "~~", "<"]
        );
        assert_eq!(markers(&chars("**a *b* c**")), ["**"]);
        assert_eq!(markers(&chars("*a **b** c*")), ["*"]);
        assert_eq!(markers(&chars("``a`")), ["`"]);
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
            assert!(!md_link(&text, &text));
            assert!(!md_reflink(&text, &text));
            assert!(!md_syntax(&text, &text));
        }
    }

    #[test]
    fn hostile_text_ends() {
        let odd = "[[[[]]]](((( <<<< ____ **** ```` ~~~~ ]]]] [^] [a](< b";
        for text in [odd, "[", "]", "(", "<", "_", "*", "`", "~", ""] {
            md_link(text, text);
            md_reflink(text, text);
            md_syntax(text, text);
        }
    }
}
