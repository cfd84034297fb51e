use super::*;
use crate::TranslationFile;
use crate::unit::State;

const SAMPLE: &str = r#"# Czech translation.
msgid ""
msgstr ""
"Language: cs\n"
"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\n"
"Content-Type: text/plain; charset=UTF-8\n"

#. Shown on the start page.
#: app.c:10 app.c:20
msgid "Hello"
msgstr "Ahoj"

#, fuzzy, c-format
#| msgid "Old %d"
msgctxt "menu"
msgid "Open %d"
msgstr "Otevřít %d"

msgid "One file"
msgid_plural "%d files"
msgstr[0] ""
msgstr[1] ""
msgstr[2] ""

#~ msgid "Gone"
#~ msgstr "Pryč"
"#;

fn parse(text: &str) -> PoFile {
    PoFile::parse("test.po", text.as_bytes()).unwrap()
}

#[test]
fn reads_units_header_and_states() {
    let po = parse(SAMPLE);
    let units = po.units();
    assert_eq!(units.len(), 3);
    assert_eq!(units[0].source, vec!["Hello"]);
    assert_eq!(units[0].target, vec!["Ahoj"]);
    assert_eq!(units[0].state, State::Translated);
    assert_eq!(units[0].developer_notes, vec!["Shown on the start page."]);
    assert_eq!(units[0].locations, vec!["app.c:10", "app.c:20"]);
    assert_eq!(units[1].context, "menu");
    assert_eq!(units[1].state, State::Fuzzy);
    assert_eq!(units[1].flags, vec!["c-format"]);
    assert_eq!(units[1].previous_source.as_deref(), Some("Old %d"));
    assert_eq!(units[2].source, vec!["One file", "%d files"]);
    assert_eq!(units[2].target.len(), 3);
    assert_eq!(units[2].state, State::Untranslated);
    assert_eq!(po.obsolete_count(), 1);
    assert_eq!(po.header("language").as_deref(), Some("cs"));
    let stats = po.stats();
    assert_eq!(
        (
            stats.units,
            stats.translated,
            stats.fuzzy,
            stats.obsolete,
            stats.plural_units
        ),
        (3, 1, 1, 1, 1)
    );
}

#[test]
fn unchanged_files_are_written_back_byte_for_byte() {
    for text in [
        SAMPLE,
        "",
        "\n",
        "msgid \"a\"\nmsgstr \"b\"",
        "# only a comment\n",
        "msgid \"a\"\r\nmsgstr \"b\"\r\n",
    ] {
        assert_eq!(parse(text).to_bytes().unwrap(), text.as_bytes(), "{text:?}");
    }
}

#[test]
fn editing_one_unit_changes_only_its_lines() {
    let mut po = parse(SAMPLE);
    po.set_translation(
        2,
        &[
            "Jeden soubor".into(),
            "%d soubory".into(),
            "%d souborů".into(),
        ],
        false,
    )
    .unwrap();
    po.set_translation(1, &["Otevřít %d".into()], false)
        .unwrap();
    let written = String::from_utf8(po.to_bytes().unwrap()).unwrap();
    let expected = SAMPLE
        .replace("#, fuzzy, c-format\n", "#, c-format\n")
        .replace(
            "msgstr[0] \"\"\nmsgstr[1] \"\"\nmsgstr[2] \"\"",
            "msgstr[0] \"Jeden soubor\"\nmsgstr[1] \"%d soubory\"\nmsgstr[2] \"%d souborů\"",
        );
    assert_eq!(written, expected);
    let again = PoFile::parse("test.po", written.as_bytes()).unwrap();
    assert_eq!(again.units()[2].target[2], "%d souborů");
    assert_eq!(again.units()[1].state, State::Translated);
}

#[test]
fn marking_fuzzy_adds_a_flags_line_before_the_keywords() {
    let mut po = parse(SAMPLE);
    po.set_translation(0, &["Nazdar\nsvěte".into()], true)
        .unwrap();
    let written = String::from_utf8(po.to_bytes().unwrap()).unwrap();
    assert!(
        written.contains("#: app.c:10 app.c:20\n#, fuzzy\nmsgid \"Hello\"\nmsgstr \"\"\n\"Nazdar\\n\"\n\"světe\"\n"),
        "{written}"
    );
}

#[test]
fn wrong_number_of_forms_is_refused() {
    let mut po = parse(SAMPLE);
    let err = po.set_translation(2, &["a".into()], false).unwrap_err();
    assert!(
        err.message
            .contains("1 translation forms given, the unit has 3"),
        "{err}"
    );
    assert!(po.set_translation(9, &["a".into()], false).is_err());
}

#[test]
fn broken_files_report_file_and_line() {
    let err = PoFile::parse("x.po", b"msgid \"a\"\nmsgstr \"b\"\nmsgstr[1] \"c\"\n").unwrap_err();
    assert_eq!(
        (err.line, err.message.as_str()),
        (3, "msgstr[1] in an entry without msgid_plural")
    );
    let cases = [
        ("msgid \"a\"\nmsgstr \"b\"\nbogus\n", 3),
        ("msgid \"a\"\n\"continued\nmsgstr \"b\"\n", 2),
        ("msgid \"a\"\n", 2),
        ("\"orphan\"\n", 1),
        ("msgid \"a\"\nmsgstr[1] \"b\"\n", 2),
        ("msgid \"a\"\nmsgstr \"\\q\"\n", 2),
    ];
    for (text, line) in cases {
        let err = PoFile::parse("broken.po", text.as_bytes()).unwrap_err();
        assert_eq!(
            (err.file.as_str(), err.line),
            ("broken.po", line),
            "{text:?}: {err}"
        );
    }
}

