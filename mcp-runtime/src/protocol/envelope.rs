//! The per-request `_meta` of the stateless revisions (2026-07-28 on): the revision a request
//! is served under and what the client declared, carried by every request instead of being
//! negotiated once by `initialize` (specification 2026-07-28, basic/index "Per-request protocol
//! fields"; basic/versioning "Backward Compatibility").
//!
//! A request *claims* the stateless era when its `params._meta` holds the key
//! `io.modelcontextprotocol/protocolVersion`, whatever its value (`_meta` is read in the one
//! pass over a request's params, `server/params.rs`). A claim is then checked in
//! two steps, so that the HTTP transport can compare its headers in between, as the
//! specification orders the checks: [`Claim::check_shape`] (-32602 for a missing or mistyped
//! field, never a fall-back to the session-based era), then [`Claim::into_envelope`] (-32022
//! for a revision the server does not serve statelessly).

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

use serde_json::{Map, Value, json};

use super::lifecycle::WireClientInfo;
use super::{ClientInfo, LoggingLevel, Revision};
use crate::jsonrpc::scan::{Listed, Members, decoded};
use crate::jsonrpc::{ErrorCode, RpcError};

/// `_meta` key: the revision the request is served under.
pub(crate) const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key: the client's capabilities (required; `{}` declares none).
pub(crate) const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key: the client's name and version (optional).
pub(crate) const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key: the least severe log level the client wants for this request (optional; no
/// log messages at all without it).
pub(crate) const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// `_meta` key: the token the client wants progress notifications of this request tagged with
/// (optional; in every revision).
pub(crate) const PROGRESS_TOKEN: &str = "progressToken";
/// Result `_meta` key: the server's name and version.
pub(crate) const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// Notification `_meta` key: the `subscriptions/listen` request a notification belongs to.
pub(crate) const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// The longest `protocolVersion` string read; a longer one is refused as malformed rather than
/// echoed back in the error.
const MAX_VERSION_LEN: usize = 64;

/// What a stateless request declares about itself, checked.
#[derive(Debug)]
pub(crate) struct Envelope {
    pub(crate) revision: Revision,
    pub(crate) client: Arc<ClientInfo>,
    /// `None`: the client wants no log messages for this request.
    pub(crate) log_level: Option<LoggingLevel>,
}

/// A request's claim of the stateless era: its `_meta` fields, as JSON text borrowed from the
/// request, not yet checked.
#[derive(Debug, Default)]
pub(crate) struct Claim<'a> {
    protocol_version: Option<&'a str>,
    client_capabilities: Option<&'a str>,
    client_info: Option<&'a str>,
    log_level: Option<&'a str>,
    progress_token: Option<&'a str>,
    /// A field named twice (the first value is kept), or `_meta` itself given twice in the
    /// params: refused by [`check_shape`](Self::check_shape), since which of two values
    /// counts is not for the server to guess.
    repeated: Option<&'static str>,
}

