//! Opening the database and the service for a command, and reporting a
//! use-case's error on the command line.

use tolk_service::Store;
use tolk_service::{Service, ServiceConfig};

use crate::config::{ServerFlags, Settings, StorageFlags};

/// Resolves the settings of a command that only opens the database.
pub(crate) fn storage_settings(storage: &StorageFlags) -> Result<Settings, String> {
    Settings::resolve(storage, &ServerFlags::default()).map_err(|e| e.to_string())
}

pub(crate) fn open_service(settings: &Settings) -> Result<Service, String> {
    let store =
        Store::open(&settings.database_url, settings.db_pool_size).map_err(|e| e.to_string())?;
    store.migrate().map_err(|e| e.to_string())?;
    let data_dir = &settings.data_dir;
    tracing::info!(
        "database {}, data directory {}",
        redact(&settings.database_url),
        data_dir.display()
    );
    Service::new(
        store,
        ServiceConfig {
            site_title: settings.site_title.clone(),
            site_url: settings.site_url.clone(),
            vcs_root: data_dir.join("vcs"),
            media_root: data_dir.join("media"),
            git: tolk_service::GitConfig {
                allow_local: settings.vcs_allow_local,
                timeout: settings.git_timeout,
                ..tolk_service::GitConfig::new(data_dir.join("home"))
            },
            url_policy: tolk_service::UrlPolicy::new(
                settings.vcs_allow_local,
                &settings.vcs_private_allowlist,
            ),
            task_lease: tolk_service::tasks::DEFAULT_LEASE,
            create_glossaries: settings.create_glossaries,
            task_retention: settings.task_retention,
            generation_trust: tolk_service::DEFAULT_GENERATION_TRUST,
        },
    )
    .map_err(|e| format!("{e} (Tolk needs the git binary)"))
}

/// This machine's name, to tell workers of several instances apart.
pub(crate) fn hostname() -> String {
    std::fs::read_to_string("/etc/hostname")
        .map(|h| h.trim().to_owned())
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "tolk".into())
}

/// A use-case's error as the command line reports it: every invalid field on its own line.
pub(crate) fn describe(error: tolk_service::ServiceError) -> String {
    match error {
        tolk_service::ServiceError::Validation(errors) => errors
            .iter()
            .map(|e| format!("{}: {}", e.attr.as_deref().unwrap_or("input"), e.detail))
            .collect::<Vec<_>>()
            .join("\n"),
        other => other.to_string(),
    }
}

/// A database URL without its password, for the log.
pub(crate) fn redact(url: &str) -> String {
    match (url.split_once("://"), url.rfind('@')) {
        (Some((scheme, rest)), Some(at)) if at > scheme.len() => {
            let credentials = &rest[..at - scheme.len() - 3];
            let user = credentials.split(':').next().unwrap_or("");
            format!("{scheme}://{user}@{}", &url[at + 1..])
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn database_passwords_stay_out_of_the_log() {
        assert_eq!(
            redact("postgres://tolk:secret@db.example:5432/tolk"),
            "postgres://tolk@db.example:5432/tolk"
        );
        assert_eq!(
            redact("postgres://db.example/tolk"),
            "postgres://db.example/tolk"
        );
        assert_eq!(redact("data/tolk.sqlite3"), "data/tolk.sqlite3");
    }
}
