//! The id of a request from its first bytes only: for the refusal of a message too long to
//! read whole.
//!
//! A transport that discards an oversized message keeps its beginning, where clients put
//! `id` and `method` (before `params`, which is what makes a message long). When that beginning
//! shows a request for certain (a complete `method` string and one complete, valid `id`), the
//! refusal can name the request, and the client's call fails at once instead of waiting for a
//! reply that never comes. Anything less certain (no `method`, a `result` or `error`, which
//! would make it a response to one of the server's own requests, two `id`s, an id cut off
//! where the kept part ends) names no request, as for any message whose id could not be read.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::{MAX_ID_BYTES, RequestId, Text};

/// The id of the request `kept` begins, when that is certain from `kept` alone.
pub(crate) fn request_id_in_prefix(kept: &[u8]) -> Option<RequestId> {
    let mut found = Found::default();
    // Read as text, as every message is (one reader of serde_json's in the binary): the
    // valid UTF-8 the bytes begin with, which is all of them unless the cut split a character.
    let text = kept.utf8_chunks().next().map_or("", |chunk| chunk.valid());
    let mut deserializer = serde_json::Deserializer::from_str(text);
    // The scan stops at the end of `kept`, mid-message: the error that follows is expected,
    // and what was read before it stands.
    let _ = Scan(&mut found).deserialize(&mut deserializer);
    // An id over the limit is not echoed, as for a message read whole.
    let id = found.id.filter(|id| {
        found.method && !found.response && !found.duplicate && id.get().len() <= MAX_ID_BYTES
    })?;
    // A number cut off by the end of `kept` (`"id":12` of `"id":123`) parses as well as a
    // whole one: only a delimiter after it proves it ended.
    let end = id.get().as_ptr() as usize - kept.as_ptr() as usize + id.get().len();
    if !kept[end..].iter().any(|b| !b.is_ascii_whitespace()) {
        return None;
    }
    RequestId::from_json(id.get())
}

#[derive(Default)]
struct Found<'a> {
    id: Option<&'a RawValue>,
    method: bool,
    response: bool,
    duplicate: bool,
}

/// Reads the top-level members one by one, recording `id`, `method`, `result` and `error`,
/// until it has seen enough or the bytes run out.
struct Scan<'f, 'a>(&'f mut Found<'a>);

impl<'de> DeserializeSeed<'de> for Scan<'_, 'de> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Scan<'_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC message")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(Text(key)) = map.next_key::<Text<'de>>()? {
            match &*key {
                "id" => {
                    let id = map.next_value::<&'de RawValue>()?;
                    self.0.duplicate |= self.0.id.replace(id).is_some();
                }
                "method" => {
                    map.next_value::<Text<'de>>()?;
                    self.0.method = true;
                }
                "result" | "error" => {
                    self.0.response = true;
                    return Ok(());
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id_in(kept: &str) -> Option<String> {
        request_id_in_prefix(kept.as_bytes()).map(|id| id.as_json().to_owned())
    }

    #[test]
    fn a_request_cut_off_in_its_params_is_named() {
        let kept = r#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"x","arguments":{"text":"xxxx"#;
        assert_eq!(id_in(kept).as_deref(), Some("42"));
        let kept = r#" { "method" : "tools/call", "id" : "a\"b", "params": [1, 2"#;
        assert_eq!(id_in(kept).as_deref(), Some(r#""a\"b""#));
    }

    #[test]
    fn a_cut_through_a_character_still_names_the_request() {
        let text = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"text":"été"#;
        // The last `é` (two bytes) loses its second byte.
        let kept = &text.as_bytes()[..text.len() - 1];
        let id = request_id_in_prefix(kept).map(|id| id.as_json().to_owned());
        assert_eq!(id.as_deref(), Some("9"));
    }

    #[test]
    fn anything_less_than_certain_names_no_request() {
        for kept in [
            // The id may go on: `12` of `123`.
            r#"{"jsonrpc":"2.0","method":"ping","id":12"#,
            // No method seen: maybe a response to the server's own request.
            r#"{"jsonrpc":"2.0","id":7,"params":{"x":"yyyy"#,
            r#"{"jsonrpc":"2.0","id":7,"result":{"content":"yyyy"#,
            r#"{"jsonrpc":"2.0","method":"x","id":7,"error":{"#,
            // Two ids.
            r#"{"id":1,"method":"ping","id":2,"params":{"#,
            // Not an id.
            r#"{"id":1.5,"method":"ping","params":{"#,
            r#"{"id":null,"method":"ping","params":{"#,
            // Not an object.
            r#"[{"id":1,"method":"ping","params":{"#,
            r#"{"id":1,"method":"pi"#,
            "",
        ] {
            assert_eq!(id_in(kept), None, "{kept}");
        }
    }

    #[test]
    fn an_id_over_the_limit_is_not_echoed() {
        let named = |id: &str| id_in(&format!(r#"{{"id":"{id}","method":"ping","params":{{"#));
        let longest = "x".repeat(MAX_ID_BYTES - 2);
        assert!(named(&longest).is_some(), "1024 bytes with its quotes");
        assert_eq!(named(&format!("{longest}x")), None);
    }
}
