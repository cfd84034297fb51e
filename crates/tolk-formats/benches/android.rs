//! Parsing and editing large Android string resources: 10,000 and 100,000 strings.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use criterion::{Criterion, criterion_group, criterion_main};

/// A `strings.xml` with comments, escapes, some plurals and some markup.
fn resources(units: usize) -> Vec<u8> {
    let mut text = String::from(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources xmlns:xliff=\"urn:oasis:names:tc:xliff:document:1.2\">\n",
    );
    for i in 0..units {
        if i % 10 == 0 {
            text.push_str(&format!("    <!-- Section {i} -->\n"));
        }
        if i % 9 == 0 {
            text.push_str(&format!(
                "    <plurals name=\"p{i}\">\n        <item quantity=\"one\">%d soubor</item>\n        <item quantity=\"other\">%d souborů</item>\n    </plurals>\n"
            ));
        } else if i % 7 == 0 {
            text.push_str(&format!(
                "    <string name=\"s{i}\">Ahoj <xliff:g id=\"name\">%s</xliff:g>, to je \\'test\\' &amp; další</string>\n"
            ));
        } else {
            text.push_str(&format!(
                "    <string name=\"s{i}\">Zpráva číslo {i}</string>\n"
            ));
        }
    }
    text.push_str("</resources>\n");
    text.into_bytes()
}

fn bench(c: &mut Criterion) {
    common::codec(
        c,
        "android",
        resources,
        |bytes| tolk_formats::android::parse("strings.xml", bytes).unwrap(),
        |units| units / 2 + 1,
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
