//! CSV files (`csv`, `csv-simple`): one unit per row. A first row naming
//! `source` and `target` (or `context`) columns is a header that says which
//! column is which (`location`, `source`, `target`, `id`/`context`,
//! `fuzzy`, `translator_comments`, `developer_comments`); without one the
//! first column is the source and the second the translation ("Simple CSV",
//! as Magento packs are). The delimiter (`,`, `;` or tab) is found from the
//! first row. Blank rows are kept but are not units.
//!
//! The original text is kept; an edit replaces the one translation field.

use std::ops::Range;

use crate::edits::{SpanEdits, line_at, removal_span, utf8};
use crate::error::{FormatError, cannot_add, ensure_new, same_forms, unit_at};
use crate::translation_file::TranslationFile;
use crate::unit::{State, Unit};

/// One field of a row: its value and the span of its text in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Field {
    value: String,
    span: Range<usize>,
    quoted: bool,
}

/// A row as read, with the values of edited fields.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Row {
    fields: Vec<Field>,
    /// Values of columns the row did not have, added by edits.
    added: Vec<String>,
}

impl Row {
    fn value(&self, column: Option<usize>) -> String {
        let Some(column) = column else {
            return String::new();
        };
        match self.fields.get(column) {
            Some(field) => field.value.clone(),
            None => self
                .added
                .get(column - self.fields.len())
                .cloned()
                .unwrap_or_default(),
        }
    }
}

/// Which column holds what.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Columns {
    source: usize,
    target: usize,
    context: Option<usize>,
    location: Option<usize>,
    fuzzy: Option<usize>,
    translator_comments: Option<usize>,
    developer_comments: Option<usize>,
}

impl Columns {
    /// The columns a header row names, if it is a header.
    fn from_header(names: &[Field]) -> Option<Columns> {
        let find = |wanted: &[&str]| {
            names
                .iter()
                .position(|f| wanted.contains(&f.value.trim().to_ascii_lowercase().as_str()))
        };
        let source = find(&["source", "msgid"])?;
        let target = find(&["target", "msgstr", "translation"]);
        let context = find(&["context", "id", "msgctxt"]);
        if target.is_none() && context.is_none() {
            return None;
        }
        Some(Columns {
            source,
            target: target.unwrap_or(names.len()),
            context,
            location: find(&["location"]),
            fuzzy: find(&["fuzzy"]),
            translator_comments: find(&["translator_comments"]),
            developer_comments: find(&["developer_comments"]),
        })
    }

    fn simple() -> Columns {
        Columns {
            source: 0,
            target: 1,
            ..Columns::default()
        }
    }
}

/// A parsed CSV file.
#[derive(Debug, Clone)]
pub struct CsvFile {
    name: String,
    text: String,
    delimiter: u8,
    /// How many of the first rows the delimiter was guessed from: edits
    /// of them must not change the guess.
    window: usize,
    columns: Columns,
    /// The rows that are units (not the header, not blank).
    rows: Vec<Row>,
    edits: SpanEdits,
}

/// Reads fields and rows, keeping spans.
struct Reader<'a> {
    name: &'a str,
    bytes: &'a [u8],
    pos: usize,
    delimiter: u8,
    /// Text after a closing quote is an error rather than part of the field.
    strict: bool,
}

