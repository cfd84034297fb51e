//! Glossary terms in strings, after Weblate's matching, and the checks
//! that judge by them: `check_glossary` (with `check-glossary`: a
//! translation follows the terms its source holds) and
//! `prohibited_initial_character` (a glossary's term starts with a
//! character spreadsheets read as a formula, or with a space).

/// A glossary term in a translation's language.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Term {
    /// The term in the source language.
    pub source: String,
    /// Its translation (empty while untranslated).
    pub target: String,
    /// With `forbidden`: a translation must not use `target`.
    pub forbidden: bool,
    /// With `read-only`: the term stays as it is (a name), so a
    /// translation keeps `source`.
    pub untranslatable: bool,
}

/// Languages whose script does not separate words with spaces (a term
/// is found anywhere in their texts, not only as a whole word).
const NO_SPACES: &[&str] = &["zh", "ja", "th", "km", "lo", "my", "ko"];

/// Whether texts in `language` separate words with spaces.
pub fn separates_words(language: &str) -> bool {
    let base = language
        .split(['_', '-', '@'])
        .next()
        .unwrap_or(language)
        .to_ascii_lowercase();
    !NO_SPACES.contains(&base.as_str())
}

/// Finds any of many glossary terms in texts at once (an Aho-Corasick
/// automaton), as Weblate finds them: in small letters, matches allowed
/// to overlap, as whole words (neither end touching a letter, digit or
/// `_`) where the language is written with spaces.
#[derive(Debug, Clone)]
pub struct TermFinder {
    automaton: Option<aho_corasick::AhoCorasick>,
    /// The index in the list given of each term the automaton holds.
    given: Vec<usize>,
}

impl TermFinder {
    /// A finder of `terms` (empty ones left out).
    pub fn new<'a>(terms: impl IntoIterator<Item = &'a str>) -> TermFinder {
        let (given, lowered): (Vec<usize>, Vec<String>) = terms
            .into_iter()
            .map(str::to_lowercase)
            .enumerate()
            .filter(|(_, term)| !term.is_empty())
            .unzip();
        // Building fails only past billions of states, far beyond what
        // any glossary's terms make.
        let automaton = (!lowered.is_empty())
            .then(|| aho_corasick::AhoCorasick::new(&lowered).ok())
            .flatten();
        TermFinder { automaton, given }
    }

    /// The indexes (in the list given) of the terms `text` holds, in any
    /// case, as whole words when `whole_words`; sorted, each once.
    pub fn found_in(&self, text: &str, whole_words: bool) -> Vec<usize> {
        let Some(automaton) = &self.automaton else {
            return Vec::new();
        };
        let text = text.to_lowercase();
        let mut found: Vec<usize> = automaton
            .find_overlapping_iter(&text)
            .filter(|m| !whole_words || whole_word(&text, m.start(), m.end()))
            .map(|m| self.given[m.pattern().as_usize()])
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }

    /// Whether `text` holds one of the terms as a whole word, in any case.
    pub fn finds_in(&self, text: &str) -> bool {
        let Some(automaton) = &self.automaton else {
            return false;
        };
        let text = text.to_lowercase();
        automaton
            .find_overlapping_iter(&text)
            .any(|found| whole_word(&text, found.start(), found.end()))
    }
}

/// The terms of a translation's language in its project's glossaries,
/// ready to be found in strings.
#[derive(Debug, Clone)]
pub struct Glossary {
    terms: Vec<Term>,
    finder: TermFinder,
}

/// A glossary of no term.
pub static NO_GLOSSARY: Glossary = Glossary {
    terms: Vec::new(),
    finder: TermFinder {
        automaton: None,
        given: Vec::new(),
    },
};

impl Glossary {
    /// A glossary of these terms.
    pub fn new(terms: Vec<Term>) -> Glossary {
        let finder = TermFinder::new(terms.iter().map(|term| term.source.as_str()));
        Glossary { terms, finder }
    }

    /// Whether it has no term.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The terms whose source `source` holds (as whole words where the
    /// source language is written with spaces), in the glossary's order.
    pub fn matching(&self, source: &str, whole_words: bool) -> Vec<&Term> {
        self.finder
            .found_in(source, whole_words)
            .into_iter()
            .filter_map(|index| self.terms.get(index))
            .collect()
    }
}

/// Whether the part `start..end` of `text` touches no letter, digit or
/// `_` on either side.
fn whole_word(text: &str, start: usize, end: usize) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    !word(text[..start].chars().next_back()) && !word(text[end..].chars().next())
}

/// Whether `text` (in small letters) holds `term`, in any case; with
/// `whole_words`, only where neither end of it touches a letter, digit or
/// `_`.
fn holds(text: &str, term: &str, whole_words: bool) -> bool {
    let term = term.to_lowercase();
    if term.is_empty() {
        return true;
    }
    text.match_indices(&term)
        .any(|(at, found)| !whole_words || whole_word(text, at, at + found.len()))
}