impl<'a> Claim<'a> {
    /// The fields of `_meta`, whose members are `meta`, read to its end; `None` if it is not
    /// JSON. A field named twice is kept the first time and noted. A field whose value is
    /// `null` is present: a `null` revision still claims the era. A name whose escapes stand
    /// for no character (a lone surrogate) names none of the fields, and is passed over as
    /// any other member is.
    pub(crate) fn scan(meta: &mut Members<'a>) -> Option<Claim<'a>> {
        // In the order clients write them, most likely first.
        const FIELDS: [&str; 5] = [
            PROTOCOL_VERSION,
            CLIENT_CAPABILITIES,
            CLIENT_INFO,
            LOG_LEVEL,
            PROGRESS_TOKEN,
        ];
        let mut values = [None; FIELDS.len()];
        let mut repeated = None;
        while let Some(name) = meta.next_listed_name(&FIELDS).ok()? {
            let field = match name {
                Listed::At(field) => Some(field),
                Listed::Other(name) => name
                    .decoded()
                    .and_then(|name| FIELDS.iter().position(|field| *field == name)),
            };
            let value = meta.value().ok()?;
            let Some(field) = field else {
                continue;
            };
            if values[field].is_some() {
                repeated.get_or_insert(FIELDS[field]);
            } else {
                values[field] = Some(value);
            }
        }
        let [
            protocol_version,
            client_capabilities,
            client_info,
            log_level,
            progress_token,
        ] = values;
        Some(Claim {
            protocol_version,
            client_capabilities,
            client_info,
            log_level,
            progress_token,
            repeated,
        })
    }

    /// Notes that the params give `_meta` twice.
    pub(crate) fn given_twice(&mut self) {
        self.repeated = Some("_meta");
    }

    /// [`Claim::scan`] of `_meta`'s JSON text; `None` also if it is not an object.
    #[cfg(test)]
    fn of(meta: &'a str) -> Option<Claim<'a>> {
        Claim::scan(&mut Members::of(meta)?)
    }
}

impl Claim<'_> {
    /// Whether this `_meta` claims the stateless era: it names a revision, whatever its value.
    pub(crate) fn claims_era(&self) -> bool {
        self.protocol_version.is_some()
    }

    /// The claimed revision string, if it is a string.
    pub(crate) fn version(&self) -> Option<Cow<'_, str>> {
        // A string without escapes (every revision's name) is its text between the quotes.
        decoded(self.protocol_version?)
    }

    /// Checks every field's presence and type: -32602 naming the field. What it read goes on
    /// to [`Checked::into_envelope`]; `last` is the server's memory of the last client decoded.
    pub(crate) fn check_shape(&self, last: &LastClient) -> Result<Checked, RpcError> {
        let (version, read) = self.read(last)?;
        // The revision is told now, but refused only by `Checked::into_envelope`; a served
        // one keeps no copy of its name.
        let version = match Revision::parse(&version) {
            Some(revision) if revision.is_stateless() => Ok(revision),
            _ => Err(version.into_owned()),
        };
        Ok(Checked { read, version })
    }

    /// The fields, checked (in the order of their names in the error messages' tests:
    /// revision, capabilities, client info, log level, progress token) and decoded, with the
    /// revision's name.
    fn read(&self, last: &LastClient) -> Result<(Cow<'_, str>, Read), RpcError> {
        match self.repeated {
            Some("_meta") => {
                return Err(RpcError::invalid_params(
                    "invalid params: `_meta` is given twice: give it once",
                )
                .with_data(json!({ "field": "_meta" })));
            }
            Some(field) => {
                return Err(malformed(
                    field,
                    "is named twice: name it once (which of two values counts is not for the server to guess)",
                ));
            }
            None => {}
        }
        let version = match self.version() {
            Some(version) if version.len() <= MAX_VERSION_LEN => version,
            Some(_) => {
                return Err(malformed(
                    PROTOCOL_VERSION,
                    &format!("is longer than {MAX_VERSION_LEN} bytes: no revision is"),
                ));
            }
            None => {
                return Err(malformed(
                    PROTOCOL_VERSION,
                    "must be a string such as \"2026-07-28\"",
                ));
            }
        };
        let Some(capabilities) = self.client_capabilities else {
            return Err(malformed(
                CLIENT_CAPABILITIES,
                "is missing: every request of revision 2026-07-28 declares the client's capabilities (`{}` for none)",
            ));
        };
        let client = match last.recall(capabilities, self.client_info) {
            Some(client) => client,
            None => {
                let client = Arc::new(self.decode_client(capabilities)?);
                last.remember(capabilities, self.client_info, &client);
                client
            }
        };
        let log_level = match self.log_level {
            None => None,
            Some(level) => match serde_json::from_str::<LoggingLevel>(level) {
                Ok(level) => Some(level),
                Err(_) => {
                    return Err(malformed(
                        LOG_LEVEL,
                        "must be one of \"debug\", \"info\", \"notice\", \"warning\", \"error\", \"critical\", \"alert\", \"emergency\"",
                    ));
                }
            },
        };
        if let Some(token) = self.progress_token
            && token.len() > crate::jsonrpc::MAX_ID_BYTES
        {
            return Err(malformed(
                PROGRESS_TOKEN,
                &format!(
                    "is {} bytes long, over the server's limit of {}: it is repeated in every progress notification",
                    token.len(),
                    crate::jsonrpc::MAX_ID_BYTES
                ),
            ));
        }
        // The token is the text of one JSON value, checked when `_meta` was read: a string
        // starts with its quote, and an integer is what Rust reads as one (JSON's grammar has
        // no `+` or leading zero for it to admit besides).
        if let Some(token) = self.progress_token
            && !(token.starts_with('"')
                || token.parse::<i64>().is_ok()
                || token.parse::<u64>().is_ok())
        {
            return Err(malformed(PROGRESS_TOKEN, "must be a string or an integer"));
        }
        Ok((version, Read { client, log_level }))
    }

