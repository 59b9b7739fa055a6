//! What a sealed state is bound to: the request it was issued for. Its encoding is part of
//! the AEAD's associated data (which authenticates input of any length), so a state replayed
//! with another method, name, arguments or audience, or by another caller, fails
//! authentication.
//!
//! The arguments are written in a canonical form, object keys sorted recursively at every
//! depth, so a client that re-serializes the same arguments in another key order still
//! matches. Strings and numbers are written as `serde_json` writes them: `1` and `1.0` are
//! different arguments. No arguments and an empty object are the same (as `tools/call` reads
//! them).

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
    /// Which server the state was issued by and for: its public identity (its name), so that
    /// a state issued by one server is refused by another that shares its keys.
    pub(crate) audience: &'a str,
    /// Who the state was issued to, on a protected server: the authenticated caller (issuer
    /// and subject), so that a state issued to one caller is refused from another. `None`
    /// where requests carry no authenticated caller.
    pub(crate) caller: Option<&'a str>,
}

/// Separates these bytes from anything else authenticated under the same keys.
const DOMAIN: &[u8] = b"mcp-runtime requestState binding v1\n";
/// The same, for a state bound to a caller too (so that no binding with a caller encodes as
/// one without; one without encodes as before callers were bound, and still opens).
const DOMAIN_WITH_CALLER: &[u8] = b"mcp-runtime requestState binding v2 (caller)\n";

impl Binding<'_> {
    /// The domain, the length-prefixed method, name, audience and caller (if any), then the
    /// canonical arguments (last, so they need no length): one byte string per binding, and
    /// distinct bindings never give the same one.
    pub(super) fn encoded(&self) -> Vec<u8> {
        let mut bytes = match self.caller {
            None => DOMAIN.to_vec(),
            Some(_) => DOMAIN_WITH_CALLER.to_vec(),
        };
        let fields = [self.method, self.name, self.audience];
        for field in fields.into_iter().chain(self.caller) {
            bytes.extend_from_slice(&(field.len() as u64).to_be_bytes());
            bytes.extend_from_slice(field.as_bytes());
        }
        let empty = Value::Object(serde_json::Map::new());
        write_canonical(&mut bytes, self.arguments.unwrap_or(&empty));
        bytes
    }
}

/// Appends `value` to `out` written compactly with every object's keys sorted. Strings (keys
/// included) and numbers are written by `serde_json`'s own writer into the same buffer, so
/// they are exactly what `serde_json` writes.
pub(super) fn write_canonical(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Array(items) => {
            out.push(b'[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                write_canonical(out, item);
            }
            out.push(b']');
        }
        Value::Object(map) => {
            let entries: Vec<_> = map.iter().collect();
            let order = crate::sort_order::of(entries.iter().map(|(key, _)| key.as_str()));
            out.push(b'{');
            for (index, (key, value)) in order.into_iter().map(|i| entries[i]).enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                write_json(out, key);
                out.push(b':');
                write_canonical(out, value);
            }
            out.push(b'}');
        }
        scalar => write_json(out, scalar),
    }
}

/// A string or a scalar as `serde_json` writes it.
fn write_json(out: &mut Vec<u8>, value: &(impl serde::Serialize + ?Sized)) {
    // A string or a JSON scalar always serializes, and a `Vec` never fails a write.
    serde_json::to_writer(&mut *out, value).expect("writing JSON to memory cannot fail");
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
            caller: None,
        }
        .encoded()
    }

    /// A binding without a caller is encoded byte for byte as before callers were bound, so
    /// that the states an earlier build sealed (another instance, during an upgrade) open.
    #[test]
    fn a_binding_without_a_caller_encodes_as_before_callers_were_bound() {
        let mut before = b"mcp-runtime requestState binding v1\n".to_vec();
        for field in ["tools/call", "add", "srv"] {
            before.extend_from_slice(&(field.len() as u64).to_be_bytes());
            before.extend_from_slice(field.as_bytes());
        }
        before.extend_from_slice(br#"{"a":1}"#);
        let arguments = json!({"a": 1});
        assert_eq!(
            encoded("tools/call", "add", Some(&arguments), "srv"),
            before
        );
        let with_caller = Binding {
            method: "tools/call",
            name: "add",
            arguments: Some(&arguments),
            audience: "srv",
            caller: Some(""),
        };
        assert_ne!(with_caller.encoded(), before);
    }

    #[test]
    fn the_canonical_form_sorts_keys_at_every_depth_and_keeps_array_order() {
        let value: Value =
            serde_json::from_str(r#"{"b":[{"z":1,"a":"\"x\""},2.5],"a":{"d":null,"c":true}}"#)
                .unwrap();
        assert_eq!(
            canonical(&value),
            r#"{"a":{"c":true,"d":null},"b":[{"a":"\"x\"","z":1},2.5]}"#
        );
    }

    fn canonical(value: &Value) -> String {
        let mut out = Vec::new();
        write_canonical(&mut out, value);
        String::from_utf8(out).unwrap()
    }

    /// Strings and numbers are written exactly as `serde_json` writes them (a state sealed by
    /// an earlier build, whose binding wrote them through `Value`'s `Display`, still opens).
    #[test]
    fn strings_and_numbers_are_written_as_serde_json_writes_them() {
        let value = json!({
            "tab\there": "quote \" backslash \\ control \u{1} é 😀 </script>",
            "numbers": [0, -1, u64::MAX, i64::MIN, 1.5, -0.0, 1e300, 2.5e-8],
            "nested": [[], {}, null, false, true, ""],
        });
        let mut sorted = serde_json::Map::new();
        let object = value.as_object().unwrap();
        let mut keys: Vec<&String> = object.keys().collect();
        keys.sort();
        for key in keys {
            sorted.insert(key.clone(), object[key].clone());
        }
        assert_eq!(canonical(&value), Value::Object(sorted).to_string());
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
        // The caller too, and a character moved between the audience and the caller.
        let with = |audience, caller| {
            Binding {
                method: "tools/call",
                name: "t",
                arguments: Some(&args),
                audience,
                caller: Some(caller),
            }
            .encoded()
        };
        assert_ne!(base, with("a", ""));
        assert_ne!(with("a", "alice"), with("a", "bob"));
        assert_ne!(with("ab", "c"), with("a", "bc"));
    }
}
