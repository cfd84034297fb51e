//! Temporary debugging aid.
#[path = "../tests/common/invariants.rs"]
mod invariants;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data = std::fs::read(&args[2]).unwrap();
    invariants::check(&args[1], &data);
}
