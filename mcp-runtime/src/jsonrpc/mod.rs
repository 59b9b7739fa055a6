//! JSON-RPC 2.0 framing: what a message is, how ids round-trip, and the error objects.
//!
//! Nothing here knows about MCP methods. Incoming bytes become an `Incoming` message (a
//! request, a notification, a response to one of the server's own requests, or a batch), and
//! replies are encoded straight to bytes with the id spliced in exactly as the client wrote it.
//! A message too long to read whole still has its request's id read from its beginning.

mod encode;
mod error;
mod id;
mod incoming;
mod prefix;

pub(crate) use encode::{
    encode_error, encode_error_without_id, encode_notification, encode_request, encode_result,
};
pub use error::{ErrorCode, RpcError};
pub use id::RequestId;
pub(crate) use incoming::{Incoming, IncomingRequest, IncomingResponse, parse_message};
pub(crate) use prefix::request_id_in_prefix;

/// The framing steps on their own, for the micro-benchmarks in `bench/micro`. Not a public
/// API: it changes without notice.
#[doc(hidden)]
pub mod __bench {
    use serde::Serialize;
    use serde_json::value::RawValue;

    use super::{Incoming, RequestId};

    /// Classifies one message as a transport does; true for a request.
    pub fn parse_message(bytes: &[u8]) -> bool {
        matches!(super::parse_message(bytes), Incoming::Request(_))
    }

    /// A request id from its JSON text (`7`, `"a"`); `None` unless a string or an integer.
    pub fn request_id(json: &str) -> Option<RequestId> {
        let raw: &RawValue = serde_json::from_str(json).ok()?;
        RequestId::from_raw(raw)
    }

    /// `{"jsonrpc":"2.0","id":ID,"result":RESULT}`, as every reply is encoded.
    pub fn encode_result(id: &RequestId, result: &impl Serialize) -> Vec<u8> {
        super::encode_result(id, result)
    }
}
