//! Notifications from Git hosts (§26): what a push event names (the
//! repository's possible URLs, the branch, `owner/name`) read from each
//! service's own payload, and which component repositories it matches.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::Value;

/// The Git hosts whose notifications Tolk reads.
pub const SERVICES: [&str; 8] = [
    "github",
    "gitlab",
    "bitbucket",
    "pagure",
    "azure",
    "gitea",
    "forgejo",
    "gitee",
];

/// What a URL path escapes of a name: all but letters, digits and `_.-~/`.
const QUOTED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'_')
    .remove(b'.')
    .remove(b'-')
    .remove(b'~')
    .remove(b'/');

/// What a push notification says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushEvent {
    /// The repository's address as the host shows it.
    pub repo_url: String,
    /// Every address the repository may be cloned from.
    pub repos: Vec<String>,
    /// The pushed branch, without `refs/heads/`; none when the payload has none.
    pub branch: Option<String>,
    /// `owner/name` of the repository, when the payload gives it.
    pub full_name: Option<String>,
}

/// Why a payload cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HookError {
    /// Not a service Tolk knows.
    #[error("Hook {0} not supported")]
    Unsupported(String),
    /// The payload lacks what the service's events carry.
    #[error("Invalid data in json payload{}", .0.as_ref().map(|r| format!(": {r}")).unwrap_or_else(|| "!".into()))]
    Invalid(Option<String>),
}

/// The request headers a service's events are told apart by.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventHeaders {
    /// GitHub's `X-GitHub-Event`.
    pub github_event: Option<String>,
    /// Bitbucket's `X-Event-Key`.
    pub bitbucket_event: Option<String>,
}

fn text<'a>(value: &'a Value, path: &[&str]) -> Option<&'a str> {
    path.iter()
        .try_fold(value, |v, key| v.get(key))
        .and_then(Value::as_str)
}

fn required<'a>(value: &'a Value, path: &[&str]) -> Result<&'a str, HookError> {
    text(value, path).ok_or(HookError::Invalid(None))
}

fn branch_of(reference: &str) -> String {
    reference
        .strip_prefix("refs/heads/")
        .unwrap_or(reference)
        .to_owned()
}

fn dedup_sorted(mut repos: Vec<String>) -> Vec<String> {
    repos.sort();
    repos.dedup();
    repos
}

/// Reads a notification of `service`: the push it reports, `None` for
/// events that are not pushes (pings), or why it cannot be read.
pub fn parse(
    service: &str,
    headers: &EventHeaders,
    payload: &Value,
) -> Result<Option<PushEvent>, HookError> {
    if payload.as_object().is_none_or(|o| o.is_empty()) {
        return Err(HookError::Invalid(None));
    }
    match service {
        "github" => github(headers, payload),
        "gitlab" => gitlab(payload),
        "bitbucket" => bitbucket(headers, payload),
        "pagure" => pagure(payload),
        "azure" => azure(payload),
        "gitea" | "forgejo" => gitea(payload).map(Some),
        "gitee" => gitee(payload).map(Some),
        other => Err(HookError::Unsupported(other.to_owned())),
    }
}

fn github(headers: &EventHeaders, payload: &Value) -> Result<Option<PushEvent>, HookError> {
    if headers.github_event.as_deref() != Some("push") {
        return Ok(None);
    }
    let owner = text(payload, &["repository", "owner", "login"])
        .or_else(|| text(payload, &["repository", "owner", "name"]))
        .ok_or(HookError::Invalid(None))?;
    let name = required(payload, &["repository", "name"])?;
    let reference = required(payload, &["ref"])?;
    let repos = if text(payload, &["repository", "clone_url"]).is_some() {
        let mut repos = Vec::new();
        for key in [
            "clone_url",
            "git_url",
            "ssh_url",
            "svn_url",
            "html_url",
            "url",
        ] {
            if let Some(url) = text(payload, &["repository", key]) {
                repos.push(url.to_owned());
                repos.push(url.strip_suffix(".git").unwrap_or(url).to_owned());
            }
        }
        dedup_sorted(repos)
    } else {
        let path = format!("{owner}/{name}");
        vec![
            format!("git://github.com/{path}.git"),
            format!("git://github.com/{path}"),
            format!("https://github.com/{path}.git"),
            format!("https://github.com/{path}"),
            format!("git@github.com:{path}.git"),
            format!("git@github.com:{path}"),
        ]
    };
    Ok(Some(PushEvent {
        repo_url: text(payload, &["repository", "url"])
            .unwrap_or_default()
            .to_owned(),
        repos,
        branch: Some(branch_of(reference)),
        full_name: Some(format!("{owner}/{name}")),
    }))
}

