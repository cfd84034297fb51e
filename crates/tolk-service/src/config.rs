//! The service's settings, and their defaults.

use std::time::Duration;

use tolk_vcs::{GitConfig, UrlPolicy};

/// How long a claim holds unless renewed, by default.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(45);
/// How long finished tasks (their status, result and log) are kept by
/// default ([`ServiceConfig::task_retention`]): a week.
pub const DEFAULT_RETENTION: Duration = Duration::from_secs(7 * 24 * 3600);

/// How long a cache generation read is trusted by default (see
/// [`ServiceConfig::generation_trust`]).
pub const DEFAULT_GENERATION_TRUST: Duration = Duration::from_millis(20);

/// Site-wide settings the use-cases need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceConfig {
    /// Name of the site, reported by metrics.
    pub site_title: String,
    /// Public URL of the site, for links in commit messages.
    pub site_url: String,
    /// Directory holding the components' repositories.
    pub vcs_root: std::path::PathBuf,
    /// Directory holding uploaded media (screenshots).
    pub media_root: std::path::PathBuf,
    /// How Git runs.
    pub git: GitConfig,
    /// Which repository URLs components may use.
    pub url_policy: UrlPolicy,
    /// How long a task worker's claim holds without renewal: the task of
    /// a process that died is taken over this long after its last sign.
    pub task_lease: std::time::Duration,
    /// Whether a project gets a glossary component with its first
    /// components, as Weblate's `CREATE_GLOSSARIES`.
    pub create_glossaries: bool,
    /// How long finished tasks are kept, with their result and log.
    pub task_retention: std::time::Duration,
    /// How long the cache generation read last is trusted when this
    /// process has committed nothing since: how late a change made by
    /// another instance or by the command line may reach callers of this
    /// one (its own changes hold from the next request). Zero reads it at
    /// every request.
    pub generation_trust: Duration,
}

impl Default for ServiceConfig {
    /// Repositories under a directory of this process in the system's
    /// temporary directory; no local repository URLs.
    fn default() -> Self {
        let root = std::env::temp_dir().join(format!("tolk-{}", std::process::id()));
        Self {
            site_title: "Tolk".into(),
            site_url: "http://127.0.0.1:8000".into(),
            git: GitConfig::new(root.join("home")),
            vcs_root: root.join("vcs"),
            media_root: root.join("media"),
            url_policy: UrlPolicy::default(),
            task_lease: DEFAULT_LEASE,
            create_glossaries: true,
            task_retention: DEFAULT_RETENTION,
            generation_trust: DEFAULT_GENERATION_TRUST,
        }
    }
}

#[cfg(feature = "test-support")]
impl ServiceConfig {
    /// For tests: Git's home and the repositories under `root`, and local
    /// repository URLs allowed (the tests' upstreams are directories).
    pub fn local(root: &std::path::Path) -> Self {
        Self {
            git: GitConfig {
                allow_local: true,
                ..GitConfig::new(root.join("home"))
            },
            vcs_root: root.join("vcs"),
            media_root: root.join("media"),
            url_policy: UrlPolicy::new(true, ""),
            // Tests ask for glossaries where they are what is tested.
            create_glossaries: false,
            ..Self::default()
        }
    }
}
