//! `tools/list` and `tools/call`.

use std::sync::Arc;

use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::Session;
use super::dispatch::parse_params;
use super::panic::CatchUnwind;
use super::suggest::did_you_mean;
use crate::jsonrpc::{RequestId, RpcError, encode_error, encode_result};
use crate::protocol::CallToolResult;
use crate::tool::Arguments;

impl Session {
    pub(super) async fn call_tool(
        self: &Arc<Self>,
        id: RequestId,
        params: Option<&RawValue>,
    ) -> Vec<u8> {
        let (name, arguments, meta) = match call_params(params) {
            Ok(parts) => parts,
            Err(error) => return encode_error(Some(&id), &error),
        };
        let server = self.server();
        let tools = server.tools.load();
        let Some(tool) = tools.get(&name).cloned() else {
            let error = RpcError::invalid_params(format!(
                "Unknown tool: `{name}`{}",
                did_you_mean(&name, tools.iter().map(|t| t.name()))
            ))
            .with_data(json!({ "tool": name }));
            return encode_error(Some(&id), &error);
        };
        drop(tools);
        let ctx = self.request_context(id.clone(), meta);
        let revision = ctx.revision();
        let mut result = match CatchUnwind(tool.call(ctx, Arguments::new(arguments))).await {
            Ok(result) => result,
            Err(panic) => {
                CallToolResult::error(format!("tool `{name}` failed unexpectedly: {panic}"))
            }
        };
        if !revision.has_structured_output() {
            result.structured_content = None;
        }
        encode_result(&id, &result)
    }
}

type CallParts = (String, Map<String, Value>, Option<Map<String, Value>>);

/// Reads `{name, arguments?, _meta?}`, explaining what was expected when the shape is wrong.
fn call_params(params: Option<&RawValue>) -> Result<CallParts, RpcError> {
    let mut params: Map<String, Value> = parse_params("tools/call", params)?;
    let name = match params.remove("name") {
        Some(Value::String(name)) => name,
        Some(other) => {
            return Err(RpcError::invalid_params(format!(
                "`tools/call`: `name` must be a string (the tool's name), got {other}"
            )));
        }
        None => {
            let got: Vec<String> = params.keys().map(|k| format!("`{k}`")).collect();
            let got = if got.is_empty() {
                "no fields".to_owned()
            } else {
                format!("fields {}", got.join(", "))
            };
            return Err(RpcError::invalid_params(format!(
                "`tools/call` params must be {{\"name\": <tool name>, \"arguments\": {{...}}}}; got {got}"
            )));
        }
    };
    let arguments = match params.remove("arguments") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(arguments)) => arguments,
        Some(other) => {
            return Err(RpcError::invalid_params(format!(
                "`tools/call`: `arguments` must be an object mapping argument names to values, got {other}"
            )));
        }
    };
    let meta = match params.remove("_meta") {
        Some(Value::Object(meta)) => Some(meta),
        _ => None,
    };
    Ok((name, arguments, meta))
}
