//! Spreadsheets (`xlsx`) for downloads: one sheet with the columns of the
//! CSV export, written as Office Open XML with inline strings.

use std::io::Write;

use zip::write::SimpleFileOptions;

use crate::csv::{EXPORT_COLUMNS, export_rows};
use crate::error::FormatError;
use crate::unit::Unit;
use crate::xml;

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
