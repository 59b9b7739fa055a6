//! The method-routing layer: each request goes to the function that answers its method, one
//! file per method (or family of methods), each taking only what it needs (a registry, the
//! negotiated revision, a way to make the handler's `Context`), never the whole session.
//!
//! Where a method runs a handler (`tools/call`, `resources/read`, `prompts/get`) it finds
//! the handler in the server's registry, builds its `Context` with [`Request::context`], and
//! turns what the handler returns (or its panic) into the reply. The tasks extension's
//! methods (`tasks/get`, `tasks/update`, `tasks/cancel`) are in `tasks`, with what turns a
//! `tools/call` into a task.

mod capabilities;
mod completion_complete;
mod discover;
mod initialize;
mod input_required;
mod linked;
mod list;
mod params_object;
mod prompts_get;
mod reply;
mod resources_read;
mod subscriptions_listen;
#[cfg(feature = "tasks")]
mod tasks;
mod tools_call;

use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::json;

#[cfg(feature = "http")]
pub(crate) use completion_complete::{Reference, completing};
pub(crate) use linked::{dynamic_resource_entry, prompt_entry, resource_entry};
pub(crate) use reply::Reply;
pub(crate) use subscriptions_listen::closing_result;

use super::params::ParamsLayout;
use super::{ServerCore, Session};
use crate::context::{Context, LoggingLevel, RequestState};
use crate::handler::describe_unreadable;
use crate::jsonrpc::{
    ErrorCode, IncomingRequest, ParamsText, RequestId, RpcError, encode_error, encode_result,
    encode_result_with, encode_result_written,
};
use crate::protocol::envelope::Envelope;
use crate::protocol::stateless_result::ItemCacheHints;
use crate::protocol::{CallToolResult, Revision};
use crate::suggest::did_you_mean;

/// Every method a session answers, for "did you mean" suggestions.
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

/// Every method a stateless request may name (2026-07-28), for suggestions.
const STATELESS_METHODS: &[&str] = &[
    "server/discover",
    "subscriptions/listen",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "tasks/get",
    "tasks/update",
    "tasks/cancel",
];

/// The session-based methods 2026-07-28 removed, and what replaced each.
const REMOVED_METHODS: &[(&str, &str)] = &[
    (
        "initialize",
        "each request names its revision and capabilities in `_meta`; `server/discover` tells what the server offers",
    ),
    (
        "ping",
        "there is no replacement: a request's own answer shows the server is alive",
    ),
    (
        "logging/setLevel",
        "a request sets its own level in `_meta` (`io.modelcontextprotocol/logLevel`)",
    ),
    (
        "resources/subscribe",
        "`subscriptions/listen` with `resourceSubscriptions`",
    ),
    (
        "resources/unsubscribe",
        "end the `subscriptions/listen` request",
    ),
];

/// One request being answered: its id, its state (cancellation, progress, its channel back,
/// and for a stateless revision what its `_meta` declared), and what a method may use of the
/// session serving it.
pub(super) struct Request<'a> {
    id: RequestId,
    session: &'a Arc<Session>,
    state: Arc<RequestState>,
}