impl Reader<'_> {
    /// The next row, or `None` at the end of the text.
    fn row(&mut self) -> Result<Option<Vec<Field>>, FormatError> {
        if self.pos >= self.bytes.len() {
            return Ok(None);
        }
        let mut fields = Vec::new();
        loop {
            fields.push(self.field()?);
            match self.bytes.get(self.pos) {
                Some(b) if *b == self.delimiter => self.pos += 1,
                Some(b'\r') if self.bytes.get(self.pos + 1) == Some(&b'\n') => {
                    self.pos += 2;
                    return Ok(Some(fields));
                }
                Some(b'\n' | b'\r') => {
                    self.pos += 1;
                    return Ok(Some(fields));
                }
                _ => return Ok(Some(fields)),
            }
        }
    }

    fn field(&mut self) -> Result<Field, FormatError> {
        let start = self.pos;
        let mut at = self.pos;
        while self.bytes.get(at) == Some(&b' ') {
            at += 1;
        }
        if self.bytes.get(at) == Some(&b'"') {
            let open = at;
            at += 1;
            let mut value = Vec::new();
            loop {
                match self.bytes.get(at) {
                    Some(b'"') if self.bytes.get(at + 1) == Some(&b'"') => {
                        value.push(b'"');
                        at += 2;
                    }
                    Some(b'"') => {
                        at += 1;
                        break;
                    }
                    Some(b) => {
                        value.push(*b);
                        at += 1;
                    }
                    None => {
                        // What was read counts for the sniffing window.
                        self.pos = at;
                        return Err(FormatError::new(
                            self.name,
                            line_at(self.bytes, open),
                            "the quoted field is not closed",
                        ));
                    }
                }
            }
            // Text after the closing quote belongs to the field as written.
            while let Some(b) = self.bytes.get(at) {
                if self.strict && *b != b' ' && *b != self.delimiter && *b != b'\n' && *b != b'\r' {
                    self.pos = at + 1;
                    return Err(FormatError::new(
                        self.name,
                        line_at(self.bytes, at),
                        "text after the closing quote of a field",
                    ));
                }
                if *b == self.delimiter || *b == b'\n' || *b == b'\r' {
                    break;
                }
                value.push(*b);
                at += 1;
            }
            self.pos = at;
            return Ok(Field {
                value: String::from_utf8_lossy(&value).into_owned(),
                span: start..at,
                quoted: true,
            });
        }
        while let Some(b) = self.bytes.get(at) {
            if *b == self.delimiter || *b == b'\n' || *b == b'\r' {
                break;
            }
            at += 1;
        }
        self.pos = at;
        Ok(Field {
            value: String::from_utf8_lossy(&self.bytes[start..at]).into_owned(),
            span: start..at,
            quoted: false,
        })
    }
}

/// The delimiters a file may use, preferred in this order.
const DELIMITERS: [u8; 3] = [b',', b';', b'\t'];

/// Rows the delimiter is guessed from.
const SNIFFED_ROWS: usize = 10;

/// The delimiter the file is written with: among those with which the
/// first rows read strictly (every quote closed, nothing after a closing
/// quote) and the first row has at least two fields, the one giving it the
/// most fields (the comma on a tie); the comma when none does. Asking
/// several rows to read well keeps the guess stable when a value changes.
fn sniff_delimiter(name: &str, bytes: &[u8], start: usize) -> (u8, usize) {
    let mut window = start;
    let mut fields = |delimiter: u8| -> Option<usize> {
        let mut reader = Reader {
            name,
            bytes,
            pos: start,
            delimiter,
            strict: true,
        };
        let mut count = None;
        for _ in 0..SNIFFED_ROWS {
            let row = reader.row();
            window = window.max(reader.pos);
            let Some(row) = row.ok()? else { break };
            if count.is_none() && !row.iter().all(|f| f.value.trim().is_empty()) {
                count = Some(row.len());
            }
        }
        count.filter(|n| *n >= 2)
    };
    let mut best: Option<(usize, u8)> = None;
    for delimiter in DELIMITERS {
        if let Some(n) = fields(delimiter)
            && best.is_none_or(|(m, _)| n > m)
        {
            best = Some((n, delimiter));
        }
    }
    (best.map_or(DELIMITERS[0], |(_, d)| d), window)
}

impl CsvFile {
    /// Parses a CSV file; `name` is used in error messages.
    pub fn parse(name: &str, bytes: &[u8]) -> Result<CsvFile, FormatError> {
        let text = utf8(name, bytes)?;
        let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let (delimiter, window) = sniff_delimiter(name, text.as_bytes(), bom);
        let mut reader = Reader {
            name,
            bytes: text.as_bytes(),
            pos: bom,
            delimiter,
            strict: false,
        };
        let mut rows = Vec::new();
        let mut columns = None;
        while let Some(row) = reader.row()? {
            if row.iter().all(|f| f.value.trim().is_empty()) {
                continue;
            }
            if columns.is_none() {
                match Columns::from_header(&row) {
                    Some(found) => {
                        columns = Some(found);
                        continue;
                    }
                    None => columns = Some(Columns::simple()),
                }
            }
            rows.push(Row {
                fields: row,
                added: Vec::new(),
            });
        }
        let window = rows.partition_point(|row| row.fields[0].span.start < window);
        Ok(CsvFile {
            name: name.to_owned(),
            text: text.to_owned(),
            delimiter,
            window,
            columns: columns.unwrap_or_else(Columns::simple),
            rows,
            edits: SpanEdits::default(),
        })
    }

