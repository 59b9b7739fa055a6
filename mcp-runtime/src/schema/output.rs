//! The `outputSchema` of a tool, and whether its values are wrapped as `{"result": ...}`.

use schemars::JsonSchema;
use serde_json::{Map, Value, json};

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
    let schema = generator.subschema_for::<T>().to_value();
    let definitions = generator.take_definitions(true);
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
