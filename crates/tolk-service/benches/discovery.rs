//! Finding the components of a large repository (`tolk import`): the
//! paths of 30 gettext domains in 100 languages each, among 2,000 other
//! files, to see the cost per file of looking for language codes.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tolk_service::discovery::discover;

/// The repository's paths: `module{m}/locale/{code}/LC_MESSAGES/messages.po`
/// for 30 modules and 100 language codes, and source files.
fn paths() -> Vec<String> {
    let codes: Vec<String> = tolk_domain::language::builtin_languages()
        .into_iter()
        .map(|l| l.code)
        .filter(|c| !c.contains(['_', '@']))
        .take(100)
        .collect();
    let mut paths: Vec<String> = (0..30)
        .flat_map(|m| {
            codes
                .iter()
                .map(move |code| format!("module{m}/locale/{code}/LC_MESSAGES/messages.po"))
        })
        .collect();
    paths.extend((0..2000).map(|i| format!("src/pkg{}/file{i}.rs", i % 50)));
    paths.sort();
    paths
}

fn bench(c: &mut Criterion) {
    let paths = paths();
    let catalogue = b"msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\nmsgid \"Save\"\nmsgstr \"\"\n".to_vec();
    let mut group = c.benchmark_group("discovery");
    group.sample_size(10);
    group.throughput(Throughput::Elements(paths.len() as u64));
    group.bench_function("5000-files", |b| {
        b.iter(|| {
            let found = discover(&paths, &mut |_| Some(catalogue.clone()), "en");
            assert_eq!(found.components.len(), 30);
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
