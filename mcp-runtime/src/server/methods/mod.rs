//! The method-routing layer: each request goes to the function that answers its method, one
//! file per method (or family of methods), each taking only what it needs (a registry, the
//! negotiated revision, a way to make the handler's `Context`), never the whole session.
//!
//! Where a method runs a handler (`tools/call`, `resources/read`, `prompts/get`) it finds
//! the handler in the server's registry, builds its `Context` with [`Request::context`], and
//! turns what the handler returns (or its panic) into the reply.

mod completion_complete;
mod initialize;
mod list;
mod prompts_get;
mod resources_read;
mod tools_call;

use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::suggest::did_you_mean;
use super::{ServerCore, Session};
use crate::context::{Context, LoggingLevel, RequestState};
use crate::jsonrpc::{
    ErrorCode, IncomingRequest, RequestId, RpcError, encode_error, encode_result,
};
use crate::protocol::Revision;

/// Every method this server answers, for "did you mean" suggestions.
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

/// One request being answered: its id, its state (cancellation, progress, its channel back),
/// and what a method may use of the session serving it.
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

    /// The revision the session negotiated (the latest before `initialize`).
    fn revision(&self) -> Revision {
        self.session.revision()
    }

    /// The `Context` a handler serving this request is given.
    fn context(&self, meta: Option<Map<String, Value>>) -> Context {
        self.session
            .request_context(self.id.clone(), meta, Arc::clone(&self.state))
    }
}

/// Answers one request of `session`, whose state is `state`; the returned bytes are the
/// complete reply.
pub(crate) async fn route(
    session: &Arc<Session>,
    request: IncomingRequest,
    state: Arc<RequestState>,
) -> Vec<u8> {
    let IncomingRequest { id, method, params } = request;
    let request = Request { id, session, state };
    let id = &request.id;
    if method == "tools/call" {
        return tools_call::call_tool(&request, params).await;
    }
    let params = params.as_deref();
    let server = request.server();
    let revision = request.revision();
    let page_size = server.page_size;
    let outcome = match method.as_str() {
        "ping" => Ok(encode_result(id, &json!({}))),
        "initialize" => initialize::initialize(server, session, id, params),
        "tools/list" => {
            let tools = server.tools.load();
            list::list(
                id,
                params,
                revision,
                page_size,
                "tools/list",
                "tools",
                &tools,
            )
        }
        "resources/list" => {
            let resources = server.resources.load();
            let catalog = &resources.resources;
            list::list(
                id,
                params,
                revision,
                page_size,
                "resources/list",
                "resources",
                catalog,
            )
        }
        "resources/templates/list" => {
            let resources = server.resources.load();
            let templates = &resources.templates;
            let method = "resources/templates/list";
            list::list(
                id,
                params,
                revision,
                page_size,
                method,
                "resourceTemplates",
                templates,
            )
        }
        "resources/read" => resources_read::read_resource(&request, params).await,
        "resources/subscribe" => resources_read::subscribe(server, session, id, params, true),
        "resources/unsubscribe" => resources_read::subscribe(server, session, id, params, false),
        "prompts/list" => {
            let prompts = server.prompts.load();
            list::list(
                id,
                params,
                revision,
                page_size,
                "prompts/list",
                "prompts",
                &prompts,
            )
        }
        "prompts/get" => prompts_get::get_prompt(&request, params).await,
        "completion/complete" => completion_complete::complete(server, id, params),
        "logging/setLevel" => set_level(session, id, params),
        _ => Err(method_not_found(&method)),
    };
    outcome.unwrap_or_else(|error| encode_error(Some(id), &error))
}

/// `logging/setLevel`: the least severe level of log message the client wants.
fn set_level(
    session: &Session,
    id: &RequestId,
    params: Option<&RawValue>,
) -> Result<Vec<u8>, RpcError> {
    #[derive(serde::Deserialize)]
    struct SetLevel {
        level: LoggingLevel,
    }
    let SetLevel { level } = parse_params("logging/setLevel", params)?;
    session.set_log_level(level);
    Ok(encode_result(id, &json!({})))
}

fn method_not_found(method: &str) -> RpcError {
    RpcError::new(
        ErrorCode::MethodNotFound,
        format!(
            "Method not found: `{method}`{}",
            did_you_mean(method, METHODS.iter().copied())
        ),
    )
    .with_data(json!({ "method": method }))
}

/// Decodes a method's params (absent params read as `{}`); -32602 naming the method if they
/// do not fit.
fn parse_params<T: DeserializeOwned>(
    method: &str,
    params: Option<&RawValue>,
) -> Result<T, RpcError> {
    let text = params.map_or("{}", RawValue::get);
    serde_json::from_str(text).map_err(|error| {
        RpcError::invalid_params(format!("invalid params for `{method}`: {error}"))
    })
}
