//! One connection: what was negotiated, which requests are in flight, and which of the
//! server's own requests await an answer (`context::ClientRequests`). A request's `Context`
//! reaches the session through `context::SessionLink`, which [`Session`] implements.
//!
//! [`Session::receive`] takes one raw message. A request starts right there and, if it has to
//! wait, goes on as a task of its own (see [`start_here`]), so a tool waiting on I/O never
//! delays `ping` or another call; a call of a tool that cannot wait (a plain `fn`) is answered
//! there with no future at all. Replies go out in the order they are ready, matched by id.
//! A request's notifications are sent before its reply because both go through the same
//! ordered outbound channel from the same task.

use std::collections::HashSet;
use std::collections::hash_map::Entry;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use serde::Serialize;
use serde_json::value::RawValue;
use tokio::sync::Notify;

use super::ServerCore;
use super::methods::Reply;
use super::panic::{CatchUnwind, UntilCancelled, catch};
use super::params::{self, ParamsLayout};
use crate::context::{ClientRequests, LoggingLevel, RequestState, SessionLink};
use crate::handler::BoxFuture;
use crate::jsonrpc::{
    IdMap, Incoming, IncomingRequest, ParamsText, RequestId, RpcError, encode_error,
    encode_error_without_id, encode_notification, parse_message_with,
};
use crate::limit_log::LimitLog;
use crate::outbound::{Outbound, Outgoing};
use crate::protocol::envelope::{Claim, Envelope};
use crate::protocol::{ClientInfo, Revision};
use crate::state_map::StateMap;

/// A request of a stateless revision, admitted: what its `_meta` declared, checked, and where
/// the members of its params lie (read in the same pass as the claim, so that its method reads
/// none of them again).
pub(crate) struct Stateless {
    pub(crate) envelope: Envelope,
    pub(crate) layout: ParamsLayout,
}

/// What `initialize` settled.
pub(crate) struct Negotiated {
    pub(crate) revision: Revision,
    pub(crate) client: Arc<ClientInfo>,
}

pub(crate) struct Session {
    server: Arc<ServerCore>,
    /// The number the server's session list has it under, if it is listed.
    listed_as: Option<u64>,
    /// Its messages are received one at a time, by one loop that waits while each request's
    /// first poll runs (stdio): nothing can reach a request during that poll, so a request
    /// enters the in-flight map only if the poll leaves it waiting.
    in_order: bool,
    subscriptions: Mutex<HashSet<String>>,
    outbound: Outbound,
    negotiated: RwLock<Option<Arc<Negotiated>>>,
    inflight: Mutex<IdMap<Arc<RequestState>>>,
    log_level: AtomicU8,
    /// The server's requests to the client that await an answer.
    client_requests: ClientRequests,
    running: AtomicUsize,
    idle: Notify,
    /// Whether anyone has waited for `idle` (the end of serving): until then the end of a
    /// request does not signal it, which costs a lock.
    idle_awaited: AtomicBool,
    /// The state of the last request answered at once, if nothing else held it then (in an
    /// in-order session): the next request's is written into it rather than into an
    /// allocation of its own.
    spare_state: Mutex<Option<Arc<RequestState>>>,
    /// How many requests have gone on as tasks of their own (see [`start_here`]).
    tasks_started: AtomicUsize,
}

/// Where a request's reply goes.
enum ReplyTo {
    /// To the sink of the message that carried the request (the stdio writer, an HTTP
    /// response), which its state holds.
    Sink,
    /// Into a batch reply, sent once every request of the batch is done.
    Batch(Arc<BatchReply>),
}

struct BatchReply {
    outbound: Outbound,
    replies: Mutex<Vec<Vec<u8>>>,
}

impl Session {
    pub(crate) fn new(server: Arc<ServerCore>, outbound: Outbound) -> Arc<Session> {
        Session::listed(server, outbound, false)
    }

    /// A session whose messages are received [in order](Session::in_order), by one loop.
    pub(crate) fn new_in_order(server: Arc<ServerCore>, outbound: Outbound) -> Arc<Session> {
        Session::listed(server, outbound, true)
    }

    fn listed(server: Arc<ServerCore>, outbound: Outbound, in_order: bool) -> Arc<Session> {
        let number = server.sessions.number();
        let session = Session::with_listing(Arc::clone(&server), outbound, Some(number), in_order);
        server.sessions.add(number, &session);
        session
    }

