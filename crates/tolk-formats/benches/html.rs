//! Parsing and filling large HTML documents: 10,000 and 100,000 strings.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use criterion::{Criterion, criterion_group, criterion_main};

/// A page of `units` strings: sections of a heading, paragraphs with
/// inline markup, a list and a table row, with comments and a script.
fn document(units: usize) -> Vec<u8> {
    let mut text = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Manual</title>\n<script>var a = \"<p>x</p>\";</script>\n</head>\n<body>\n",
    );
    let mut written = 1;
    let mut i = 0;
    while written < units {
        let line = match i % 5 {
            0 => format!("<h2 id=\"s{i}\">Section {i}</h2>\n<!-- section {i} -->\n"),
            1 => format!(
                "<p>Paragraph {i} with <a href=\"/p/{i}?a=1&amp;b=2\">a link</a> and <em>emphasis</em>,\n  running over two lines.</p>\n"
            ),
            2 => format!("<ul>\n  <li>Item {i}\n</ul>\n"),
            3 => format!("<table><tr><td>Cell {i}</td></tr></table>\n"),
            _ => format!("<div>Note {i} &mdash; <code>tolk serve</code></div>\n"),
        };
        text.push_str(&line);
        written += 1;
        i += 1;
    }
    text.push_str("</body>\n</html>\n");
    text.into_bytes()
}

fn bench(c: &mut Criterion) {
    common::codec(
        c,
        "html",
        document,
        |bytes| tolk_formats::html::parse("en.html", bytes).unwrap(),
        |units| units / 2,
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
