//! Parsing and writing large nested JSON files: 10,000 and 100,000 values.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tolk_formats::TranslationFile;
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
    let mut group = c.benchmark_group("json");
    group.sample_size(10);
    for units in [10_000, 100_000] {
        let bytes = document(units);
        group.throughput(Throughput::Elements(units as u64));
        group.bench_with_input(BenchmarkId::new("parse", units), &bytes, |b, bytes| {
            b.iter(|| JsonFile::parse("bench.json", bytes, Flavor::KeyValue).unwrap());
        });
        let parsed = JsonFile::parse("bench.json", &bytes, Flavor::KeyValue).unwrap();
        assert_eq!(parsed.units().len(), units);
        group.bench_with_input(
            BenchmarkId::new("edit-one-and-write", units),
            &parsed,
            |b, json| {
                b.iter(|| {
                    let mut json = json.clone();
                    json.set_translation(units / 2, &["Upraveno".into()], false)
                        .unwrap();
                    json.to_bytes().unwrap()
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
