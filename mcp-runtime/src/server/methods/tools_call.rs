//! `tools/call`: decodes `{name, arguments, _meta}`, runs the tool, and sends its result; a
//! tool's failure (bad arguments, an `Err`, a panic) is a result with `isError`, for the model
//! to read, never a JSON-RPC error. A tool that runs at once (a plain `fn`) is called with no
//! future by [`call_tool_at_once`], the same steps otherwise. A tool with task support called by a request that declares
//! the tasks extension may instead be answered with a task handle once it first waits
//! (`tasks`); a `"required"` one refuses a request without it (-32021). (`tools/list` is one of
//! the list methods, in `list`.)

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::reply::Reply;
#[cfg(feature = "tasks")]
use super::tasks;
use super::{Request, input_required, parse_params_text};
use crate::context::Context;
use crate::jsonrpc::{ParamsText, RpcError, compact_text, encode_error};
use crate::protocol::{CallToolResult, Revision};
use crate::server::ServerCore;
use crate::server::panic::{Caught, catch};
use crate::server::params::ParamsLayout;
use crate::suggest::did_you_mean;
#[cfg(feature = "tasks")]
use crate::tasks::TaskSupport;
use crate::tool::{Arguments, ArgumentsAt, ToolEntry};

/// `tools/call`: runs the tool with its arguments; its failures are results, for the model.
/// `layout` is where the members of `params` lie, if the era's pass over them found them.
pub(super) async fn call_tool(
    request: &Request<'_>,
    params: Option<ParamsText>,
    layout: Option<ParamsLayout>,
) -> Vec<u8> {
    let id = &request.id;
    let call = match CallParams::read(params, layout) {
        Ok(call) => call,
        Err(error) => return encode_error(Some(id), &error),
    };
    let found = match call.found_tool() {
        Some(tool) => Ok(Arc::clone(tool)),
        None => find(request, call.name()),
    };
    let tool = match found {
        Ok(tool) => tool,
        Err(error) => return encode_error(Some(id), &error),
    };
    let Run {
        ctx,
        arguments,
        input,
        #[cfg(feature = "tasks")]
        as_task,
    } = match Run::open(request, call, &tool) {
        Ok(run) => run,
        Err(error) => return encode_error(Some(id), &error),
    };
    let revision = ctx.revision();
    let outcome = match &input {
        #[cfg(feature = "tasks")]
        Some(input) if as_task => {
            let round = input.round();
            let rerun = tasks::Rerun {
                tool: Arc::clone(&tool),
                arguments: arguments.clone(),
                ctx: ctx.clone(),
            };
            let ctx = ctx.with_input(Some(round.clone()));
            let call = Caught::call(&tool, ctx, arguments);
            match tasks::first_stretch(call, &round).await {
                tasks::FirstStretch::Done(outcome) => outcome,
                tasks::FirstStretch::Stopped(stopped) => return input.stopped(request, stopped),
                tasks::FirstStretch::Waiting(call) => {
                    return tasks::start(request, call, round, rerun)
                        .await
                        .unwrap_or_else(|error| encode_error(Some(id), &error));
                }
            }
        }
        None => Caught::call(&tool, ctx, arguments).await,
        Some(input) => {
            let ctx = ctx.with_input(Some(input.round()));
            let call = Caught::call(&tool, ctx, arguments);
            match input.run(call).await {
                Ok(outcome) => outcome,
                Err(stopped) => return input.stopped(request, stopped),
            }
        }
    };
    answer(request, &tool, revision, outcome)
}

/// The tool `params` call, if it [runs at once](crate::handler::Entry::runs_at_once): its
/// call is then answered by [`call_tool_at_once`], with no future.
pub(super) fn tool_at_once(
    server: &ServerCore,
    params: &str,
    layout: &ParamsLayout,
) -> Option<Arc<ToolEntry>> {
    let tool = match layout.tool() {
        Some(tool) => Arc::clone(tool),
        None => server.tools.load().get(layout.name(params)?).cloned()?,
    };
    tool.runs_at_once().then_some(tool)
}

