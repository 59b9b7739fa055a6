//! Tool descriptions (`tools/list`) and call results (`tools/call`).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
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
    pub output_schema: Option<Map<String, Value>>,
    /// Behaviour hints.
    pub annotations: ToolAnnotations,
}

/// The arguments a tool's input schema mirrors into HTTP headers (revision 2026-07-28,
/// server/tools "x-mcp-header"): each top-level property with an `x-mcp-header` name, as
/// (argument, header name, JSON type). The client sends `Mcp-Param-<name>` with the value.
pub(crate) fn mirrored_arguments(input_schema: &Map<String, Value>) -> Vec<MirroredArgument> {
    let Some(Value::Object(properties)) = input_schema.get("properties") else {
        return Vec::new();
    };
    properties
        .iter()
        .filter_map(|(argument, schema)| {
            let header = schema.get("x-mcp-header")?.as_str()?;
            Some(MirroredArgument {
                argument: argument.clone(),
                header: format!("mcp-param-{}", header.to_ascii_lowercase()),
            })
        })
        .collect()
}

/// One argument mirrored into a header.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MirroredArgument {
    /// The argument's name.
    pub(crate) argument: String,
    /// The header that carries it, lowercase: `mcp-param-<x-mcp-header>`.
    pub(crate) header: String,
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
    input_schema: &'a Map<String, Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_schema: Option<&'a Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<Cow<'a, ToolAnnotations>>,
}

impl<'a> WireTool<'a> {
    pub(crate) fn new(tool: &'a ToolDefinition, revision: Revision) -> WireTool<'a> {
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
            input_schema: &tool.input_schema,
            output_schema: tool.output_schema.as_ref().filter(|_| modern),
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

    /// A successful result with these content blocks.
    pub fn content(content: Vec<Content>) -> CallToolResult {
        CallToolResult {
            content,
            ..CallToolResult::default()
        }
    }
}
