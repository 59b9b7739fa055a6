//! `tools/list` and `tools/call`.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::Session;
use super::dispatch::parse_params;
use super::panic::CatchUnwind;
use super::suggest::did_you_mean;
use crate::context::Context;
use crate::jsonrpc::{RequestId, RpcError, encode_error, encode_result};
use crate::protocol::{CallToolResult, ClientInfo, Revision};
use crate::tool::Arguments;

/// Cursors are opaque to clients; ours name the last item of the previous page, so paging
/// stays correct while items are added or removed.
const CURSOR_PREFIX: &str = "after:";

#[derive(Deserialize)]
struct ListParams {
    #[serde(default)]
    cursor: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolsPage<'a> {
    tools: Vec<&'a RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<String>,
}

impl Session {
    fn revision(&self) -> (Revision, Arc<ClientInfo>) {
        match self.negotiated() {
            Some(negotiated) => (negotiated.revision, Arc::clone(&negotiated.client)),
            None => (Revision::LATEST, Arc::default()),
        }
    }

    pub(super) fn list_tools(
        &self,
        id: &RequestId,
        params: Option<&RawValue>,
    ) -> Result<Vec<u8>, RpcError> {
        let params: ListParams = parse_params("tools/list", params)?;
        let after = match params.cursor.as_deref() {
            None => None,
            Some(cursor) => Some(cursor.strip_prefix(CURSOR_PREFIX).ok_or_else(|| {
                RpcError::invalid_params(format!(
                    "invalid cursor `{cursor}`: pass back the `nextCursor` of the previous page"
                ))
            })?),
        };
        let (revision, _) = self.revision();
        let server = self.server();
        let rest = server.tools.after(after);
        let page = &rest[..rest.len().min(server.page_size)];
        let next_cursor = (page.len() < rest.len())
            .then(|| {
                page.last()
                    .map(|tool| format!("{CURSOR_PREFIX}{}", tool.name()))
            })
            .flatten();
        let tools = page.iter().map(|tool| tool.wire(revision)).collect();
        Ok(encode_result(id, &ToolsPage { tools, next_cursor }))
    }

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
        let Some(tool) = server.tools.get(&name) else {
            let error = RpcError::invalid_params(format!(
                "Unknown tool: `{name}`{}",
                did_you_mean(&name, server.tools.iter().map(|t| t.name()))
            ))
            .with_data(json!({ "tool": name }));
            return encode_error(Some(&id), &error);
        };
        let (revision, client) = self.revision();
        let ctx = Context::new(Arc::clone(self), id.clone(), revision, client, meta);
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
