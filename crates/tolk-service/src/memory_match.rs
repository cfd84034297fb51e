//! Cheap bounds for finding memory entries alike a text before their
//! edit distance is computed: the lengths a source may have, and a count
//! of its characters that no edit can move by less than one.

/// The lengths (in characters) a text may have to be `least` percent
/// alike to one of `length`: the edit distance is at least the difference
/// of lengths, and at most a share of the longer one (a score is rounded,
/// hence the half percent).
pub(crate) fn alike_lengths(length: i64, least: i64) -> (i64, i64) {
    // Per mille of the longer length the distance may reach.
    let reach = 1000 - (least * 10 - 5);
    let kept = 1000 - reach;
    (
        length.saturating_mul(kept) / 1000,
        (length.saturating_mul(1000) + kept - 1) / kept,
    )
}

/// How often a text holds its characters, folded into 64 counts: a bound
/// below the edit distance between two texts (each edit moves one count
/// up or one down, or both), far cheaper than the distance.
pub(crate) struct Letters {
    counts: [i32; 64],
    length: usize,
}

impl Letters {
    /// The counts of `text`.
    pub(crate) fn of(text: &str) -> Letters {
        let mut counts = [0; 64];
        let mut length = 0;
        for c in text.chars() {
            counts[(u32::from(c) % 64) as usize] += 1;
            length += 1;
        }
        Letters { counts, length }
    }

    /// False when `other` cannot be `least` percent alike to this text.
    pub(crate) fn may_be_alike(&self, other: &str, least: i64) -> bool {
        let theirs = Letters::of(other);
        let (mut more, mut fewer) = (0i64, 0i64);
        for (mine, their) in self.counts.iter().zip(theirs.counts) {
            let d = i64::from(their - mine);
            if d > 0 {
                more += d;
            } else {
                fewer -= d;
            }
        }
        let longer = i64::try_from(self.length.max(theirs.length)).unwrap_or(i64::MAX);
        // At least this many edits, and a score of round(100 - 100 d / n).
        let edits = more.max(fewer);
        200 * edits <= (201 - 2 * least) * longer
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::similarity;

    /// The editor's least similarity.
    const LEAST: i64 = 75;

    #[test]
    fn the_bounds_keep_every_text_alike_enough() {
        let source = "Open the file in a new window";
        let texts = [
            "Open the file in a new window",
            "Open the files in a new window",
            "Open a file in the new window",
            "Open the file in new windows!",
            "Close the file",
            "window new a in file the Open",
            "Open the file in a new window, then close it again",
            "Öffne die Datei in einem neuen Fenster",
        ];
        let length = i64::try_from(source.chars().count()).unwrap();
        let (low, high) = alike_lengths(length, LEAST);
        let letters = Letters::of(source);
        for text in texts {
            let alike = similarity(text, source) >= LEAST;
            let chars = i64::try_from(text.chars().count()).unwrap();
            if alike {
                // Nothing alike enough is left out by the bounds.
                assert!(
                    (low..=high).contains(&chars),
                    "{text}: {chars} not in {low}..={high}"
                );
                assert!(letters.may_be_alike(text, LEAST), "{text}");
            }
        }
        assert_eq!(alike_lengths(100, LEAST), (74, 135));
        assert!(!letters.may_be_alike("Close the file", LEAST));
        // Exhaustively over short texts: the bounds never refuse a text
        // alike enough.
        let pieces = ["a", "b", "ab", "ba", "c", "abc"];
        let mut all = vec![String::new()];
        for _ in 0..4 {
            all = all
                .iter()
                .flat_map(|t| pieces.iter().map(move |p| format!("{t}{p}")))
                .collect();
        }
        for a in &all {
            let letters = Letters::of(a);
            let (low, high) = alike_lengths(i64::try_from(a.chars().count()).unwrap(), LEAST);
            for b in all.iter().step_by(7) {
                if similarity(a, b) >= LEAST {
                    let chars = i64::try_from(b.chars().count()).unwrap();
                    assert!((low..=high).contains(&chars), "{a} {b}");
                    assert!(letters.may_be_alike(b, LEAST), "{a} {b}");
                }
            }
        }
    }
}
