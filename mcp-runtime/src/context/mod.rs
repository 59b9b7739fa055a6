//! What a handler knows about the request it serves, and what it can do while it runs.
//!
//! A tool, resource or prompt asks for the request's [`Context`] by taking a parameter of that
//! type (never part of any schema). Through it a handler reports progress, logs to the
//! client, notices cancellation, asks the client for things (a model completion, a form
//! filled in by the user, the roots it may touch) and reads the request's metadata.
//! [`State<T>`] gives access to application state given to the server at start-up.

mod client;
mod client_requests;
mod elicitation;
mod input;
mod logging;
mod progress;
mod request_state;
mod session_link;
mod state;
mod task;

use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};

pub use client::{ClientError, Root, SamplingRequest, SamplingResponse};
pub(crate) use client_requests::ClientRequests;
pub use elicitation::{Elicitation, UrlElicitation};
pub(crate) use input::{InputRound, Interruption, RoundAt, UntilInput};
pub use logging::LoggingLevel;
#[cfg(feature = "tracing")]
pub(crate) use logging::send_log;
pub(crate) use request_state::RequestState;
pub(crate) use session_link::SessionLink;
pub(crate) use state::StateNeed;
pub use state::{Shareable, State};

use crate::auth::Authentication;
use crate::jsonrpc::{RequestId, RpcError};
use crate::protocol::{ClientInfo, Revision};

/// The request being served: passed to any handler that takes a `Context` parameter.
///
/// Cloning is cheap; the clone speaks for the same request. Through it a handler:
///
/// - reports progress ([`report_progress`](Self::report_progress)): `notifications/progress`
///   with the caller's token, only when the client asked for progress, strictly increasing;
/// - logs to the client ([`info`](Self::info), [`warning`](Self::warning), [`log`](Self::log),
///   ...): `notifications/message`, filtered by the client's `logging/setLevel`;
/// - notices cancellation ([`is_cancelled`](Self::is_cancelled), [`cancelled`](Self::cancelled));
///   on `notifications/cancelled` an async handler is also stopped at its next `.await`;
/// - asks the client's model ([`sample`](Self::sample), [`ask_model`](Self::ask_model)), the
///   user ([`elicit`](Self::elicit), [`elicit_url`](Self::elicit_url)) and the client's roots
///   ([`list_roots`](Self::list_roots)), each failing with a [`ClientError`] when the client
///   did not declare the capability or does not answer in time;
/// - reads the request ([`request_id`](Self::request_id), [`revision`](Self::revision),
///   [`client`](Self::client), [`meta`](Self::meta)) and changes the server
///   ([`server`](Self::server)).
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// /// Reads the pages of a book and has the client's model sum them up.
/// #[mcp_tool]
/// async fn summarize(ctx: Context, pages: u32) -> Result<String, String> {
///     ctx.info(format!("reading {pages} pages"));
///     for page in 1..=pages {
///         if ctx.is_cancelled() {
///             return Err("cancelled".to_string());
///         }
///         ctx.report_progress(f64::from(page), Some(f64::from(pages)), Some("reading"));
///     }
///     ctx.ask_model(format!("Sum up a book of {pages} pages in one line."), 100)
///         .await
///         .map_err(|e| e.to_string()) // e.g. the client cannot sample
/// }
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// #     let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).tool::<summarize>().build().unwrap();
/// #     let client = mcp_runtime::testing::TestClient::new(&server);
/// #     client.answer_requests(|method, _params| {
/// #         assert_eq!(method, "sampling/createMessage");
/// #         Ok(serde_json::json!({"role": "assistant", "model": "test", "content": {"type": "text", "text": "A short book."}}))
/// #     });
/// #     client.initialize_with(mcp_runtime::Revision::LATEST_SESSION_BASED.as_str(), serde_json::json!({"sampling": {}})).await.unwrap();
/// #     let result = client.call_tool("summarize", serde_json::json!({"pages": 3})).await.unwrap();
/// #     assert_eq!(result.content[0].as_text(), Some("A short book."));
/// # }
/// ```
///
/// # Asking in revision 2026-07-28: the handler runs again
///
/// A client of revision 2026-07-28 is never sent a request. There, a question
/// ([`elicit`](Self::elicit), [`sample`](Self::sample), [`list_roots`](Self::list_roots)) that
/// the request does not already answer stops the handler at that `.await`, and the request is
/// answered with an *input-required* result listing the questions asked (all those awaited at
/// once). The client answers and sends the request again; the handler then runs **from the
/// start**, and each question returns its answer at once. Answers of earlier rounds travel in
/// the result's sealed `requestState`. So:
///
/// - ask before you act: what the handler does before its last question happens once per
///   round;
/// - keep the path to each question a function of the arguments and earlier answers, so that
///   questions keep their keys (`elicitation-1`, `sampling-2`, ... in the order asked, or the
///   key given with [`question`](Self::question));
/// - a question for a capability the request's `_meta` does not declare ends the request with
///   -32021; test [`client`](Self::client)`().has_capability(..)` first to do without.
///
/// The same handler serves a session of the 2025 revisions by sending requests, as above.
///
/// Waiting for something slow, a handler can also stop as soon as the request is cancelled
/// (here `fetch` stands for any future):
///
/// ```
/// # use mcp_runtime::prelude::*;
/// # async fn fetch(url: &str) -> String { url.to_string() }
/// /// Fetches a page.
/// #[mcp_tool]
/// async fn get(ctx: Context, url: String) -> Result<String, String> {
///     tokio::select! {
///         page = fetch(&url) => Ok(page),
///         () = ctx.cancelled() => Err("cancelled".to_string()),
///     }
/// }
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// #     let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).tool::<get>().build().unwrap();
/// #     let client = mcp_runtime::testing::TestClient::new(&server);
/// #     client.initialize().await.unwrap();
/// #     let result = client.call_tool("get", serde_json::json!({"url": "https://example.com"})).await.unwrap();
/// #     assert_eq!(result.content[0].as_text(), Some("https://example.com"));
/// # }
/// ```
#[derive(Clone)]
pub struct Context {
    /// The session the request came on (the server's `Session`).
    session: Arc<dyn SessionLink>,
    /// The request: its id, revision, client, `_meta`, cancellation and channel back.
    state: Arc<RequestState>,
    /// In the stateless revision, the answers this run may use and where its questions go.
    input: Option<RoundAt>,
    /// The key the questions asked through this context go under ([`Context::question`]).
    question_key: Option<Arc<str>>,
}