    /// The client the capabilities and the client info declare, checked in that order.
    fn decode_client(&self, capabilities: &str) -> Result<ClientInfo, RpcError> {
        let Ok(capabilities) = serde_json::from_str::<Map<String, Value>>(capabilities) else {
            return Err(malformed(
                CLIENT_CAPABILITIES,
                "must be an object (`{}` declares no optional capability)",
            ));
        };
        for (name, value) in &capabilities {
            if !value.is_object() && KNOWN_CAPABILITIES.contains(&name.as_str()) {
                return Err(malformed(
                    CLIENT_CAPABILITIES,
                    &format!("member `{name}` must be an object (such as {{}})"),
                ));
            }
        }
        let (name, version) = match self.client_info {
            None => Default::default(),
            // The same shape as `initialize`'s `clientInfo`, read by the same code.
            Some(info) => match serde_json::from_str::<WireClientInfo>(info) {
                Ok(WireClientInfo { name, version }) => (name, version),
                Err(error) => {
                    return Err(malformed(
                        CLIENT_INFO,
                        &format!(
                            "must be an object with string `name` and `version` ({})",
                            crate::jsonrpc::message_without_position(&error)
                        ),
                    ));
                }
            },
        };
        Ok(ClientInfo {
            name,
            version,
            capabilities,
        })
    }

    /// The checked envelope: [`check_shape`](Self::check_shape), then the revision.
    pub(crate) fn into_envelope(self, last: &LastClient) -> Result<Envelope, RpcError> {
        self.check_shape(last)?.into_envelope()
    }
}

/// A claim whose fields have the right shapes; the revision is checked last, as the
/// specification orders it (after the HTTP headers).
pub(crate) struct Checked {
    read: Read,
    /// The revision, or the name of one not served statelessly.
    version: Result<Revision, String>,
}

impl Checked {
    /// The revision `_meta` names (for the HTTP headers' check against it): one the server
    /// serves statelessly, or the name of another as written.
    #[cfg(any(feature = "http", test))]
    pub(crate) fn claimed(&self) -> Result<Revision, &str> {
        self.version.as_ref().copied().map_err(String::as_str)
    }

    /// The envelope, if the revision is one the server serves statelessly (-32022 otherwise,
    /// listing the supported ones).
    pub(crate) fn into_envelope(self) -> Result<Envelope, RpcError> {
        let Checked { read, version } = self;
        let version = match version {
            Ok(revision) => return Ok(read.into_envelope(revision)),
            Err(version) => version,
        };
        // Not a revision served statelessly: a session-based one, or none at all.
        match Revision::parse(&version) {
            Some(revision) => Err(unsupported(
                &version,
                format!(
                    "protocol revision {revision} is session-based: it is negotiated by `initialize`, not named in `_meta`; name {} in `_meta`, or send `initialize`",
                    Revision::LATEST
                ),
            )),
            None => Err(unsupported(
                &version,
                format!(
                    "unsupported protocol revision `{version}`: this server speaks {}",
                    supported_versions().join(", ")
                ),
            )),
        }
    }
}

