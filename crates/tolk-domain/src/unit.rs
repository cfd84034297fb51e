//! Units: the states a string can be in, how its plural forms are stored,
//! its hashes and its word count.

use std::hash::Hasher;

use siphasher::sip::SipHasher24;

/// Separator of plural forms in a stored string.
pub const PLURAL_SEPARATOR: &str = "\u{1e}\u{1e}";

/// A unit's state, with Weblate's numbers (§29.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UnitState {
    /// Not translated (0).
    Empty,
    /// Needs editing (10).
    Fuzzy,
    /// Needs rewriting (11), set only by Tolk.
    NeedsRewriting,
    /// Needs checking (12), set only by Tolk.
    NeedsChecking,
    /// Translated (20).
    Translated,
    /// Approved (30).
    Approved,
    /// Read-only (100).
    ReadOnly,
}

impl UnitState {
    /// Every state, by number.
    pub const ALL: [UnitState; 7] = [
        UnitState::Empty,
        UnitState::Fuzzy,
        UnitState::NeedsRewriting,
        UnitState::NeedsChecking,
        UnitState::Translated,
        UnitState::Approved,
        UnitState::ReadOnly,
    ];

    /// Weblate's number.
    pub fn code(self) -> i32 {
        match self {
            UnitState::Empty => 0,
            UnitState::Fuzzy => 10,
            UnitState::NeedsRewriting => 11,
            UnitState::NeedsChecking => 12,
            UnitState::Translated => 20,
            UnitState::Approved => 30,
            UnitState::ReadOnly => 100,
        }
    }

    /// The state of a number.
    pub fn from_code(code: i32) -> Option<UnitState> {
        Self::ALL.into_iter().find(|s| s.code() == code)
    }

    /// The names the query language accepts for the state (§29.2).
    pub fn names(self) -> &'static [&'static str] {
        match self {
            UnitState::Empty => &["empty", "untranslated"],
            UnitState::Fuzzy => &["needs-editing", "fuzzy"],
            UnitState::NeedsRewriting => &["needs-rewriting"],
            UnitState::NeedsChecking => &["needs-checking"],
            UnitState::Translated => &["translated"],
            UnitState::Approved => &["approved"],
            UnitState::ReadOnly => &["readonly", "read-only"],
        }
    }

    /// How people read the state.
    pub fn label(self) -> &'static str {
        match self {
            UnitState::Empty => "Not translated",
            UnitState::Fuzzy => "Needs editing",
            UnitState::NeedsRewriting => "Needs rewriting",
            UnitState::NeedsChecking => "Needs checking",
            UnitState::Translated => "Translated",
            UnitState::Approved => "Approved",
            UnitState::ReadOnly => "Read-only",
        }
    }

    /// The state a name or number stands for.
    pub fn parse(text: &str) -> Option<UnitState> {
        let lower = text.to_ascii_lowercase();
        if let Ok(code) = lower.parse() {
            return Self::from_code(code);
        }
        Self::ALL
            .into_iter()
            .find(|s| s.names().contains(&lower.as_str()))
    }

    /// Needs editing (10, 11, 12).
    pub fn is_fuzzy(self) -> bool {
        matches!(
            self,
            UnitState::Fuzzy | UnitState::NeedsRewriting | UnitState::NeedsChecking
        )
    }

    /// Translated (20 and above).
    pub fn is_translated(self) -> bool {
        self >= UnitState::Translated
    }

    /// Checked by the quality checks: neither untranslated nor read-only
    /// (strings needing editing are checked, as Weblate checks them).
    pub fn is_checked(self) -> bool {
        !matches!(self, UnitState::Empty | UnitState::ReadOnly)
    }
}

/// A translation's state and `previous_source` once the source text of
/// its string changed from `old_source` to `new_source` while its own
/// text stayed (Weblate's rule for monolingual strings, whose files keep
/// no source): a translated string needs editing and remembers the source
/// it was translated from; one needing editing whose source returns to
/// that text is translated again; any other keeps its state.
pub fn after_source_change(
    state: UnitState,
    previous_source: &str,
    old_source: &str,
    new_source: &str,
) -> (UnitState, String) {
    if state == UnitState::Fuzzy && previous_source == new_source {
        (UnitState::Translated, String::new())
    } else if state.is_translated() && state != UnitState::ReadOnly {
        (UnitState::Fuzzy, old_source.to_owned())
    } else {
        (state, previous_source.to_owned())
    }
}

/// Joins plural forms for storage.
pub fn join_plurals(forms: &[String]) -> String {
    forms.join(PLURAL_SEPARATOR)
}

/// Splits a stored string into its plural forms.
pub fn split_plurals(text: &str) -> Vec<String> {
    text.split(PLURAL_SEPARATOR).map(str::to_owned).collect()
}

