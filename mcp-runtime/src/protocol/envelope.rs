//! The per-request `_meta` of the stateless revisions (2026-07-28 on): the revision a request
//! is served under and what the client declared, carried by every request instead of being
//! negotiated once by `initialize` (specification 2026-07-28, basic/index "Per-request protocol
//! fields"; basic/versioning "Backward Compatibility").
//!
//! A request *claims* the stateless era when its `params._meta` holds the key
//! `io.modelcontextprotocol/protocolVersion`, whatever its value. A claim is then checked in
//! two steps, so that the HTTP transport can compare its headers in between, as the
//! specification orders the checks: [`Claim::check_shape`] (-32602 for a missing or mistyped
//! field, never a fall-back to the session-based era), then [`Claim::into_envelope`] (-32022
//! for a revision the server does not serve statelessly).

use std::sync::Arc;

use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::{ClientInfo, LoggingLevel, Revision};
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

/// A request's claim of the stateless era: its `_meta`, not yet checked.
#[derive(Debug)]
pub(crate) struct Claim {
    meta: Map<String, Value>,
}

/// The claim `params` make, if any: `None` for a request of the session-based era.
///
/// Most requests of the session-based era carry no `_meta` at all; a search for the key's last
/// part in the raw text rules them out without parsing anything.
pub(crate) fn claim(params: Option<&RawValue>) -> Option<Claim> {
    let text = params?.get();
    if !text.contains("protocolVersion") {
        return None;
    }
    #[derive(serde::Deserialize)]
    struct Params {
        #[serde(rename = "_meta", default)]
        meta: Option<Value>,
    }
    let Params { meta } = serde_json::from_str(text).ok()?;
    match meta {
        Some(Value::Object(meta)) if meta.contains_key(PROTOCOL_VERSION) => Some(Claim { meta }),
        _ => None,
    }
}

impl Claim {
    /// The claimed revision string, if it is a string.
    pub(crate) fn version(&self) -> Option<&str> {
        self.meta.get(PROTOCOL_VERSION).and_then(Value::as_str)
    }

    /// Checks every field's presence and type: -32602 naming the field.
    pub(crate) fn check_shape(&self) -> Result<(), RpcError> {
        match self.meta.get(PROTOCOL_VERSION) {
            Some(Value::String(version)) if version.len() <= MAX_VERSION_LEN => {}
            Some(Value::String(_)) => {
                return Err(malformed(
                    PROTOCOL_VERSION,
                    format!("is longer than {MAX_VERSION_LEN} bytes: no revision is"),
                ));
            }
            _ => {
                return Err(malformed(
                    PROTOCOL_VERSION,
                    "must be a string such as \"2026-07-28\"",
                ));
            }
        }
        match self.meta.get(CLIENT_CAPABILITIES) {
            Some(Value::Object(capabilities)) => {
                for (name, value) in capabilities {
                    if !value.is_object() && KNOWN_CAPABILITIES.contains(&name.as_str()) {
                        return Err(malformed(
                            CLIENT_CAPABILITIES,
                            format!("member `{name}` must be an object (such as {{}})"),
                        ));
                    }
                }
            }
            Some(_) => {
                return Err(malformed(
                    CLIENT_CAPABILITIES,
                    "must be an object (`{}` declares no optional capability)",
                ));
            }
            None => {
                return Err(malformed(
                    CLIENT_CAPABILITIES,
                    "is missing: every request of revision 2026-07-28 declares the client's capabilities (`{}` for none)",
                ));
            }
        }
        if let Some(info) = self.meta.get(CLIENT_INFO) {
            let named = |key: &str| info.get(key).is_some_and(Value::is_string);
            if !named("name") || !named("version") {
                return Err(malformed(
                    CLIENT_INFO,
                    "must be an object with string `name` and `version`",
                ));
            }
        }
        if let Some(level) = self.meta.get(LOG_LEVEL)
            && serde_json::from_value::<LoggingLevel>(level.clone()).is_err()
        {
            return Err(malformed(
                LOG_LEVEL,
                "must be one of \"debug\", \"info\", \"notice\", \"warning\", \"error\", \"critical\", \"alert\", \"emergency\"",
            ));
        }
        if let Some(token) = self.meta.get("progressToken")
            && !(token.is_string() || token.is_i64() || token.is_u64())
        {
            return Err(malformed("progressToken", "must be a string or an integer"));
        }
        Ok(())
    }

