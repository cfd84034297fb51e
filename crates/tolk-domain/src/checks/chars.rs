//! Checks of single characters and counts: whitespace and newlines at
//! either end, double spaces, final punctuation, escaped newlines,
//! zero-width spaces, kashida. Each compares one source form with one
//! translated form and says whether the pair fails.

/// Whether `source` and `target` disagree on ending (or starting, with
/// `start`) with one of `chars`. Empty texts never fail.
fn ends_differ(source: &str, target: &str, start: bool, chars: &[char]) -> bool {
    let edge = |s: &str| {
        if start {
            s.chars().next()
        } else {
            s.chars().last()
        }
    };
    match (edge(source), edge(target)) {
        (Some(s), Some(t)) => chars.contains(&s) != chars.contains(&t),
        _ => false,
    }
}

/// The number of spaces leading (or trailing) `text`.
fn spaces(text: &str, start: bool) -> usize {
    let kept = if start {
        text.trim_start_matches(' ')
    } else {
        text.trim_end_matches(' ')
    };
    text.len() - kept.len()
}

/// Short strings (one character each) are usually separators: not checked.
fn tiny(source: &str, target: &str) -> bool {
    source.chars().count() <= 1 && target.chars().count() <= 1
}

/// Starting newline: one starts with a newline, the other not.
pub fn begin_newline(source: &str, target: &str) -> bool {
    ends_differ(source, target, true, &['\n'])
}

/// Trailing newline.
pub fn end_newline(source: &str, target: &str) -> bool {
    ends_differ(source, target, false, &['\n'])
}

/// Starting spaces: a different number of them (a translation of spaces
/// only passes).
pub fn begin_space(source: &str, target: &str) -> bool {
    if tiny(source, target) || target.trim_start_matches(' ').is_empty() {
        return false;
    }
    spaces(source, true) != spaces(target, true)
}

/// Trailing spaces.
pub fn end_space(source: &str, target: &str) -> bool {
    if tiny(source, target) || source.is_empty() || target.trim_end_matches(' ').is_empty() {
        return false;
    }
    spaces(source, false) != spaces(target, false)
}

/// Double space in the translation but not in the source.
pub fn double_space(source: &str, target: &str) -> bool {
    !tiny(source, target) && !source.is_empty() && !source.contains("  ") && target.contains("  ")
}

/// Full stops of the scripts Weblate knows.
const STOPS: &[char] = &['.', '。', '।', '۔', '։', '·', '෴', '។'];

/// Mismatched full stop (strings of four characters or fewer may be
/// abbreviated; Thai and Lojban have no full stop).
pub fn end_stop(source: &str, target: &str, language: &str) -> bool {
    if source.chars().count() <= 4 || target.is_empty() || is(language, &["th", "jbo"]) {
        return false;
    }
    if source.ends_with("...") && target.ends_with('…') {
        return false;
    }
    if is(language, &["ja"]) && source.ends_with([':', ';']) {
        return ends_differ(source, target, false, &[';', ':', '：', '.', '。']);
    }
    if is(language, &["hi", "bn", "or"]) {
        return ends_differ(source, target, false, &['.', '।', '|']);
    }
    ends_differ(source, target, false, STOPS)
}

/// Mismatched colon.
pub fn end_colon(source: &str, target: &str, language: &str) -> bool {
    if is(language, &["jbo"]) {
        return false;
    }
    if is(language, &["ja"]) {
        return source.ends_with([':', ';'])
            && ends_differ(source, target, false, &[';', ':', '：', '.', '。']);
    }
    ends_differ(source, target, false, &[':', '：', '៖'])
}

/// Mismatched question mark (Greek may use `;`).
pub fn end_question(source: &str, target: &str, language: &str) -> bool {
    if is(language, &["jbo"]) || source.is_empty() || target.is_empty() {
        return false;
    }
    if interrobang(source) || interrobang(target) {
        return false; // `end_interrobang` judges those.
    }
    if is(language, &["el"]) {
        return source.ends_with('?') && !target.ends_with(['?', ';', '\u{037e}']);
    }
    ends_differ(
        source,
        target,
        false,
        &['?', '՞', '؟', '⸮', '？', '፧', '꘏', '⳺'],
    )
}

