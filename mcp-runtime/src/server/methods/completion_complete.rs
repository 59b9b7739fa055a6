//! `completion/complete`: suggestions for a prompt argument or a URI template variable.

use std::sync::Arc;

use serde_json::json;

use super::Request;
use super::params_object::ParamsObject;
use crate::args::ArgumentSpec;
use crate::auth::{Scopes, refused};
use crate::completion::{Candidates, Completion, CompletionContext};
use crate::jsonrpc::RpcError;
use crate::suggest::did_you_mean;

/// What `ref` names: a prompt, or a resource template.
pub(crate) enum Reference {
    Prompt { name: String },
    Resource { uri: String },
}

/// What a `completion/complete`'s `params` name, read as the method reads them; `None` for
/// what it refuses (for a transport that checks scopes first: `server/needed_scopes.rs`).
#[cfg(feature = "http")]
pub(crate) fn completing(params: Option<&str>) -> Option<Reference> {
    let params = ParamsObject::of("completion/complete", params).ok()?;
    Reference::read(&params).ok()
}

impl Reference {
    /// Reads `ref`: `type` says which of the other members counts.
    fn read(params: &ParamsObject<'_>) -> Result<Reference, RpcError> {
        let reference = params.object("ref")?.ok_or_else(|| params.missing("ref"))?;
        let kind: String = reference.required("type")?;
        match kind.as_str() {
            "ref/prompt" => Ok(Reference::Prompt {
                name: reference.required("name")?,
            }),
            "ref/resource" => Ok(Reference::Resource {
                uri: reference.required("uri")?,
            }),
            other => Err(reference.unknown("type", other, "`ref/prompt` or `ref/resource`")),
        }
    }
}

/// -32602 for a `ref` the server has no prompt or template for; `suggestion` is
/// [`did_you_mean`]'s.
fn unknown(reference: &Reference, suggestion: &str) -> RpcError {
    RpcError::invalid_params(match reference {
        Reference::Prompt { name } => format!("Unknown prompt: `{name}`{suggestion}"),
        Reference::Resource { uri } => format!("Unknown resource template: `{uri}`{suggestion}"),
    })
}

/// `completion/complete` of a server that has neither a prompt nor a resource, whose program
/// never made one (so [`complete`] is not in its binary: `linked`): that the `ref` names
/// nothing, as [`complete`] answers a server with none, once the `ref` is read. Params wrong
/// in more than the `ref` (no `argument`) are told apart by [`complete`] alone; both answers
/// are -32602.
pub(super) fn complete_without_handlers(params: Option<&str>) -> Result<Vec<u8>, RpcError> {
    let params = ParamsObject::of("completion/complete", params)?;
    // Nothing to suggest: `did_you_mean` of none is "".
    Err(unknown(&Reference::read(&params)?, ""))
}

/// `completion/complete`: the values a prompt argument or template variable may take.
pub(super) async fn complete(
    request: &Request<'_>,
    params: Option<&str>,
) -> Result<Vec<u8>, RpcError> {
    let server = request.server();
    let params = ParamsObject::of("completion/complete", params)?;
    let reference = Reference::read(&params)?;
    let argument = params
        .object("argument")?
        .ok_or_else(|| params.missing("argument"))?;
    let (argument_name, value): (String, String) =
        (argument.required("name")?, argument.required("value")?);
    // `context.arguments`: what the client has filled in already.
    let arguments = match params.object("context")? {
        Some(context) => context.optional("arguments")?.unwrap_or_default(),
        None => Default::default(),
    };
    let (prompts, resources) = (server.prompts.load(), server.resources.load());
    // A completer is the handler's code: it runs only for a caller the handler would run for.
    let caller = request.state.sink.authentication();
    let allowed =
        |kind: &str, name: &str, scopes: &Scopes| match refused(caller, kind, name, scopes) {
            Some(why) => Err(RpcError::invalid_request(why)),
            None => Ok(()),
        };
    let specs: &[ArgumentSpec] = match &reference {
        Reference::Prompt { name } => {
            let prompt = prompts.get(name).ok_or_else(|| {
                unknown(
                    &reference,
                    &did_you_mean(name, prompts.iter().map(|p| p.key())),
                )
            })?;
            allowed("prompt", name, &prompt.scopes)?;
            &prompt.details.specs.specs
        }
        Reference::Resource { uri } => {
            let template = resources.templates.get(uri).ok_or_else(|| {
                let keys = resources.templates.iter().map(|t| t.key());
                unknown(&reference, &did_you_mean(uri, keys))
            })?;
            allowed("resource", uri, &template.scopes)?;
            &template.details.specs.specs
        }
    };
    let spec = specs
        .iter()
        .find(|s| s.name == argument_name)
        .ok_or_else(|| {
            RpcError::invalid_params(format!("No argument named `{argument_name}` to complete"))
        })?;
    let context = CompletionContext::new(arguments, Arc::clone(&server.state));
    let candidates = match &spec.completer {
        Some(completer) => completer.candidates(&value, &context),
        None => Candidates::Ready(spec.choices.clone()),
    };
    // The catalogs are not held across a completer's wait (a list change may replace them).
    drop((prompts, resources));
    let candidates = candidates.found().await;
    let completion = Completion::filter(candidates, &value);
    Ok(request.reply(&json!({ "completion": completion })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference_of(text: &str) -> Result<Reference, String> {
        let params = format!(r#"{{"ref":{text},"argument":{{"name":"a","value":""}}}}"#);
        ParamsObject::of("completion/complete", Some(&params))
            .and_then(|params| Reference::read(&params))
            .map_err(|error| error.message)
    }

    #[test]
    fn a_reference_is_told_apart_by_its_type() {
        let prompt = reference_of(r#"{"type":"ref/prompt","name":"p","uri":"x"}"#);
        assert!(matches!(prompt, Ok(Reference::Prompt { name }) if name == "p"));
        let resource = reference_of(r#"{"uri":"file:///{x}","type":"ref/resource"}"#);
        assert!(matches!(resource, Ok(Reference::Resource { uri }) if uri == "file:///{x}"));
    }

    #[test]
    fn a_broken_reference_says_what_is_wrong() {
        let error = |text: &str| reference_of(text).err().expect("an error");
        assert_eq!(
            error(r#"{"name":"p"}"#),
            "invalid params for `completion/complete`: missing field `ref.type`"
        );
        assert!(error(r#"{"type":"ref/prompt"}"#).ends_with("missing field `ref.name`"));
        assert!(
            error(r#"{"type":"ref/resource","name":"p"}"#).ends_with("missing field `ref.uri`")
        );
        assert_eq!(
            error(r#"{"type":"ref/tool","name":"t"}"#),
            "invalid params for `completion/complete`: unknown `ref.type` `ref/tool`, expected `ref/prompt` or `ref/resource`"
        );
        assert!(
            error(r#"{"type":"ref/prompt","name":5}"#)
                .ends_with("`ref.name`: invalid type: integer `5`, expected a string")
        );
    }
}
