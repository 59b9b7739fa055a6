//! `initialize`: who the peers are and what they can do.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A program's name and version, as in `serverInfo` and `clientInfo`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Implementation {
    /// The program's name.
    pub name: Cow<'static, str>,
    /// Its version.
    pub version: Cow<'static, str>,
    /// A human-readable title.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub title: Option<Cow<'static, str>>,
}

impl Implementation {
    /// A name and a version.
    pub fn new(
        name: impl Into<Cow<'static, str>>,
        version: impl Into<Cow<'static, str>>,
    ) -> Implementation {
        Implementation {
            name: name.into(),
            version: version.into(),
            title: None,
        }
    }
}

/// What a client said about itself in `initialize`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClientInfo {
    /// `clientInfo.name`.
    pub name: String,
    /// `clientInfo.version`.
    pub version: String,
    /// The client's declared `capabilities` object.
    pub capabilities: Map<String, Value>,
}

impl ClientInfo {
    /// Whether the client declared a capability (`"sampling"`, `"elicitation"`, `"roots"`), or
    /// one mode of it (`"elicitation.form"`, `"elicitation.url"`). An `elicitation` object
    /// that names no mode (the `{}` of 2025-06-18 clients) declares form mode alone
    /// (client/elicitation "Capabilities": for backwards compatibility).
    pub fn has_capability(&self, name: &str) -> bool {
        let Some((name, mode)) = name.split_once('.') else {
            return self.capabilities.contains_key(name);
        };
        let Some(declared) = self.capabilities.get(name) else {
            return false;
        };
        let names = |mode: &str| declared.get(mode).is_some();
        names(mode) || (name == "elicitation" && mode == "form" && !names("url"))
    }

    /// Whether the client declared the extension `id` (`capabilities.extensions[id]`).
    pub fn has_extension(&self, id: &str) -> bool {
        self.capabilities
            .get("extensions")
            .and_then(Value::as_object)
            .is_some_and(|extensions| extensions.contains_key(id))
    }
}

/// A client's name and version: `initialize`'s `clientInfo`, and the one a stateless request
/// names in `_meta`.
#[derive(Deserialize)]
pub(crate) struct WireClientInfo {
    pub(crate) name: String,
    pub(crate) version: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InitializeResult<'a> {
    pub(crate) protocol_version: &'static str,
    pub(crate) capabilities: ServerCapabilities,
    pub(crate) server_info: &'a Implementation,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) instructions: Option<&'a str>,
}

#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ServerCapabilities {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) tools: Option<ListCapability>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) resources: Option<ResourcesCapability>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) prompts: Option<ListCapability>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) completions: Option<Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) logging: Option<Map<String, Value>>,
    /// The extensions offered (`server/discover` only: the session-based revisions have none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) extensions: Option<Map<String, Value>>,
}

#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ResourcesCapability {
    pub(crate) subscribe: bool,
    pub(crate) list_changed: bool,
}

#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ListCapability {
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) list_changed: bool,
}