/// Mismatched exclamation mark.
pub fn end_exclamation(source: &str, target: &str, language: &str) -> bool {
    if is(language, &["hy", "jbo"]) || interrobang(source) || interrobang(target) {
        return false;
    }
    if is(language, &["eu"])
        && source.ends_with('!')
        && target.contains('¡')
        && target.contains('!')
    {
        return false;
    }
    ends_differ(source, target, false, &['!', '！', '՜', '᥄', '႟', '߹'])
}

/// Mismatched ellipsis at the end (`...` may become `…`).
pub fn end_ellipsis(source: &str, target: &str, language: &str) -> bool {
    if target.is_empty() || is(language, &["jbo"]) {
        return false;
    }
    if source.ends_with("...") && target.ends_with('…') {
        return false;
    }
    ends_differ(source, target, false, &['…'])
}

/// Mismatched semicolon at the end.
pub fn end_semicolon(source: &str, target: &str, language: &str) -> bool {
    if is(language, &["el"]) && source.ends_with('?') {
        return false;
    }
    ends_differ(source, target, false, &[';'])
}

/// A different number of `needle` in source and translation.
pub fn count_differs(source: &str, target: &str, needle: &str) -> bool {
    !source.is_empty()
        && !target.is_empty()
        && source.matches(needle).count() != target.matches(needle).count()
}

/// A zero-width space in the translation, not in the source (Khmer uses them).
pub fn zero_width_space(source: &str, target: &str, language: &str) -> bool {
    !is(language, &["km"]) && !source.contains('\u{200b}') && target.contains('\u{200b}')
}

/// Decorative kashida letters in the translation; a tatweel after beh,
/// kaf or lam (`لـ`, a prefix written apart from its word) is no decoration.
pub fn kashida(target: &str) -> bool {
    const KASHIDA: &[char] = &[
        '\u{0640}', '\u{fcf2}', '\u{fcf3}', '\u{fcf4}', '\u{fe71}', '\u{fe77}', '\u{fe79}',
        '\u{fe7b}', '\u{fe7d}', '\u{fe7f}',
    ];
    const JOINED_PREFIXES: &[char] = &['\u{0628}', '\u{0643}', '\u{0644}'];
    let mut previous = None;
    target.chars().any(|c| {
        let decorative =
            KASHIDA.contains(&c) && !previous.is_some_and(|p| JOINED_PREFIXES.contains(&p));
        previous = Some(c);
        decorative
    })
}

/// French (not Canadian French) and Breton put a no-break space before
/// `:`, `;`, `!` and `?`: a translation with one of them right after
/// another character fails (a `:` inside a word or a URL, as in `http:`
/// or `10:30`, passes).
pub fn punctuation_spacing(target: &str, language: &str) -> bool {
    let lower = language.to_ascii_lowercase().replace('-', "_");
    if !is(language, &["fr", "br"]) || lower.starts_with("fr_ca") {
        return false;
    }
    let chars: Vec<char> = target.chars().collect();
    chars.iter().enumerate().any(|(i, c)| {
        if !matches!(c, ':' | ';' | '!' | '?') || i == 0 {
            return false;
        }
        let before = chars[i - 1];
        let after = chars.get(i + 1).copied();
        let spaced = matches!(before, ' ' | '\u{a0}' | '\u{202f}');
        let ends_word =
            after.is_none_or(|a| a.is_whitespace() || matches!(a, ':' | ';' | '!' | '?'));
        !spaced && ends_word && !matches!(before, ':' | ';' | '!' | '?') && before != '\n'
    })
}

/// Whether the language code is one of `codes` or a variant of one
/// (`pt_BR` is `pt`).
/// Whether a text ends with an interrobang: `?!`, `!?`, their full-width
/// forms, `⁈` or `⁉`.
fn interrobang(text: &str) -> bool {
    ["?!", "!?", "？！", "！？", "⁈", "⁉"]
        .iter()
        .any(|end| text.ends_with(end))
}

/// One of source and translation ends with an interrobang and the other
/// does not.
pub fn end_interrobang(source: &str, target: &str) -> bool {
    !source.is_empty() && !target.is_empty() && interrobang(source) != interrobang(target)
}

/// A Kabyle translation holding Greek or Turkish letters that look like
/// Kabyle's own (`γ` for `ɣ`, `ε` for `ɛ`, `ğ` for `ǧ`).
pub fn kabyle_characters(target: &str, language: &str) -> bool {
    is(language, &["kab"]) && target.contains(['γ', 'Γ', 'ε', 'Ε', 'ğ', 'Ğ'])
}

