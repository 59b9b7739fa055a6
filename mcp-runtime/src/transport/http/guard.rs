//! The checks a request passes before it reaches a session.
//!
//! Host and Origin, against DNS rebinding: a web page must not reach a local server by pointing
//! a domain of its own at 127.0.0.1. The host is read as HTTP defines it (RFC 9112, section
//! 3.2): from an absolute-form request target when there is one, else from the one `Host`
//! header; an Origin must be a serialized origin (RFC 6454, section 6.2: scheme, host and
//! port, nothing else). Forms no browser sends (two `Host` headers, a target naming another
//! host than `Host`, userinfo or a path in an Origin) are refused rather than interpreted.
//!
//! Media types, for a POST: the body must be JSON, and the client must take a JSON answer.

use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};

/// Which `Host` (and `Origin` host) values the endpoint accepts.
#[derive(Clone, Debug)]
pub struct HostPolicy {
    /// Accepted host names (`localhost`, `127.0.0.1`, `[::1]`, `example.com`); `None` accepts
    /// any.
    hosts: Option<Vec<String>>,
    /// The port the server listens on, when known: a host naming another port is refused.
    port: Option<u16>,
    /// Hosts accepted besides, each with the port it names (a load balancer's public
    /// address), whatever port the server listens on.
    public: Vec<(String, Option<u16>)>,
    /// Values given to [`HostPolicy::only`] or [`HostPolicy::allow`] that no request could
    /// match, with the method: serving refuses to start with them.
    unusable: Vec<(&'static str, String)>,
}

/// Why a request was refused, and with which status.
#[derive(Debug)]
pub(super) struct Refused {
    pub(super) status: StatusCode,
    pub(super) reason: String,
}

impl Refused {
    fn new(status: StatusCode, reason: impl Into<String>) -> Refused {
        Refused {
            status,
            reason: reason.into(),
        }
    }
}

impl HostPolicy {
    /// `localhost`, `127.0.0.1` and `[::1]` (with the server's port, when serving on its own).
    pub fn local() -> HostPolicy {
        HostPolicy {
            hosts: Some(vec!["localhost".into(), "127.0.0.1".into(), "[::1]".into()]),
            port: None,
            public: Vec::new(),
            unusable: Vec::new(),
        }
    }

    /// Exactly these host names: on the server's own port when `serve_http` serves it (which
    /// tells the policy its port), on any port when mounted with `http_router`. A value that
    /// is not a host name or IP address alone (`example.com:443`, `https://example.com`)
    /// would match no request: serving refuses to start with it, naming it.
    pub fn only(hosts: impl IntoIterator<Item = impl Into<String>>) -> HostPolicy {
        let (hosts, unusable): (Vec<String>, Vec<String>) = hosts
            .into_iter()
            .map(Into::into)
            .partition(|host| matches!(split_authority(host), Some((_, None))));
        HostPolicy {
            hosts: Some(hosts),
            port: None,
            public: Vec::new(),
            unusable: unusable
                .into_iter()
                .map(|host| ("HostPolicy::only", host))
                .collect(),
        }
    }

    /// Any host: for deployments where a proxy in front does the checking.
    pub fn any() -> HostPolicy {
        HostPolicy {
            hosts: None,
            port: None,
            public: Vec::new(),
            unusable: Vec::new(),
        }
    }

    /// Accepts `host_and_port` too (`mcp.example.com:443`; a port-less `mcp.example.com`
    /// for any port): the address clients reach the server at through a load balancer or
    /// proxy, which forwards their `Host` unchanged. The other hosts stay refused, so DNS
    /// rebinding stays blocked; prefer this to [`HostPolicy::any`], and to a balancer that
    /// rewrites `Host` (that defeats the check). A value that is not a host and an optional
    /// port (`https://mcp.example.com`, `mcp.example.com/mcp`) would match no request:
    /// serving refuses to start with it, naming it.
    ///
    /// ```
    /// use mcp_runtime::{HostPolicy, HttpOptions};
    ///
    /// let options = HttpOptions::new().hosts(HostPolicy::local().allow("mcp.example.com:443"));
    /// # drop(options);
    /// ```
    #[must_use]
    pub fn allow(mut self, host_and_port: impl Into<String>) -> HostPolicy {
        let value = host_and_port.into();
        match split_authority(&value) {
            Some((host, port)) => self.public.push((host.to_owned(), port)),
            None => self.unusable.push(("HostPolicy::allow", value)),
        }
        self
    }

