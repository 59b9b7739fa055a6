//! Rewrites that make a generated schema acceptable to every client.

use serde_json::{Map, Value};

/// Removes the `null` alternative that schemars adds for `Option<T>`: from a `type` array,
/// from `enum`, and from an `anyOf`/`oneOf` branch list (collapsing it when one branch is left).
pub(crate) fn strip_null(schema: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = schema.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.pop().expect("one element");
            schema.insert("type".to_owned(), only);
        }
    }
    if let Some(Value::Array(values)) = schema.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = schema.get_mut(key) else {
            continue;
        };
        branches.retain(|branch| !is_null_schema(branch));
        if branches.len() == 1 {
            let Some(Value::Object(only)) = branches.pop() else {
                continue;
            };
            schema.remove(key);
            for (k, v) in only {
                schema.entry(k).or_insert(v);
            }
        }
    }
}

fn is_null_schema(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => {
            map.get("type").is_some_and(|t| t == "null")
                || map.get("const").is_some_and(Value::is_null)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stripped(value: Value) -> Value {
        let Value::Object(mut map) = value else {
            unreachable!()
        };
        strip_null(&mut map);
        Value::Object(map)
    }

    #[test]
    fn null_alternatives_are_removed() {
        assert_eq!(
            stripped(json!({"type": ["string", "null"]})),
            json!({"type": "string"})
        );
        assert_eq!(
            stripped(
                json!({"anyOf": [{"type": "string", "enum": ["a"]}, {"type": "null"}], "description": "d"})
            ),
            json!({"type": "string", "enum": ["a"], "description": "d"})
        );
        assert_eq!(
            stripped(json!({"enum": ["a", null]})),
            json!({"enum": ["a"]})
        );
    }
}
