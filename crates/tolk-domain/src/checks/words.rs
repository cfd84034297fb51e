//! Words and placeholders: a translation must not repeat a word twice in
//! a row where its source does not, and must keep the placeholders its
//! `placeholders:` flag lists.

use regex::Regex;

/// Words that languages repeat on purpose (French `nous nous`).
const REPEATED_ON_PURPOSE: &[(&str, &[&str])] = &[("fr", &["nous", "vous"])];

/// Words repeated twice in a row (in lower case), in order.
fn repeated(text: &str) -> Vec<String> {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let separated_by_space = |a: &str| text.to_lowercase().contains(&format!("{a} {a}"));
    words
        .windows(2)
        .filter(|pair| {
            pair[0] == pair[1]
                && !pair[0].chars().all(|c| c.is_ascii_digit())
                && separated_by_space(&pair[0])
        })
        .map(|pair| pair[0].clone())
        .collect()
}

/// `duplicate`: the translation repeats a word twice in a row (`the the`)
/// where the source does not.
pub fn duplicate(source: &str, target: &str, language: &str) -> bool {
    let base = language.split(['_', '-', '@']).next().unwrap_or(language);
    let allowed: &[&str] = REPEATED_ON_PURPOSE
        .iter()
        .find(|(code, _)| *code == base)
        .map_or(&[], |(_, words)| words);
    let in_source = repeated(source);
    repeated(target)
        .iter()
        .any(|w| !in_source.contains(w) && !allowed.contains(&w.as_str()))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_words() {
        assert!(duplicate("Save the file", "Uložit soubor soubor", "cs"));
        assert!(!duplicate("Save the file", "Uložit soubor", "cs"));
        assert!(
            !duplicate("Bora Bora", "Bora Bora", "cs"),
            "as in the source"
        );
        assert!(!duplicate("We wash", "Nous nous lavons", "fr"));
        assert!(!duplicate("1 1", "1 1", "cs"));
        assert!(!duplicate("a-a", "a-a", "cs"));
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
