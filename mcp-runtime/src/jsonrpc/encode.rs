//! Writing messages: ids are spliced in as raw text, payloads serialized once.

use serde::Serialize;

use super::{RequestId, RpcError};

const RESULT_HEAD: &[u8] = br#"{"jsonrpc":"2.0","id":"#;

/// Room for a small reply without its added members: a tool's text result and its envelope.
const SMALL_RESULT: usize = 128;

/// `{"jsonrpc":"2.0","id":ID,"result":RESULT}`.
pub(crate) fn encode_result(id: &RequestId, result: &impl Serialize) -> Vec<u8> {
    encode_result_with(id, result, "")
}

/// `{"jsonrpc":"2.0","id":ID,"result":RESULT}` where RESULT, a JSON object, gets `members`
/// (JSON object members, without braces) after its own.
///
/// Only serializing `result` is generic; the rest is [`finish_result`], once in the binary.
pub(crate) fn encode_result_with(
    id: &RequestId,
    result: &impl Serialize,
    members: &str,
) -> Vec<u8> {
    encode_result_written(id, |out| serde_json::to_writer(out, result), members)
}

/// [`encode_result_with`] for a result that writes its own JSON (`write`).
pub(crate) fn encode_result_written(
    id: &RequestId,
    mut write: impl FnMut(&mut Vec<u8>) -> serde_json::Result<()>,
    members: &str,
) -> Vec<u8> {
    let mut out = Vec::new();
    write_result(&mut out, id, &mut write, members);
    out
}

/// [`encode_result_written`] appended to `out` (a writer's buffer, which other messages may
/// precede): what is written of the result is taken back if it fails, and the reply is then
/// an error.
///
/// Room is made first for a small result and `members` (a stateless result's are about 100
/// bytes), so that a new buffer is allocated once, at its size, not grown as it is written.
///
/// `write` is a `dyn` closure so that this function is in the binary once, not once per
/// type of result (eight copies of about 600 bytes in a release build of a small server).
pub(crate) fn write_result(
    out: &mut Vec<u8>,
    id: &RequestId,
    write: &mut dyn FnMut(&mut Vec<u8>) -> serde_json::Result<()>,
    members: &str,
) {
    out.reserve(SMALL_RESULT + members.len());
    let start = out.len();
    out.extend_from_slice(RESULT_HEAD);
    out.extend_from_slice(id.as_json_bytes());
    out.extend_from_slice(br#","result":"#);
    let serialized = write(out).is_ok();
    finish_result(out, start, id, serialized, members);
}

/// Closes a reply that starts at `start` of `out` and whose result has been written (if
/// `serialized`), adding `members` to it.
fn finish_result(out: &mut Vec<u8>, start: usize, id: &RequestId, serialized: bool, members: &str) {
    let adding = !members.is_empty();
    if !serialized || (adding && out.last() != Some(&b'}')) {
        out.truncate(start);
        let error = RpcError::internal("the server could not serialize its reply");
        out.extend_from_slice(&encode_error(Some(id), &error));
        return;
    }
    if adding {
        out.pop();
        if out.last() != Some(&b'{') {
            out.push(b',');
        }
        out.extend_from_slice(members.as_bytes());
        out.push(b'}');
    }
    out.push(b'}');
}

/// `{"jsonrpc":"2.0","id":ID|null,"error":{...}}`.
pub(crate) fn encode_error(id: Option<&RequestId>, error: &RpcError) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    out.extend_from_slice(RESULT_HEAD);
    out.extend_from_slice(id.map_or(&b"null"[..], RequestId::as_json_bytes));
    finish_error(out, error)
}

/// `{"jsonrpc":"2.0","error":{...}}`: an error no request can be named for, without an id.
pub(crate) fn encode_error_without_id(error: &RpcError) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    out.extend_from_slice(br#"{"jsonrpc":"2.0""#);
    finish_error(out, error)
}

fn finish_error(mut out: Vec<u8>, error: &RpcError) -> Vec<u8> {
    out.extend_from_slice(br#","error":"#);
    serde_json::to_writer(&mut out, error).expect("an RpcError always serializes");
    out.push(b'}');
    out
}

/// `{"jsonrpc":"2.0","method":M,"params":P}`.
pub(crate) fn encode_notification(method: &str, params: &impl Serialize) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    out.extend_from_slice(br#"{"jsonrpc":"2.0","method":"#);
    serde_json::to_writer(&mut out, method).expect("a string always serializes");
    out.extend_from_slice(br#","params":"#);
    serde_json::to_writer(&mut out, params).expect("notification params serialize");
    out.push(b'}');
    out
}

/// `{"jsonrpc":"2.0","id":ID,"method":M,"params":P}`.
pub(crate) fn encode_request(id: &RequestId, method: &str, params: &impl Serialize) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    out.extend_from_slice(RESULT_HEAD);
    out.extend_from_slice(id.as_json_bytes());
    out.extend_from_slice(br#","method":"#);
    serde_json::to_writer(&mut out, method).expect("a string always serializes");
    out.extend_from_slice(br#","params":"#);
    serde_json::to_writer(&mut out, params).expect("request params serialize");
    out.push(b'}');
    out
}

/// The length of `value`'s compact JSON text, counted without writing it: what a task holds
/// (`tasks/store.rs`).
#[cfg(feature = "tasks")]
pub(crate) fn json_bytes(value: &impl serde::Serialize) -> usize {
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter(0);
    // A value that does not serialize is not held as text either.
    let _ = serde_json::to_writer(&mut counter, value);
    counter.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn members_are_added_to_empty_and_full_results() {
        let id = RequestId::from_number(3);
        for (result, expected) in [
            (json!({}), json!({"x": 1})),
            (
                json!({"a": [1, {"b": "}"}]}),
                json!({"a": [1, {"b": "}"}], "x": 1}),
            ),
        ] {
            let text = encode_result_with(&id, &result, r#""x":1"#);
            let value: serde_json::Value = serde_json::from_slice(&text).unwrap();
            assert_eq!(value["result"], expected);
            assert_eq!(value["id"], 3);
        }
    }

    #[test]
    fn results_and_errors_are_valid_json_with_the_raw_id() {
        let raw: Box<serde_json::value::RawValue> =
            serde_json::from_str("9007199254740993").unwrap();
        let id = RequestId::from_json(raw.get()).unwrap();
        let text = String::from_utf8(encode_result(&id, &json!({}))).unwrap();
        assert_eq!(
            text,
            r#"{"jsonrpc":"2.0","id":9007199254740993,"result":{}}"#
        );
        let text =
            String::from_utf8(encode_error_without_id(&RpcError::invalid_request("x"))).unwrap();
        assert_eq!(
            text,
            r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"x"}}"#
        );
        let text = String::from_utf8(encode_error(None, &RpcError::invalid_request("x"))).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["id"], json!(null));
        assert_eq!(value["error"]["code"], json!(-32600));
    }
}