impl Context {
    /// The context of the request whose state is `state`, on `session`.
    pub(crate) fn new(session: Arc<dyn SessionLink>, state: Arc<RequestState>) -> Context {
        Context {
            session,
            state,
            input: None,
            question_key: None,
        }
    }

    /// The context of a run in the stateless revision: questions are answered from `round`
    /// or end the run. Unchanged without a round (in a session).
    pub(crate) fn with_input(mut self, round: Option<RoundAt>) -> Context {
        if round.is_some() {
            self.input = round;
        }
        self
    }

    /// This context, asking its questions under `key`: in revision 2026-07-28 the key of the
    /// question in the input-required result's `inputRequests` and of its answer in the
    /// retry's `inputResponses` (without one, questions are keyed `elicitation-1`,
    /// `sampling-2`, ... in the order the handler asks them). In a session it changes
    /// nothing. Give each question its own key.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    ///
    /// #[derive(Deserialize, JsonSchema)]
    /// struct Name {
    ///     name: String,
    /// }
    ///
    /// /// Greets the user by name.
    /// #[mcp_tool]
    /// async fn greet(ctx: Context) -> Result<String, String> {
    ///     match ctx.question("user_name").elicit::<Name>("What is your name?").await {
    ///         Ok(Elicitation::Accept(Name { name })) => Ok(format!("Hello, {name}!")),
    ///         Ok(_) => Ok("Hello!".to_string()),
    ///         Err(e) => Err(e.to_string()),
    ///     }
    /// }
    /// ```
    pub fn question(&self, key: impl Into<String>) -> Context {
        Context {
            question_key: Some(Arc::from(key.into())),
            ..self.clone()
        }
    }

    /// The JSON-RPC id of the request, exactly as the client sent it.
    pub fn request_id(&self) -> &RequestId {
        self.state.id()
    }

    /// The protocol revision this request is served under.
    pub fn revision(&self) -> Revision {
        self.state.revision
    }

    /// The client: its name, version and declared capabilities (empty before `initialize`).
    pub fn client(&self) -> &ClientInfo {
        &self.state.client
    }

    /// The request's `_meta` object, if it had one.
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.state.meta.get()
    }

    /// Shared state of type `T` given to the server with `ServerBuilder::state`.
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        self.session.state().get::<T>()
    }

    /// Whether the client cancelled this request (`notifications/cancelled`).
    ///
    /// An async handler is also stopped at its next `.await` after a cancel; a long
    /// synchronous computation should check this now and then.
    pub fn is_cancelled(&self) -> bool {
        self.state.is_cancelled()
    }

    /// Completes when the client cancels this request; never completes otherwise.
    pub async fn cancelled(&self) {
        self.state.cancelled().await;
    }

    /// Over Streamable HTTP, ends the event stream this request is answered on, before the
    /// reply: the client reconnects (GET with `Last-Event-ID`, after the `retry` delay the
    /// stream announced) and receives what follows, the reply included. This lets a long
    /// request free its connection (SSE polling). Does nothing on stdio, to a client that
    /// takes only JSON, or in stateless mode (nothing could resume the stream); returns
    /// whether a stream was closed.
    pub fn close_stream(&self) -> bool {
        self.state.sink.close_stream()
    }

    /// Sends a notification to the client, ahead of this request's reply. Nothing is sent
    /// once the reply has been.
    pub fn notify(&self, method: &str, params: &impl Serialize) {
        if !self.state.is_finished() {
            self.state
                .notify(crate::jsonrpc::encode_notification(method, params));
        }
    }

    /// Sends a request to the client and waits for its answer, or the server's request
    /// timeout (60 s by default), after which the error says the client did not answer.
    /// Fails at once in revision 2026-07-28, where servers send no requests: ask through
    /// [`elicit`](Self::elicit), [`sample`](Self::sample) or [`list_roots`](Self::list_roots),
    /// which work in every revision.
    pub async fn request(&self, method: &str, params: &impl Serialize) -> Result<Value, RpcError> {
        if self.state.revision.is_stateless() {
            return Err(RpcError::internal(format!(
                "cannot send `{method}` to the client: in protocol revision {} servers send no requests; ask through `Context::elicit`, `sample` or `list_roots`, which turn into input-required results",
                self.state.revision
            )));
        }
        self.session
            .client_requests()
            .send(&self.state.sink, method, params)
            .await
            .map_err(|unanswered| unanswered.into_rpc_error(method))
    }

    /// The session the request is served on.
    pub(crate) fn session(&self) -> &dyn SessionLink {
        &*self.session
    }

    pub(crate) fn request_state(&self) -> &RequestState {
        &self.state
    }

    /// Who sent the request, as far as its transport knows.
    pub(crate) fn authentication(&self) -> &Authentication {
        self.state.sink.authentication()
    }
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("request_id", self.state.id())
            .field("revision", &self.state.revision)
            .finish_non_exhaustive()
    }
}
