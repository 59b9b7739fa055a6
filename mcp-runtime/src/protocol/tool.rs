//! Tool descriptions (`tools/list`) and call results (`tools/call`).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::{Content, Revision};

/// Hints about a tool's behaviour, for clients deciding what to confirm with the user.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// A human-readable title.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub title: Option<String>,
    /// The tool does not change its environment.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub read_only_hint: Option<bool>,
    /// The tool may destroy or overwrite data.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub destructive_hint: Option<bool>,
    /// Calling it twice with the same arguments has no further effect.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub idempotent_hint: Option<bool>,
    /// The tool reaches outside systems.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub open_world_hint: Option<bool>,
}

impl ToolAnnotations {
    fn is_empty(&self) -> bool {
        *self == ToolAnnotations::default()
    }
}

/// Everything `tools/list` says about one tool.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolDefinition {
    /// The tool's name: 1 to 128 characters of `A-Za-z0-9_.-`.
    pub name: Cow<'static, str>,
    /// A human-readable title.
    pub title: Option<Cow<'static, str>>,
    /// What the tool does, for the model.
    pub description: Option<Cow<'static, str>>,
    /// The JSON Schema of `arguments`; its root is `"type": "object"`.
    pub input_schema: Map<String, Value>,
    /// The JSON Schema of `structuredContent`, when the tool returns structured data.
    pub output_schema: Option<OutputSchema>,
    /// Behaviour hints.
    pub annotations: ToolAnnotations,
}

/// A tool's `outputSchema`, in the form each revision sends.
///
/// Revision 2026-07-28 allows any JSON Schema, and `structuredContent` of any JSON type; the
/// 2025 revisions require an object for both. A schema that does not describe an object (a
/// list, a number) is therefore sent to 2025 clients wrapped as
/// `{"type": "object", "properties": {"result": schema}, "required": ["result"]}`, and the
/// values as `{"result": value}`; 2026-07-28 clients get both as they are. Both forms are made
/// once, here.
///
/// ```
/// use mcp_runtime::{OutputSchema, Revision};
/// use serde_json::json;
///
/// let Some(list) = json!({"type": "array", "items": {"type": "integer"}}).as_object().cloned()
/// else { unreachable!() };
/// let schema = OutputSchema::new(list);
/// assert_eq!(schema.for_revision(Revision::V2026_07_28)["type"], "array");
/// assert_eq!(schema.for_revision(Revision::V2025_11_25)["required"], json!(["result"]));
/// assert!(schema.wraps_values(Revision::V2025_11_25));
/// assert!(!schema.wraps_values(Revision::V2026_07_28));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct OutputSchema {
    /// The schema of the values, as revision 2026-07-28 sends it.
    schema: Map<String, Value>,
    /// The object schema the 2025 revisions get instead, when `schema` is not one.
    wrapper: Option<Map<String, Value>>,
}

impl OutputSchema {
    /// The `outputSchema` of values described by `schema`. An object schema (or a choice among
    /// object schemas, which gets `"type": "object"` at its root) is sent to every revision as
    /// it is; any other is wrapped for the 2025 revisions (see the type's docs).
    pub fn new(mut schema: Map<String, Value>) -> OutputSchema {
        if is_object_schema(&schema) {
            schema.insert("type".to_owned(), Value::from("object"));
            return OutputSchema {
                schema,
                wrapper: None,
            };
        }
        let mut inner = schema.clone();
        let mut wrapper = Map::new();
        wrapper.insert("type".to_owned(), Value::from("object"));
        // References (`#/$defs/...`) and the dialect name the document's root: they move to
        // the wrapper's.
        let root_keys: Vec<(String, Value)> = ["$schema", "$defs", "definitions"]
            .into_iter()
            .filter_map(|key| Some((key.to_owned(), inner.remove(key)?)))
            .collect();
        let mut properties = Map::with_capacity(1);
        properties.insert("result".to_owned(), Value::Object(inner));
        wrapper.insert("properties".to_owned(), Value::Object(properties));
        wrapper.insert("required".to_owned(), Value::from(vec!["result"]));
        wrapper.extend(root_keys);
        OutputSchema {
            schema,
            wrapper: Some(wrapper),
        }
    }

