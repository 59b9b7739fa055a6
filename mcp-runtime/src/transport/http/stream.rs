//! SSE streams with event ids: what was sent on each stream is kept for a while, so a client
//! that lost a stream can resume it (GET with `Last-Event-ID`) without losing messages.
//!
//! What waits for a stream's reader is bounded ([`StreamLimits::queue`]): a reader that falls
//! further behind is disconnected (its response ends once it has read what waits) and resumes
//! from the events kept, so a client that never reads costs a bounded queue, not memory
//! without end. A stream nothing can resume (a stateless request's) keeps room for its reply
//! instead: its reader misses the notifications past the queue, never the reply.
//!
//! What is kept for a resume is bounded in events and in bytes ([`StreamLimits::replay_events`],
//! [`StreamLimits::replay_bytes`]), and the session's standalone stream keeps nothing until a
//! client has opened it: a session that never opened a stream has nothing to resume, so
//! nothing is held for it. A resume from before the oldest event kept is refused
//! ([`Resume::Gone`]) rather than silently skipping what was dropped, and a resume of a
//! finished stream that has nothing left to send ends at once.
//!
//! A stream that waits on the client (a GET stream, a listen stream) ends with a `retry` hint
//! when the server drains (`drain.rs`).
//!
//! With a store shared by several instances (`shared_events.rs`), a hub copies each event it
//! keeps there, with the oldest it still keeps, and its event ids carry the session's tag
//! (`TAG.STREAM-SEQ`); without one, ids are `STREAM-SEQ` and nothing is copied.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Bytes;
use futures_util::Stream;
use tokio::sync::mpsc;

use super::drain::Drain;
use super::shared_events::{Mirror, StoredEvent};
use crate::limit_log::LimitLog;

/// The places a stream nothing can resume keeps free in its reader's queue, past
/// [`StreamLimits::queue`] notifications: one for its reply, one for a close.
const UNRESUMABLE_RESERVE: usize = 2;

/// What one SSE stream holds.
#[derive(Clone, Copy, Debug)]
pub(super) struct StreamLimits {
    /// Events kept for a client that resumes the stream.
    pub(super) replay_events: usize,
    /// Bytes of events kept for a client that resumes the stream.
    pub(super) replay_bytes: usize,
    /// Events waiting for the subscriber; a subscriber further behind is disconnected (from a
    /// stream nothing can resume, notifications are dropped instead).
    pub(super) queue: usize,
}

/// What a stream's subscriber receives.
pub(super) enum Frame {
    /// A message, with its event id; `last`: the reply that ends the stream.
    Event {
        id: String,
        data: Arc<[u8]>,
        last: bool,
    },
    /// The server ends the stream here (the client should reconnect to get the rest).
    Close,
}

/// One SSE stream's events: a request's stream, or the session's standalone stream.
pub(super) struct Hub {
    pub(super) stream: u64,
    /// Whether this is a request's stream, which its reply ends (else the standalone one).
    for_request: bool,
    /// Whether a client can resume it (a session's streams): else nothing is kept for a resume.
    resumable: bool,
    /// Where what is kept for a resume is copied for the other instances, if anywhere.
    mirror: Option<Mirror>,
    inner: Mutex<HubInner>,
}

struct HubInner {
    events: VecDeque<(u64, Arc<[u8]>, bool)>,
    /// The bytes of `events`' messages.
    kept_bytes: usize,
    /// The last event dropped from `events` (0: none): a resume from before it lost events.
    dropped_through: u64,
    /// Whether events are kept for a resume: from a request stream's start, from the
    /// standalone stream's first subscriber.
    keeping: bool,
    next_seq: u64,
    max_events: usize,
    max_bytes: usize,
    queue: usize,
    subscriber: Option<mpsc::Sender<Frame>>,
    /// The last event handed to a live subscriber.
    delivered: u64,
    finished: bool,
    /// Called when the subscriber goes away before the reply: the request may be cancelled.
    on_abandoned: Option<Box<dyn Fn() + Send + Sync>>,
    /// Called once when the stream finishes (its reply, or the request ended without one).
    on_finished: Option<Box<dyn FnOnce() + Send + Sync>>,
}

impl Hub {
    /// The session's standalone stream (GET without `Last-Event-ID`), stream 0.
    pub(super) fn standalone(limits: StreamLimits, mirror: Option<Mirror>) -> Arc<Hub> {
        Hub::new(0, false, true, limits, mirror)
    }