impl Request<'_> {
    /// The server's registries and settings.
    fn server(&self) -> &ServerCore {
        self.session.server()
    }

    /// What a request of a stateless revision declared; `None` in a session.
    fn envelope(&self) -> Option<&Envelope> {
        self.state.envelope.as_ref()
    }

    /// The revision the request is served under: its own for a stateless revision, else the
    /// session's (the latest session-based one before `initialize`).
    fn revision(&self) -> Revision {
        self.envelope()
            .map_or_else(|| self.session.revision(), |envelope| envelope.revision)
    }

    /// The `Context` a handler serving this request is given; `params` is the text of the
    /// params, for the handler to read their `_meta` from (`None` if they have none).
    fn context(&self, params: Option<Arc<str>>) -> Context {
        if let Some(params) = params {
            self.state.meta.set_params(params);
        }
        Context::new(Arc::<Session>::clone(self.session), Arc::clone(&self.state))
    }

    /// The params text that a handler's `Context` (for `_meta`) and a stateless run (for the
    /// arguments a new `requestState` is bound to) read: copied once and shared, and only when
    /// one of them needs it.
    fn shared_params(
        &self,
        has_meta: bool,
        params: impl FnOnce() -> Option<Arc<str>>,
    ) -> Option<Arc<str>> {
        let needed = has_meta || self.envelope().is_some();
        needed.then(params).flatten()
    }

    /// The reply carrying `result`; a stateless revision's also says it is complete and who
    /// answers.
    fn reply(&self, result: &impl Serialize) -> Vec<u8> {
        self.reply_with(result, false)
    }

    /// [`reply`](Self::reply) for a result a client may cache: a stateless revision's also
    /// carries the server's cache hints.
    fn reply_cacheable(&self, result: &impl Serialize) -> Vec<u8> {
        self.reply_with(result, true)
    }

    /// [`reply_cacheable`](Self::reply_cacheable) for a result about one item, whose own
    /// hints take the place of the server's.
    fn reply_cacheable_for(&self, result: &impl Serialize, item: ItemCacheHints) -> Vec<u8> {
        if self.envelope().is_none() {
            return encode_result(&self.id, result);
        }
        let members = self.server().complete_members().cacheable_for(item);
        encode_result_with(&self.id, result, &members)
    }

    fn reply_with(&self, result: &impl Serialize, cacheable: bool) -> Vec<u8> {
        encode_result_with(&self.id, result, self.complete_members(cacheable))
    }

    /// The reply carrying a tool's result (see [`reply`](Self::reply)).
    fn reply_call(&self, result: &CallToolResult) -> Vec<u8> {
        let members = self.complete_members(false);
        encode_result_written(&self.id, |out| result.write_json(out), members)
    }

    /// What a result of this request gets after its own members: for a stateless revision,
    /// that it is complete and who answers (and the server's cache hints if `cacheable`).
    fn complete_members(&self, cacheable: bool) -> &str {
        match self.envelope() {
            None => "",
            Some(_) => self.server().complete_members().for_result(cacheable),
        }
    }
}

/// Answers one request of `session`, whose state is `state`; the returned bytes are the
/// complete reply.
///
/// `layout` is where the members of the params lie, when the era's pass over them has found
/// them already (a stateless request's).
pub(crate) async fn route(
    session: &Arc<Session>,
    request: IncomingRequest,
    layout: Option<ParamsLayout>,
    state: Arc<RequestState>,
) -> Vec<u8> {
    let IncomingRequest { id, method, params } = request;
    let request = Request { id, session, state };
    let id = &request.id;
    if request.envelope().is_some()
        && let Err(error) = stateless_method(request.server(), &method)
    {
        return encode_error(Some(id), &error);
    }
    if method == "tools/call" {
        return tools_call::call_tool(&request, params, layout).await;
    }
    // The other methods read their params with serde.
    let params = params.as_ref().map(ParamsText::get);
    let server = request.server();
    let outcome = match &*method {
        "ping" => Ok(request.reply(&json!({}))),
        "initialize" => initialize::initialize(server, session, id, params),
        "server/discover" if request.envelope().is_some() => Ok(discover::discover(&request)),
        "subscriptions/listen" if request.envelope().is_some() => {
            apart(subscriptions_listen::listen(&request, params)).await
        }
        "tools/list" => {
            let tools = server.tools.load();
            list::list(&request, params, "tools/list", "tools", &tools)
        }
        // Reached through `linked`, so that a program without resources or prompts does not
        // carry their code.
        "resources/list" => linked::resources_list(&request, params),
        "resources/templates/list" => linked::resource_templates_list(&request, params),
        "resources/read" => linked::read_resource(&request, params).await,
        "resources/subscribe" => linked::subscribe(&request, params, true),
        "resources/unsubscribe" => linked::subscribe(&request, params, false),
        "prompts/list" => linked::prompts_list(&request, params),
        "prompts/get" => linked::get_prompt(&request, params).await,
        "completion/complete" => linked::complete(&request, params).await,
        "logging/setLevel" => set_level(session, id, params),
        #[cfg(feature = "tasks")]
        "tasks/get" if request.envelope().is_some() => tasks::get(&request, params).await,
        #[cfg(feature = "tasks")]
        "tasks/update" if request.envelope().is_some() => tasks::update(&request, params).await,
        #[cfg(feature = "tasks")]
        "tasks/cancel" if request.envelope().is_some() => tasks::cancel(&request, params).await,
        _ => Err(method_not_found(&method, METHODS)),
    };
    outcome.unwrap_or_else(|error| encode_error(Some(id), &in_era(error, request.revision())))
}

/// `error` as `revision` words it: from 2026-07-28 on, "resource not found" is -32602, since
/// a server of that revision must not send -32002 (basic "Error Codes"; server/resources
/// "Error Handling"), whichever handler reported it (a resource read or a prompt).
fn in_era(mut error: RpcError, revision: Revision) -> RpcError {
    if revision.is_stateless() && error.code == ErrorCode::ResourceNotFound.code() {
        error.code = ErrorCode::InvalidParams.code();
    }
    error
}

