//! Words and placeholders: a translation must not repeat a word twice in
//! a row where its source does not, and must keep the placeholders its
//! `placeholders:` flag lists.

use std::sync::LazyLock;

use regex::Regex;

use super::fixed_regex::fixed_regex;

/// Words that languages repeat on purpose: French reflexives (`nous
/// nous`), Turkish, Vietnamese and Frisian reduplication, Albanian `të të`,
/// Hindi `कर कर`.
const REPEATED_ON_PURPOSE: &[(&str, &[&str])] = &[
    ("fr", &["nous", "vous"]),
    ("tr", &["tek", "adım", "gıcır", "sık"]),
    ("vi", &["luôn", "song"]),
    ("fy", &["jo", "mei"]),
    ("sq", &["të"]),
    ("hi", &["कर"]),
];

/// What separates words: spaces, control characters, opening brackets,
/// modifier symbols and punctuation but `,`, `.`, `:`, `;`, `·` and `•`
/// (these, a hyphen, a closing bracket but `]` and a quote mark belong to
/// their word: `one,one` is one word).
static NON_WORD: LazyLock<Regex> =
    LazyLock::new(|| fixed_regex(r"[[\p{Cc}\p{Po}\p{Ps}\p{Sk}\p{Zs}\]]--[,.:;\x{b7}\x{2022}]]+"));

/// The words `text` repeats in a row, with how many times, in order;
/// words of one character and those of `ignored` do not count. Words are
/// compared as written (case matters).
fn repeated<'a>(text: &'a str, ignored: &[&str]) -> Vec<(usize, &'a str)> {
    let mut runs = Vec::new();
    let mut previous: Option<&str> = None;
    let mut times = 1;
    for word in NON_WORD.split(text).filter(|w| !w.is_empty()) {
        if previous == Some(word) && word.chars().count() >= 2 && !ignored.contains(&word) {
            times += 1;
        } else {
            if let Some(last) = previous.filter(|_| times > 1) {
                runs.push((times, last));
            }
            times = 1;
        }
        previous = Some(word);
    }
    if let Some(last) = previous.filter(|_| times > 1) {
        runs.push((times, last));
    }
    runs
}

/// `duplicate`: the translation repeats a word in a row (`soubor soubor`)
/// that the source does not repeat; a translation repeating as often as
/// its source passes. Not checked for Toki Pona, which repeats words.
pub fn duplicate(source: &str, target: &str, language: &str, source_language: &str) -> bool {
    let base = |code: &str| {
        code.split(['_', '-', '@'])
            .next()
            .unwrap_or(code)
            .to_owned()
    };
    let ignored = |code: &str| -> &'static [&'static str] {
        let base = base(code);
        REPEATED_ON_PURPOSE
            .iter()
            .find(|(code, _)| *code == base)
            .map_or(&[], |(_, words)| words)
    };
    if base(language) == "tok" {
        return false;
    }
    let (wanted, given) = (
        repeated(source, ignored(source_language)),
        repeated(target, ignored(language)),
    );
    let times = |runs: &[(usize, &str)]| runs.iter().map(|(n, _)| *n).collect::<Vec<_>>();
    times(&wanted) != times(&given)
        && given
            .iter()
            .any(|(_, word)| !wanted.iter().any(|(_, w)| w == word))
}

/// `placeholders`: with `placeholders:A:B` (or `placeholders:r"regex"`),
/// the translation holds a different number of some placeholder than the
/// source.
pub fn placeholders(source: &str, target: &str, listed: &str) -> bool {
    if let Some(expression) = listed.strip_prefix("r\"") {
        let Ok(pattern) = Regex::new(expression.trim_end_matches('"')) else {
            return false;
        };
        let found = |text: &str| {
            let mut all: Vec<String> = pattern
                .find_iter(text)
                .map(|m| m.as_str().to_owned())
                .collect();
            all.sort();
            all
        };
        return found(source) != found(target);
    }
    let names: Vec<&str> = if listed.contains("\":\"") {
        listed.split("\":\"").collect()
    } else {
        listed.split(':').collect()
    };
    names
        .iter()
        .filter(|n| !n.is_empty())
        .any(|n| source.matches(n).count() != target.matches(n).count())
}

/// With `regex:EXPRESSION` (or `regex:r"EXPRESSION"`): the translation
/// holds no match of the expression. An expression that does not compile
/// judges nothing.
pub fn regex_misses(target: &str, expression: &str) -> bool {
    let expression = expression
        .strip_prefix("r\"")
        .map_or(expression, |e| e.trim_end_matches('"'));
    if expression.is_empty() {
        return false;
    }
    Regex::new(expression).is_ok_and(|pattern| !pattern.is_match(target))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_words() {
        let dup = |s: &str, t: &str, l: &str| duplicate(s, t, l, "en");
        assert!(dup("Save the file", "Uložit soubor soubor", "cs"));
        assert!(!dup("Save the file", "Uložit soubor", "cs"));
        assert!(!dup("Bora Bora", "Bora Bora", "cs"), "as in the source");
        assert!(!dup("We wash", "Nous nous lavons", "fr"));
        assert!(!dup("1 1", "1 1", "cs"));
        assert!(!dup("a-a", "a-a", "cs"));
        assert!(!dup("Remove and", "и и", "ru"), "one-letter words");
        assert!(
            dup("Theme (current: auto)", "السمة (السمة الحالية)", "ar"),
            "an opening bracket separates words"
        );
        assert!(dup("radian,radians", "راديان،راديان", "ar"));
        assert!(!dup("Open the the", "Otevřít to to", "cs"), "as often");
        assert!(!dup("Word", "Wort wort", "de"), "case matters");
        assert!(!dup("grad,grads", "grad,grad", "ca"), "a comma joins words");
    }

    #[test]
    fn listed_placeholders() {
        assert!(!placeholders("Hi $NAME$", "Ahoj $NAME$", "$NAME$"));
        assert!(placeholders("Hi $NAME$", "Ahoj", "$NAME$"));
        assert!(placeholders("%a% %b%", "%a%", "%a%\":\"%b%"));
        assert!(placeholders("{{x}}", "{{y}}", "r\"\\{\\{\\w+\\}\\}"));
        assert!(!placeholders("{{x}}", "{{x}}!", "r\"\\{\\{\\w+\\}\\}"));
    }
}