/// Weblate's hash: SipHash-2-4 with the key `Weblate Sip Hash` over the
/// UTF-8 text, as a signed number (the unsigned value minus 2^63).
pub fn hash(text: &str) -> i64 {
    let mut hasher = SipHasher24::new_with_key(b"Weblate Sip Hash");
    hasher.write(text.as_bytes());
    let unsigned = hasher.finish();
    (unsigned ^ (1 << 63)) as i64
}

/// The checksum naming a unit in browser links (`?checksum=`), as Weblate
/// writes it: its `id_hash` as the unsigned number, in 16 hex digits.
pub fn checksum(id_hash: i64) -> String {
    format!("{:016x}", (id_hash as u64) ^ (1 << 63))
}

/// The `id_hash` a [`checksum`] names; `None` for anything but 1 to 16
/// hex digits.
pub fn id_hash_of_checksum(checksum: &str) -> Option<i64> {
    if checksum.is_empty()
        || checksum.len() > 16
        || !checksum.bytes().all(|b| b.is_ascii_hexdigit())
    {
        return None;
    }
    let unsigned = u64::from_str_radix(checksum, 16).ok()?;
    Some((unsigned ^ (1 << 63)) as i64)
}

/// The `id_hash` naming a unit within its translation: of the source and
/// context (stored forms), or the context alone in monolingual formats.
pub fn id_hash(source: &str, context: &str, monolingual: bool) -> i64 {
    if monolingual {
        hash(context)
    } else {
        hash(&format!("{source}{context}"))
    }
}

/// A digest of a unit's translation and state, as the editor's forms
/// carry it (Weblate's `contentsum`): a save made from a page that showed
/// other content is refused instead of overwriting it.
pub fn content_sum(target: &str, state: i32) -> String {
    checksum(hash(&format!("{state}\u{0}{target}")))
}

/// The `content_hash` of a unit: of its source and context.
pub fn content_hash(source: &str, context: &str) -> i64 {
    hash(&format!("{source}{context}"))
}

/// Words of a source string: white-space separated, summed over plural forms.
pub fn word_count(forms: &[String]) -> i32 {
    let words: usize = forms.iter().map(|f| f.split_whitespace().count()).sum();
    i32::try_from(words).unwrap_or(i32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_source_asks_for_editing_and_a_reverted_one_undoes_it() {
        use UnitState::{Approved, Empty, Fuzzy, ReadOnly, Translated};
        let changed = |state, previous| after_source_change(state, previous, "Open", "Open it");
        assert_eq!(changed(Translated, ""), (Fuzzy, "Open".to_owned()));
        assert_eq!(changed(Approved, ""), (Fuzzy, "Open".to_owned()));
        assert_eq!(changed(Empty, ""), (Empty, String::new()));
        assert_eq!(changed(ReadOnly, ""), (ReadOnly, String::new()));
        // Needing editing for another reason: it stays so, with its record.
        assert_eq!(changed(Fuzzy, "Close"), (Fuzzy, "Close".to_owned()));
        // Back to the text it was translated from.
        assert_eq!(
            after_source_change(Fuzzy, "Open", "Open it", "Open"),
            (Translated, String::new())
        );
    }

    #[test]
    fn hashes_match_weblates_test_vector_and_samples() {
        // The reference's verified vector: a monolingual unit with context "B".
        assert_eq!(id_hash("ignored", "B", true), 94239120442185084);
        for hash in [
            i64::MIN,
            -7060616829154897406,
            0,
            94239120442185084,
            i64::MAX,
        ] {
            assert_eq!(id_hash_of_checksum(&checksum(hash)), Some(hash));
        }
        assert_eq!(checksum(i64::MIN), "0000000000000000");
        for wrong in ["", "xyz", "00000000000000000", "-1", "+1"] {
            assert_eq!(id_hash_of_checksum(wrong), None, "{wrong:?}");
        }
        // Units of the sample server (bilingual, no context).
        assert_eq!(id_hash("Open file", "", false), -7060616829154897406);
        let plural = join_plurals(&["Open %d backup".into(), "Open %d backups".into()]);
        assert_eq!(content_hash(&plural, ""), -3821011843653399049);
    }

    #[test]
    fn states_have_weblates_numbers_and_names() {
        assert_eq!(UnitState::parse("translated"), Some(UnitState::Translated));
        assert_eq!(UnitState::parse("Read-only"), Some(UnitState::ReadOnly));
        assert_eq!(UnitState::parse("10"), Some(UnitState::Fuzzy));
        assert_eq!(UnitState::parse("15"), None);
        assert!(UnitState::ReadOnly.is_translated() && !UnitState::Fuzzy.is_translated());
        assert!(UnitState::NeedsChecking.is_fuzzy());
    }

    #[test]
    fn counts_words_over_plural_forms() {
        assert_eq!(
            word_count(&["Open %d backup".into(), "Open %d backups".into()]),
            6
        );
        assert_eq!(word_count(&["  ".into()]), 0);
        assert_eq!(split_plurals("a\u{1e}\u{1e}b"), vec!["a", "b"]);
    }
}
