//! An in-process client for testing servers through the real protocol, without spawning a
//! process: every message is encoded, parsed and dispatched exactly as over stdio.
//!
//! ```
//! use mcp_runtime::prelude::*;
//! use mcp_runtime::testing::TestClient;
//!
//! /// Adds two numbers.
//! #[mcp_tool]
//! fn add(a: i64, b: i64) -> String {
//!     (a + b).to_string()
//! }
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
//!     .tool::<add>()
//!     .build()
//!     .unwrap();
//! let client = TestClient::new(&server);
//! client.initialize().await.unwrap();
//! let result = client.call_tool("add", serde_json::json!({"a": 2, "b": 3})).await.unwrap();
//! assert_eq!(result.content[0].as_text(), Some("5"));
//! # });
//! ```

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc, oneshot};

use crate::Caller;
use crate::auth::Authentication;
use crate::jsonrpc::RpcError;
use crate::outbound::{Outbound, Outgoing};
use crate::protocol::{CallToolResult, Revision};
use crate::server::{Server, Session};

/// Sees every message the server sends: the method of the client request it answers (when it
/// is a reply to one made through [`TestClient::request`]), and the message.
pub type Observer = Arc<dyn Fn(Option<&str>, &Value) + Send + Sync>;

/// Answers the server's own requests (`sampling/createMessage`, `elicitation/create`,
/// `roots/list`): the method and params in, the result or an error out.
pub type RequestHandler = Arc<dyn Fn(&str, &Value) -> Result<Value, RpcError> + Send + Sync>;

/// A client connected to a server in the same process.
pub struct TestClient {
    session: Arc<Session>,
    shared: Arc<Shared>,
    next_id: AtomicU64,
}

#[derive(Default)]
struct Shared {
    answer: Mutex<Option<RequestHandler>>,
    pending: Mutex<HashMap<String, (String, oneshot::Sender<Value>)>>,
    unsolicited: Mutex<VecDeque<(Value, String)>>,
    arrived: Notify,
}

impl TestClient {
    /// Connects to `server`. Call within a Tokio runtime.
    pub fn new(server: &Server) -> TestClient {
        TestClient::with_observer(server, Arc::new(|_, _| {}))
    }

    /// Connects to `server`, showing every server message to `observer` first.
    pub fn with_observer(server: &Server, observer: Observer) -> TestClient {
        TestClient::connect(server, observer, Authentication::Local)
    }

    /// Connects to `server` as `caller`, as if each request came over HTTP with an access
    /// token naming it: handlers taking a [`Caller`] get it, and a handler declaring `scopes`
    /// the caller lacks is refused (a tool's result is an error saying which).
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::testing::TestClient;
    ///
    /// /// Writes a note.
    /// #[mcp_tool(scopes = ["notes:write"])]
    /// fn write_note(caller: Caller, text: String) -> String {
    ///     format!("{} wrote {text}", caller.subject())
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
    ///     .tool::<write_note>()
    ///     .build()
    ///     .unwrap();
    /// let args = serde_json::json!({"text": "hi"});
    /// let ana = Caller::new("ana", ["notes:write"], Default::default());
    /// let client = TestClient::as_caller(&server, ana);
    /// client.initialize().await.unwrap();
    /// let result = client.call_tool("write_note", args.clone()).await.unwrap();
    /// assert_eq!(result.content[0].as_text(), Some("ana wrote hi"));
    ///
    /// let bob = Caller::new("bob", ["notes:read"], Default::default());
    /// let client = TestClient::as_caller(&server, bob);
    /// client.initialize().await.unwrap();
    /// let result = client.call_tool("write_note", args).await.unwrap();
    /// assert!(result.is_error);
    /// let why = result.content[0].as_text().unwrap();
    /// assert!(why.starts_with("tool `write_note` needs the scope `notes:write`"), "{why}");
    /// # });
    /// ```
    pub fn as_caller(server: &Server, caller: Caller) -> TestClient {
        let observer: Observer = Arc::new(|_, _| {});
        TestClient::connect(server, observer, Authentication::Caller(caller))
    }

