//! A request's reply as its handling ends: its bytes, or a tool's result still to be written,
//! which a transport with a buffer of its own takes straight into it
//! ([`Outbound::send_written`](crate::outbound::Outbound::send_written)).

use crate::jsonrpc::{RequestId, write_result};
use crate::protocol::CallToolResult;

/// A reply, encoded or to be written.
pub(crate) enum Reply {
    /// The whole reply.
    Encoded(Vec<u8>),
    /// The reply carrying a tool's result, as its client reads it.
    ToolResult(CallToolResult),
}

impl Reply {
    /// Appends the reply to `out`, as the reply to request `id` whose results get `members`
    /// after their own ([`CompleteMembers`](crate::protocol::stateless_result::CompleteMembers)).
    pub(crate) fn write(&self, out: &mut Vec<u8>, id: &RequestId, members: &str) {
        match self {
            Reply::Encoded(bytes) => out.extend_from_slice(bytes),
            Reply::ToolResult(result) => {
                write_result(out, id, &mut |out| result.write_json(out), members);
            }
        }
    }

    /// The reply's bytes ([`write`](Self::write)'s).
    pub(crate) fn into_bytes(self, id: &RequestId, members: &str) -> Vec<u8> {
        match self {
            Reply::Encoded(bytes) => bytes,
            to_write => {
                // `write_result` makes the room it needs.
                let mut out = Vec::new();
                to_write.write(&mut out, id, members);
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jsonrpc::encode_result_written;

    #[test]
    fn a_tool_result_is_written_as_it_is_encoded_after_what_precedes_it() {
        let id = RequestId::from_number(7);
        for members in ["", r#""resultType":"complete""#] {
            let result = CallToolResult::text("5");
            let encoded = encode_result_written(&id, |out| result.write_json(out), members);
            let reply = Reply::ToolResult(result);
            let mut out = b"earlier\n".to_vec();
            reply.write(&mut out, &id, members);
            assert_eq!(out, [&b"earlier\n"[..], &encoded].concat());
            assert_eq!(reply.into_bytes(&id, members), encoded);
        }
    }
}
