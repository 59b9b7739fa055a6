//! The tasks extension's side of method routing (`io.modelcontextprotocol/tasks`, revision
//! 2026-07-28): [`start`] turns a `tools/call` into a task running in the background, and
//! `tasks/get`, `tasks/update` and `tasks/cancel` read, answer and stop it. Every one of them
//! needs the request to declare the extension (-32021 otherwise); a task id that is unknown,
//! expired or another caller's is -32602. The store and its limits are in [`crate::tasks`].

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::input_required::MAX_ROUNDS;
use super::params_object::ParamsObject;
use super::{Request, tools_call};
use crate::auth::refused;
use crate::context::{Context, InputRound, Interruption, RoundAt, UntilInput};
use crate::jsonrpc::{ErrorCode, RpcError, encode_result};
use crate::protocol::CallToolResult;
use crate::protocol::stateless_result::ServerMeta;
use crate::server::panic::Caught;
use crate::tasks::EXTENSION;
use crate::tasks::record::TaskRecord;
use crate::tasks::store::{Found, Run, Task};
use crate::tasks::wire::TaskFields;
use crate::tool::{Arguments, ToolEntry};

/// Whether the request declares the extension in its client capabilities.
pub(super) fn declared(request: &Request<'_>) -> bool {
    request
        .envelope()
        .is_some_and(|envelope| envelope.client.has_extension(EXTENSION))
}

/// -32021 for a request that needs the extension and does not declare it.
pub(super) fn undeclared(request: &Request<'_>, what: &str) -> RpcError {
    request.state.refuse();
    RpcError::new(
        ErrorCode::MissingRequiredClientCapability,
        format!(
            "{what} needs the `{EXTENSION}` extension, and this request's `_meta` does not declare it: add it under `extensions` in `io.modelcontextprotocol/clientCapabilities`"
        ),
    )
    .with_data(json!({ "requiredCapabilities": { "extensions": { EXTENSION: {} } } }))
}

/// A tool's run, as `tools/call` polls it.
pub(super) type Call = Caught<CallToolResult>;

/// How the first stretch of a run that may become a task ended.
pub(super) enum FirstStretch {
    /// The tool returned (or panicked) without waiting.
    Done(Result<CallToolResult, String>),
    /// It asked a question (or failed): the request's input-required flow answers.
    Stopped(Interruption),
    /// It waits on something else: it goes on as a task.
    Waiting(Call),
}

/// Polls `call` once: what it does before it first waits decides whether it becomes a task.
pub(super) async fn first_stretch(mut call: Call, round: &RoundAt) -> FirstStretch {
    let polled = std::future::poll_fn(|cx| {
        let until = UntilInput::new(Pin::new(&mut call), round);
        match std::pin::pin!(until).poll(cx) {
            Poll::Ready(Ok(outcome)) => Poll::Ready(Some(Ok(outcome))),
            Poll::Ready(Err(stopped)) => Poll::Ready(Some(Err(stopped))),
            Poll::Pending => Poll::Ready(None),
        }
    })
    .await;
    match polled {
        Some(Ok(outcome)) => FirstStretch::Done(outcome),
        Some(Err(stopped)) => FirstStretch::Stopped(stopped),
        None => FirstStretch::Waiting(call),
    }
}

/// What a task's run needs to run the tool again: the tool, its arguments, the context of
/// the request that created it.
pub(super) struct Rerun {
    pub(super) tool: Arc<ToolEntry>,
    pub(super) arguments: Arguments,
    pub(super) ctx: Context,
}

/// The reply to a call that becomes a task: the task is held before the reply is written
/// (a `tasks/get` right after finds it), and `call`, already started with `round`, goes on
/// in the background.
pub(super) async fn start(
    request: &Request<'_>,
    call: Call,
    round: RoundAt,
    rerun: Rerun,
) -> Result<Vec<u8>, RpcError> {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct CreateTaskResult<'a> {
        result_type: &'static str,
        #[serde(flatten)]
        task: TaskFields,
        #[serde(rename = "_meta")]
        meta: ServerMeta<'a>,
    }
    let server = request.server();
    let owner = request.state.sink.authentication().owner();
    let task = (server.tasks)
        .create(rerun.tool.name(), owner, rerun.arguments.held_bytes())
        .await?;
    let ctx = rerun.ctx.clone();
    let running = tokio::spawn(run(Arc::clone(&task), call, round, rerun));
    task.set_run(Run {
        abort: running.abort_handle(),
        cancel_context: Box::new(move || ctx.request_state().cancel()),
    });
    Ok(encode_result(
        &request.id,
        &CreateTaskResult {
            result_type: "task",
            task: TaskFields::of(&task.record(), &server.tasks.limits, false),
            meta: ServerMeta(&server.info),
        },
    ))
}

