//! One line of a list of what is translated (a project, a component, a
//! language): its name, where it leads, and its progress.

use tolk_domain::stats::{Counters, percent};

/// A named thing with how much of it is translated.
#[derive(Debug, Clone)]
pub struct ProgressLine {
    /// Its name.
    pub name: String,
    /// Its page.
    pub href: String,
    /// Translated strings, in percent (Weblate's rounding: never 100 for
    /// an incomplete count, 100 for nothing to translate).
    pub translated: f64,
    /// All strings.
    pub total: i64,
    /// Strings needing editing.
    pub fuzzy: i64,
    /// Strings failing checks.
    pub failing: i64,
}

impl ProgressLine {
    /// The line of `name` at `href` with these counters.
    pub fn new(name: String, href: String, counters: &Counters) -> ProgressLine {
        ProgressLine {
            name,
            href,
            translated: percent(counters.translated.strings, counters.total.strings, true),
            total: counters.total.strings,
            fuzzy: counters.fuzzy.strings,
            failing: counters.failing,
        }
    }
}