    /// A session that list changes and resource updates never reach, as nothing can reach its
    /// client outside its own request: a stateless HTTP POST's.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn unlisted(server: Arc<ServerCore>, outbound: Outbound) -> Arc<Session> {
        Session::with_listing(server, outbound, None, false)
    }

    fn with_listing(
        server: Arc<ServerCore>,
        outbound: Outbound,
        listed_as: Option<u64>,
        in_order: bool,
    ) -> Arc<Session> {
        let client_requests = ClientRequests::new(server.request_timeout);
        Arc::new(Session {
            server,
            listed_as,
            in_order,
            subscriptions: Mutex::new(HashSet::new()),
            outbound,
            negotiated: RwLock::new(None),
            inflight: Mutex::new(IdMap::default()),
            client_requests,
            running: AtomicUsize::new(0),
            idle_awaited: AtomicBool::new(false),
            spare_state: Mutex::new(None),
            tasks_started: AtomicUsize::new(0),
            log_level: AtomicU8::new(LoggingLevel::Debug as u8),
            idle: Notify::new(),
        })
    }

    /// How many requests so far waited, and so went on as tasks of their own: the stdio loop
    /// compares it before and after the messages of one read.
    pub(crate) fn tasks_started(&self) -> usize {
        self.tasks_started.load(Ordering::Relaxed)
    }

    /// The revision this session's requests are served under (the latest before
    /// `initialize`).
    pub(crate) fn revision(&self) -> Revision {
        self.negotiated()
            .map_or(Revision::LATEST_SESSION_BASED, |n| n.revision)
    }

    /// The state of request `id`, answered on `sink`: under the revision and for the client
    /// its `envelope` declares (a stateless revision), else those the session negotiated.
    fn request_state(
        &self,
        id: RequestId,
        sink: Outbound,
        envelope: Option<Envelope>,
    ) -> RequestState {
        let (revision, client) = self.revision_and_client(envelope.as_ref());
        RequestState::new(id, sink, envelope, revision, client)
    }

    /// The revision a request is served under, and its client: its envelope's, or the
    /// session's (looked up only for a request that has no envelope).
    fn revision_and_client(&self, envelope: Option<&Envelope>) -> (Revision, Arc<ClientInfo>) {
        match envelope {
            Some(envelope) => (envelope.revision, Arc::clone(&envelope.client)),
            // Read under the lock, without a count of its own on the negotiation.
            None => match &*self.negotiated.read().expect("lock poisoned") {
                Some(negotiated) => (negotiated.revision, Arc::clone(&negotiated.client)),
                None => (Revision::LATEST_SESSION_BASED, Arc::default()),
            },
        }
    }

    /// Why a request is refused when the session, or the server, has its limit in flight:
    /// -32603 naming the setting, and a line on stderr.
    #[cold]
    #[inline(never)]
    fn over_the_limit(&self, limit: InFlightLimit) -> RpcError {
        let server = &self.server;
        // Who holds it (in the log line, in the reply), its maximum, what it counts, and
        // what to do.
        let (log, reply, max, what, setting, advice) = match limit {
            InFlightLimit::Session => (
                "a session has",
                "this session already has the server's limit of",
                server.max_requests_in_flight,
                "requests in flight",
                "max_requests_in_flight",
                "wait for a reply, or cancel a request, before sending another",
            ),
            InFlightLimit::Server => (
                "the server has",
                "the server already has its limit of",
                server.max_requests_in_flight_total,
                "requests in flight across all its clients",
                "max_requests_in_flight_total",
                "retry shortly",
            ),
            InFlightLimit::Bytes => (
                "the server's requests in flight hold",
                "the server's requests in flight already hold its limit of",
                server.max_request_bytes_in_flight,
                "bytes of params",
                "max_request_bytes_in_flight",
                "retry shortly",
            ),
        };
        static LOG: LimitLog = LimitLog::new();
        LOG.hit(|| format!("{log} {max} {what} (ServerBuilder::{setting}): another is refused"));
        RpcError::internal(format!(
            "{reply} {max} {what} (ServerBuilder::{setting}): {advice}"
        ))
    }

    /// The state of a request that is answered outside the in-flight map (no cancel can reach
    /// it): for the direct session of the benchmarks.
    pub(crate) fn detached_state(&self, id: RequestId) -> Arc<RequestState> {
        Arc::new(self.request_state(id, self.outbound.clone(), None))
    }

    pub(crate) fn set_log_level(&self, level: LoggingLevel) {
        self.log_level.store(level as u8, Ordering::Relaxed);
    }

    /// The server this session belongs to, shared.
    pub(crate) fn server_core(&self) -> &Arc<ServerCore> {
        &self.server
    }

    /// Subscribes to `uri` or unsubscribes, within the server's
    /// [`SubscriptionLimits`](super::builder::SubscriptionLimits): a URI too long, or one
    /// subscription too many, is refused with invalid params naming the limit.
    pub(crate) fn set_subscription(&self, uri: String, on: bool) -> Result<(), RpcError> {
        let mut subscriptions = self.subscriptions.lock().expect("lock poisoned");
        if !on {
            subscriptions.remove(&uri);
            return Ok(());
        }
        self.server.check_uri(&uri)?;
        let limits = self.server.subscriptions;
        if subscriptions.len() >= limits.max && !subscriptions.contains(&uri) {
            drop(subscriptions);
            static LOG: LimitLog = LimitLog::new();
            LOG.hit(|| {
                format!(
                    "a session holds {} subscriptions (ServerBuilder::max_subscriptions): another is refused",
                    limits.max
                )
            });
            return Err(RpcError::invalid_params(format!(
                "this session already holds the server's limit of {} subscriptions (ServerBuilder::max_subscriptions): unsubscribe from one first",
                limits.max
            )));
        }
        subscriptions.insert(uri);
        Ok(())
    }

    pub(crate) fn is_subscribed(&self, uri: &str) -> bool {
        self.subscriptions
            .lock()
            .expect("lock poisoned")
            .contains(uri)
    }

    /// Whether `initialize` has happened, so list-change notifications make sense.
    pub(crate) fn is_initialized(&self) -> bool {
        self.negotiated().is_some()
    }

    pub(crate) fn server(&self) -> &ServerCore {
        &self.server
    }

    pub(crate) fn negotiated(&self) -> Option<Arc<Negotiated>> {
        self.negotiated.read().expect("lock poisoned").clone()
    }

    /// Settles what `initialize` negotiated, once: `Err` with the revision already settled if
    /// the session was initialized before.
    pub(crate) fn negotiate_once(&self, negotiated: Negotiated) -> Result<(), Revision> {
        let mut settled = self.negotiated.write().expect("lock poisoned");
        if let Some(earlier) = &*settled {
            return Err(earlier.revision);
        }
        *settled = Some(Arc::new(negotiated));
        Ok(())
    }

    /// Handles one raw message. Must be called within a Tokio runtime.
    pub(crate) fn receive(self: &Arc<Self>, bytes: &[u8]) {
        self.receive_via(bytes, &self.outbound);
    }

    /// Handles one raw message whose replies, and whatever its requests' handlers send
    /// (progress, log messages, requests to the client), go to `sink` rather than the
    /// session's own channel: an HTTP response stream.
    pub(crate) fn receive_via(self: &Arc<Self>, bytes: &[u8], sink: &Outbound) {
        // The params a request's era or method reads member by member are read with the
        // message, in one pass.
        let mut read = None;
        let message = parse_message_with(bytes, &params::InMessage, &mut read);
        self.receive_parsed(bytes, message, read, sink);
    }

    /// Like [`receive_via`](Self::receive_via), for a message the transport has parsed
    /// already: `message` is what `bytes` holds, and `read` what the pass that parsed it read
    /// of a request's params, if it read them.
    pub(crate) fn receive_parsed(
        self: &Arc<Self>,
        bytes: &[u8],
        message: Incoming,
        read: Option<params::Params<'_>>,
        sink: &Outbound,
    ) {
        if self.server.trace {
            crate::outbound::trace("<-", bytes);
        }
        match message {
            Incoming::Request(request) => {
                let read =
                    read.or_else(|| params::claim(request.params.as_ref().map(ParamsText::get)));
                let Some(mut read) = read else {
                    return self.start_request(request, (sink.clone(), ReplyTo::Sink), None, None);
                };
                let claim = read.claim.take().filter(Claim::claims_era);
                let layout = Some(read.into_layout());
                let Some(claim) = claim else {
                    return self.start_request(
                        request,
                        (sink.clone(), ReplyTo::Sink),
                        None,
                        layout,
                    );
                };
                match claim.into_envelope(&self.server.last_client) {
                    Ok(envelope) => {
                        let reply_to = (sink.clone(), ReplyTo::Sink);
                        self.start_request(request, reply_to, Some(envelope), layout);
                    }
                    Err(error) => sink.send(
                        Outgoing::Reply(Some(request.id.clone())),
                        encode_error(Some(&request.id), &error),
                    ),
                }
            }
            Incoming::Notification { method, params } => self.on_notification(&method, params),
            Incoming::Response(response) => self.client_requests.answer(response),
            Incoming::Batch(items) => self.on_batch(items, sink),
            Incoming::Invalid {
                id,
                error,
                as_response,
            } => {
                let id = self.on_invalid(id, &error, as_response);
                sink.send(
                    Outgoing::Reply(id.clone()),
                    self.error_message(id.as_ref(), &error),
                );
            }
        }
    }

    /// Cancels a request in flight, as `notifications/cancelled` does; false if there is none.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn cancel(&self, id: &RequestId) -> bool {
        match self.inflight.lock().expect("lock poisoned").remove(id) {
            Some(request) => {
                request.cancel();
                true
            }
            None => false,
        }
    }

    /// Cancels every request in flight: none of them is answered.
    pub(crate) fn cancel_all(&self) {
        let inflight = std::mem::take(&mut *self.inflight.lock().expect("lock poisoned"));
        for request in inflight.into_values() {
            request.cancel();
        }
    }

    /// Whether a request is in flight.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn is_busy(&self) -> bool {
        self.running.load(Ordering::Acquire) > 0
    }

    /// Waits until every request in flight has been answered (or cancelled).
    pub(crate) async fn wait_idle(&self) {
        // Sequentially consistent, as `RunningGuard`'s side: either the last request's end
        // sees the flag and signals, or this sees its count.
        self.idle_awaited.store(true, Ordering::SeqCst);
        loop {
            let idle = self.idle.notified();
            if self.running.load(Ordering::SeqCst) == 0 {
                return;
            }
            idle.await;
        }
    }

    /// For a request `id` that runs until the client ends it (a listen stream), the reply
    /// that ends it gracefully when the server does (a listen's complete result).
    #[cfg(feature = "http")]
    pub(crate) fn closing_reply(&self, id: &RequestId) -> Option<Vec<u8>> {
        let endless = self
            .inflight
            .lock()
            .expect("lock poisoned")
            .get(id)
            .is_some_and(|request| request.is_endless());
        endless.then(|| super::methods::closing_result(&self.server, id))
    }

    /// The client is gone: the server's own requests fail instead of waiting forever, and
    /// requests that run until the client ends them (listen streams) end now.
    pub(crate) fn close(&self) {
        self.close_with(false);
    }

    /// [`close`](Self::close), or (`still_read`: the client sends nothing more, stdin ended,
    /// but may still read) with each request that runs until the client ends it (a listen
    /// stream) ended as the server ends one, with its closing result ("Graceful Closure").
    pub(crate) fn close_with(&self, still_read: bool) {
        let mut ended = Vec::new();
        self.inflight
            .lock()
            .expect("lock poisoned")
            .retain(|id, request| {
                if request.is_endless() {
                    // Stopped first, so that nothing of it follows its closing result.
                    request.cancel();
                    if still_read {
                        ended.push(id.clone());
                    }
                }
                !request.is_endless()
            });
        for id in ended {
            let closing = super::methods::closing_result(&self.server, &id);
            self.outbound.send(Outgoing::Reply(Some(id)), closing);
        }
        self.client_requests.fail_all();
    }

    /// Starts `message`, a request of a stateless revision admitted by the transport, answered
    /// on `sink`: served by the same handlers, with
    /// nothing of the session's negotiated state (HTTP serves it on a session of its own).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn receive_stateless(
        self: &Arc<Self>,
        bytes: &[u8],
        message: Incoming,
        stateless: Stateless,
        sink: &Outbound,
    ) {
        if self.server.trace {
            crate::outbound::trace("<-", bytes);
        }
        if let Incoming::Request(request) = message {
            let Stateless { envelope, layout } = stateless;
            let reply_to = (sink.clone(), ReplyTo::Sink);
            self.start_request(request, reply_to, Some(envelope), Some(layout));
        }
    }

    /// Starts `request`, of a stateless revision if it has an `envelope`: its messages go to
    /// the sink, its reply where [`ReplyTo`] says; `layout` is where the members of its params
    /// lie, if a pass over them found them.
    fn start_request(
        self: &Arc<Self>,
        request: IncomingRequest,
        (sink, reply_to): (Outbound, ReplyTo),
        envelope: Option<Envelope>,
        layout: Option<ParamsLayout>,
    ) {
        let task_state = self.new_state(request.id.clone(), sink, envelope);
        // Counted before anything else, so that requests arriving together cannot pass the
        // limit between a look at the count and its increment.
        let bytes = request
            .params
            .as_ref()
            .map_or(0, |params| params.get().len());
        let guard = match RunningGuard::admit(self, bytes) {
            Ok(guard) => guard,
            Err(limit) => {
                let error = self.over_the_limit(limit);
                let reply = Reply::Encoded(encode_error(Some(&request.id), &error));
                return self.reply(&reply_to, &task_state, reply);
            }
        };
        // Registered before the task exists, and the lock released before it is spawned: the
        // task never waits on this lock to find its own state. In an in-order session, only if
        // its first poll leaves it waiting (below); an id in use is refused all the same.
        {
            let mut inflight = self.inflight.lock().expect("lock poisoned");
            let in_use = if self.in_order {
                !inflight.is_empty() && inflight.contains_key(&request.id)
            } else {
                match inflight.entry(request.id.clone()) {
                    Entry::Occupied(_) => true,
                    Entry::Vacant(slot) => {
                        slot.insert(Arc::clone(&task_state));
                        task_state.mark_registered();
                        false
                    }
                }
            };
            drop(inflight);
            if in_use {
                let error = RpcError::invalid_request(format!(
                    "request id {} is already in use by a request in flight",
                    request.id
                ));
                self.reply(
                    &reply_to,
                    &task_state,
                    Reply::Encoded(encode_error(Some(&request.id), &error)),
                );
                return;
            }
        }
        // A call of a tool that cannot wait is answered here, with no task and no future.
        let (request, layout) = match self.answer_at_once(request, layout, &task_state, &reply_to) {
            Ok(()) => return self.keep_spare(task_state),
            Err(back) => back,
        };
        let state = Arc::clone(&task_state);
        let task = request_task(
            Arc::clone(self),
            request,
            layout,
            task_state,
            reply_to,
            guard,
        );
        start_here(task, || {
            self.tasks_started.fetch_add(1, Ordering::Relaxed);
            // Before the task is spawned: on a multi-threaded runtime it may run at once.
            if self.in_order {
                self.inflight
                    .lock()
                    .expect("lock poisoned")
                    .insert(state.id().clone(), Arc::clone(&state));
                state.mark_registered();
            }
        });
    }

    /// The state of request `id` ([`request_state`](Self::request_state)), shared: the spare
    /// state renewed in place if there is one.
    ///
    /// In place, not built and moved in: a state built on the stack (320 bytes) stayed in
    /// `start_request`'s frame, under the request's handling.
    fn new_state(
        &self,
        id: RequestId,
        sink: Outbound,
        envelope: Option<Envelope>,
    ) -> Arc<RequestState> {
        let spare = self.spare_state.lock().expect("lock poisoned").take();
        if let Some(mut spare) = spare
            && let Some(place) = Arc::get_mut(&mut spare)
        {
            let (revision, client) = self.revision_and_client(envelope.as_ref());
            place.renew(id, sink, envelope, revision, client);
            return spare;
        }
        self.fresh_state(id, sink, envelope)
    }

    /// [`new_state`](Self::new_state) with no spare to renew: every request of a session that
    /// is not in order (HTTP), and in one that is, the first and any after a handler kept its
    /// `Context`. Not inlined, for the same reason: the state is built in this frame.
    #[inline(never)]
    fn fresh_state(
        &self,
        id: RequestId,
        sink: Outbound,
        envelope: Option<Envelope>,
    ) -> Arc<RequestState> {
        Arc::new(self.request_state(id, sink, envelope))
    }

    /// Keeps the state of a request that has ended as the spare, if nothing else holds it (a
    /// handler may have kept its `Context`). Only in an in-order session (stdio), whose
    /// requests all reply on the session's own sink: elsewhere a request's sink may be its own
    /// response stream, which a spare would keep open.
    fn keep_spare(&self, mut state: Arc<RequestState>) {
        if self.in_order && Arc::get_mut(&mut state).is_some() {
            *self.spare_state.lock().expect("lock poisoned") = Some(state);
        }
    }

    /// Answers `request` on the spot if it can be answered without a future (a call of a tool
    /// that runs at once: `methods::route_at_once`), as its task would have: a panic is an
    /// error reply, a request cancelled meanwhile gets none. Gives it back otherwise.
    fn answer_at_once(
        self: &Arc<Self>,
        request: IncomingRequest,
        layout: Option<ParamsLayout>,
        state: &Arc<RequestState>,
        reply_to: &ReplyTo,
    ) -> Result<(), (IncomingRequest, Option<ParamsLayout>)> {
        let route = || catch(|| super::methods::route_at_once(self, request, layout, state));
        #[cfg(feature = "tracing")]
        let routed = crate::log_bridge::CURRENT.sync_scope(
            crate::log_bridge::LogTarget {
                session: Arc::<Session>::clone(self),
                state: Arc::clone(state),
            },
            route,
        );
        #[cfg(not(feature = "tracing"))]
        let routed = route();
        let outcome = match routed {
            Ok(Err(back)) => return Err(back),
            Ok(Ok(reply)) => Ok(reply),
            Err(panic) => Err(panic),
        };
        // Nothing was awaited, so a cancel had no `.await` to stop it at: the reply is
        // dropped if one came meanwhile (`finish`), as a task's would be.
        self.conclude(state, reply_to, Some(outcome));
        Ok(())
    }

    /// Ends a request whose handling ended with `outcome` (`None`: stopped by a cancel; `Err`:
    /// a panic's message), sending its reply unless it was cancelled.
    fn conclude(
        &self,
        state: &RequestState,
        reply_to: &ReplyTo,
        outcome: Option<Result<Reply, String>>,
    ) {
        state.finish();
        let Some(outcome) = outcome else {
            return; // cancelled: no reply is sent
        };
        let id = state.id();
        let reply = outcome.unwrap_or_else(|panic| {
            Reply::Encoded(encode_error(
                Some(id),
                &RpcError::internal(format!("the handler panicked: {panic}")),
            ))
        });
        if self.finish(id, state) {
            self.reply(reply_to, state, reply);
        }
    }

    /// Removes a finished request; false if it was cancelled meanwhile (no reply is due). One
    /// that never entered the in-flight map (finished in its first poll, in an in-order
    /// session) could not be. The entry under its id is removed only if it is this request's:
    /// a client that cancelled it may have sent another with its id since.
    fn finish(&self, id: &RequestId, state: &RequestState) -> bool {
        if !state.is_registered() {
            return true;
        }
        let mut inflight = self.inflight.lock().expect("lock poisoned");
        let own = inflight
            .get(id)
            .is_some_and(|entry| std::ptr::eq(Arc::as_ptr(entry), state));
        if own {
            inflight.remove(id);
        }
        own
    }

    fn reply(&self, reply_to: &ReplyTo, request: &RequestState, reply: Reply) {
        let id = request.id();
        let members = || match request.envelope {
            None => "",
            Some(_) => self.server.complete_members().for_result(false),
        };
        // Matched by reference where it can be, not moved: a tool's result is large.
        match (reply_to, &reply) {
            (ReplyTo::Sink, Reply::ToolResult(_)) => {
                let write = &mut |out: &mut Vec<u8>| reply.write(out, id, members());
                request.sink.send_written(request.reply_kind(), write);
            }
            (ReplyTo::Sink, Reply::Encoded(_)) => {
                request
                    .sink
                    .send(request.reply_kind(), reply.into_bytes(id, ""));
            }
            (ReplyTo::Batch(batch), _) => batch.push(reply.into_bytes(id, members())),
        }
    }

    /// A message that is not valid, besides its error reply: a malformed response fails the
    /// server's request it answers now, rather than when that request's wait times out. The
    /// id the error reply carries: a malformed response's id is the server's own request's,
    /// which the client would match to a request of its own with that number, so its error
    /// carries none.
    fn on_invalid(
        &self,
        id: Option<RequestId>,
        error: &RpcError,
        as_response: bool,
    ) -> Option<RequestId> {
        if !as_response {
            return id;
        }
        if let Some(id) = id {
            self.client_requests.answer_malformed(&id, &error.message);
        }
        None
    }

    fn on_notification(self: &Arc<Self>, method: &str, params: Option<ParamsText>) {
        if method == "notifications/cancelled" {
            self.on_cancelled(params.as_ref().map(ParamsText::get));
        }
        // `notifications/initialized` and unknown notifications need no action; none is
        // ever answered.
    }

    fn on_cancelled(&self, params: Option<&str>) {
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Cancelled<'a> {
            #[serde(borrow)]
            request_id: &'a RawValue,
        }
        let Some(cancelled) = params.and_then(|p| serde_json::from_str::<Cancelled<'_>>(p).ok())
        else {
            return;
        };
        let Some(id) = RequestId::from_json(cancelled.request_id.get()) else {
            return;
        };
        // A cancel for an unknown or finished request is ignored, as the spec asks.
        if let Some(request) = self.inflight.lock().expect("lock poisoned").remove(&id) {
            request.cancel();
        }
    }

    /// Whether a batch is taken now: only once `initialize` negotiated a revision that allows
    /// them.
    pub(crate) fn takes_batches(&self) -> bool {
        self.negotiated()
            .is_some_and(|n| n.revision.allows_batches())
    }

    fn on_batch(self: &Arc<Self>, items: Vec<Incoming>, sink: &Outbound) {
        if !self.takes_batches() {
            let revision = self.negotiated().map(|n| n.revision);
            let why = match revision {
                Some(revision) => format!("protocol revision {revision} does not allow them"),
                None => "they are only allowed after `initialize` negotiated revision 2025-03-26"
                    .to_owned(),
            };
            let error = RpcError::invalid_request(format!(
                "JSON-RPC batches (arrays of messages) are not supported here: {why}; send one message at a time"
            ));
            sink.send(Outgoing::Reply(None), self.error_message(None, &error));
            return;
        }
        // A batch is handled at once: it may hold no more than a session runs at once, which
        // also bounds the replies gathered for it.
        let max = self.server.max_requests_in_flight;
        if items.len() > max {
            let error = RpcError::invalid_request(format!(
                "the batch holds {} messages, over the server's limit of {max} requests at once (ServerBuilder::max_requests_in_flight): send smaller batches",
                items.len()
            ));
            sink.send(Outgoing::Reply(None), self.error_message(None, &error));
            return;
        }
        let batch = Arc::new(BatchReply {
            outbound: sink.clone(),
            replies: Mutex::new(Vec::new()),
        });
        for item in items {
            match item {
                Incoming::Request(request)
                    if params::claim(request.params.as_ref().map(ParamsText::get)).is_some() =>
                {
                    // Served as a session's request, it would lose its revision.
                    batch.push(encode_error(
                        Some(&request.id),
                        &RpcError::invalid_request(
                            "a request of revision 2026-07-28 (its `_meta` names the revision) cannot be in a batch: send it on its own",
                        ),
                    ));
                }
                Incoming::Request(request) => {
                    // Batches exist only in 2025-03-26: their requests are served in the session.
                    let reply_to = (batch.outbound.clone(), ReplyTo::Batch(Arc::clone(&batch)));
                    self.start_request(request, reply_to, None, None);
                }
                Incoming::Notification { method, params } => self.on_notification(&method, params),
                Incoming::Response(response) => self.client_requests.answer(response),
                Incoming::Batch(_) => batch.push(encode_error(
                    None,
                    &RpcError::invalid_request("batches cannot be nested"),
                )),
                Incoming::Invalid {
                    id,
                    error,
                    as_response,
                } => {
                    let id = self.on_invalid(id, &error, as_response);
                    batch.push(encode_error(id.as_ref(), &error));
                }
            }
        }
    }

    /// Sends an error reply. Without an id (the request could not be read), the form depends
    /// on the revision: 2025-11-25 leaves `id` out, earlier revisions follow JSON-RPC 2.0's
    /// `"id": null`.
    pub(crate) fn send_error(&self, id: Option<&RequestId>, error: &RpcError) {
        self.outbound
            .send(Outgoing::Reply(id.cloned()), self.error_message(id, error));
    }

    fn error_message(&self, id: Option<&RequestId>, error: &RpcError) -> Vec<u8> {
        let omit_id = id.is_none()
            && self
                .negotiated()
                .is_none_or(|n| n.revision.omits_unknown_error_ids());
        if omit_id {
            encode_error_without_id(error)
        } else {
            encode_error(id, error)
        }
    }

    /// Sends a notification to the client.
    pub(crate) fn notify(&self, method: &str, params: &impl Serialize) {
        self.outbound.send(
            Outgoing::Notification { related: None },
            encode_notification(method, params),
        );
    }
}

