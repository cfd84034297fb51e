//! Project chores, run as `cargo xtask <task>`:
//!
//! * `openapi` writes `openapi/openapi.json` from the code, and the table
//!   of served operations in `docs/compatibility.md` from it;
//! * `bench [--seconds N] [--connections N] [--database-url URL]` measures
//!   the API's throughput, latency and memory on a release build, and
//!   components on Git: task, scan and commit times, reads at scale;
//! * `cycles [ROOT]` finds import cycles between the modules of each crate
//!   (of the workspace at ROOT, this one by default).

mod bench;
mod bench_components;
mod bench_floor;
mod bench_layers;
mod bench_permissions;
mod bench_reliability;
mod bench_targets;
mod compat;
mod cycles;

use std::path::PathBuf;
use std::process::ExitCode;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn openapi() -> Result<(), String> {
    let path = root().join("openapi").join("openapi.json");
    std::fs::write(&path, tolk_api::openapi::document_json())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!("wrote {}", path.display());
    compat::write(&root())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("openapi") => openapi(),
        Some("cycles") => cycles::run(&args.get(1).map_or_else(root, PathBuf::from)),
        Some("bench") => bench::Options::parse(&args[1..]).and_then(|o| bench::run(&root(), &o)),
        _ => Err("usage: cargo xtask openapi | cycles [ROOT] | bench [--seconds N] [--connections N] [--database-url URL]".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
