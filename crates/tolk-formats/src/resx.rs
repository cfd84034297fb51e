//! .NET resource files (`resx`): each `<data name="…">` directly under
//! `<root>` is a unit; its `<value>` is the text and its `<comment>` the
//! developer note. `<resheader>`s, the schema and `<metadata>` are kept as
//! they are. Like Weblate, file references (`ResXFileRef`) count as units.

use quick_xml::events::Event;

use crate::edits::utf8;
use crate::error::FormatError;
use crate::keyed::{Dialect, KeyedEntry, KeyedXmlFile};
use crate::unit::Unit;
use crate::xml::{self, Scanner, Slot, attribute};

/// Parses a `.resx` file; `name` is used in error messages.
pub fn parse(name: &str, bytes: &[u8]) -> Result<KeyedXmlFile, FormatError> {
    let text = utf8(name, bytes)?;
    let mut scanner = Scanner::new(name, text)?;
    scanner.watch("root", 0);
    let mut entries = Vec::new();
    let mut depth = 0usize;
    loop {
        let before = scanner.position();
        match scanner.next()? {
            Event::Start(e) if depth == 0 => {
                if e.local_name().as_ref() != "root" {
                    return Err(scanner.error(before, "the root element must be <root>"));
                }
                depth = 1;
            }
            Event::Start(e) if e.local_name().as_ref() == "data" => {
                let key = attribute(&e, "name").unwrap_or_default();
                if let Some(entry) = data(&mut scanner, key, before)? {
                    entries.push(entry);
                }
            }
            Event::Start(_) => {
                scanner.content()?;
            }
            Event::Empty(e) if depth == 0 && e.local_name().as_ref() != "root" => {
                return Err(scanner.error(before, "the root element must be <root>"));
            }
            Event::End(_) => depth = 0,
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(KeyedXmlFile::new(
        name,
        text,
        DIALECT,
        entries,
        scanner.watched(),
    ))
}

const DIALECT: Dialect = Dialect {
    kind: "RESX",
    escape,
    raw: str::to_owned,
    parse,
    new_unit: Some(new_data),
};

/// A new `<data>` element.
fn new_data(unit: &Unit, indent: &str) -> Result<String, String> {
    if unit.target.len() > 1 {
        return Err("plural strings to RESX files".into());
    }
    let value = unit.target.first().map_or("", String::as_str);
    let mut out = format!(
        "{indent}<data name=\"{}\" xml:space=\"preserve\">\n{indent}  <value>{}</value>\n",
        xml::escape_attribute(&unit.context),
        escape(value)
    );
    for note in &unit.developer_notes {
        out.push_str(&format!("{indent}  <comment>{}</comment>\n", escape(note)));
    }
    out.push_str(&format!("{indent}</data>\n"));
    Ok(out)
}

/// The children of one `<data>`: its value and comment.
fn data(
    scanner: &mut Scanner<'_>,
    key: String,
    start: usize,
) -> Result<Option<KeyedEntry>, FormatError> {
    let mut slot = None;
    let mut note = None;
    loop {
        let before = scanner.position();
        match scanner.next()? {
            Event::Start(e) if e.local_name().as_ref() == "value" => {
                slot = Some(Slot::Inner(scanner.content()?));
            }
            Event::Empty(e) if e.local_name().as_ref() == "value" => {
                slot = Some(Slot::Empty(before..scanner.position()));
            }
            Event::Start(e) if e.local_name().as_ref() == "comment" => {
                let comment = scanner.text_content()?;
                note = (!comment.trim().is_empty()).then(|| comment.trim().to_owned());
            }
            Event::Start(_) => {
                scanner.content()?;
            }
            Event::End(_) => break,
            Event::Eof => return Err(scanner.error(start, "<data> is not closed")),
            _ => {}
        }
    }
    Ok(slot.map(|slot| KeyedEntry {
        values: vec![slot.text(scanner.text())],
        key,
        slots: vec![slot],
        plural: false,
        translatable: true,
        note,
        element: Some(start..scanner.position()),
    }))
}

fn escape(value: &str) -> String {
    xml::escape(value, &[])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TranslationFile;

    const SAMPLE: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<root>
  <!-- <data name="Example"><value>in a comment</value></data> -->
  <resheader name="resmimetype"><value>text/microsoft-resx</value></resheader>
  <data name="Hello" xml:space="preserve">
    <value>Hello &amp; welcome</value>
    <comment>Greeting</comment>
  </data>
  <data name="Empty"><value /></data>
  <data name="Icon" type="System.Resources.ResXFileRef, System.Windows.Forms">
    <value>..\Resources\icon.png;System.Drawing.Bitmap</value>
  </data>
</root>
"#;

    #[test]
    fn reads_and_edits_values() {
        let mut file = parse("r.resx", SAMPLE.as_bytes()).unwrap();
        let units = file.units();
        let keys = crate::unit::keyed_values(&units);
        assert_eq!(
            keys,
            vec![
                ("Hello", "Hello & welcome"),
                ("Empty", ""),
                ("Icon", "..\\Resources\\icon.png;System.Drawing.Bitmap")
            ]
        );
        assert_eq!(units[0].developer_notes, vec!["Greeting"]);
        assert_eq!(file.to_bytes().unwrap(), SAMPLE.as_bytes());
        file.set_translation(0, &["Ahoj <ty> & ty".into()], false)
            .unwrap();
        file.set_translation(1, &["Prázdné".into()], false).unwrap();
        assert_eq!(
            String::from_utf8(file.to_bytes().unwrap()).unwrap(),
            SAMPLE
                .replace("Hello &amp; welcome", "Ahoj &lt;ty&gt; &amp; ty")
                .replace("<value />", "<value>Prázdné</value>")
        );
        assert!(parse("r.resx", b"<other/>").is_err());
        assert_eq!(
            parse(
                "r.resx",
                b"<root>\n<data name=\"a\">\n<value>x</data>\n</root>"
            )
            .unwrap_err()
            .line,
            3
        );
    }
}