/// What a request's context reaches of its session.
impl SessionLink for Session {
    /// The session's own channel: for messages no request is waiting on (list changes,
    /// resource updates, logs after a reply).
    fn outbound(&self) -> &Outbound {
        &self.outbound
    }

    fn log_level(&self) -> LoggingLevel {
        LoggingLevel::from_index(self.log_level.load(Ordering::Relaxed))
    }

    fn client_requests(&self) -> &ClientRequests {
        &self.client_requests
    }

    fn state(&self) -> &StateMap {
        &self.server.state
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(number) = self.listed_as {
            self.server.sessions.remove(number);
        }
    }
}

/// The task of `request` when it was not answered at once: its handling, then its reply.
///
/// Built and boxed in a function of its own: the future (1,240 bytes, as it holds the largest
/// method's) is made on the stack before it moves into its box, and made in `start_request` it
/// made that frame 1.2 KB larger, under which every request is handled (a call answered at
/// once too, on the runtime's thread or the one that reads stdin). Here, that stack is given
/// back before the task's first poll.
#[inline(never)]
fn request_task(
    session: Arc<Session>,
    request: IncomingRequest,
    layout: Option<ParamsLayout>,
    task_state: Arc<RequestState>,
    reply_to: ReplyTo,
    guard: RunningGuard,
) -> BoxFuture<()> {
    // A `dyn Future`, as every task the crate spawns: Tokio's task code (several kilobytes
    // for each type of future) is then in the binary once.
    Box::pin(async move {
        let _guard = guard;
        // Pinned in place: the task itself is already one allocation (this box).
        let handling = CatchUnwind(std::pin::pin!(super::methods::route(
            &session,
            request,
            layout,
            Arc::clone(&task_state),
        )));
        #[cfg(feature = "tracing")]
        let handling = std::pin::pin!(crate::log_bridge::CURRENT.scope(
            crate::log_bridge::LogTarget {
                session: Arc::<Session>::clone(&session),
                state: Arc::clone(&task_state),
            },
            handling,
        ));
        let outcome = UntilCancelled::new(handling, &task_state).await;
        let outcome = outcome.map(|outcome| outcome.map(Reply::Encoded));
        session.conclude(&task_state, &reply_to, outcome);
    })
}

