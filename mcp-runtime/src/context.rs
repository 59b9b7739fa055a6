//! What a handler knows about the request it serves, and the values the runtime supplies.
//!
//! A tool asks for these by taking a parameter of their type: [`Context`] for the request
//! itself (its id, the negotiated revision, the client, a channel back to the client), and
//! [`State<T>`] for application state given to the server at start-up. Neither appears in the
//! tool's `inputSchema`.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::ops::Deref;
use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::jsonrpc::{RequestId, RpcError};
use crate::protocol::{ClientInfo, Revision};
use crate::server::Session;
use crate::tool::{FromContext, Requirements};

/// The request being served: passed to any handler that takes a `Context` parameter.
///
/// Cloning is cheap; the clone speaks for the same request.
#[derive(Clone)]
pub struct Context {
    inner: Arc<RequestInner>,
}

struct RequestInner {
    session: Arc<Session>,
    id: RequestId,
    revision: Revision,
    client: Arc<ClientInfo>,
    meta: Option<Map<String, Value>>,
}

impl Context {
    pub(crate) fn new(
        session: Arc<Session>,
        id: RequestId,
        revision: Revision,
        client: Arc<ClientInfo>,
        meta: Option<Map<String, Value>>,
    ) -> Context {
        Context {
            inner: Arc::new(RequestInner {
                session,
                id,
                revision,
                client,
                meta,
            }),
        }
    }

    /// The JSON-RPC id of the request, exactly as the client sent it.
    pub fn request_id(&self) -> &RequestId {
        &self.inner.id
    }

    /// The protocol revision this request is served under.
    pub fn revision(&self) -> Revision {
        self.inner.revision
    }

    /// The client: its name, version and declared capabilities (empty before `initialize`).
    pub fn client(&self) -> &ClientInfo {
        &self.inner.client
    }

    /// The request's `_meta` object, if it had one.
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.inner.meta.as_ref()
    }

    /// Shared state of type `T` given to the server with `ServerBuilder::state`.
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        self.inner.session.server().state.get::<T>()
    }

    /// Sends a notification to the client (`notifications/...`), ahead of this request's reply.
    pub fn notify(&self, method: &str, params: &impl Serialize) {
        self.inner.session.notify(method, params);
    }

    /// Sends a request to the client and waits for its answer (or the server's request
    /// timeout, after which the error says the client did not answer).
    pub async fn request(&self, method: &str, params: &impl Serialize) -> Result<Value, RpcError> {
        self.inner.session.request(method, params).await
    }
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("request_id", &self.inner.id)
            .field("revision", &self.inner.revision)
            .finish_non_exhaustive()
    }
}

impl FromContext for Context {
    fn from_context(ctx: &Context) -> Result<Self, String> {
        Ok(ctx.clone())
    }
}

/// Application state of type `T`, given to the server at start-up with
/// `ServerBuilder::state(value)` and shared by every request.
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// struct Config {
///     greeting: String,
/// }
///
/// /// Greets someone with the configured greeting.
/// #[mcp_tool]
/// fn greet(config: State<Config>, name: String) -> String {
///     format!("{}, {name}!", config.greeting)
/// }
///
/// let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
///     .tool::<greet>()
///     .state(Config { greeting: "Hello".into() })
///     .build()
///     .unwrap();
/// # drop(server);
/// ```
pub struct State<T>(pub Arc<T>);

impl<T> Deref for State<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> Clone for State<T> {
    fn clone(&self) -> Self {
        State(Arc::clone(&self.0))
    }
}

impl<T: Send + Sync + 'static> FromContext for State<T> {
    fn from_context(ctx: &Context) -> Result<Self, String> {
        ctx.state::<T>().map(State).ok_or_else(|| {
            format!(
                "the server has no state of type `{}`",
                std::any::type_name::<T>()
            )
        })
    }

    fn declare(requirements: &mut Requirements) {
        requirements.state::<T>();
    }
}

/// State values by type.
#[derive(Default, Clone)]
pub(crate) struct StateMap {
    values: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl StateMap {
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        self.values.insert(TypeId::of::<T>(), Arc::new(value));
    }

    pub(crate) fn contains(&self, type_id: TypeId) -> bool {
        self.values.contains_key(&type_id)
    }

    pub(crate) fn get<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        let value = self.values.get(&TypeId::of::<T>())?;
        Arc::clone(value).downcast::<T>().ok()
    }
}
