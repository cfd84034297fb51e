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
    /// The `git log` format [`CommitInfo::parse`] reads: fields separated by NUL.
    pub(crate) const FORMAT: &'static str =
        "--format=%H%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B";

    /// Reads the output of `git log -1` with [`CommitInfo::FORMAT`].
    pub(crate) fn parse(text: &str) -> Option<CommitInfo> {
        let mut parts = text.splitn(8, '\0');
        let mut next = || parts.next().map(str::to_owned);
        Some(CommitInfo {
            revision: next()?,
            author_name: next()?,
            author_email: next()?,
            author_date: next()?,
            committer_name: next()?,
            committer_email: next()?,
            commit_date: next()?,
            message: next()?.trim_end().to_owned(),
        })
    }

    /// The first line of the message.
    pub fn summary(&self) -> &str {
        self.message.lines().next().unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_log_format() {
        let info = CommitInfo::parse(
            [
                "abc",
                "Jane",
                "jane@example.com",
                "2026-01-01T10:00:00+01:00",
                "Tolk",
                "t@x",
                "2026-01-01T10:00:01+01:00",
                "Fix\n\nBody\n\n",
            ]
            .join("\0")
            .as_str(),
        )
        .unwrap();
        assert_eq!(info.revision, "abc");
        assert_eq!(info.summary(), "Fix");
        assert_eq!(info.message, "Fix\n\nBody");
        assert!(CommitInfo::parse("abc\u{0}Jane").is_none());
    }
}
