//! Read-only questions answered from the repository's files with gix,
//! without starting a process: revisions, commits and the paths the index
//! records as symbolic links. The repository is opened isolated: no
//! system, user or environment configuration.

use std::collections::BTreeSet;
use std::path::Path;

use crate::commit::CommitInfo;
use crate::error::VcsError;

fn failed(e: impl std::fmt::Display) -> VcsError {
    VcsError::Read(e.to_string())
}

fn open(path: &Path) -> Result<gix::Repository, VcsError> {
    gix::open_opts(path, gix::open::Options::isolated()).map_err(failed)
}

/// The commit `rev` names: `HEAD`, a full reference name or a full hash;
/// `None` for a reference that does not exist.
fn resolve(repo: &gix::Repository, rev: &str) -> Result<Option<gix::ObjectId>, VcsError> {
    if rev == "HEAD" {
        return repo.head_id().map(|id| Some(id.detach())).map_err(failed);
    }
    if let Ok(id) = gix::ObjectId::from_hex(rev.as_bytes()) {
        return Ok(Some(id));
    }
    match repo.try_find_reference(rev).map_err(failed)? {
        Some(mut reference) => Ok(Some(reference.peel_to_id().map_err(failed)?.detach())),
        None => Ok(None),
    }
}

/// The full hash of `rev` in the repository at `path`; `None` when it names nothing.
pub(crate) fn revision(path: &Path, rev: &str) -> Result<Option<String>, VcsError> {
    let repo = open(path)?;
    Ok(resolve(&repo, rev)?.map(|id| id.to_string()))
}

/// What the commit `rev` says about itself.
pub(crate) fn commit_info(path: &Path, rev: &str) -> Result<CommitInfo, VcsError> {
    let repo = open(path)?;
    let id = resolve(&repo, rev)?.ok_or_else(|| failed(format!("no commit {rev}")))?;
    let commit = repo.find_commit(id).map_err(failed)?;
    let date = |sig: gix::actor::SignatureRef<'_>| -> Result<String, VcsError> {
        let time = sig.time().map_err(failed)?;
        time.format(gix::date::time::format::ISO8601_STRICT)
            .map_err(failed)
    };
    let author = commit.author().map_err(failed)?;
    let committer = commit.committer().map_err(failed)?;
    Ok(CommitInfo {
        revision: id.to_string(),
        author_name: author.name.to_string(),
        author_email: author.email.to_string(),
        author_date: date(author)?,
        committer_name: committer.name.to_string(),
        committer_email: committer.email.to_string(),
        commit_date: date(committer)?,
        message: commit
            .message_raw()
            .map_err(failed)?
            .to_string()
            .trim_end()
            .to_owned(),
    })
}

/// The paths the index of the work tree at `path` records as symbolic
/// links (at any stage), read from `.git/index` itself; none when there is
/// no index yet. Git replaces its index by renaming a finished file over
/// it, so what is read here is one whole version of it.
pub(crate) fn recorded_links(path: &Path) -> Result<BTreeSet<String>, VcsError> {
    let options = gix::index::decode::Options {
        thread_limit: Some(1),
        ..Default::default()
    };
    let index = gix::index::File::at_or_default(
        path.join(".git").join("index"),
        gix::hash::Kind::Sha1,
        true,
        options,
    )
    .map_err(failed)?;
    Ok(index
        .entries()
        .iter()
        .filter(|entry| entry.mode == gix::index::entry::Mode::SYMLINK)
        .map(|entry| entry.path(&index).to_string())
        .collect())
}
