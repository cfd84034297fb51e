//! Regular expressions written in the code, compiled once each.

use regex::Regex;

/// The compiled `expression`, one of the checks' own: a mistake in it is
/// a bug that every test of its check finds, not an input to handle.
#[expect(
    clippy::expect_used,
    reason = "the expressions are the code's, not input; their checks' tests compile each"
)]
pub(crate) fn fixed_regex(expression: &str) -> Regex {
    Regex::new(expression).expect("a valid expression")
}
