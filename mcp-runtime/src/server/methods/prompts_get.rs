//! `prompts/get`: renders a prompt with the request's arguments; its failures are JSON-RPC
//! errors. (`prompts/list` is one of the list methods, in `list`.)

use std::collections::HashMap;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::json;
use serde_json::value::RawValue;

use super::{Request, input_required, parse_params};
use crate::args::StringArgs;
use crate::jsonrpc::RpcError;
use crate::server::panic::Caught;
use crate::suggest::did_you_mean;

#[derive(Deserialize)]
struct GetParams {
    name: String,
    #[serde(default)]
    arguments: Option<HashMap<String, String>>,
    #[serde(default, rename = "_meta")]
    meta: Option<IgnoredAny>,
}

/// `prompts/get`: renders the prompt with its arguments.
pub(super) async fn get_prompt(
    request: &Request<'_>,
    params: Option<&RawValue>,
) -> Result<Vec<u8>, RpcError> {
    let GetParams {
        name,
        arguments,
        meta,
    } = parse_params("prompts/get", params)?;
    let shared = request.shared_params(params.map(RawValue::get), meta.is_some());
    let answers = input_required::may_carry_answers(params);
    let input = input_required::begin(request, "prompts/get", &name, shared.as_ref(), answers)?;
    let prompts = request.server().prompts.load();
    let prompt = prompts.get(&name).cloned().ok_or_else(|| {
        RpcError::invalid_params(format!(
            "Unknown prompt: `{name}`{}",
            did_you_mean(&name, prompts.iter().map(|p| p.name()))
        ))
        .with_data(json!({ "prompt": name }))
    })?;
    drop(prompts);
    let ctx = request
        .context(shared)
        .with_input(input.as_ref().map(input_required::Input::round));
    let rendering = Caught::call(&prompt, ctx, StringArgs::new(arguments.unwrap_or_default()));
    let outcome = match &input {
        None => rendering.await,
        Some(input) => match input.run(rendering).await {
            Ok(outcome) => outcome,
            Err(stopped) => return Ok(input.stopped(request, stopped)),
        },
    };
    match outcome {
        Ok(Ok(result)) => Ok(request.reply(&result)),
        Ok(Err(error)) => Err(error.into()),
        Err(panic) => Err(RpcError::internal(format!(
            "prompt `{name}` failed unexpectedly: {panic}"
        ))),
    }
}
