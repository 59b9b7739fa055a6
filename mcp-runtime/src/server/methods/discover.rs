//! `server/discover` (2026-07-28): what a stateless client learns before anything else, in
//! place of `initialize`: the revisions served, the capabilities, the instructions; the
//! server's identity travels in the result's `_meta` like every stateless result's
//! (specification 2026-07-28, server/discover).

use serde::Serialize;

use super::Request;
use super::capabilities::{capabilities, declares};
use crate::protocol::ServerCapabilities;
use crate::protocol::envelope::supported_versions;
use crate::tasks::EXTENSION;
use serde_json::{Map, Value};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DiscoverResult<'a> {
    supported_versions: Vec<&'static str>,
    capabilities: ServerCapabilities,
    #[serde(skip_serializing_if = "Option::is_none")]
    instructions: Option<&'a str>,
}

/// `server/discover`: every revision served (the session-based ones through `initialize`),
/// the capabilities and the instructions, with the server's cache hints.
pub(super) fn discover(request: &Request<'_>) -> Vec<u8> {
    let server = request.server();
    request.reply_cacheable(&DiscoverResult {
        supported_versions: supported_versions(),
        capabilities: ServerCapabilities {
            extensions: declares(server, "tasks")
                .then(|| Map::from_iter([(EXTENSION.to_owned(), Value::Object(Map::new()))])),
            ..capabilities(server)
        },
        instructions: server.instructions.as_deref(),
    })
}
