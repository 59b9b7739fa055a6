//! `prompts/list` and `prompts/get`.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::Session;
use super::dispatch::parse_params;
use super::panic::CatchUnwind;
use super::suggest::did_you_mean;
use crate::args::StringArgs;
use crate::jsonrpc::{RequestId, RpcError, encode_result};

#[derive(Deserialize)]
struct GetParams {
    name: String,
    #[serde(default)]
    arguments: Option<HashMap<String, String>>,
    #[serde(default, rename = "_meta")]
    meta: Option<Map<String, Value>>,
}

impl Session {
    pub(super) async fn get_prompt(
        self: &Arc<Self>,
        id: &RequestId,
        params: Option<&RawValue>,
    ) -> Result<Vec<u8>, RpcError> {
        let GetParams {
            name,
            arguments,
            meta,
        } = parse_params("prompts/get", params)?;
        let server = self.server();
        let prompts = server.prompts.load();
        let prompt = prompts.get(&name).cloned().ok_or_else(|| {
            RpcError::invalid_params(format!(
                "Unknown prompt: `{name}`{}",
                did_you_mean(&name, prompts.iter().map(|p| p.name()))
            ))
            .with_data(json!({ "prompt": name }))
        })?;
        drop(prompts);
        let ctx = self.request_context(id.clone(), meta);
        let rendering = prompt.get(ctx, StringArgs::new(arguments.unwrap_or_default()));
        match CatchUnwind(rendering).await {
            Ok(Ok(result)) => Ok(encode_result(id, &result)),
            Ok(Err(error)) => Err(error.into()),
            Err(panic) => Err(RpcError::internal(format!(
                "prompt `{name}` failed unexpectedly: {panic}"
            ))),
        }
    }
}
