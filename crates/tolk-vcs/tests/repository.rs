//! The work-tree operations against real repositories: a bare upstream and
//! a second clone that plays another developer.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

use std::path::PathBuf;

use tolk_vcs::testing::git;

use tolk_vcs::{Git, GitConfig, Identity, MergeStyle, Repository, Update, VcsError};

/// A bare upstream with one commit of `files`, and a developer's clone of it.
struct Upstream {
    dir: tempfile::TempDir,
    bare: PathBuf,
    developer: PathBuf,
}

impl Upstream {
    fn new(files: &[(&str, &str)]) -> Upstream {
        let dir = tempfile::tempdir().unwrap();
        let bare = dir.path().join("upstream.git");
        git(
            dir.path(),
            &["init", "--quiet", "--bare", "-b", "main", "upstream.git"],
        );
        let developer = dir.path().join("developer");
        git(
            dir.path(),
            &["clone", "--quiet", bare.to_str().unwrap(), "developer"],
        );
        git(&developer, &["checkout", "--quiet", "-B", "main"]);
        let upstream = Upstream {
            dir,
            bare,
            developer,
        };
        upstream.developer_commits(files, "initial");
        upstream
    }

    fn url(&self) -> &str {
        self.bare.to_str().unwrap()
    }

    fn developer_commits(&self, files: &[(&str, &str)], message: &str) {
        for (path, content) in files {
            let file = self.developer.join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, content).unwrap();
        }
        git(&self.developer, &["add", "-A"]);
        git(&self.developer, &["commit", "--quiet", "-m", message]);
        git(&self.developer, &["push", "--quiet", "origin", "main"]);
    }

    fn upstream_file(&self, path: &str) -> String {
        git(&self.bare, &["show", &format!("main:{path}")])
    }

    fn git(&self) -> Git {
        Git::new(GitConfig {
            allow_local: true,
            ..GitConfig::new(self.dir.path().join("home"))
        })
        .unwrap()
    }

    fn clone(&self) -> Repository {
        Repository::clone(&self.git(), self.url(), "", &self.dir.path().join("tolk")).unwrap()
    }
}

fn jane() -> Identity {
    Identity {
        name: "Jane Doe".into(),
        email: "jane@example.com".into(),
    }
}

const PO: &str = "a\nb\nc\n";

#[test]
fn clones_commits_and_pushes_with_the_editor_as_author() {
    let up = Upstream::new(&[("po/cs.po", PO), ("README", "readme\n")]);
    let repo = up.clone();
    assert_eq!(repo.branch(), "main");
    assert_eq!(repo.files().unwrap().files, vec!["README", "po/cs.po"]);
    let status = repo.status().unwrap();
    assert_eq!(
        (status.needs_commit, status.outgoing, status.missing),
        (false, 0, 0)
    );
    assert!(
        status.text.contains("up to date with 'origin/main'"),
        "{}",
        status.text
    );

    std::fs::write(repo.path().join("po/cs.po"), "a\nB\nc\n").unwrap();
    assert!(repo.status().unwrap().needs_commit);
    assert_eq!(
        repo.commit(&["README".into()], &jane(), "nothing").unwrap(),
        None
    );
    let head = repo
        .commit(&["po/cs.po".into()], &jane(), "Translated using Tolk")
        .unwrap()
        .unwrap();
    let info = repo.commit_info(&head).unwrap();
    assert_eq!(
        (info.author_name.as_str(), info.author_email.as_str()),
        ("Jane Doe", "jane@example.com")
    );
    assert_eq!(
        (info.committer_name.as_str(), info.summary()),
        ("Tolk", "Translated using Tolk")
    );
    assert_eq!(repo.commit_info("HEAD").unwrap(), info);
    assert_eq!(repo.head().unwrap(), head);
    assert!(
        chrono_like(&info.author_date),
        "RFC 3339 with an offset: {}",
        info.author_date
    );
    assert!(repo.commit_info("refs/heads/nowhere").is_err());
    let status = repo.status().unwrap();
    assert_eq!((status.needs_commit, status.outgoing), (false, 1));

    repo.push("", "").unwrap();
    assert_eq!(up.upstream_file("po/cs.po"), "a\nB\nc\n");
    assert_eq!(repo.status().unwrap().outgoing, 0);
    assert_eq!(repo.remote_head().unwrap(), Some(head));
}

