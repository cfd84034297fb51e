//! Checks dismissed on a string. A unit keeps two lists of check ids,
//! each joined by commas: those it fails (`failing`, which every count of
//! failing strings reads) and those a person dismissed on it (`dismissed`).
//! A check is in one list or the other, never both; a dismissal lasts as
//! long as the check keeps failing on the string (as Weblate keeps a
//! dismissed check until it passes).

use super::catalogue::is_batch;

/// The ids of a stored list.
pub fn ids(list: &str) -> impl Iterator<Item = &str> {
    list.split(',').filter(|id| !id.is_empty())
}

/// Whether a stored list holds `id`.
pub fn holds(list: &str, id: &str) -> bool {
    ids(list).any(|each| each == id)
}

/// `list` with `id` added (last) or taken out.
pub fn with_id(list: &str, id: &str, present: bool) -> String {
    let mut kept: Vec<&str> = ids(list).filter(|each| *each != id).collect();
    if present {
        kept.push(id);
    }
    kept.join(",")
}

/// What a string the checks of its own text find failing `found` stores:
/// the failing ones not dismissed, and the dismissals that still apply
/// (those among `found`, and those of checks judged across strings,
/// which their own verdicts keep).
pub fn split(found: &str, dismissed: &str) -> (String, String) {
    let failing: Vec<&str> = ids(found).filter(|id| !holds(dismissed, id)).collect();
    let still: Vec<&str> = ids(dismissed)
        .filter(|id| holds(found, id) || is_batch(id))
        .collect();
    (failing.join(","), still.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_joins_and_leaves_a_list() {
        assert_eq!(with_id("", "inconsistent", true), "inconsistent");
        assert_eq!(
            with_id("end_stop", "inconsistent", true),
            "end_stop,inconsistent"
        );
        assert_eq!(
            with_id("end_stop,inconsistent", "inconsistent", false),
            "end_stop"
        );
        assert_eq!(
            with_id("inconsistent", "inconsistent", true),
            "inconsistent"
        );
        assert_eq!(with_id("", "end_stop", false), "");
    }

    #[test]
    fn dismissals_hold_while_their_check_fails() {
        assert_eq!(
            split("end_stop,same,double_space", "same"),
            ("end_stop,double_space".to_owned(), "same".to_owned())
        );
        // A dismissed check that passes is forgotten.
        assert_eq!(
            split("end_stop", "same"),
            ("end_stop".to_owned(), String::new())
        );
        assert_eq!(split("", ""), (String::new(), String::new()));
        // Checks across strings keep their dismissals: their verdicts
        // skip dismissed strings.
        assert_eq!(
            split("same", "inconsistent,same"),
            (String::new(), "inconsistent,same".to_owned())
        );
        assert!(holds("a,bb", "bb") && !holds("a,bb", "b"));
    }
}
