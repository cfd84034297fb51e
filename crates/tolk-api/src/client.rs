//! Who the client is and what it asked for, behind proxies or not: the
//! one place `X-Forwarded-*` headers are read, and only when the request
//! comes from a trusted proxy (`TOLK_TRUSTED_PROXIES`). Links are built
//! from the scheme and host it finds; the throttle keys on its address.

use std::net::IpAddr;

use actix_web::HttpRequest;
use actix_web::http::header::HOST;
use actix_web::web;

/// Addresses (and networks, `10.0.0.0/8`, `fd00::/8`) of the proxies whose
/// forwarding headers are believed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<(IpAddr, u8)>);

impl std::str::FromStr for TrustedProxies {
    type Err = String;

    /// Reads a comma-separated list of addresses and networks.
    fn from_str(text: &str) -> Result<Self, String> {
        text.split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(|item| {
                let (address, bits) = item.split_once('/').unwrap_or((item, ""));
                let address: IpAddr = address
                    .parse()
                    .map_err(|_| format!("{item:?} is not an address or network"))?;
                let most = if address.is_ipv4() { 32 } else { 128 };
                let bits = if bits.is_empty() {
                    most
                } else {
                    bits.parse::<u8>()
                        .ok()
                        .filter(|b| *b <= most)
                        .ok_or_else(|| format!("{item:?} has a bad prefix length"))?
                };
                Ok((address, bits))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(TrustedProxies)
    }
}

impl TrustedProxies {
    /// True when `address` is one of the trusted proxies.
    pub fn trusts(&self, address: IpAddr) -> bool {
        self.0
            .iter()
            .any(|(network, bits)| within(address, *network, *bits))
    }
}

/// True when `address` lies in `network/bits`.
fn within(address: IpAddr, network: IpAddr, bits: u8) -> bool {
    let (a, n, width) = match (address.to_canonical(), network.to_canonical()) {
        (IpAddr::V4(a), IpAddr::V4(n)) => (u128::from(u32::from(a)), u128::from(u32::from(n)), 32),
        (IpAddr::V6(a), IpAddr::V6(n)) => (u128::from(a), u128::from(n), 128),
        _ => return false,
    };
    let shift = width - u32::from(bits);
    shift >= width || (a >> shift) == (n >> shift)
}

/// The client of one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Client {
    /// Its address: the peer's, or behind trusted proxies the last
    /// untrusted address they forwarded for.
    pub address: String,
    /// The scheme it used (`http`, `https`).
    pub scheme: String,
    /// The host and port it asked for.
    pub host: String,
}

impl Client {
    /// Reads the client of `req`, believing forwarding headers only from
    /// trusted proxies.
    pub fn of(req: &HttpRequest) -> Client {
        let peer = req.peer_addr().map(|a| a.ip());
        let trusted = req.app_data::<web::Data<TrustedProxies>>();
        let header = |name: &str| {
            req.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(|v| v.split(',').map(str::trim).collect::<Vec<_>>())
                .unwrap_or_default()
        };
        let own_host = req
            .headers()
            .get(HOST)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .unwrap_or_else(|| req.app_config().host().to_owned());
        let own_scheme = if req.app_config().secure() {
            "https"
        } else {
            "http"
        };
        let mut client = Client {
            address: peer.map_or_else(|| "unknown".to_owned(), |a| a.to_string()),
            scheme: own_scheme.to_owned(),
            host: own_host,
        };
        let (Some(peer), Some(trusted)) = (peer, trusted) else {
            return client;
        };
        if !trusted.trusts(peer) {
            return client;
        }
        // The nearest address the trusted proxies did not add themselves.
        let forwarded: Vec<IpAddr> = header("x-forwarded-for")
            .iter()
            .filter_map(|a| a.parse().ok())
            .collect();
        if let Some(address) = forwarded
            .iter()
            .rev()
            .find(|a| !trusted.trusts(**a))
            .or(forwarded.first())
        {
            client.address = address.to_string();
        }
        if let Some(scheme) = header("x-forwarded-proto")
            .first()
            .filter(|s| ["http", "https"].contains(s))
        {
            client.scheme = (*scheme).to_owned();
        }
        if let Some(host) = header("x-forwarded-host").first().filter(|h| !h.is_empty()) {
            client.host = (*host).to_owned();
        }
        client
    }

    /// `scheme://host`, the origin of the request's API links.
    pub fn origin(&self) -> String {
        format!("{}://{}", self.scheme, self.host)
    }
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;

    use super::*;

    fn proxies(text: &str) -> TrustedProxies {
        text.parse().unwrap()
    }

    #[test]
    fn addresses_and_networks() {
        let trusted = proxies("127.0.0.1, 10.0.0.0/8, fd00::/8");
        for yes in ["127.0.0.1", "10.20.30.40", "fd12::1", "::ffff:10.1.1.1"] {
            assert!(trusted.trusts(yes.parse().unwrap()), "{yes}");
        }
        for no in ["127.0.0.2", "11.0.0.1", "fe80::1"] {
            assert!(!trusted.trusts(no.parse().unwrap()), "{no}");
        }
        assert!(proxies("0.0.0.0/0").trusts("8.8.8.8".parse().unwrap()));
        assert!("10.0.0.0/33".parse::<TrustedProxies>().is_err());
        assert!("proxy.example".parse::<TrustedProxies>().is_err());
        assert_eq!(proxies(""), TrustedProxies::default());
    }

    fn client(peer: &str, trusted: &str) -> Client {
        let req = TestRequest::get()
            .uri("/api/")
            .peer_addr(format!("{peer}:4000").parse().unwrap())
            .insert_header(("host", "tolk.internal:8000"))
            .insert_header(("x-forwarded-for", "203.0.113.9, 198.51.100.7, 10.0.0.2"))
            .insert_header(("x-forwarded-proto", "https"))
            .insert_header(("x-forwarded-host", "l10n.example.com"))
            .app_data(web::Data::new(proxies(trusted)))
            .to_http_request();
        Client::of(&req)
    }

    #[test]
    fn forwarding_headers_count_only_from_trusted_proxies() {
        let direct = client("198.51.100.50", "10.0.0.0/8");
        assert_eq!(direct.address, "198.51.100.50");
        assert_eq!(direct.origin(), "http://tolk.internal:8000");
        let proxied = client("10.0.0.1", "10.0.0.0/8");
        assert_eq!(
            proxied.address, "198.51.100.7",
            "the last address no trusted proxy added"
        );
        assert_eq!(proxied.origin(), "https://l10n.example.com");
    }
}
