//! What must hold for any input a parser accepts; used by the fuzz targets
//! (`fuzz/`) and by the seed-corpus test that CI runs.

/// The value written by edits: markup, quotes, escapes and line breaks
/// that every codec must escape correctly.
pub const EDIT: &str = "v <x id=\"1\"/> & \"q\" ' ]]> \\n \u{e9}";

/// Parses `data` as `format`; when it parses, writing it back gives the
/// same bytes (MO files are rewritten canonically instead), after editing
/// units the file reads back with the same units and the edits, and a
/// string added (where the format takes one) is there once more after that.
pub fn check(format: &str, data: &[u8]) {
    let Ok(mut file) = tolk_formats::parse(format, "fuzz", data) else {
        return;
    };
    if format != "mo" {
        assert!(file.to_bytes().unwrap() == data, "{format}: round trip");
    }
    let units = file.units();
    let stats = file.stats();
    assert_eq!(stats.units, units.len());
    let mut edited = Vec::new();
    for index in [0, units.len() / 2, units.len().saturating_sub(1)] {
        let Some(unit) = units.get(index) else { break };
        let forms = vec![EDIT.to_owned(); unit.target.len()];
        if file.set_translation(index, &forms, false).is_ok() {
            edited.push((index, forms));
        }
    }
    let written = file.to_bytes().unwrap();
    let reread = tolk_formats::parse(format, "fuzz", &written)
        .unwrap_or_else(|e| panic!("{format}: the edited file does not read back: {e}"))
        .units();
    assert_eq!(reread.len(), units.len(), "{format}: units after edits");
    if matches!(format, "html" | "markdown") {
        // A filled-in document reads back against its template.
        match tolk_formats::with_document(format, ("fuzz", data), ("fuzz", &written)) {
            Ok(tolk_formats::Paired::Units(paired)) => {
                for (index, forms) in &edited {
                    assert_eq!(&paired[*index].target, forms, "{format}: paired {index}");
                }
            }
            other => panic!("{format}: the edits changed the structure: {other:?}"),
        }
    }
    for (index, forms) in edited {
        // MO files are written sorted, so units are found by their key.
        let unit = &units[index];
        if matches!(format, "html" | "markdown") {
            // A document's strings are keyed by their text: found in place.
            assert_eq!(reread[index].target, forms, "{format}: unit {index}");
            continue;
        }
        let same = |u: &&tolk_formats::Unit| u.context == unit.context && u.source == unit.source;
        let found = Some(&reread[index])
            .filter(same)
            .or_else(|| reread.iter().find(same))
            .unwrap_or_else(|| panic!("{format}: unit {index} is gone"));
        assert_eq!(found.target, forms, "{format}: unit {index}");
    }
    check_added(format, file.as_mut());
}

/// Adds a string to the file after the checks above and reads it back;
/// for formats whose keys nest, then one beside the first string's key.
fn check_added(format: &str, file: &mut dyn tolk_formats::TranslationFile) {
    add_and_reread(format, file, "tolk_new_key");
    let separator = match format {
        "yaml" | "ruby-yaml" => "->",
        "json" | "json-nested" | "i18next" | "i18nextv4" => ".",
        _ => return,
    };
    let units = file.units();
    let Some((parent, _)) = units
        .first()
        .and_then(|unit| unit.context.rsplit_once(separator))
    else {
        return;
    };
    add_and_reread(format, file, &format!("{parent}{separator}tolk_nested"));
}

/// Adds a string keyed `key`, if the file takes it, and reads it back.
fn add_and_reread(format: &str, file: &mut dyn tolk_formats::TranslationFile, key: &str) {
    let before = file.units();
    let unit = tolk_formats::Unit {
        state: tolk_formats::State::Translated,
        ..tolk_formats::Unit::keyed(key, EDIT, Vec::new())
    };
    if file.add_unit(&unit).is_err() {
        return;
    }
    let written = file.to_bytes().unwrap();
    let reread = tolk_formats::parse(format, "fuzz", &written)
        .unwrap_or_else(|e| panic!("{format}: the file with a new string does not read back: {e}"))
        .units();
    assert_eq!(
        reread.len(),
        before.len() + 1,
        "{format}: units after adding"
    );
    assert!(
        reread
            .iter()
            .any(|u| u.target == vec![EDIT.to_owned()] && (u.context == key || u.source[0] == key)),
        "{format}: the new string {key:?} is not there"
    );
}
