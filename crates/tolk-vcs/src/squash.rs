//! Squashing the commits not yet upstream (Weblate's "Squash Git
//! commits" add-on): into one, one per group of files, or one per
//! author. Commits already pushed to a push URL are never rewritten.

use std::collections::BTreeSet;

use crate::error::VcsError;
use crate::git::Identity;
use crate::reads;
use crate::repository::{PUSHED, Repository};

/// How the commits are grouped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grouping {
    /// All into one commit.
    All,
    /// One commit per group of paths (a language's files, or one file),
    /// then one for whatever else changed.
    Paths(Vec<Vec<String>>),
    /// One commit per author, as far as their commits can be reordered.
    Author,
}

/// What a squash does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SquashPlan {
    /// How commits are grouped.
    pub grouping: Grouping,
    /// Each squashed commit keeps the trailers of its commits and names
    /// their authors as co-authors.
    pub append_trailers: bool,
    /// The message of each squashed commit; empty: its commits' messages.
    pub message: String,
    /// Author of a squashed commit whose commits have several authors,
    /// and of the commit of changes outside every group.
    pub author: Identity,
    /// Message of the commit of changes outside every group.
    pub rest_message: String,
}

/// One commit to squash.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Squashed {
    hash: String,
    author: Identity,
    body: String,
    trailers: Vec<String>,
    /// The files it changed.
    files: Vec<String>,
}

/// Field and record separators of the log format.
const FIELD: char = '\u{1f}';
const RECORD: char = '\u{1e}';
/// Branch a squash by author builds on.
const SCRATCH_BRANCH: &str = "tolk-squash";

impl Repository {
    /// Where squashing starts: upstream's branch, or what was last pushed
    /// when that came later; `None` without a remote.
    fn squash_base(&self) -> Result<Option<String>, VcsError> {
        let Some(upstream) = self.remote_head()? else {
            return Ok(None);
        };
        if let Some(pushed) = reads::revision(self.path(), PUSHED)?
            && self.is_ancestor(&upstream, &pushed)
            && self.is_ancestor(&pushed, "HEAD")
        {
            return Ok(Some(pushed));
        }
        Ok(Some(upstream))
    }

    fn is_ancestor(&self, older: &str, newer: &str) -> bool {
        self.run(&["merge-base", "--is-ancestor", older, newer])
            .is_ok()
    }

    /// The commits after `base`, oldest first, with the files each changed.
    fn commits_since(&self, base: &str) -> Result<Vec<Squashed>, VcsError> {
        let format = format!(
            "--format={RECORD}%H{FIELD}%an{FIELD}%ae{FIELD}%B{FIELD}%(trailers:only,unfold){FIELD}"
        );
        let range = format!("{base}..HEAD");
        let out = self.run(&["log", "--reverse", "--name-only", &format, &range, "--"])?;
        Ok(out
            .split(RECORD)
            .filter_map(|record| {
                let mut fields = record.split(FIELD);
                let hash = fields.next()?.to_owned();
                if hash.is_empty() {
                    return None;
                }
                let name = fields.next()?.to_owned();
                let email = fields.next()?.to_owned();
                let body = fields.next()?.trim_end().to_owned();
                let lines = |text: Option<&str>| -> Vec<String> {
                    text.unwrap_or_default()
                        .lines()
                        .filter(|l| !l.trim().is_empty())
                        .map(str::to_owned)
                        .collect()
                };
                let trailers = lines(fields.next());
                Some(Squashed {
                    hash,
                    author: Identity { name, email },
                    body,
                    trailers,
                    files: lines(fields.next()),
                })
            })
            .collect())
    }

    /// Squashes the commits not yet upstream as `plan` says; false when
    /// there was nothing to squash (no remote, fewer than two commits).
    pub fn squash(&self, plan: &SquashPlan) -> Result<bool, VcsError> {
        let Some(base) = self.squash_base()? else {
            return Ok(false);
        };
        let commits = self.commits_since(&base)?;
        if commits.len() < 2 {
            return Ok(false);
        }
        match &plan.grouping {
            Grouping::All => {
                self.run(&["reset", "--quiet", "--soft", &base])?;
                self.commit_staged(&message(plan, &commits), &author(plan, &commits))?;
            }
            Grouping::Paths(groups) => {
                let mut groups_commits = Vec::new();
                for paths in groups {
                    let mine: Vec<Squashed> = commits
                        .iter()
                        .filter(|c| c.files.iter().any(|f| paths.contains(f)))
                        .cloned()
                        .collect();
                    if !mine.is_empty() {
                        groups_commits.push((paths, mine));
                    }
                }
                self.run(&["reset", "--quiet", "--mixed", &base])?;
                for (paths, mine) in groups_commits {
                    let mut add = vec!["add", "-A", "--"];
                    add.extend(paths.iter().map(String::as_str));
                    self.run(&add)?;
                    self.commit_staged(&message(plan, &mine), &author(plan, &mine))?;
                }
                self.run(&["add", "-A"])?;
                self.commit_staged(&plan.rest_message, &plan.author)?;
            }
            Grouping::Author => self.squash_by_author(plan, &base, commits)?,
        }
        Ok(true)
    }

