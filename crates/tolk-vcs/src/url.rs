//! Which repository URLs Tolk may fetch from and push to.
//!
//! A URL a user gives makes the server connect somewhere, so it passes one
//! policy before Git sees it: no command transports (`ext::`, `fd::`,
//! `transport::address` helpers) and nothing Git could read as an option;
//! `https://`, `ssh://`, `git://` and scp-style `user@host:path` by
//! default; `file://` and local paths only when allowed; and hosts that
//! resolve to loopback, private, link-local or otherwise internal
//! addresses only when listed, so that nobody can make the server probe
//! its own network.

use std::net::{IpAddr, ToSocketAddrs};

use crate::error::VcsError;

/// The rules a repository URL must pass.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UrlPolicy {
    /// Allow `file://` URLs and local paths.
    pub allow_local: bool,
    /// Hosts that may resolve to internal addresses (lower case, as
    /// Weblate's `VCS_PRIVATE_ALLOWLIST`).
    pub private_allowlist: Vec<String>,
}

/// Where a URL points, as far as the policy cares.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Location {
    /// A local path or `file://` URL.
    Local,
    /// A host (and port) on the network.
    Remote { host: String, port: u16 },
}

impl UrlPolicy {
    /// The policy from the settings' text: `allow_local` and a
    /// comma-separated host list.
    pub fn new(allow_local: bool, private_allowlist: &str) -> Self {
        Self {
            allow_local,
            private_allowlist: private_allowlist
                .split(',')
                .map(|h| h.trim().to_ascii_lowercase())
                .filter(|h| !h.is_empty())
                .collect(),
        }
    }

    /// Accepts `url` or says why not, in words for the user.
    pub fn check(&self, url: &str) -> Result<(), VcsError> {
        match locate(url)? {
            Location::Local if self.allow_local => Ok(()),
            Location::Local => Err(refuse(
                "Local repositories are not allowed on this server; \
                 set TOLK_VCS_ALLOW_LOCAL=true to allow them.",
            )),
            Location::Remote { host, port } => self.check_host(&host, port),
        }
    }

    fn check_host(&self, host: &str, port: u16) -> Result<(), VcsError> {
        if self.private_allowlist.iter().any(|h| h == host) {
            return Ok(());
        }
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        let addresses: Vec<IpAddr> = match bare.parse::<IpAddr>() {
            Ok(ip) => vec![ip],
            Err(_) => (bare, port)
                .to_socket_addrs()
                .map_err(|_| VcsError::Unreachable(format!("Could not resolve the host {host}.")))?
                .map(|a| a.ip())
                .collect(),
        };
        if addresses.iter().any(|ip| is_internal(*ip)) {
            return Err(refuse(&format!(
                "The host {host} resolves to an internal address; \
                 list it in TOLK_VCS_PRIVATE_ALLOWLIST to allow it."
            )));
        }
        Ok(())
    }
}

fn refuse(message: &str) -> VcsError {
    VcsError::Url(message.to_owned())
}

/// Tells a URL's kind and host; refuses what Git could misread.
fn locate(url: &str) -> Result<Location, VcsError> {
    if url.is_empty() {
        return Err(refuse("The repository URL is empty."));
    }
    if url.starts_with('-') || url.chars().any(|c| c.is_control() || c == ' ') {
        return Err(refuse(
            "The repository URL contains characters that are not allowed.",
        ));
    }
    if let Some((scheme, rest)) = url.split_once("://") {
        let scheme = scheme.to_ascii_lowercase();
        return match scheme.as_str() {
            "file" => Ok(Location::Local),
            "https" | "ssh" | "git" => remote_of_authority(&scheme, rest),
            _ => Err(refuse(&format!(
                "The URL scheme {scheme}:// is not allowed; use https://, ssh:// or git://."
            ))),
        };
    }
    if url.contains("::") {
        return Err(refuse(
            "Git remote helpers (transport::address) are not allowed.",
        ));
    }
    if url.starts_with('/') || url.starts_with("./") || url.starts_with("../") {
        return Ok(Location::Local);
    }
    // scp-style: [user@]host:path, with the colon before any slash.
    match url.split_once(':') {
        Some((before, path)) if !before.contains('/') && !path.is_empty() => {
            let host = before.rsplit('@').next().unwrap_or(before);
            if host.is_empty() || host.starts_with('-') {
                return Err(refuse("The repository URL has no host."));
            }
            Ok(Location::Remote {
                host: host.to_ascii_lowercase(),
                port: 22,
            })
        }
        _ => Ok(Location::Local),
    }
}