    /// True when `other` (this file after a change, read again) has the same
    /// delimiter and columns, and `rows` rows.
    fn same_layout(&self, other: &CsvFile, rows: usize) -> bool {
        other.delimiter == self.delimiter
            && other.columns == self.columns
            && other.rows.len() == rows
    }

    /// `value` as a field: quoted when the original was, or when needed.
    fn field_text(&self, value: &str, quoted: bool) -> String {
        // Any delimiter is quoted, so that the file's delimiter is found again.
        let needs = value.contains([',', ';', '\t', '"', '\n', '\r'])
            || value.starts_with(' ')
            || value.ends_with(' ');
        if quoted || needs {
            format!("\"{}\"", value.replace('"', "\"\""))
        } else {
            value.to_owned()
        }
    }
}

fn notes(text: String) -> Vec<String> {
    if text.is_empty() {
        Vec::new()
    } else {
        vec![text]
    }
}

impl TranslationFile for CsvFile {
    fn units(&self) -> Vec<Unit> {
        let c = &self.columns;
        self.rows
            .iter()
            .map(|row| {
                let target = row.value(Some(c.target));
                let fuzzy = row.value(c.fuzzy).trim().eq_ignore_ascii_case("true");
                Unit {
                    state: State::from_marks(!target.is_empty(), fuzzy),
                    developer_notes: notes(row.value(c.developer_comments)),
                    translator_notes: notes(row.value(c.translator_comments)),
                    locations: notes(row.value(c.location)),
                    ..Unit::new(
                        row.value(c.context),
                        vec![row.value(Some(c.source))],
                        vec![target],
                    )
                }
            })
            .collect()
    }

    fn set_translation(
        &mut self,
        index: usize,
        target: &[String],
        fuzzy: bool,
    ) -> Result<(), FormatError> {
        let mut row = unit_at(&mut self.rows, index, &self.name)?.clone();
        let line = line_at(self.text.as_bytes(), row.fields[0].span.start);
        same_forms(&self.name, line, target.len(), 1)?;
        // Only edits where the delimiter was guessed can change the guess;
        // those are checked by reading the edited file again.
        let in_window = index < self.window;
        let before = in_window.then(|| self.edits.clone());
        let mut changes = vec![(self.columns.target, target[0].clone())];
        match self.columns.fuzzy {
            Some(column) => changes.push((column, if fuzzy { "True" } else { "False" }.into())),
            None if fuzzy => {
                return Err(FormatError::new(
                    &self.name,
                    line,
                    "this CSV file has no fuzzy column to mark a string as needing editing",
                ));
            }
            None => {}
        }
        let quoted = row.fields.iter().any(|f| f.quoted);
        for (column, new) in changes {
            match row.fields.get_mut(column) {
                Some(field) => {
                    let written = &self.text[field.span.clone()];
                    let lead = &written[..written.len() - written.trim_start_matches(' ').len()];
                    let text = format!("{lead}{}", self.field_text(&new, quoted));
                    self.edits.replace(field.span.clone(), text);
                    field.value = new;
                }
                None => {
                    let at = column - row.fields.len();
                    if row.added.len() <= at {
                        row.added.resize(at + 1, String::new());
                    }
                    row.added[at] = new;
                }
            }
        }
        if !row.added.is_empty() {
            // Columns the row lacked are written after its last field.
            let end = row.fields.last().map_or(0, |f| f.span.end);
            let delimiter = self.delimiter as char;
            let tail: String = row
                .added
                .iter()
                .map(|value| format!("{delimiter}{}", self.field_text(value, quoted)))
                .collect();
            self.edits.replace(end..end, tail);
        }
        if let Some(before) = before {
            let edited = CsvFile::parse(&self.name, self.edits.apply(&self.text).as_bytes())
                .ok()
                .filter(|other| self.same_layout(other, self.rows.len()));
            let Some(edited) = edited else {
                self.edits = before;
                return Err(FormatError::new(
                    &self.name,
                    line,
                    "this edit would change how the file's columns are recognised",
                ));
            };
            // The edit may make the guess read further rows.
            self.window = self.window.max(edited.window);
        }
        self.rows[index] = row;
        Ok(())
    }

