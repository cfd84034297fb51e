//! Parsing and writing large nested JSON files: 10,000 and 100,000 values.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use tolk_formats::json::{Flavor, JsonFile};

/// A nested JSON file of `units` values in groups of 50 keys.
fn document(units: usize) -> Vec<u8> {
    let mut text = String::from("{\n");
    for group in 0..units.div_ceil(50) {
        text.push_str(&format!("  \"group{group}\": {{\n"));
        let count = 50.min(units - group * 50);
        for i in 0..count {
            let comma = if i + 1 < count { "," } else { "" };
            text.push_str(&format!(
                "    \"key{i}\": \"Hodnota {group}.{i} s \\\"uvozovkami\\\" a diakritikou\"{comma}\n"
            ));
        }
        let comma = if (group + 1) * 50 < units { "," } else { "" };
        text.push_str(&format!("  }}{comma}\n"));
    }
    text.push_str("}\n");
    text.into_bytes()
}

fn bench(c: &mut Criterion) {
    common::codec(
        c,
        "json",
        document,
        |bytes| JsonFile::parse("bench.json", bytes, Flavor::KeyValue).unwrap(),
        |units| units / 2,
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
