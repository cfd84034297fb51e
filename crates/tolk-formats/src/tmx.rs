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

/// A translation unit of a TMX document as written: its key (`tuid`),
/// notes and variants (language and text) in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranslationUnit {
    /// The `tuid`, empty when there is none.
    pub key: String,
    /// The `<note>`s.
    pub notes: Vec<String>,
    /// Each `<tuv>`'s language (`xml:lang`) and text.
    pub variants: Vec<(String, String)>,
}

impl TranslationUnit {
    /// Which variant is in `source` (or a variant of it), if one is.
    pub fn source_index(&self, source: &str) -> Option<usize> {
        self.variants
            .iter()
            .position(|(lang, _)| same_language(lang, source))
    }
}

/// The source language its header names (`srclang`) and the translation
/// units of a TMX document; `name` is used in error messages.
pub fn read_variants(
    name: &str,
    bytes: &[u8],
) -> Result<(Option<String>, Vec<TranslationUnit>), FormatError> {
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
                units.push(translation_unit(&mut scanner, before, key)?);
            }
            Event::Eof if root => break,
            Event::Eof => return Err(scanner.error(before, "no <tmx> element")),
            _ => {}
        }
    }
    Ok((source_language, units))
}

/// The units of a TMX document: the header's source language's variant
/// of each is its source, the first other one its target; `name` is used
/// in error messages.
pub fn read(name: &str, bytes: &[u8]) -> Result<Vec<Unit>, FormatError> {
    let (source_language, units) = read_variants(name, bytes)?;
    let source = source_language.unwrap_or_default();
    Ok(units
        .into_iter()
        .map(|tu| {
            let from = tu.source_index(&source).unwrap_or(0);
            let text = |i: Option<usize>| i.and_then(|i| tu.variants.get(i)).map(|v| v.1.clone());
            let target = text((0..tu.variants.len()).find(|i| *i != from)).unwrap_or_default();
            let mut unit = Unit::new(
                tu.key,
                vec![text(Some(from)).unwrap_or_default()],
                vec![target],
            );
            unit.developer_notes = tu.notes.into_iter().filter(|n| !n.is_empty()).collect();
            unit
        })
        .collect())
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

/// The `<tu>` started at `start`, read to its end.
fn translation_unit(
    scanner: &mut Scanner<'_>,
    start: usize,
    key: String,
) -> Result<TranslationUnit, FormatError> {
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
    Ok(TranslationUnit {
        key,
        notes,
        variants,
    })
}

/// Writes a TMX document of translation pairs, one `<tu>` of two
/// variants per pair, a pair at a time (a memory of any size is written
/// without holding it).
#[derive(Debug)]
pub struct PairWriter<W: std::io::Write> {
    out: W,
}

impl<W: std::io::Write> PairWriter<W> {
    /// Starts a document whose pairs are from `source_language` (`*all*`
    /// when they are from several).
    pub fn start(mut out: W, source_language: &str) -> std::io::Result<Self> {
        out.write_all(header(source_language).as_bytes())?;
        Ok(PairWriter { out })
    }

    /// Writes the pair of `source` in `source_language` and `target` in
    /// `target_language`.
    pub fn pair(
        &mut self,
        source_language: &str,
        target_language: &str,
        source: &str,
        target: &str,
    ) -> std::io::Result<()> {
        let mut tu = String::from("    <tu>\n");
        for (language, text) in [(source_language, source), (target_language, target)] {
            tu.push_str(&format!(
                "      <tuv xml:lang=\"{}\"><seg>{}</seg></tuv>\n",
                xml::escape_attribute(language),
                xml::escape(text, &[])
            ));
        }
        tu.push_str("    </tu>\n");
        self.out.write_all(tu.as_bytes())
    }

    /// Ends the document and gives the output back.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.write_all(FOOTER.as_bytes())?;
        Ok(self.out)
    }
}

/// The start of a TMX document whose source language is `source_language`,
/// up to its body's first unit.
fn header(source_language: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<tmx version=\"1.4\">\n  \
         <header creationtool=\"Tolk\" creationtoolversion=\"{}\" segtype=\"sentence\" \
         o-tmf=\"Tolk\" adminlang=\"en\" srclang=\"{}\" datatype=\"plaintext\"/>\n  <body>\n",
        env!("CARGO_PKG_VERSION"),
        xml::escape_attribute(source_language)
    )
}

/// The end of a TMX document.
const FOOTER: &str = "  </body>\n</tmx>\n";

/// A new TMX document of the translated `units`, from `source_language`
/// into `target_language`. Plural strings give their first forms; the
/// key (context) becomes the unit's `tuid` and notes become `<note>`s.
pub fn write_new(source_language: &str, target_language: &str, units: &[Unit]) -> String {
    let attr = xml::escape_attribute;
    let mut out = header(source_language);
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
    out.push_str(FOOTER);
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
    fn pairs_written_read_back_with_their_languages() {
        let mut writer = PairWriter::start(Vec::new(), "en").unwrap();
        writer.pair("en", "cs", "Open <file>", "Otevřít").unwrap();
        writer.pair("en", "de", "Open & go", "Öffnen").unwrap();
        let bytes = writer.finish().unwrap();
        let (source, units) = read_variants("m.tmx", &bytes).unwrap();
        assert_eq!(source.as_deref(), Some("en"));
        let variants: Vec<Vec<(String, String)>> = units.into_iter().map(|u| u.variants).collect();
        let pair = |a: &str, b: &str, c: &str, d: &str| {
            vec![(a.to_owned(), b.to_owned()), (c.to_owned(), d.to_owned())]
        };
        assert_eq!(
            variants,
            [
                pair("en", "Open <file>", "cs", "Otevřít"),
                pair("en", "Open & go", "de", "Öffnen")
            ]
        );
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
