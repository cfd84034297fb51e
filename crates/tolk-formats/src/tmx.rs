//! TMX 1.4 translation memories, written for downloads: one translation
//! unit per translated string, its source and translation as two
//! variants; and read back for uploads, each `<tu>` a unit whose source is
//! the variant of the header's `srclang` and whose target is another
//! variant (its `tuid` the key, its notes developer notes).

use quick_xml::events::Event;

use crate::edits::utf8;
use crate::error::FormatError;
use crate::unit::{State, Unit};
use crate::xml::{self, Scanner, attribute};

/// The units of a TMX document; `name` is used in error messages.
pub fn read(name: &str, bytes: &[u8]) -> Result<Vec<Unit>, FormatError> {
    let text = utf8(name, bytes)?;
    let mut scanner = Scanner::new(name, text)?;
    let mut source_language: Option<String> = None;
    let mut root = false;
    let mut units = Vec::new();
    loop {
        let before = scanner.position();
        match scanner.next()? {
            Event::Start(e) if !root => {
                if e.local_name().as_ref() != "tmx" {
                    return Err(scanner.error(before, "the root element must be <tmx>"));
                }
                root = true;
            }
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "header" => {
                source_language = attribute(&e, "srclang");
            }
            Event::Start(e) if e.local_name().as_ref() == "tu" => {
                let key = attribute(&e, "tuid").unwrap_or_default();
                let source = source_language.as_deref().unwrap_or_default();
                units.push(translation_unit(&mut scanner, before, key, source)?);
            }
            Event::Eof if root => break,
            Event::Eof => return Err(scanner.error(before, "no <tmx> element")),
            _ => {}
        }
    }
    Ok(units)
}

/// Whether a variant's language is `source` (or a variant of it).
fn same_language(lang: &str, source: &str) -> bool {
    let base = |code: &str| {
        code.split(['-', '_'])
            .next()
            .unwrap_or(code)
            .to_ascii_lowercase()
    };
    lang.eq_ignore_ascii_case(source)
        || (!source.contains(['-', '_']) && base(lang) == base(source))
}

/// The unit of a `<tu>` started at `start`: the `source` language's
/// variant is its source, the first other one its target.
fn translation_unit(
    scanner: &mut Scanner<'_>,
    start: usize,
    key: String,
    source: &str,
) -> Result<Unit, FormatError> {
    let mut notes = Vec::new();
    let mut variants: Vec<(String, String)> = Vec::new();
    let mut lang = String::new();
    loop {
        match scanner.next()? {
            Event::Start(e) => match e.local_name().as_ref() {
                "note" => notes.push(scanner.text_content()?.trim().to_owned()),
                "tuv" => {
                    lang = attribute(&e, "xml:lang")
                        .or_else(|| attribute(&e, "lang"))
                        .unwrap_or_default();
                }
                "seg" => variants.push((lang.clone(), scanner.text_content()?)),
                _ => {}
            },
            Event::End(e) if e.local_name().as_ref() == "tu" => break,
            Event::Eof => return Err(scanner.error(start, "<tu> is not closed")),
            _ => {}
        }
    }
    let from = variants
        .iter()
        .position(|(lang, _)| same_language(lang, source))
        .unwrap_or(0);
    let text = |i: Option<usize>| i.and_then(|i| variants.get(i)).map(|v| v.1.clone());
    let target = text((0..variants.len()).find(|i| *i != from)).unwrap_or_default();
    let mut unit = Unit::new(
        key,
        vec![text(Some(from)).unwrap_or_default()],
        vec![target],
    );
    unit.developer_notes = notes.into_iter().filter(|n| !n.is_empty()).collect();
    Ok(unit)
}

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
    fn a_written_memory_reads_back() {
        let mut keyed = Unit::new(
            "menu.open".into(),
            vec!["Open <file> & go".into()],
            vec!["Otevřít \"soubor\"".into()],
        );
        keyed.developer_notes = vec!["Menu item".into()];
        let plain = Unit::new(String::new(), vec!["Close".into()], vec!["Zavřít".into()]);
        let text = write_new("en", "cs", &[keyed.clone(), plain.clone()]);
        assert_eq!(read("cs.tmx", text.as_bytes()).unwrap(), vec![keyed, plain]);
    }

    #[test]
    fn variants_are_told_apart_by_the_source_language() {
        let text = "<tmx version=\"1.4\"><header srclang=\"en-US\"/><body>\
                    <tu><tuv xml:lang=\"de\"><seg>Hallo</seg></tuv>\
                    <tuv xml:lang=\"en-US\"><seg>Hello</seg></tuv></tu></body></tmx>";
        let units = read("de.tmx", text.as_bytes()).unwrap();
        assert_eq!(units[0].source, vec!["Hello".to_owned()]);
        assert_eq!(units[0].target, vec!["Hallo".to_owned()]);
        let broken = read("x.tmx", b"<tmx><body><tu><tuv>").unwrap_err();
        assert!(broken.to_string().starts_with("x.tmx"), "{broken}");
        assert!(read("y.tmx", b"<xliff/>").is_err());
    }

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
