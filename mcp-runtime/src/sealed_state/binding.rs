//! What a sealed state is bound to: the request it was issued for. Its digest is the AEAD's
//! associated data, so a state replayed with another method, name, arguments or audience
//! fails authentication.
//!
//! The arguments are hashed in a canonical form, object keys sorted recursively at every
//! depth, so a client that re-serializes the same arguments in another key order still
//! matches. Strings and numbers are written as `serde_json` writes them: `1` and `1.0` are
//! different arguments. No arguments and an empty object are the same (as `tools/call` reads
//! them).

use std::fmt;

use serde_json::Value;
use sha2::{Digest, Sha256};

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

/// Separates this digest from any other SHA-256 of the same bytes.
const DOMAIN: &[u8] = b"mcp-runtime requestState binding v1\n";

impl Binding<'_> {
    /// SHA-256 of the domain, the length-prefixed method, name and audience, then the
    /// canonical arguments (last, so they need no length).
    pub(super) fn digest(&self) -> [u8; 32] {
        let mut hash = HashWriter(Sha256::new());
        hash.0.update(DOMAIN);
        for field in [self.method, self.name, self.audience] {
            hash.0.update((field.len() as u64).to_be_bytes());
            hash.0.update(field.as_bytes());
        }
        let empty = Value::Object(serde_json::Map::new());
        let arguments = Canonical(self.arguments.unwrap_or(&empty));
        // Neither the writer nor `Canonical` has a way to fail.
        fmt::Write::write_fmt(&mut hash, format_args!("{arguments}"))
            .expect("hashing canonical JSON cannot fail");
        hash.0.finalize().into()
    }
}

/// A hash as a `fmt::Write`, so the canonical form is hashed as it is written.
struct HashWriter(Sha256);

impl fmt::Write for HashWriter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.update(s.as_bytes());
        Ok(())
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

    fn digest(method: &str, name: &str, arguments: Option<&Value>, audience: &str) -> [u8; 32] {
        Binding {
            method,
            name,
            arguments,
            audience,
        }
        .digest()
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
            digest("tools/call", "t", Some(&one), "a"),
            digest("tools/call", "t", Some(&other), "a")
        );
    }

    #[test]
    fn no_arguments_and_an_empty_object_bind_the_same_and_null_does_not() {
        let empty = json!({});
        assert_eq!(
            digest("tools/call", "t", None, "a"),
            digest("tools/call", "t", Some(&empty), "a")
        );
        assert_ne!(
            digest("tools/call", "t", None, "a"),
            digest("tools/call", "t", Some(&Value::Null), "a")
        );
    }

    #[test]
    fn every_field_changes_the_digest_and_fields_do_not_run_into_each_other() {
        let args = json!({"n": 1});
        let base = digest("tools/call", "t", Some(&args), "a");
        assert_ne!(base, digest("prompts/get", "t", Some(&args), "a"));
        assert_ne!(base, digest("tools/call", "u", Some(&args), "a"));
        assert_ne!(base, digest("tools/call", "t", Some(&json!({"n": 2})), "a"));
        assert_ne!(
            base,
            digest("tools/call", "t", Some(&json!({"n": 1.0})), "a")
        );
        assert_ne!(base, digest("tools/call", "t", Some(&args), "b"));
        // Moving a character from one field to the next is another binding.
        assert_ne!(
            digest("tools/call", "ab", None, "c"),
            digest("tools/call", "a", None, "bc")
        );
    }
}
