//! Monolingual translations seen through their template (and the
//! intermediate file, where a component has one).

use std::collections::HashMap;

use crate::document::{DocumentFile, Paired};
use crate::error::FormatError;
use crate::unit::{State, Unit};

/// The units of a monolingual translation as a component shows them: one
/// per template unit, in the template's order, with the template's value as
/// the source and the translation's value (empty when the key is missing)
/// as the target. Keys only in the translation are left out.
pub fn with_template(template: &[Unit], translation: &[Unit]) -> Vec<Unit> {
    let by_key: HashMap<&str, &Unit> = translation
        .iter()
        .map(|u| (u.context.as_str(), u))
        .collect();
    template
        .iter()
        .map(|base| {
            let found = by_key.get(base.context.as_str());
            let mut source = base.target.clone();
            if base.has_plurals() && source.len() < 2 {
                source.resize(2, source.first().cloned().unwrap_or_default());
            }
            Unit {
                source,
                target: found.map_or_else(
                    || vec![String::new(); base.target.len()],
                    |u| u.target.clone(),
                ),
                // A string the template marks untranslatable is read-only
                // in every translation.
                state: if base.state == State::ReadOnly {
                    State::ReadOnly
                } else {
                    found.map_or(State::Untranslated, |u| u.state)
                },
                developer_notes: if base.developer_notes.is_empty() {
                    found.map(|u| u.developer_notes.clone()).unwrap_or_default()
                } else {
                    base.developer_notes.clone()
                },
                translator_notes: found
                    .map(|u| u.translator_notes.clone())
                    .unwrap_or_default(),
                ..base.clone()
            }
        })
        .collect()
}

/// `units` with the source text of each taken from the `intermediate` file
/// where it has the key (Weblate's intermediate language file: a
/// monolingual file in the source language written for translators, while
/// the template keeps what the program shows).
pub fn with_intermediate(units: Vec<Unit>, intermediate: &[Unit]) -> Vec<Unit> {
    let by_key: HashMap<&str, &Unit> = intermediate
        .iter()
        .map(|u| (u.context.as_str(), u))
        .collect();
    units
        .into_iter()
        .map(|unit| match by_key.get(unit.context.as_str()) {
            Some(better) if better.target.iter().any(|t| !t.is_empty()) => {
                let mut source = better.target.clone();
                if unit.source.len() > source.len() {
                    let last = source.last().cloned().unwrap_or_default();
                    source.resize(unit.source.len(), last);
                }
                Unit { source, ..unit }
            }
            _ => unit,
        })
        .collect()
}

/// Parses `bytes` (named `name` in errors) as a document of `format` (see
/// [`crate::Linguality::Document`]), for [`DocumentFile::pair`].
pub fn parse_document(format: &str, name: &str, bytes: &[u8]) -> Result<DocumentFile, FormatError> {
    match format {
        "html" => crate::html::parse(name, bytes),
        "markdown" => crate::markdown::parse(name, bytes),
        _ => Err(FormatError::new(
            name,
            0,
            format!("{format} is not a document format Tolk reads"),
        )),
    }
}

/// Reads the translated document `translation` (name, bytes) of a
/// document format against its `template`.
pub fn with_document(
    format: &str,
    template: (&str, &[u8]),
    translation: (&str, &[u8]),
) -> Result<Paired, FormatError> {
    let template = parse_document(format, template.0, template.1)?;
    Ok(template.pair(&parse_document(format, translation.0, translation.1)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_order_and_source_with_translated_values() {
        let template = vec![
            Unit::keyed("a", "Hello", vec!["greeting".into()]),
            Unit::keyed_plural("n", vec!["%d file".into(), "%d files".into()], vec![]),
            Unit::keyed("b", "Bye", vec![]),
        ];
        let translation = vec![
            Unit::keyed("b", "Nashle", vec![]),
            Unit::keyed("gone", "Pryč", vec![]),
            Unit::keyed("a", "", vec![]),
        ];
        let units = with_template(&template, &translation);
        let shape: Vec<(&str, &str, Vec<&str>, State)> = units
            .iter()
            .map(|u| {
                (
                    u.context.as_str(),
                    u.source[0].as_str(),
                    u.target.iter().map(String::as_str).collect(),
                    u.state,
                )
            })
            .collect();
        assert_eq!(
            shape,
            vec![
                ("a", "Hello", vec![""], State::Untranslated),
                ("n", "%d file", vec!["", ""], State::Untranslated),
                ("b", "Bye", vec!["Nashle"], State::Translated),
            ]
        );
        assert_eq!(units[0].developer_notes, vec!["greeting"]);
        assert_eq!(units[1].source, vec!["%d file", "%d files"]);

        let intermediate = vec![
            Unit::keyed("a", "Hello there", vec![]),
            Unit::keyed("b", "", vec![]),
        ];
        let sources: Vec<String> = with_intermediate(units, &intermediate)
            .into_iter()
            .map(|u| u.source[0].clone())
            .collect();
        assert_eq!(sources, vec!["Hello there", "%d file", "Bye"]);
    }
}
