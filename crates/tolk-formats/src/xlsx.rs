//! Spreadsheets (`xlsx`) for downloads: one sheet with the columns of the
//! CSV export, written as Office Open XML with inline strings; and read
//! back for uploads: the first sheet's rows (inline, shared or plain
//! values) read as the CSV export's are, by the header row's names.

use std::io::{Read, Write};

use quick_xml::events::Event;
use zip::write::SimpleFileOptions;

use crate::csv::{CsvFile, EXPORT_COLUMNS, export_rows};
use crate::edits::utf8;
use crate::error::FormatError;
use crate::translation_file::TranslationFile;
use crate::unit::Unit;
use crate::xml::{self, Scanner, attribute};

/// The most a part of an uploaded workbook may unpack to.
const PART_LIMIT: u64 = 64 << 20;

/// The units of a workbook's first sheet; `name` is used in errors.
pub fn read(name: &str, bytes: &[u8]) -> Result<Vec<Unit>, FormatError> {
    let failed = |why: String| FormatError::new(name, 0, why);
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| failed(format!("not a workbook: {e}")))?;
    let mut part = |path: &str| -> Result<Option<String>, FormatError> {
        let Ok(file) = archive.by_name(path) else {
            return Ok(None);
        };
        let mut content = Vec::new();
        file.take(PART_LIMIT + 1)
            .read_to_end(&mut content)
            .map_err(|e| failed(format!("{path}: {e}")))?;
        if content.len() as u64 > PART_LIMIT {
            return Err(failed(format!("{path} unpacks to more than 64 MiB")));
        }
        Ok(Some(utf8(name, &content)?.to_owned()))
    };
    let sheet = part("xl/worksheets/sheet1.xml")?
        .ok_or_else(|| failed("the workbook has no first sheet".into()))?;
    let shared = match part("xl/sharedStrings.xml")? {
        Some(text) => shared_strings(name, &text)?,
        None => Vec::new(),
    };
    let rows = sheet_rows(name, &sheet, &shared)?;
    let mut csv = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .map(|cell| format!("\"{}\"", cell.replace('"', "\"\"")))
            .collect();
        csv.push_str(&cells.join(","));
        csv.push_str("\r\n");
    }
    Ok(CsvFile::parse(name, csv.as_bytes())?.units())
}

/// The texts of a workbook's shared strings, by index.
fn shared_strings(name: &str, text: &str) -> Result<Vec<String>, FormatError> {
    let mut scanner = Scanner::new(name, text)?;
    let mut strings = Vec::new();
    loop {
        match scanner.next()? {
            Event::Start(e) if e.local_name().as_ref() == "si" => strings.push(String::new()),
            Event::Start(e) if e.local_name().as_ref() == "t" => {
                let piece = scanner.text_content()?;
                if let Some(last) = strings.last_mut() {
                    last.push_str(&piece);
                }
            }
            Event::Eof => return Ok(strings),
            _ => {}
        }
    }
}

/// A cell reference's column (`C7` is 2).
/// The number of columns a sheet may have (`XFD` is the last).
const COLUMNS: usize = 16_384;

/// A cell reference's column (`C7` is 2); `None` past the last column a
/// sheet may have, so that a crafted reference cannot make a huge row.
fn column_of(reference: &str) -> Option<usize> {
    let letters = reference.chars().take_while(char::is_ascii_alphabetic);
    let number = letters.take(4).fold(0, |n, c| {
        n * 26 + usize::from(c.to_ascii_uppercase() as u8 - b'A') + 1
    });
    (1..=COLUMNS).contains(&number).then(|| number - 1)
}

