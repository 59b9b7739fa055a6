//! Per-request state shared by the handler's context and the session: cancelled? answered?

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::Waker;

use tokio::sync::Notify;

use crate::jsonrpc::RequestId;
use crate::outbound::{Outbound, Outgoing};
use crate::protocol::envelope::Envelope;

/// Flags of one request in flight, and where its messages go.
pub(crate) struct RequestState {
    /// The request's id: what its messages are sent on behalf of.
    id: RequestId,
    /// The request's own channel to the client (its HTTP response stream, or stdout).
    pub(crate) sink: Outbound,
    /// What a request of a stateless revision declared in its `_meta` (its revision, the
    /// client's capabilities, its log level); `None` in a session, which `initialize` settled.
    pub(crate) envelope: Option<Envelope>,
    cancelled: AtomicBool,
    cancel: Notify,
    /// The task running the handler, woken by a cancel.
    task: Mutex<Option<Waker>>,
    finished: AtomicBool,
    /// Its reply refuses it as the client's doing ([`Outgoing::Refusal`]).
    refused: AtomicBool,
    /// It runs until the client ends it (`subscriptions/listen`).
    endless: AtomicBool,
    /// The last progress value sent, to keep progress strictly increasing.
    pub(crate) last_progress: Mutex<Option<f64>>,
}

impl RequestState {
    pub(crate) fn new(id: RequestId, sink: Outbound, envelope: Option<Envelope>) -> RequestState {
        RequestState {
            id,
            sink,
            envelope,
            cancelled: AtomicBool::new(false),
            cancel: Notify::new(),
            task: Mutex::new(None),
            finished: AtomicBool::new(false),
            refused: AtomicBool::new(false),
            endless: AtomicBool::new(false),
            last_progress: Mutex::new(None),
        }
    }

    /// Sends a notification on behalf of this request, on its own channel.
    pub(crate) fn notify(&self, message: Vec<u8>) {
        let related = Some(self.id.clone());
        self.sink.send(Outgoing::Notification { related }, message);
    }

    /// Marks the request cancelled: wakes what waits on `cancelled()` and the handler's task,
    /// and stops any further message for the request.
    pub(crate) fn cancel(&self) {
        self.cancelled.store(true, Ordering::Release);
        self.finish();
        self.cancel.notify_waiters();
        if let Some(task) = self.task.lock().expect("lock poisoned").take() {
            task.wake();
        }
    }

    /// Remembers the task to wake on a cancel.
    pub(crate) fn register(&self, waker: &Waker) {
        let mut task = self.task.lock().expect("lock poisoned");
        if !task.as_ref().is_some_and(|t| t.will_wake(waker)) {
            *task = Some(waker.clone());
        }
    }

    pub(crate) fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Acquire)
    }

    pub(crate) async fn cancelled(&self) {
        loop {
            let notified = self.cancel.notified();
            if self.is_cancelled() {
                return;
            }
            notified.await;
        }
    }

    /// The reply is about to be sent: nothing more may be sent for this request.
    pub(crate) fn finish(&self) {
        self.finished.store(true, Ordering::Release);
    }

    /// Its reply will refuse it as the client's doing: sent as [`Outgoing::Refusal`].
    pub(crate) fn refuse(&self) {
        self.refused.store(true, Ordering::Release);
    }

    /// It runs until the client ends it: a connection that closes cancels it rather than
    /// waiting for it.
    pub(crate) fn mark_endless(&self) {
        self.endless.store(true, Ordering::Release);
    }

    pub(crate) fn is_endless(&self) -> bool {
        self.endless.load(Ordering::Acquire)
    }

    /// What its reply is, for the transport.
    pub(crate) fn reply_kind(&self) -> Outgoing {
        if self.refused.load(Ordering::Acquire) {
            Outgoing::Refusal(self.id.clone())
        } else {
            Outgoing::Reply(Some(self.id.clone()))
        }
    }

    pub(crate) fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Acquire)
    }
}
