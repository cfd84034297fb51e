//! Settings: command-line flags and `TOLK_*` environment variables, over an
//! optional TOML file, over defaults.

#![allow(
    rustdoc::broken_intra_doc_links,
    rustdoc::bare_urls,
    reason = "the flags' doc comments are their --help text, whose [default: …] and [example: …] marks config_reference reads"
)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use serde::Deserialize;
use tolk_api::{Rate, RateLimits, TrustedProxies};

/// Where the database is: the settings every command that opens it takes.
#[derive(Debug, Clone, Default, Args)]
pub struct StorageFlags {
    /// TOML file with any of the settings (keys in snake_case).
    /// [example: /etc/tolk/tolk.toml]
    #[arg(long, env = "TOLK_CONFIG")]
    pub config: Option<PathBuf>,
    /// Database URL: a `postgres://` URL or a SQLite file path [default: DATA_DIR/tolk.sqlite3].
    /// [example: postgres://tolk:secret@db.example.com:5432/tolk]
    #[arg(long, env = "TOLK_DATABASE_URL")]
    pub database_url: Option<String>,
    /// Directory for Tolk's files [default: ./data].
    /// [example: /var/lib/tolk]
    #[arg(long, env = "TOLK_DATA_DIR")]
    pub data_dir: Option<PathBuf>,
    /// Database connections in the pool [default: 16].
    /// [example: 32]
    #[arg(long, env = "TOLK_DB_POOL_SIZE")]
    pub db_pool_size: Option<u32>,
    /// Allow components to use `file://` URLs and local paths as repositories [default: false].
    /// [example: true]
    #[arg(long, env = "TOLK_VCS_ALLOW_LOCAL")]
    pub vcs_allow_local: Option<bool>,
    /// Repository hosts that may resolve to loopback or private addresses,
    /// comma-separated [default: none].
    /// [example: git.internal.example,10.0.0.5]
    #[arg(long, env = "TOLK_VCS_PRIVATE_ALLOWLIST")]
    pub vcs_private_allowlist: Option<String>,
    /// Give each project a glossary component (TBX, in a local
    /// repository) with its first components, as Weblate does [default: true].
    /// [example: false]
    #[arg(long, env = "TOLK_CREATE_GLOSSARIES")]
    pub create_glossaries: Option<bool>,
    /// Longest time one Git command (clone, fetch, push...) may run, in
    /// seconds [default: 120].
    /// [example: 600]
    #[arg(long, env = "TOLK_GIT_TIMEOUT")]
    pub git_timeout: Option<u64>,
}

