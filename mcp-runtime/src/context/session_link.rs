//! What a request's [`Context`](super::Context) reaches of the session it is served on: the
//! narrow interface the server's `Session` implements, so that this layer, which every handler
//! stands on, never names the server above it.

use std::any::Any;

use super::{ClientRequests, LoggingLevel};
use crate::outbound::Outbound;
use crate::state_map::StateMap;

/// The session a request is served on, as its context sees it.
///
/// `Any`, so that the server, which made every context, can find its own session again
/// behind one (`Context::server`, in `server/handle.rs`).
pub(crate) trait SessionLink: Any + Send + Sync {
    /// The session's own channel: for messages no request is waiting on (a log message sent
    /// after the request's reply).
    fn outbound(&self) -> &Outbound;

    /// The least severe level the client wants log messages at (`logging/setLevel`).
    fn log_level(&self) -> LoggingLevel;

    /// The server's requests to this client that await an answer.
    fn client_requests(&self) -> &ClientRequests;

    /// The application state given to the server at start-up (`ServerBuilder::state`).
    fn state(&self) -> &StateMap;
}