/// Runs `task` on the calling thread until it first waits, then as a task of its own.
///
/// Most requests finish without waiting (a synchronous tool, `tools/list`, `ping`): they are
/// answered right here, with no task to schedule and no other thread to wake, and a transport
/// that reads and writes on this thread sends their replies with the next write. A handler
/// that waits (on I/O, a timer, the client) goes on as a task of its own, and the messages
/// after it are read at once. The waker of this first poll does nothing: the task's own first
/// poll, which the runtime does as soon as it is spawned, registers the real one. If it
/// waits, `on_wait` runs before it is spawned.
fn start_here(mut task: BoxFuture<()>, on_wait: impl FnOnce()) {
    let mut first = std::task::Context::from_waker(std::task::Waker::noop());
    if task.as_mut().poll(&mut first).is_pending() {
        on_wait();
        drop(tokio::spawn(task));
    }
}

/// Counts a request as running from the moment it is accepted until its task ends, however it
/// ends (finished, panicked, or aborted by a cancel).
struct RunningGuard {
    session: Arc<Session>,
    /// The bytes of params it counts in the server's.
    bytes: usize,
}

/// Which limit of requests in flight a request met.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum InFlightLimit {
    /// [`ServerBuilder::max_requests_in_flight`](crate::ServerBuilder::max_requests_in_flight).
    Session,
    /// [`ServerBuilder::max_requests_in_flight_total`](crate::ServerBuilder::max_requests_in_flight_total).
    Server,
    /// [`ServerBuilder::max_request_bytes_in_flight`](crate::ServerBuilder::max_request_bytes_in_flight).
    Bytes,
}

