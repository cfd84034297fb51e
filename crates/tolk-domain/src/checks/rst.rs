//! reStructuredText in translations (strings flagged `rst-text`), after
//! Weblate's `rst-references` rule: the translation keeps the source's
//! interpreted-text roles with their targets (`:ref:`label``,
//! `:doc:`text <target>``; roles whose text is translated, such as
//! `:guilabel:`, only as roles), its footnotes (`[#note]_`), and as many
//! inline links (`` `text <url>`_ ``) and link references (`` `text`_ ``).
//!
//! Each construct must stand apart from words: what precedes it and what
//! follows it is no letter, digit or `_`.

/// Roles whose text is translated: only the role itself must stay.
const TRANSLATED_ROLES: &[&str] = &[
    ":guilabel:",
    ":file:",
    ":code:",
    ":math:",
    ":eq:",
    ":abbr:",
    ":dfn:",
    ":menuselection:",
    ":sub:",
    ":sup:",
    ":kbd:",
    ":index:",
    ":samp:",
];

/// `rst-references`: the roles and footnotes of source and translation
/// differ (counted, in any order), or their numbers of inline links or of
/// link references do.
pub fn rst_references(source: &str, target: &str) -> bool {
    let (s, t) = (Scan::new(source), Scan::new(target));
    let keys = |scan: &Scan| {
        let mut keys = scan.references();
        keys.sort();
        keys
    };
    keys(&s) != keys(&t)
        || s.count(Scan::inline_link) != t.count(Scan::inline_link)
        || s.count(Scan::link_reference) != t.count(Scan::link_reference)
}

/// A text as characters, scanned for constructs that stand apart from
/// words.
struct Scan(Vec<char>);

impl Scan {
    fn new(text: &str) -> Scan {
        Scan(text.chars().collect())
    }

    fn is(&self, at: usize, ch: char) -> bool {
        self.0.get(at) == Some(&ch)
    }

    fn word(&self, at: usize) -> bool {
        self.0
            .get(at)
            .is_some_and(|ch| ch.is_alphanumeric() || *ch == '_')
    }

    /// Whether a construct may start at `at` (nothing of a word before it).
    fn apart_before(&self, at: usize) -> bool {
        at == 0 || !self.word(at - 1)
    }

    /// The first of `stops` from `from` on.
    fn find(&self, from: usize, stops: &[char]) -> Option<usize> {
        let rest = self.0.get(from..)?;
        rest.iter()
            .position(|ch| stops.contains(ch))
            .map(|n| from + n)
    }

    /// Every match of `construct` from left to right, without overlaps.
    fn all<T>(&self, construct: impl Fn(&Scan, usize) -> Option<(T, usize)>) -> Vec<T> {
        super::matches::matches_in(self.0.len(), |at| construct(self, at))
    }

    fn count(&self, construct: fn(&Scan, usize) -> Option<((), usize)>) -> usize {
        self.all(construct).len()
    }

    /// What the roles and footnotes are compared by: a role with its
    /// target (the role alone when its text is translated), a footnote
    /// as written.
    fn references(&self) -> Vec<String> {
        let mut keys = self.all(Scan::role);
        keys.extend(self.all(Scan::footnote));
        keys
    }

    /// `:role:`target`` or `:role:`text <target>`` at `at`: its key and end.
    fn role(&self, at: usize) -> Option<(String, usize)> {
        if !self.is(at, ':') || !self.apart_before(at) {
            return None;
        }
        let run = self.0[at + 1..]
            .iter()
            .take_while(|ch| ch.is_ascii_lowercase() || **ch == ':')
            .count();
        let tick = at + 1 + run;
        if run < 2 || !self.is(tick - 1, ':') || !self.is(tick, '`') {
            return None;
        }
        let role: String = self.0[at..tick].iter().collect();
        let (target, end) = self
            .plain_target(tick + 1)
            .or_else(|| self.named_target(tick + 1))?;
        let key = if TRANSLATED_ROLES.contains(&role.as_str()) {
            role
        } else {
            role + &target
        };
        Some((key, end))
    }

    /// Whether a construct ending before `end` stands apart from what follows.
    fn apart_after(&self, end: usize) -> bool {
        !self.is(end, '`') && !self.word(end)
    }

    /// `target`` from `start`: two characters or more, no `<`, starting and
    /// ending with no space; the target and where the role ends.
    fn plain_target(&self, start: usize) -> Option<(String, usize)> {
        if matches!(self.0.get(start), None | Some('<' | ' ')) {
            return None;
        }
        let mut close = start + 1;
        loop {
            close = self.find(close, &['`', '<'])?;
            if self.is(close, '<') {
                return None;
            }
            if close >= start + 2 && !self.is(close - 1, ' ') && self.apart_after(close + 1) {
                return Some((self.0[start..close].iter().collect(), close + 1));
            }
            close += 1;
        }
    }

