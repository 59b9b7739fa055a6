//! The server's requests to the client (sampling, elicitation, roots, `Context::request`) that
//! await an answer: each gets an id of its own, and waits for the response with that id, the
//! server's request timeout, or the end of the connection.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;
use tokio::sync::oneshot;

use crate::jsonrpc::{
    IdMap, IncomingResponse, RequestId, RpcError, encode_notification, encode_request,
};
use crate::outbound::{Outbound, Outgoing};

/// Why a request to the client has no answer to give back: each its own case, never read
/// back from an error's words (a client's own error could say anything).
#[derive(Debug)]
pub(crate) enum Unanswered {
    /// No answer within the request timeout.
    Timeout { seconds: f64 },
    /// The connection ended first.
    Closed,
    /// The client's answer was malformed: why.
    Malformed(String),
    /// The client answered with an error.
    Refused(RpcError),
    /// The request cannot reach the client where it was asked: why.
    Unreachable(&'static str),
}

impl Unanswered {
    /// The error [`Context::request`](super::Context::request) gives for it.
    pub(crate) fn into_rpc_error(self, method: &str) -> RpcError {
        match self {
            Unanswered::Timeout { seconds } => RpcError::internal(format!(
                "the client did not answer `{method}` within {seconds} s"
            )),
            Unanswered::Closed => RpcError::internal("the client closed the connection"),
            Unanswered::Malformed(why) => {
                RpcError::internal(format!("the client's answer was malformed: {why}"))
            }
            Unanswered::Refused(error) => error,
            Unanswered::Unreachable(why) => {
                RpcError::internal(format!("cannot send `{method}` to the client: {why}"))
            }
        }
    }
}

/// Why a request cannot reach a client whose HTTP POST takes only JSON.
pub(crate) const JSON_ONLY: &str = "its POST accepts only `application/json`, so the request has no stream to go on (clients must accept `text/event-stream` too)";

/// One session's requests to its client that await an answer.
pub(crate) struct ClientRequests {
    pending: Mutex<IdMap<oneshot::Sender<Result<Value, Unanswered>>>>,
    next_id: AtomicU64,
    /// How long a request waits for its answer (`ServerBuilder::request_timeout`).
    timeout: Duration,
}

impl ClientRequests {
    pub(crate) fn new(timeout: Duration) -> ClientRequests {
        ClientRequests {
            pending: Mutex::new(IdMap::default()),
            next_id: AtomicU64::new(0),
            timeout,
        }
    }

    /// Sends a request to the client on `sink` and waits for the answer. On a timeout, or when
    /// the wait is dropped (its handler cancelled), the request is forgotten and the client
    /// told it is cancelled.
    pub(crate) async fn send(
        &self,
        sink: &Outbound,
        method: &str,
        params: &impl Serialize,
    ) -> Result<Value, Unanswered> {
        if !sink.carries_requests() {
            return Err(Unanswered::Unreachable(JSON_ONLY));
        }
        let number = self.next_id.fetch_add(1, Ordering::Relaxed);
        let id = RequestId::from_number(number);
        let (sender, receiver) = oneshot::channel();
        self.pending
            .lock()
            .expect("lock poisoned")
            .insert(id.clone(), sender);
        let mut waiting = Waiting {
            requests: self,
            sink,
            id,
            reason: "the request that asked was cancelled",
        };
        sink.send(
            Outgoing::Request(waiting.id.clone()),
            encode_request(&waiting.id, method, params),
        );
        match tokio::time::timeout(self.timeout, receiver).await {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(_)) => Err(Unanswered::Closed),
            Err(_) => {
                waiting.reason = "timed out";
                drop(waiting);
                Err(Unanswered::Timeout {
                    seconds: self.timeout.as_secs_f64(),
                })
            }
        }
    }

    /// Hands the client's response to the request that awaits it; a response to no such
    /// request is ignored.
    pub(crate) fn answer(&self, response: IncomingResponse) {
        let waiter = self
            .pending
            .lock()
            .expect("lock poisoned")
            .remove(&response.id);
        if let Some(waiter) = waiter {
            let _ = waiter.send(response.outcome.map_err(Unanswered::Refused));
        }
    }

    /// Fails the request `id` awaits with the client's malformed answer to it (`why`), if one
    /// does: at once, rather than when its wait times out as if the client had said nothing.
    pub(crate) fn answer_malformed(&self, id: &RequestId, why: &str) {
        let waiter = self.pending.lock().expect("lock poisoned").remove(id);
        if let Some(waiter) = waiter {
            let _ = waiter.send(Err(Unanswered::Malformed(why.to_owned())));
        }
    }

    /// The client is gone: every request that awaits it fails now.
    pub(crate) fn fail_all(&self) {
        let pending = std::mem::take(&mut *self.pending.lock().expect("lock poisoned"));
        for (_, waiter) in pending {
            let _ = waiter.send(Err(Unanswered::Closed));
        }
    }
}

/// A request to the client while it awaits its answer. When the wait ends unanswered (timed
/// out, or dropped because its handler was cancelled) the request is still pending: it is
/// forgotten then, and the client told with `notifications/cancelled`, so that nothing is left
/// behind until the connection ends. An answered request, or one failed by `fail_all`, has
/// left the pending map already.
struct Waiting<'a> {
    requests: &'a ClientRequests,
    sink: &'a Outbound,
    id: RequestId,
    /// Why the client is told the request is cancelled, if it is.
    reason: &'static str,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        // No panic here (a drop may run while a panic unwinds): a poisoned lock is taken as is.
        let mut pending = match self.requests.pending.lock() {
            Ok(pending) => pending,
            Err(poisoned) => poisoned.into_inner(),
        };
        if pending.remove(&self.id).is_some() {
            drop(pending);
            self.sink.send(
                Outgoing::Notification { related: None },
                encode_notification(
                    "notifications/cancelled",
                    &serde_json::json!({"requestId": self.id.to_value(), "reason": self.reason}),
                ),
            );
        }
    }
}
