//! Translation statistics: the counters kept per translation and summed for
//! components, projects and languages, and Weblate's percentage rules.

use std::ops::{AddAssign, Neg};

use crate::unit::UnitState;

/// Counts of strings, words and characters in one state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Count {
    /// Number of strings.
    pub strings: i64,
    /// Number of source words.
    pub words: i64,
    /// Number of source characters.
    pub chars: i64,
}

impl AddAssign for Count {
    fn add_assign(&mut self, other: Count) {
        self.strings += other.strings;
        self.words += other.words;
        self.chars += other.chars;
    }
}

/// The counters behind every `statistics` object.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counters {
    /// All strings.
    pub total: Count,
    /// Strings in state ≥ 20 (translated, approved, read-only).
    pub translated: Count,
    /// Strings needing editing (states 10, 11, 12).
    pub fuzzy: Count,
    /// Approved strings (state 30).
    pub approved: Count,
    /// Read-only strings (state 100).
    pub readonly: Count,
    /// Strings with active failing checks.
    pub failing: i64,
    /// Their source words.
    pub failing_words: i64,
    /// Their source characters.
    pub failing_chars: i64,
    /// Strings with suggestions.
    pub suggestions: i64,
    /// Strings with unresolved comments.
    pub comments: i64,
}

impl AddAssign for Counters {
    fn add_assign(&mut self, o: Counters) {
        self.total += o.total;
        self.translated += o.translated;
        self.fuzzy += o.fuzzy;
        self.approved += o.approved;
        self.readonly += o.readonly;
        self.failing += o.failing;
        self.failing_words += o.failing_words;
        self.failing_chars += o.failing_chars;
        self.suggestions += o.suggestions;
        self.comments += o.comments;
    }
}

impl Neg for Count {
    type Output = Count;

    fn neg(self) -> Count {
        Count {
            strings: -self.strings,
            words: -self.words,
            chars: -self.chars,
        }
    }
}

impl Neg for Counters {
    type Output = Counters;

    fn neg(self) -> Counters {
        Counters {
            total: -self.total,
            translated: -self.translated,
            fuzzy: -self.fuzzy,
            approved: -self.approved,
            readonly: -self.readonly,
            failing: -self.failing,
            failing_words: -self.failing_words,
            failing_chars: -self.failing_chars,
            suggestions: -self.suggestions,
            comments: -self.comments,
        }
    }
}

impl Counters {
    /// What one unit in `state` with `words` source words and `chars`
    /// source characters adds to its translation's counters.
    pub fn of_unit(state: UnitState, words: i64, chars: i64) -> Counters {
        let one = Count {
            strings: 1,
            words,
            chars,
        };
        let when = |yes: bool| if yes { one } else { Count::default() };
        Counters {
            total: one,
            translated: when(state.is_translated()),
            fuzzy: when(state.is_fuzzy()),
            approved: when(state == UnitState::Approved),
            readonly: when(state == UnitState::ReadOnly),
            ..Counters::default()
        }
    }

    /// These counters with the string counted among those failing checks
    /// when `failing` (its stored list of failing checks) is not empty.
    pub fn with_failing(self, failing: &str) -> Counters {
        let fails = !failing.is_empty();
        Counters {
            failing: i64::from(fails),
            failing_words: if fails { self.total.words } else { 0 },
            failing_chars: if fails { self.total.chars } else { 0 },
            ..self
        }
    }

    /// The change from `old` to `new` (what to add to go from one to the other).
    pub fn delta(old: Counters, new: Counters) -> Counters {
        let mut d = new;
        d += -old;
        d
    }
}

/// Weblate's percentage: `n` of `t`, truncated to one decimal, never showing
/// 0.0 for a non-zero count nor 100.0 for an incomplete one. `complete`
/// says what an empty total (`t == 0`) gives: 100.0 or 0.0.
pub fn percent(n: i64, t: i64, complete: bool) -> f64 {
    if t <= 0 {
        return if complete { 100.0 } else { 0.0 };
    }
    let per_mille = (1000 * i128::from(n)) / i128::from(t);
    if per_mille == 0 && n > 0 {
        0.1
    } else if per_mille == 1000 && n < t {
        99.9
    } else {
        // per_mille is at most 1000 times a ratio of i64 counts here.
        (per_mille as f64) / 10.0
    }
}

/// Percentages of one state in the three dimensions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Percents {
    /// Of strings.
    pub strings: f64,
    /// Of words.
    pub words: f64,
    /// Of characters.
    pub chars: f64,
}

impl Counters {
    /// The percentages of `count` against the total.
    pub fn percents(&self, count: Count, complete: bool) -> Percents {
        Percents {
            strings: percent(count.strings, self.total.strings, complete),
            words: percent(count.words, self.total.words, complete),
            chars: percent(count.chars, self.total.chars, complete),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_truncates_and_guards_extremes() {
        assert_eq!(percent(1008, 1440, false), 70.0);
        assert_eq!(percent(19179, 27708, false), 69.2);
        assert_eq!(percent(41, 1440, false), 2.8);
        assert_eq!(percent(1, 10_000, false), 0.1, "non-zero never shows 0.0");
        assert_eq!(
            percent(9999, 10_000, false),
            99.9,
            "incomplete never shows 100.0"
        );
        assert_eq!(percent(10, 10, false), 100.0);
        assert_eq!(percent(0, 10, true), 0.0);
        assert_eq!(percent(0, 0, true), 100.0);
        assert_eq!(percent(0, 0, false), 0.0);
        assert_eq!(percent(200, 1440, false), 13.8);
        assert_eq!(percent(620, 4400, false), 14.0);
    }

    #[test]
    fn counters_add_up() {
        let one = Counters {
            total: Count {
                strings: 2,
                words: 5,
                chars: 20,
            },
            failing: 1,
            ..Counters::default()
        };
        let mut sum = Counters::default();
        sum += one;
        sum += one;
        assert_eq!(sum.total.words, 10);
        assert_eq!(sum.failing, 2);
        let p = sum.percents(
            Count {
                strings: 1,
                words: 5,
                chars: 0,
            },
            false,
        );
        assert_eq!((p.strings, p.words, p.chars), (25.0, 50.0, 0.0));
    }
}