/// The host and port of `scheme://[user[:pass]@]host[:port]/path`.
fn remote_of_authority(scheme: &str, rest: &str) -> Result<Location, VcsError> {
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit('@').next().unwrap_or(authority);
    let (host, port) = if let Some(end) = host_port.strip_prefix('[').and_then(|h| h.find(']')) {
        let host = &host_port[..end + 2];
        let port = host_port[end + 2..].strip_prefix(':');
        (host, port)
    } else {
        match host_port.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (host_port, None),
        }
    };
    if host.is_empty() || host.starts_with('-') {
        return Err(refuse("The repository URL has no host."));
    }
    let default = match scheme {
        "https" => 443,
        "ssh" => 22,
        _ => 9418,
    };
    let port = match port.filter(|p| !p.is_empty()) {
        None => default,
        Some(p) => p
            .parse()
            .map_err(|_| refuse("The repository URL has an invalid port."))?,
    };
    Ok(Location::Remote {
        host: host.to_ascii_lowercase(),
        port,
    })
}

/// True for addresses inside a host or its network: loopback, private,
/// link-local, shared, unspecified, multicast, documentation ranges and
/// their IPv6 counterparts (including IPv4-mapped ones).
fn is_internal(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || v4.is_documentation()
                || a == 0
                || (a == 100 && (64..128).contains(&b))
                || (a == 198 && (b == 18 || b == 19))
                || a >= 240
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_internal(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
        }
    }
}

/// `url` without credentials, as the API shows repository URLs:
/// `https://user:pass@host/x` → `https://host/x`, `ssh://git@host/x` →
/// `ssh://host/x`; scp-style URLs keep their user (it is not a secret).
pub fn strip_credentials(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => format!("{scheme}://{}", &rest[at + 1..]),
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn default() -> UrlPolicy {
        UrlPolicy::default()
    }

    fn refused(policy: &UrlPolicy, url: &str) -> String {
        match policy.check(url) {
            Err(VcsError::Url(message)) => message,
            other => panic!("{url}: {other:?}"),
        }
    }

    #[test]
    fn allows_public_remote_urls() {
        for url in [
            "https://93.184.215.14/x.git",
            "ssh://git@93.184.215.14:2222/x.git",
            "git://93.184.215.14/x",
            "git@93.184.215.14:owner/x.git",
            "https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/x",
        ] {
            default()
                .check(url)
                .unwrap_or_else(|e| panic!("{url}: {e}"));
        }
    }

    #[test]
    fn refuses_transports_options_and_other_schemes() {
        let policy = UrlPolicy {
            allow_local: true,
            ..default()
        };
        assert!(refused(&policy, "ext::sh -c touch% /tmp/x").contains("not allowed"));
        assert!(refused(&policy, "fd::3").contains("remote helpers"));
        assert!(refused(&policy, "--upload-pack=touch /tmp/x").contains("characters"));
        assert!(refused(&policy, "http://example.com/x").contains("http://"));
        assert!(refused(&policy, "ftp://example.com/x").contains("ftp://"));
        assert!(refused(&policy, "https:///x").contains("no host"));
        assert!(refused(&policy, "ssh://-oProxyCommand=x/y").contains("no host"));
        assert!(refused(&policy, "").contains("empty"));
    }

    #[test]
    fn local_paths_need_the_setting() {
        for url in ["/srv/git/x.git", "file:///srv/git/x.git", "./x", "x.git"] {
            assert!(
                refused(&default(), url).ends_with("set TOLK_VCS_ALLOW_LOCAL=true to allow them."),
                "{url}"
            );
            UrlPolicy::new(true, "").check(url).unwrap();
        }
    }

    #[test]
    fn internal_addresses_need_the_allowlist() {
        for url in [
            "https://127.0.0.1/x",
            "https://localhost/x",
            "ssh://10.1.2.3/x",
            "git@192.168.1.1:x",
            "https://169.254.169.254/latest",
            "https://[::1]/x",
            "https://[::ffff:127.0.0.1]/x",
            "https://[fd00::1]/x",
            "https://0.0.0.0/x",
            "https://100.64.0.1/x",
        ] {
            assert!(refused(&default(), url).contains("internal"), "{url}");
        }
        let policy = UrlPolicy::new(false, "localhost, 10.1.2.3");
        policy.check("https://localhost/x").unwrap();
        policy.check("ssh://git@10.1.2.3:22/x").unwrap();
        assert!(refused(&policy, "https://127.0.0.1/x").contains("internal"));
    }

    #[test]
    fn strips_credentials_from_url_style_repositories() {
        assert_eq!(
            strip_credentials("https://u:p@github.com/x.git"),
            "https://github.com/x.git"
        );
        assert_eq!(strip_credentials("ssh://git@host/x"), "ssh://host/x");
        assert_eq!(strip_credentials("git@host:x"), "git@host:x");
        assert_eq!(
            strip_credentials("https://github.com/a@b"),
            "https://github.com/a@b"
        );
    }
}