impl RunningGuard {
    /// Counts one more request running on `session` and on its server, holding `bytes` of
    /// params, unless either has its limit in flight already (for the bytes: unless others
    /// hold some, so that a request larger than the limit runs alone).
    fn admit(session: &Arc<Session>, bytes: usize) -> Result<RunningGuard, InFlightLimit> {
        let server = &session.server;
        let running = session.running.fetch_add(1, Ordering::AcqRel);
        let in_all = server.requests_in_flight.fetch_add(1, Ordering::AcqRel);
        let held = server
            .request_bytes_in_flight
            .fetch_add(bytes, Ordering::AcqRel);
        // Dropped at once if refused, which takes every count back.
        let guard = RunningGuard {
            session: Arc::clone(session),
            bytes,
        };
        if running >= server.max_requests_in_flight {
            return Err(InFlightLimit::Session);
        }
        if in_all >= server.max_requests_in_flight_total {
            return Err(InFlightLimit::Server);
        }
        if held > 0 && held.saturating_add(bytes) > server.max_request_bytes_in_flight {
            return Err(InFlightLimit::Bytes);
        }
        Ok(guard)
    }
}

impl Drop for RunningGuard {
    fn drop(&mut self) {
        let session = &self.session;
        let server = &session.server;
        server.requests_in_flight.fetch_sub(1, Ordering::AcqRel);
        server
            .request_bytes_in_flight
            .fetch_sub(self.bytes, Ordering::AcqRel);
        if session.running.fetch_sub(1, Ordering::SeqCst) == 1
            && session.idle_awaited.load(Ordering::SeqCst)
        {
            session.idle.notify_waiters();
        }
    }
}

