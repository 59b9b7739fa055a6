//! The `inputSchema` of a tool: one property per argument parameter, each cleaned at every
//! depth by [`clean_input`] (no `$ref`, no
//! `null` alternative).
//!
//! Describing a tool also says what its parameters need (the state it reads), which the build
//! checks at once; the schemas themselves are only needed when a client lists the tools, so a
//! server is built with [`InputSchema::requirements_only`], and each tool's schema is made on
//! its first listing (`ToolDetails::input_schema`): most of a server's start-up work, and none
//! of it needed to answer `initialize`.

use schemars::JsonSchema;
use schemars::generate::SchemaGenerator;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::handler::{Requirements, is_optional};
use crate::schema::{clean_input, input_generator};

/// Collects the properties of a tool's `inputSchema` while its parameters are described.
pub struct InputSchema {
    /// `None` while only the requirements are collected.
    generator: Option<SchemaGenerator>,
    properties: Map<String, Value>,
    required: Vec<Value>,
    pub(crate) requirements: Requirements,
    /// Whether a parameter is mirrored into a header (noted even without schemas).
    pub(crate) mirrors: bool,
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
            generator: Some(input_generator()),
            ..InputSchema::requirements_only()
        }
    }

    /// One that collects what the parameters need and makes no schema: [`add`](Self::add)
    /// does nothing, and [`finish`](Self::finish) gives an empty map.
    pub(crate) fn requirements_only() -> InputSchema {
        InputSchema {
            generator: None,
            properties: Map::new(),
            required: Vec::new(),
            requirements: Requirements::default(),
            mirrors: false,
        }
    }

    /// Adds the property `name` described by `T`'s schema; required unless `T` can be absent.
    pub fn add<T: DeserializeOwned + JsonSchema>(&mut self, name: &str, description: Option<&str>) {
        let Some(generator) = &mut self.generator else {
            return;
        };
        let schema = generator.subschema_for::<T>().to_value();
        self.add_schema(name, description, schema, is_optional::<T>());
    }

    /// [`add`](Self::add) once the parameter's schema is made: the same code for every type.
    fn add_schema(
        &mut self,
        name: &str,
        description: Option<&str>,
        mut schema: Value,
        optional: bool,
    ) {
        if let (Value::Object(map), Some(description)) = (&mut schema, description) {
            map.insert("description".to_owned(), Value::from(description));
        }
        if !optional {
            self.required.push(Value::from(name));
        }
        self.properties.insert(name.to_owned(), schema);
    }

    /// Marks the property `name` as mirrored into the `Mcp-Param-<header>` HTTP header
    /// (`"x-mcp-header": header`, revision 2026-07-28), for `#[header(...)]`.
    #[doc(hidden)]
    pub fn mirror(&mut self, name: &str, header: &str) {
        self.mirrors = true;
        if let Some(Value::Object(property)) = self.properties.get_mut(name) {
            property.insert("x-mcp-header".to_owned(), Value::from(header));
        }
    }

    /// The finished schema: `{"type": "object", "properties": ..., "required": ...}`, with
    /// every reference inlined (a recursive type written out a few levels deep). (Empty while
    /// the server is built: the schema is made when the tools are first listed.)
    pub fn finish(&mut self) -> Map<String, Value> {
        let Some(generator) = &mut self.generator else {
            return Map::new();
        };
        let definitions = generator.take_definitions(true);
        let mut properties = std::mem::take(&mut self.properties);
        for property in properties.values_mut() {
            clean_input(property, &definitions);
        }
        let mut schema = Map::new();
        schema.insert("type".to_owned(), Value::from("object"));
        schema.insert("properties".to_owned(), Value::Object(properties));
        if !self.required.is_empty() {
            schema.insert(
                "required".to_owned(),
                Value::Array(std::mem::take(&mut self.required)),
            );
        }
        schema
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    enum Order {
        Newest,
        Oldest,
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Query {
        order: Option<Order>,
        tags: Option<Vec<Option<String>>>,
        pair: Option<(String, u64)>,
        replies: Vec<Query>,
    }

    /// Every `null` and every `$ref` in `schema`, as paths (enum values are data, not schemas,
    /// but `Order`'s hold none).
    fn unclean(schema: &Value, at: &str, found: &mut Vec<String>) {
        match schema {
            Value::Object(map) => {
                for (key, value) in map {
                    if key == "$ref" || key == "$defs" {
                        found.push(format!("{at}/{key}"));
                    }
                    unclean(value, &format!("{at}/{key}"), found);
                }
            }
            Value::Array(items) => items
                .iter()
                .enumerate()
                .for_each(|(i, item)| unclean(item, &format!("{at}/{i}"), found)),
            Value::String(s) if s == "null" => found.push(at.to_owned()),
            Value::Null => found.push(at.to_owned()),
            _ => {}
        }
    }

    #[test]
    fn nested_options_and_recursion_leave_no_null_and_no_reference() {
        let mut schema = InputSchema::new();
        schema.add::<Query>("query", Some("The query."));
        schema.add::<Option<Query>>("other", None);
        let schema = Value::Object(schema.finish());
        let mut found = Vec::new();
        unclean(&schema, "#", &mut found);
        assert!(found.is_empty(), "{found:?} in {schema}");
        assert_eq!(schema["required"], serde_json::json!(["query"]));
        let order = &schema["properties"]["query"]["properties"]["order"];
        assert_eq!(
            order["enum"],
            serde_json::json!(["Newest", "Oldest"]),
            "{order}"
        );
    }
}