    /// The stream `stream` answering one request of a session.
    pub(super) fn for_request(
        stream: u64,
        limits: StreamLimits,
        mirror: Option<Mirror>,
    ) -> Arc<Hub> {
        Hub::new(stream, true, true, limits, mirror)
    }

    /// The stream answering a request no session holds (stateless): nothing can resume it, so
    /// no event is kept for a resume; events go to its reader only.
    pub(super) fn unresumable(limits: StreamLimits) -> Arc<Hub> {
        Hub::new(1, true, false, limits, None)
    }

    fn new(
        stream: u64,
        for_request: bool,
        resumable: bool,
        limits: StreamLimits,
        mirror: Option<Mirror>,
    ) -> Arc<Hub> {
        Arc::new(Hub {
            stream,
            for_request,
            resumable,
            mirror,
            inner: Mutex::new(HubInner {
                events: VecDeque::new(),
                kept_bytes: 0,
                dropped_through: 0,
                keeping: for_request && resumable,
                next_seq: 1,
                max_events: limits.replay_events.max(1),
                max_bytes: limits.replay_bytes,
                queue: limits.queue.max(1),
                subscriber: None,
                delivered: 0,
                finished: false,
                on_abandoned: None,
                on_finished: None,
            }),
        })
    }

    pub(super) fn set_on_abandoned(&self, f: impl Fn() + Send + Sync + 'static) {
        self.inner.lock().expect("lock poisoned").on_abandoned = Some(Box::new(f));
    }

    /// Calls `f` once the stream finishes, after its lock is released (`f` may take others).
    pub(super) fn set_on_finished(&self, f: impl FnOnce() + Send + Sync + 'static) {
        self.inner.lock().expect("lock poisoned").on_finished = Some(Box::new(f));
    }

    /// Records a message and hands it to the subscriber, if any. `reply`: the message is the
    /// reply that ends a request's stream.
    pub(super) fn push(&self, message: Vec<u8>, reply: bool) {
        if let Some(finished) = self.record(message, reply) {
            finished();
        }
    }