/// The rows of a sheet, each cell's text at its column.
fn sheet_rows(name: &str, text: &str, shared: &[String]) -> Result<Vec<Vec<String>>, FormatError> {
    let mut scanner = Scanner::new(name, text)?;
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut cell: Option<(usize, Option<String>)> = None;
    loop {
        let before = scanner.position();
        match scanner.next()? {
            Event::Start(e) if e.local_name().as_ref() == "row" => rows.push(Vec::new()),
            Event::Start(e) if e.local_name().as_ref() == "c" => {
                let column = attribute(&e, "r")
                    .map_or_else(|| Some(rows.last().map_or(0, Vec::len)), |r| column_of(&r))
                    .filter(|c| *c < COLUMNS)
                    .ok_or_else(|| {
                        scanner.error(before, "a cell beyond the sheet's last column")
                    })?;
                cell = Some((column, attribute(&e, "t")));
            }
            Event::Start(e) if matches!(e.local_name().as_ref(), "v" | "t") => {
                let value = scanner.text_content()?;
                let (Some((column, kind)), Some(row)) = (&cell, rows.last_mut()) else {
                    continue;
                };
                let value = if kind.as_deref() == Some("s") {
                    let index: usize = value.trim().parse().map_err(|_| {
                        scanner.error(before, "a shared string's index is not a number")
                    })?;
                    shared
                        .get(index)
                        .cloned()
                        .ok_or_else(|| scanner.error(before, "no such shared string"))?
                } else {
                    value
                };
                if row.len() <= *column {
                    row.resize(*column + 1, String::new());
                }
                row[*column].push_str(&value);
            }
            Event::End(e) if e.local_name().as_ref() == "c" => cell = None,
            Event::Eof => return Ok(rows),
            _ => {}
        }
    }
}

const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#;

const ROOT_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#;

const WORKBOOK_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#;

/// A workbook whose one sheet, named after the language, holds `units`.
pub fn write_new(name: &str, sheet: &str, units: &[Unit]) -> Result<Vec<u8>, FormatError> {
    let workbook = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="{}" sheetId="1" r:id="rId1"/></sheets></workbook>"#,
        xml::escape_attribute(&sheet_name(sheet))
    );
    let parts = [
        ("[Content_Types].xml", CONTENT_TYPES.to_owned()),
        ("_rels/.rels", ROOT_RELS.to_owned()),
        ("xl/workbook.xml", workbook),
        ("xl/_rels/workbook.xml.rels", WORKBOOK_RELS.to_owned()),
        ("xl/worksheets/sheet1.xml", worksheet(units)),
    ];
    let failed = |e: &dyn std::fmt::Display| {
        FormatError::new(name, 0, format!("cannot write the workbook: {e}"))
    };
    let mut archive = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (path, content) in parts {
        archive.start_file(path, options).map_err(|e| failed(&e))?;
        archive
            .write_all(content.as_bytes())
            .map_err(|e| failed(&e))?;
    }
    Ok(archive.finish().map_err(|e| failed(&e))?.into_inner())
}

/// A sheet name Excel accepts: at most 31 characters, none of `[]:*?/\`.
fn sheet_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .filter(|c| !"[]:*?/\\".contains(*c))
        .take(31)
        .collect();
    if cleaned.is_empty() {
        "Sheet1".into()
    } else {
        cleaned
    }
}

/// The sheet: a header row, then one row per exported row.
fn worksheet(units: &[Unit]) -> String {
    let mut out = String::from(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#,
    );
    let header = EXPORT_COLUMNS.map(str::to_owned);
    for (index, row) in std::iter::once(header)
        .chain(export_rows(units))
        .enumerate()
    {
        out.push_str(&format!("<row r=\"{}\">", index + 1));
        for (column, value) in row.iter().enumerate() {
            if value.is_empty() {
                continue;
            }
            let letter = char::from(b'A' + u8::try_from(column).unwrap_or(0));
            out.push_str(&format!(
                "<c r=\"{letter}{}\" t=\"inlineStr\"><is><t xml:space=\"preserve\">{}</t></is></c>",
                index + 1,
                xml::escape(&printable(value), &[])
            ));
        }
        out.push_str("</row>");
    }
    out.push_str("</sheetData></worksheet>");
    out
}