    /// The values given that no request could match, each with the method it was given to.
    pub(super) fn unusable(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.unusable
            .iter()
            .map(|(method, value)| (*method, value.as_str()))
    }

    pub(crate) fn with_port(mut self, port: u16) -> HostPolicy {
        self.port = Some(port);
        self
    }

    fn accepts(&self, host_and_port: &str) -> bool {
        let Some(hosts) = &self.hosts else {
            return true;
        };
        let Some((host, port)) = split_authority(host_and_port) else {
            return false;
        };
        let port_is = |expected: Option<u16>| match (expected, port) {
            (Some(expected), Some(port)) => port == expected,
            _ => true,
        };
        (port_is(self.port) && hosts.iter().any(|h| h.eq_ignore_ascii_case(host)))
            || self
                .public
                .iter()
                .any(|(public, expected)| public.eq_ignore_ascii_case(host) && port_is(*expected))
    }

    /// `Err` when the request's host or Origin is not allowed (403), or is written in a form
    /// HTTP forbids or no browser sends (400).
    pub(super) fn check(&self, uri: &Uri, headers: &HeaderMap) -> Result<(), Refused> {
        let mut hosts = headers.get_all(header::HOST).iter();
        let host_header = hosts.next();
        if hosts.next().is_some() {
            // RFC 9112, section 3.2: a server MUST answer 400 to "any request message that
            // contains more than one Host header field line".
            return Err(Refused::new(
                StatusCode::BAD_REQUEST,
                "the request has more than one Host header",
            ));
        }
        let host_header = host_header.map(|v| v.to_str().unwrap_or(""));
        // An absolute-form target (`POST http://host/mcp`) names the host itself, and then
        // "the origin server MUST ignore the received Host header field" (RFC 9112, section
        // 3.2.2). Over HTTP/2 every target carries its authority this way.
        let host = match (uri.authority().map(|a| a.as_str()), host_header) {
            (Some(target), Some(header)) if !target.eq_ignore_ascii_case(header) => {
                return Err(Refused::new(
                    StatusCode::BAD_REQUEST,
                    format!(
                        "the request target names the host `{target}` but its Host header `{header}`"
                    ),
                ));
            }
            (Some(target), _) => Some(target),
            (None, header) => header,
        };
        if let Some(host) = host
            && !self.accepts(host)
        {
            return Err(Refused::new(
                StatusCode::FORBIDDEN,
                format!(
                    "the Host `{host}` is not allowed: add it with `HostPolicy::local().allow(\"HOST:PORT\")` (`--allow-host HOST:PORT` with `ServerBuilder::run`), which also takes the public address of a load balancer or a port mapping in front, or name the accepted host names with `HttpOptions::hosts(HostPolicy::only([...]))` (on the server's own port)"
                ),
            ));
        }
        let mut origins = headers.get_all(header::ORIGIN).iter();
        let origin = origins.next();
        if origins.next().is_some() {
            return Err(Refused::new(
                StatusCode::BAD_REQUEST,
                "the request has more than one Origin header",
            ));
        }
        if let Some(origin) = origin {
            let origin = origin.to_str().unwrap_or("");
            let allowed = match origin {
                // A sandboxed or opaque origin: no host to check.
                "null" => self.hosts.is_none(),
                _ => origin_authority(origin).is_some_and(|authority| self.accepts(authority)),
            };
            if !allowed {
                return Err(Refused::new(
                    StatusCode::FORBIDDEN,
                    format!("the Origin `{origin}` is not allowed"),
                ));
            }
        }
        Ok(())
    }
}

/// The `host[:port]` of a serialized origin (`scheme://host[:port]`); `None` for anything
/// else: userinfo (`http://localhost:3000@evil.example`), a path, a query.
fn origin_authority(origin: &str) -> Option<&str> {
    let (scheme, authority) = origin.split_once("://")?;
    let scheme_ok = crate::protocol::is_uri_scheme(scheme);
    // Browsers send no trailing slash; one is tolerated, as before.
    let authority = authority.strip_suffix('/').unwrap_or(authority);
    (scheme_ok && split_authority(authority).is_some()).then_some(authority)
}

/// `("[::1]", Some(8080))` from `[::1]:8080`, `("localhost", None)` from `localhost`; `None`
/// unless the text is a host and an optional numeric port, with nothing else (no userinfo, no
/// path).
fn split_authority(value: &str) -> Option<(&str, Option<u16>)> {
    let (host, port) = match value.strip_prefix('[') {
        Some(rest) => {
            let end = rest.find(']')?;
            let (host, rest) = value.split_at(end + 2);
            match rest {
                "" => (host, None),
                _ => (host, Some(rest.strip_prefix(':')?)),
            }
        }
        None => match value.bytes().position(|b| b == b':') {
            Some(colon) => (&value[..colon], Some(&value[colon + 1..])),
            None => (value, None),
        },
    };
    let host_ok = !host.is_empty() && host.bytes().all(|b| HOST_BYTES[usize::from(b)]);
    let port = match port {
        None => None,
        Some(port) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => {
            Some(port.parse().ok()?)
        }
        Some(_) => return None,
    };
    host_ok.then_some((host, port))
}

/// The bytes a host may be written with: letters, digits, `-._~`, and `[]:%` of an IPv6
/// literal (checked on every request, so looked up, not searched for).
static HOST_BYTES: [bool; 256] = {
    let mut allowed = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        allowed[byte] = (byte as u8).is_ascii_alphanumeric();
        byte += 1;
    }
    let mut others = b"-._~[]:%".as_slice();
    while let [first, rest @ ..] = others {
        allowed[*first as usize] = true;
        others = rest;
    }
    allowed
};