/// The translation holds two capital letters in a row and the source none
/// (`SOubor`, a slipped Shift key).
pub fn multiple_capital(source: &str, target: &str) -> bool {
    let capitals = |text: &str| {
        let mut previous = false;
        text.chars().any(|c| {
            let upper = c.is_uppercase();
            let run = previous && upper;
            previous = upper;
            run
        })
    };
    capitals(target) && !capitals(source)
}

/// With `accelerator:MARK`: the translation holds more than one
/// accelerator or another number than the source (`&Save` and `Uložit`).
/// A doubled mark (`&&`) is a literal one; a mark that is not a single
/// punctuation character fails every string, as the flag is wrong.
pub fn accelerator(source: &str, target: &str, mark: &str) -> bool {
    let mut chars = mark.chars();
    let (Some(mark), None) = (chars.next(), chars.next()) else {
        return true;
    };
    if !mark.is_ascii_punctuation() {
        return true;
    }
    let count = |text: &str| {
        let mut found = 0;
        let mut rest = text.chars().peekable();
        while let Some(c) = rest.next() {
            if c == mark {
                if rest.peek() == Some(&mark) {
                    rest.next();
                } else {
                    found += 1;
                }
            }
        }
        found
    };
    let in_target = count(target);
    in_target > 1 || count(source) != in_target
}

fn is(language: &str, codes: &[&str]) -> bool {
    let base = language
        .split(['_', '-', '@'])
        .next()
        .unwrap_or(language)
        .to_ascii_lowercase();
    codes.contains(&base.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_and_newlines() {
        assert!(begin_newline("\nText", "Text"));
        assert!(!begin_newline("\nText", "\nTexte"));
        assert!(end_newline("Text\n", "Texte"));
        assert!(begin_space(" Text", "Texte"));
        assert!(!begin_space("  Text", "  Texte"));
        assert!(!begin_space(" ", "x"), "one character each");
        assert!(end_space("Text ", "Texte"));
        assert!(!end_space("Text", "Texte"));
        assert!(double_space("A text", "Un  texte"));
        assert!(!double_space("A  text", "Un  texte"));
    }

    #[test]
    fn french_spacing() {
        assert!(punctuation_spacing("Attention!", "fr"));
        assert!(punctuation_spacing("Nom: Jean", "fr_FR"));
        assert!(!punctuation_spacing("Attention\u{a0}!", "fr"));
        assert!(!punctuation_spacing("Nom : Jean", "fr"));
        assert!(!punctuation_spacing("http://example.com à 10:30", "fr"));
        assert!(!punctuation_spacing("Attention!", "fr_CA"));
        assert!(!punctuation_spacing("Achtung!", "de"));
        assert!(!punctuation_spacing("Quoi ?!", "fr"));
    }

    #[test]
    fn punctuation_by_language() {
        assert!(end_stop("Save the file.", "Uložit soubor", "cs"));
        assert!(!end_stop("Save the file.", "ファイルを保存。", "ja"));
        assert!(end_stop("Save.", "Uložit", "cs"));
        assert!(
            !end_stop("Save", "Uložit.", "cs"),
            "four characters may abbreviate"
        );
        assert!(!end_stop("Loading...", "Načítání…", "cs"));
        assert!(!end_stop("Save the file.", "บันทึกไฟล์", "th"));
        assert!(end_colon("Name:", "Jméno", "cs"));
        assert!(end_question("Really?", "Opravdu", "cs"));
        assert!(!end_question("Really?", "Πραγματικά;", "el"));
        assert!(end_exclamation("Done!", "Hotovo", "cs"));
        assert!(end_ellipsis("Wait…", "Počkejte", "cs"));
        assert!(!end_ellipsis("Wait...", "Počkejte…", "cs"));
        assert!(end_semicolon("a;", "b", "cs"));
    }

    #[test]
    fn counts_and_special_characters() {
        assert!(count_differs("One\\nTwo", "Jedna dvě", "\\n"));
        assert!(!count_differs("One\\nTwo", "Jedna\\ndvě", "\\n"));
        assert!(zero_width_space("Text", "Te\u{200b}xt", "cs"));
        assert!(!zero_width_space("Text", "Te\u{200b}xt", "km"));
        assert!(kashida("مـرحبا"));
        assert!(!kashida("فهرس لـ %s"), "a tatweel after lam joins a prefix");
    }
}