/// How the HTTP server runs: the settings only `serve` takes.
#[derive(Debug, Clone, Default, Args)]
pub struct ServerFlags {
    /// Address to listen on [default: 127.0.0.1:8000].
    /// [example: 0.0.0.0:8000]
    #[arg(long, env = "TOLK_BIND")]
    pub bind: Option<String>,
    /// Public URL of the site, used for browser links [default: http://BIND].
    /// [example: https://translate.example.com]
    #[arg(long, env = "TOLK_SITE_URL")]
    pub site_url: Option<String>,
    /// Name of the site [default: Tolk].
    /// [example: Example Translations]
    #[arg(long, env = "TOLK_SITE_TITLE")]
    pub site_title: Option<String>,
    /// HTTP worker threads [default: number of CPUs].
    /// [example: 8]
    #[arg(long, env = "TOLK_WORKERS")]
    pub workers: Option<usize>,
    /// API requests an anonymous client address may make, as N/second,
    /// N/minute, N/hour or N/day, or `off` [default: 100/day].
    /// [example: 1000/hour]
    #[arg(long, env = "TOLK_API_RATELIMIT_ANON")]
    pub api_ratelimit_anon: Option<String>,
    /// API requests a user (or anonymous client address) may make, as
    /// N/second, N/minute, N/hour or N/day, or `off` [default: 5000/hour].
    /// [example: off]
    #[arg(long, env = "TOLK_API_RATELIMIT_USER")]
    pub api_ratelimit_user: Option<String>,
    /// Proxies whose X-Forwarded-For, -Proto and -Host headers are
    /// believed: comma-separated addresses and networks (10.0.0.0/8)
    /// [default: none].
    /// [example: 10.0.0.0/8,127.0.0.1]
    #[arg(long, env = "TOLK_TRUSTED_PROXIES")]
    pub trusted_proxies: Option<String>,
    /// Background task workers (clones, scans, pulls) [default: 2].
    /// [example: 4]
    #[arg(long, env = "TOLK_TASK_WORKERS")]
    pub task_workers: Option<usize>,
    /// Accept notifications from Git hosts at /hooks/ [default: false].
    /// [example: true]
    #[arg(long, env = "TOLK_ENABLE_HOOKS")]
    pub enable_hooks: Option<bool>,
    /// When set, /metrics answers only requests with
    /// `Authorization: Bearer METRICS_TOKEN` [default: unset, /metrics is open].
    /// [example: a-long-random-string]
    #[arg(long, env = "TOLK_METRICS_TOKEN")]
    pub metrics_token: Option<String>,
    /// Memory, in MiB, that handling request bodies may take together
    /// (each counts 16 times its size); requests past it wait their turn
    /// (503 after 30 s) [default: 128].
    /// [example: 512]
    #[arg(long, env = "TOLK_BODY_MEMORY")]
    pub body_memory: Option<usize>,
    /// Days finished background tasks are kept, with their result and log
    /// at /api/tasks/ID/ [default: 7].
    /// [example: 30]
    #[arg(long, env = "TOLK_TASK_RETENTION_DAYS")]
    pub task_retention_days: Option<u64>,
}

/// The same settings as read from a TOML file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSettings {
    database_url: Option<String>,
    data_dir: Option<PathBuf>,
    bind: Option<String>,
    site_url: Option<String>,
    site_title: Option<String>,
    workers: Option<usize>,
    db_pool_size: Option<u32>,
    api_ratelimit_anon: Option<String>,
    api_ratelimit_user: Option<String>,
    trusted_proxies: Option<String>,
    vcs_allow_local: Option<bool>,
    vcs_private_allowlist: Option<String>,
    create_glossaries: Option<bool>,
    task_workers: Option<usize>,
    enable_hooks: Option<bool>,
    metrics_token: Option<String>,
    body_memory: Option<usize>,
    git_timeout: Option<u64>,
    task_retention_days: Option<u64>,
}

/// Resolved settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Database URL.
    pub database_url: String,
    /// Directory for Tolk's files.
    pub data_dir: PathBuf,
    /// Listen address.
    pub bind: String,
    /// Public URL of the site.
    pub site_url: String,
    /// Name of the site.
    pub site_title: String,
    /// HTTP worker threads.
    pub workers: usize,
    /// Database pool size.
    pub db_pool_size: u32,
    /// The API's rate limits.
    pub rate_limits: RateLimits,
    /// Proxies whose forwarding headers are believed.
    pub trusted_proxies: TrustedProxies,
    /// Local repository URLs are allowed.
    pub vcs_allow_local: bool,
    /// Hosts allowed to resolve to internal addresses.
    pub vcs_private_allowlist: String,
    /// Projects get a glossary component.
    pub create_glossaries: bool,
    /// Background task workers.
    pub task_workers: usize,
    /// Notifications from Git hosts are accepted.
    pub enable_hooks: bool,
    /// The bearer token `/metrics` asks for, if any.
    pub metrics_token: Option<String>,
    /// Bytes request bodies in flight may take together.
    pub body_memory: usize,
    /// Longest time one Git command may run.
    pub git_timeout: Duration,
    /// How long finished tasks are kept.
    pub task_retention: Duration,
}

/// Why the settings could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is not valid TOML or has unknown keys.
    #[error("invalid configuration in {path}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A setting has a value it cannot take.
    #[error("invalid {name}: {message}")]
    Invalid {
        /// The setting.
        name: &'static str,
        /// What is wrong.
        message: String,
    },
}