/// A method's future polled through a box rather than inlined into [`route`]'s, so `route`'s
/// state machine (and its drop) holds only the future of the method it is waiting on.
fn apart<'a>(
    method: impl Future<Output = Result<Vec<u8>, RpcError>> + Send + 'a,
) -> std::pin::Pin<Box<dyn Future<Output = Result<Vec<u8>, RpcError>> + Send + 'a>> {
    Box::pin(method)
}

/// Answers one request of `session` without a future, if it can be answered so: a
/// `tools/call` of a tool that [runs at once](crate::handler::Entry::runs_at_once), whose
/// reply (the same as [`route`]'s) this returns. Anything else is given back, with the layout
/// of its params if this found it, for [`route`].
pub(crate) fn route_at_once(
    session: &Arc<Session>,
    request: IncomingRequest,
    layout: Option<ParamsLayout>,
    state: &Arc<RequestState>,
) -> Result<Reply, (IncomingRequest, Option<ParamsLayout>)> {
    if request.method != "tools/call" {
        return Err((request, layout));
    }
    let IncomingRequest { id, method, params } = request;
    let Some(params) = params else {
        let params = None;
        return Err((IncomingRequest { id, method, params }, layout));
    };
    let layout = layout.unwrap_or_else(|| ParamsLayout::of(params.get()));
    // A stateless request may name `tools/call` only of a server that declares tools, which
    // one with the tool named has (`route` explains any other case): no `stateless_method`
    // check here, which the HTTP transport has made already.
    let tool = tools_call::tool_at_once(session.server(), params.get(), &layout);
    let Some(tool) = tool else {
        let params = Some(params);
        return Err((IncomingRequest { id, method, params }, Some(layout)));
    };
    let state = Arc::clone(state);
    let request = Request { id, session, state };
    Ok(tools_call::call_tool_at_once(
        &request, params, layout, &tool,
    ))
}

/// Whether a stateless request may name `method`: not one 2026-07-28 removed, nor one of a
/// capability the server does not declare (-32601 either way, as the specification says).
pub(crate) fn stateless_method(server: &ServerCore, method: &str) -> Result<(), RpcError> {
    // A method of the revision is the usual case, and none of them was removed: it is looked
    // up first, and the removed ones only for a method that is not one.
    if STATELESS_METHODS.contains(&method) {
        let family = method.split('/').next().unwrap_or_default();
        if !capabilities::declares(server, family) {
            return Err(method_not_found(method, STATELESS_METHODS));
        }
        return Ok(());
    }
    if let Some((_, instead)) = REMOVED_METHODS.iter().find(|(name, _)| *name == method) {
        return Err(RpcError::new(
            ErrorCode::MethodNotFound,
            format!(
                "Method not found: `{method}` does not exist in protocol revision {}: {instead}",
                Revision::LATEST
            ),
        )
        .with_data(json!({ "method": method })));
    }
    Err(method_not_found(method, STATELESS_METHODS))
}

/// `logging/setLevel`: the least severe level of log message the client wants.
fn set_level(session: &Session, id: &RequestId, params: Option<&str>) -> Result<Vec<u8>, RpcError> {
    let level: LoggingLevel =
        params_object::ParamsObject::of("logging/setLevel", params)?.required("level")?;
    session.set_log_level(level);
    Ok(encode_result(id, &json!({})))
}

fn method_not_found(method: &str, methods: &[&str]) -> RpcError {
    let hint = if method.starts_with("notifications/") {
        // A notification sent with an `id` reads as a request, which nothing answers.
        " is a notification, not a request: send it without an `id`".to_owned()
    } else {
        did_you_mean(method, methods.iter().copied())
    };
    RpcError::new(
        ErrorCode::MethodNotFound,
        format!("Method not found: `{method}`{hint}"),
    )
    .with_data(json!({ "method": method }))
}

/// Decodes a method's params as text (absent params read as `{}`); -32602 naming the method
/// if they do not fit. Most methods read theirs member by member ([`params_object::ParamsObject`]).
fn parse_params_text<T: DeserializeOwned>(
    method: &str,
    params: Option<&str>,
) -> Result<T, RpcError> {
    let text = params.unwrap_or("{}");
    // Its position would be within the params, not the message: left out.
    serde_json::from_str(text)
        .map_err(|error| params_object::invalid(method, &describe_unreadable(&error)))
}
