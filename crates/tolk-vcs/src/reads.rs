//! Read-only questions answered from the repository's files with gix,
//! without starting a process: revisions and commits. The repository is
//! opened isolated: no system, user or environment configuration.

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