    /// The checked envelope: [`check_shape`](Self::check_shape), then the revision, which must
    /// be one the server serves statelessly (-32022 otherwise, listing the supported ones).
    pub(crate) fn into_envelope(self) -> Result<Envelope, RpcError> {
        self.check_shape()?;
        let version = self.version().unwrap_or_default();
        let revision = match Revision::parse(version) {
            Some(revision) if revision.is_stateless() => revision,
            Some(revision) => {
                return Err(unsupported(
                    version,
                    format!(
                        "protocol revision {revision} is session-based: it is negotiated by `initialize`, not named in `_meta`; name {} in `_meta`, or send `initialize`",
                        Revision::LATEST
                    ),
                ));
            }
            None => {
                return Err(unsupported(
                    version,
                    format!(
                        "unsupported protocol revision `{version}`: this server speaks {}",
                        supported_versions().join(", ")
                    ),
                ));
            }
        };
        let mut meta = self.meta;
        let capabilities = match meta.remove(CLIENT_CAPABILITIES) {
            Some(Value::Object(capabilities)) => capabilities,
            _ => Map::new(),
        };
        let info = meta.remove(CLIENT_INFO);
        let text = |key: &str| {
            info.as_ref()
                .and_then(|info| info.get(key))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let log_level = meta
            .remove(LOG_LEVEL)
            .and_then(|level| serde_json::from_value(level).ok());
        Ok(Envelope {
            revision,
            client: Arc::new(ClientInfo {
                name: text("name"),
                version: text("version"),
                capabilities,
            }),
            log_level,
        })
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

fn malformed(field: &str, problem: impl std::fmt::Display) -> RpcError {
    RpcError::invalid_params(format!("invalid `_meta`: `{field}` {problem}"))
        .with_data(json!({ "field": format!("_meta.{field}") }))
}

fn unsupported(requested: &str, message: String) -> RpcError {
    RpcError::new(ErrorCode::UnsupportedProtocolVersion, message)
        .with_data(json!({ "supported": supported_versions(), "requested": requested }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim_of(params: Value) -> Option<Claim> {
        let raw = serde_json::value::to_raw_value(&params).unwrap();
        claim(Some(&raw))
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
    fn only_the_protocol_version_key_claims() {
        assert!(claim_of(json!({"name": "protocolVersion"})).is_none());
        assert!(claim_of(json!({"_meta": {"progressToken": 1}})).is_none());
        assert!(claim_of(json!({"protocolVersion": "2026-07-28"})).is_none());
        assert!(claim_of(json!({"_meta": {PROTOCOL_VERSION: 5}})).is_some());
        assert!(claim(None).is_none());
    }

    #[test]
    fn a_valid_envelope_reads_its_fields() {
        let envelope = claim_of(meta(json!({
            CLIENT_CAPABILITIES: {"sampling": {}},
            CLIENT_INFO: {"name": "c", "version": "1"},
            LOG_LEVEL: "warning",
        })))
        .unwrap()
        .into_envelope()
        .unwrap();
        assert_eq!(envelope.revision, Revision::V2026_07_28);
        assert!(envelope.client.has_capability("sampling"));
        assert_eq!(envelope.client.name, "c");
        assert_eq!(envelope.log_level, Some(LoggingLevel::Warning));
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
        ] {
            let error = claim_of(params).unwrap().into_envelope().unwrap_err();
            assert_eq!(error.code, -32602, "{error}");
            assert!(error.message.contains(field), "{error}");
        }
    }

    #[test]
    fn unknown_and_session_based_revisions_are_unsupported() {
        for version in ["v999.0.0", "2025-11-25"] {
            let error = claim_of(meta(json!({PROTOCOL_VERSION: version})))
                .unwrap()
                .into_envelope()
                .unwrap_err();
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
