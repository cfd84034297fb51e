//! Every Android string resource of the shared corpus: round trips, edits
//! that touch only the element's text, counts against translate-toolkit's.

mod common;

use common::{check_corpus, same_counts};

#[test]
fn round_trips_counts_and_edits() {
    check_corpus(
        "android",
        "aresource",
        13,
        "Tolk's <b> & \"edit\"",
        1,
        same_counts,
    );
}