/// `Err` unless a POST's body is declared as JSON. No `Content-Type` at all is taken as JSON:
/// the body is parsed as JSON either way (RFC 9110, section 8.3, lets the recipient examine
/// the data), and MCP names no header rule for the request body.
pub(super) fn check_content_type(headers: &HeaderMap) -> Result<(), Refused> {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return Ok(());
    };
    // What clients send, answered without splitting it.
    if value.as_bytes().eq_ignore_ascii_case(b"application/json") {
        return Ok(());
    }
    let text = value.to_str().unwrap_or("");
    let essence = text.split(';').next().unwrap_or("").trim();
    if essence.eq_ignore_ascii_case("application/json") {
        return Ok(());
    }
    Err(Refused::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        format!(
            "the body is declared as `{text}`: MCP messages are JSON, send `Content-Type: application/json`"
        ),
    ))
}

/// Which of the two forms of an answer (`application/json`, `text/event-stream`) the
/// request's `Accept` header admits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Accepts {
    pub(super) json: bool,
    pub(super) event_stream: bool,
}

impl Accepts {
    /// Reads every `Accept` header; wildcards (`*/*`, `application/*`) count, a range with
    /// `q=0` refuses its type (RFC 9110, section 12.5.1), the most specific range deciding.
    pub(super) fn of(headers: &HeaderMap) -> Accepts {
        let mut values = headers.get_all(header::ACCEPT).iter();
        if let (Some(value), None) = (values.next(), values.next())
            && USUAL_BOTH
                .iter()
                .any(|usual| value.as_bytes().eq_ignore_ascii_case(usual))
        {
            return Accepts {
                json: true,
                event_stream: true,
            };
        }
        Accepts::read(headers)
    }