/// Whether `target` leaves the glossary: a term of `source` is not
/// translated as the glossary says (a term of several translations
/// needs one of them), or a forbidden translation is used. `languages`
/// say whether the source's and the translation's languages are written
/// with spaces.
pub fn misses_terms(
    source: &str,
    target: &str,
    glossary: &Glossary,
    (source_spaced, target_spaced): (bool, bool),
) -> bool {
    let target = target.to_lowercase();
    let mut missing: Vec<String> = Vec::new();
    let mut followed: Vec<String> = Vec::new();
    for term in glossary.matching(source, source_spaced) {
        let expected = if term.untranslatable {
            &term.source
        } else {
            &term.target
        };
        let found = holds(&target, expected, target_spaced);
        let key = term.source.to_lowercase();
        if term.forbidden {
            if found {
                return true;
            }
        } else if found {
            missing.retain(|m| *m != key);
            followed.push(key);
        } else if !followed.contains(&key) {
            missing.push(key);
        }
    }
    !missing.is_empty()
}

/// Whether a glossary's term (`source` or `target`) starts with a
/// character a spreadsheet reads as a formula (`=`, `+`, `-`, `@`, `|`,
/// `%`) or with white space.
pub fn prohibited_initial_character(source: &str, target: &str) -> bool {
    [source, target].iter().any(|text| {
        text.chars()
            .next()
            .is_some_and(|c| "=+-@|%".contains(c) || c.is_whitespace())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(source: &str, target: &str) -> Term {
        Term {
            source: source.into(),
            target: target.into(),
            ..Term::default()
        }
    }

    #[test]
    fn the_finder_finds_whole_words_among_many_terms() {
        let finder = TermFinder::new(["File", "a.b", "open file", ""]);
        assert!(finder.finds_in("Open FILE now"));
        assert!(finder.finds_in("see a.b."));
        assert!(!finder.finds_in("Profile"));
        assert!(!finder.finds_in("files"));
        // Overlapping matches: `open file` fails as a word, `file` holds.
        let finder = TermFinder::new(["reopen file", "file"]);
        assert!(finder.finds_in("reopen file"));
        assert!(finder.finds_in("to reopen file"));
        assert!(!TermFinder::new(["x"]).finds_in("xx"));
        assert!(!TermFinder::new(Vec::<&str>::new()).finds_in("anything"));
        // Far more terms than one regular expression may hold.
        let many: Vec<String> = (0..20_000).map(|i| format!("term{i} word")).collect();
        let finder = TermFinder::new(many.iter().map(String::as_str));
        assert!(finder.finds_in("A TERM19999 Word here"));
        assert!(!finder.finds_in("term20000 word"));
    }

    #[test]
    fn terms_match_as_whole_words_in_any_case() {
        let glossary = Glossary::new(vec![
            term("file", "soubor"),
            term("open file", "otevřít soubor"),
        ]);
        let found: Vec<&str> = glossary
            .matching("Open File now", true)
            .iter()
            .map(|t| t.source.as_str())
            .collect();
        assert_eq!(found, ["file", "open file"]);
        assert!(glossary.matching("Profile", true).is_empty());
        assert_eq!(glossary.matching("ファイルfile", false).len(), 1);
        assert!(NO_GLOSSARY.matching("file", true).is_empty());
    }

    #[test]
    fn translations_follow_the_glossary_or_fail() {
        let spaced = (true, true);
        let terms = Glossary::new(vec![
            term("file", "soubor"),
            term("file", "složka"),
            Term {
                untranslatable: true,
                ..term("Tolk", "")
            },
            Term {
                forbidden: true,
                ..term("folder", "adresář")
            },
        ]);
        assert!(!misses_terms("Open file", "Otevřít soubor", &terms, spaced));
        assert!(
            !misses_terms("Open file", "Otevřít složka", &terms, spaced),
            "one of a term's translations is enough"
        );
        assert!(misses_terms(
            "Open file",
            "Otevřít dokument",
            &terms,
            spaced
        ));
        assert!(!misses_terms("Tolk file", "Tolk soubor", &terms, spaced));
        assert!(
            misses_terms("Tolk file", "Tolku soubor", &terms, spaced),
            "a name kept"
        );
        assert!(misses_terms(
            "Open folder",
            "Otevřít adresář",
            &terms,
            spaced
        ));
        assert!(!misses_terms(
            "Open folder",
            "Otevřít složku",
            &terms,
            spaced
        ));
        assert!(!misses_terms("Save", "Uložit", &terms, spaced), "no term");
    }

    #[test]
    fn terms_starting_like_formulas_are_refused() {
        assert!(prohibited_initial_character("=SUM(A1)", "součet"));
        assert!(prohibited_initial_character("sum", " součet"));
        assert!(!prohibited_initial_character("sum", "součet"));
        assert!(!prohibited_initial_character("", ""));
    }
}
