//! What an XLIFF file holds as read: its version, and each string with
//! where its parts are and the state its attributes give.

use std::ops::Range;

use crate::unit::State;

/// The XLIFF versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// XLIFF 1.2: `<trans-unit>` with `state` on `<target>` and `approved`.
    V1,
    /// XLIFF 2.0: `<unit>` of `<segment>`s with `state` on the segment.
    V2,
}

impl Version {
    /// The version a Weblate format id reads.
    pub fn for_format(format: &str) -> Option<Version> {
        match format {
            "xliff" | "plainxliff" | "poxliff" | "apple-xliff" => Some(Version::V1),
            "xliff2" | "xliff2-placeables" => Some(Version::V2),
            _ => None,
        }
    }

    /// Inline elements that may appear inside source and target text.
    pub(super) fn inline(self) -> &'static [&'static str] {
        match self {
            Version::V1 => &["g", "x", "bx", "ex", "bpt", "ept", "ph", "it", "mrk", "sub"],
            Version::V2 => &["cp", "ph", "pc", "sc", "ec", "mrk", "sm", "em"],
        }
    }
}

/// Where a unit's `<target>` is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Target {
    /// `<target …>content</target>`: the start tag and the content.
    Element {
        tag: Range<usize>,
        content: Range<usize>,
    },
    /// `<target …/>`.
    Empty { tag: Range<usize> },
    /// None yet: a new one goes at `at`, after `</source>`, on a line of
    /// its own with the indentation of the `<source>` starting at `source`.
    Missing { at: usize, source: usize },
}

/// One translatable string and where its parts are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Entry {
    pub(super) id: String,
    pub(super) source: String,
    pub(super) target: String,
    pub(super) slot: Target,
    /// The start tag holding the state: `<trans-unit>` (1.2, for
    /// `approved`) or `<segment>` (2.0).
    pub(super) holder: Range<usize>,
    /// The `state` attribute as read.
    pub(super) state_attr: Option<String>,
    pub(super) approved: bool,
    pub(super) translatable: bool,
    pub(super) notes: Vec<String>,
    pub(super) locations: Vec<String>,
    /// The element that holds this entry alone (a 1.2 `<trans-unit>`, a
    /// 2.0 `<unit>` of one segment), which removing the string removes. A
    /// segment of a unit of several has none: the others' ids would change.
    pub(super) element: Option<Range<usize>>,
}

/// XLIFF 1.2 target states that mean "needs editing".
const V1_NEEDS_EDITING: [&str; 4] = ["new", "needs-translation", "needs-adaptation", "needs-l10n"];

/// The XLIFF 1.2 state Tolk writes for a target that needs editing: one
/// every tool reads so (not `needs-review-*`, which translate-toolkit
/// takes for translated).
pub(super) const V1_FUZZY: &str = "needs-translation";

impl Entry {
    pub(super) fn state(&self, version: Version) -> State {
        if !self.translatable {
            return State::ReadOnly;
        }
        if self.target.is_empty() {
            return State::Untranslated;
        }
        let state = self.state_attr.as_deref().unwrap_or("");
        match version {
            // As translate-toolkit (Weblate's reader) reads them: these
            // need editing; `needs-review-*` targets count as translated.
            Version::V1 if V1_NEEDS_EDITING.contains(&state) => State::Fuzzy,
            Version::V1 if self.approved => State::Approved,
            Version::V2 if state == "initial" => State::Fuzzy,
            Version::V2 if matches!(state, "reviewed" | "final") => State::Approved,
            _ => State::Translated,
        }
    }
}
