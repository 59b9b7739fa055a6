//! Request ids, kept as the exact JSON text the client sent.
//!
//! Ids are strings or integers and must come back byte for byte: `1` and `"1"` are different
//! ids, and an integer beyond 2^53 must not pass through a float. Keeping the raw JSON text
//! gives both for free.
//!
//! A number with a fraction or an exponent (`1.5`, `1e3`, `1.0`) is not an id. MCP: "Requests
//! **MUST** include a string or integer ID" (specification 2025-11-25, Base Protocol >
//! Messages > Requests; the same in 2025-03-26 and 2025-06-18); JSON-RPC 2.0 (section 4,
//! Request object): numbers "SHOULD NOT contain fractional parts". An exponent writes one
//! integer several ways (`1e3`, `1000`), which an id compared by its text cannot allow.
//!
//! Most ids are short (a client counting its requests reaches 9,999,999 only after that many),
//! so an id of up to [`INLINE`] bytes is kept in place, without an allocation; a longer one is
//! shared text. Every id has the one form its length gives it, so ids compare and hash by it.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// Values by request id. Ids are short and looked up two or three times per request, so the
/// hasher is foldhash's, seeded at random per process (ids are the client's choice: a fixed
/// seed would let a client make them collide), not the standard SipHash, which costs several
/// times as much per id.
pub(crate) type IdMap<V> = HashMap<RequestId, V, foldhash::fast::RandomState>;

/// A JSON-RPC request id: a string or an integer, exactly as it was written on the wire.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RequestId(Spelling);

/// The longest id accepted, as JSON text (quotes included), and the longest progress token:
/// each is echoed in the reply or in every notification about the request (a listen stream's,
/// a progress report), so a longer one would make every message that long.
pub(crate) const MAX_ID_BYTES: usize = 1024;

/// The longest id text kept in place: what fits beside its length in the size of a shared one.
const INLINE: usize = 7;

/// An id's text: in place if it is at most [`INLINE`] bytes long (the rest of `bytes` zero),
/// else shared.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Spelling {
    Inline { len: u8, bytes: [u8; INLINE] },
    Shared(Arc<str>),
}

impl Spelling {
    fn of(text: &str) -> Spelling {
        if text.len() > INLINE {
            return Spelling::Shared(Arc::from(text));
        }
        let mut bytes = [0; INLINE];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Spelling::Inline {
            len: text.len() as u8,
            bytes,
        }
    }

    fn text(&self) -> &str {
        std::str::from_utf8(self.bytes()).expect("an id's spelling is the whole of a `str`")
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Spelling::Inline { len, bytes } => &bytes[..usize::from(*len)],
            Spelling::Shared(text) => text.as_bytes(),
        }
    }
}

impl RequestId {
    /// Accepts the JSON text of an id (checked to be JSON); `None` unless it is a string or an
    /// integer written without fraction or exponent.
    pub(crate) fn from_json(text: &str) -> Option<RequestId> {
        let id = match text.as_bytes().first()? {
            b'"' => true,
            // Valid JSON already: a number is an integer when it has no `.`, `e` or `E`.
            b'-' | b'0'..=b'9' => !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')),
            _ => false,
        };
        id.then(|| RequestId(Spelling::of(text)))
    }

    /// An id the server mints for its own requests to the client.
    pub(crate) fn from_number(n: u64) -> RequestId {
        RequestId(Spelling::of(&n.to_string()))
    }

    /// The id as JSON text, ready to splice into a message.
    pub fn as_json(&self) -> &str {
        self.0.text()
    }

    /// [`as_json`](Self::as_json)'s bytes, for a message being written (without checking
    /// again that they are UTF-8).
    pub(crate) fn as_json_bytes(&self) -> &[u8] {
        self.0.bytes()
    }

    /// The id as a JSON value.
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::from_str(self.as_json()).unwrap_or(serde_json::Value::Null)
    }
}

impl fmt::Debug for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_json())
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_json())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(text: &str) -> Option<RequestId> {
        let raw: Box<serde_json::value::RawValue> = serde_json::from_str(text).unwrap();
        RequestId::from_json(raw.get())
    }

    #[test]
    fn strings_and_numbers_are_ids_and_keep_their_spelling() {
        assert_eq!(id("0").unwrap().as_json(), "0");
        assert_eq!(id("\"1\"").unwrap().as_json(), "\"1\"");
        assert_ne!(id("1"), id("\"1\""));
        assert_eq!(
            id("123456789012345678901234567890").unwrap().as_json(),
            "123456789012345678901234567890"
        );
        assert_eq!(id("-7").unwrap().as_json(), "-7");
    }

    #[test]
    fn short_and_long_ids_alike_compare_by_their_text() {
        for text in ["1", "1234567", "12345678", "\"a-long-string-id\"", "\"é\""] {
            assert_eq!(id(text).unwrap().as_json(), text);
            assert_eq!(id(text), id(text));
            assert_eq!(
                RequestId::from_number(text.len() as u64).as_json(),
                text.len().to_string()
            );
        }
        assert_ne!(id("1234567"), id("12345678"));
        assert_ne!(id("\"1234\""), id("1234"));
    }

    #[test]
    fn null_bool_object_and_array_are_not_ids() {
        for text in ["null", "true", "{}", "[1]"] {
            assert!(id(text).is_none(), "{text} accepted as an id");
        }
    }

    #[test]
    fn numbers_with_a_fraction_or_an_exponent_are_not_ids() {
        for text in ["1.5", "1e3", "1E3", "1.0", "-2.5e-3", "0.0"] {
            assert!(id(text).is_none(), "{text} accepted as an id");
        }
        // A string holding the same text is a string id like any other.
        assert_eq!(id("\"1.5\"").unwrap().as_json(), "\"1.5\"");
    }
}
