//! `prompts/get`: renders a prompt with the request's arguments; its failures are JSON-RPC
//! errors. (`prompts/list` is one of the list methods, in `list`.)

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::params_object::{ParamsObject, invalid};
use super::{Request, input_required};
use crate::args::StringArgs;
use crate::jsonrpc::{RpcError, compact_text};
use crate::server::panic::Caught;
use crate::suggest::did_you_mean;

/// -32602 for a prompt named `name` that the server does not have; `suggestion` is
/// [`did_you_mean`]'s.
fn unknown_prompt(name: &str, suggestion: &str) -> RpcError {
    RpcError::invalid_params(format!("Unknown prompt: `{name}`{suggestion}"))
        .with_data(json!({ "prompt": name }))
}

/// `prompts/get`: renders the prompt with its arguments.
pub(super) async fn get_prompt(
    request: &Request<'_>,
    params: Option<&str>,
) -> Result<Vec<u8>, RpcError> {
    let members = ParamsObject::of("prompts/get", params)?;
    let name: String = members.required("name")?;
    let arguments = string_arguments(members.optional("arguments")?)?;
    let has_meta = members.present("_meta")?.is_some();
    let shared = request.shared_params(has_meta, || params.map(Arc::from));
    let answers = input_required::may_carry_answers(params);
    let input = input_required::begin(request, "prompts/get", &name, shared.as_ref(), answers)?;
    let prompts = request.server().prompts.load();
    let prompt = prompts.get(&name).cloned().ok_or_else(|| {
        unknown_prompt(
            &name,
            &did_you_mean(&name, prompts.iter().map(|p| p.name())),
        )
    })?;
    drop(prompts);
    let ctx = request
        .context(shared)
        .with_input(input.as_ref().map(input_required::Input::round));
    let rendering = Caught::call(&prompt, ctx, StringArgs::new(arguments));
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

/// `prompts/get` of a server that has no prompt, whose program never made one (so
/// [`get_prompt`] is not in its binary: `linked`): "Unknown prompt", as [`get_prompt`]
/// answers a server with none, once the name is read. Params wrong in more than the name
/// (an argument not a string, a retry's malformed answers) are told apart by
/// [`get_prompt`] alone; both answers are -32602.
pub(super) fn get_without_prompts(params: Option<&str>) -> Result<Vec<u8>, RpcError> {
    let name: String = ParamsObject::of("prompts/get", params)?.required("name")?;
    // No prompt to suggest: `did_you_mean` of none is "".
    Err(unknown_prompt(&name, ""))
}

/// A prompt's arguments, each a string (server/prompts: "arguments": `{ [key: string]: string
/// }`); -32602 naming the first that is not.
fn string_arguments(
    arguments: Option<Map<String, Value>>,
) -> Result<HashMap<String, String>, RpcError> {
    let mut strings = HashMap::new();
    for (name, value) in arguments.unwrap_or_default() {
        match value {
            Value::String(text) => {
                strings.insert(name, text);
            }
            other => {
                return Err(invalid(
                    "prompts/get",
                    &format!(
                        "`arguments.{name}` must be a string (a prompt's arguments are all strings), not {}",
                        compact_text(&other)
                    ),
                )
                .with_data(json!({ "argument": name })));
            }
        }
    }
    Ok(strings)
}