    /// Commits what is staged, if anything.
    fn commit_staged(&self, message: &str, author: &Identity) -> Result<(), VcsError> {
        if self
            .run(&["diff", "--cached", "--name-only"])?
            .trim()
            .is_empty()
        {
            return Ok(());
        }
        self.git_commit(message, author)
    }

    /// Replays the commits on `base` grouped by author: each author's
    /// commits are picked while they apply in the new order, then
    /// squashed into one. Nothing changes when a step fails.
    fn squash_by_author(
        &self,
        plan: &SquashPlan,
        base: &str,
        mut commits: Vec<Squashed>,
    ) -> Result<(), VcsError> {
        let head = self.head()?;
        let result = (|| {
            self.run(&["checkout", "--quiet", "-B", SCRATCH_BRANCH, base])?;
            while !commits.is_empty() {
                let first = commits.remove(0);
                let start = self.head()?;
                self.run(&["cherry-pick", "--allow-empty", &first.hash])?;
                let mut group = vec![first];
                let mut i = 0;
                while i < commits.len() {
                    if commits[i].author != group[0].author {
                        i += 1;
                        continue;
                    }
                    if self
                        .run(&["cherry-pick", "--allow-empty", &commits[i].hash])
                        .is_err()
                    {
                        // It needs another author's commit first: picked later.
                        self.abort("cherry-pick");
                        break;
                    }
                    group.push(commits.remove(i));
                }
                if group.len() > 1 {
                    self.run(&["reset", "--quiet", "--soft", &start])?;
                    self.commit_staged(&message(plan, &group), &group[0].author)?;
                }
            }
            let squashed = self.head()?;
            self.run(&["checkout", "--quiet", self.branch()])?;
            self.run(&["reset", "--quiet", "--hard", &squashed])
        })();
        if let Err(e) = result {
            self.abort("cherry-pick");
            let _ = self.run(&["checkout", "--quiet", "--force", self.branch()]);
            let _ = self.run(&["reset", "--quiet", "--hard", &head]);
            let _ = self.run(&["branch", "-D", SCRATCH_BRANCH]);
            return Err(e);
        }
        self.run(&["branch", "-D", SCRATCH_BRANCH])?;
        Ok(())
    }
}

/// The one author of `commits`, or the plan's when they have several.
fn author(plan: &SquashPlan, commits: &[Squashed]) -> Identity {
    match commits.split_first() {
        Some((first, rest)) if rest.iter().all(|c| c.author == first.author) => {
            first.author.clone()
        }
        _ => plan.author.clone(),
    }
}

/// The message of a commit squashing `commits`: the plan's or theirs,
/// then (with `append_trailers`) their trailers and authors as
/// co-authors, each once, sorted.
fn message(plan: &SquashPlan, commits: &[Squashed]) -> String {
    if !plan.append_trailers {
        return if plan.message.is_empty() {
            commits
                .iter()
                .map(|c| c.body.as_str())
                .collect::<Vec<_>>()
                .join("\n\n")
        } else {
            plan.message.clone()
        };
    }
    let trailers: BTreeSet<String> = commits
        .iter()
        .flat_map(|c| {
            c.trailers.iter().cloned().chain(std::iter::once(format!(
                "Co-authored-by: {} <{}>",
                c.author.name, c.author.email
            )))
        })
        .collect();
    let body = if plan.message.is_empty() {
        commits
            .iter()
            .map(|c| {
                c.body
                    .lines()
                    .filter(|line| !trailers.contains(*line))
                    .collect::<Vec<_>>()
                    .join("\n")
                    .trim_end()
                    .to_owned()
            })
            .collect::<Vec<_>>()
            .join("\n\n")
    } else {
        plan.message.clone()
    };
    let mut text = body.trim_end().to_owned();
    text.push_str("\n\n");
    text.push_str(&trailers.into_iter().collect::<Vec<_>>().join("\n"));
    text
}