    /// `text <target>`` from `start`: the target and where the role ends.
    fn named_target(&self, start: usize) -> Option<(String, usize)> {
        if matches!(self.0.get(start), None | Some('<' | ' ')) {
            return None;
        }
        let open = self.find(start + 1, &['<'])?;
        let mut close = open + 2;
        loop {
            close = self.find(close, &['>', '<'])?;
            if self.is(close, '<') {
                return None;
            }
            if self.is(close + 1, '`') && self.apart_after(close + 2) {
                return Some((self.0[open + 1..close].iter().collect(), close + 2));
            }
            close += 1;
        }
    }

    /// `[#name]_` at `at`: as written, and its end.
    fn footnote(&self, at: usize) -> Option<(String, usize)> {
        if !self.is(at, '[') || !self.is(at + 1, '#') || !self.apart_before(at) {
            return None;
        }
        let close = self.find(at + 2, &[']'])?;
        let end = close + 2;
        (close > at + 2 && self.is(close + 1, '_') && !self.word(end))
            .then(|| (self.0[at..end].iter().collect(), end))
    }

    /// The text of a link from the backtick at `at`: where it ends (at a
    /// `` ` `` or `<` that must come next), when it is one character or
    /// more with no space last.
    fn link_text(&self, at: usize) -> Option<usize> {
        if !self.is(at, '`') || !self.apart_before(at) {
            return None;
        }
        let stop = self.find(at + 1, &['`', '<'])?;
        Some(stop)
    }

    /// `` `text <url>`_ `` at `at`.
    fn inline_link(&self, at: usize) -> Option<((), usize)> {
        let open = self.link_text(at)?;
        let text_end = open.checked_sub(1)?;
        if !self.is(open, '<') || !self.is(text_end, ' ') || text_end <= at + 1 {
            return None;
        }
        if matches!(self.0.get(text_end - 1), Some('`' | ' ' | '<')) {
            return None;
        }
        let close = self.find(open + 1, &['`', '>', ' '])?;
        let end = close + 3;
        (self.is(close, '>')
            && self.is(close + 1, '`')
            && self.is(close + 2, '_')
            && !self.word(end))
        .then_some(((), end))
    }

    /// `` `text`_ `` at `at`.
    fn link_reference(&self, at: usize) -> Option<((), usize)> {
        let close = self.link_text(at)?;
        let end = close + 2;
        (self.is(close, '`')
            && close > at + 1
            && !self.is(close - 1, ' ')
            && self.is(close + 1, '_')
            && !self.word(end))
        .then_some(((), end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_keep_their_targets() {
        let source = "See :ref:`install` and :doc:`the guide <guide>`.";
        assert!(!rst_references(
            source,
            "Viz :doc:`návod <guide>` a :ref:`install`."
        ));
        assert!(rst_references(
            source,
            "Viz :ref:`instalace` a :doc:`návod <guide>`."
        ));
        assert!(rst_references(source, "Viz :ref:`install`."));
        // Translated roles only keep the role.
        assert!(!rst_references(
            "Click :guilabel:`Save`.",
            "Klikněte na :guilabel:`Uložit`."
        ));
        assert!(rst_references(
            "Click :guilabel:`Save`.",
            "Klikněte na :kbd:`Uložit`."
        ));
        assert_eq!(
            Scan::new(":ref:`a b` x:ref:`c` :ref:` d` :py:func:`f <g>` :a:`<b>`").references(),
            [":ref:a b".to_owned(), ":py:func:g".to_owned()]
        );
    }

    #[test]
    fn footnotes_and_links_are_counted() {
        assert!(!rst_references("Note [#n1]_.", "Pozn. [#n1]_."));
        assert!(rst_references("Note [#n1]_.", "Pozn. [#n2]_."));
        assert!(rst_references("Note [#n1]_.", "Pozn."));
        let links = "Read `the docs <https://example.com>`_ or `Guide`_.";
        assert!(!rst_references(
            links,
            "Čti `dokumentaci <https://example.cz>`_ nebo `Návod`_."
        ));
        assert!(rst_references(links, "Čti dokumentaci nebo `Návod`_."));
        assert!(rst_references(
            links,
            "Čti `dokumentaci <https://example.cz>`_."
        ));
        let scan = Scan::new("`a <b>`_ `c`_ `d`_x ` e`_ `f `_");
        assert_eq!(
            (
                scan.count(Scan::inline_link),
                scan.count(Scan::link_reference)
            ),
            (1, 2)
        );
    }

    #[test]
    fn damaged_text_never_panics() {
        let pieces = [":", "ref", "`", "<", ">", "_", "[", "#", "]", " ", "a", "é"];
        let mut found = 0;
        for text in crate::checks::shuffled_texts(&pieces, 20_000, 24) {
            let scan = Scan::new(&text);
            found += scan.references().len()
                + scan.count(Scan::inline_link)
                + scan.count(Scan::link_reference);
        }
        assert!(found > 100, "references come up too: {found}");
        let long = ":ref:`".repeat(2000) + &"`<".repeat(2000);
        assert!(!rst_references(&long, &long));
    }
}
