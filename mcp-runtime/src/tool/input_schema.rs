//! The `inputSchema` of a tool: one property per argument parameter.

use schemars::JsonSchema;
use schemars::generate::SchemaGenerator;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::handler::{Requirements, is_optional};
use crate::schema::{input_generator, strip_null};

/// Collects the properties of a tool's `inputSchema` while its parameters are described.
pub struct InputSchema {
    generator: SchemaGenerator,
    properties: Map<String, Value>,
    required: Vec<Value>,
    pub(crate) requirements: Requirements,
}

impl Default for InputSchema {
    fn default() -> Self {
        InputSchema::new()
    }
}

impl InputSchema {
    /// An object schema with no properties yet.
    pub fn new() -> InputSchema {
        InputSchema {
            generator: input_generator(),
            properties: Map::new(),
            required: Vec::new(),
            requirements: Requirements::default(),
        }
    }

    /// Adds the property `name` described by `T`'s schema; required unless `T` can be absent.
    pub fn add<T: DeserializeOwned + JsonSchema>(&mut self, name: &str, description: Option<&str>) {
        let mut schema = self.generator.subschema_for::<T>().to_value();
        let optional = is_optional::<T>();
        if let Value::Object(map) = &mut schema {
            if optional {
                strip_null(map);
            }
            if let Some(description) = description {
                map.insert("description".to_owned(), Value::from(description));
            }
        }
        if !optional {
            self.required.push(Value::from(name));
        }
        self.properties.insert(name.to_owned(), schema);
    }

    /// The finished schema: `{"type": "object", "properties": ..., "required": ...}`.
    pub fn finish(&mut self) -> Map<String, Value> {
        let mut schema = Map::new();
        schema.insert("type".to_owned(), Value::from("object"));
        schema.insert(
            "properties".to_owned(),
            Value::Object(std::mem::take(&mut self.properties)),
        );
        if !self.required.is_empty() {
            schema.insert(
                "required".to_owned(),
                Value::Array(std::mem::take(&mut self.required)),
            );
        }
        let definitions = self.generator.take_definitions(true);
        if !definitions.is_empty() {
            schema.insert("$defs".to_owned(), Value::Object(definitions));
        }
        schema
    }
}