    /// [`Accepts::of`], every range read.
    fn read(headers: &HeaderMap) -> Accepts {
        let mut json = Best::default();
        let mut event_stream = Best::default();
        // One pass over the ranges for both types, on bytes: this runs on every POST. A value
        // that is not visible ASCII (`to_str`) is skipped, as unreadable.
        let values = headers.get_all(header::ACCEPT).iter();
        let values = values
            .filter(|v| v.to_str().is_ok())
            .map(HeaderValue::as_bytes);
        for range in values.flat_map(|v| v.split(|&b| b == b',')) {
            let mut parts = range.split(|&b| b == b';');
            let media = parts.next().unwrap_or_default().trim_ascii();
            let Some(slash) = media.iter().position(|&b| b == b'/') else {
                continue;
            };
            let (kind, sub) = (&media[..slash], &media[slash + 1..]);
            let json_at = specificity(kind, sub, b"application", b"json");
            let event_stream_at = specificity(kind, sub, b"text", b"event-stream");
            if json_at.is_none() && event_stream_at.is_none() {
                continue;
            }
            let admitted = !parts.any(refuses);
            json.offer(json_at, admitted);
            event_stream.offer(event_stream_at, admitted);
        }
        Accepts {
            json: json.admitted(),
            event_stream: event_stream.admitted(),
        }
    }

    /// `Err` (406) unless a POST's answer can be sent. The specification asks the client to
    /// list both types ("The client **MUST** include an `Accept` header, listing both
    /// `application/json` and `text/event-stream`", Streamable HTTP > Sending Messages to the
    /// Server, in each revision from 2025-03-26 on). The server always has a JSON answer, so a
    /// client that takes JSON only is served (it gets the reply without what came before it);
    /// one that does not take JSON, or sends no `Accept`, could be sent nothing it takes.
    pub(super) fn check_post(self) -> Result<(), Refused> {
        if self.json {
            return Ok(());
        }
        Err(Refused::new(
            StatusCode::NOT_ACCEPTABLE,
            "the answer to a POST is `application/json` or `text/event-stream`: send `Accept: application/json, text/event-stream`",
        ))
    }

    /// `Err` (406) unless an answer that can only be a stream can be sent: the one to
    /// `subscriptions/listen`, whose notifications come before any reply, if one ever comes.
    pub(super) fn check_stream(self, method: &str) -> Result<(), Refused> {
        if self.event_stream {
            return Ok(());
        }
        Err(Refused::new(
            StatusCode::NOT_ACCEPTABLE,
            format!(
                "the answer to `{method}` is an event stream: send `Accept: application/json, text/event-stream`"
            ),
        ))
    }
}

/// The `Accept` values clients send as the specification asks, each admitting both types: one
/// comparison answers for them, where reading their ranges costs about 1.5 k instructions on
/// every POST. The unit test holds each to what [`Accepts::read`] makes of it.
const USUAL_BOTH: [&[u8]; 3] = [
    b"application/json, text/event-stream",
    b"application/json,text/event-stream",
    b"text/event-stream, application/json",
];

/// How specifically the media range `range_kind/range_sub` names `kind/sub` (`*/*` 0,
/// `kind/*` 1, `kind/sub` 2); `None` if it does not.
fn specificity(range_kind: &[u8], range_sub: &[u8], kind: &[u8], sub: &[u8]) -> Option<u8> {
    match (range_kind, range_sub) {
        (b"*", b"*") => Some(0),
        (k, b"*") if k.eq_ignore_ascii_case(kind) => Some(1),
        (k, s) if k.eq_ignore_ascii_case(kind) && s.eq_ignore_ascii_case(sub) => Some(2),
        _ => None,
    }
}

/// Whether a media range's parameter is `q=0` (or another `q` of at most 0).
fn refuses(param: &[u8]) -> bool {
    let Some(equals) = param.iter().position(|&b| b == b'=') else {
        return false;
    };
    let (name, value) = (
        param[..equals].trim_ascii(),
        param[equals + 1..].trim_ascii(),
    );
    name.eq_ignore_ascii_case(b"q")
        && std::str::from_utf8(value)
            .ok()
            .and_then(|value| value.parse::<f32>().ok())
            .is_some_and(|q| q <= 0.0)
}

/// The most specific range seen for one type, and whether it admits the type (its `q`).
#[derive(Default)]
struct Best(Option<(u8, bool)>);

impl Best {
    fn offer(&mut self, specificity: Option<u8>, admitted: bool) {
        if let Some(specificity) = specificity
            && self.0.is_none_or(|(seen, _)| specificity > seen)
        {
            self.0 = Some((specificity, admitted));
        }
    }

    fn admitted(&self) -> bool {
        self.0.is_some_and(|(_, admitted)| admitted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.append(*k, v.parse().unwrap());
        }
        map
    }