impl Read {
    fn into_envelope(self, revision: Revision) -> Envelope {
        Envelope {
            revision,
            client: self.client,
            log_level: self.log_level,
        }
    }
}

/// A claim's fields, decoded.
struct Read {
    client: Arc<ClientInfo>,
    log_level: Option<LoggingLevel>,
}

/// The client the last stateless request declared, decoded, kept for the next request.
///
/// A client sends the same `clientCapabilities` and `clientInfo` with every request, and
/// decoding them (a map, two strings, a shared [`ClientInfo`]) is a good part of a small
/// request's cost. A request whose two fields are, byte for byte, the ones last decoded shares
/// that `ClientInfo`: the same text passes the same checks and decodes to the same client. Any
/// other request is decoded as usual and becomes the one remembered (one entry: at most one
/// message's worth of text is held).
#[derive(Default)]
pub(crate) struct LastClient(Mutex<Option<Remembered>>);

struct Remembered {
    capabilities: Box<str>,
    info: Option<Box<str>>,
    client: Arc<ClientInfo>,
}

impl LastClient {
    /// The client remembered, if it was declared with exactly these fields.
    fn recall(&self, capabilities: &str, info: Option<&str>) -> Option<Arc<ClientInfo>> {
        let last = self.0.lock().expect("lock poisoned");
        let last = last.as_ref()?;
        let same = *last.capabilities == *capabilities && last.info.as_deref() == info;
        same.then(|| Arc::clone(&last.client))
    }

    fn remember(&self, capabilities: &str, info: Option<&str>, client: &Arc<ClientInfo>) {
        let remembered = Remembered {
            capabilities: capabilities.into(),
            info: info.map(Into::into),
            client: Arc::clone(client),
        };
        *self.0.lock().expect("lock poisoned") = Some(remembered);
    }
}

/// The client capabilities whose value must be an object when present.
const KNOWN_CAPABILITIES: &[&str] = &[
    "elicitation",
    "sampling",
    "roots",
    "experimental",
    "extensions",
];

/// Every revision the server serves, newest first: `server/discover`'s `supportedVersions` and
/// the `supported` of every -32022.
pub(crate) fn supported_versions() -> Vec<&'static str> {
    Revision::ALL.iter().rev().map(|r| r.as_str()).collect()
}

fn malformed(field: &str, problem: &str) -> RpcError {
    RpcError::invalid_params(format!("invalid `_meta`: `{field}` {problem}"))
        .with_data(json!({ "field": format!("_meta.{field}") }))
}

