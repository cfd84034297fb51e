//! Strings holding a NUL character (U+0000). PostgreSQL cannot store one
//! in text, so that both databases behave alike Tolk stores none: a file
//! whose strings hold one is refused as a broken file is, naming the file
//! and the line (an upload answers 400; a scan leaves the file out with
//! that reason, as it does a file it cannot parse).

use tolk_formats::Unit;

/// How a NUL may be written in a file: raw, or as one of the escapes of
/// JSON, C-like formats, XML and octal.
const WRITTEN: &[&str] = &["\0", "\\u0000", "\\x00", "&#0;", "&#x0;", "\\000", "\\0"];

/// The strings of the translation file `path` of `bytes` in `format`, or
/// why they cannot be stored: the file does not parse, or a string holds
/// a NUL character (the error names the file and line either way).
pub(crate) fn read_units(format: &str, path: &str, bytes: &[u8]) -> Result<Vec<Unit>, String> {
    let units = tolk_formats::parse(format, path, bytes)
        .map_err(|e| e.to_string())?
        .units();
    refuse_nul(path, bytes, &units)?;
    Ok(units)
}

/// Refuses `units`, read from the file `path` of `bytes`, when one of
/// their strings holds a NUL character: why, naming the file and line.
pub(crate) fn refuse_nul(path: &str, bytes: &[u8], units: &[Unit]) -> Result<(), String> {
    let Some(unit) = units.iter().find(|u| holds_nul(u)) else {
        return Ok(());
    };
    let why = "a string holds a NUL character (U+0000), which Tolk does not store";
    Err(match line_of_nul(bytes) {
        Some(line) => format!("{path}, line {line}: {why}"),
        None => format!("{path}: {why} (the string {:?})", name_of(unit)),
    })
}

/// Whether any text of `unit` holds a NUL character.
fn holds_nul(unit: &Unit) -> bool {
    let Unit {
        context,
        source,
        target,
        developer_notes,
        translator_notes,
        locations,
        flags,
        previous_source,
        ..
    } = unit;
    std::iter::once(context)
        .chain(source)
        .chain(target)
        .chain(developer_notes)
        .chain(translator_notes)
        .chain(locations)
        .chain(flags)
        .chain(previous_source)
        .any(|text| text.contains('\0'))
}

/// What names a string for people: its key or context, else its source.
fn name_of(unit: &Unit) -> String {
    let name = if unit.context.is_empty() {
        unit.source.first().cloned().unwrap_or_default()
    } else {
        unit.context.clone()
    };
    name.replace('\0', "\u{2400}").chars().take(60).collect()
}

/// The line of the first NUL of a file, raw or escaped, in UTF-8 or (with
/// a byte-order mark) UTF-16; `None` where none is found as written.
fn line_of_nul(bytes: &[u8]) -> Option<usize> {
    let utf16 = |bytes: &[u8], unit: fn([u8; 2]) -> u16| {
        let units = bytes.chunks_exact(2).map(|p| unit([p[0], p[1]]));
        char::decode_utf16(units)
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect::<String>()
    };
    let text = match bytes {
        [0xFF, 0xFE, rest @ ..] => utf16(rest, u16::from_le_bytes),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, u16::from_be_bytes),
        _ => String::from_utf8_lossy(bytes).into_owned(),
    };
    let at = WRITTEN.iter().filter_map(|w| text.find(w)).min()?;
    Some(text[..at].matches('\n').count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(format: &str, path: &str, bytes: &[u8]) -> String {
        let units = tolk_formats::parse(format, path, bytes).unwrap().units();
        refuse_nul(path, bytes, &units).unwrap_err()
    }

    #[test]
    fn a_nul_in_any_format_is_refused_with_its_line() {
        let po = b"msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n\
                   msgid \"a\"\nmsgstr \"b\"\n\nmsgid \"c\"\nmsgstr \"d\0e\"\n";
        assert_eq!(
            refused("po", "po/cs.po", po),
            "po/cs.po, line 9: a string holds a NUL character (U+0000), which Tolk does not store"
        );
        let json = b"{\n  \"a\": \"b\",\n  \"c\": \"d\\u0000\"\n}\n";
        assert!(refused("json", "cs.json", json).starts_with("cs.json, line 3: "));
        let csv = b"source,target\n\"a\",\"b\"\n\"c\",\"d\0\"\n";
        assert!(refused("csv", "cs.csv", csv).starts_with("cs.csv, line 3: "));
        // Strings without one pass.
        let fine = b"{\"a\": \"b\"}";
        let units = tolk_formats::parse("json", "cs.json", fine)
            .unwrap()
            .units();
        refuse_nul("cs.json", fine, &units).unwrap();
    }

    #[test]
    fn a_utf16_file_is_read_for_its_line() {
        let text = "\"a\" = \"b\";\n\"c\" = \"d\\0\";\n";
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(line_of_nul(&bytes), Some(2));
        assert_eq!(line_of_nul(b"no nul here"), None);
    }
}
