//! Parsing and writing large PO files: 10,000 and 100,000 units, to see
//! the cost per file and that it grows linearly.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use tolk_formats::po::PoFile;

/// A PO file of `units` entries in the shape real catalogues have:
/// comments, references, flags, some plurals and some long wrapped strings.
fn catalogue(units: usize) -> Vec<u8> {
    let mut text = String::from(
        "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\"Plural-Forms: nplurals=2; plural=n != 1;\\n\"\n\n",
    );
    for i in 0..units {
        text.push_str(&format!(
            "#. Developer note {i}\n#: src/file{}.c:{i}\n",
            i % 97
        ));
        if i % 10 == 0 {
            text.push_str("#, c-format\n");
        }
        if i % 7 == 0 {
            text.push_str(&format!(
                "msgid \"{i} file\"\nmsgid_plural \"{i} files\"\nmsgstr[0] \"{i} soubor\"\nmsgstr[1] \"{i} souborů\"\n\n"
            ));
        } else if i % 13 == 0 {
            text.push_str(&format!(
                "msgid \"\"\n\"A long message number {i} that gettext wrapped over \"\n\"several lines because it is long.\\n\"\nmsgstr \"\"\n\"Dlouhá zpráva číslo {i}, kterou gettext zalomil \"\n\"na několik řádků.\\n\"\n\n"
            ));
        } else {
            text.push_str(&format!("msgid \"Message {i}\"\nmsgstr \"Zpráva {i}\"\n\n"));
        }
    }
    text.into_bytes()
}

fn bench(c: &mut Criterion) {
    common::codec(
        c,
        "po",
        catalogue,
        |bytes| PoFile::parse("bench.po", bytes).unwrap(),
        |units| units / 2,
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
