//! Languages: the built-in language table and the rules for language fields.

use std::collections::HashSet;
use std::sync::LazyLock;

use serde::Deserialize;

use crate::plural::{PluralFormula, PluralType};
use crate::validation::FieldErrors;

/// Text direction of a language.
pub const DIRECTIONS: [&str; 2] = ["ltr", "rtl"];

/// Where a plural definition comes from (`plural.source`, §29.10).
pub mod plural_source {
    /// The language's default plural.
    pub const DEFAULT: i32 = 0;
    /// A formula found in a gettext file.
    pub const GETTEXT: i32 = 1;
    /// Entered by hand.
    pub const MANUAL: i32 = 2;
    /// Every accepted value.
    pub const ALL: [i32; 7] = [0, 1, 2, 3, 4, 5, 6];
}

/// Highest number of plural forms a language may have.
pub const MAX_PLURALS: i32 = 10;

/// One language of the built-in table, with its default plural.
#[derive(Debug, Clone, PartialEq)]
pub struct LanguageSeed {
    /// Language code, e.g. `pt_BR`.
    pub code: String,
    /// English name.
    pub name: String,
    /// `ltr` or `rtl`.
    pub direction: String,
    /// Number of speakers.
    pub population: i64,
    /// Plural definitions; the first is the default (`source` 0).
    pub plurals: Vec<PluralSeed>,
    /// Other codes that name this language, sorted.
    pub aliases: Vec<String>,
}

/// Whether case tells texts apart in the language `code` (Weblate's
/// rule: neither the code nor its base, the part before `_` or `-`, is
/// one of the language data's case-insensitive languages, such as the
/// scripts without letter case).
pub fn is_case_sensitive(code: &str) -> bool {
    static INSENSITIVE: LazyLock<HashSet<String>> = LazyLock::new(|| {
        #[derive(Deserialize)]
        struct Cases {
            case_insensitive: HashSet<String>,
        }
        let data: Cases = embedded_table();
        data.case_insensitive
    });
    let base = code.split(['_', '-']).next().unwrap_or(code);
    !INSENSITIVE.contains(code) && !INSENSITIVE.contains(base)
}

/// A plural definition of a built-in language.
#[derive(Debug, Clone, PartialEq)]
pub struct PluralSeed {
    /// `plural.source` code.
    pub source: i32,
    /// Number of forms.
    pub number: i32,
    /// Gettext formula.
    pub formula: String,
    /// Weblate's plural type of the formula.
    pub kind: PluralType,
}

#[derive(Deserialize)]
struct DataFile {
    languages: Vec<DataLanguage>,
    extra_plurals: Vec<DataExtraPlural>,
    aliases: std::collections::BTreeMap<String, String>,
    /// Codes with the country a language's code implies (`cs_cz`), which
    /// name the language too.
    default_countries: Vec<String>,
}

#[derive(Deserialize)]
struct DataLanguage {
    code: String,
    name: String,
    nplurals: i32,
    formula: String,
    direction: String,
    population: i64,
}

#[derive(Deserialize)]
struct DataExtraPlural {
    code: String,
    nplurals: i32,
    formula: String,
}

/// The parts of the embedded language table that `T` reads.
#[expect(
    clippy::expect_used,
    reason = "the table is part of the binary, read by every test of languages"
)]
fn embedded_table<T: serde::de::DeserializeOwned>() -> T {
    serde_json::from_str(include_str!("../data/languages.json"))
        .expect("the embedded language table is valid JSON")
}

/// The built-in language table (MIT-licensed data from Weblate's
/// language-data project, see `data/LICENSE-language-data.txt`).
pub fn builtin_languages() -> Vec<LanguageSeed> {
    let data: DataFile = embedded_table();
    let mut seeds: Vec<LanguageSeed> = data
        .languages
        .into_iter()
        .map(|l| LanguageSeed {
            plurals: vec![PluralSeed::new(
                plural_source::DEFAULT,
                l.nplurals,
                l.formula,
                &l.code,
            )],
            code: l.code,
            name: l.name,
            direction: l.direction,
            population: l.population,
            aliases: Vec::new(),
        })
        .collect();
    let index = |seeds: &[LanguageSeed], code: &str| seeds.iter().position(|s| s.code == code);
    for extra in data.extra_plurals {
        if let Some(i) = index(&seeds, &extra.code) {
            let plural = PluralSeed::new(
                plural_source::GETTEXT,
                extra.nplurals,
                extra.formula,
                &extra.code,
            );
            seeds[i].plurals.push(plural);
        }
    }
    let implied = data.default_countries.into_iter().filter_map(|alias| {
        let code = alias.split('_').next()?.to_owned();
        Some((alias, code))
    });
    for (alias, code) in data.aliases.into_iter().chain(implied) {
        if let Some(i) = index(&seeds, &code) {
            seeds[i].aliases.push(alias.to_lowercase());
        }
    }
    for seed in &mut seeds {
        seed.aliases.sort();
        seed.aliases.dedup();
    }
    seeds
}

