//! Routing a request to the code that answers it.

use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::json;
use serde_json::value::RawValue;

use super::Session;
use super::suggest::did_you_mean;
use crate::context::LoggingLevel;
use crate::jsonrpc::{ErrorCode, IncomingRequest, RpcError, encode_error, encode_result};

/// Every method this server answers, for "did you mean" suggestions.
const METHODS: &[&str] = &[
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
];

impl Session {
    /// Answers one request; the returned bytes are the complete reply.
    pub(super) async fn dispatch(self: &Arc<Self>, request: IncomingRequest) -> Vec<u8> {
        let IncomingRequest { id, method, params } = request;
        if method == "tools/call" {
            return self.call_tool(id, params).await;
        }
        let params = params.as_deref();
        let outcome = match method.as_str() {
            "tools/list" => {
                let tools = self.server().tools.load();
                self.list(&id, params, "tools/list", "tools", &tools)
            }
            "ping" => Ok(encode_result(&id, &json!({}))),
            "initialize" => self.initialize(&id, params),
            "resources/list" => {
                let resources = self.server().resources.load();
                self.list(
                    &id,
                    params,
                    "resources/list",
                    "resources",
                    &resources.resources,
                )
            }
            "resources/templates/list" => {
                let resources = self.server().resources.load();
                let templates = &resources.templates;
                self.list(
                    &id,
                    params,
                    "resources/templates/list",
                    "resourceTemplates",
                    templates,
                )
            }
            "resources/read" => self.read_resource(&id, params).await,
            "resources/subscribe" => self.subscribe(&id, params, true),
            "resources/unsubscribe" => self.subscribe(&id, params, false),
            "prompts/list" => {
                let prompts = self.server().prompts.load();
                self.list(&id, params, "prompts/list", "prompts", &prompts)
            }
            "prompts/get" => self.get_prompt(&id, params).await,
            "completion/complete" => self.complete(&id, params),
            "logging/setLevel" => self.set_level(&id, params),
            _ => Err(method_not_found(&method)),
        };
        outcome.unwrap_or_else(|error| encode_error(Some(&id), &error))
    }
}

impl Session {
    fn set_level(
        &self,
        id: &crate::jsonrpc::RequestId,
        params: Option<&RawValue>,
    ) -> Result<Vec<u8>, RpcError> {
        #[derive(serde::Deserialize)]
        struct SetLevel {
            level: LoggingLevel,
        }
        let SetLevel { level } = parse_params("logging/setLevel", params)?;
        self.set_log_level(level);
        Ok(encode_result(id, &json!({})))
    }
}

fn method_not_found(method: &str) -> RpcError {
    RpcError::new(
        ErrorCode::MethodNotFound,
        format!(
            "Method not found: `{method}`{}",
            did_you_mean(method, METHODS.iter().copied())
        ),
    )
    .with_data(json!({ "method": method }))
}

/// Decodes a method's params (absent params read as `{}`); -32602 naming the method if they
/// do not fit.
pub(super) fn parse_params<T: DeserializeOwned>(
    method: &str,
    params: Option<&RawValue>,
) -> Result<T, RpcError> {
    let text = params.map_or("{}", RawValue::get);
    serde_json::from_str(text).map_err(|error| {
        RpcError::invalid_params(format!("invalid params for `{method}`: {error}"))
    })
}
