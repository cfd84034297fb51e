use super::*;

const V1: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
  <file source-language="en" target-language="cs" datatype="plaintext" original="app">
    <body>
      <trans-unit id="hello" approved="yes">
        <source>Hello &amp; welcome</source>
        <target state="final">Ahoj &amp; vítej</target>
        <note from="developer">Greeting</note>
      </trans-unit>
      <trans-unit id="name">
        <source>Name: <x id="PH" equiv-text="name"/></source>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app.ts</context>
          <context context-type="linenumber">12</context>
        </context-group>
      </trans-unit>
      <trans-unit id="review">
        <source>Review</source>
        <target state="needs-review-translation">Revize</target>
        <alt-trans><source>Other</source><target>Jiné</target></alt-trans>
      </trans-unit>
      <trans-unit id="empty"><source>Empty</source><target/></trans-unit>
      <trans-unit id="fixed" translate="no"><source>Tolk</source><target>Tolk</target></trans-unit>
    </body>
  </file>
</xliff>
"#;

fn v1() -> XliffFile {
    XliffFile::parse("cs.xlf", V1.as_bytes(), Version::V1).unwrap()
}

#[test]
fn reads_units_states_notes_and_locations() {
    let file = v1();
    let units = file.units();
    let summary: Vec<(&str, &str, &str, State)> = units
        .iter()
        .map(|u| {
            (
                u.context.as_str(),
                u.source[0].as_str(),
                u.target[0].as_str(),
                u.state,
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            ("hello", "Hello & welcome", "Ahoj & vítej", State::Approved),
            (
                "name",
                "Name: <x id=\"PH\" equiv-text=\"name\"/>",
                "",
                State::Untranslated
            ),
            // needs-review-* reads as translated, as translate-toolkit reads it.
            ("review", "Review", "Revize", State::Translated),
            ("empty", "Empty", "", State::Untranslated),
            ("fixed", "Tolk", "Tolk", State::ReadOnly),
        ]
    );
    assert_eq!(units[0].developer_notes, vec!["Greeting"]);
    assert_eq!(units[1].locations, vec!["src/app.ts:12"]);
    assert_eq!(file.to_bytes().unwrap(), V1.as_bytes());
}

#[test]
fn edits_rewrite_only_the_target_and_its_state() {
    let mut file = v1();
    file.set_translation(0, &["Nazdar <b>".into()], true)
        .unwrap();
    file.set_translation(
        1,
        &["Jméno: <x id=\"PH\" equiv-text=\"name\"/>".into()],
        false,
    )
    .unwrap();
    file.set_translation(2, &["Revidováno".into()], false)
        .unwrap();
    file.set_translation(3, &["Prázdné".into()], false).unwrap();
    let written = String::from_utf8(file.to_bytes().unwrap()).unwrap();
    let expected = V1
        .replace(
            "<trans-unit id=\"hello\" approved=\"yes\">",
            "<trans-unit id=\"hello\" approved=\"no\">",
        )
        .replace(
            "<target state=\"final\">Ahoj &amp; vítej</target>",
            "<target state=\"needs-translation\">Nazdar &lt;b&gt;</target>",
        )
        .replace(
            "<x id=\"PH\" equiv-text=\"name\"/></source>",
            "<x id=\"PH\" equiv-text=\"name\"/></source>\n        <target>Jméno: <x id=\"PH\" equiv-text=\"name\"/></target>",
        )
        .replace(
            "<target state=\"needs-review-translation\">Revize</target>",
            "<target state=\"translated\">Revidováno</target>",
        )
        .replace("<target/>", "<target>Prázdné</target>");
    assert_eq!(written, expected);
    let again = XliffFile::parse("cs.xlf", written.as_bytes(), Version::V1).unwrap();
    let states: Vec<State> = again.units().iter().map(|u| u.state).collect();
    assert_eq!(
        states,
        vec![
            State::Fuzzy,
            State::Translated,
            State::Translated,
            State::Translated,
            State::ReadOnly
        ]
    );
    assert_eq!(again.units()[0].target, vec!["Nazdar <b>"]);
    assert_eq!(file.units(), again.units());
}

const V2: &str = r#"<?xml version="1.0"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="cs">
  <file id="f1">
    <unit id="one">
      <notes><note>Shown once</note></notes>
      <segment state="initial">
        <source>One <ph id="1"/></source>
        <target>Jedna <ph id="1"/></target>
      </segment>
    </unit>
    <unit id="two">
      <segment id="a"><source>A.</source><target>A.</target></segment>
      <ignorable><source> </source></ignorable>
      <segment id="b"><source>B.</source></segment>
    </unit>
  </file>
</xliff>
"#;

#[test]
fn xliff2_segments_are_units() {
    let mut file = XliffFile::parse("cs.xlf", V2.as_bytes(), Version::V2).unwrap();
    let units = file.units();
    let ids: Vec<&str> = units.iter().map(|u| u.context.as_str()).collect();
    assert_eq!(ids, vec!["one", "two/a", "two/b"]);
    assert_eq!(units[0].state, State::Fuzzy);
    assert_eq!(units[0].developer_notes, vec!["Shown once"]);
    assert_eq!(units[1].state, State::Translated);
    assert_eq!(units[2].state, State::Untranslated);
    assert_eq!(file.to_bytes().unwrap(), V2.as_bytes());
    file.set_translation(0, &["Jedna <ph id=\"1\"/>!".into()], false)
        .unwrap();
    file.set_translation(2, &["Bé.".into()], true).unwrap();
    let written = String::from_utf8(file.to_bytes().unwrap()).unwrap();
    assert_eq!(
        written,
        V2.replace(
            "<segment state=\"initial\">",
            "<segment state=\"translated\">"
        )
        .replace(
            "<target>Jedna <ph id=\"1\"/></target>",
            "<target>Jedna <ph id=\"1\"/>!</target>"
        )
        .replace(
            "<segment id=\"b\"><source>B.</source>",
            "<segment id=\"b\" state=\"initial\"><source>B.</source>\n<target>Bé.</target>"
        )
    );
}

#[test]
fn new_files_read_back() {
    let units = v1().units();
    for version in [Version::V1, Version::V2] {
        let text = write_new(version, "en", "cs", &units);
        let file = XliffFile::parse("new.xlf", text.as_bytes(), version).unwrap();
        let read = file.units();
        assert_eq!(read.len(), units.len(), "{text}");
        for (a, b) in units.iter().zip(&read) {
            assert_eq!((&a.source, &a.target), (&b.source, &b.target), "{text}");
        }
    }
}

#[test]
fn plural_groups_are_one_unit_with_a_form_per_trans_unit() {
    let text = "<xliff version=\"1.2\"><file original=\"f\"><body>\n  <group id=\"files\" restype=\"x-gettext-plurals\">\n    <trans-unit id=\"files[0]\"><source>%d file</source><target state=\"translated\">%d soubor</target></trans-unit>\n    <trans-unit id=\"files[1]\"><source>%d files</source><target state=\"translated\">%d soubory</target></trans-unit>\n    <trans-unit id=\"files[2]\"><source>%d files</source></trans-unit>\n  </group>\n  <group id=\"plain\">\n    <trans-unit id=\"one\"><source>One</source></trans-unit>\n  </group>\n</body></file></xliff>\n";
    let mut file = XliffFile::parse("p.xlf", text.as_bytes(), Version::V1).unwrap();
    let units = file.units();
    assert_eq!(units.len(), 2);
    assert_eq!(units[0].context, "files");
    assert_eq!(units[0].source, ["%d file", "%d files"]);
    assert_eq!(units[0].target, ["%d soubor", "%d soubory", ""]);
    assert_eq!(units[0].state, State::Untranslated, "a form is missing");
    assert_eq!(
        (units[1].context.as_str(), units[1].target.len()),
        ("one", 1)
    );
    assert!(file.set_translation(0, &["x".into()], false).is_err());
    let forms = ["%d soubor", "%d soubory", "%d souborů"].map(String::from);
    file.set_translation(0, &forms, true).unwrap();
    let written = String::from_utf8(file.to_bytes().unwrap()).unwrap();
    assert_eq!(
        written,
        text.replace(
            "<trans-unit id=\"files[2]\"><source>%d files</source></trans-unit>",
            "<trans-unit id=\"files[2]\"><source>%d files</source>\n<target state=\"needs-translation\">%d souborů</target></trans-unit>"
        )
        .replace("state=\"translated\"", "state=\"needs-translation\"")
    );
    let read = XliffFile::parse("p.xlf", written.as_bytes(), Version::V1)
        .unwrap()
        .units();
    assert_eq!(
        (read[0].target.as_slice(), read[0].state),
        (&forms[..], State::Fuzzy)
    );
}

#[test]
fn broken_documents_are_errors_with_lines() {
    let err = XliffFile::parse(
        "x.xlf",
        b"<xliff>\n<file>\n<trans-unit id=\"a\"><source>x</target>\n</file></xliff>",
        Version::V1,
    )
    .unwrap_err();
    assert_eq!(err.line, 3, "{err}");
    assert!(XliffFile::parse("x.xlf", b"<other/>", Version::V1).is_err());
    assert!(XliffFile::parse("x.xlf", b"<xliff><file><trans-unit>", Version::V1).is_err());
}

#[test]
fn states_mean_what_translate_toolkit_reads() {
    let targets = [
        ("new", State::Fuzzy),
        ("needs-translation", State::Fuzzy),
        ("needs-adaptation", State::Fuzzy),
        ("needs-l10n", State::Fuzzy),
        ("needs-review-translation", State::Translated),
        ("needs-review-adaptation", State::Translated),
        ("needs-review-l10n", State::Translated),
        ("translated", State::Translated),
        ("signed-off", State::Translated),
        ("final", State::Translated),
    ];
    let body: String = targets
        .iter()
        .map(|(state, _)| {
            format!("<trans-unit id=\"{state}\"><source>S</source><target state=\"{state}\">T</target></trans-unit>\n")
        })
        .collect();
    let text = format!(
        "<xliff version=\"1.2\"><file original=\"f\"><body>\n{body}</body></file></xliff>\n"
    );
    let mut file = XliffFile::parse("s.xlf", text.as_bytes(), Version::V1).unwrap();
    let states: Vec<State> = file.units().iter().map(|u| u.state).collect();
    assert_eq!(states, targets.map(|(_, s)| s));
    // A string Tolk marks as needing editing reads so in the other tools too.
    file.set_translation(7, &["U".into()], true).unwrap();
    let written = String::from_utf8(file.to_bytes().unwrap()).unwrap();
    assert!(
        written.contains("<trans-unit id=\"translated\"><source>S</source><target state=\"needs-translation\">U</target>"),
        "{written}"
    );
    let again = XliffFile::parse("s.xlf", written.as_bytes(), Version::V1).unwrap();
    assert_eq!(again.units()[7].state, State::Fuzzy);
}

#[test]
fn removing_a_string_removes_its_element_and_line() {
    let mut file = v1();
    file.remove_unit(1).unwrap();
    let removed = "      <trans-unit id=\"name\">\n        <source>Name: <x id=\"PH\" equiv-text=\"name\"/></source>\n        <context-group purpose=\"location\">\n          <context context-type=\"sourcefile\">src/app.ts</context>\n          <context context-type=\"linenumber\">12</context>\n        </context-group>\n      </trans-unit>\n";
    assert!(V1.contains(removed));
    assert_eq!(
        String::from_utf8(file.to_bytes().unwrap()).unwrap(),
        V1.replace(removed, "")
    );
    let ids: Vec<String> = file.units().into_iter().map(|u| u.context).collect();
    assert_eq!(ids, ["hello", "review", "empty", "fixed"]);

    let mut file = XliffFile::parse("cs.xlf", V2.as_bytes(), Version::V2).unwrap();
    let error = file.remove_unit(1).unwrap_err().to_string();
    assert!(error.contains("cannot be removed alone"), "{error}");
    file.remove_unit(0).unwrap();
    let removed = "    <unit id=\"one\">\n      <notes><note>Shown once</note></notes>\n      <segment state=\"initial\">\n        <source>One <ph id=\"1\"/></source>\n        <target>Jedna <ph id=\"1\"/></target>\n      </segment>\n    </unit>\n";
    assert_eq!(
        String::from_utf8(file.to_bytes().unwrap()).unwrap(),
        V2.replace(removed, "")
    );
}