/// [`call_tool`] of a tool that [runs at once](tool_at_once): the same answer, with no future
/// and nothing awaited. A tool that runs at once never waits, so it never asks the client
/// anything, nor runs as a task: its run ends within its first stretch.
///
/// Its result is given back unwritten, to be written where the reply goes.
pub(super) fn call_tool_at_once(
    request: &Request<'_>,
    params: ParamsText,
    layout: ParamsLayout,
    tool: &ToolEntry,
) -> Reply {
    let id = &request.id;
    let run = CallParams::read(Some(params), Some(layout))
        .and_then(|call| Run::open(request, call, tool));
    let Run {
        ctx,
        arguments,
        input,
        ..
    } = match run {
        Ok(run) => run,
        Err(error) => return Reply::Encoded(encode_error(Some(id), &error)),
    };
    let revision = ctx.revision();
    let ctx = ctx.with_input(input.as_ref().map(input_required::Input::round));
    let outcome = catch(|| {
        tool.call_at_once(ctx, arguments)
            .expect("a tool that runs at once")
    });
    Reply::ToolResult(result_of(tool, revision, outcome))
}

/// The tool named `name`; -32602 naming the tools of similar names if there is none.
fn find(request: &Request<'_>, name: &str) -> Result<Arc<ToolEntry>, RpcError> {
    let tools = request.server().tools.load();
    tools.get(name).cloned().ok_or_else(|| {
        RpcError::invalid_params(format!(
            "Unknown tool: `{name}`{}",
            did_you_mean(name, tools.iter().map(|t| t.name()))
        ))
        .with_data(json!({ "tool": name }))
    })
}

/// A call of a tool, opened: its context, its arguments, and for a stateless request its
/// run (the answers it carries, checked).
struct Run<'t> {
    ctx: Context,
    arguments: Arguments,
    input: Option<input_required::Input<'t>>,
    /// Whether it may become a task: the tool allows it and the request declares the tasks
    /// extension.
    #[cfg(feature = "tasks")]
    as_task: bool,
}

impl<'t> Run<'t> {
    /// Opens the call of `tool` that `call` read: -32021 for a tool that requires tasks
    /// called without the extension, -32602 for answers that are refused.
    fn open(
        request: &Request<'_>,
        call: CallParams,
        tool: &'t ToolEntry,
    ) -> Result<Run<'t>, RpcError> {
        // A stateless request's answers and state are read from the same params.
        let shared = request.shared_params(call.has_meta(), || call.params().cloned());
        let answers = call.carries_answers();
        let name = tool.name();
        // Tools with task support exist only with the `tasks` feature (the build refuses them
        // otherwise), so without it every call is an ordinary one.
        #[cfg(feature = "tasks")]
        let as_task = {
            let may_be_task =
                tool.details.task_support != TaskSupport::Forbidden && request.envelope().is_some();
            let as_task = may_be_task && tasks::declared(request);
            if may_be_task && !as_task && tool.details.task_support == TaskSupport::Required {
                return Err(tasks::undeclared(request, &format!("tool `{name}`")));
            }
            as_task
        };
        let input = input_required::begin(request, "tools/call", name, shared.as_ref(), answers)?;
        Ok(Run {
            ctx: request.context(shared),
            arguments: call.into_arguments(),
            input,
            #[cfg(feature = "tasks")]
            as_task,
        })
    }
}

/// The reply of a call whose tool returned `outcome` (a panic's message as `Err`).
fn answer(
    request: &Request<'_>,
    tool: &ToolEntry,
    revision: Revision,
    outcome: Result<CallToolResult, String>,
) -> Vec<u8> {
    request.reply_call(&result_of(tool, revision, outcome))
}