    /// The schema of the values, as revision 2026-07-28 sends it.
    pub fn schema(&self) -> &Map<String, Value> {
        &self.schema
    }

    /// Whether values are sent to a client of `revision` wrapped as `{"result": value}`.
    pub fn wraps_values(&self, revision: Revision) -> bool {
        self.wrapper.is_some() && !revision.allows_any_structured_content()
    }

    /// The `outputSchema` a client of `revision` gets.
    pub fn for_revision(&self, revision: Revision) -> &Map<String, Value> {
        match &self.wrapper {
            Some(wrapper) if !revision.allows_any_structured_content() => wrapper,
            _ => &self.schema,
        }
    }
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

/// A tool as written on the wire for one revision.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WireTool<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    input_schema: &'a RawValue,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_schema: Option<&'a Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<Cow<'a, ToolAnnotations>>,
}

impl<'a> WireTool<'a> {
    /// `tool` with `input_schema` (kept apart from the definition, as it is made when first
    /// listed).
    pub(crate) fn new(
        tool: &'a ToolDefinition,
        input_schema: &'a RawValue,
        revision: Revision,
    ) -> WireTool<'a> {
        let modern = revision.has_structured_output();
        let mut annotations = Cow::Borrowed(&tool.annotations);
        if !modern && annotations.title.is_none() {
            // 2025-03-26 has no top-level title; its annotations carry it instead.
            if let Some(title) = &tool.title {
                annotations.to_mut().title = Some(title.to_string());
            }
        }
        WireTool {
            name: &tool.name,
            title: tool.title.as_deref().filter(|_| modern),
            description: tool.description.as_deref(),
            input_schema,
            output_schema: tool
                .output_schema
                .as_ref()
                .filter(|_| modern)
                .map(|schema| schema.for_revision(revision)),
            annotations: (!annotations.is_empty()).then_some(annotations),
        }
    }
}

/// The result of `tools/call`.
///
/// A tool that fails still produces a result, with `is_error` set and a message in `content`,
/// so the model can read what went wrong and try again.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    /// What the model reads.
    pub content: Vec<Content>,
    /// The same result as JSON matching the tool's `outputSchema`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub structured_content: Option<Value>,
    /// Whether the call failed.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub is_error: bool,
}

impl CallToolResult {
    /// A successful result with one text block.
    pub fn text(text: impl Into<String>) -> CallToolResult {
        CallToolResult {
            content: vec![Content::text(text)],
            ..CallToolResult::default()
        }
    }

    /// A failed result (`isError: true`) with the message as text.
    pub fn error(message: impl Into<String>) -> CallToolResult {
        CallToolResult {
            content: vec![Content::text(message)],
            structured_content: None,
            is_error: true,
        }
    }