    fn add_unit(&mut self, unit: &Unit) -> Result<(), FormatError> {
        ensure_new(&self.name, &self.units(), unit, false)?;
        if unit.target.len() > 1 {
            return Err(cannot_add(&self.name, "plural strings to CSV files"));
        }
        let c = self.columns;
        let mut fields: Vec<String> = Vec::new();
        let mut put = |column: Option<usize>, value: String| {
            if let Some(column) = column {
                if fields.len() <= column {
                    fields.resize(column + 1, String::new());
                }
                fields[column] = value;
            }
        };
        put(
            Some(c.source),
            unit.source.first().cloned().unwrap_or_default(),
        );
        put(
            Some(c.target),
            unit.target.first().cloned().unwrap_or_default(),
        );
        put(c.context, unit.context.clone());
        put(c.location, unit.locations.join(" "));
        let fuzzy = if unit.state == State::Fuzzy {
            "True"
        } else {
            "False"
        };
        put(c.fuzzy, fuzzy.to_owned());
        put(c.translator_comments, unit.translator_notes.join("\n"));
        put(c.developer_comments, unit.developer_notes.join("\n"));
        let quoted = self.rows.iter().any(|r| r.fields.iter().any(|f| f.quoted));
        let delimiter = (self.delimiter as char).to_string();
        let row: Vec<String> = fields.iter().map(|f| self.field_text(f, quoted)).collect();
        let eol = if self.text.contains("\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        let mut text = self.edits.apply(&self.text);
        if !text.is_empty() && !text.ends_with('\n') {
            text.push_str(eol);
        }
        text.push_str(&row.join(&delimiter));
        text.push_str(eol);
        let other = CsvFile::parse(&self.name, text.as_bytes())?;
        if !self.same_layout(&other, self.rows.len() + 1) {
            return Err(cannot_add(
                &self.name,
                "a string that would change how the file's columns are recognised",
            ));
        }
        *self = other;
        Ok(())
    }

    fn remove_unit(&mut self, index: usize) -> Result<(), FormatError> {
        unit_at(&mut self.rows, index, &self.name)?;
        // Read with the edits made so far, so that every span is current.
        let current = CsvFile::parse(&self.name, &self.to_bytes()?)?;
        let row = current
            .rows
            .get(index)
            .filter(|_| self.same_layout(&current, self.rows.len()))
            .ok_or_else(|| FormatError::new(&self.name, 0, "the edited file reads differently"))?;
        let start = row.fields[0].span.start;
        let end = row.fields.last().map_or(start, |f| f.span.end);
        let mut text = current.text.clone();
        text.replace_range(removal_span(&current.text, start..end), "");
        let other = CsvFile::parse(&self.name, text.as_bytes())?;
        if !self.same_layout(&other, self.rows.len() - 1) {
            return Err(FormatError::new(
                &self.name,
                line_at(current.text.as_bytes(), start),
                "removing this string would change how the file's columns are recognised",
            ));
        }
        *self = other;
        Ok(())
    }

    fn to_bytes(&self) -> Result<Vec<u8>, FormatError> {
        Ok(self.edits.apply(&self.text).into_bytes())
    }
}

/// The columns of exported tables (translate-toolkit's layout, which
/// Weblate also writes).
pub(crate) const EXPORT_COLUMNS: [&str; 8] = [
    "location",
    "source",
    "target",
    "id",
    "fuzzy",
    "context",
    "translator_comments",
    "developer_comments",
];

/// The rows of an exported table: one per unit, plural forms in rows of
/// their own.
pub(crate) fn export_rows(units: &[Unit]) -> Vec<[String; 8]> {
    let mut rows = Vec::with_capacity(units.len());
    for unit in units {
        let forms = unit.source.len().max(unit.target.len()).max(1);
        for form in 0..forms {
            let source = unit.source.get(form).or(unit.source.last());
            let fuzzy = if unit.state == State::Fuzzy {
                "True"
            } else {
                "False"
            };
            rows.push([
                unit.locations.join(" "),
                source.cloned().unwrap_or_default(),
                unit.target.get(form).cloned().unwrap_or_default(),
                unit.context.clone(),
                fuzzy.to_owned(),
                unit.context.clone(),
                unit.translator_notes.join("\n"),
                unit.developer_notes.join("\n"),
            ]);
        }
    }
    rows
}

/// A new CSV file with a header row naming the export columns.
pub fn write_new(units: &[Unit]) -> String {
    let mut out = String::with_capacity(units.len() * 96);
    push_row(&mut out, EXPORT_COLUMNS);
    for row in export_rows(units) {
        push_row(&mut out, row.iter().map(String::as_str));
    }
    out
}

/// Appends a row of quoted fields (inner quotes doubled) and a CRLF.
fn push_row<'a>(out: &mut String, fields: impl IntoIterator<Item = &'a str>) {
    for (i, field) in fields.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        for (j, part) in field.split('"').enumerate() {
            if j > 0 {
                out.push_str("\"\"");
            }
            out.push_str(part);
        }
        out.push('"');
    }
    out.push_str("\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_files_have_source_and_target_columns() {
        let text = "\"Details\", \"Details\"\nPlain,Einfach\n\"Multi\nline\",\"Viel \"\"Zeilen\"\"\"\n\nEmpty,\n";
        let mut file = CsvFile::parse("de.csv", text.as_bytes()).unwrap();
        let units = file.units();
        let shape: Vec<(&str, &str)> = units
            .iter()
            .map(|u| (u.source[0].as_str(), u.target[0].as_str()))
            .collect();
        assert_eq!(
            shape,
            vec![
                ("Details", "Details"),
                ("Plain", "Einfach"),
                ("Multi\nline", "Viel \"Zeilen\""),
                ("Empty", ""),
            ]
        );
        assert_eq!(file.stats().translated, 3);
        assert_eq!(file.to_bytes().unwrap(), text.as_bytes());
        file.set_translation(1, &["Ein, fach".into()], false)
            .unwrap();
        file.set_translation(3, &["Leer".into()], false).unwrap();
        assert_eq!(
            String::from_utf8(file.to_bytes().unwrap()).unwrap(),
            text.replace("Plain,Einfach", "Plain,\"Ein, fach\"")
                .replace("Empty,\n", "Empty,Leer\n")
        );
        assert!(file.set_translation(0, &["x".into()], true).is_err());
    }

    #[test]
    fn edits_that_would_change_the_layout_are_refused() {
        let text = "source,x\nb,c\n";
        let mut file = CsvFile::parse("x.csv", text.as_bytes()).unwrap();
        assert_eq!(file.units().len(), 2);
        let err = file
            .set_translation(0, &["target".into()], false)
            .unwrap_err();
        assert_eq!(
            err.message,
            "this edit would change how the file's columns are recognised"
        );
        assert_eq!(file.to_bytes().unwrap(), text.as_bytes());
        file.set_translation(1, &["target".into()], false).unwrap();
    }

    #[test]
    fn headers_name_the_columns() {
        let text = "\"context\";\"source\";\"target\";\"fuzzy\"\n\"c1\";\"Hello\";\"Ahoj\";\"True\"\n\"c2\";\"Bye\"\n";
        let mut file = CsvFile::parse("cs.csv", text.as_bytes()).unwrap();
        let units = file.units();
        assert_eq!(units.len(), 2);
        assert_eq!(
            (units[0].context.as_str(), units[0].state),
            ("c1", State::Fuzzy)
        );
        file.set_translation(1, &["Nashle".into()], false).unwrap();
        file.set_translation(0, &["Čau".into()], false).unwrap();
        let written = String::from_utf8(file.to_bytes().unwrap()).unwrap();
        assert_eq!(
            written,
            "\"context\";\"source\";\"target\";\"fuzzy\"\n\"c1\";\"Hello\";\"Čau\";\"False\"\n\"c2\";\"Bye\";\"Nashle\";\"False\"\n"
        );
        let again = CsvFile::parse("cs.csv", written.as_bytes()).unwrap();
        assert_eq!(again.units(), file.units());
        let new = write_new(&again.units());
        assert_eq!(
            CsvFile::parse("n.csv", new.as_bytes()).unwrap().units(),
            again.units()
        );
        assert!(CsvFile::parse("x.csv", b"a,\"b\nc").is_err());
    }

    #[test]
    fn removing_a_string_removes_its_row_and_edits_stay() {
        let text = "\"Details\", \"Details\"\r\nPlain,Einfach\r\n\"Multi\r\nline\",\"Viel\"\r\nLast,Letzte\r\n";
        let mut file = CsvFile::parse("de.csv", text.as_bytes()).unwrap();
        file.set_translation(3, &["Zuletzt".into()], false).unwrap();
        file.remove_unit(2).unwrap();
        file.remove_unit(0).unwrap();
        assert_eq!(
            String::from_utf8(file.to_bytes().unwrap()).unwrap(),
            "Plain,Einfach\r\nLast,Zuletzt\r\n"
        );
        assert!(file.remove_unit(2).is_err());
    }
}
