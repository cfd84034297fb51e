//! The processes of this machine, as `/proc` (Linux) lists them.

use std::path::PathBuf;

/// Each process's id and `/proc` directory; `None` where there is no
/// `/proc` to read.
pub(crate) fn all() -> Option<impl Iterator<Item = (i32, PathBuf)>> {
    let entries = std::fs::read_dir("/proc").ok()?;
    Some(entries.flatten().filter_map(|entry| {
        let pid = entry.file_name().to_str()?.parse::<i32>().ok()?;
        Some((pid, entry.path()))
    }))
}
