//! Unpacking an uploaded ZIP archive into a new repository's directory,
//! whatever the archive claims: every entry's name is checked before
//! anything is written (no absolute path, no `..`, nothing under `.git`,
//! no link), each entry is streamed to its file through a small buffer,
//! and the bytes written are counted against a total limit while they are
//! read, so memory stays small and the disk bounded even for a bomb.

use std::io::{Cursor, Read};
use std::path::Path;

/// Most bytes an archive may unpack to (a small archive of repeated
/// bytes can claim, or hide, gigabytes).
pub(crate) const UNPACKED_MAX: u64 = 256 * 1024 * 1024;
/// Most entries an archive may hold.
pub(crate) const ENTRIES_MAX: usize = 20_000;
/// Most refused entries named in the answer.
const NAMED_MAX: usize = 20;

/// How much an archive may hold.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// Total bytes of its files.
    pub bytes: u64,
    /// Entries.
    pub entries: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            bytes: UNPACKED_MAX,
            entries: ENTRIES_MAX,
        }
    }
}

fn mib(bytes: u64) -> u64 {
    bytes / (1024 * 1024)
}

/// Unpacks `archive` into `dest` (a new, empty directory); the paths of
/// its files. When it is refused, the reasons, each naming the entry it
/// is about; `dest` may then hold part of the files (the caller removes
/// it).
pub(crate) fn unpack(
    archive: &[u8],
    dest: &Path,
    limits: Limits,
) -> Result<Vec<String>, Vec<String>> {
    let refuse = |reason: String| vec![reason];
    let mut zip = zip::ZipArchive::new(Cursor::new(archive))
        .map_err(|_| refuse("Could not parse uploaded ZIP file.".into()))?;
    if zip.len() > limits.entries {
        return Err(refuse(format!(
            "The archive holds {} entries; at most {} are accepted.",
            zip.len(),
            limits.entries
        )));
    }
    let names = checked_names(&mut zip)?;
    let mut left = limits.bytes;
    let too_big = || {
        refuse(format!(
            "The archive unpacks to more than {} MiB, the most accepted.",
            mib(limits.bytes)
        ))
    };
    let mut files = Vec::new();
    for (i, name) in names {
        let Some(name) = name else { continue };
        let mut entry = zip
            .by_index(i)
            .map_err(|e| refuse(format!("{name}: {e}")))?;
        if entry.size() > left {
            return Err(too_big());
        }
        let target = dest.join(&name);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| refuse(format!("{name}: {e}")))?;
        }
        let mut file =
            std::fs::File::create_new(&target).map_err(|e| refuse(format!("{name}: {e}")))?;
        // One more byte than allowed tells an entry that lied about its size.
        let written = std::io::copy(&mut (&mut entry).take(left + 1), &mut file)
            .map_err(|e| refuse(format!("{name}: {e}")))?;
        left = left.checked_sub(written).ok_or_else(too_big)?;
        files.push(name);
    }
    Ok(files)
}

/// The name of each entry, in order (`None` for directories), once every
/// one is acceptable; else a reason per refused entry.
fn checked_names(
    zip: &mut zip::ZipArchive<Cursor<&[u8]>>,
) -> Result<Vec<(usize, Option<String>)>, Vec<String>> {
    let mut names = Vec::with_capacity(zip.len());
    let mut refused = Vec::new();
    for i in 0..zip.len() {
        let entry = zip
            .by_index_raw(i)
            .map_err(|e| vec![format!("Could not parse uploaded ZIP file: {e}.")])?;
        let raw = entry.name().map_or_else(|_| "?".into(), |n| n.into_owned());
        let name = raw.trim_end_matches('/');
        if entry.is_symlink() {
            refused.push(format!("{raw}: a symbolic link"));
        } else if let Err(e) = tolk_vcs::check_relative(name) {
            refused.push(match e {
                tolk_vcs::VcsError::Refused { reason, .. } => format!("{raw}: {reason}"),
                other => other.to_string(),
            });
        } else {
            names.push((i, (!entry.is_dir()).then(|| name.to_owned())));
        }
    }
    if refused.is_empty() {
        return Ok(names);
    }
    let more = refused.len().saturating_sub(NAMED_MAX);
    refused.truncate(NAMED_MAX);
    if more > 0 {
        refused.push(format!("… and {more} more refused entries."));
    }
    Err(refused)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use zip::write::SimpleFileOptions;

    /// An archive of `entries`: name, content, and whether it is a link.
    fn zipped(entries: &[(&str, &[u8], bool)]) -> Vec<u8> {
        let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = SimpleFileOptions::default();
        for (name, bytes, link) in entries {
            if *link {
                zip.add_symlink(*name, String::from_utf8_lossy(bytes), options)
                    .unwrap();
            } else {
                zip.start_file(*name, options).unwrap();
                zip.write_all(bytes).unwrap();
            }
        }
        zip.finish().unwrap().into_inner()
    }

    #[test]
    fn unpacks_files_and_directories() {
        let tmp = tempfile::tempdir().unwrap();
        let archive = zipped(&[("po/cs.po", b"cs", false), ("po/de.po", b"de", false)]);
        let files = unpack(&archive, tmp.path(), Limits::default()).unwrap();
        assert_eq!(files, ["po/cs.po", "po/de.po"]);
        assert_eq!(std::fs::read(tmp.path().join("po/de.po")).unwrap(), b"de");
    }

    #[test]
    fn names_every_refused_entry_and_writes_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let archive = zipped(&[
            ("po/cs.po", b"cs", false),
            ("/etc/cron.d/x", b"x", false),
            ("../outside.po", b"x", false),
            (".git/hooks/post-checkout", b"x", false),
            ("po/link.po", b"/etc/passwd", true),
        ]);
        let reasons = unpack(&archive, tmp.path(), Limits::default()).unwrap_err();
        assert_eq!(
            reasons,
            [
                "/etc/cron.d/x: an absolute path",
                "../outside.po: a path that leaves the repository",
                ".git/hooks/post-checkout: a path inside Git's own directory",
                "po/link.po: a symbolic link",
            ]
        );
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_bomb_is_stopped_at_the_limit() {
        let tmp = tempfile::tempdir().unwrap();
        let zeros = vec![0u8; 3 * 1024 * 1024];
        let archive = zipped(&[("a.po", &zeros, false), ("b.po", &zeros, false)]);
        assert!(archive.len() < 64 * 1024, "it compresses well");
        let limits = Limits {
            bytes: 5 * 1024 * 1024,
            entries: 10,
        };
        let reasons = unpack(&archive, tmp.path(), limits).unwrap_err();
        assert_eq!(
            reasons,
            ["The archive unpacks to more than 5 MiB, the most accepted."]
        );
        let many = zipped(&[("a", b"", false), ("b", b"", false), ("c", b"", false)]);
        let limits = Limits {
            bytes: 1024,
            entries: 2,
        };
        let reasons = unpack(&many, tmp.path(), limits).unwrap_err();
        assert_eq!(
            reasons,
            ["The archive holds 3 entries; at most 2 are accepted."]
        );
    }
}
