//! Reads a gettext PO file, translates one string and writes the file
//! back, where only the edited entry changes; then writes the same
//! strings as a new XLIFF file.
//!
//! Run with `cargo run -p tolk-formats --example translate_po`.

use tolk_formats::{FormatError, State, parse, write_new};

/// A Czech catalogue of two strings, one of them plural.
const CATALOGUE: &str = r#"# Czech translation of a small app.
msgid ""
msgstr ""
"Language: cs\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\n"

#: src/main.c:12
msgid "Open file"
msgstr ""

#, c-format
msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d soubor"
msgstr[1] "%d soubory"
msgstr[2] "%d souborů"
"#;

fn main() -> Result<(), FormatError> {
    let mut file = parse("po", "cs.po", CATALOGUE.as_bytes())?;
    for unit in file.units() {
        println!("{:?} → {:?} ({:?})", unit.source, unit.target, unit.state);
    }

    file.set_translation(0, &["Otevřít soubor".to_owned()], false)?;
    let written = String::from_utf8_lossy(&file.to_bytes()?).into_owned();
    println!("\n{written}");
    let expected = CATALOGUE.replacen(
        "msgid \"Open file\"\nmsgstr \"\"",
        "msgid \"Open file\"\nmsgstr \"Otevřít soubor\"",
        1,
    );
    assert_eq!(written, expected, "only the edited entry changes");
    assert_eq!(file.units()[0].state, State::Translated);

    let xliff = write_new(
        "xliff",
        "cs.xliff",
        file.header_text().as_deref(),
        &file.units(),
    )?;
    let xliff = String::from_utf8_lossy(&xliff);
    println!("{xliff}");
    assert!(
        xliff.contains("<target"),
        "the translations go into the XLIFF file"
    );
    Ok(())
}
