//! `initialize`: version negotiation and capabilities, once per session.

use std::sync::Arc;

use super::params_object::ParamsObject;
use crate::jsonrpc::{RequestId, RpcError, encode_result};
use crate::protocol::{ClientInfo, Implementation, InitializeResult, Revision, WireClientInfo};
use crate::server::session::Negotiated;
use crate::server::{ServerCore, Session};

/// The longest `initialize` params a session keeps what the client declares from (its
/// capabilities and `clientInfo`, held for the session's life): clients declare themselves in
/// far less, and 10,000 sessions of 4 MiB each would hold gigabytes.
const MAX_INITIALIZE_BYTES: usize = 64 * 1024;

/// `initialize`: settles the session's revision and client, and says what the server offers.
pub(super) fn initialize(
    server: &ServerCore,
    session: &Session,
    id: &RequestId,
    params: Option<&str>,
) -> Result<Vec<u8>, RpcError> {
    if let Some(text) = params.filter(|text| text.len() > MAX_INITIALIZE_BYTES) {
        return Err(RpcError::invalid_params(format!(
            "`initialize`'s params are {} bytes, over the server's limit of {} KiB for what a client declares about itself: send the capabilities and `clientInfo` alone",
            text.len(),
            MAX_INITIALIZE_BYTES / 1024
        )));
    }
    let params = ParamsObject::of("initialize", params)?;
    let protocol_version: String = params.required("protocolVersion")?;
    let client_info: WireClientInfo = params.required("clientInfo")?;
    let capabilities = params.optional("capabilities")?.unwrap_or_default();
    // Echo a revision we speak; otherwise offer the latest and let the client decide.
    let revision = Revision::parse(&protocol_version)
        .filter(|revision| !revision.is_stateless())
        .unwrap_or(Revision::LATEST_SESSION_BASED);
    // "The initialization phase MUST be the first interaction" and then "Both parties MUST
    // respect the negotiated protocol version" (specification 2025-11-25, Lifecycle): a
    // second `initialize` is refused, and what the first settled stays.
    let settled = session.negotiate_once(Negotiated {
        revision,
        client: Arc::new(ClientInfo {
            name: client_info.name,
            version: client_info.version,
            capabilities,
        }),
    });
    if let Err(settled) = settled {
        return Err(RpcError::invalid_request(format!(
            "this session is already initialized (protocol revision {settled}): `initialize` comes once, first; start a new session to negotiate again"
        )));
    }
    let capabilities = super::capabilities::capabilities(server);
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
