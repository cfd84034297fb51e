//! Clones a repository, replaces a translation file inside its work tree,
//! commits it as a translator and pushes it upstream, as Tolk does after
//! edits. The upstream is a bare repository in a temporary directory.
//!
//! Run with `cargo run -p tolk-vcs --example commit_and_push`.

use tolk_vcs::testing::Upstream;
use tolk_vcs::{Git, GitConfig, Identity, Repository, VcsError};

fn main() -> Result<(), VcsError> {
    let upstream = Upstream::new(&[("po/cs.po", b"msgid \"Open\"\nmsgstr \"\"\n".to_vec())]);
    let git = Git::new(GitConfig {
        // The upstream is a local path, which a server refuses by default.
        allow_local: true,
        ..GitConfig::new(upstream.root().join("home"))
    })?;
    println!("{}", git.version());

    let repository = Repository::clone(
        &git,
        &upstream.url(),
        "main",
        &upstream.root().join("clone"),
    )?;
    // Every path stays inside the work tree, and the file is replaced whole.
    repository.work_tree()?.write(
        "po/cs.po",
        "msgid \"Open\"\nmsgstr \"Otevřít\"\n".as_bytes(),
    )?;
    let translator = Identity {
        name: "Jana Nováková".into(),
        email: "jana@example.com".into(),
    };
    let head = repository.commit(
        &["po/cs.po".to_owned()],
        &translator,
        "Translated using Tolk",
    )?;
    println!("committed {head:?}");
    repository.push("", "main")?;

    let pushed = upstream.file("po/cs.po");
    print!("upstream now holds:\n{pushed}");
    assert!(pushed.contains("Otevřít"));
    assert!(
        repository
            .work_tree()?
            .write("../outside.txt", b"no")
            .is_err(),
        "nothing is written outside the work tree"
    );
    Ok(())
}
