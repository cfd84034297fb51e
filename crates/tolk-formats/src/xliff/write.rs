//! New XLIFF documents and elements from units (downloads converted to
//! XLIFF, new strings added to a file).

use super::entry::Version;
use crate::unit::{State, Unit};
use crate::xml::{self, escape_attribute};

/// An XLIFF document of `version` holding `units`, translated from
/// `source_language` into `target_language`.
pub fn write_new(
    version: Version,
    source_language: &str,
    target_language: &str,
    units: &[Unit],
) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let (source_language, target_language) = (
        escape_attribute(source_language),
        escape_attribute(target_language),
    );
    match version {
        Version::V1 => {
            out.push_str(&format!(
                "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:1.2\" version=\"1.2\">\n  <file original=\"tolk\" source-language=\"{source_language}\" target-language=\"{target_language}\" datatype=\"plaintext\">\n    <body>\n"
            ));
            for (i, unit) in units.iter().enumerate() {
                out.push_str(&element(version, "      ", &unit_id(unit, i), unit));
            }
            out.push_str("    </body>\n  </file>\n</xliff>\n");
        }
        Version::V2 => {
            out.push_str(&format!(
                "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.0\" srcLang=\"{source_language}\" trgLang=\"{target_language}\">\n  <file id=\"f1\">\n"
            ));
            for (i, unit) in units.iter().enumerate() {
                out.push_str(&element(version, "    ", &unit_id(unit, i), unit));
            }
            out.push_str("  </file>\n</xliff>\n");
        }
    }
    out
}

/// The element of one unit at `indent`: a 1.2 `<trans-unit>` (a
/// `<group>` of them for plurals), or a 2.0 `<unit>` with one `<segment>`
/// per form.
pub(super) fn element(version: Version, indent: &str, id: &str, unit: &Unit) -> String {
    let text = |value: &str| xml::escape(value, version.inline());
    let id = escape_attribute(id);
    let forms = unit.source.len().max(unit.target.len()).max(1);
    let form = |i: usize| {
        let source = unit.source.get(i).or(unit.source.last());
        let target = unit.target.get(i).map_or("", String::as_str);
        (source.map_or("", String::as_str), target)
    };
    let mut out = String::new();
    match version {
        Version::V1 if unit.has_plurals() => {
            out.push_str(&format!(
                "{indent}<group id=\"{id}\" restype=\"x-gettext-plurals\">\n"
            ));
            for i in 0..forms {
                let (source, target) = form(i);
                let inner = format!("{indent}  ");
                trans_unit(
                    &mut out,
                    &inner,
                    &format!("{id}[{i}]"),
                    unit,
                    source,
                    target,
                );
            }
            out.push_str(&format!("{indent}</group>\n"));
        }
        Version::V1 => {
            let (source, target) = form(0);
            trans_unit(&mut out, indent, &id, unit, source, target);
        }
        Version::V2 => {
            out.push_str(&format!("{indent}<unit id=\"{id}\">\n"));
            if !unit.developer_notes.is_empty() {
                out.push_str(&format!("{indent}  <notes>\n"));
                for note in &unit.developer_notes {
                    out.push_str(&format!("{indent}    <note>{}</note>\n", text(note)));
                }
                out.push_str(&format!("{indent}  </notes>\n"));
            }
            for i in 0..forms {
                let (source, target) = form(i);
                let state = match unit.state {
                    _ if target.is_empty() => "initial",
                    State::Fuzzy | State::Untranslated => "initial",
                    State::Approved => "final",
                    _ => "translated",
                };
                out.push_str(&format!(
                    "{indent}  <segment state=\"{state}\">\n{indent}    <source xml:space=\"preserve\">{}</source>\n",
                    text(source)
                ));
                if !target.is_empty() {
                    out.push_str(&format!(
                        "{indent}    <target xml:space=\"preserve\">{}</target>\n",
                        text(target)
                    ));
                }
                out.push_str(&format!("{indent}  </segment>\n"));
            }
            out.push_str(&format!("{indent}</unit>\n"));
        }
    }
    out
}

/// One XLIFF 1.2 `<trans-unit>` for one form of `unit`.
fn trans_unit(out: &mut String, indent: &str, id: &str, unit: &Unit, source: &str, target: &str) {
    let text = |value: &str| xml::escape(value, Version::V1.inline());
    let approved = if unit.state == State::Approved {
        " approved=\"yes\""
    } else {
        ""
    };
    out.push_str(&format!(
        "{indent}<trans-unit id=\"{id}\" xml:space=\"preserve\"{approved}>\n{indent}  <source>{}</source>\n",
        text(source)
    ));
    if !target.is_empty() {
        let state = match unit.state {
            State::Fuzzy => super::entry::V1_FUZZY,
            State::Approved => "final",
            _ => "translated",
        };
        out.push_str(&format!(
            "{indent}  <target state=\"{state}\">{}</target>\n",
            text(target)
        ));
    }
    for note in &unit.developer_notes {
        out.push_str(&format!(
            "{indent}  <note from=\"developer\">{}</note>\n",
            text(note)
        ));
    }
    out.push_str(&format!("{indent}</trans-unit>\n"));
}

/// A unit's id: its context, else its position.
pub(super) fn unit_id(unit: &Unit, index: usize) -> String {
    if unit.context.is_empty() {
        format!("u{}", index + 1)
    } else {
        unit.context.clone()
    }
}
