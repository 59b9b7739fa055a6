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

use std::borrow::Cow;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::lifecycle::WireClientInfo;
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

/// A request's claim of the stateless era: its `_meta` fields, as JSON text borrowed from the
/// request, not yet checked.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Claim<'a> {
    #[serde(
        rename = "io.modelcontextprotocol/protocolVersion",
        borrow,
        default,
        deserialize_with = "crate::jsonrpc::present"
    )]
    protocol_version: Option<&'a RawValue>,
    #[serde(
        rename = "io.modelcontextprotocol/clientCapabilities",
        borrow,
        default,
        deserialize_with = "crate::jsonrpc::present"
    )]
    client_capabilities: Option<&'a RawValue>,
    #[serde(
        rename = "io.modelcontextprotocol/clientInfo",
        borrow,
        default,
        deserialize_with = "crate::jsonrpc::present"
    )]
    client_info: Option<&'a RawValue>,
    #[serde(
        rename = "io.modelcontextprotocol/logLevel",
        borrow,
        default,
        deserialize_with = "crate::jsonrpc::present"
    )]
    log_level: Option<&'a RawValue>,
    #[serde(
        rename = "progressToken",
        borrow,
        default,
        deserialize_with = "crate::jsonrpc::present"
    )]
    progress_token: Option<&'a RawValue>,
    /// The params' `name` and `uri`, when they are strings, read in the same pass: what the
    /// HTTP `Mcp-Name` header must equal.
    #[serde(skip)]
    named: Named<'a>,
}

/// The claim `params` make, if any: `None` for a request of the session-based era.
///
/// Most requests of the session-based era carry no `_meta` at all; a search for the key's last
/// part in the raw text rules them out without parsing anything. The fields are read as JSON
/// text, each checked and decoded only by [`Claim::check_shape`] and
/// [`Claim::into_envelope`].
pub(crate) fn claim(params: Option<&RawValue>) -> Option<Claim<'_>> {
    let text = params?.get();
    if !text.contains("protocolVersion") {
        return None;
    }
    let ClaimIn(claim, named) = serde_json::from_str(text).ok()?;
    let mut claim = claim.filter(|claim| claim.protocol_version.is_some())?;
    claim.named = named;
    Some(claim)
}

/// A params object's `name` and `uri`, where they are strings, and its `arguments` as text.
#[derive(Debug, Default)]
struct Named<'a> {
    name: Option<Cow<'a, str>>,
    uri: Option<Cow<'a, str>>,
    task_id: Option<Cow<'a, str>>,
    arguments: Option<&'a RawValue>,
}

/// The claim inside a params object, read in the one pass over it: `_meta`'s fields as text,
/// `name` and `uri` when they are strings, every other member skipped.
struct ClaimIn<'a>(Option<Claim<'a>>, Named<'a>);

impl<'de> Deserialize<'de> for ClaimIn<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> serde::de::Visitor<'de> for Members {
            type Value = ClaimIn<'de>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<ClaimIn<'de>, A::Error> {
                let mut claim = None;
                let mut named = Named::default();
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    match &*key {
                        "_meta" if claim.is_none() => {
                            claim = Some(map.next_value::<Claim<'de>>()?);
                        }
                        "name" => named.name = map.next_value::<TextOrNot<'de>>()?.0,
                        "uri" => named.uri = map.next_value::<TextOrNot<'de>>()?.0,
                        "taskId" => named.task_id = map.next_value::<TextOrNot<'de>>()?.0,
                        "arguments" => named.arguments = Some(map.next_value::<&'de RawValue>()?),
                        _ => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(ClaimIn(claim, named))
            }
        }
        deserializer.deserialize_map(Members)
    }
}

/// A string, or `None` for any other JSON value (skipped).
struct TextOrNot<'a>(Option<Cow<'a, str>>);

impl<'de> Deserialize<'de> for TextOrNot<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Text;
        impl<'de> serde::de::Visitor<'de> for Text {
            type Value = TextOrNot<'de>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any JSON value")
            }

            fn visit_borrowed_str<E>(self, text: &'de str) -> Result<TextOrNot<'de>, E> {
                Ok(TextOrNot(Some(Cow::Borrowed(text))))
            }

            fn visit_str<E>(self, text: &str) -> Result<TextOrNot<'de>, E> {
                Ok(TextOrNot(Some(Cow::Owned(text.to_owned()))))
            }

            fn visit_bool<E>(self, _: bool) -> Result<TextOrNot<'de>, E> {
                Ok(TextOrNot(None))
            }

            fn visit_i64<E>(self, _: i64) -> Result<TextOrNot<'de>, E> {
                Ok(TextOrNot(None))
            }

            fn visit_u64<E>(self, _: u64) -> Result<TextOrNot<'de>, E> {
                Ok(TextOrNot(None))
            }

            fn visit_f64<E>(self, _: f64) -> Result<TextOrNot<'de>, E> {
                Ok(TextOrNot(None))
            }

            fn visit_unit<E>(self) -> Result<TextOrNot<'de>, E> {
                Ok(TextOrNot(None))
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<TextOrNot<'de>, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(TextOrNot(None))
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<TextOrNot<'de>, A::Error> {
                while map
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(TextOrNot(None))
            }
        }
        deserializer.deserialize_any(Text)
    }
}

