//! Parsing and editing large XLIFF 1.2 files: 10,000 and 100,000 units.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use tolk_formats::xliff::{Version, XliffFile};

/// An XLIFF 1.2 file with notes, locations, placeholders and states.
fn document(units: usize) -> Vec<u8> {
    let mut text = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xliff xmlns=\"urn:oasis:names:tc:xliff:document:1.2\" version=\"1.2\">\n  <file source-language=\"en\" target-language=\"cs\" datatype=\"plaintext\" original=\"app\">\n    <body>\n",
    );
    for i in 0..units {
        text.push_str(&format!(
            "      <trans-unit id=\"u{i}\" resname=\"key.{i}\">\n        <source>Message number {i} for <x id=\"PH\" equiv-text=\"name\"/> &amp; friends</source>\n"
        ));
        match i % 4 {
            0 => {}
            1 => text.push_str(&format!(
                "        <target state=\"needs-review-translation\">Zpráva číslo {i}</target>\n"
            )),
            _ => text.push_str(&format!(
                "        <target state=\"translated\">Zpráva číslo {i} pro <x id=\"PH\" equiv-text=\"name\"/> &amp; přátele</target>\n"
            )),
        }
        if i % 5 == 0 {
            text.push_str(&format!(
                "        <note from=\"developer\">Shown on screen {i}</note>\n        <context-group purpose=\"location\">\n          <context context-type=\"sourcefile\">src/app/page{i}.ts</context>\n          <context context-type=\"linenumber\">{i}</context>\n        </context-group>\n"
            ));
        }
        text.push_str("      </trans-unit>\n");
    }
    text.push_str("    </body>\n  </file>\n</xliff>\n");
    text.into_bytes()
}

fn bench(c: &mut Criterion) {
    common::codec(
        c,
        "xliff",
        document,
        |bytes| XliffFile::parse("messages.xlf", bytes, Version::V1).unwrap(),
        |units| units / 2,
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
