//! The `outputSchema` of a tool's result type. It describes exactly what is serialized, `null`
//! included; only non-standard `format`s are dropped. Whether and how it is wrapped for the
//! 2025 revisions is [`OutputSchema`]'s to decide.

use schemars::JsonSchema;
use serde_json::Value;

use super::normalize::clean_output;
use super::output_generator;
use crate::protocol::OutputSchema;

/// The output schema of `T`, its definitions at its root.
pub(crate) fn output_schema_for<T: JsonSchema + ?Sized>() -> OutputSchema {
    let mut generator = output_generator();
    let mut schema = generator.subschema_for::<T>().to_value();
    let mut definitions = generator.take_definitions(true);
    clean_output(&mut schema);
    definitions.values_mut().for_each(clean_output);
    let mut schema = match schema {
        Value::Object(map) => map,
        // `true` (anything): the schema that says so as an object.
        other => {
            let mut map = serde_json::Map::new();
            if other == Value::Bool(false) {
                map.insert("not".to_owned(), Value::Object(serde_json::Map::new()));
            }
            map
        }
    };
    if !definitions.is_empty() {
        schema.insert("$defs".to_owned(), Value::Object(definitions));
    }
    OutputSchema::new(schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Revision;

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
        let legacy = shape.for_revision(Revision::V2025_11_25);
        assert_eq!(legacy, shape.schema());
        assert!(!shape.wraps_values(Revision::V2025_11_25));
        let text = Value::Object(legacy.clone()).to_string();
        assert!(text.contains(r#""null""#), "{text}");
        assert!(
            text.contains("$ref") && legacy.contains_key("$defs"),
            "{text}"
        );
        assert!(!text.contains("uint32"), "{text}");
    }

    #[test]
    fn a_list_is_wrapped_for_2025_with_its_definitions_at_the_wrappers_root() {
        let shape = output_schema_for::<Vec<Node>>();
        let modern = shape.schema();
        assert_eq!(modern["type"], "array");
        assert!(modern.contains_key("$defs"));
        let legacy = shape.for_revision(Revision::V2025_11_25);
        assert_eq!(legacy["type"], "object");
        assert_eq!(legacy["required"], serde_json::json!(["result"]));
        assert_eq!(legacy["properties"]["result"]["type"], "array");
        assert!(legacy["properties"]["result"].get("$defs").is_none());
        assert_eq!(legacy["$defs"], modern["$defs"]);
        assert!(shape.wraps_values(Revision::V2025_11_25));
        assert!(!shape.wraps_values(Revision::V2026_07_28));
    }
}