impl Claim<'_> {
    /// The params' `name` (`field` "name"), `uri` (`field` "uri") or `taskId` (`field`
    /// "taskId"), if a string.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn named(&self, field: &str) -> Option<&str> {
        match field {
            "uri" => self.named.uri.as_deref(),
            "taskId" => self.named.task_id.as_deref(),
            _ => self.named.name.as_deref(),
        }
    }

    /// The params' `arguments`, as JSON text.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn arguments(&self) -> Option<&RawValue> {
        self.named.arguments
    }

    /// The claimed revision string, if it is a string.
    pub(crate) fn version(&self) -> Option<Cow<'_, str>> {
        serde_json::from_str(self.protocol_version?.get()).ok()
    }

    /// Checks every field's presence and type: -32602 naming the field. What it read goes on
    /// to [`Checked::into_envelope`].
    pub(crate) fn check_shape(&self) -> Result<Checked, RpcError> {
        let read = self.read()?;
        let version = self.version().unwrap_or_default().into_owned();
        Ok(Checked { read, version })
    }

    /// The fields, checked and decoded.
    fn read(&self) -> Result<Read, RpcError> {
        match self.version() {
            Some(version) if version.len() <= MAX_VERSION_LEN => {}
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
        }
        let Some(capabilities) = self.client_capabilities else {
            return Err(malformed(
                CLIENT_CAPABILITIES,
                "is missing: every request of revision 2026-07-28 declares the client's capabilities (`{}` for none)",
            ));
        };
        let Ok(capabilities) = serde_json::from_str::<Map<String, Value>>(capabilities.get())
        else {
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
        let client = match self.client_info {
            None => None,
            // The same shape as `initialize`'s `clientInfo`, read by the same code.
            Some(info) => match serde_json::from_str::<WireClientInfo>(info.get()) {
                Ok(WireClientInfo { name, version }) => Some((name, version)),
                Err(_) => {
                    return Err(malformed(
                        CLIENT_INFO,
                        "must be an object with string `name` and `version`",
                    ));
                }
            },
        };
        let log_level = match self.log_level {
            None => None,
            Some(level) => match serde_json::from_str::<LoggingLevel>(level.get()) {
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
            && !(serde_json::from_str::<Cow<'_, str>>(token.get()).is_ok()
                || serde_json::from_str::<i64>(token.get()).is_ok()
                || serde_json::from_str::<u64>(token.get()).is_ok())
        {
            return Err(malformed("progressToken", "must be a string or an integer"));
        }
        Ok(Read {
            capabilities,
            client,
            log_level,
        })
    }

    /// The checked envelope: [`check_shape`](Self::check_shape), then the revision.
    pub(crate) fn into_envelope(self) -> Result<Envelope, RpcError> {
        self.check_shape()?.into_envelope()
    }
}

/// A claim whose fields have the right shapes; the revision is checked last, as the
/// specification orders it (after the HTTP headers).
pub(crate) struct Checked {
    read: Read,
    version: String,
}

impl Checked {
    /// The envelope, if the revision is one the server serves statelessly (-32022 otherwise,
    /// listing the supported ones).
    pub(crate) fn into_envelope(self) -> Result<Envelope, RpcError> {
        let Checked { read, version } = self;
        let revision = match Revision::parse(&version) {
            Some(revision) if revision.is_stateless() => revision,
            Some(revision) => {
                return Err(unsupported(
                    &version,
                    format!(
                        "protocol revision {revision} is session-based: it is negotiated by `initialize`, not named in `_meta`; name {} in `_meta`, or send `initialize`",
                        Revision::LATEST
                    ),
                ));
            }
            None => {
                return Err(unsupported(
                    &version,
                    format!(
                        "unsupported protocol revision `{version}`: this server speaks {}",
                        supported_versions().join(", ")
                    ),
                ));
            }
        };
        let (name, version) = read.client.unwrap_or_default();
        Ok(Envelope {
            revision,
            client: Arc::new(ClientInfo {
                name,
                version,
                capabilities: read.capabilities,
            }),
            log_level: read.log_level,
        })
    }
}

/// A claim's fields, decoded.
struct Read {
    capabilities: Map<String, Value>,
    client: Option<(String, String)>,
    log_level: Option<LoggingLevel>,
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

fn unsupported(requested: &str, message: String) -> RpcError {
    RpcError::new(ErrorCode::UnsupportedProtocolVersion, message)
        .with_data(json!({ "supported": supported_versions(), "requested": requested }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `params` claim the stateless era.
    fn claims(params: Value) -> bool {
        let raw = serde_json::value::to_raw_value(&params).unwrap();
        claim(Some(&raw)).is_some()
    }

    /// The envelope `params` claim; panics if they claim nothing.
    fn envelope_of(params: Value) -> Result<Envelope, RpcError> {
        let raw = serde_json::value::to_raw_value(&params).unwrap();
        claim(Some(&raw)).expect("a claim").into_envelope()
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
        assert!(!claims(json!({"name": "protocolVersion"})));
        assert!(!claims(json!({"_meta": {"progressToken": 1}})));
        assert!(!claims(json!({"protocolVersion": "2026-07-28"})));
        assert!(claims(json!({"_meta": {PROTOCOL_VERSION: 5}})));
        assert!(claims(json!({"_meta": {PROTOCOL_VERSION: null}})));
        assert!(claim(None).is_none());
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
            let error = envelope_of(params).unwrap_err();
            assert_eq!(error.code, -32602, "{error}");
            assert!(error.message.contains(field), "{error}");
        }
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
