//! Tidying a translation file's strings: dropping keys its template no
//! longer has, dropping strings without a translation, and bringing a
//! bilingual file in line with its template (what `msgmerge` does for
//! gettext). Every change goes through the file's codec, so the rest of
//! the file stays byte for byte as it was.

use std::collections::HashSet;

use crate::codecs::parse;
use crate::error::FormatError;
use crate::translation_file::TranslationFile;
use crate::unit::{State, Unit};

/// What identifies a string of a bilingual file: context and source.
fn bilingual_key(unit: &Unit) -> (String, Vec<String>) {
    (unit.context.clone(), unit.source.clone())
}

/// Removes the strings at `indexes` (ascending) from `file`, last first
/// so the earlier places hold; strings the format cannot take out alone
/// stay. How many were removed.
fn remove_all(file: &mut dyn TranslationFile, indexes: &[usize]) -> usize {
    indexes
        .iter()
        .rev()
        .filter(|i| file.remove_unit(**i).is_ok())
        .count()
}

/// The file `name` of `format` without the keys that are not in `keep`
/// (a monolingual file after its template lost strings); `None` when it
/// holds none of those.
pub fn drop_keys(
    format: &str,
    name: &str,
    bytes: &[u8],
    keep: &HashSet<String>,
) -> Result<Option<Vec<u8>>, FormatError> {
    let mut file = parse(format, name, bytes)?;
    let stale: Vec<usize> = file
        .units()
        .iter()
        .enumerate()
        .filter(|(_, u)| !keep.contains(&u.context))
        .map(|(i, _)| i)
        .collect();
    if remove_all(file.as_mut(), &stale) == 0 {
        return Ok(None);
    }
    file.to_bytes().map(Some)
}

/// The file `name` of `format` without its untranslated strings; `None`
/// when it has none.
pub fn drop_blank(format: &str, name: &str, bytes: &[u8]) -> Result<Option<Vec<u8>>, FormatError> {
    let mut file = parse(format, name, bytes)?;
    let blank: Vec<usize> = file
        .units()
        .iter()
        .enumerate()
        .filter(|(_, u)| u.target.iter().all(String::is_empty))
        .map(|(i, _)| i)
        .collect();
    if remove_all(file.as_mut(), &blank) == 0 {
        return Ok(None);
    }
    file.to_bytes().map(Some)
}

/// What bringing a file in line with its template changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Synced {
    /// The file's new bytes.
    pub bytes: Vec<u8>,
    /// Strings of the template the file gained (untranslated).
    pub added: usize,
    /// Strings the template no longer has that the file lost.
    pub removed: usize,
}

/// Brings the bilingual file `name` of `format` in line with `template`
/// (a POT file for gettext): strings the template lacks are removed, its
/// new strings are added untranslated (at the end), translations of the
/// strings both have are kept. `None` when nothing changes.
pub fn sync_with_template(
    format: &str,
    name: &str,
    bytes: &[u8],
    template: &[u8],
) -> Result<Option<Synced>, FormatError> {
    let wanted = parse(format, name, template)?.units();
    let wanted_keys: HashSet<(String, Vec<String>)> = wanted.iter().map(bilingual_key).collect();
    let mut file = parse(format, name, bytes)?;
    let present = file.units();
    let stale: Vec<usize> = present
        .iter()
        .enumerate()
        .filter(|(_, u)| !wanted_keys.contains(&bilingual_key(u)))
        .map(|(i, _)| i)
        .collect();
    let removed = remove_all(file.as_mut(), &stale);
    let have: HashSet<(String, Vec<String>)> = present.iter().map(bilingual_key).collect();
    let mut added = 0;
    for unit in wanted.iter().filter(|u| !have.contains(&bilingual_key(u))) {
        let new = Unit {
            target: vec![String::new(); unit.target.len().max(1)],
            state: State::Untranslated,
            translator_notes: Vec::new(),
            ..unit.clone()
        };
        file.add_unit(&new)?;
        added += 1;
    }
    if added == 0 && removed == 0 {
        return Ok(None);
    }
    Ok(Some(Synced {
        bytes: file.to_bytes()?,
        added,
        removed,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const POT: &str = "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n\
#: a.c:1\nmsgid \"Hello\"\nmsgstr \"\"\n\n#: a.c:2\nmsgid \"New\"\nmsgstr \"\"\n";
    const PO: &str = "# Czech.\nmsgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n\
#: a.c:1\nmsgid \"Hello\"\nmsgstr \"Ahoj\"\n\n#: a.c:3\nmsgid \"Gone\"\nmsgstr \"Pryč\"\n";

    #[test]
    fn a_po_file_follows_its_template() {
        let synced = sync_with_template("po", "cs.po", PO.as_bytes(), POT.as_bytes())
            .unwrap()
            .unwrap();
        assert_eq!((synced.added, synced.removed), (1, 1));
        let text = String::from_utf8(synced.bytes).unwrap();
        assert!(text.starts_with("# Czech.\n"), "{text}");
        assert!(text.contains("msgid \"Hello\"\nmsgstr \"Ahoj\""), "{text}");
        assert!(text.contains("msgid \"New\"\nmsgstr \"\""), "{text}");
        assert!(!text.contains("Gone"), "{text}");
        // In line already: nothing to do.
        let again = sync_with_template("po", "cs.po", text.as_bytes(), POT.as_bytes()).unwrap();
        assert_eq!(again, None);
    }

    #[test]
    fn stale_and_blank_keys_leave_a_monolingual_file() {
        let json = b"{\n    \"a\": \"A\",\n    \"b\": \"\",\n    \"c\": \"C\"\n}\n";
        let keep: HashSet<String> = ["a".to_owned(), "b".to_owned()].into();
        let kept = drop_keys("json", "cs.json", json, &keep).unwrap().unwrap();
        assert_eq!(kept, b"{\n    \"a\": \"A\",\n    \"b\": \"\"\n}\n");
        let filled = drop_blank("json", "cs.json", &kept).unwrap().unwrap();
        assert_eq!(filled, b"{\n    \"a\": \"A\"\n}\n");
        assert_eq!(drop_blank("json", "cs.json", &filled).unwrap(), None);
    }
}
