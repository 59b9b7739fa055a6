//! `completion/complete`: suggestions for a prompt argument or a URI template variable.

use serde::Deserialize;
use serde_json::json;
use serde_json::value::RawValue;

use super::{Request, parse_params};
use crate::args::ArgumentSpec;
use crate::completion::{Completion, CompletionContext};
use crate::jsonrpc::RpcError;

#[derive(Deserialize)]
struct CompleteParams {
    #[serde(rename = "ref")]
    reference: Reference,
    argument: ArgumentValue,
    #[serde(default)]
    context: Option<ContextParams>,
}

#[derive(Deserialize)]
#[serde(tag = "type")]
enum Reference {
    #[serde(rename = "ref/prompt")]
    Prompt { name: String },
    #[serde(rename = "ref/resource")]
    Resource { uri: String },
}

#[derive(Deserialize)]
struct ArgumentValue {
    name: String,
    value: String,
}

#[derive(Deserialize, Default)]
struct ContextParams {
    #[serde(default)]
    arguments: std::collections::HashMap<String, String>,
}

/// `completion/complete`: the values a prompt argument or template variable may take.
pub(super) fn complete(
    request: &Request<'_>,
    params: Option<&RawValue>,
) -> Result<Vec<u8>, RpcError> {
    let server = request.server();
    let params: CompleteParams = parse_params("completion/complete", params)?;
    let (prompts, resources) = (server.prompts.load(), server.resources.load());
    let specs: &[ArgumentSpec] = match &params.reference {
        Reference::Prompt { name } => {
            &prompts
                .get(name)
                .ok_or_else(|| RpcError::invalid_params(format!("Unknown prompt: `{name}`")))?
                .specs
                .specs
        }
        Reference::Resource { uri } => {
            &resources
                .templates
                .get(uri)
                .ok_or_else(|| {
                    RpcError::invalid_params(format!("Unknown resource template: `{uri}`"))
                })?
                .specs
                .specs
        }
    };
    let argument = &params.argument;
    let spec = specs
        .iter()
        .find(|s| s.name == argument.name)
        .ok_or_else(|| {
            RpcError::invalid_params(format!("No argument named `{}` to complete", argument.name))
        })?;
    let context = CompletionContext {
        arguments: params.context.unwrap_or_default().arguments,
    };
    let candidates = match &spec.completer {
        Some(completer) => completer.candidates(&argument.value, &context),
        None => spec.choices.clone(),
    };
    let completion = Completion::filter(candidates, &argument.value);
    Ok(request.reply(&json!({ "completion": completion })))
}