/// -32022 for `requested`, with the revisions served (`supported`) in its data.
pub(crate) fn unsupported(requested: &str, message: String) -> RpcError {
    RpcError::new(ErrorCode::UnsupportedProtocolVersion, message)
        .with_data(json!({ "supported": supported_versions(), "requested": requested }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The envelope `params` claim; panics if they claim nothing.
    fn envelope_of(params: Value) -> Result<Envelope, RpcError> {
        let meta = params["_meta"].to_string();
        let claim = Claim::of(&meta).unwrap();
        assert!(claim.claims_era(), "{meta} claims nothing");
        claim.into_envelope(&LastClient::default())
    }

    fn meta(extra: Value) -> Value {
        let mut meta = json!({
            PROTOCOL_VERSION: "2026-07-28",
            CLIENT_CAPABILITIES: {},
        });
        for (key, value) in extra.as_object().unwrap() {
            meta[key] = value.clone();
        }
        json!({ "_meta": meta })
    }

    #[test]
    fn a_valid_envelope_reads_its_fields() {
        let envelope = envelope_of(meta(json!({
            CLIENT_CAPABILITIES: {"sampling": {}},
            CLIENT_INFO: {"name": "c", "version": "1"},
            LOG_LEVEL: "warning",
        })))
        .unwrap();
        assert_eq!(envelope.revision, Revision::V2026_07_28);
        assert!(envelope.client.has_capability("sampling"));
        assert_eq!(envelope.client.name, "c");
        assert_eq!(envelope.log_level, Some(LoggingLevel::Warning));
    }

    #[test]
    fn the_claimed_revision_is_read_as_json_text_escapes_and_all() {
        let version = |meta: &str| {
            let claim = Claim::of(meta).unwrap();
            claim.version().map(Cow::into_owned)
        };
        let key = PROTOCOL_VERSION;
        assert_eq!(
            version(&format!(r#"{{"{key}":"2026-07-28"}}"#)).unwrap(),
            "2026-07-28"
        );
        assert_eq!(
            version(&format!(r#"{{"{key}":"2026\u002d07-28"}}"#)).unwrap(),
            "2026-07-28"
        );
        assert_eq!(version(&format!(r#"{{"{key}":"a\"b"}}"#)).unwrap(), "a\"b");
        assert_eq!(version(&format!(r#"{{"{key}":20260728}}"#)), None);
        assert_eq!(version(&format!(r#"{{"{key}":null}}"#)), None);
        let claimed = |meta: &str| {
            let claim = Claim::of(meta).unwrap();
            let checked = claim.check_shape(&LastClient::default()).unwrap();
            match checked.claimed() {
                Ok(revision) => revision.as_str().to_owned(),
                Err(version) => version.to_owned(),
            }
        };
        let capabilities = format!(r#""{CLIENT_CAPABILITIES}":{{}}"#);
        assert_eq!(
            claimed(&format!(r#"{{"{key}":"2026\u002d07-28",{capabilities}}}"#)),
            "2026-07-28"
        );
        // A session-based revision: told by the shape check, refused only later.
        assert_eq!(
            claimed(&format!(r#"{{"{key}":"2025-11-25",{capabilities}}}"#)),
            "2025-11-25"
        );
    }

    #[test]
    fn malformed_fields_are_invalid_params_naming_the_field() {
        for (params, field) in [
            (
                json!({"_meta": {PROTOCOL_VERSION: "2026-07-28"}}),
                CLIENT_CAPABILITIES,
            ),
            (meta(json!({PROTOCOL_VERSION: 20260728})), PROTOCOL_VERSION),
            (
                meta(json!({PROTOCOL_VERSION: "x".repeat(10_000)})),
                PROTOCOL_VERSION,
            ),
            (meta(json!({CLIENT_CAPABILITIES: []})), CLIENT_CAPABILITIES),
            (
                meta(json!({CLIENT_CAPABILITIES: {"sampling": true}})),
                CLIENT_CAPABILITIES,
            ),
            (meta(json!({CLIENT_INFO: {"name": 1}})), CLIENT_INFO),
            (meta(json!({LOG_LEVEL: "loud"})), LOG_LEVEL),
            (meta(json!({"progressToken": 1.5})), "progressToken"),
            (meta(json!({"progressToken": null})), "progressToken"),
            (meta(json!({"progressToken": [1]})), "progressToken"),
            (meta(json!({"progressToken": {"a": 1}})), "progressToken"),
            (meta(json!({"progressToken": true})), "progressToken"),
            (meta(json!({PROTOCOL_VERSION: null})), PROTOCOL_VERSION),
            (
                meta(json!({PROTOCOL_VERSION: ["2026-07-28"]})),
                PROTOCOL_VERSION,
            ),
            (meta(json!({PROTOCOL_VERSION: {"v": 1}})), PROTOCOL_VERSION),
            (meta(json!({LOG_LEVEL: null})), LOG_LEVEL),
            (meta(json!({LOG_LEVEL: 3})), LOG_LEVEL),
            (meta(json!({LOG_LEVEL: "Warning"})), LOG_LEVEL),
        ] {
            let error = envelope_of(params).unwrap_err();
            assert_eq!(error.code, -32602, "{error}");
            assert!(error.message.contains(field), "{error}");
        }
    }

    #[test]
    fn a_client_info_that_cannot_be_read_says_why() {
        let meta = format!(
            r#"{{"{PROTOCOL_VERSION}":"2026-07-28","{CLIENT_CAPABILITIES}":{{}},"{CLIENT_INFO}":{{"name":"app\ud83d","version":"1"}}}}"#
        );
        let claim = Claim::of(&meta).unwrap();
        let error = claim.into_envelope(&LastClient::default()).unwrap_err();
        assert!(
            error.message.contains(
                "must be an object with string `name` and `version` (unexpected end of hex escape)"
            ),
            "serde_json's reason, without its position in the member: {error}"
        );
    }

    #[test]
    fn log_levels_and_progress_tokens_are_read_as_json_text() {
        let read = |meta: String| {
            let claim = Claim::of(&meta).unwrap();
            claim.into_envelope(&LastClient::default())
        };
        let base = format!(r#""{PROTOCOL_VERSION}":"2026-07-28","{CLIENT_CAPABILITIES}":{{}}"#);
        let level = read(format!(r#"{{{base},"{LOG_LEVEL}":"warn\u0069ng"}}"#)).unwrap();
        assert_eq!(level.log_level, Some(LoggingLevel::Warning));
        for token in [r#""t""#, r#""t\"1""#, "0", "-5", "18446744073709551615"] {
            let claim = read(format!(r#"{{{base},"progressToken":{token}}}"#));
            assert!(claim.is_ok(), "{token}");
        }
        let long = format!("\"{}\"", "t".repeat(1023));
        for token in ["1e3", "18446744073709551616", "-9223372036854775809", &long] {
            let error = read(format!(r#"{{{base},"progressToken":{token}}}"#)).unwrap_err();
            assert!(error.message.contains("progressToken"), "{token}: {error}");
        }
        let at_the_limit = format!("\"{}\"", "t".repeat(1022));
        let claim = read(format!(r#"{{{base},"progressToken":{at_the_limit}}}"#));
        assert!(claim.is_ok(), "a token of 1024 bytes is accepted");
    }

    #[test]
    fn a_client_declared_again_in_the_same_words_is_shared() {
        let last = LastClient::default();
        let envelope = |meta: Value| {
            let meta = meta.to_string();
            let claim = Claim::of(&meta).unwrap();
            claim.into_envelope(&last)
        };
        let info = json!({"name": "c", "version": "1"});
        let first = envelope(
            json!({PROTOCOL_VERSION: "2026-07-28", CLIENT_CAPABILITIES: {}, CLIENT_INFO: info}),
        );
        let again = envelope(
            json!({PROTOCOL_VERSION: "2026-07-28", CLIENT_CAPABILITIES: {}, CLIENT_INFO: info}),
        );
        assert!(Arc::ptr_eq(&first.unwrap().client, &again.unwrap().client));
        let other = envelope(json!({PROTOCOL_VERSION: "2026-07-28", CLIENT_CAPABILITIES: {"sampling": {}}, CLIENT_INFO: info}))
            .unwrap();
        assert!(other.client.has_capability("sampling"));
        // Remembered fields are still checked around: a bad log level is refused.
        let error = envelope(json!({PROTOCOL_VERSION: "2026-07-28", CLIENT_CAPABILITIES: {"sampling": {}}, CLIENT_INFO: info, LOG_LEVEL: "loud"}))
            .unwrap_err();
        assert!(error.message.contains(LOG_LEVEL), "{error}");
    }

    #[test]
    fn unknown_and_session_based_revisions_are_unsupported() {
        for version in ["v999.0.0", "2025-11-25"] {
            let error = envelope_of(meta(json!({PROTOCOL_VERSION: version}))).unwrap_err();
            assert_eq!(error.code, -32022);
            let data = error.data.unwrap();
            assert_eq!(data["requested"], version);
            assert!(
                data["supported"]
                    .as_array()
                    .unwrap()
                    .contains(&json!("2026-07-28"))
            );
        }
    }
}