/// Text without the control characters XML 1.0 cannot hold.
fn printable(value: &str) -> String {
    value
        .chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t' | '\r'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn a_written_workbook_reads_back() {
        let mut first = Unit::new(
            "ctx".into(),
            vec!["Open \"file\"".into()],
            vec!["Otevřít, \"soubor\"".into()],
        );
        first.developer_notes = vec!["a note".into()];
        let second = Unit::new(String::new(), vec!["Close".into()], vec!["Zavřít".into()]);
        let bytes = write_new("cs.xlsx", "cs", &[first.clone(), second.clone()]).unwrap();
        let units = read("cs.xlsx", &bytes).unwrap();
        let pairs = |units: &[Unit]| -> Vec<(String, Vec<String>, Vec<String>)> {
            units
                .iter()
                .map(|u| (u.context.clone(), u.source.clone(), u.target.clone()))
                .collect()
        };
        assert_eq!(pairs(&units), pairs(&[first, second]));
        assert!(read("x.xlsx", b"not a zip").is_err());
    }

    #[test]
    fn shared_strings_and_cell_references_are_followed() {
        let shared = shared_strings(
            "s.xml",
            "<sst><si><t>source</t></si><si><r><t>tar</t></r><r><t>get</t></r></si><si><t>Hello</t></si></sst>",
        )
        .unwrap();
        assert_eq!(shared, vec!["source", "target", "Hello"]);
        let rows = sheet_rows(
            "sheet1.xml",
            "<worksheet><sheetData><row r=\"1\"><c r=\"B1\" t=\"s\"><v>0</v></c><c r=\"C1\" t=\"s\"><v>1</v></c></row>\
             <row r=\"2\"><c r=\"B2\" t=\"s\"><v>2</v></c><c r=\"C2\"><v>42</v></c></row></sheetData></worksheet>",
            &shared,
        )
        .unwrap();
        assert_eq!(
            rows,
            vec![
                vec![String::new(), "source".into(), "target".into()],
                vec![String::new(), "Hello".into(), "42".into()]
            ]
        );
        assert_eq!(column_of("AA10"), Some(26));
        assert_eq!(column_of("XFD1"), Some(16_383));
        assert_eq!(column_of("XFE1"), None);
        assert_eq!(column_of("ZZZZZZZZZZZZZZZZ1"), None);
        let huge = sheet_rows(
            "sheet1.xml",
            "<worksheet><sheetData><row><c r=\"ZZZZZZZZ1\"><v>x</v></c></row></sheetData></worksheet>",
            &[],
        );
        assert!(huge.unwrap_err().to_string().contains("last column"));
    }

    #[test]
    fn the_workbook_holds_a_sheet_of_inline_strings() {
        let units = vec![
            Unit::keyed("greeting", "Ahoj & <vítej>", vec!["note".into()]),
            Unit::keyed_plural(
                "files",
                vec!["%d soubor".into(), "%d soubory".into()],
                vec![],
            ),
        ];
        let bytes = write_new("cs.xlsx", "cs", &units).unwrap();
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        assert_eq!(archive.len(), 5);

        let mut sheet = String::new();
        archive
            .by_name("xl/worksheets/sheet1.xml")
            .unwrap()
            .read_to_string(&mut sheet)
            .unwrap();
        assert!(sheet.contains("<c r=\"C2\" t=\"inlineStr\"><is><t xml:space=\"preserve\">Ahoj &amp; &lt;vítej&gt;</t></is></c>"), "{sheet}");
        assert!(
            sheet.contains("<row r=\"4\">"),
            "plural forms are rows: {sheet}"
        );
        assert!(sheet.contains(">%d soubory<"));
        let mut workbook = String::new();
        archive
            .by_name("xl/workbook.xml")
            .unwrap()
            .read_to_string(&mut workbook)
            .unwrap();
        assert!(workbook.contains("<sheet name=\"cs\""));
        assert_eq!(sheet_name("a/b[c]:d*e?f\\g"), "abcdefg");
    }
}
