//! What a commit says about itself.

/// One commit's identity, people, dates and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitInfo {
    /// Full hash.
    pub revision: String,
    /// Author name.
    pub author_name: String,
    /// Author e-mail.
    pub author_email: String,
    /// Author date, RFC 3339.
    pub author_date: String,
    /// Committer name.
    pub committer_name: String,
    /// Committer e-mail.
    pub committer_email: String,
    /// Commit date, RFC 3339.
    pub commit_date: String,
    /// The whole message.
    pub message: String,
}

impl CommitInfo {
    /// The first line of the message.
    pub fn summary(&self) -> &str {
        self.message.lines().next().unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_is_the_first_line() {
        let info = CommitInfo {
            revision: "abc".into(),
            author_name: "Jane".into(),
            author_email: "j@x".into(),
            author_date: "2026-01-01T10:00:00+01:00".into(),
            committer_name: "Tolk".into(),
            committer_email: "t@x".into(),
            commit_date: "2026-01-01T10:00:01+01:00".into(),
            message: "Fix\n\nBody".into(),
        };
        assert_eq!(info.summary(), "Fix");
    }
}
