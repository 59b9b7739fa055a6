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
pub(crate) mod scan;
mod shown;
mod text;

#[cfg(feature = "tasks")]
pub(crate) use encode::json_bytes;
pub(crate) use encode::{
    encode_error, encode_error_without_id, encode_notification, encode_request, encode_result,
    encode_result_with, encode_result_written, write_result,
};
pub use error::{ErrorCode, RpcError};
pub use id::RequestId;
pub(crate) use id::{IdMap, MAX_ID_BYTES};
pub(crate) use incoming::{
    Incoming, IncomingRequest, IncomingResponse, ParamsPass, ParamsText, parse_message,
    parse_message_with,
};
pub(crate) use prefix::request_id_in_prefix;
pub(crate) use shown::{compact_text, message_without_position};
pub(crate) use text::Text;