fn gitlab(payload: &Value) -> Result<Option<PushEvent>, HookError> {
    let Some(reference) = payload.get("ref") else {
        return Ok(None);
    };
    let reference = reference.as_str().ok_or(HookError::Invalid(None))?;
    let homepage = required(payload, &["repository", "homepage"])?;
    let mut repos = Vec::new();
    for url in [
        text(payload, &["repository", "url"]).map(str::to_owned),
        Some(format!("{homepage}.git")),
        text(payload, &["repository", "git_http_url"]).map(str::to_owned),
        text(payload, &["repository", "git_ssh_url"]).map(str::to_owned),
        Some(homepage.to_owned()),
    ]
    .into_iter()
    .flatten()
    {
        if !repos.contains(&url) {
            repos.push(url);
        }
    }
    Ok(Some(PushEvent {
        repo_url: homepage.to_owned(),
        repos,
        branch: Some(branch_of(reference)),
        full_name: text(payload, &["project", "path_with_namespace"]).map(str::to_owned),
    }))
}

const BITBUCKET_PUSHES: [&str; 4] = [
    "repo:push",
    "repo:refs_changed",
    "pullrequest:fulfilled",
    "pr:merged",
];

fn bitbucket(headers: &EventHeaders, payload: &Value) -> Result<Option<PushEvent>, HookError> {
    if !headers
        .bitbucket_event
        .as_deref()
        .is_some_and(|e| BITBUCKET_PUSHES.contains(&e))
    {
        return Ok(None);
    }
    let repository = payload
        .pointer("/pullRequest/fromRef/repository")
        .or_else(|| payload.get("repository"))
        .ok_or(HookError::Invalid(None))?;
    let name = text(repository, &["full_name"])
        .or_else(|| text(repository, &["fullName"]))
        .map(str::to_owned)
        .or_else(|| {
            let slug = text(repository, &["slug"])?;
            let owner =
                text(repository, &["owner"]).or_else(|| text(repository, &["project", "key"]))?;
            Some(format!("{owner}/{slug}"))
        })
        .ok_or(HookError::Invalid(None))?;
    let repo_url = text(repository, &["links", "html", "href"])
        .map(str::to_owned)
        .or_else(|| {
            repository
                .pointer("/links/self/0/href")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .or_else(|| {
            Some(format!(
                "{}{}",
                text(payload, &["canon_url"])?,
                text(repository, &["absolute_url"])?
            ))
        })
        .unwrap_or_default();
    let changes = payload
        .get("changes")
        .or_else(|| payload.pointer("/push/changes"))
        .or_else(|| payload.get("commits"))
        .and_then(Value::as_array)
        .and_then(|list| list.last());
    let branch = changes
        .and_then(|c| {
            text(c, &["branch"])
                .or_else(|| text(c, &["new", "name"]))
                .or_else(|| text(c, &["old", "name"]))
                .or_else(|| text(c, &["ref", "displayId"]))
        })
        .or_else(|| text(payload, &["pullrequest", "destination", "branch", "name"]))
        .map(branch_of);
    let clones: Vec<String> = repository
        .pointer("/links/clone")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|l| text(l, &["href"]).map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let repos = if clones.is_empty() {
        let mut servers = vec!["bitbucket.org".to_owned()];
        if let Some(host) = address(&repo_url).map(|a| a.host)
            && !servers.contains(&host)
        {
            servers.push(host);
        }
        let scm = text(repository, &["scm"]);
        let mut repos = Vec::new();
        for s in &servers {
            if scm != Some("hg") {
                repos.extend([
                    format!("ssh://git@{s}/{name}.git"),
                    format!("ssh://git@{s}/{name}"),
                    format!("git@{s}:{name}.git"),
                    format!("git@{s}:{name}"),
                    format!("https://{s}/{name}.git"),
                    format!("https://{s}/{name}"),
                ]);
            }
            if scm != Some("git") {
                repos.extend([
                    format!("https://{s}/{name}"),
                    format!("ssh://hg@{s}/{name}"),
                    format!("hg::ssh://hg@{s}/{name}"),
                    format!("hg::https://{s}/{name}"),
                ]);
            }
        }
        repos
    } else {
        clones
    };
    if repos.is_empty() {
        return Err(HookError::Invalid(None));
    }
    Ok(Some(PushEvent {
        repo_url,
        repos,
        branch,
        full_name: Some(name),
    }))
}

fn pagure(payload: &Value) -> Result<Option<PushEvent>, HookError> {
    if payload.get("msg").is_none() || text(payload, &["topic"]) != Some("git.receive") {
        return Ok(None);
    }
    let host = required(payload, &["msg", "pagure_instance"])?;
    let host = host.trim_end_matches('/');
    let host = host.split_once("://").map_or(host, |(_, h)| h);
    let project = required(payload, &["msg", "project_fullname"])?;
    let branch = required(payload, &["msg", "branch"])?;
    Ok(Some(PushEvent {
        repo_url: format!("https://{host}/{project}"),
        repos: vec![
            format!("https://{host}/{project}"),
            format!("https://{host}/{project}.git"),
            format!("ssh://git@{host}/{project}"),
            format!("ssh://git@{host}/{project}.git"),
        ],
        branch: Some(branch_of(branch)),
        full_name: Some(project.to_owned()),
    }))
}

fn azure(payload: &Value) -> Result<Option<PushEvent>, HookError> {
    if text(payload, &["eventType"]) != Some("git.push") {
        return Ok(None);
    }
    let repository = payload
        .pointer("/resource/repository")
        .ok_or(HookError::Invalid(None))?;
    let remote = required(repository, &["remoteUrl"])?;
    let reference = payload
        .pointer("/resource/refUpdates/0/name")
        .and_then(Value::as_str)
        .ok_or(HookError::Invalid(None))?;
    let organization = regex::Regex::new(
        r"^https://(?:[^@/]+@)?(?:dev\.azure\.com/([^/]+)|([^./@]+)\.visualstudio\.com)",
    )
    .ok()
    .and_then(|re| re.captures(remote))
    .and_then(|c| c.get(1).or_else(|| c.get(2)))
    .map(|m| m.as_str().to_owned());
    let name = required(repository, &["name"])?;
    let repos = match organization {
        Some(org) => {
            let project = required(repository, &["project", "name"])?;
            let project_id = text(repository, &["project", "id"]).unwrap_or(project);
            let repo_id = text(repository, &["id"]).unwrap_or(name);
            let quote = |s: &str| utf8_percent_encode(s, QUOTED).to_string();
            let mut repos = Vec::new();
            for (p, r) in [
                (project.to_owned(), name.to_owned()),
                (quote(project), quote(name)),
            ] {
                repos.extend([
                    format!("https://dev.azure.com/{org}/{p}/_git/{r}"),
                    format!("git@ssh.dev.azure.com:v3/{org}/{p}/{r}"),
                    format!("https://{org}.visualstudio.com/{p}/_git/{r}"),
                    format!("{org}@vs-ssh.visualstudio.com:v3/{org}/{p}/{r}"),
                ]);
            }
            repos.push(format!(
                "https://dev.azure.com/{org}/{project_id}/_git/{repo_id}"
            ));
            dedup_sorted(repos)
        }
        None => vec![remote.to_owned()],
    };
    Ok(Some(PushEvent {
        repo_url: remote.to_owned(),
        repos,
        branch: Some(branch_of(reference)),
        full_name: Some(name.to_owned()),
    }))
}

fn gitea(payload: &Value) -> Result<PushEvent, HookError> {
    let html = required(payload, &["repository", "html_url"])?;
    let clone = required(payload, &["repository", "clone_url"])?;
    let ssh = required(payload, &["repository", "ssh_url"])?;
    let reference = required(payload, &["ref"])?;
    let full_name = text(payload, &["repository", "full_name"]).map(str::to_owned);
    let mut repos = vec![clone.to_owned(), ssh.to_owned(), html.to_owned()];
    if let Some(name) = &full_name {
        for url in [clone, ssh] {
            let Some(a) = address(url).filter(|a| a.user.is_some() && a.path == *name) else {
                continue;
            };
            let user = a.user.unwrap_or_default();
            let port = a.port.map(|p| format!(":{p}")).unwrap_or_default();
            repos.push(format!("ssh://{user}@{}{port}/{name}", a.host));
            repos.push(format!("ssh://{user}@{}{port}/{name}.git", a.host));
            if a.port.is_none_or(|p| p == 22) {
                repos.push(format!("{user}@{}:{name}", a.host));
                repos.push(format!("{user}@{}:{name}.git", a.host));
            }
        }
    }
    let mut unique = Vec::new();
    for url in repos {
        if !unique.contains(&url) {
            unique.push(url);
        }
    }
    Ok(PushEvent {
        repo_url: html.to_owned(),
        repos: unique,
        branch: Some(branch_of(reference)),
        full_name,
    })
}

fn gitee(payload: &Value) -> Result<PushEvent, HookError> {
    let html = required(payload, &["repository", "html_url"])?;
    let reference = required(payload, &["ref"])?;
    let repos = [
        "html_url",
        "git_http_url",
        "git_ssh_url",
        "git_url",
        "ssh_url",
    ]
    .iter()
    .filter_map(|k| text(payload, &["repository", k]).map(str::to_owned))
    .collect();
    Ok(PushEvent {
        repo_url: html.to_owned(),
        repos,
        branch: Some(branch_of(reference)),
        full_name: text(payload, &["repository", "path_with_namespace"]).map(str::to_owned),
    })
}

/// The parts of a repository address that name it: user, host, port
/// (other than the scheme's default) and path without `.git`, lower case.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Address {
    user: Option<String>,
    host: String,
    port: Option<u16>,
    path: String,
}

fn address(url: &str) -> Option<Address> {
    let url = url.strip_prefix("hg::").unwrap_or(url);
    let (authority, path, default_port) = match url.split_once("://") {
        Some((scheme, rest)) => {
            let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
            let default = match scheme {
                "https" => Some(443),
                "http" => Some(80),
                "ssh" => Some(22),
                "git" => Some(9418),
                _ => None,
            };
            (authority, path, default)
        }
        None => {
            let (authority, path) = url.split_once(':')?;
            if authority.contains('/') {
                return None;
            }
            (authority, path, None)
        }
    };
    let (user, host_port) = match authority.rsplit_once('@') {
        Some((user, rest)) => (Some(user.to_owned()), rest),
        None => (None, authority),
    };
    let (host, port) = match host_port.rsplit_once(':') {
        Some((host, port)) if !host.ends_with(']') || host.starts_with('[') => {
            (host, port.parse::<u16>().ok())
        }
        _ => (host_port, None),
    };
    let path = path.trim_matches('/');
    let path = path.strip_suffix(".git").unwrap_or(path).to_lowercase();
    Some(Address {
        user,
        host: host.to_lowercase(),
        port: port.filter(|p| Some(*p) != default_port),
        path,
    })
}

/// How a component's repository matched a push.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchMethod {
    /// The address is one the payload names (perhaps with credentials).
    Exact,
    /// Only the host, port and `owner/name` agree.
    Fallback,
}

