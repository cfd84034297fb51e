//! New translation files: empty files of every format that read back and
//! take new strings, and PO, XLIFF and CSV files made from base files.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use common::{expected, msgfmt_check, read_bytes};
use quick_xml::events::Event;
use tolk_formats::{PluralRule, State, Unit, new_translation, parse};

const CZECH: PluralRule<'static> = PluralRule {
    forms: 3,
    formula: "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2",
};

/// Reads XML to its end: a well-formedness check by an XML parser.
fn well_formed(bytes: &[u8]) -> Result<(), String> {
    let mut reader = quick_xml::Reader::from_reader(bytes);
    reader.config_mut().check_end_names = true;
    let mut buf = Vec::new();
    let mut depth = 0i32;
    loop {
        match reader
            .read_event_into(&mut buf)
            .map_err(|e| e.to_string())?
        {
            Event::Start(_) => depth += 1,
            Event::End(_) => depth -= 1,
            Event::Eof if depth == 0 => return Ok(()),
            Event::Eof => return Err("elements are not closed".into()),
            _ => {}
        }
        buf.clear();
    }
}

fn is_xml(format: &str) -> bool {
    matches!(
        format,
        "aresource"
            | "resx"
            | "stringsdict"
            | "ts"
            | "tbx"
            | "xliff"
            | "plainxliff"
            | "poxliff"
            | "apple-xliff"
            | "xliff2"
            | "xliff2-placeables"
    )
}

#[test]
fn empty_files_of_every_format_read_back_and_take_strings() {
    let greeting = Unit {
        state: State::Translated,
        ..Unit::keyed("greeting", "Ahoj & <vítej>", Vec::new())
    };
    for format in &tolk_formats::readable() {
        let bytes = new_translation(format, "new", "cs", Some(CZECH), None)
            .unwrap_or_else(|e| panic!("{format}: {e}"));
        if is_xml(format) {
            well_formed(&bytes).unwrap_or_else(|e| panic!("{format}: {e}"));
        }
        let mut file = parse(format, "new", &bytes).unwrap_or_else(|e| panic!("{format}: {e}"));
        assert!(file.units().is_empty(), "{format}");
        match file.add_unit(&greeting) {
            Ok(()) => {
                let written = file.to_bytes().unwrap();
                if is_xml(format) {
                    well_formed(&written).unwrap_or_else(|e| panic!("{format}: {e}"));
                }
                let units = parse(format, "new", &written).unwrap().units();
                assert_eq!(units.len(), 1, "{format}");
                assert_eq!(units[0].target, vec!["Ahoj & <vítej>"], "{format}");
                if matches!(*format, "po" | "po-mono") {
                    assert_eq!(msgfmt_check(&written).unwrap_or(Ok(())), Ok(()), "{format}");
                }
                let again = file.add_unit(&greeting).unwrap_err();
                assert!(
                    again.message.contains("has that string already"),
                    "{format}: {again}"
                );
                assert_eq!(
                    file.to_bytes().unwrap(),
                    written,
                    "{format}: a refused add changes nothing"
                );
            }
            // Documents take their strings from the source document.
            Err(e) => assert!(
                matches!(*format, "stringsdict" | "html" | "markdown"),
                "{format} cannot add: {e}"
            ),
        }
    }
}

#[test]
fn new_po_languages_come_from_the_template_catalogue() {
    for row in expected(&["pot"]) {
        let pot = read_bytes(&row.path);
        let bytes = new_translation("po", &row.path, "cs", Some(CZECH), Some(&pot)).unwrap();
        if let Some(checked) = msgfmt_check(&bytes) {
            checked.unwrap_or_else(|e| panic!("{}: {e}", row.path));
        }
        let file = parse("po", &row.path, &bytes).unwrap();
        let header = file.header_text().unwrap();
        assert!(header.contains("Language: cs\n"), "{header}");
        assert!(
            header.contains(
                "Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\n"
            ),
            "{header}"
        );
        let template = parse("po", &row.path, &pot).unwrap().units();
        let units = file.units();
        assert_eq!(units.len(), row.stats.units, "{}", row.path);
        for (new, old) in units.iter().zip(&template) {
            assert_eq!((&new.context, &new.source), (&old.context, &old.source));
            assert_eq!(new.state, State::Untranslated);
            let forms = if old.has_plurals() { 3 } else { 1 };
            assert_eq!(new.target, vec![String::new(); forms], "{}", row.path);
        }
    }
}

#[test]
fn new_bilingual_files_keep_the_base_strings_untranslated() {
    for (dir, format) in [
        ("xliff12", "xliff"),
        ("xliff20", "xliff2"),
        ("csv", "csv"),
        ("tbx", "tbx"),
        ("ts", "ts"),
    ] {
        for row in expected(&[dir]).into_iter().take(3) {
            let base = read_bytes(&row.path);
            let bytes = new_translation(format, &row.path, "cs", None, Some(&base)).unwrap();
            if is_xml(format) {
                well_formed(&bytes).unwrap_or_else(|e| panic!("{}: {e}", row.path));
            }
            if format == "ts" {
                let text = String::from_utf8_lossy(&bytes);
                assert!(text.contains("language=\"cs\""), "{text}");
            }
            let units = parse(format, &row.path, &bytes).unwrap().units();
            let template = parse(format, &row.path, &base).unwrap().units();
            assert_eq!(units.len(), template.len(), "{}", row.path);
            for (new, old) in units.iter().zip(&template) {
                assert_eq!(new.source, old.source, "{}", row.path);
                assert!(new.target.iter().all(String::is_empty), "{}", row.path);
            }
        }
    }
}

