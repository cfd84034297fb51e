//! Finding every match of a scanner in a text, as a regular expression
//! search would, for checks that scan by hand.

/// Every match in a text of `len` characters, left to right and without
/// overlaps, as a regular-expression search finds them: `matched(at)` is
/// the match that starts at `at`, if any, with where it ends.
pub(crate) fn matches_in<T>(len: usize, matched: impl Fn(usize) -> Option<(T, usize)>) -> Vec<T> {
    let mut found = Vec::new();
    let mut at = 0;
    while at < len {
        match matched(at) {
            Some((item, next)) => {
                found.push(item);
                at = next.max(at + 1);
            }
            None => at += 1,
        }
    }
    found
}