/// A batch's replies, sent as one array when the last request of the batch lets go of it
/// (each request task holds a reference until it has replied or been cancelled).
impl Drop for BatchReply {
    fn drop(&mut self) {
        let replies = std::mem::take(self.replies.get_mut().expect("lock poisoned"));
        if replies.is_empty() {
            return;
        }
        let mut message = Vec::from(&b"["[..]);
        message.extend_from_slice(&replies.join(&b","[..]));
        message.push(b']');
        self.outbound.send(Outgoing::Reply(None), message);
    }
}

impl BatchReply {
    fn push(&self, reply: Vec<u8>) {
        self.replies.lock().expect("lock poisoned").push(reply);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::context::Context;
    use crate::protocol::{CallToolResult, ToolDefinition};
    use crate::tool::{Arguments, InputSchema, Tool};
    use crate::{Implementation, Server};

    /// Reports progress up to its `upto`, at once, keeping nothing of its context.
    struct Steps;

    impl Tool for Steps {
        const NAME: &'static str = "steps";

        fn definition(schema: &mut InputSchema) -> ToolDefinition {
            schema.add::<u32>("upto", None);
            ToolDefinition {
                name: "steps".into(),
                title: None,
                description: None,
                input_schema: schema.finish(),
                output_schema: None,
                annotations: Default::default(),
            }
        }

        async fn call(ctx: Context, args: Arguments) -> CallToolResult {
            step(ctx, args)
        }

        const CALL_AT_ONCE: Option<fn(Context, Arguments) -> CallToolResult> = Some(step);
    }

    fn step(ctx: Context, mut args: Arguments) -> CallToolResult {
        let upto: u32 = args.decode("upto").expect("an `upto`");
        for step in 1..=upto {
            ctx.report_progress(f64::from(step), None, None);
        }
        CallToolResult::text("done")
    }

    /// "The progress token MUST be a string or integer value" and notifications "MUST
    /// reference the token provided in the original request" (2025-11-25, basic/utilities/
    /// progress): the token comes back as the client wrote it, also where serde_json would read
    /// it as a float (beyond 64 bits, `-0`), escapes and all.
    #[tokio::test]
    async fn progress_notifications_repeat_the_token_as_written() {
        let server = Server::builder(Implementation::new("t", "0"))
            .tool::<Steps>()
            .build()
            .unwrap();
        let sent = Arc::new(Mutex::new(Vec::<String>::new()));
        let into = Arc::clone(&sent);
        let outbound = Outbound::new(false, move |_, message| {
            into.lock()
                .unwrap()
                .push(String::from_utf8(message).unwrap());
        });
        let session = Session::new_in_order(Arc::clone(&server.core), outbound);
        let tokens = [
            "18446744073709551617",
            "-0",
            "-12345678901234567890123",
            "1.5",
            r#""t\u0041""#,
        ];
        for (id, token) in tokens.into_iter().enumerate() {
            let call = format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"steps","arguments":{{"upto":1}},"_meta":{{"progressToken":{token}}}}}}}"#
            );
            session.receive(call.as_bytes());
            let messages = std::mem::take(&mut *sent.lock().unwrap());
            assert!(
                messages[0].contains("notifications/progress")
                    && messages[0].contains(&format!(r#""progressToken":{token},"#)),
                "{token}: {messages:?}"
            );
        }
        // Not a token: no progress, and the call still answers.
        for token in ["true", "null", "{}", &format!("\"{}\"", "t".repeat(1023))] {
            let call = format!(
                r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{{"name":"steps","arguments":{{"upto":1}},"_meta":{{"progressToken":{token}}}}}}}"#
            );
            session.receive(call.as_bytes());
            let messages = std::mem::take(&mut *sent.lock().unwrap());
            assert!(
                messages.len() == 1 && messages[0].contains(r#""result""#),
                "{token}: {messages:?}"
            );
        }
    }

    /// A request that ends removes its own entry of the requests in flight only. A client
    /// that cancels a request and sends another with its id (a reuse the revisions forbid)
    /// before the first has ended: the second keeps its place, so it is answered and can be
    /// cancelled, and the first, cancelled, gets no reply.
    #[tokio::test]
    async fn a_request_that_ends_removes_its_own_entry_only() {
        let server = Server::builder(Implementation::new("t", "0"))
            .build()
            .unwrap();
        let session = Session::new(Arc::clone(&server.core), Outbound::discard());
        let id = RequestId::from_number(7);
        let cancelled = session.request_state(id.clone(), Outbound::discard(), None);
        cancelled.mark_registered();
        let again = Arc::new(session.request_state(id.clone(), Outbound::discard(), None));
        again.mark_registered();
        let inflight = || session.inflight.lock().unwrap().len();
        session
            .inflight
            .lock()
            .unwrap()
            .insert(id.clone(), Arc::clone(&again));
        assert!(!session.finish(&id, &cancelled), "no reply is due");
        assert_eq!(inflight(), 1, "the second request is still in flight");
        assert!(session.finish(&id, &again), "the second is answered");
        assert_eq!(inflight(), 0);
    }

    /// In an in-order session the second request's state takes the place of the first's:
    /// its progress starts from nothing again, under its own token.
    #[tokio::test]
    async fn a_request_answered_at_once_in_order_starts_afresh_after_another() {
        let server = Server::builder(Implementation::new("t", "0"))
            .tool::<Steps>()
            .build()
            .unwrap();
        let sent = Arc::new(Mutex::new(Vec::<Value>::new()));
        let into = Arc::clone(&sent);
        let outbound = Outbound::new(false, move |_, message| {
            let message = serde_json::from_slice(&message).unwrap();
            into.lock().unwrap().push(message);
        });
        let session = Session::new_in_order(Arc::clone(&server.core), outbound);
        for (id, upto, token) in [(1, 3, "first"), (2, 1, "second")] {
            let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": "steps", "arguments": {"upto": upto}, "_meta": {"progressToken": token}}});
            session.receive(call.to_string().as_bytes());
            let messages = std::mem::take(&mut *sent.lock().unwrap());
            let expected: Vec<Value> = (1..=upto)
                .map(|step| json!({"progressToken": token, "progress": f64::from(step)}))
                .chain([json!({"content": [{"type": "text", "text": "done"}]})])
                .collect();
            let got: Vec<Value> = messages
                .iter()
                .map(|m| m.get("params").or(m.get("result")).cloned().unwrap())
                .collect();
            assert_eq!(got, expected, "{messages:?}");
        }
        assert!(
            session.spare_state.lock().unwrap().is_some(),
            "no spare kept"
        );
    }
}