#[test]
fn conversions_read_back_with_the_units_they_can_hold() {
    let path = "po/django-admin-de.po";
    let bytes = read_bytes(path);
    let file = parse("po", path, &bytes).unwrap();
    let units = file.units();
    let header = file.header_text();
    let singular = units.iter().filter(|u| !u.has_plurals()).count();
    let forms: usize = units
        .iter()
        .map(|u| u.target.len().max(u.source.len()))
        .sum();
    for format in &tolk_formats::writable() {
        let written = tolk_formats::write_new(format, path, header.as_deref(), &units)
            .unwrap_or_else(|e| panic!("{format}: {e}"));
        if is_xml(format) || *format == "aresource" {
            well_formed(&written).unwrap_or_else(|e| panic!("{format}: {e}"));
        }
        if *format == "tmx" {
            // Download only: its translation units are the translated strings.
            well_formed(&written).unwrap_or_else(|e| panic!("{format}: {e}"));
            let translated = units
                .iter()
                .filter(|u| u.state == State::Translated)
                .count();
            let text = String::from_utf8_lossy(&written);
            assert_eq!(text.matches("</tu>").count(), translated, "{format}");
            continue;
        }
        let reader = match *format {
            "xliff11" | "xliff12" => "xliff",
            "csv-multi" => "csv",
            "xlsx" => continue,
            other => other,
        };
        let read = parse(reader, path, &written)
            .unwrap_or_else(|e| panic!("{format}: {e}"))
            .units();
        let expected = match *format {
            // MO holds the translated messages only.
            "mo" => units
                .iter()
                .filter(|u| u.state == State::Translated)
                .count(),
            // Plural forms are units (XLIFF 2.0 segments, CSV rows) of
            // their own; XLIFF 1.2 groups them again.
            "xliff2" | "csv" | "csv-multi" => forms,
            // Keyed formats hold the strings without plurals.
            "json" | "json-nested" | "aresource" | "strings" => singular,
            _ => units.len(),
        };
        assert_eq!(read.len(), expected, "{format}");
    }
}

/// What `msgfmt --check` says of `bytes`, where it is installed.
fn catalogue_passes(bytes: &[u8]) {
    if let Some(verdict) = msgfmt_check(bytes) {
        verdict.unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(bytes)));
    }
}

#[test]
fn catalogues_converted_from_other_formats_pass_msgfmt() {
    // Qt plurals, without a language to name the rule: the forms give it.
    let ts = r#"<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="cs">
<context>
    <name>Main</name>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n soubor</numerusform>
            <numerusform>%n soubory</numerusform>
            <numerusform>%n souborů</numerusform>
        </translation>
    </message>
    <message>
        <source>Saved.
</source>
        <translation>Uloženo.</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Otevřít
</translation>
    </message>
</context>
</TS>
"#;
    let units = parse("ts", "cs.ts", ts.as_bytes()).unwrap().units();
    let po = tolk_formats::write_new("po", "cs.po", None, &units).unwrap();
    let text = String::from_utf8_lossy(&po);
    assert!(
        text.contains("\"Plural-Forms: nplurals=3; plural=(n < 2 ? n : 2);\\n\""),
        "{text}"
    );
    assert!(text.contains("msgstr \"Uloženo.\\n\""), "{text}");
    assert!(text.contains("msgstr \"Otevřít\""), "{text}");
    catalogue_passes(&po);
    // A named language's rule wins, and a plural gets its number of forms.
    let header = "Language: pl\nPlural-Forms: nplurals=4; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : n!=1 && n%10>=0 && n%10<=1 || n%10>=5 && n%10<=9 || n%100>=12 && n%100<=14 ? 2 : 3);\n";
    let po = tolk_formats::write_new("po", "pl.po", Some(header), &units).unwrap();
    assert!(String::from_utf8_lossy(&po).contains("msgstr[3] \"\""));
    catalogue_passes(&po);
}

#[test]
fn repeated_keys_are_written_once_when_they_agree() {
    let strings = "\"title\" = \"Start\";\n\"button\" = \"Go\";\n\"title\" = \"Start\";\n";
    let units = parse("strings", "Main.strings", strings.as_bytes())
        .unwrap()
        .units();
    assert_eq!(units.len(), 3);
    let json = tolk_formats::write_new("json", "main.json", None, &units).unwrap();
    let read: Vec<(String, String)> = parse("json", "main.json", &json)
        .unwrap()
        .units()
        .into_iter()
        .map(|u| (u.context, u.target.join("|")))
        .collect();
    let pair = |k: &str, v: &str| (k.to_owned(), v.to_owned());
    assert_eq!(read, [pair("title", "Start"), pair("button", "Go")]);
    let disagreeing = "\"title\" = \"Start\";\n\"title\" = \"Begin\";\n";
    let units = parse("strings", "Main.strings", disagreeing.as_bytes())
        .unwrap()
        .units();
    let refused = tolk_formats::write_new("json", "main.json", None, &units).unwrap_err();
    assert!(refused.to_string().contains("title"), "{refused}");
}
