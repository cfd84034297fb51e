//! The measurements every codec benchmark makes.

use criterion::{BenchmarkId, Criterion, Throughput};
use tolk_formats::TranslationFile;

/// Measures, for files of 10,000 and 100,000 units made by `generate`:
/// parsing, writing the unchanged file, and cloning the parsed file,
/// changing the unit in the middle (`edited(units)`) and writing it.
pub fn codec<T: TranslationFile + Clone>(
    c: &mut Criterion,
    name: &str,
    generate: fn(usize) -> Vec<u8>,
    parse: fn(&[u8]) -> T,
    edited: fn(usize) -> usize,
) {
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    for units in [10_000, 100_000] {
        let bytes = generate(units);
        group.throughput(Throughput::Elements(units as u64));
        group.bench_with_input(BenchmarkId::new("parse", units), &bytes, |b, bytes| {
            b.iter(|| parse(bytes));
        });
        let parsed = parse(&bytes);
        assert_eq!(parsed.units().len(), units);
        group.bench_with_input(BenchmarkId::new("write", units), &parsed, |b, file| {
            b.iter(|| file.to_bytes().unwrap());
        });
        group.bench_with_input(
            BenchmarkId::new("edit-one-and-write", units),
            &parsed,
            |b, file| {
                b.iter(|| {
                    let mut file = file.clone();
                    file.set_translation(edited(units), &["Upraveno".into()], false)
                        .unwrap();
                    file.to_bytes().unwrap()
                });
            },
        );
    }
    group.finish();
}