    /// [`push`](Self::push) under the lock: what to call once it is released, when the
    /// message finished the stream.
    fn record(&self, message: Vec<u8>, reply: bool) -> Option<Box<dyn FnOnce() + Send + Sync>> {
        let last = reply && self.for_request;
        let data: Arc<[u8]> = message.into();
        let mut inner = self.inner.lock().expect("lock poisoned");
        let seq = inner.next_seq;
        inner.next_seq += 1;
        if inner.keeping {
            inner.kept_bytes += data.len();
            inner.events.push_back((seq, Arc::clone(&data), last));
            // The last event (a request's reply) is kept whatever its size: a resume must be
            // able to end the stream.
            while inner.events.len() > inner.max_events
                || inner.kept_bytes > inner.max_bytes && inner.events.len() > 1
            {
                let Some((dropped, data, _)) = inner.events.pop_front() else {
                    break;
                };
                inner.kept_bytes -= data.len();
                inner.dropped_through = dropped;
            }
            if let Some(mirror) = &self.mirror {
                // Under the lock: the store receives the events in their order.
                let event = StoredEvent {
                    seq,
                    data: Arc::clone(&data),
                    last,
                };
                mirror.append(self.stream, event, inner.dropped_through + 1);
            }
        } else {
            inner.dropped_through = seq;
        }
        let on_finished = if last && !std::mem::replace(&mut inner.finished, true) {
            inner.on_finished.take()
        } else {
            None
        };
        let id = self.event_id(seq);
        let Some(subscriber) = &inner.subscriber else {
            return on_finished;
        };
        if !self.resumable && !last && subscriber.capacity() <= UNRESUMABLE_RESERVE {
            // Nothing can resume this stream: its reader misses notifications, not the reply.
            drop(inner);
            static LOG: LimitLog = LimitLog::new();
            LOG.hit(|| {
                "the reader of a stream no client can resume (a stateless request's) is as many events behind as HttpOptions::stream_queue allows: notifications to it are dropped until it catches up; its reply is not".to_owned()
            });
            return on_finished;
        }
        match subscriber.try_send(Frame::Event { id, data, last }) {
            Ok(()) => inner.delivered = seq,
            Err(mpsc::error::TrySendError::Full(_)) => {
                // A slow reader: its stream ends once it has read what waits, and it resumes
                // from the events kept.
                inner.subscriber = None;
                let queue = inner.queue;
                drop(inner);
                static LOG: LimitLog = LimitLog::new();
                LOG.hit(|| {
                    format!(
                        "the reader of SSE stream {} fell {queue} events behind (HttpOptions::stream_queue): its stream is ended, to be resumed with Last-Event-ID",
                        self.stream
                    )
                });
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {}
        }
        on_finished
    }

    fn event_id(&self, seq: u64) -> String {
        match &self.mirror {
            Some(mirror) => mirror.event_id(self.stream, seq),
            None => format!("{}-{seq}", self.stream),
        }
    }

    /// The id of a priming event: before every real event of the stream.
    pub(super) fn priming_id(&self) -> String {
        self.event_id(0)
    }

    /// Becomes the stream's subscriber (replacing any other), receiving what it kept and then
    /// the live events: a request's stream replays all it kept, the standalone stream what no
    /// subscriber has received yet.
    pub(super) fn subscribe(self: &Arc<Self>) -> Subscription {
        let inner = self.inner.lock().expect("lock poisoned");
        self.attach(inner, None)
    }

    /// Becomes the stream's subscriber from the event after `after`, unless events after it are
    /// no longer kept: the client would miss them without knowing it.
    pub(super) fn resume(self: &Arc<Self>, after: u64) -> Resume {
        let inner = self.inner.lock().expect("lock poisoned");
        if after < inner.dropped_through {
            return Resume::Gone {
                missed: inner.dropped_through - after,
            };
        }
        Resume::Subscribed(self.attach(inner, Some(after)))
    }

    fn attach(
        self: &Arc<Self>,
        mut inner: std::sync::MutexGuard<'_, HubInner>,
        after: Option<u64>,
    ) -> Subscription {
        inner.keeping = self.resumable;
        // Room for the replay and a close, besides the queue; on a stream nothing can resume,
        // for its reply too.
        // (At most what the channel can count: `stream_queue(usize::MAX)` is "no limit".)
        let reserve = if self.resumable {
            1
        } else {
            UNRESUMABLE_RESERVE
        };
        let room = inner
            .queue
            .saturating_add(inner.events.len() + reserve)
            .min(tokio::sync::Semaphore::MAX_PERMITS);
        let (sender, receiver) = mpsc::channel(room);
        let after = after.or((!self.for_request).then_some(inner.delivered));
        if let Some((last, _, _)) = inner.events.back() {
            inner.delivered = inner.delivered.max(*last);
        }
        for (seq, data, last) in &inner.events {
            if after.is_none_or(|after| *seq > after) {
                let _ = sender.try_send(Frame::Event {
                    id: self.event_id(*seq),
                    data: Arc::clone(data),
                    last: *last,
                });
            }
        }
        // A finished stream whose reply the client has seen has nothing more to send.
        let nothing_left = inner.finished && after.is_some_and(|after| after >= inner.next_seq - 1);
        if nothing_left {
            let _ = sender.try_send(Frame::Close);
        }
        if let Some(old) = inner.subscriber.replace(sender) {
            // When its queue is full, dropping it ends the stream as well.
            let _ = old.try_send(Frame::Close);
        }
        Subscription {
            hub: Arc::downgrade(self),
            receiver,
        }
    }

    /// Ends the current subscriber's stream; the events go on being kept for a resume.
    pub(super) fn close_subscriber(&self) {
        if let Some(subscriber) = self.inner.lock().expect("lock poisoned").subscriber.take() {
            let _ = subscriber.try_send(Frame::Close);
        }
    }

    /// The request ended without a reply (it was cancelled): its stream ends here, and a
    /// resume finds nothing more to wait for. Nothing changes for a stream its reply ended.
    pub(super) fn end_without_reply(&self) {
        let mut inner = self.inner.lock().expect("lock poisoned");
        if inner.finished {
            return;
        }
        inner.finished = true;
        if let Some(subscriber) = inner.subscriber.take() {
            let _ = subscriber.try_send(Frame::Close);
        }
        let on_finished = inner.on_finished.take();
        drop(inner);
        if let Some(finished) = on_finished {
            finished();
        }
    }

    pub(super) fn is_finished(&self) -> bool {
        self.inner.lock().expect("lock poisoned").finished
    }

    pub(super) fn has_subscriber(&self) -> bool {
        self.inner
            .lock()
            .expect("lock poisoned")
            .subscriber
            .as_ref()
            .is_some_and(|s| !s.is_closed())
    }

    fn abandoned(&self) {
        let inner = self.inner.lock().expect("lock poisoned");
        if inner.finished || inner.subscriber.as_ref().is_some_and(|s| !s.is_closed()) {
            return;
        }
        if let Some(f) = &inner.on_abandoned {
            f();
        }
    }
}

/// The outcome of a resume.
pub(super) enum Resume {
    /// The replay and the live events follow.
    Subscribed(Subscription),
    /// Events after the client's last one are no longer kept: `missed` at least.
    Gone { missed: u64 },
}

/// A subscriber's end of a hub.
pub(super) struct Subscription {
    hub: Weak<Hub>,
    pub(super) receiver: mpsc::Receiver<Frame>,
}

impl Subscription {
    /// Events that no hub of this instance holds (a replay from the shared store), then the
    /// end.
    pub(super) fn replayed(events: Vec<Frame>) -> Subscription {
        let (sender, receiver) = mpsc::channel(events.len() + 1);
        for event in events {
            let _ = sender.try_send(event);
        }
        let _ = sender.try_send(Frame::Close);
        Subscription {
            hub: Weak::new(),
            receiver,
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        // The client went away (or was replaced): tell the hub, which may cancel its request.
        self.receiver.close();
        if let Some(hub) = self.hub.upgrade()
            && !hub.has_subscriber()
        {
            hub.abandoned();
        }
    }
}

/// One of a limited number of open streams, given back when dropped (with the response that
/// carries it).
pub(super) struct StreamSlot(Arc<AtomicUsize>);

impl StreamSlot {
    /// A slot counted in `open`, unless `max` are taken.
    pub(super) fn take(open: &Arc<AtomicUsize>, max: usize) -> Option<StreamSlot> {
        open.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
            (n < max).then_some(n + 1)
        })
        .ok()?;
        Some(StreamSlot(Arc::clone(open)))
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Parses a `Last-Event-ID` into the stream and sequence number it names.
pub(super) fn parse_event_id(id: &str) -> Option<(u64, u64)> {
    let (stream, seq) = id.split_once('-')?;
    Some((stream.parse().ok()?, seq.parse().ok()?))
}

/// One SSE event; without `id` when the stream cannot be resumed.
fn event(id: Option<&str>, data: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(data.len() + id.map_or(0, str::len) + 16);
    if let Some(id) = id {
        out.extend_from_slice(b"id: ");
        out.extend_from_slice(id.as_bytes());
        out.push(b'\n');
    }
    out.extend_from_slice(b"data: ");
    out.extend_from_slice(data);
    out.extend_from_slice(b"\n\n");
    Bytes::from(out)
}

/// An SSE field alone asking the client to reconnect after `retry`.
fn retry_hint(retry: Duration) -> Bytes {
    Bytes::from(format!("retry: {}\n\n", retry.as_millis()))
}

/// The response body of an SSE stream: an optional priming event, then the subscription's
/// events, with keep-alive comments while nothing happens, until the hub's last event, or
/// until no event came for the idle limit (keep-alive comments do not count), when there is
/// one: the client resumes with `Last-Event-ID`.
pub(super) struct SseBody {
    pending: VecDeque<Bytes>,
    subscription: Subscription,
    keepalive: tokio::time::Interval,
    idle: Option<(Duration, Pin<Box<tokio::time::Sleep>>)>,
    /// The place among the session's open streams this one holds.
    _slot: Option<StreamSlot>,
    /// Events carry no ids: nothing can resume the stream (revision 2026-07-28).
    anonymous: bool,
    /// Ends the stream with a `retry` hint when the server drains.
    drain: Option<(Duration, DrainStarted)>,
    /// What goes before that hint (`SseLimits::farewell`).
    farewell: Option<Vec<u8>>,
    /// The `retry` hint to end with when the subscription ends before a last event.
    retry_at_end: Option<Duration>,
    ended: bool,
}

/// Completes when the server starts draining.
type DrainStarted = Pin<Box<dyn Future<Output = ()> + Send>>;

/// How an SSE response is limited: its idle limit and its place among a session's streams.
#[derive(Default)]
pub(super) struct SseLimits {
    pub(super) idle: Option<Duration>,
    pub(super) slot: Option<StreamSlot>,
    /// Whether events go without ids, for a stream no one can resume (revision 2026-07-28:
    /// "no resumability").
    pub(super) anonymous: bool,
    /// For a stream that waits on the client rather than on a reply (a GET stream, a listen
    /// stream): when the server drains, it ends with this `retry` delay as its last field.
    pub(super) drain: Option<(Duration, Arc<Drain>)>,
    /// The message a drained stream sends before its `retry` hint: a listen stream's closing
    /// result (basic/patterns/subscriptions "Graceful Closure").
    pub(super) farewell: Option<Vec<u8>>,
    /// For a stream that ends before its last event with the client expected to come back
    /// (a replay from the shared store): the `retry` delay it ends with.
    pub(super) retry_at_end: Option<Duration>,
}

impl SseBody {
    pub(super) fn new(
        subscription: Subscription,
        priming: Option<(String, Duration)>,
        keepalive: Duration,
        limits: SseLimits,
    ) -> SseBody {
        let mut pending = VecDeque::new();
        if let Some((id, retry)) = priming {
            pending.push_back(Bytes::from(format!(
                "id: {id}\nretry: {}\ndata: \n\n",
                retry.as_millis()
            )));
        }
        let mut keepalive = tokio::time::interval(keepalive);
        keepalive.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        keepalive.reset();
        let idle = limits
            .idle
            .map(|idle| (idle, Box::pin(tokio::time::sleep(idle))));
        SseBody {
            pending,
            subscription,
            keepalive,
            idle,
            _slot: limits.slot,
            anonymous: limits.anonymous,
            drain: limits.drain.map(|(retry, drain)| {
                let started: DrainStarted = Box::pin(async move { drain.started().await });
                (retry, started)
            }),
            farewell: limits.farewell,
            retry_at_end: limits.retry_at_end,
            ended: false,
        }
    }
}

impl Stream for SseBody {
    type Item = Result<Bytes, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if let Some(chunk) = self.pending.pop_front() {
            return Poll::Ready(Some(Ok(chunk)));
        }
        if self.ended {
            return Poll::Ready(None);
        }
        match self.subscription.receiver.poll_recv(cx) {
            Poll::Ready(Some(Frame::Event { id, data, last })) => {
                self.ended = last;
                self.keepalive.reset();
                if let Some((idle, sleep)) = &mut self.idle
                    && let Some(deadline) = tokio::time::Instant::now().checked_add(*idle)
                {
                    sleep.as_mut().reset(deadline);
                }
                let id = (!self.anonymous).then_some(id.as_str());
                return Poll::Ready(Some(Ok(event(id, &data))));
            }
            Poll::Ready(Some(Frame::Close) | None) => {
                self.ended = true;
                return Poll::Ready(self.retry_at_end.take().map(|retry| Ok(retry_hint(retry))));
            }
            Poll::Pending => {}
        }
        if let Some((idle, sleep)) = &mut self.idle
            && sleep.as_mut().poll(cx).is_ready()
        {
            static LOG: LimitLog = LimitLog::new();
            LOG.hit(|| {
                format!(
                    "an SSE stream carried no message for {} s (HttpOptions::stream_idle): it is ended, to be resumed with Last-Event-ID",
                    idle.as_secs_f64()
                )
            });
            self.ended = true;
            return Poll::Ready(None);
        }
        if let Some((retry, started)) = &mut self.drain
            && started.as_mut().poll(cx).is_ready()
        {
            let hint = retry_hint(*retry);
            self.ended = true;
            let last = match self.farewell.take() {
                Some(message) => [event(None, &message), hint].concat().into(),
                None => hint,
            };
            return Poll::Ready(Some(Ok(last)));
        }
        if self.keepalive.poll_tick(cx).is_ready() {
            return Poll::Ready(Some(Ok(Bytes::from_static(b": keep-alive\n\n"))));
        }
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(subscription: &mut Subscription) -> (Vec<String>, bool) {
        let mut ids = Vec::new();
        loop {
            match subscription.receiver.try_recv() {
                Ok(Frame::Event { id, .. }) => ids.push(id),
                Ok(Frame::Close) | Err(mpsc::error::TryRecvError::Disconnected) => {
                    return (ids, true);
                }
                Err(mpsc::error::TryRecvError::Empty) => return (ids, false),
            }
        }
    }

