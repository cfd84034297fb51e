//! What each request layer of Tolk adds to a request (`tolk layers`,
//! in-process on the benchmark's database and token), each judged against
//! the 5 µs a layer may cost.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::bench_targets::layer_within;

/// Rate limits high enough that the throttle counts every request of the
/// measurement and refuses none (the benchmark's server runs without).
const UNREACHED_LIMIT: &str = "1000000000/hour";

/// Runs `tolk layers` on `data` and `db` with `token`, printing each line
/// with its verdict (the bare handler and the whole stack without one).
pub(crate) fn run(root: &Path, data: &Path, db: &str, token: &str) -> Result<(), String> {
    let output = Command::new(crate::bench::tolk(root))
        .args(["layers", "--token", token])
        .env("TOLK_DATA_DIR", data)
        .env("TOLK_DATABASE_URL", db)
        .env("TOLK_API_RATELIMIT_USER", UNREACHED_LIMIT)
        .env("TOLK_API_RATELIMIT_ANON", UNREACHED_LIMIT)
        // Logged as a server logs by default (each request, at info), to
        // nowhere.
        .env_remove("RUST_LOG")
        .stderr(Stdio::null())
        .output()
        .map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err("tolk layers failed".into());
    }
    println!("request layers, in-process (time per request above a bare handler):");
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let micros = line
            .rsplit_once(": ")
            .and_then(|(_, figure)| figure.strip_suffix(" µs"))
            .and_then(|figure| figure.parse::<f64>().ok())
            .ok_or_else(|| format!("odd line from tolk layers: {line}"))?;
        let judged = !line.starts_with("bare handler") && !line.starts_with("all layers");
        if judged {
            println!("  {}", layer_within(line, micros, Duration::from_micros(5)));
        } else {
            println!("  {line}");
        }
    }
    Ok(())
}