#[test]
fn a_failed_clone_leaves_nothing() {
    let up = Upstream::new(&[("a", "a\n")]);
    let dest = up.dir.path().join("nothing");
    let err = Repository::clone(&up.git(), up.url(), "no-such-branch", &dest).unwrap_err();
    assert!(matches!(err, VcsError::NotFound(_)), "{err}");
    assert!(err.to_string().contains("no-such-branch"), "{err}");
    assert!(!dest.exists());
    assert!(!dest.with_extension("cloning").exists());
}

#[test]
fn a_clone_reports_its_progress_and_keeps_it_out_of_errors() {
    let files: Vec<(String, String)> = (0..50)
        .map(|n| {
            (
                format!("po/{n}.po"),
                format!("msgid \"{n}\"\nmsgstr \"\"\n"),
            )
        })
        .collect();
    let files: Vec<(&str, &str)> = files.iter().map(|(p, c)| (&p[..], &c[..])).collect();
    let up = Upstream::new(&files);
    let seen = std::sync::Mutex::new(Vec::new());
    let url = format!("file://{}", up.url());
    let dest = up.dir.path().join("reported");
    let repo = Repository::clone_reporting(&up.git(), &url, "", &dest, &|p| {
        seen.lock().unwrap().push(p);
    })
    .unwrap();
    assert_eq!(repo.files().unwrap().files.len(), 50);
    let seen = seen.into_inner().unwrap();
    assert!(seen.contains(&80), "all objects received: {seen:?}");
    assert!(seen.iter().all(|p| *p <= 100), "{seen:?}");

    let err = Repository::clone_reporting(
        &up.git(),
        &url,
        "no-such-branch",
        &up.dir.path().join("none"),
        &|_| {},
    )
    .unwrap_err();
    assert!(matches!(err, VcsError::NotFound(_)), "{err}");
    assert!(
        !err.to_string().contains('%'),
        "no progress in the error: {err}"
    );
}