    #[test]
    fn a_reader_that_falls_a_queue_behind_is_disconnected_and_resumes_from_the_replay() {
        let limits = StreamLimits {
            replay_events: 100,
            replay_bytes: usize::MAX,
            queue: 4,
        };
        let hub = Hub::for_request(3, limits, None);
        let mut slow = hub.subscribe();
        for n in 0..10 {
            hub.push(format!("{n}").into_bytes(), false);
        }
        let (read, ended) = events(&mut slow);
        // The queue, and the room always kept for a close.
        assert_eq!(read, ["3-1", "3-2", "3-3", "3-4", "3-5"]);
        assert!(ended, "the slow reader's stream goes on");
        assert!(!hub.has_subscriber());
        let Resume::Subscribed(mut resumed) = hub.resume(5) else {
            panic!("the events after 5 are kept");
        };
        hub.push(b"reply".to_vec(), true);
        let (read, _) = events(&mut resumed);
        let expected: Vec<String> = (6..=11).map(|n| format!("3-{n}")).collect();
        assert_eq!(read, expected);
    }

    fn limits(replay_events: usize, replay_bytes: usize) -> StreamLimits {
        StreamLimits {
            replay_events,
            replay_bytes,
            queue: 16,
        }
    }

    #[test]
    fn what_is_kept_for_a_resume_is_bounded_in_bytes_and_a_resume_before_it_is_refused() {
        let hub = Hub::for_request(2, limits(1000, 250), None);
        for _ in 0..10 {
            hub.push(vec![b'x'; 100], false);
        }
        hub.push(vec![b'r'; 400], true);
        // The reply alone is over the bound, and kept: a resume must be able to end the stream.
        assert!(matches!(hub.resume(3), Resume::Gone { missed: 7 }));
        let Resume::Subscribed(mut resumed) = hub.resume(10) else {
            panic!("the reply is kept");
        };
        assert_eq!(events(&mut resumed).0, ["2-11"]);
        let inner = hub.inner.lock().unwrap();
        assert_eq!((inner.events.len(), inner.kept_bytes), (1, 400));
    }

