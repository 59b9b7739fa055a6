//! What the micro-benchmarks (`bench/micro`) and the fuzz targets (`fuzz/`) reach inside the
//! crate, as `mcp_runtime::__internals`: the framing steps on their own, a connection without
//! a transport, and URI template matching. Not a public API: it changes without notice.

use serde::Serialize;
use serde_json::value::RawValue;

use crate::jsonrpc::{Incoming, RequestId};
pub use crate::resource::{TemplateError, UriTemplate};
use crate::server::{DirectSession, Server};

/// Classifies one message as a transport does; true for a request.
pub fn parse_message(bytes: &[u8]) -> bool {
    matches!(crate::jsonrpc::parse_message(bytes), Incoming::Request(_))
}

/// A request id from its JSON text (`7`, `"a"`); `None` unless a string or a number.
pub fn request_id(json: &str) -> Option<RequestId> {
    let raw: &RawValue = serde_json::from_str(json).ok()?;
    RequestId::from_raw(raw)
}

/// `{"jsonrpc":"2.0","id":ID,"result":RESULT}`, as every reply is encoded.
pub fn encode_result(id: &RequestId, result: &impl Serialize) -> Vec<u8> {
    crate::jsonrpc::encode_result(id, result)
}

/// A connection to `server` without a transport: each message goes in as bytes and its reply
/// comes back as bytes, on the calling task.
pub fn direct_session(server: &Server) -> DirectSession {
    server.direct_session()
}
