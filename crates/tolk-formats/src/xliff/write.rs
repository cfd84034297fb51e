//! New XLIFF documents from units (downloads converted to XLIFF).

use super::Version;
use crate::unit::{State, Unit};
use crate::xml;

/// An XLIFF document of `version` holding `units`, translated from
/// `source_language` into `target_language`.
pub fn write_new(
    version: Version,
    source_language: &str,
    target_language: &str,
    units: &[Unit],
) -> String {
    let attr = |value: &str| value.replace('&', "&amp;").replace('"', "&quot;");
    let text = |value: &str| xml::escape(value, version.inline());
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    match version {
        Version::V1 => {
            out.push_str(&format!(
                "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:1.2\" version=\"1.2\">\n  <file original=\"tolk\" source-language=\"{}\" target-language=\"{}\" datatype=\"plaintext\">\n    <body>\n",
                attr(source_language),
                attr(target_language)
            ));
            for (i, unit) in units.iter().enumerate() {
                let id = attr(&unit_id(unit, i));
                let plural = unit.has_plurals();
                if plural {
                    out.push_str(&format!(
                        "      <group id=\"{id}\" restype=\"x-gettext-plurals\">\n"
                    ));
                }
                for form in 0..unit.source.len().max(unit.target.len()).max(1) {
                    let form_id = if plural {
                        format!("{id}[{form}]")
                    } else {
                        id.clone()
                    };
                    let source = unit.source.get(form).or(unit.source.last());
                    let target = unit.target.get(form).map_or("", String::as_str);
                    trans_unit(
                        &mut out,
                        &form_id,
                        unit,
                        source.map_or("", String::as_str),
                        target,
                    );
                }
                if plural {
                    out.push_str("      </group>\n");
                }
            }
            out.push_str("    </body>\n  </file>\n</xliff>\n");
        }
        Version::V2 => {
            out.push_str(&format!(
                "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.0\" srcLang=\"{}\" trgLang=\"{}\">\n  <file id=\"f1\">\n",
                attr(source_language),
                attr(target_language)
            ));
            for (i, unit) in units.iter().enumerate() {
                out.push_str(&format!("    <unit id=\"{}\">\n", attr(&unit_id(unit, i))));
                if !unit.developer_notes.is_empty() {
                    out.push_str("      <notes>\n");
                    for note in &unit.developer_notes {
                        out.push_str(&format!("        <note>{}</note>\n", text(note)));
                    }
                    out.push_str("      </notes>\n");
                }
                for form in 0..unit.source.len().max(unit.target.len()).max(1) {
                    let source = unit.source.get(form).or(unit.source.last());
                    let target = unit.target.get(form).map_or("", String::as_str);
                    let state = match unit.state {
                        _ if target.is_empty() => "initial",
                        State::Fuzzy | State::Untranslated => "initial",
                        State::Approved => "final",
                        _ => "translated",
                    };
                    out.push_str(&format!(
                        "      <segment state=\"{state}\">\n        <source xml:space=\"preserve\">{}</source>\n",
                        text(source.map_or("", String::as_str))
                    ));
                    if !target.is_empty() {
                        out.push_str(&format!(
                            "        <target xml:space=\"preserve\">{}</target>\n",
                            text(target)
                        ));
                    }
                    out.push_str("      </segment>\n");
                }
                out.push_str("    </unit>\n");
            }
            out.push_str("  </file>\n</xliff>\n");
        }
    }
    out
}

/// One XLIFF 1.2 `<trans-unit>` for one form of `unit`.
fn trans_unit(out: &mut String, id: &str, unit: &Unit, source: &str, target: &str) {
    let text = |value: &str| xml::escape(value, Version::V1.inline());
    let approved = if unit.state == State::Approved {
        " approved=\"yes\""
    } else {
        ""
    };
    out.push_str(&format!(
        "      <trans-unit id=\"{id}\" xml:space=\"preserve\"{approved}>\n        <source>{}</source>\n",
        text(source)
    ));
    if !target.is_empty() {
        let state = match unit.state {
            State::Fuzzy => "needs-review-translation",
            State::Approved => "final",
            _ => "translated",
        };
        out.push_str(&format!(
            "        <target state=\"{state}\">{}</target>\n",
            text(target)
        ));
    }
    for note in &unit.developer_notes {
        out.push_str(&format!(
            "        <note from=\"developer\">{}</note>\n",
            text(note)
        ));
    }
    out.push_str("      </trans-unit>\n");
}

/// A unit's id: its context, else its position.
fn unit_id(unit: &Unit, index: usize) -> String {
    if unit.context.is_empty() {
        format!("u{}", index + 1)
    } else {
        unit.context.clone()
    }
}
