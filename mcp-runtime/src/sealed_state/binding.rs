//! What a sealed state is bound to: the request it was issued for. Its encoding is part of
//! the AEAD's associated data (which authenticates input of any length), so a state replayed
//! with another method, name, arguments or audience fails authentication.
//!
//! The arguments are written in a canonical form, object keys sorted recursively at every
//! depth, so a client that re-serializes the same arguments in another key order still
//! matches. Strings and numbers are written as `serde_json` writes them: `1` and `1.0` are
//! different arguments. No arguments and an empty object are the same (as `tools/call` reads
//! them).

use std::fmt;
use std::io::Write;

use serde_json::Value;

/// The request a state belongs to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Binding<'a> {
    /// The JSON-RPC method: `tools/call`, `prompts/get`, `resources/read`.
    pub(crate) method: &'a str,
    /// The tool or prompt name, or the resource URI.
    pub(crate) name: &'a str,
    /// The request's `arguments`, if any.
    pub(crate) arguments: Option<&'a Value>,
    /// Who the state was issued to: the server's public identity, or the authenticated
    /// principal, so that a state issued to one audience is refused for another.
    pub(crate) audience: &'a str,
}

/// Separates these bytes from anything else authenticated under the same keys.
const DOMAIN: &[u8] = b"mcp-runtime requestState binding v1\n";

impl Binding<'_> {
    /// The domain, the length-prefixed method, name and audience, then the canonical
    /// arguments (last, so they need no length): one byte string per binding, and distinct
    /// bindings never give the same one.
    pub(super) fn encoded(&self) -> Vec<u8> {
        let mut bytes = DOMAIN.to_vec();
        for field in [self.method, self.name, self.audience] {
            bytes.extend_from_slice(&(field.len() as u64).to_be_bytes());
            bytes.extend_from_slice(field.as_bytes());
        }
        let empty = Value::Object(serde_json::Map::new());
        let arguments = Canonical(self.arguments.unwrap_or(&empty));
        // Neither a `Vec` nor `Canonical` has a way to fail.
        write!(bytes, "{arguments}").expect("writing canonical JSON to memory cannot fail");
        bytes
    }
}

/// A JSON value written compactly with every object's keys sorted.
pub(super) struct Canonical<'a>(pub(super) &'a Value);

impl fmt::Display for Canonical<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Value::Array(items) => {
                f.write_str("[")?;
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        f.write_str(",")?;
                    }
                    Canonical(item).fmt(f)?;
                }
                f.write_str("]")
            }
            Value::Object(map) => {
                let entries: Vec<_> = map.iter().collect();
                let order = crate::sort_order::of(entries.iter().map(|(key, _)| key.as_str()));
                f.write_str("{")?;
                for (index, (key, value)) in order.into_iter().map(|i| entries[i]).enumerate() {
                    if index > 0 {
                        f.write_str(",")?;
                    }
                    // A key is written as the JSON string it is.
                    write!(f, "{}:", Value::String(key.clone()))?;
                    Canonical(value).fmt(f)?;
                }
                f.write_str("}")
            }
            // Scalars as `serde_json` writes them.
            scalar => write!(f, "{scalar}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn encoded(method: &str, name: &str, arguments: Option<&Value>, audience: &str) -> Vec<u8> {
        Binding {
            method,
            name,
            arguments,
            audience,
        }
        .encoded()
    }

    #[test]
    fn the_canonical_form_sorts_keys_at_every_depth_and_keeps_array_order() {
        let value: Value =
            serde_json::from_str(r#"{"b":[{"z":1,"a":"\"x\""},2.5],"a":{"d":null,"c":true}}"#)
                .unwrap();
        assert_eq!(
            Canonical(&value).to_string(),
            r#"{"a":{"c":true,"d":null},"b":[{"a":"\"x\"","z":1},2.5]}"#
        );
    }

    #[test]
    fn arguments_in_another_key_order_bind_the_same() {
        let one: Value = serde_json::from_str(r#"{"x":1,"y":{"p":"q","o":[1,2]}}"#).unwrap();
        let other: Value = serde_json::from_str(r#"{"y":{"o":[1,2],"p":"q"},"x":1}"#).unwrap();
        assert_eq!(
            encoded("tools/call", "t", Some(&one), "a"),
            encoded("tools/call", "t", Some(&other), "a")
        );
    }

    #[test]
    fn no_arguments_and_an_empty_object_bind_the_same_and_null_does_not() {
        let empty = json!({});
        assert_eq!(
            encoded("tools/call", "t", None, "a"),
            encoded("tools/call", "t", Some(&empty), "a")
        );
        assert_ne!(
            encoded("tools/call", "t", None, "a"),
            encoded("tools/call", "t", Some(&Value::Null), "a")
        );
    }

    #[test]
    fn every_field_changes_the_encoding_and_fields_do_not_run_into_each_other() {
        let args = json!({"n": 1});
        let base = encoded("tools/call", "t", Some(&args), "a");
        assert_ne!(base, encoded("prompts/get", "t", Some(&args), "a"));
        assert_ne!(base, encoded("tools/call", "u", Some(&args), "a"));
        assert_ne!(
            base,
            encoded("tools/call", "t", Some(&json!({"n": 2})), "a")
        );
        assert_ne!(
            base,
            encoded("tools/call", "t", Some(&json!({"n": 1.0})), "a")
        );
        assert_ne!(base, encoded("tools/call", "t", Some(&args), "b"));
        // Moving a character from one field to the next is another binding.
        assert_ne!(
            encoded("tools/call", "ab", None, "c"),
            encoded("tools/call", "a", None, "bc")
        );
    }
}
