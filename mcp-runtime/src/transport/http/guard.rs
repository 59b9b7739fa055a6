//! Host and Origin checks against DNS rebinding: a web page must not reach a local server by
//! pointing a domain of its own at 127.0.0.1.

use axum::http::{HeaderMap, header};

/// Which `Host` (and `Origin` host) values the endpoint accepts.
#[derive(Clone, Debug)]
pub struct HostPolicy {
    /// Accepted host names (`localhost`, `127.0.0.1`, `[::1]`, `example.com`); `None` accepts
    /// any.
    hosts: Option<Vec<String>>,
    /// The port the server listens on, when known: a host naming another port is refused.
    port: Option<u16>,
}

impl HostPolicy {
    /// `localhost`, `127.0.0.1` and `[::1]` (with the server's port, when serving on its own).
    pub fn local() -> HostPolicy {
        HostPolicy {
            hosts: Some(vec!["localhost".into(), "127.0.0.1".into(), "[::1]".into()]),
            port: None,
        }
    }

    /// Exactly these host names (any port).
    pub fn only(hosts: impl IntoIterator<Item = impl Into<String>>) -> HostPolicy {
        HostPolicy {
            hosts: Some(hosts.into_iter().map(Into::into).collect()),
            port: None,
        }
    }

    /// Any host: for deployments where a proxy in front does the checking.
    pub fn any() -> HostPolicy {
        HostPolicy {
            hosts: None,
            port: None,
        }
    }

    pub(crate) fn with_port(mut self, port: u16) -> HostPolicy {
        self.port = Some(port);
        self
    }

    fn accepts(&self, host_and_port: &str) -> bool {
        let Some(hosts) = &self.hosts else {
            return true;
        };
        let (host, port) = split_port(host_and_port);
        let port_ok = match (self.port, port) {
            (Some(expected), Some(port)) => port == expected,
            _ => true,
        };
        port_ok && hosts.iter().any(|h| h.eq_ignore_ascii_case(host))
    }

    /// `Err(reason)` when the request's Host or Origin is not allowed.
    pub(crate) fn check(&self, headers: &HeaderMap) -> Result<(), String> {
        if let Some(host) = headers.get(header::HOST) {
            let host = host.to_str().unwrap_or("");
            if !self.accepts(host) {
                return Err(format!(
                    "the Host `{host}` is not allowed: list it in `HttpOptions::hosts(HostPolicy::only([...]))` to accept it"
                ));
            }
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            let authority = origin
                .split_once("://")
                .map_or(origin, |(_, rest)| rest)
                .trim_end_matches('/');
            if origin != "null" && !self.accepts(authority)
                || origin == "null" && self.hosts.is_some()
            {
                return Err(format!("the Origin `{origin}` is not allowed"));
            }
        }
        Ok(())
    }
}

/// `("[::1]", Some(8080))` from `[::1]:8080`, `("localhost", None)` from `localhost`.
fn split_port(value: &str) -> (&str, Option<u16>) {
    if let Some(end) = value.find(']') {
        let (host, rest) = value.split_at(end + 1);
        return (host, rest.strip_prefix(':').and_then(|p| p.parse().ok()));
    }
    match value.rsplit_once(':') {
        Some((host, port)) => (host, port.parse().ok()),
        None => (value, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(*k, v.parse().unwrap());
        }
        map
    }

    #[test]
    fn local_hosts_pass_and_others_do_not() {
        let policy = HostPolicy::local().with_port(3000);
        assert!(
            policy
                .check(&headers(&[("host", "localhost:3000")]))
                .is_ok()
        );
        assert!(
            policy
                .check(&headers(&[("host", "127.0.0.1:3000")]))
                .is_ok()
        );
        assert!(policy.check(&headers(&[("host", "[::1]:3000")])).is_ok());
        assert!(
            policy
                .check(&headers(&[("host", "evil.example:3000")]))
                .is_err()
        );
        assert!(
            policy
                .check(&headers(&[("host", "localhost:4000")]))
                .is_err()
        );
        assert!(
            policy
                .check(&headers(&[
                    ("host", "localhost:3000"),
                    ("origin", "http://evil.example")
                ]))
                .is_err()
        );
        assert!(
            policy
                .check(&headers(&[
                    ("host", "localhost:3000"),
                    ("origin", "http://localhost:3000")
                ]))
                .is_ok()
        );
        assert!(
            HostPolicy::any()
                .check(&headers(&[("host", "evil.example")]))
                .is_ok()
        );
    }
}
