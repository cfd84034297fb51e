//! Three-way merge of one translation file by its strings: where Git sees
//! conflicting lines (a neighbour re-wrapped, adjacent keys edited), the
//! strings themselves usually differ. Upstream's file is taken as it is,
//! and each string the other side changed since the common ancestor is
//! written into it through the codec; only a string both sides changed,
//! to different values, is a conflict.

use std::collections::HashMap;

use crate::codecs::parse;
use crate::error::FormatError;
use crate::unit::{State, Unit};

/// Why two versions of a file could not be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A version cannot be read or the result written.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// Strings both sides changed differently, named by key or source text.
    #[error("changed on both sides: {}", .0.join(", "))]
    Conflict(Vec<String>),
}

/// What identifies a string across versions of a file.
fn key(unit: &Unit) -> (String, Vec<String>) {
    (unit.context.clone(), unit.source.clone())
}

/// What a side may change of a string: its text and whether it needs editing.
fn value(unit: &Unit) -> (Vec<String>, bool) {
    (unit.target.clone(), unit.state == State::Fuzzy)
}

/// Merges `ours` (changed from `base`) into `theirs` (also changed from
/// `base`), all versions of the file `name` in format `format`: the result
/// is `theirs` with every string `ours` changed, added or kept where
/// `theirs` left it as in `base`. A string `theirs` removed stays removed.
pub fn merge_units(
    format: &str,
    name: &str,
    base: &[u8],
    ours: &[u8],
    theirs: &[u8],
) -> Result<Vec<u8>, MergeError> {
    let base: HashMap<_, _> = parse(format, name, base)?
        .units()
        .iter()
        .map(|u| (key(u), value(u)))
        .collect();
    let ours = parse(format, name, ours)?.units();
    let mut merged = parse(format, name, theirs)?;
    let index: HashMap<_, _> = merged
        .units()
        .into_iter()
        .enumerate()
        .map(|(i, u)| (key(&u), (i, value(&u))))
        .collect();
    let mut conflicts = Vec::new();
    let mut added = Vec::new();
    for unit in &ours {
        let k = key(unit);
        let mine = value(unit);
        let original = base.get(&k);
        if original == Some(&mine) {
            continue;
        }
        match index.get(&k) {
            Some((_, upstream)) if *upstream == mine => {}
            Some((i, upstream)) if Some(upstream) == original => {
                merged.set_translation(*i, &mine.0, mine.1)?;
            }
            Some(_) => conflicts.push(unit.context_or_source().to_owned()),
            // Removed upstream: the string is gone, and its translation with it.
            None if original.is_some() => {}
            None => added.push(unit),
        }
    }
    if !conflicts.is_empty() {
        return Err(MergeError::Conflict(conflicts));
    }
    for unit in added {
        merged.add_unit(unit)?;
    }
    Ok(merged.to_bytes()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "{\n  \"a\": \"A\",\n  \"b\": \"B\",\n  \"c\": \"C\"\n}\n";

    fn merge(ours: &str, theirs: &str) -> Result<String, MergeError> {
        merge_units(
            "json",
            "x.json",
            BASE.as_bytes(),
            ours.as_bytes(),
            theirs.as_bytes(),
        )
        .map(|b| String::from_utf8(b).unwrap())
    }

    #[test]
    fn adjacent_keys_merge() {
        let ours = BASE.replace("\"A\"", "\"A (Tolk)\"");
        let theirs = BASE.replace("\"B\"", "\"B (upstream)\"");
        assert_eq!(
            merge(&ours, &theirs).unwrap(),
            "{\n  \"a\": \"A (Tolk)\",\n  \"b\": \"B (upstream)\",\n  \"c\": \"C\"\n}\n"
        );
    }

    #[test]
    fn the_same_change_on_both_sides_is_no_conflict() {
        let both = BASE.replace("\"C\"", "\"C!\"");
        assert_eq!(merge(&both, &both).unwrap(), both);
    }

    #[test]
    fn a_string_changed_on_both_sides_is_a_conflict_named_by_key() {
        let ours = BASE.replace("\"B\"", "\"B1\"");
        let theirs = BASE.replace("\"B\"", "\"B2\"");
        match merge(&ours, &theirs) {
            Err(MergeError::Conflict(keys)) => assert_eq!(keys, vec!["b"]),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn strings_removed_upstream_stay_removed_and_new_ones_are_added() {
        let ours = BASE
            .replace("\"A\"", "\"A1\"")
            .replace("\n}", ",\n  \"d\": \"D\"\n}");
        let theirs = "{\n  \"b\": \"B\",\n  \"c\": \"C\"\n}\n";
        let merged = merge(&ours, theirs).unwrap();
        assert!(!merged.contains("\"a\""), "{merged}");
        assert!(merged.contains("\"d\": \"D\""), "{merged}");
    }

    #[test]
    fn unreadable_versions_are_format_errors() {
        assert!(matches!(merge("{", BASE), Err(MergeError::Format(_))));
    }
}