impl MatchMethod {
    /// The name recorded in the change's details.
    pub fn name(self) -> &'static str {
        match self {
            MatchMethod::Exact => "exact",
            MatchMethod::Fallback => "fallback",
        }
    }
}

impl PushEvent {
    /// Whether `repo` is exactly one of the event's addresses: equal, with
    /// a trailing `/`, or an `http(s)` address carrying credentials.
    pub fn matches_exactly(&self, repo: &str) -> bool {
        self.repos.iter().any(|candidate| {
            repo == candidate
                || repo.strip_suffix('/') == Some(candidate.as_str())
                || ["http://", "https://"].iter().any(|scheme| {
                    candidate.strip_prefix(scheme).is_some_and(|rest| {
                        repo.starts_with(scheme) && repo.ends_with(&format!("@{rest}"))
                    })
                })
        })
    }

    /// `owner/name` when it can tell repositories apart: two or more parts
    /// and a name of three characters or more.
    fn fallback_name(&self) -> Option<String> {
        let name = self.full_name.as_deref()?.trim_matches('/');
        let parts: Vec<&str> = name.split('/').collect();
        let last = parts.last()?.strip_suffix(".git").unwrap_or(parts.last()?);
        (parts.len() >= 2 && parts.iter().all(|p| !p.is_empty()) && last.chars().count() >= 3)
            .then(|| name.strip_suffix(".git").unwrap_or(name).to_lowercase())
    }