    /// `HttpOptions::stream_queue(usize::MAX)` ("no limit") opens a reader, where sizing its
    /// channel overflowed (or asked Tokio for more than it counts, which panics).
    #[test]
    fn the_largest_queue_opens_a_reader() {
        let hub = Hub::unresumable(queue_of(usize::MAX));
        let mut reader = hub.subscribe();
        hub.push(b"reply".to_vec(), true);
        assert_eq!(events(&mut reader).0, ["1-1"]);
    }

    /// A queue of `queue` events and nothing kept for a resume.
    fn queue_of(queue: usize) -> StreamLimits {
        StreamLimits {
            replay_events: 0,
            replay_bytes: 0,
            queue,
        }
    }

    #[test]
    fn a_reader_a_queue_behind_on_a_stream_no_one_can_resume_misses_notifications_not_the_reply() {
        let hub = Hub::unresumable(queue_of(3));
        let mut reader = hub.subscribe();
        for _ in 0..10 {
            hub.push(b"progress".to_vec(), false);
        }
        hub.push(b"reply".to_vec(), true);
        let (ids, closed) = events(&mut reader);
        assert_eq!(ids, ["1-1", "1-2", "1-3", "1-11"]);
        assert!(!closed, "the stream goes on to its end");
        assert!(hub.has_subscriber());
        // A reader that catches up gets notifications again.
        let hub = Hub::unresumable(queue_of(2));
        let mut reader = hub.subscribe();
        for _ in 0..4 {
            hub.push(b"progress".to_vec(), false);
        }
        assert_eq!(events(&mut reader).0, ["1-1", "1-2"]);
        hub.push(b"progress".to_vec(), false);
        hub.push(b"reply".to_vec(), true);
        assert_eq!(events(&mut reader).0, ["1-5", "1-6"]);
    }

