//! Per-request state shared by the handler's context and the session: who asks, under which
//! revision, cancelled? answered?

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::task::Waker;

use tokio::sync::Notify;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::InputRound;
use crate::jsonrpc::RequestId;
use crate::jsonrpc::scan::Members;
use crate::outbound::{Outbound, Outgoing};
use crate::protocol::envelope::{Envelope, PROGRESS_TOKEN};
use crate::protocol::{ClientInfo, Revision};

/// Flags of one request in flight, and where its messages go.
pub(crate) struct RequestState {
    /// The request's id: what its messages are sent on behalf of.
    id: RequestId,
    /// The request's own channel to the client (its HTTP response stream, or stdout).
    pub(crate) sink: Outbound,
    /// What a request of a stateless revision declared in its `_meta` (its revision, the
    /// client's capabilities, its log level); `None` in a session, which `initialize` settled.
    pub(crate) envelope: Option<Envelope>,
    /// The revision its handler serves it under: its own in a stateless revision, else the
    /// session's when it started.
    pub(crate) revision: Revision,
    /// The client that sent it, as its `_meta` or the session's `initialize` declared it.
    pub(crate) client: Arc<ClientInfo>,
    /// Its params' `_meta`, read when a handler asks.
    pub(crate) meta: LazyMeta,
    cancelled: AtomicBool,
    cancel: Notify,
    /// The task running the handler, woken by a cancel.
    task: Mutex<Option<Waker>>,
    finished: AtomicBool,
    /// Its reply refuses it as the client's doing ([`Outgoing::Refusal`]).
    refused: AtomicBool,
    /// It runs until the client ends it (`subscriptions/listen`).
    endless: AtomicBool,
    /// It is in its session's in-flight map (where a cancel finds it).
    registered: AtomicBool,
    /// The last progress value sent, to keep progress strictly increasing.
    pub(crate) last_progress: Mutex<Option<f64>>,
    /// A stateless request's first run's questions and answers used ([`RoundAt::FirstCall`](super::input::RoundAt::FirstCall)),
    /// made only when its handler asks something (boxed: every request's state is moved into
    /// its `Arc`, and most never ask).
    pub(crate) first_round: OnceLock<Box<InputRound>>,
}

impl RequestState {
    /// The state of request `id`, answered on `sink`, from a client of `revision` described by
    /// `client` (`envelope` for a stateless revision).
    pub(crate) fn new(
        id: RequestId,
        sink: Outbound,
        envelope: Option<Envelope>,
        revision: Revision,
        client: Arc<ClientInfo>,
    ) -> RequestState {
        RequestState {
            id,
            sink,
            envelope,
            revision,
            client,
            meta: LazyMeta::default(),
            cancelled: AtomicBool::new(false),
            cancel: Notify::new(),
            task: Mutex::new(None),
            finished: AtomicBool::new(false),
            refused: AtomicBool::new(false),
            endless: AtomicBool::new(false),
            registered: AtomicBool::new(false),
            last_progress: Mutex::new(None),
            first_round: OnceLock::new(),
        }
    }

    /// This state made anew, in place, for request `id`: what [`new`](Self::new) makes, with
    /// no state built on the stack to be moved in (for the spare state an in-order session
    /// reuses).
    pub(crate) fn renew(
        &mut self,
        id: RequestId,
        sink: Outbound,
        envelope: Option<Envelope>,
        revision: Revision,
        client: Arc<ClientInfo>,
    ) {
        // Every field, named: a field added to the state is a compile error here until it is
        // renewed too.
        let RequestState {
            id: old_id,
            sink: old_sink,
            envelope: old_envelope,
            revision: old_revision,
            client: old_client,
            meta,
            cancelled,
            cancel,
            task,
            finished,
            refused,
            endless,
            registered,
            last_progress,
            first_round,
        } = self;
        *old_id = id;
        *old_sink = sink;
        *old_envelope = envelope;
        *old_revision = revision;
        *old_client = client;
        *meta = LazyMeta::default();
        *cancelled.get_mut() = false;
        *cancel = Notify::new();
        *task.get_mut().unwrap_or_else(|e| e.into_inner()) = None;
        *finished.get_mut() = false;
        *refused.get_mut() = false;
        *endless.get_mut() = false;
        *registered.get_mut() = false;
        *last_progress.get_mut().unwrap_or_else(|e| e.into_inner()) = None;
        *first_round = OnceLock::new();
    }

    /// The request's id, exactly as the client sent it.
    pub(crate) fn id(&self) -> &RequestId {
        &self.id
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

    /// It has entered its session's in-flight map.
    pub(crate) fn mark_registered(&self) {
        self.registered.store(true, Ordering::Release);
    }

    pub(crate) fn is_registered(&self) -> bool {
        self.registered.load(Ordering::Acquire)
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

/// A request's `_meta`, kept inside the params' JSON text and read into a map the first time a
/// handler asks: most never do, and reading it costs more than the rest of a small request.
#[derive(Default)]
pub(crate) struct LazyMeta {
    /// The request's params, as received (unset when they have no `_meta`). Behind a lock
    /// rather than in a `OnceLock`: setting a `OnceLock` runs its `Once` machinery, about three
    /// times what an uncontended lock costs, and every stateless request sets it.
    params: Mutex<Option<Arc<str>>>,
    parsed: OnceLock<Option<Map<String, Value>>>,
    /// `_meta.progressToken`'s text, found once: progress may be reported many times, and
    /// finding it scans the params.
    progress_token: OnceLock<Option<Box<RawValue>>>,
}

impl LazyMeta {
    /// Where the `_meta` is to be read from: the params' text (the first one given counts).
    pub(crate) fn set_params(&self, params: Arc<str>) {
        self.params
            .lock()
            .expect("lock poisoned")
            .get_or_insert(params);
    }

    /// The JSON text of `_meta.progressToken`, exactly as the client wrote it (see
    /// [`member_text`](Self::member_text)).
    pub(crate) fn progress_token(&self) -> Option<&RawValue> {
        self.progress_token
            .get_or_init(|| self.member_text(PROGRESS_TOKEN))
            .as_deref()
    }

    /// The JSON text of `_meta`'s member `name`, exactly as the client wrote it (the last
    /// one, as [`LazyMeta::get`] reads a member named twice); `None` without one, or when the
    /// params give `_meta` twice (which `get` refuses too).
    fn member_text(&self, name: &str) -> Option<Box<RawValue>> {
        let params = self.params.lock().expect("lock poisoned").clone()?;
        let mut members = Members::of(&params)?;
        let mut meta = None;
        while let Some(member) = members.next().ok()? {
            if member.name.decoded()? == "_meta" && meta.replace(member.value).is_some() {
                return None;
            }
        }
        let mut members = Members::of(meta?)?;
        let mut text = None;
        while let Some(member) = members.next().ok()? {
            if member.name.decoded()? == name {
                text = Some(member.value);
            }
        }
        RawValue::from_string(text?.to_owned()).ok()
    }

    pub(crate) fn get(&self) -> Option<&Map<String, Value>> {
        #[derive(serde::Deserialize)]
        struct WithMeta {
            #[serde(rename = "_meta")]
            meta: Option<Map<String, Value>>,
        }
        self.parsed
            .get_or_init(|| {
                let params = self.params.lock().expect("lock poisoned").clone()?;
                serde_json::from_str::<WithMeta>(&params).ok()?.meta
            })
            .as_ref()
    }
}
