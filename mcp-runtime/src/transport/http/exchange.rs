//! One POSTed message's answer, decided by the first thing its handler does. The reply alone
//! goes through a oneshot channel straight into an `application/json` response, and nothing
//! else is set up for it. Anything before the reply (progress, a log message, a request to the
//! client, closing the stream) makes the answer a stream, when the client takes one: the
//! endpoint attaches a [`Hub`], which receives what was sent meanwhile and then everything up to
//! the reply. A client that takes only JSON gets the reply alone; what comes before it is
//! dropped. A refusal the specification answers with 400 (say -32021, a question for a
//! capability the request did not declare) gets it when it comes first; after something else
//! the stream's 200 is already sent, and the refusal is its last event.

use std::mem;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

use super::stream::Hub;
use crate::jsonrpc::RequestId;
use crate::outbound::{Outbound, Outgoing};

/// How the answer goes on, once its first message (or close) is known.
pub(super) enum First {
    /// The reply came first: it is the whole answer; `refused`: the request was refused as
    /// the client's doing (answered with 400).
    Reply { message: Vec<u8>, refused: bool },
    /// Something else came first: the answer is a stream, which [`Exchange::attach`] feeds.
    Stream,
}

pub(super) struct Exchange {
    /// The id of the request; `None` for a batch or a message that is not a valid request.
    request: Option<RequestId>,
    /// Whether the client takes a stream (else only the reply is kept).
    streams: bool,
    state: Mutex<State>,
}

enum State {
    /// Nothing sent yet.
    Waiting(oneshot::Sender<First>),
    /// The answer is a stream, not attached yet: what is sent waits here. `closed_at`: the
    /// handler ended the stream after that many messages. `ended`: the request is over.
    Pending {
        messages: Vec<(Vec<u8>, bool)>,
        closed_at: Option<usize>,
        ended: bool,
    },
    /// The stream carries the rest.
    Streaming(Arc<Hub>),
    /// Nothing more is due: the reply went first, or the request is over and its stream, if
    /// any, is left to its other holders.
    Done,
}

impl Exchange {
    /// The exchange of the request `request`, and where its first message arrives; `streams`:
    /// whether the client takes a stream. The receiver fails if the request ends without
    /// sending anything (it was cancelled): when its sinks are all gone.
    pub(super) fn new(
        request: Option<RequestId>,
        streams: bool,
    ) -> (Arc<Exchange>, oneshot::Receiver<First>) {
        let (first, receiver) = oneshot::channel();
        let exchange = Arc::new(Exchange {
            request,
            streams,
            state: Mutex::new(State::Waiting(first)),
        });
        (exchange, receiver)
    }

    /// The id of the request, if the message was one.
    pub(super) fn request(&self) -> Option<&RequestId> {
        self.request.as_ref()
    }

    /// The sink the request's messages go to. With `closable` (a stream the client can
    /// resume), its handler may end the stream before the reply.
    pub(super) fn sink(self: &Arc<Self>, trace: bool, closable: bool) -> Outbound {
        let feed = Arc::new(Feed(Arc::clone(self)));
        let sending = Arc::clone(&feed);
        let sink = Outbound::new(trace, move |kind, message| {
            sending.0.deliver(&kind, message);
        });
        if !self.streams {
            // A client that takes only JSON gets the reply alone: a request to it would be
            // dropped, and its handler wait for an answer to a question never seen.
            return sink.without_requests();
        }
        if !closable {
            return sink;
        }
        sink.with_close(move || feed.0.close())
    }

    /// The stream that carries the rest of the answer, after [`First::Stream`]: what was sent
    /// since is pushed to it now.
    pub(super) fn attach(&self, hub: &Arc<Hub>) {
        let mut state = self.lock();
        match mem::replace(&mut *state, State::Done) {
            State::Pending {
                messages,
                closed_at,
                ended,
            } => {
                let count = messages.len();
                for (index, (message, reply)) in messages.into_iter().enumerate() {
                    if closed_at == Some(index) {
                        hub.close_subscriber();
                    }
                    hub.push(message, reply);
                }
                if closed_at == Some(count) {
                    hub.close_subscriber();
                }
                if ended {
                    hub.end_without_reply();
                } else {
                    *state = State::Streaming(Arc::clone(hub));
                }
            }
            other => *state = other,
        }
    }

    fn deliver(&self, kind: &Outgoing, message: Vec<u8>) {
        let reply = matches!(kind, Outgoing::Reply(_) | Outgoing::Refusal(_));
        let mut state = self.lock();
        match &mut *state {
            State::Waiting(_) if reply => {
                if let State::Waiting(first) = mem::replace(&mut *state, State::Done) {
                    drop(state);
                    let refused = matches!(kind, Outgoing::Refusal(_));
                    let _ = first.send(First::Reply { message, refused });
                }
            }
            // A client that takes only JSON gets the reply alone.
            State::Waiting(_) if !self.streams => {}
            State::Waiting(_) => self.start_stream(state, Some((message, reply)), None),
            State::Pending { messages, .. } => messages.push((message, reply)),
            State::Streaming(hub) => hub.push(message, reply),
            State::Done => {}
        }
    }

    fn close(&self) {
        let mut state = self.lock();
        match &mut *state {
            State::Waiting(_) => self.start_stream(state, None, Some(0)),
            State::Pending {
                messages,
                closed_at,
                ..
            } => *closed_at = closed_at.or(Some(messages.len())),
            State::Streaming(hub) => hub.close_subscriber(),
            State::Done => {}
        }
    }

    /// Turns a waiting exchange into a stream that `first` opens.
    fn start_stream(
        &self,
        mut state: std::sync::MutexGuard<'_, State>,
        first: Option<(Vec<u8>, bool)>,
        closed_at: Option<usize>,
    ) {
        let next = State::Pending {
            messages: first.into_iter().collect(),
            closed_at,
            ended: false,
        };
        if let State::Waiting(first) = mem::replace(&mut *state, next) {
            drop(state);
            let _ = first.send(First::Stream);
        }
    }

    /// The request is over. If it sent nothing, the receiver of the first message learns it;
    /// a stream it feeds and that no reply ended (the request was cancelled) ends now, so the
    /// client is not left waiting on keep-alives.
    fn end(&self) {
        let mut state = self.lock();
        match &mut *state {
            State::Pending { ended, .. } => *ended = true,
            State::Streaming(hub) => {
                hub.end_without_reply();
                *state = State::Done;
            }
            _ => *state = State::Done,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().expect("lock poisoned")
    }
}

/// The request's end of an exchange, shared by its sinks: the last one gone ends the exchange.
struct Feed(Arc<Exchange>);

impl Drop for Feed {
    fn drop(&mut self) {
        self.0.end();
    }
}
