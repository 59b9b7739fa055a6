//! `completion/complete`: suggestions for a prompt argument or a URI template variable.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::json;
use serde_json::value::RawValue;

use super::{Request, parse_params};
use crate::args::ArgumentSpec;
use crate::completion::{Completion, CompletionContext};
use crate::jsonrpc::RpcError;

#[derive(Deserialize)]
struct CompleteParams {
    #[serde(rename = "ref", deserialize_with = "reference")]
    reference: Reference,
    argument: ArgumentValue,
    #[serde(default)]
    context: Option<ContextParams>,
}

enum Reference {
    Prompt { name: String },
    Resource { uri: String },
}

/// `ref` as it is sent: `type` says which of the other members counts.
#[derive(Deserialize)]
struct WireReference {
    #[serde(rename = "type")]
    kind: String,
    name: Option<String>,
    uri: Option<String>,
}

/// Reads `ref` as one plain struct, then tells the kinds apart: a derived internally tagged
/// enum buffers the object first and is several times the code.
fn reference<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Reference, D::Error> {
    let WireReference { kind, name, uri } = WireReference::deserialize(deserializer)?;
    match (kind.as_str(), name, uri) {
        ("ref/prompt", Some(name), _) => Ok(Reference::Prompt { name }),
        ("ref/resource", _, Some(uri)) => Ok(Reference::Resource { uri }),
        ("ref/prompt", None, _) => Err(D::Error::missing_field("name")),
        ("ref/resource", _, None) => Err(D::Error::missing_field("uri")),
        (other, _, _) => Err(D::Error::unknown_variant(other, VARIANTS)),
    }
}

const VARIANTS: &[&str] = &["ref/prompt", "ref/resource"];

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
                .details
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
                .details
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

#[cfg(test)]
mod tests {
    use super::*;

    fn reference_of(text: &str) -> Result<Reference, String> {
        let params = format!(r#"{{"ref":{text},"argument":{{"name":"a","value":""}}}}"#);
        serde_json::from_str::<CompleteParams>(&params)
            .map(|params| params.reference)
            .map_err(|error| error.to_string())
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
        assert!(error(r#"{"name":"p"}"#).contains("missing field `type`"));
        assert!(error(r#"{"type":"ref/prompt"}"#).contains("missing field `name`"));
        assert!(error(r#"{"type":"ref/resource","name":"p"}"#).contains("missing field `uri`"));
        let unknown = error(r#"{"type":"ref/tool","name":"t"}"#);
        assert!(
            unknown.contains("unknown variant `ref/tool`, expected `ref/prompt` or `ref/resource`"),
            "{unknown}"
        );
        assert!(error(r#"{"type":"ref/prompt","name":5}"#).contains("invalid type: integer `5`"));
    }
}