    fn check(policy: &HostPolicy, pairs: &[(&'static str, &'static str)]) -> Result<(), Refused> {
        policy.check(&Uri::from_static("/mcp"), &headers(pairs))
    }

    fn status(policy: &HostPolicy, pairs: &[(&'static str, &'static str)]) -> u16 {
        check(policy, pairs)
            .err()
            .map_or(200, |r| r.status.as_u16())
    }

    #[test]
    fn local_hosts_pass_and_others_do_not() {
        let policy = HostPolicy::local().with_port(3000);
        assert!(check(&policy, &[("host", "localhost:3000")]).is_ok());
        assert!(check(&policy, &[("host", "127.0.0.1:3000")]).is_ok());
        assert!(check(&policy, &[("host", "[::1]:3000")]).is_ok());
        assert!(check(&policy, &[("host", "evil.example:3000")]).is_err());
        assert!(check(&policy, &[("host", "localhost:4000")]).is_err());
        assert!(
            check(
                &policy,
                &[
                    ("host", "localhost:3000"),
                    ("origin", "http://evil.example")
                ]
            )
            .is_err()
        );
        assert!(
            check(
                &policy,
                &[
                    ("host", "localhost:3000"),
                    ("origin", "http://localhost:3000")
                ]
            )
            .is_ok()
        );
        assert!(check(&HostPolicy::any(), &[("host", "evil.example")]).is_ok());
    }

    #[test]
    fn values_that_are_not_hosts_are_kept_to_be_reported() {
        let policy = HostPolicy::only(["example.com", "[::1]", "example.com:80", "http://a"])
            .allow("mcp.example.com:443")
            .allow("mcp.example.com")
            .allow("https://mcp.example.com")
            .allow("mcp.example.com/mcp");
        assert_eq!(
            policy.unusable().collect::<Vec<_>>(),
            [
                ("HostPolicy::only", "example.com:80"),
                ("HostPolicy::only", "http://a"),
                ("HostPolicy::allow", "https://mcp.example.com"),
                ("HostPolicy::allow", "mcp.example.com/mcp"),
            ]
        );
        assert_eq!(HostPolicy::local().unusable().count(), 0);
    }

    #[test]
    fn an_allowed_public_host_passes_on_its_own_port_and_nothing_else_does() {
        let policy = HostPolicy::local()
            .allow("MCP.example.com:8443")
            .allow("[2001:db8::1]:443")
            .allow("not a host")
            .with_port(3000);
        for ok in [
            "mcp.example.com:8443",
            "mcp.example.com",
            "[2001:db8::1]:443",
            "localhost:3000",
        ] {
            assert_eq!(status(&policy, &[("host", ok)]), 200, "{ok}");
        }
        for refused in [
            "mcp.example.com:3000",
            "localhost:8443",
            "evil.example:8443",
            "not a host",
            "[2001:db8::1]:3000",
        ] {
            assert_eq!(status(&policy, &[("host", refused)]), 403, "{refused}");
        }
        let origin = [
            ("host", "mcp.example.com:8443"),
            ("origin", "https://mcp.example.com:8443"),
        ];
        assert_eq!(status(&policy, &origin), 200);
        let rebinding = [
            ("host", "mcp.example.com:8443"),
            ("origin", "http://evil.example:8443"),
        ];
        assert_eq!(status(&policy, &rebinding), 403);
    }

    #[test]
    fn forms_no_browser_sends_are_refused() {
        let policy = HostPolicy::local().with_port(3000);
        // Two Host headers, whichever comes first.
        for pair in [
            [("host", "localhost:3000"), ("host", "evil.example")],
            [("host", "evil.example"), ("host", "localhost:3000")],
        ] {
            assert_eq!(status(&policy, &pair), 400, "{pair:?}");
        }
        assert_eq!(
            status(&HostPolicy::any(), &[("host", "a"), ("host", "b")]),
            400
        );
        // Userinfo, a path or junk where a host and port belong.
        for origin in [
            "http://localhost:3000@evil.example",
            "http://localhost@evil.example:3000",
            "http://evil.example#@localhost:3000",
            "http://localhost:3000/path",
            "http://localhost:3000 evil",
            "localhost:3000",
            "http://localhost:30a0",
        ] {
            let pairs = [("host", "localhost:3000"), ("origin", origin)];
            assert_eq!(status(&policy, &pairs), 403, "{origin}");
        }
        for host in ["localhost:3000@evil.example", "evil.example@localhost:3000"] {
            assert_eq!(status(&policy, &[("host", host)]), 403, "{host}");
        }
        assert_eq!(
            status(
                &policy,
                &[
                    ("origin", "http://localhost:3000"),
                    ("origin", "http://evil.example")
                ]
            ),
            400
        );
    }

