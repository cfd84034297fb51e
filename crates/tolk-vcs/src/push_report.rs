//! What `git push --porcelain` reports for each ref it was asked to
//! update: one line per ref, `FLAG TAB FROM:TO TAB SUMMARY`, where the flag
//! `!` marks a ref the remote refused and the summary says why (`[rejected]
//! (fetch first)`, `[remote rejected] (pre-receive hook declined)`). Read
//! from those lines, a refusal needs no guess from Git's prose.

/// The refs the remote refused, each as `TO: SUMMARY`; empty when every
/// ref went through (or Git never reached the remote).
pub(crate) fn rejections(output: &str) -> Vec<String> {
    output
        .lines()
        .filter_map(|line| {
            let mut fields = line.splitn(3, '\t');
            let (flag, refs, summary) = (fields.next()?, fields.next()?, fields.next()?);
            if flag != "!" {
                return None;
            }
            let to = refs.rsplit_once(':').map_or(refs, |(_, to)| to);
            Some(format!("{to}: {}", summary.trim()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refused_refs_are_read_from_the_porcelain_lines() {
        let report = "To /tmp/upstream.git\n\
            !\tHEAD:refs/heads/main\t[rejected] (fetch first)\n\
            =\trefs/heads/stable:refs/heads/stable\t[up to date]\n\
            !\trefs/heads/x:refs/heads/x\t[remote rejected] (pre-receive hook declined)\n\
            Done\n\
            error: failed to push some refs to '/tmp/upstream.git'";
        assert_eq!(
            rejections(report),
            [
                "refs/heads/main: [rejected] (fetch first)",
                "refs/heads/x: [remote rejected] (pre-receive hook declined)"
            ]
        );
        let accepted = "To /tmp/upstream.git\n \tHEAD:refs/heads/main\t1a2b..3c4d\nDone";
        assert!(rejections(accepted).is_empty());
        assert!(
            rejections("fatal: unable to access 'https://x/': Could not resolve host").is_empty()
        );
    }
}
