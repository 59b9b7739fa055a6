//! What the micro-benchmarks (`bench/micro`) and the fuzz targets (`fuzz/`) reach inside the
//! crate, as `mcp_runtime::__internals`: the framing steps on their own, a connection without
//! a transport, URI template matching, the text path of tool arguments, the scanner of JSON
//! text, and the sealing of `requestState`. Not a public API:
//! it changes without notice.

use serde::Serialize;
use serde_json::value::RawValue;

use crate::jsonrpc::{Incoming, RequestId};
pub use crate::resource::{TemplateError, UriTemplate};
use crate::server::{DirectSession, Server};
use crate::tool::{Arguments, RawFields};

/// Classifies one message as a transport does; true for a request.
pub fn parse_message(bytes: &[u8]) -> bool {
    matches!(crate::jsonrpc::parse_message(bytes), Incoming::Request(_))
}

/// For a request, whether it claims revision 2026-07-28 (its `_meta` names a revision), read as
/// the transports read it: in the pass made with the message, or by the search and pass made
/// after it. `None` if `bytes` is not a request. (The `era_claim` fuzz target holds it to a
/// reading by serde_json.)
pub fn claims_stateless_era(bytes: &[u8]) -> Option<bool> {
    use crate::jsonrpc::ParamsText;
    use crate::server::params;
    let mut read = None;
    let Incoming::Request(request) =
        crate::jsonrpc::parse_message_with(bytes, &params::InMessage, &mut read)
    else {
        return None;
    };
    let read = read.or_else(|| params::claim(request.params.as_ref().map(ParamsText::get)));
    Some(read.is_some_and(|read| read.claims_era()))
}

/// Whether `text` is one JSON object and nothing else, as the runtime's own scanner of JSON
/// text reads it (the `json_scan` fuzz target holds it to serde_json's verdict).
pub fn scans_as_object(text: &str) -> bool {
    crate::jsonrpc::scan::is_object(text)
}

/// A request id from its JSON text (`7`, `"a"`); `None` unless a string or an integer.
pub fn request_id(json: &str) -> Option<RequestId> {
    let raw: &RawValue = serde_json::from_str(json).ok()?;
    RequestId::from_json(raw.get())
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

/// Splits a byte stream into newline-delimited messages as stdio does, chunk by chunk, with a
/// size limit.
pub struct LineFramer(crate::transport::Framer);

impl LineFramer {
    /// A framer refusing messages longer than `max` bytes.
    pub fn new(max: usize) -> LineFramer {
        LineFramer(crate::transport::Framer::new(max))
    }

    /// Feeds the next chunk: `on_message(Some(line))` for each complete message, `None` for
    /// one skipped as oversized.
    pub fn push(&mut self, chunk: &[u8], on_message: &mut dyn FnMut(Option<&[u8]>)) {
        self.0
            .push(chunk, &mut |frame| on_message(frame_bytes(frame)));
    }

    /// The input ended: a last message without its newline still counts.
    pub fn end(&mut self, on_message: &mut dyn FnMut(Option<&[u8]>)) {
        self.0.end(&mut |frame| on_message(frame_bytes(frame)));
    }
}

fn frame_bytes(frame: crate::transport::Frame<'_>) -> Option<&[u8]> {
    match frame {
        crate::transport::Frame::Message(bytes) => Some(bytes),
        crate::transport::Frame::Oversized { .. } => None,
    }
}

/// The `arguments` object `json` as `tools/call` keeps it: JSON text, each member decoded
/// straight from it. `None` if `json` is not an object.
pub fn arguments_from_text(json: &str) -> Option<Arguments> {
    let fields = RawFields::of(json)?;
    Some(Arguments::from_raw(json.into(), fields))
}

/// How long past its expiry a sealed state still opens.
pub const STATE_EXPIRY_LEEWAY: std::time::Duration = crate::sealed_state::EXPIRY_LEEWAY;

/// The request a sealed state is bound to, for [`StateSeal`].
#[derive(Debug, Clone, Copy)]
pub struct StateRequest<'a> {
    /// `tools/call`, `prompts/get` or `resources/read`.
    pub method: &'a str,
    /// The tool or prompt name, or the resource URI.
    pub name: &'a str,
    /// The request's `arguments`.
    pub arguments: Option<&'a serde_json::Value>,
    /// The server's public identity.
    pub audience: &'a str,
    /// The authenticated caller, on a protected server.
    pub caller: Option<&'a str>,
}

impl<'a> StateRequest<'a> {
    fn binding(&self) -> crate::sealed_state::Binding<'a> {
        crate::sealed_state::Binding {
            method: self.method,
            name: self.name,
            arguments: self.arguments,
            audience: self.audience,
            caller: self.caller,
        }
    }
}

/// Seals and opens `requestState` as the runtime does, under given keys (the `sealed_state`
/// fuzz target holds that a state opens only as sealed, for its own request, in time).
#[derive(Debug)]
pub struct StateSeal(crate::StateKeys);

impl StateSeal {
    /// The keys, the first sealing, every one opening; `None` if two are the same.
    pub fn new(keys: impl IntoIterator<Item = [u8; 32]>) -> Option<StateSeal> {
        crate::StateKeys::from_keys(keys).ok().map(StateSeal)
    }

    /// `payload` sealed for `request`, valid for `lifetime` from `now`; `None` if the sealed
    /// string would be over the length a state may have.
    pub fn seal(
        &self,
        request: &StateRequest<'_>,
        payload: &[u8],
        lifetime: std::time::Duration,
        now: std::time::SystemTime,
    ) -> Option<String> {
        self.0.seal(&request.binding(), payload, lifetime, now).ok()
    }

    /// The payload of `sealed` if it opens for `request` at `now`, else why not (the reason
    /// the runtime logs: `malformed`, `unknown_key`, `forged`, `expired`, `too_large`).
    pub fn open(
        &self,
        request: &StateRequest<'_>,
        sealed: &str,
        now: std::time::SystemTime,
    ) -> Result<Vec<u8>, &'static str> {
        self.0
            .open(&request.binding(), sealed, now)
            .map_err(|refusal| refusal.reason())
    }
}