    fn connect(server: &Server, observer: Observer, authentication: Authentication) -> TestClient {
        let (sender, mut receiver) = mpsc::unbounded_channel::<(Outgoing, Vec<u8>)>();
        let outbound = Outbound::new(server.core.trace, move |kind, message| {
            let _ = sender.send((kind, message));
        })
        .with_authentication(authentication);
        let session = Session::new(Arc::clone(&server.core), outbound);
        let shared = Arc::new(Shared::default());
        let pump = Arc::clone(&shared);
        let answering = Arc::downgrade(&session);
        tokio::spawn(async move {
            while let Some((kind, bytes)) = receiver.recv().await {
                let text = String::from_utf8(bytes).expect("the server wrote UTF-8");
                let message: Value = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("the server wrote invalid JSON ({e}): {text}"));
                assert_kind(&kind, &message);
                if let Some(reply) = pump.answer(&message)
                    && let Some(session) = answering.upgrade()
                {
                    observer(None, &message);
                    session.receive(reply.to_string().as_bytes());
                    continue;
                }
                pump.route(message, text, &observer);
            }
        });
        TestClient {
            session,
            shared,
            next_id: AtomicU64::new(1),
        }
    }

    /// Answers the server's requests with `handler` from now on (without one they are queued
    /// for [`next_message`](Self::next_message)). Declare the matching capabilities in
    /// [`initialize_with`](Self::initialize_with).
    pub fn answer_requests(
        &self,
        handler: impl Fn(&str, &Value) -> Result<Value, RpcError> + Send + Sync + 'static,
    ) {
        *self.shared.answer.lock().expect("lock poisoned") = Some(Arc::new(handler));
    }

    /// `initialize` with the latest revision, then `notifications/initialized`.
    pub async fn initialize(&self) -> Result<Value, RpcError> {
        self.initialize_with(Revision::LATEST_SESSION_BASED.as_str(), json!({}))
            .await
    }

    /// `initialize` asking for `protocol_version` with these client capabilities, then
    /// `notifications/initialized`.
    pub async fn initialize_with(
        &self,
        protocol_version: &str,
        capabilities: Value,
    ) -> Result<Value, RpcError> {
        let result = self
            .request(
                "initialize",
                json!({
                    "protocolVersion": protocol_version,
                    "capabilities": capabilities,
                    "clientInfo": {"name": "mcp-runtime-test-client", "version": "0"},
                }),
            )
            .await?;
        self.notify("notifications/initialized", json!({}));
        Ok(result)
    }

    /// Sends a request and waits (at most 30 s) for its reply.
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, RpcError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (sender, receiver) = oneshot::channel();
        self.shared
            .pending
            .lock()
            .expect("lock poisoned")
            .insert(id.to_string(), (method.to_owned(), sender));
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.session.receive(message.to_string().as_bytes());
        let reply = tokio::time::timeout(Duration::from_secs(30), receiver)
            .await
            .unwrap_or_else(|_| panic!("no reply to `{method}` within 30 s"))
            .expect("the client was dropped");
        match reply.get("error") {
            Some(error) => {
                Err(serde_json::from_value(error.clone()).expect("a JSON-RPC error object"))
            }
            None => Ok(reply.get("result").cloned().unwrap_or(Value::Null)),
        }
    }

    /// Sends a request of revision 2026-07-28, stateless: its `_meta` names the revision,
    /// this client and its `capabilities` (`{}` for none), as every such request does; waits
    /// (at most 30 s) for its reply. A `_meta` already in `params` is kept and added to.
    pub async fn request_stateless(
        &self,
        method: &str,
        mut params: Value,
        capabilities: Value,
    ) -> Result<Value, RpcError> {
        let meta = params
            .as_object_mut()
            .expect("params are an object")
            .entry("_meta")
            .or_insert_with(|| json!({}));
        let meta = meta.as_object_mut().expect("`_meta` is an object");
        for (key, value) in [
            (
                "io.modelcontextprotocol/protocolVersion",
                json!(Revision::LATEST.as_str()),
            ),
            ("io.modelcontextprotocol/clientCapabilities", capabilities),
            (
                "io.modelcontextprotocol/clientInfo",
                json!({"name": "mcp-runtime-test-client", "version": "0"}),
            ),
        ] {
            meta.entry(key).or_insert(value);
        }
        self.request(method, params).await
    }

    /// Sends a notification.
    pub fn notify(&self, method: &str, params: Value) {
        let message = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.session.receive(message.to_string().as_bytes());
    }

    /// Every tool, following `nextCursor` through all pages.
    pub async fn list_tools(&self) -> Result<Vec<Value>, RpcError> {
        let mut tools = Vec::new();
        let mut params = json!({});
        loop {
            let page = self.request("tools/list", params).await?;
            tools.extend(page["tools"].as_array().cloned().unwrap_or_default());
            match page.get("nextCursor") {
                Some(cursor) => params = json!({ "cursor": cursor }),
                None => return Ok(tools),
            }
        }
    }

    /// Calls a tool.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Value,
    ) -> Result<CallToolResult, RpcError> {
        let result = self
            .request("tools/call", json!({"name": name, "arguments": arguments}))
            .await?;
        Ok(serde_json::from_value(result).expect("a CallToolResult"))
    }

    /// Sends raw bytes as one message, as a transport would; replies come from
    /// [`next_message`](Self::next_message).
    pub fn send_raw(&self, message: &str) {
        self.session.receive(message.as_bytes());
    }

    /// The next message that is not a reply to [`request`](Self::request): notifications,
    /// server requests, replies to [`send_raw`](Self::send_raw). `None` after `wait` with none.
    pub async fn next_message(&self, wait: Duration) -> Option<Value> {
        self.next_message_with_text(wait)
            .await
            .map(|(message, _)| message)
    }

    /// Like [`next_message`](Self::next_message), with the message's exact text as written.
    pub async fn next_message_with_text(&self, wait: Duration) -> Option<(Value, String)> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let arrived = self.shared.arrived.notified();
            if let Some(message) = self
                .shared
                .unsolicited
                .lock()
                .expect("lock poisoned")
                .pop_front()
            {
                return Some(message);
            }
            if tokio::time::timeout_at(deadline, arrived).await.is_err() {
                return None;
            }
        }
    }

    /// Ends the connection as a closed stdin would: waits for every request in flight.
    pub async fn close(self) {
        self.session.close();
        self.session.wait_idle().await;
    }
}

