//! Fuzzes the `markdown` document parser, its writer and its edits.
#![no_main]

#[path = "../../tests/common/invariants.rs"]
mod invariants;

libfuzzer_sys::fuzz_target!(|data: &[u8]| invariants::check("markdown", data));
