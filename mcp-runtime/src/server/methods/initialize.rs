//! `initialize`: version negotiation and capabilities.

use std::sync::Arc;

use serde_json::value::RawValue;

use super::parse_params;
use crate::jsonrpc::{RequestId, RpcError, encode_result};
use crate::protocol::{
    ClientInfo, Implementation, InitializeParams, InitializeResult, ListCapability,
    ResourcesCapability, Revision, ServerCapabilities,
};
use crate::server::session::Negotiated;
use crate::server::{ServerCore, Session};

/// `initialize`: settles the session's revision and client, and says what the server offers.
pub(super) fn initialize(
    server: &ServerCore,
    session: &Session,
    id: &RequestId,
    params: Option<&RawValue>,
) -> Result<Vec<u8>, RpcError> {
    let params: InitializeParams = parse_params("initialize", params)?;
    // Echo a revision we speak; otherwise offer the latest and let the client decide.
    let revision = Revision::parse(&params.protocol_version).unwrap_or(Revision::LATEST);
    session.set_negotiated(Negotiated {
        revision,
        client: Arc::new(ClientInfo {
            name: params.client_info.name,
            version: params.client_info.version,
            capabilities: params.capabilities,
        }),
    });
    let (tools, resources, prompts) = (
        server.tools.load(),
        server.resources.load(),
        server.prompts.load(),
    );
    let completes = prompts
        .iter()
        .map(|p| &p.specs)
        .chain(resources.templates.iter().map(|t| &t.specs))
        .flat_map(|specs| &specs.specs)
        .any(|spec| spec.completer.is_some() || !spec.choices.is_empty());
    // Every list can change while the server runs (`ServerHandle`), so `listChanged` is
    // declared with each list the server has.
    let listed = || ListCapability { list_changed: true };
    let capabilities = ServerCapabilities {
        tools: (!tools.is_empty()).then(listed),
        resources: (!resources.is_empty()).then_some(ResourcesCapability {
            subscribe: true,
            list_changed: true,
        }),
        prompts: (!prompts.is_empty()).then(listed),
        completions: completes.then(serde_json::Map::new),
        logging: Some(serde_json::Map::new()),
    };
    let mut info = std::borrow::Cow::Borrowed(&server.info);
    if !revision.has_structured_output() && info.title.is_some() {
        // `Implementation.title` arrived with 2025-06-18.
        let owned: &mut Implementation = info.to_mut();
        owned.title = None;
    }
    Ok(encode_result(
        id,
        &InitializeResult {
            protocol_version: revision.as_str(),
            capabilities,
            server_info: &info,
            instructions: server.instructions.as_deref(),
        },
    ))
}
