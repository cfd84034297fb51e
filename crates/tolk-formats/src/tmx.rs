//! TMX 1.4 translation memories, written for downloads: one translation
//! unit per translated string, its source and translation as two
//! variants.

use crate::unit::{State, Unit};
use crate::xml;

/// A new TMX document of the translated `units`, from `source_language`
/// into `target_language`. Plural strings give their first forms; the
/// key (context) becomes the unit's `tuid` and notes become `<note>`s.
pub fn write_new(source_language: &str, target_language: &str, units: &[Unit]) -> String {
    let attr = xml::escape_attribute;
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<tmx version=\"1.4\">\n  \
         <header creationtool=\"Tolk\" creationtoolversion=\"{}\" segtype=\"sentence\" \
         o-tmf=\"Tolk\" adminlang=\"en\" srclang=\"{}\" datatype=\"plaintext\"/>\n  <body>\n",
        env!("CARGO_PKG_VERSION"),
        attr(source_language)
    );
    let translated = units.iter().filter(|u| {
        matches!(
            u.state,
            State::Translated | State::Approved | State::ReadOnly
        ) && u.target.first().is_some_and(|t| !t.is_empty())
    });
    for unit in translated {
        if unit.context.is_empty() {
            out.push_str("    <tu>\n");
        } else {
            out.push_str(&format!("    <tu tuid=\"{}\">\n", attr(&unit.context)));
        }
        for note in unit.developer_notes.iter().chain(&unit.translator_notes) {
            out.push_str(&format!("      <note>{}</note>\n", xml::escape(note, &[])));
        }
        let variants = [
            (source_language, unit.source.first()),
            (target_language, unit.target.first()),
        ];
        for (language, text) in variants {
            out.push_str(&format!(
                "      <tuv xml:lang=\"{}\"><seg>{}</seg></tuv>\n",
                attr(language),
                xml::escape(text.map_or("", String::as_str), &[])
            ));
        }
        out.push_str("    </tu>\n");
    }
    out.push_str("  </body>\n</tmx>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn translated_strings_become_units_with_two_variants() {
        let mut keyed = Unit::new(
            "menu.open".into(),
            vec!["Open <file> & go".into()],
            vec!["Otevřít \"soubor\"".into()],
        );
        keyed.developer_notes = vec!["Menu item".into()];
        let empty = Unit::new(String::new(), vec!["Close".into()], vec![String::new()]);
        let mut fuzzy = Unit::new(String::new(), vec!["Save".into()], vec!["Uložit".into()]);
        fuzzy.state = State::Fuzzy;
        let text = write_new("en", "cs", &[keyed, empty, fuzzy]);
        assert_eq!(
            text,
            format!(
                "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<tmx version=\"1.4\">\n  \
                 <header creationtool=\"Tolk\" creationtoolversion=\"{}\" segtype=\"sentence\" \
                 o-tmf=\"Tolk\" adminlang=\"en\" srclang=\"en\" datatype=\"plaintext\"/>\n  <body>\n    \
                 <tu tuid=\"menu.open\">\n      <note>Menu item</note>\n      \
                 <tuv xml:lang=\"en\"><seg>Open &lt;file&gt; &amp; go</seg></tuv>\n      \
                 <tuv xml:lang=\"cs\"><seg>Otevřít \"soubor\"</seg></tuv>\n    </tu>\n  \
                 </body>\n</tmx>\n",
                env!("CARGO_PKG_VERSION")
            )
        );
    }
}