    /// Whether `repo` names the event's repository on the same host and
    /// port, by `owner/name` (used only when nothing matched exactly).
    pub fn matches_by_name(&self, repo: &str) -> bool {
        let Some(name) = self.fallback_name() else {
            return false;
        };
        let lower = repo.to_lowercase();
        let ends = [name.clone(), format!("{name}/"), format!("{name}.git")]
            .iter()
            .any(|end| lower.ends_with(end.as_str()));
        let Some(own) = address(repo) else {
            return false;
        };
        ends && self.repos.iter().filter_map(|c| address(c)).any(|a| {
            a.path == name
                && !["localhost", "127.0.0.1", "[::1]", "::1"].contains(&a.host.as_str())
                && (a.host.as_str(), a.port, a.path.as_str())
                    == (own.host.as_str(), own.port, own.path.as_str())
        })
    }

    /// The suffixes a component's repository ends with when the event may
    /// match it (exact or by name), lower case, for narrowing a search.
    pub fn suffixes(&self) -> Vec<String> {
        let mut suffixes: Vec<String> = self
            .repos
            .iter()
            .map(|c| {
                let rest = c.split_once("://").map_or(c.as_str(), |(_, r)| r);
                rest.to_lowercase()
            })
            .collect();
        if let Some(name) = self.fallback_name() {
            suffixes.extend([name.clone(), format!("{name}/"), format!("{name}.git")]);
        }
        suffixes.sort();
        suffixes.dedup();
        suffixes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn push(service: &str, event: Option<&str>, payload: Value) -> Option<PushEvent> {
        let headers = EventHeaders {
            github_event: event.map(str::to_owned),
            bitbucket_event: event.map(str::to_owned),
        };
        parse(service, &headers, &payload).unwrap()
    }

    #[test]
    fn github_pushes_name_every_address_and_pings_are_not_pushes() {
        let payload = json!({
            "ref": "refs/heads/main",
            "repository": {
                "name": "app", "owner": {"login": "acme"},
                "url": "https://github.com/acme/app",
                "clone_url": "https://github.com/acme/app.git",
                "ssh_url": "git@github.com:acme/app.git",
            }
        });
        let event = push("github", Some("push"), payload.clone()).unwrap();
        assert_eq!(event.branch.as_deref(), Some("main"));
        assert_eq!(event.full_name.as_deref(), Some("acme/app"));
        assert!(event.matches_exactly("git@github.com:acme/app.git"));
        assert!(event.matches_exactly("https://github.com/acme/app/"));
        assert!(event.matches_exactly("https://bot:secret@github.com/acme/app.git"));
        assert!(!event.matches_exactly("https://github.com/acme/other.git"));
        assert_eq!(push("github", Some("ping"), payload.clone()), None);
        assert_eq!(push("github", None, payload), None);
    }

    #[test]
    fn generated_addresses_without_clone_urls() {
        let payload = json!({"ref": "main", "repository": {"name": "app", "owner": {"name": "acme"}, "url": "x"}});
        let event = push("github", Some("push"), payload).unwrap();
        assert!(
            event
                .repos
                .contains(&"git://github.com/acme/app.git".to_owned())
        );
        assert_eq!(event.repos.len(), 6);
    }

    #[test]
    fn services_read_their_own_shapes() {
        let gitlab = push(
            "gitlab",
            None,
            json!({"ref": "refs/heads/dev", "project": {"path_with_namespace": "g/app"},
                   "repository": {"url": "git@gitlab.com:g/app.git", "homepage": "https://gitlab.com/g/app",
                                  "git_http_url": "https://gitlab.com/g/app.git", "git_ssh_url": "git@gitlab.com:g/app.git"}}),
        )
        .unwrap();
        assert_eq!(gitlab.repos.len(), 3);
        assert_eq!(gitlab.branch.as_deref(), Some("dev"));
        let pagure = push(
            "pagure",
            None,
            json!({"topic": "git.receive", "msg": {"pagure_instance": "https://pagure.io/", "project_fullname": "tool", "branch": "main"}}),
        )
        .unwrap();
        assert!(pagure.matches_exactly("ssh://git@pagure.io/tool.git"));
        let azure = push(
            "azure",
            None,
            json!({"eventType": "git.push", "resource": {"refUpdates": [{"name": "refs/heads/main"}],
                   "repository": {"name": "My Repo", "id": "r1", "remoteUrl": "https://acme@dev.azure.com/acme/Proj/_git/My%20Repo",
                                  "project": {"name": "Proj", "id": "p1"}}}}),
        )
        .unwrap();
        assert!(azure.matches_exactly("https://dev.azure.com/acme/Proj/_git/My%20Repo"));
        assert!(azure.matches_exactly("git@ssh.dev.azure.com:v3/acme/Proj/My Repo"));
        let gitea = push(
            "gitea",
            None,
            json!({"ref": "refs/heads/main", "repository": {"html_url": "https://git.example/o/app",
                   "clone_url": "https://git.example/o/app.git", "ssh_url": "ssh://git@git.example:2222/o/app.git", "full_name": "o/app"}}),
        )
        .unwrap();
        assert!(gitea.matches_exactly("ssh://git@git.example:2222/o/app"));
        let bitbucket = push(
            "bitbucket",
            Some("repo:push"),
            json!({"repository": {"full_name": "team/app", "scm": "git", "links": {"html": {"href": "https://bitbucket.org/team/app"}}},
                   "push": {"changes": [{"new": {"name": "main"}}]}}),
        )
        .unwrap();
        assert!(bitbucket.matches_exactly("git@bitbucket.org:team/app.git"));
        assert_eq!(bitbucket.branch.as_deref(), Some("main"));
        assert_eq!(
            push("bitbucket", Some("diagnostics:ping"), json!({"a": 1})),
            None
        );
    }

    #[test]
    fn bad_payloads_and_services() {
        let headers = EventHeaders::default();
        assert_eq!(
            parse("gitlab", &headers, &json!({})),
            Err(HookError::Invalid(None))
        );
        assert_eq!(
            parse("gitea", &headers, &json!({"ref": "x"})),
            Err(HookError::Invalid(None))
        );
        assert_eq!(
            parse("svn", &headers, &json!({"a": 1}))
                .unwrap_err()
                .to_string(),
            "Hook svn not supported"
        );
        assert_eq!(
            HookError::Invalid(None).to_string(),
            "Invalid data in json payload!"
        );
    }

    #[test]
    fn fallback_matches_owner_and_name_on_the_same_host() {
        let event = PushEvent {
            repo_url: String::new(),
            repos: vec!["https://git.example/Acme/App.git".into()],
            branch: None,
            full_name: Some("acme/app".into()),
        };
        assert!(event.matches_by_name("https://mirror@git.example/acme/app"));
        assert!(!event.matches_by_name("https://other.example/acme/app"));
        let short = PushEvent {
            full_name: Some("acme/ab".into()),
            ..event
        };
        assert!(!short.matches_by_name("https://git.example/acme/ab"));
    }
}