    /// This result as a 2025 client of a tool whose values are wrapped gets it: the structured
    /// value as `{"result": value}`, and a text block that mirrors the value (its JSON, as
    /// structured output writes it) mirroring the wrapped object instead.
    pub(crate) fn wrap_structured_content(&mut self) {
        let Some(value) = self.structured_content.take() else {
            return;
        };
        if let [Content::Text(block)] = self.content.as_mut_slice()
            && serde_json::to_string(&value).is_ok_and(|json| json == block.text)
        {
            block.text = format!(r#"{{"result":{}}}"#, block.text);
        }
        let mut wrapper = Map::with_capacity(1);
        wrapper.insert("result".to_owned(), value);
        self.structured_content = Some(Value::Object(wrapper));
    }

    /// A successful result with these content blocks.
    pub fn content(content: Vec<Content>) -> CallToolResult {
        CallToolResult {
            content,
            ..CallToolResult::default()
        }
    }

    /// Appends the JSON its `Serialize` writes, byte for byte, with the member names written
    /// as they are: a `tools/call` reply is the message a server writes most, and serde
    /// escapes each name and goes through its map machinery for each member (about 600
    /// instructions a reply of one text block).
    pub(crate) fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        out.extend_from_slice(br#"{"content":["#);
        for (index, block) in self.content.iter().enumerate() {
            if index > 0 {
                out.push(b',');
            }
            block.write_json(out)?;
        }
        out.push(b']');
        if let Some(structured) = &self.structured_content {
            out.extend_from_slice(br#","structuredContent":"#);
            serde_json::to_writer(&mut *out, structured)?;
        }
        if self.is_error {
            out.extend_from_slice(br#","isError":true"#);
        }
        out.push(b'}');
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> Map<String, Value> {
        value.as_object().cloned().expect("an object")
    }

    #[test]
    fn a_wrapped_schema_keeps_its_dialect_and_definitions_at_the_root() {
        let schema = OutputSchema::new(object(json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "array",
            "items": {"$ref": "#/$defs/Gift"},
            "$defs": {"Gift": {"type": "object"}},
        })));
        assert_eq!(
            Value::Object(schema.for_revision(Revision::V2025_06_18).clone()),
            json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "properties": {"result": {"type": "array", "items": {"$ref": "#/$defs/Gift"}}},
                "required": ["result"],
                "$defs": {"Gift": {"type": "object"}},
            })
        );
        assert_eq!(schema.for_revision(Revision::V2026_07_28)["type"], "array");
    }

    #[test]
    fn a_choice_among_objects_is_an_object_schema() {
        let schema = OutputSchema::new(object(json!({
            "oneOf": [{"type": "object"}, {"type": "object"}],
        })));
        assert!(!schema.wraps_values(Revision::V2025_11_25));
        assert_eq!(schema.schema()["type"], "object");
    }

    #[test]
    fn a_result_writes_the_json_its_serialize_writes() {
        let results = [
            CallToolResult::text("plain"),
            CallToolResult::error("quotes \" and \\ and\nlines and \u{1} and é"),
            CallToolResult::content(Vec::new()),
            CallToolResult {
                content: vec![
                    Content::text("two"),
                    Content::image("aGk=", "image/png"),
                    Content::resource_link("file:///a", "a"),
                ],
                structured_content: Some(json!({"sum": 3, "parts": [1, 2]})),
                is_error: false,
            },
            CallToolResult {
                content: vec![Content::embedded_text("file:///b", "text/plain", "b")],
                structured_content: Some(json!([1])),
                is_error: true,
            },
        ];
        for result in results {
            let mut written = Vec::new();
            result.write_json(&mut written).unwrap();
            let serialized = serde_json::to_vec(&result).unwrap();
            assert_eq!(
                String::from_utf8(written).unwrap(),
                String::from_utf8(serialized).unwrap()
            );
        }
    }

    #[test]
    fn wrapping_a_result_wraps_the_text_only_where_it_mirrors_the_value() {
        let mut mirrored = CallToolResult {
            content: vec![Content::text("[1,2]")],
            structured_content: Some(json!([1, 2])),
            is_error: false,
        };
        mirrored.wrap_structured_content();
        assert_eq!(mirrored.structured_content, Some(json!({"result": [1, 2]})));
        assert_eq!(mirrored.content[0].as_text(), Some(r#"{"result":[1,2]}"#));
        let mut summarized = CallToolResult {
            content: vec![Content::text("two numbers")],
            structured_content: Some(json!([1, 2])),
            is_error: false,
        };
        summarized.wrap_structured_content();
        assert_eq!(
            summarized.structured_content,
            Some(json!({"result": [1, 2]}))
        );
        assert_eq!(summarized.content[0].as_text(), Some("two numbers"));
    }
}