/// Runs the tool until it returns; each time it asks what no answer covers, the task waits
/// for `tasks/update` to answer every question, then the tool runs again from the start
/// with every answer so far: at most [`MAX_ROUNDS`] times, as a request's rounds, so that the
/// answers a task gathers stay bounded.
async fn run(task: Arc<Task>, mut call: Call, mut round: RoundAt, rerun: Rerun) {
    let Rerun {
        tool,
        arguments,
        ctx,
    } = rerun;
    let revision = ctx.revision();
    let mut rounds = 0;
    loop {
        let outcome = match UntilInput::new(Pin::new(&mut call), &round).await {
            Ok(Ok(result)) => {
                let result = tools_call::for_revision(&tool, revision, result);
                serde_json::to_value(&result)
                    .map_err(|error| RpcError::internal(format!("the result: {error}")))
            }
            Ok(Err(panic)) => Err(RpcError::internal(format!(
                "tool `{}` failed unexpectedly: {panic}",
                tool.name()
            ))),
            Err(Interruption::Failed(error)) => Err(error),
            Err(Interruption::Asked(_)) if rounds >= MAX_ROUNDS => {
                Err(RpcError::internal(format!(
                    "tool `{}` asked for input {MAX_ROUNDS} times; a task may take at most {MAX_ROUNDS} rounds of questions",
                    tool.name()
                )))
            }
            Err(Interruption::Asked(questions)) => {
                rounds += 1;
                let mut answers = round.get().answers().clone();
                answers.extend(task.ask(questions).await);
                round = RoundAt::Own(Arc::new(InputRound::new(answers)));
                let ctx = ctx.clone().with_input(Some(round.clone()));
                call = Caught::call(&tool, ctx, arguments.clone());
                continue;
            }
        };
        task.finish(outcome);
        return;
    }
}

/// The task a `tasks/*` request names (`taskId`).
fn task_id(method: &str, params: Option<&str>) -> Result<String, RpcError> {
    ParamsObject::of(method, params)?.required("taskId")
}

/// The caller's task `id`, here or on another instance; -32602 when there is none, -32600
/// when the caller lacks the scopes of its tool ([`authorized`]).
async fn find(request: &Request<'_>, id: &str) -> Result<Found, RpcError> {
    let owner = request.state.sink.authentication().owner();
    let found = request.server().tasks.find(id, owner.as_deref()).await?;
    let found = found.ok_or_else(|| {
        RpcError::invalid_params(format!(
            "no task `{id}`: it never existed, it expired, or it is not yours"
        ))
        .with_data(json!({ "taskId": id }))
    })?;
    authorized(request, &found.record())?;
    Ok(found)
}

/// -32600 when the caller lacks the scopes that calling the task's tool needs (tasks.md,
/// "Security Considerations": each task-related request is authorized): a caller whose token
/// lost them since it created the task reads, answers and cancels it no more than it could
/// call the tool.
pub(super) fn authorized(request: &Request<'_>, task: &TaskRecord) -> Result<(), RpcError> {
    let tools = request.server().tools.load();
    let Some(tool) = tools.get(&task.tool) else {
        return Ok(());
    };
    let authentication = request.state.sink.authentication();
    match refused(authentication, "tool", tool.name(), &tool.scopes) {
        Some(why) => Err(RpcError::new(ErrorCode::InvalidRequest, why)),
        None => Ok(()),
    }
}

/// `tasks/get`: the task, with its questions, result or error as its status has them.
pub(super) async fn get(request: &Request<'_>, params: Option<&str>) -> Result<Vec<u8>, RpcError> {
    if !declared(request) {
        return Err(undeclared(request, "`tasks/get`"));
    }
    let task_id = task_id("tasks/get", params)?;
    let record = find(request, &task_id).await?.record();
    let limits = &request.server().tasks.limits;
    Ok(request.reply(&TaskFields::of(&record, limits, true)))
}

/// `tasks/update`: answers to the task's pending questions (others are ignored); an empty
/// acknowledgement.
pub(super) async fn update(
    request: &Request<'_>,
    params: Option<&str>,
) -> Result<Vec<u8>, RpcError> {
    if !declared(request) {
        return Err(undeclared(request, "`tasks/update`"));
    }
    let members = ParamsObject::of("tasks/update", params)?;
    let task_id: String = members.required("taskId")?;
    let input_responses: Map<String, Value> = members.required("inputResponses")?;
    let found = find(request, &task_id).await?;
    request
        .server()
        .tasks
        .answer(found, input_responses)
        .await?;
    Ok(request.reply(&json!({})))
}

/// `tasks/cancel`: stops the task unless it ended already; an empty acknowledgement either
/// way.
pub(super) async fn cancel(
    request: &Request<'_>,
    params: Option<&str>,
) -> Result<Vec<u8>, RpcError> {
    if !declared(request) {
        return Err(undeclared(request, "`tasks/cancel`"));
    }
    let task_id = task_id("tasks/cancel", params)?;
    let found = find(request, &task_id).await?;
    request.server().tasks.cancel(found).await?;
    Ok(request.reply(&json!({})))
}
