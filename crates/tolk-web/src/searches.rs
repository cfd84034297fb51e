//! The searches translators use most, one click each on a translation's
//! page (with how many strings each finds) and in the editor.

use tolk_domain::stats::Counters;

/// A common search.
pub struct Search {
    /// How it is named.
    pub label: &'static str,
    /// Its query (empty: every string).
    pub q: &'static str,
    /// How many of a translation's strings it finds, from its counters.
    pub count: fn(&Counters) -> i64,
}

/// The common searches, in the order shown.
pub const COMMON: &[Search] = &[
    Search {
        label: "All strings",
        q: "",
        count: |c| c.total.strings,
    },
    Search {
        label: "Not translated",
        q: "state:<translated",
        count: |c| c.total.strings - c.translated.strings,
    },
    Search {
        label: "Needs editing",
        q: "state:needs-editing",
        count: |c| c.fuzzy.strings,
    },
    Search {
        label: "Failing checks",
        q: "has:check",
        count: |c| c.failing,
    },
    Search {
        label: "With suggestions",
        q: "has:suggestion",
        count: |c| c.suggestions,
    },
    Search {
        label: "With comments",
        q: "has:comment",
        count: |c| c.comments,
    },
];

/// A common search as a link.
#[derive(Debug, Clone)]
pub struct SearchLink {
    /// How it is named.
    pub label: &'static str,
    /// Where it leads.
    pub href: String,
    /// Whether it is the search shown.
    pub current: bool,
}

/// The common searches as links made by `href` from each query, the one
/// equal to `current` marked.
pub fn links(current: &str, href: impl Fn(&str) -> String) -> Vec<SearchLink> {
    COMMON
        .iter()
        .map(|search| SearchLink {
            label: search.label,
            href: href(search.q),
            current: search.q == current,
        })
        .collect()
}