#[test]
fn other_charsets_are_decoded_and_kept() {
    let mut bytes = b"msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=ISO-8859-2\\n\"\n\nmsgid \"a\"\nmsgstr \"".to_vec();
    bytes.extend_from_slice(&[0xB9, 0xE8]); // "šč" in ISO-8859-2
    bytes.extend_from_slice(b"\"\n");
    let mut po = PoFile::parse("latin2.po", &bytes).unwrap();
    assert_eq!(po.units()[0].target, vec!["šč"]);
    assert_eq!(po.to_bytes().unwrap(), bytes);
    po.set_translation(0, &["ž".into()], false).unwrap();
    assert!(po.to_bytes().unwrap().ends_with(&[b'"', 0xBE, b'"', b'\n']));
    assert!(po.set_translation(0, &["日本".into()], false).is_ok());
    let err = po.to_bytes().unwrap_err();
    assert!(err.message.contains("cannot be written"), "{err}");
}

#[test]
fn generated_input_never_panics() {
    let pieces = [
        "msgid ",
        "msgstr ",
        "msgstr[0] ",
        "msgctxt ",
        "msgid_plural ",
        "\"",
        "text",
        "\\n",
        "\\",
        "\n",
        "#, fuzzy\n",
        "#~ ",
        "#| ",
        "# c\n",
        "\r\n",
        "é",
        "\u{0}",
    ];
    let mut state: u64 = 42;
    for _ in 0..5_000 {
        let mut text = String::new();
        for _ in 0..20 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            text.push_str(pieces[(state >> 33) as usize % pieces.len()]);
        }
        if let Ok(mut po) = PoFile::parse("fuzz.po", text.as_bytes()) {
            assert_eq!(po.to_bytes().unwrap(), text.as_bytes());
            let units = po.units();
            if let Some(unit) = units.first() {
                let target = vec!["x".to_owned(); unit.target.len()];
                po.set_translation(0, &target, true).unwrap();
                let written = po.to_bytes().unwrap();
                PoFile::parse("fuzz.po", &written).unwrap();
            }
        }
    }
}

#[test]
fn plural_entries_with_another_form_count_than_the_header_are_reported() {
    let text = "msgid \"\"\nmsgstr \"\"\n\"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n>=2 && n<=4 ? 1 : 2);\\n\"\n\nmsgid \"file\"\nmsgid_plural \"files\"\nmsgstr[0] \"soubor\"\nmsgstr[1] \"soubory\"\n\nmsgid \"dir\"\nmsgid_plural \"dirs\"\nmsgstr[0] \"složka\"\nmsgstr[1] \"složky\"\nmsgstr[2] \"složek\"\n";
    let file = parse(text);
    let warnings = file.warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].line, 7);
    assert_eq!(
        warnings[0].message,
        "2 translation forms, but the header's Plural-Forms declares 3"
    );
    assert_eq!(file.units()[0].target.len(), 2, "nothing is truncated");
}

#[test]
fn monolingual_files_use_the_msgid_as_key() {
    let text = "msgid \"\"\nmsgstr \"\"\n\"Language: cs\\n\"\n\nmsgid \"greeting\"\nmsgstr \"Ahoj\"\n\nmsgctxt \"menu\"\nmsgid \"open\"\nmsgstr \"Otevřít\"\n";
    let mut file = PoFile::parse_monolingual("cs.po", text.as_bytes()).unwrap();
    let keys: Vec<String> = file.units().into_iter().map(|u| u.context).collect();
    assert_eq!(keys, vec!["greeting", "menu\u{4}open"]);
    file.add_unit(&Unit::keyed("menu\u{4}close", "Zavřít", vec![]))
        .unwrap();
    let written = String::from_utf8(file.to_bytes().unwrap()).unwrap();
    assert!(
        written.ends_with("\nmsgctxt \"menu\"\nmsgid \"close\"\nmsgstr \"Zavřít\"\n"),
        "{written}"
    );
    assert_eq!(file.units()[2].context, "menu\u{4}close");
    assert!(
        file.add_unit(&Unit::keyed("greeting", "x", vec![]))
            .is_err()
    );
    let converted = crate::write_new("po-mono", "n.po", None, &file.units()).unwrap();
    let again = PoFile::parse_monolingual("n.po", &converted).unwrap();
    assert_eq!(again.units(), file.units());
}

#[test]
fn removing_a_unit_takes_its_comments_and_blank_line() {
    let mut po = parse(SAMPLE);
    po.remove_unit(1).unwrap();
    let text = String::from_utf8(po.to_bytes().unwrap()).unwrap();
    let gone = "#, fuzzy, c-format\n#| msgid \"Old %d\"\nmsgctxt \"menu\"\nmsgid \"Open %d\"\nmsgstr \"Otevřít %d\"\n\n";
    assert_eq!(text, SAMPLE.replace(gone, ""));
    assert_eq!(po.units().len(), 2);
    po.remove_unit(1).unwrap();
    let text = String::from_utf8(po.to_bytes().unwrap()).unwrap();
    assert!(
        text.ends_with("msgstr \"Ahoj\"\n\n#~ msgid \"Gone\"\n#~ msgstr \"Pryč\"\n"),
        "{text}"
    );
    assert!(po.remove_unit(1).is_err());
}
