//! Answering one raw message without a transport, on the calling task: the hook the
//! micro-benchmarks in `bench/micro` measure the request path through. Not a public API.

use std::sync::Arc;

use super::{Server, Session};
use crate::jsonrpc::{Incoming, parse_message};
use crate::outbound::Outbound;

/// A connection with no transport: each message goes in as bytes and its reply comes back as
/// bytes. Notifications the server sends on it are dropped.
#[doc(hidden)]
pub struct DirectSession {
    session: Arc<Session>,
}

impl Server {
    /// A connection without a transport, for benchmarks (`mcp_runtime::__internals`).
    pub(crate) fn direct_session(&self) -> DirectSession {
        let outbound = Outbound::discard();
        DirectSession {
            session: Session::new(Arc::clone(&self.core), outbound),
        }
    }
}

impl DirectSession {
    /// The reply to one message, computed on the calling task (no task is spawned): the
    /// message is parsed, dispatched and its reply encoded exactly as over a transport. `None`
    /// for anything but a request (notifications are handled, and need no reply).
    pub async fn handle(&self, message: &[u8]) -> Option<Vec<u8>> {
        match parse_message(message) {
            Incoming::Request(request) => {
                let state = self.session.detached_state(request.id.clone());
                Some(super::methods::route(&self.session, request, None, state).await)
            }
            _ => {
                self.session.receive(message);
                None
            }
        }
    }
}