/// The result of a call whose tool returned `outcome`, as a client of `revision` reads it.
fn result_of(
    tool: &ToolEntry,
    revision: Revision,
    outcome: Result<CallToolResult, String>,
) -> CallToolResult {
    let result = match outcome {
        Ok(result) => result,
        Err(panic) => CallToolResult::error(format!(
            "tool `{}` failed unexpectedly: {panic}",
            tool.name()
        )),
    };
    for_revision(tool, revision, result)
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

/// `{name, arguments?, _meta?}`, read.
enum CallParams {
    /// As received: the params text and where its members lie. The arguments stay JSON text,
    /// each decoded once into its parameter's type, and the text is handed to them uncopied.
    Laid {
        params: Arc<str>,
        layout: ParamsLayout,
    },
    /// Params the pass found something wrong with went through a decoded object, for the
    /// messages that say what is wrong (and those it could still take).
    Decoded {
        params: Option<Arc<str>>,
        name: String,
        arguments: Map<String, Value>,
    },
}

impl CallParams {
    /// Reads `params`, laid out by `layout` if the era's pass made one (else by a pass of its
    /// own); -32602 explaining what was expected when the shape is wrong.
    fn read(
        params: Option<ParamsText>,
        layout: Option<ParamsLayout>,
    ) -> Result<CallParams, RpcError> {
        if let Some(params) = params {
            let params = params.into_shared();
            let layout = layout.unwrap_or_else(|| ParamsLayout::of(&params));
            let fits = layout.name(&params).is_some()
                && !matches!(layout.arguments, ArgumentsAt::NotAnObject);
            if fits {
                return Ok(CallParams::Laid { params, layout });
            }
            let (name, arguments) = call_params_explained(Some(&params))?;
            let params = Some(params);
            return Ok(CallParams::Decoded {
                params,
                name,
                arguments,
            });
        }
        let (name, arguments) = call_params_explained(None)?;
        Ok(CallParams::Decoded {
            params: None,
            name,
            arguments,
        })
    }

    fn name(&self) -> &str {
        match self {
            CallParams::Laid { params, layout } => layout.name(params).unwrap_or_default(),
            CallParams::Decoded { name, .. } => name,
        }
    }

    /// The tool `name` names, if the transport looked it up already
    /// ([`ParamsLayout::with_tool`]).
    fn found_tool(&self) -> Option<&Arc<ToolEntry>> {
        match self {
            CallParams::Laid { layout, .. } => layout.tool(),
            CallParams::Decoded { .. } => None,
        }
    }

    /// The params as received.
    fn params(&self) -> Option<&Arc<str>> {
        match self {
            CallParams::Laid { params, .. } => Some(params),
            CallParams::Decoded { params, .. } => params.as_ref(),
        }
    }

    /// Whether the params have a `_meta` (for the handler's `Context`).
    fn has_meta(&self) -> bool {
        match self {
            CallParams::Laid { layout, .. } => layout.has_meta,
            CallParams::Decoded { params, .. } => params.is_some(),
        }
    }

    /// Whether the params carry answers to earlier questions (`inputResponses`,
    /// `requestState`).
    fn carries_answers(&self) -> bool {
        match self {
            CallParams::Laid { layout, .. } => layout.carries_answers,
            CallParams::Decoded { params, .. } => {
                input_required::may_carry_answers(params.as_deref())
            }
        }
    }

    fn into_arguments(self) -> Arguments {
        match self {
            CallParams::Laid { params, layout } => match layout.arguments {
                ArgumentsAt::Object(fields) => Arguments::from_raw(params, fields),
                ArgumentsAt::Absent | ArgumentsAt::NotAnObject => Arguments::default(),
            },
            CallParams::Decoded { arguments, .. } => Arguments::new(arguments),
        }
    }
}

/// The name and arguments of a `tools/call` through a decoded object, when
/// [`CallParams::read`]'s pass found them not as expected: for the messages that say what is
/// wrong.
fn call_params_explained(params: Option<&str>) -> Result<(String, Map<String, Value>), RpcError> {
    let mut params: Map<String, Value> = parse_params_text("tools/call", params)?;
    let name = match params.remove("name") {
        Some(Value::String(name)) => name,
        Some(other) => {
            return Err(RpcError::invalid_params(format!(
                "`tools/call`: `name` must be a string (the tool's name), got {}",
                compact_text(&other)
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
                "`tools/call`: `arguments` must be an object mapping argument names to values, got {}",
                compact_text(&other)
            )));
        }
    };
    Ok((name, arguments))
}
