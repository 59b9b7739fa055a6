//! `tools/call`: decodes `{name, arguments, _meta}`, runs the tool, and sends its result; a
//! tool's failure (bad arguments, an `Err`, a panic) is a result with `isError`, for the model
//! to read, never a JSON-RPC error. A tool with task support called by a request that declares
//! the tasks extension may instead be answered with a task handle once it first waits
//! (`tasks`); a `"required"` one refuses a request without it (-32021). (`tools/list` is one of
//! the list methods, in `list`.)

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::{Request, input_required, parse_params, tasks};
use crate::jsonrpc::{RpcError, encode_error};
use crate::protocol::{CallToolResult, Revision};
use crate::server::panic::CatchUnwind;
use crate::server::suggest::did_you_mean;
use crate::tasks::TaskSupport;
use crate::tool::{Arguments, RawFields, ToolEntry};
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

/// `tools/call`: runs the tool with its arguments; its failures are results, for the model.
pub(super) async fn call_tool(request: &Request<'_>, params: Option<Box<RawValue>>) -> Vec<u8> {
    let id = &request.id;
    // A stateless request's answers and state are read from the same params.
    let retry = request
        .envelope()
        .and_then(|_| params.as_deref().map(ToOwned::to_owned));
    let (name, arguments, meta) = match call_params(params) {
        Ok(parts) => parts,
        Err(error) => return encode_error(Some(id), &error),
    };
    let tools = request.server().tools.load();
    let Some(tool) = tools.get(&name).cloned() else {
        let error = RpcError::invalid_params(format!(
            "Unknown tool: `{name}`{}",
            did_you_mean(&name, tools.iter().map(|t| t.name()))
        ))
        .with_data(json!({ "tool": name }));
        return encode_error(Some(id), &error);
    };
    drop(tools);
    let may_be_task = tool.task_support != TaskSupport::Forbidden && request.envelope().is_some();
    let as_task = may_be_task && tasks::declared(request);
    if may_be_task && !as_task && tool.task_support == TaskSupport::Required {
        let error = tasks::undeclared(request, &format!("tool `{name}`"));
        return encode_error(Some(id), &error);
    }
    let input = match input_required::begin(request, "tools/call", &name, retry.as_deref()) {
        Ok(input) => input,
        Err(error) => return encode_error(Some(id), &error),
    };
    let ctx = request.context(meta);
    let revision = ctx.revision();
    let outcome = match &input {
        Some(input) if as_task => {
            let round = input.round();
            let rerun = tasks::Rerun {
                tool: Arc::clone(&tool),
                arguments: arguments.clone(),
                ctx: ctx.clone(),
            };
            let call = CatchUnwind(tool.call(ctx.with_input(Some(Arc::clone(&round))), arguments));
            match tasks::first_stretch(call, &round).await {
                tasks::FirstStretch::Done(outcome) => outcome,
                tasks::FirstStretch::Stopped(stopped) => return input.stopped(request, stopped),
                tasks::FirstStretch::Waiting(call) => {
                    return tasks::start(request, call, round, rerun)
                        .unwrap_or_else(|error| encode_error(Some(id), &error));
                }
            }
        }
        None => CatchUnwind(tool.call(ctx, arguments)).await,
        Some(input) => {
            let call = CatchUnwind(tool.call(ctx.with_input(Some(input.round())), arguments));
            match input.run(call).await {
                Ok(outcome) => outcome,
                Err(stopped) => return input.stopped(request, stopped),
            }
        }
    };
    let result = match outcome {
        Ok(result) => result,
        Err(panic) => CallToolResult::error(format!("tool `{name}` failed unexpectedly: {panic}")),
    };
    request.reply(&for_revision(&tool, revision, result))
}

/// `result` as a client of `revision` reads it: no structured content before 2025-06-18, and
/// wrapped as `{"result": value}` where the tool's output schema needs it.
pub(super) fn for_revision(
    tool: &ToolEntry,
    revision: Revision,
    mut result: CallToolResult,
) -> CallToolResult {
    if !revision.has_structured_output() {
        result.structured_content = None;
    } else if tool.wraps_values(revision) {
        result.wrap_structured_content();
    }
    result
}

type CallParts = (String, Arguments, Option<Box<RawValue>>);

/// Reads `{name, arguments?, _meta?}`, explaining what was expected when the shape is wrong.
/// The arguments stay JSON text, each decoded once into its parameter's type.
fn call_params(params: Option<Box<RawValue>>) -> Result<CallParts, RpcError> {
    let fast = params.as_deref().and_then(|params| {
        let text = params.get();
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let call = CallIn { text }.deserialize(&mut deserializer).ok()?;
        deserializer.end().ok()?;
        Some((
            call.name?.into_owned(),
            call.fields.unwrap_or_else(RawFields::none),
            call.meta.map(ToOwned::to_owned),
        ))
    });
    match (fast, params) {
        (Some((name, fields, meta)), Some(params)) => {
            Ok((name, Arguments::from_raw(params.into(), fields), meta))
        }
        (_, params) => call_params_explained(params.as_deref()),
    }
}

/// `{name, arguments?, _meta?}` read in one pass over `text`: the arguments' members located
/// as they are met ([`RawFields::seed`]), `_meta` kept as text.
struct CallIn<'a> {
    text: &'a str,
}

struct Call<'a> {
    name: Option<Cow<'a, str>>,
    fields: Option<RawFields>,
    meta: Option<&'a RawValue>,
}

impl<'de> DeserializeSeed<'de> for CallIn<'de> {
    type Value = Call<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Call<'de>, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for CallIn<'de> {
    type Value = Call<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the params of `tools/call`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Call<'de>, A::Error> {
        let mut call = Call {
            name: None,
            fields: None,
            meta: None,
        };
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match &*key {
                "name" => call.name = Some(map.next_value()?),
                "arguments" => call.fields = map.next_value_seed(RawFields::seed(self.text))?,
                "_meta" => call.meta = Some(map.next_value()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(call)
    }
}

/// [`call_params`] through a decoded object, for the messages that say what is wrong.
fn call_params_explained(params: Option<&RawValue>) -> Result<CallParts, RpcError> {
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
        Some(meta @ Value::Object(_)) => serde_json::value::to_raw_value(&meta).ok(),
        _ => None,
    };
    Ok((name, Arguments::new(arguments), meta))
}