/// A rate setting: `off`, a rate, or the default when not given.
fn rate(
    name: &'static str,
    value: Option<String>,
    default: Option<Rate>,
) -> Result<Option<Rate>, ConfigError> {
    match value.as_deref().map(str::trim) {
        None => Ok(default),
        Some("off") => Ok(None),
        Some(text) => text
            .parse()
            .map(Some)
            .map_err(|message| ConfigError::Invalid { name, message }),
    }
}

fn read_file(path: &Path) -> Result<FileSettings, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_owned(),
        source,
    })?;
    toml::from_str(&text).map_err(|e| ConfigError::Parse {
        path: path.to_owned(),
        message: e.to_string(),
    })
}

impl Settings {
    /// Resolves flags over the configuration file over defaults.
    pub fn resolve(storage: &StorageFlags, flags: &ServerFlags) -> Result<Settings, ConfigError> {
        let file = match &storage.config {
            Some(path) => read_file(path)?,
            None => FileSettings::default(),
        };
        // Resolved here, once: every command then names the same
        // directory (and the database in it), wherever it runs from.
        let data_dir = storage
            .data_dir
            .clone()
            .or(file.data_dir)
            .unwrap_or_else(|| PathBuf::from("data"));
        let data_dir = std::path::absolute(&data_dir).map_err(|e| ConfigError::Invalid {
            name: "data_dir",
            message: format!("{}: {e}", data_dir.display()),
        })?;
        let database_url = storage
            .database_url
            .clone()
            .or(file.database_url)
            .unwrap_or_else(|| data_dir.join("tolk.sqlite3").to_string_lossy().into_owned());
        let bind = flags
            .bind
            .clone()
            .or(file.bind)
            .unwrap_or_else(|| "127.0.0.1:8000".into());
        let site_url = flags
            .site_url
            .clone()
            .or(file.site_url)
            .unwrap_or_else(|| format!("http://{bind}"));
        let defaults = RateLimits::default();
        let rate_limits = RateLimits {
            anon: rate(
                "api_ratelimit_anon",
                flags.api_ratelimit_anon.clone().or(file.api_ratelimit_anon),
                defaults.anon,
            )?,
            user: rate(
                "api_ratelimit_user",
                flags.api_ratelimit_user.clone().or(file.api_ratelimit_user),
                defaults.user,
            )?,
        };
        let git_timeout = match storage.git_timeout.or(file.git_timeout).unwrap_or(120) {
            0 => {
                return Err(ConfigError::Invalid {
                    name: "git_timeout",
                    message: "a Git command needs at least 1 second".into(),
                });
            }
            seconds => Duration::from_secs(seconds),
        };
        let retention_days = flags
            .task_retention_days
            .or(file.task_retention_days)
            .unwrap_or(7);
        Ok(Settings {
            git_timeout,
            task_retention: Duration::from_secs(retention_days.saturating_mul(24 * 3600)),
            database_url,
            data_dir,
            site_url: site_url.trim_end_matches('/').to_owned(),
            bind,
            site_title: flags
                .site_title
                .clone()
                .or(file.site_title)
                .unwrap_or_else(|| "Tolk".into()),
            workers: flags
                .workers
                .or(file.workers)
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())),
            db_pool_size: storage.db_pool_size.or(file.db_pool_size).unwrap_or(16),
            rate_limits,
            trusted_proxies: flags
                .trusted_proxies
                .clone()
                .or(file.trusted_proxies)
                .unwrap_or_default()
                .parse()
                .map_err(|message| ConfigError::Invalid {
                    name: "trusted_proxies",
                    message,
                })?,
            vcs_allow_local: storage
                .vcs_allow_local
                .or(file.vcs_allow_local)
                .unwrap_or(false),
            vcs_private_allowlist: storage
                .vcs_private_allowlist
                .clone()
                .or(file.vcs_private_allowlist)
                .unwrap_or_default(),
            create_glossaries: storage
                .create_glossaries
                .or(file.create_glossaries)
                .unwrap_or(true),
            task_workers: flags.task_workers.or(file.task_workers).unwrap_or(2),
            enable_hooks: flags.enable_hooks.or(file.enable_hooks).unwrap_or(false),
            metrics_token: flags
                .metrics_token
                .clone()
                .or(file.metrics_token)
                .filter(|t| !t.is_empty()),
            body_memory: flags
                .body_memory
                .or(file.body_memory)
                .unwrap_or(tolk_api::BODY_MEMORY_MIB)
                .saturating_mul(1024 * 1024),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults() {
        let s = Settings::resolve(&StorageFlags::default(), &ServerFlags::default()).unwrap();
        assert_eq!(s.bind, "127.0.0.1:8000");
        let data = std::env::current_dir().unwrap().join("data");
        assert_eq!(s.data_dir, data);
        assert_eq!(s.database_url, data.join("tolk.sqlite3").to_string_lossy());
        assert_eq!(s.site_url, "http://127.0.0.1:8000");
        assert_eq!(s.site_title, "Tolk");
        assert_eq!(s.rate_limits, RateLimits::default());
        assert_eq!(s.git_timeout, Duration::from_secs(120));
        assert_eq!(s.task_retention, Duration::from_secs(7 * 24 * 3600));
    }

    #[test]
    fn git_timeout_and_task_retention_are_settings() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tolk.toml");
        std::fs::write(&path, "git_timeout = 600\ntask_retention_days = 30\n").unwrap();
        let storage = StorageFlags {
            config: Some(path),
            ..StorageFlags::default()
        };
        let s = Settings::resolve(&storage, &ServerFlags::default()).unwrap();
        assert_eq!(s.git_timeout, Duration::from_secs(600));
        assert_eq!(s.task_retention, Duration::from_secs(30 * 24 * 3600));
        let flags = ServerFlags {
            task_retention_days: Some(0),
            ..ServerFlags::default()
        };
        let none_kept = StorageFlags {
            git_timeout: Some(5),
            ..storage.clone()
        };
        let s = Settings::resolve(&none_kept, &flags).unwrap();
        assert_eq!(s.git_timeout, Duration::from_secs(5));
        assert_eq!(s.task_retention, Duration::ZERO);
        let never = StorageFlags {
            git_timeout: Some(0),
            ..storage
        };
        let err = Settings::resolve(&never, &flags).unwrap_err().to_string();
        assert_eq!(
            err,
            "invalid git_timeout: a Git command needs at least 1 second"
        );
    }