    #[test]
    fn a_stream_no_one_can_resume_keeps_nothing_for_a_resume() {
        let hub = Hub::unresumable(limits(1000, 1 << 20));
        let mut reader = hub.subscribe();
        for _ in 0..10 {
            hub.push(vec![b'x'; 100], false);
        }
        assert_eq!(events(&mut reader).0.len(), 10, "the reader has them all");
        hub.push(b"reply".to_vec(), true);
        assert_eq!(events(&mut reader).0, ["1-11"], "and the reply");
        let inner = hub.inner.lock().unwrap();
        assert_eq!((inner.events.len(), inner.kept_bytes), (0, 0));
    }

    #[test]
    fn the_standalone_stream_keeps_nothing_before_its_first_subscriber() {
        let hub = Hub::standalone(limits(1000, 1 << 20), None);
        hub.push(b"early".to_vec(), false);
        assert!(hub.inner.lock().unwrap().events.is_empty());
        assert!(matches!(hub.resume(0), Resume::Gone { missed: 1 }));
        let first = hub.subscribe();
        drop(first);
        hub.push(b"while away".to_vec(), false);
        let Resume::Subscribed(mut resumed) = hub.resume(1) else {
            panic!("kept once a client opened the stream");
        };
        assert_eq!(events(&mut resumed).0, ["0-2"]);
    }