impl PluralSeed {
    fn new(source: i32, number: i32, formula: String, code: &str) -> Self {
        let kind = PluralFormula::parse(&formula)
            .map(|f| f.plural_type(usize::try_from(number).unwrap_or(0), code))
            .unwrap_or(PluralType::UNKNOWN);
        Self {
            source,
            number,
            formula,
            kind,
        }
    }
}

/// Every writable field of a language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LanguageFields {
    /// Unique code, e.g. `pt_BR`.
    pub code: String,
    /// English name.
    pub name: String,
    /// `ltr` or `rtl`.
    pub direction: String,
    /// Number of speakers.
    pub population: i64,
    /// Number of plural forms.
    pub plural_number: i32,
    /// Gettext plural formula.
    pub plural_formula: String,
    /// `plural.source` code.
    pub plural_source: i32,
}

impl LanguageFields {
    /// Checks every field and derives the plural type; uniqueness is checked by the caller.
    pub fn validate(&self) -> Result<PluralType, FieldErrors> {
        let mut errors = FieldErrors::default();
        validate_code(&self.code, &mut errors, "code");
        crate::validation::check_text(&self.name, "name", 100, &mut errors);
        if !DIRECTIONS.contains(&self.direction.as_str()) {
            errors.invalid_choice("direction", &self.direction);
        }
        if self.population < 0 {
            errors.push(
                "population",
                "min_value",
                "Ensure this value is greater than or equal to 0.",
            );
        }
        let kind = validate_plural(
            self.plural_number,
            &self.plural_formula,
            &self.code,
            &mut errors,
        );
        if !plural_source::ALL.contains(&self.plural_source) {
            errors.invalid_choice("plural.source", &self.plural_source.to_string());
        }
        match kind {
            Some(kind) if errors.is_empty() => Ok(kind),
            _ => Err(errors),
        }
    }
}

/// The direction a language is written in when none is given: right to
/// left for the scripts and languages known to be, else left to right.
pub fn default_direction(code: &str) -> &'static str {
    const RTL: [&str; 13] = [
        "ar", "arc", "ckb", "dv", "fa", "ha", "he", "ks", "ps", "ug", "ur", "yi", "sd",
    ];
    let base = code.split(['_', '-', '@']).next().unwrap_or("");
    if RTL.contains(&base) || code.ends_with("_Arab") || code.ends_with("_Hebr") {
        "rtl"
    } else {
        "ltr"
    }
}

/// The language tag (BCP 47) of a language code, as HTML's `lang` takes
/// it: `_` becomes `-`, and a variant after `@` (`sr@latin`) or a `+`
/// is left out; a code that gives no tag is `und` (undetermined).
pub fn html_lang(code: &str) -> String {
    let base = code.split(['@', '+']).next().unwrap_or("");
    let tag = base.replace('_', "-");
    let valid = !tag.is_empty()
        && tag.split('-').all(|part| {
            !part.is_empty() && part.len() <= 8 && part.bytes().all(|b| b.is_ascii_alphanumeric())
        })
        && tag.split('-').next().is_some_and(|first| {
            (2..=8).contains(&first.len()) && first.bytes().all(|b| b.is_ascii_alphabetic())
        });
    if valid { tag } else { "und".to_owned() }
}

/// Validates a language code: letters, digits and `_ - @ +`, at most 50 characters.
pub fn validate_code(code: &str, errors: &mut FieldErrors, attr: &str) {
    if code.is_empty() {
        errors.blank(attr);
    } else if code.chars().count() > 50 {
        errors.max_length(attr, 50);
    } else if !code
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '@' | '+'))
    {
        errors.invalid(attr, "Enter a valid language code.");
    }
}

