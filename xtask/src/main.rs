//! Project chores, run as `cargo xtask <task>`:
//!
//! * `openapi` writes `openapi/openapi.json` from the code.

use std::path::PathBuf;
use std::process::ExitCode;

fn openapi_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("openapi")
        .join("openapi.json")
}

fn main() -> ExitCode {
    let task = std::env::args().nth(1).unwrap_or_default();
    match task.as_str() {
        "openapi" => {
            let path = openapi_path();
            match std::fs::write(&path, tolk_api::openapi::document_json()) {
                Ok(()) => {
                    println!("wrote {}", path.display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("cannot write {}: {e}", path.display());
                    ExitCode::FAILURE
                }
            }
        }
        _ => {
            eprintln!("usage: cargo xtask openapi");
            ExitCode::FAILURE
        }
    }
}