    #[test]
    fn an_absolute_form_target_names_the_host() {
        let policy = HostPolicy::local().with_port(3000);
        let local = headers(&[("host", "localhost:3000")]);
        let evil = Uri::from_static("http://evil.example/mcp");
        assert_eq!(policy.check(&evil, &local).unwrap_err().status, 400);
        assert_eq!(
            policy.check(&evil, &HeaderMap::new()).unwrap_err().status,
            403
        );
        let same = Uri::from_static("http://localhost:3000/mcp");
        assert!(policy.check(&same, &local).is_ok());
    }

    #[test]
    fn accept_ranges_are_read_as_http_defines_them() {
        let of = |value: &'static str| Accepts::of(&headers(&[("accept", value)]));
        let both = Accepts {
            json: true,
            event_stream: true,
        };
        assert_eq!(of("application/json, text/event-stream"), both);
        // The usual values, answered without reading their ranges, as their ranges read.
        for usual in USUAL_BOTH {
            let value = HeaderValue::from_bytes(usual).unwrap();
            let mut map = HeaderMap::new();
            map.insert(header::ACCEPT, value);
            assert_eq!(Accepts::read(&map), both);
            assert_eq!(Accepts::of(&map), both);
        }
        assert_eq!(of("APPLICATION/JSON, TEXT/EVENT-STREAM"), both);
        // A usual value beside another line is read in full, and the first of two equally
        // specific ranges decides.
        let two = headers(&[
            ("accept", "application/json, text/event-stream"),
            ("accept", "application/json;q=0"),
        ]);
        assert_eq!(Accepts::of(&two), both);
        assert_eq!(of("*/*"), both);
        assert_eq!(of("application/*, text/*"), both);
        assert_eq!(
            of("APPLICATION/JSON;charset=utf-8, text/event-stream;q=0.5"),
            both
        );
        assert_eq!(
            of("*/*, text/event-stream;q=0"),
            Accepts {
                json: true,
                event_stream: false
            }
        );
        assert_eq!(
            of("text/event-stream"),
            Accepts {
                json: false,
                event_stream: true
            }
        );
        assert_eq!(of("text/html"), Accepts::default());
        assert_eq!(Accepts::of(&HeaderMap::new()), Accepts::default());
        // Every `Accept` line counts; parameters are read with their spaces; a more specific
        // range decides over a wildcard, whichever comes first.
        let lines = headers(&[
            ("accept", "text/event-stream ; q = 0 , text/html"),
            ("accept", " Application/Json ;level=1"),
            ("accept", "*/*"),
        ]);
        assert_eq!(
            Accepts::of(&lines),
            Accepts {
                json: true,
                event_stream: false
            }
        );
        assert!(!of("text/event-stream;q=0, */*").event_stream);
        assert!(!of("application/json;q=0.0, application/*").json);
        assert!(of("application/json;q=oops").json);
        assert!(of("application/json").check_post().is_ok());
        assert_eq!(
            of("text/event-stream").check_post().unwrap_err().status,
            406
        );
    }

    #[test]
    fn only_json_bodies_are_taken() {
        for ok in [
            &[][..],
            &[("content-type", "application/json")],
            &[("content-type", "Application/JSON; charset=utf-8")],
        ] {
            assert!(check_content_type(&headers(ok)).is_ok(), "{ok:?}");
        }
        for refused in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/jsonx",
        ] {
            let refusal = check_content_type(&headers(&[("content-type", refused)])).unwrap_err();
            assert_eq!(refusal.status, 415, "{refused}");
        }
    }
}