impl Shared {
    /// The reply to a server request, when a handler is set.
    fn answer(&self, message: &Value) -> Option<Value> {
        let method = message.get("method")?.as_str()?;
        let id = message.get("id")?;
        let handler = self.answer.lock().expect("lock poisoned").clone()?;
        Some(
            match handler(method, message.get("params").unwrap_or(&Value::Null)) {
                Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
                Err(error) => json!({"jsonrpc": "2.0", "id": id, "error": error}),
            },
        )
    }

    fn route(&self, message: Value, text: String, observer: &Observer) {
        let is_reply = message.get("method").is_none()
            && (message.get("result").is_some() || message.get("error").is_some());
        let waiter = if is_reply {
            let key = message.get("id").map(Value::to_string).unwrap_or_default();
            self.pending.lock().expect("lock poisoned").remove(&key)
        } else {
            None
        };
        match waiter {
            Some((method, sender)) => {
                observer(Some(&method), &message);
                let _ = sender.send(message);
            }
            None => {
                observer(None, &message);
                self.unsolicited
                    .lock()
                    .expect("lock poisoned")
                    .push_back((message, text));
                self.arrived.notify_waiters();
            }
        }
    }
}

/// Checks that the kind the session gave a message is what the message is: transports route by
/// that kind alone.
fn assert_kind(kind: &Outgoing, message: &Value) {
    let id = message.get("id");
    let has_method = message.get("method").is_some();
    let matches = match kind {
        Outgoing::Reply(Some(expected)) | Outgoing::Refusal(expected) => {
            !has_method && id == Some(&expected.to_value())
        }
        Outgoing::Reply(None) => {
            message.is_array() || (!has_method && message.get("error").is_some())
        }
        Outgoing::Notification { .. } => has_method && id.is_none(),
        Outgoing::Request(expected) => has_method && id == Some(&expected.to_value()),
    };
    assert!(matches, "the server sent {message} as {kind:?}");
}
