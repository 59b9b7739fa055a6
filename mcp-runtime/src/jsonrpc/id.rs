//! Request ids, kept as the exact JSON text the client sent.
//!
//! Ids are strings or numbers and must come back byte for byte: `1` and `"1"` are different
//! ids, and an integer beyond 2^53 must not pass through a float. Keeping the raw JSON text
//! gives both for free.

use std::fmt;
use std::sync::Arc;

use serde_json::value::RawValue;

/// A JSON-RPC request id: a string or a number, exactly as it was written on the wire.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RequestId(Arc<str>);

impl RequestId {
    /// Accepts the raw JSON of an id; `None` unless it is a string or a number.
    pub(crate) fn from_raw(raw: &RawValue) -> Option<RequestId> {
        let text = raw.get();
        match text.as_bytes().first()? {
            b'"' | b'-' | b'0'..=b'9' => Some(RequestId(Arc::from(text))),
            _ => None,
        }
    }

    /// An id the server mints for its own requests to the client.
    pub(crate) fn from_number(n: u64) -> RequestId {
        RequestId(Arc::from(n.to_string()))
    }

    /// The id as JSON text, ready to splice into a message.
    pub fn as_json(&self) -> &str {
        &self.0
    }

    /// The id as a JSON value.
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::from_str(&self.0).unwrap_or(serde_json::Value::Null)
    }
}

impl fmt::Debug for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(text: &str) -> Option<RequestId> {
        let raw: Box<RawValue> = serde_json::from_str(text).unwrap();
        RequestId::from_raw(&raw)
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
    fn null_bool_object_and_array_are_not_ids() {
        for text in ["null", "true", "{}", "[1]"] {
            assert!(id(text).is_none(), "{text} accepted as an id");
        }
    }
}