/// A Git process of a killed server goes on writing into the clone it
/// had begun; a new clone into the same place stops it first.
#[test]
fn a_clone_left_running_by_a_killed_server_is_stopped_before_cloning_again() {
    let up = Upstream::new(&[("po/cs.po", PO)]);
    let dest = up.dir.path().join("tolk");
    let partial = dest.with_extension("cloning");
    std::fs::create_dir_all(&partial).unwrap();
    // Started by a shell that exits at once: an orphan leading its own
    // group, marked as Tolk marks its Git commands, writing without end.
    let writer = format!(
        "setsid sh -c 'n=0; while :; do n=$((n+1)); mkdir -p \"{0}/d$n\"; : > \"{0}/d$n/f\"; done' \
         >/dev/null 2>&1 &",
        partial.display()
    );
    let status = std::process::Command::new("sh")
        .args(["-c", &writer])
        .env("TOLK_GIT_PARENT", std::process::id().to_string())
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while std::fs::read_dir(&partial).unwrap().count() < 50 {
        assert!(
            std::time::Instant::now() < deadline,
            "the writer did not start"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let repo = Repository::clone(&up.git(), up.url(), "", &dest).unwrap();
    assert_eq!(repo.files().unwrap().files, vec!["po/cs.po"]);
    assert!(!partial.exists());
}
#[test]
fn brings_in_upstream_changes_with_every_style() {
    for style in [MergeStyle::Rebase, MergeStyle::Merge, MergeStyle::MergeNoFf] {
        let up = Upstream::new(&[("po/cs.po", PO), ("po/de.po", PO)]);
        let repo = up.clone();
        std::fs::write(repo.path().join("po/cs.po"), "a\nb\nC\n").unwrap();
        repo.commit(&["po/cs.po".into()], &jane(), "tolk").unwrap();
        up.developer_commits(&[("po/de.po", "x\nb\nc\n")], "developer");
        repo.fetch().unwrap();
        assert_eq!(repo.status().unwrap().missing, 1);
        let mut never =
            |_: tolk_vcs::ConflictedFile<'_>| -> Option<Vec<u8>> { panic!("no conflict") };
        let outcome = repo.update(style, "Merge", &mut never).unwrap();
        assert!(
            matches!(outcome, Update::Updated { .. }),
            "{style:?}: {outcome:?}"
        );
        let read = |p: &str| std::fs::read_to_string(repo.path().join(p)).unwrap();
        assert_eq!(
            (read("po/cs.po").as_str(), read("po/de.po").as_str()),
            ("a\nb\nC\n", "x\nb\nc\n")
        );
        let status = repo.status().unwrap();
        assert_eq!(status.missing, 0, "{style:?}");
        let expected_outgoing = if style == MergeStyle::Rebase { 1 } else { 2 };
        assert_eq!(status.outgoing, expected_outgoing, "{style:?}");
        assert_eq!(
            repo.update(style, "Merge", &mut never).unwrap(),
            Update::UpToDate
        );
    }
}

#[test]
fn a_conflict_goes_to_the_resolver_or_is_undone() {
    for style in [MergeStyle::Rebase, MergeStyle::Merge] {
        let up = Upstream::new(&[("po/cs.po", PO)]);
        let repo = up.clone();
        std::fs::write(repo.path().join("po/cs.po"), "a\nT\nc\n").unwrap();
        repo.commit(&["po/cs.po".into()], &jane(), "tolk").unwrap();
        let before = repo.head().unwrap();
        up.developer_commits(&[("po/cs.po", "a\nU\nc\n")], "developer");
        repo.fetch().unwrap();

        let mut refuse = |_: tolk_vcs::ConflictedFile<'_>| None;
        match repo.update(style, "Merge", &mut refuse).unwrap() {
            Update::Conflict { files, message } => {
                assert_eq!(files, vec!["po/cs.po"]);
                assert!(
                    message.contains("CONFLICT") || message.contains("conflict"),
                    "{message}"
                );
            }
            other => panic!("{style:?}: {other:?}"),
        }
        assert_eq!(repo.head().unwrap(), before, "{style:?}: undone");
        assert!(
            !repo.status().unwrap().needs_commit,
            "{style:?}: clean work tree"
        );

        let mut seen = Vec::new();
        let mut settle = |f: tolk_vcs::ConflictedFile<'_>| {
            seen.push((
                f.path.to_owned(),
                f.base.map(<[u8]>::to_vec),
                f.tolk.map(<[u8]>::to_vec),
                f.upstream.map(<[u8]>::to_vec),
            ));
            Some(b"a\nT+U\nc\n".to_vec())
        };
        let outcome = repo.update(style, "Merge", &mut settle).unwrap();
        assert!(
            matches!(outcome, Update::Updated { .. }),
            "{style:?}: {outcome:?}"
        );
        assert_eq!(
            seen,
            vec![(
                "po/cs.po".to_owned(),
                Some(PO.as_bytes().to_vec()),
                Some(b"a\nT\nc\n".to_vec()),
                Some(b"a\nU\nc\n".to_vec())
            )],
            "{style:?}: the three versions, Tolk's and upstream's in their places"
        );
        assert_eq!(
            std::fs::read_to_string(repo.path().join("po/cs.po")).unwrap(),
            "a\nT+U\nc\n"
        );
        repo.push("", "").unwrap();
        assert_eq!(up.upstream_file("po/cs.po"), "a\nT+U\nc\n");
    }
}

#[test]
fn reset_and_cleanup_return_to_upstream() {
    let up = Upstream::new(&[("po/cs.po", PO)]);
    let repo = up.clone();
    std::fs::write(repo.path().join("po/cs.po"), "changed\n").unwrap();
    repo.commit(&["po/cs.po".into()], &jane(), "tolk").unwrap();
    std::fs::write(repo.path().join("stray.txt"), "x").unwrap();
    repo.reset().unwrap();
    assert_eq!(
        std::fs::read_to_string(repo.path().join("po/cs.po")).unwrap(),
        PO
    );
    assert_eq!(repo.status().unwrap().outgoing, 0);
    assert!(repo.path().join("stray.txt").exists());
    repo.cleanup().unwrap();
    assert!(!repo.path().join("stray.txt").exists());
    assert!(!repo.status().unwrap().needs_commit);
}

#[test]
fn reads_files_and_changes_between_commits() {
    let up = Upstream::new(&[("po/cs.po", PO), ("po/de.po", PO)]);
    let repo = up.clone();
    let first = repo.head().unwrap();
    up.developer_commits(&[("po/de.po", "new\n")], "developer");
    repo.fetch().unwrap();
    let remote = repo.remote_head().unwrap().unwrap();
    assert_eq!(
        repo.changed_files(&first, &remote).unwrap(),
        vec!["po/de.po"]
    );
    assert_eq!(
        repo.read_blob(&format!("{remote}:po/de.po")).unwrap(),
        Some(b"new\n".to_vec())
    );
    assert_eq!(repo.read_blob(&format!("{remote}:po/xx.po")).unwrap(), None);
}

#[test]
fn local_repositories_have_no_remote() {
    let tmp = tempfile::tempdir().unwrap();
    let git = Git::new(GitConfig::new(tmp.path().join("home"))).unwrap();
    let dest = tmp.path().join("local");
    std::fs::create_dir_all(dest.join("po")).unwrap();
    std::fs::write(dest.join("po/cs.po"), PO).unwrap();
    let repo = Repository::init_local(&git, &dest, "Initial upload").unwrap();
    assert_eq!(repo.remote_head().unwrap(), None);
    repo.fetch().unwrap();
    let status = repo.status().unwrap();
    assert_eq!(
        (status.needs_commit, status.outgoing, status.missing),
        (false, 0, 0)
    );
    let mut never = |_: tolk_vcs::ConflictedFile<'_>| None;
    assert_eq!(
        repo.update(MergeStyle::Rebase, "m", &mut never).unwrap(),
        Update::UpToDate
    );
    assert_eq!(repo.files().unwrap().files, vec!["po/cs.po"]);
}

/// `YYYY-MM-DDTHH:MM:SS+HH:MM`.
fn chrono_like(date: &str) -> bool {
    let b = date.as_bytes();
    b.len() == 25 && b[4] == b'-' && b[10] == b'T' && (b[19] == b'+' || b[19] == b'-')
}

#[test]
fn links_in_a_repository_are_plain_files_and_refused() {
    let upstream = Upstream::new(&[("po/de.po", PO)]);
    let outside = upstream.dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret"), "secret").unwrap();
    let dev = &upstream.developer;
    let link = |target: &std::path::Path, name: &str| {
        std::os::unix::fs::symlink(target, dev.join(name)).unwrap();
    };
    link(std::path::Path::new("/etc/passwd"), "po/cs.po");
    link(&outside, "po/linked");
    link(std::path::Path::new("de.po"), "po/sk.po");
    git(dev, &["add", "-A"]);
    git(dev, &["commit", "--quiet", "-m", "links"]);
    git(dev, &["push", "--quiet", "origin", "main"]);

    let repo = upstream.clone();
    // Checked out as small files holding the link's target, never as links.
    let meta = std::fs::symlink_metadata(repo.path().join("po/cs.po")).unwrap();
    assert!(meta.file_type().is_file());
    let tree = repo.work_tree().unwrap();
    let listing = tree.list().unwrap();
    assert_eq!(listing.files, ["po/de.po"]);
    let refused: Vec<&str> = listing.refused.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(refused, ["po/cs.po", "po/linked", "po/sk.po"]);
    for path in ["po/cs.po", "po/sk.po", "po/linked/secret"] {
        let error = tree.read(path).unwrap_err();
        assert!(matches!(error, VcsError::Refused { .. }), "{error}");
        assert!(error.to_string().starts_with(path), "{error}");
    }
    // Nothing is written through them, so no commit can change a link.
    assert!(tree.write("po/cs.po", b"changed").is_err());
    assert_eq!(
        std::fs::read_to_string(repo.path().join("po/cs.po")).unwrap(),
        "/etc/passwd"
    );

    // A link that arrives later, by a pull, is refused the same way.
    link(std::path::Path::new("../../outside/secret"), "po/fr.po");
    upstream.developer_commits(&[], "another link");
    repo.fetch().unwrap();
    let mut keep = |_: tolk_vcs::ConflictedFile<'_>| None;
    repo.update(MergeStyle::Rebase, "merge", &mut keep).unwrap();
    let error = repo.work_tree().unwrap().read("po/fr.po").unwrap_err();
    assert!(matches!(error, VcsError::Refused { .. }), "{error}");
}

#[test]
fn git_failures_are_named() {
    let upstream = Upstream::new(&[("po/cs.po", PO)]);
    let git = upstream.git();
    let missing = upstream.dir.path().join("missing.git");
    let dest = upstream.dir.path().join("x");
    let error = Repository::clone(&git, missing.to_str().unwrap(), "", &dest).unwrap_err();
    assert!(matches!(error, VcsError::NotFound(_)), "{error:?}");
    let error = Repository::clone(&git, upstream.url(), "nope", &dest).unwrap_err();
    assert!(matches!(error, VcsError::NotFound(_)), "{error:?}");
    let error = Repository::clone(&git, "https://tolk-test.invalid/x.git", "", &dest).unwrap_err();
    assert!(matches!(error, VcsError::Unreachable(_)), "{error:?}");
    assert!(error.is_transient());

    // A push that upstream refuses (it moved on) is a rejection.
    let repo = upstream.clone();
    std::fs::write(repo.path().join("po/cs.po"), "x\n").unwrap();
    repo.commit(&["po/cs.po".into()], &jane(), "mine").unwrap();
    upstream.developer_commits(&[("po/cs.po", "y\n")], "theirs");
    let error = repo.push("", "").unwrap_err();
    assert!(matches!(error, VcsError::PushRejected(_)), "{error:?}");
    assert!(!error.is_transient());
}

#[test]
fn what_a_killed_process_left_is_recovered() {
    let upstream = Upstream::new(&[("po/cs.po", PO)]);
    let repo = upstream.clone();
    let git_dir = repo.path().join(".git");
    // A commit cut off after Git took its locks.
    std::fs::write(git_dir.join("index.lock"), "").unwrap();
    std::fs::write(git_dir.join("refs/heads/main.lock"), "").unwrap();
    std::fs::write(repo.path().join("po/cs.po"), "x\n").unwrap();
    let error = repo
        .commit(&["po/cs.po".into()], &jane(), "blocked")
        .unwrap_err();
    assert!(error.to_string().contains("index.lock"), "{error}");
    // A lock file some process still holds open stays.
    let held = git_dir.join("HEAD.lock");
    let _holder = std::fs::File::create(&held).unwrap();
    let recovered = repo.recover().unwrap();
    assert_eq!(recovered.len(), 2, "{recovered:?}");
    assert!(held.exists());
    drop(_holder);
    std::fs::remove_file(&held).unwrap();
    repo.commit(&["po/cs.po".into()], &jane(), "after recovery")
        .unwrap()
        .unwrap();

    // A rebase cut off in a conflict is undone.
    upstream.developer_commits(&[("po/cs.po", "y\n")], "theirs");
    repo.fetch().unwrap();
    let conflicted = git(repo.path(), &["rev-parse", "HEAD"]);
    let _ = std::process::Command::new("git")
        .current_dir(repo.path())
        .args([
            "-c",
            "user.name=x",
            "-c",
            "user.email=x@x",
            "rebase",
            "origin/main",
        ])
        .output()
        .unwrap();
    assert!(git_dir.join("rebase-merge").exists() || git_dir.join("rebase-apply").exists());
    assert_eq!(repo.recover().unwrap(), ["an interrupted rebase"]);
    assert_eq!(git(repo.path(), &["rev-parse", "HEAD"]), conflicted);
    assert!(repo.status().unwrap().text.contains("On branch main"));
}

#[test]
fn files_a_killed_write_left_are_put_back_from_git() {
    let upstream = Upstream::new(&[("po/cs.po", PO), ("po/de.po", PO), ("README", "read me\n")]);
    let repo = upstream.clone();
    let tree = repo.work_tree().unwrap();
    // Written whole through the work tree: no temporary file stays.
    tree.write("po/de.po", b"# rewritten\n").unwrap();
    let staging = repo.path().join(".git/tolk-writes");
    assert_eq!(std::fs::read_dir(&staging).unwrap().count(), 0);
    repo.commit(&["po/de.po".into()], &jane(), "de")
        .unwrap()
        .unwrap();
    // What a kill leaves: a file emptied, one cut short and staged, a
    // temporary file, an untracked file of someone else's.
    std::fs::write(repo.path().join("po/cs.po"), "").unwrap();
    std::fs::write(repo.path().join("README"), "read").unwrap();
    git(repo.path(), &["add", "README"]);
    std::fs::write(staging.join(".cs.po.1-1.tmp"), "half").unwrap();
    std::fs::write(repo.path().join("notes.txt"), "mine").unwrap();
    assert_eq!(repo.restore().unwrap(), ["README", "po/cs.po"]);
    assert_eq!(
        std::fs::read_to_string(repo.path().join("po/cs.po")).unwrap(),
        PO
    );
    assert_eq!(
        std::fs::read_to_string(repo.path().join("README")).unwrap(),
        "read me\n"
    );
    assert_eq!(
        std::fs::read_to_string(repo.path().join("po/de.po")).unwrap(),
        "# rewritten\n"
    );
    assert!(repo.path().join("notes.txt").exists());
    assert_eq!(
        repo.recover().unwrap().len(),
        1,
        "the temporary file is swept"
    );
    assert_eq!(std::fs::read_dir(&staging).unwrap().count(), 0);
    // A clean work tree costs one status and restores nothing.
    assert_eq!(repo.restore().unwrap(), Vec::<String>::new());
}

fn joe() -> Identity {
    Identity {
        name: "Joe Bloggs".into(),
        email: "joe@example.com".into(),
    }
}

fn tolk() -> Identity {
    Identity {
        name: "Tolk".into(),
        email: "noreply@tolk.invalid".into(),
    }
}

/// A clone with four unpushed commits: Jane edits cs, Joe edits de, Jane
/// edits cs again, Joe adds a new file.
fn four_commits() -> (Upstream, Repository) {
    let up = Upstream::new(&[("po/cs.po", PO), ("po/de.po", PO)]);
    let repo = up.clone();
    let edit = |path: &str, text: &str, who: &Identity, message: &str| {
        std::fs::write(repo.path().join(path), text).unwrap();
        repo.commit(&[path.into()], who, message).unwrap().unwrap();
    };
    edit(
        "po/cs.po",
        "a\nB\nc\n",
        &jane(),
        "Czech one\n\nCo-authored-by: Ann <ann@example.com>",
    );
    edit("po/de.po", "a\nb\nC\n", &joe(), "German one");
    edit("po/cs.po", "A\nB\nc\n", &jane(), "Czech two");
    edit("LINGUAS", "cs\nde\n", &joe(), "Languages");
    (up, repo)
}

fn plan(grouping: tolk_vcs::Grouping) -> tolk_vcs::SquashPlan {
    tolk_vcs::SquashPlan {
        grouping,
        append_trailers: true,
        message: String::new(),
        author: tolk(),
        rest_message: "Other files".into(),
    }
}

/// A commit as `outgoing` lists it.
fn commit(subject: &str, author: &str, files: &str) -> (String, String, String) {
    (subject.to_owned(), author.to_owned(), files.to_owned())
}

/// Subject, author and files of the commits after upstream's, oldest first.
fn outgoing(repo: &Repository) -> Vec<(String, String, String)> {
    let log = git(
        repo.path(),
        &[
            "log",
            "--reverse",
            "--format=%x1e%s%x1f%an%x1f",
            "--name-only",
            "origin/main..HEAD",
        ],
    );
    log.split('\u{1e}')
        .filter(|r| !r.trim().is_empty())
        .map(|record| {
            let mut parts = record.split('\u{1f}');
            let subject = parts.next().unwrap().to_owned();
            let author = parts.next().unwrap().to_owned();
            let files: Vec<&str> = parts.next().unwrap().split_whitespace().collect();
            (subject, author, files.join(" "))
        })
        .collect()
}

#[test]
fn squash_all_makes_one_commit_with_every_author_as_co_author() {
    let (up, repo) = four_commits();
    let tree = git(repo.path(), &["rev-parse", "HEAD^{tree}"]);
    assert!(repo.squash(&plan(tolk_vcs::Grouping::All)).unwrap());
    assert_eq!(
        git(repo.path(), &["rev-parse", "HEAD^{tree}"]),
        tree,
        "the same content"
    );
    assert_eq!(
        outgoing(&repo),
        [commit("Czech one", "Tolk", "LINGUAS po/cs.po po/de.po")]
    );
    let message = git(repo.path(), &["log", "-1", "--format=%B"]);
    assert_eq!(
        message.trim_end(),
        "Czech one\n\nGerman one\n\nCzech two\n\nLanguages\n\n\
Co-authored-by: Ann <ann@example.com>\n\
Co-authored-by: Jane Doe <jane@example.com>\n\
Co-authored-by: Joe Bloggs <joe@example.com>"
    );
    // One commit left: nothing more to squash.
    assert!(!repo.squash(&plan(tolk_vcs::Grouping::All)).unwrap());
    drop(up);
}

#[test]
fn squash_by_file_keeps_a_commit_per_file_and_one_for_the_rest() {
    let (_up, repo) = four_commits();
    let groups = vec![vec!["po/cs.po".to_owned()], vec!["po/de.po".to_owned()]];
    assert!(
        repo.squash(&plan(tolk_vcs::Grouping::Paths(groups)))
            .unwrap()
    );
    assert_eq!(
        outgoing(&repo),
        [
            commit("Czech one", "Jane Doe", "po/cs.po"),
            commit("German one", "Joe Bloggs", "po/de.po"),
            commit("Other files", "Tolk", "LINGUAS"),
        ]
    );
}

#[test]
fn squash_by_author_reorders_what_applies_and_never_loses_content() {
    let (_up, repo) = four_commits();
    let tree = git(repo.path(), &["rev-parse", "HEAD^{tree}"]);
    assert!(repo.squash(&plan(tolk_vcs::Grouping::Author)).unwrap());
    assert_eq!(git(repo.path(), &["rev-parse", "HEAD^{tree}"]), tree);
    assert_eq!(
        outgoing(&repo),
        [
            commit("Czech one", "Jane Doe", "po/cs.po"),
            commit("German one", "Joe Bloggs", "LINGUAS po/de.po"),
        ]
    );
    assert_eq!(
        git(repo.path(), &["branch", "--list"]).trim(),
        "* main",
        "no scratch branch left"
    );
}

#[test]
fn commits_already_pushed_to_a_push_url_are_not_squashed() {
    let (up, repo) = four_commits();
    let fork = up.dir.path().join("fork.git");
    git(up.dir.path(), &["init", "--quiet", "--bare", "fork.git"]);
    repo.push(fork.to_str().unwrap(), "main").unwrap();
    assert!(
        !repo.squash(&plan(tolk_vcs::Grouping::All)).unwrap(),
        "all four are in the fork"
    );
    std::fs::write(repo.path().join("po/de.po"), "x\n").unwrap();
    repo.commit(&["po/de.po".into()], &joe(), "German two")
        .unwrap();
    std::fs::write(repo.path().join("po/cs.po"), "y\n").unwrap();
    repo.commit(&["po/cs.po".into()], &jane(), "Czech three")
        .unwrap();
    assert!(repo.squash(&plan(tolk_vcs::Grouping::All)).unwrap());
    assert_eq!(outgoing(&repo).len(), 5, "four pushed, one squashed");
}

/// A push the remote refuses is named by the ref's line of Git's report,
/// with the remote's reason, not guessed from Git's prose.
#[test]
fn a_push_the_remote_refuses_names_the_ref_and_the_reason() {
    use std::os::unix::fs::PermissionsExt;
    let upstream = Upstream::new(&[("po/cs.po", PO)]);
    let hook = upstream.bare.join("hooks/pre-receive");
    std::fs::write(
        &hook,
        "#!/bin/sh\necho 'translations are frozen' >&2\nexit 1\n",
    )
    .unwrap();
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    let repo = upstream.clone();
    std::fs::write(repo.path().join("po/cs.po"), "x\n").unwrap();
    repo.commit(&["po/cs.po".into()], &jane(), "mine").unwrap();
    let error = repo.push("", "").unwrap_err();
    let VcsError::PushRejected(why) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(
        why,
        "refs/heads/main: [remote rejected] (pre-receive hook declined)"
    );
    assert!(!error.is_transient());
}