    #[test]
    fn rate_limits_can_be_set_or_turned_off() {
        let flags = ServerFlags {
            api_ratelimit_anon: Some("off".into()),
            api_ratelimit_user: Some("10/minute".into()),
            ..ServerFlags::default()
        };
        let s = Settings::resolve(&StorageFlags::default(), &flags).unwrap();
        assert_eq!(s.rate_limits.anon, None);
        assert_eq!(s.rate_limits.user, Some("10/m".parse().unwrap()));
        let bad = ServerFlags {
            api_ratelimit_user: Some("10 per minute".into()),
            ..ServerFlags::default()
        };
        let err = Settings::resolve(&StorageFlags::default(), &bad)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("invalid api_ratelimit_user: invalid rate"),
            "{err}"
        );
    }

    #[test]
    fn flags_override_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tolk.toml");
        std::fs::write(
            &path,
            "bind = \"0.0.0.0:9000\"\nsite_url = \"https://l10n.example.com/\"\ndata_dir = \"/srv/tolk\"\n",
        )
        .unwrap();
        let storage = StorageFlags {
            config: Some(path.clone()),
            ..StorageFlags::default()
        };
        let flags = ServerFlags {
            bind: Some("127.0.0.1:7000".into()),
            ..ServerFlags::default()
        };
        let s = Settings::resolve(&storage, &flags).unwrap();
        assert_eq!(s.bind, "127.0.0.1:7000");
        assert_eq!(s.site_url, "https://l10n.example.com");
        assert_eq!(s.database_url, "/srv/tolk/tolk.sqlite3");

        std::fs::write(&path, "bnid = 1\n").unwrap();
        let err = Settings::resolve(&storage, &flags).unwrap_err();
        assert!(err.to_string().contains("unknown field"), "{err}");
    }
}