    #[test]
    fn what_is_kept_is_copied_to_the_shared_store_and_trimmed_there_alike() {
        use super::super::shared_events::in_memory::InMemory;
        use super::super::shared_events::{SharedEvents, StoredEvent};

        let store = Arc::new(InMemory::default());
        let shared: Arc<dyn SharedEvents> = store.clone();
        let mirror = Mirror::new(&shared, "s1", None);
        let hub = Hub::for_request(5, limits(3, 1 << 20), Some(mirror.clone()));
        for n in 0..5u8 {
            hub.push(vec![n], n == 4);
        }
        let kept = store.streams.lock().unwrap()[&("s1".to_owned(), 5)].clone();
        let seqs: Vec<u64> = kept.iter().map(|event| event.seq).collect();
        assert_eq!(seqs, [3, 4, 5], "the hub's bound, in Redis too");
        assert_eq!(
            kept[2],
            StoredEvent {
                seq: 5,
                data: Arc::from(&[4u8][..]),
                last: true
            }
        );
        // The ids name the session's tag; a plain `STREAM-SEQ` is not one of its ids.
        let id = hub.priming_id();
        assert_eq!(mirror.parse_event_id(&id), Some((5, 0)));
        assert_eq!(mirror.parse_event_id("5-0"), None);
        // The standalone stream copies nothing before its first subscriber, as it keeps nothing.
        let standalone = Hub::standalone(limits(3, 1 << 20), Some(mirror));
        standalone.push(b"early".to_vec(), false);
        assert!(
            !store
                .streams
                .lock()
                .unwrap()
                .contains_key(&("s1".to_owned(), 0))
        );
    }

    #[tokio::test]
    async fn a_replay_from_the_store_ends_with_a_retry_hint_unless_its_reply_ended_it() {
        use futures_util::StreamExt as _;

        async fn body(last: bool, retry_at_end: Option<Duration>) -> String {
            let event = Frame::Event {
                id: "t.1-1".to_owned(),
                data: Arc::from(&b"{}"[..]),
                last,
            };
            let limits = SseLimits {
                retry_at_end,
                ..SseLimits::default()
            };
            let subscription = Subscription::replayed(vec![event]);
            let body = SseBody::new(subscription, None, Duration::from_secs(60), limits);
            let chunks: Vec<_> = body.collect().await;
            chunks
                .into_iter()
                .map(|chunk| String::from_utf8(chunk.unwrap().to_vec()).unwrap())
                .collect()
        }
        let hint = Some(Duration::from_millis(1500));
        assert_eq!(
            body(false, hint).await,
            "id: t.1-1\ndata: {}\n\nretry: 1500\n\n"
        );
        assert_eq!(body(true, hint).await, "id: t.1-1\ndata: {}\n\n");
        assert_eq!(body(false, None).await, "id: t.1-1\ndata: {}\n\n");
    }

    #[test]
    fn resuming_a_finished_stream_after_its_reply_ends_at_once() {
        let hub = Hub::for_request(4, limits(1000, 1 << 20), None);
        hub.push(b"progress".to_vec(), false);
        hub.push(b"reply".to_vec(), true);
        let Resume::Subscribed(mut resumed) = hub.resume(2) else {
            panic!("nothing was dropped");
        };
        assert_eq!(events(&mut resumed), (vec![], true));
    }
}
