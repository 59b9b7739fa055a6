//! The `outputSchema` of a tool, and whether its values are wrapped as `{"result": ...}`. It
//! describes exactly what is serialized, `null` included; only non-standard `format`s are dropped.

use schemars::JsonSchema;
use serde_json::{Map, Value, json};

use super::normalize::clean_output;
use super::output_generator;

/// How a tool's structured result is laid out, decided once from its type's schema.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct OutputShape {
    /// The `outputSchema`.
    pub schema: Map<String, Value>,
    /// Whether values are wrapped as `{"result": value}` because they are not JSON objects.
    pub wrapped: bool,
}

/// The output shape for `T`.
pub(crate) fn output_schema_for<T: JsonSchema + ?Sized>() -> OutputShape {
    let mut generator = output_generator();
    let mut schema = generator.subschema_for::<T>().to_value();
    let mut definitions = generator.take_definitions(true);
    clean_output(&mut schema);
    definitions.values_mut().for_each(clean_output);
    let (mut schema, wrapped) = match schema {
        Value::Object(mut map) if is_object_schema(&map) => {
            map.insert("type".to_owned(), Value::from("object"));
            (map, false)
        }
        other => {
            let Value::Object(map) = json!({
                "type": "object",
                "properties": {"result": other},
                "required": ["result"],
            }) else {
                unreachable!("a json! object literal is an object")
            };
            (map, true)
        }
    };
    if !definitions.is_empty() {
        schema.insert("$defs".to_owned(), Value::Object(definitions));
    }
    OutputShape { schema, wrapped }
}

/// An object schema, or a choice among object schemas (an enum of struct variants).
fn is_object_schema(schema: &Map<String, Value>) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(_) => false,
        None => ["oneOf", "anyOf"].iter().any(|key| {
            schema
                .get(*key)
                .and_then(Value::as_array)
                .is_some_and(|branches| {
                    !branches.is_empty()
                        && branches
                            .iter()
                            .all(|b| b.as_object().is_some_and(is_object_schema))
                })
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A struct with an optional field and a recursive one.
    #[derive(schemars::JsonSchema, serde::Serialize)]
    #[allow(dead_code)]
    struct Node {
        size: Option<u32>,
        children: Vec<Node>,
    }

    #[test]
    fn output_schemas_keep_null_and_references_and_drop_unknown_formats() {
        let shape = output_schema_for::<Node>();
        let text = Value::Object(shape.schema.clone()).to_string();
        assert!(!shape.wrapped);
        assert!(text.contains(r#""null""#), "{text}");
        assert!(
            text.contains("$ref") && shape.schema.contains_key("$defs"),
            "{text}"
        );
        assert!(!text.contains("uint32"), "{text}");
    }
}
