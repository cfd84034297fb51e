//! Tolk's rules without a server: the plural forms of Czech from the
//! built-in language table, the quality checks a translation fails, and
//! a search query read into its terms.
//!
//! Run with `cargo run -p tolk-domain --example check_translation`.

use tolk_domain::checks::{Context, Flags, failing};
use tolk_domain::language::builtin_languages;
use tolk_domain::plural::PluralFormula;

fn main() -> Result<(), String> {
    let czech = builtin_languages()
        .into_iter()
        .find(|language| language.code == "cs")
        .ok_or("Czech is in the built-in table")?;
    let plural = &czech.plurals[0];
    let formula = PluralFormula::parse(&plural.formula).map_err(|e| e.to_string())?;
    println!(
        "{}: {} forms, {}",
        czech.name, plural.number, plural.formula
    );
    let forms: Vec<i64> = [1, 3, 5].iter().map(|&n| formula.index(n)).collect();
    println!("1, 3 and 5 files take forms {forms:?}");
    assert_eq!(forms, [0, 1, 2]);

    let source = ["%d file".to_owned(), "%d files".to_owned()];
    let good = [
        "%d soubor".to_owned(),
        "%d soubory".to_owned(),
        "%d souborů".to_owned(),
    ];
    let bad = [
        "%d soubor".to_owned(),
        "soubory".to_owned(),
        "%d souborů!".to_owned(),
    ];
    let context = Context::of("cs", "en", &plural.formula);
    let flags = Flags::parse(["c-format"]);
    let passed = failing(&source, &good, &context, &flags);
    let failed = failing(&source, &bad, &context, &flags);
    println!("a good translation fails {passed:?}, a careless one {failed:?}");
    assert!(passed.is_empty());
    assert!(failed.contains(&"c_format") && failed.contains(&"end_exclamation"));

    let query = tolk_domain::query::parse("state:<translated AND NOT has:comment")?;
    println!("the query reads as {query:?}");
    assert!(query.is_some());
    Ok(())
}