/// Validates a plural definition (`number` and `formula`) and returns the
/// plural type when both are valid.
pub fn validate_plural(
    number: i32,
    formula: &str,
    code: &str,
    errors: &mut FieldErrors,
) -> Option<PluralType> {
    let mut valid_number = true;
    if !(1..=MAX_PLURALS).contains(&number) {
        let detail = if number < 1 {
            "Ensure this value is greater than or equal to 1.".to_owned()
        } else {
            format!("Ensure this value is less than or equal to {MAX_PLURALS}.")
        };
        let code = if number < 1 { "min_value" } else { "max_value" };
        errors.push("plural.number", code, detail);
        valid_number = false;
    }
    match PluralFormula::parse(formula) {
        Err(e) => {
            errors.invalid("plural.formula", &format!("Invalid plural formula: {e}."));
            None
        }
        Ok(parsed) if valid_number => {
            let count = usize::try_from(number).unwrap_or(1);
            if let Err(problem) = parsed.check_forms(count) {
                errors.invalid(
                    "plural.formula",
                    &format!("The formula does not match the number of plurals: {problem}."),
                );
                return None;
            }
            Some(parsed.plural_type(count, code))
        }
        Ok(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_become_html_language_tags() {
        for (code, tag) in [
            ("cs", "cs"),
            ("pt_BR", "pt-BR"),
            ("zh_Hans", "zh-Hans"),
            ("sr@latin", "sr"),
            ("en_US+custom", "en-US"),
            ("", "und"),
            ("1x", "und"),
            ("x\"y", "und"),
        ] {
            assert_eq!(html_lang(code), tag, "{code}");
        }
    }

    #[test]
    fn case_tells_texts_apart_in_languages_with_letter_case() {
        for code in ["cs", "en", "de", "pt_BR", "sr_Latn"] {
            assert!(is_case_sensitive(code), "{code}");
        }
        for code in ["ja", "zh_Hans", "zh_Hant", "ar", "ar_EG", "he", "ko"] {
            assert!(!is_case_sensitive(code), "{code}");
        }
    }

    #[test]
    fn builtin_table_is_complete_and_consistent() {
        let seeds = builtin_languages();
        assert_eq!(seeds.len(), 799);
        let czech = seeds.iter().find(|s| s.code == "cs").unwrap();
        assert_eq!(czech.name, "Czech");
        assert_eq!(czech.plurals[0].number, 3);
        assert_eq!(
            czech.aliases,
            vec!["ces", "cs_cs", "cs_cz", "csy", "cz", "cze"]
        );
        let breton = seeds.iter().find(|s| s.code == "br").unwrap();
        assert_eq!(breton.plurals.len(), 2, "extra gettext plural is kept");
        assert_eq!(breton.plurals[1].source, plural_source::GETTEXT);
        assert_eq!(seeds.iter().filter(|s| s.direction == "rtl").count(), 69);
    }

    #[test]
    fn every_builtin_formula_parses_and_matches_its_form_count() {
        for seed in builtin_languages() {
            for plural in &seed.plurals {
                let formula = PluralFormula::parse(&plural.formula)
                    .unwrap_or_else(|e| panic!("{}: {e}", seed.code));
                let number = usize::try_from(plural.number).unwrap();
                formula
                    .check_forms(number)
                    .unwrap_or_else(|e| panic!("{} {}: {e}", seed.code, plural.formula));
                assert_ne!(
                    plural.kind,
                    PluralType::UNKNOWN,
                    "{} {} has no known type",
                    seed.code,
                    plural.formula
                );
            }
        }
    }

    #[test]
    fn plural_validation_reports_each_problem() {
        let mut errors = FieldErrors::default();
        assert_eq!(
            validate_plural(2, "n != 1", "en", &mut errors),
            Some(PluralType(1))
        );
        assert!(errors.is_empty());
        assert_eq!(validate_plural(0, "n ==", "en", &mut errors), None);
        let attrs: Vec<&str> = errors.iter().map(|e| e.attr.as_deref().unwrap()).collect();
        assert_eq!(attrs, vec!["plural.number", "plural.formula"]);
        let mut errors = FieldErrors::default();
        assert_eq!(validate_plural(2, "n % 3", "en", &mut errors), None);
        assert!(
            errors
                .iter()
                .next()
                .unwrap()
                .detail
                .contains("only 2 forms")
        );
    }

    #[test]
    fn language_fields() {
        let mut fields = LanguageFields {
            code: "x_test".into(),
            name: "Test".into(),
            direction: "ltr".into(),
            population: 0,
            plural_number: 2,
            plural_formula: "n != 1".into(),
            plural_source: plural_source::MANUAL,
        };
        assert_eq!(fields.validate(), Ok(PluralType(1)));
        fields.direction = "up".into();
        fields.population = -1;
        let errors = fields.validate().unwrap_err();
        let attrs: Vec<&str> = errors.iter().map(|e| e.attr.as_deref().unwrap()).collect();
        assert_eq!(attrs, vec!["direction", "population"]);
        assert_eq!(default_direction("he"), "rtl");
        assert_eq!(default_direction("ms_Arab"), "rtl");
        assert_eq!(default_direction("cs"), "ltr");
    }

    #[test]
    fn language_codes_are_checked() {
        let mut errors = FieldErrors::default();
        validate_code("pt_BR", &mut errors, "code");
        validate_code("ca@valencia", &mut errors, "code");
        assert!(errors.is_empty());
        validate_code("bad code", &mut errors, "code");
        validate_code("", &mut errors, "code");
        let codes: Vec<&str> = errors.iter().map(|e| e.code.as_str()).collect();
        assert_eq!(codes, vec!["invalid", "blank"]);
    }
}
