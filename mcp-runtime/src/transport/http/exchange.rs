//! One POSTed request's answer, decided by the first message its handler sends. The reply
//! alone goes through a oneshot channel straight into an `application/json` response, and
//! nothing else is set up for it. Anything before the reply (progress, a log message, a request
//! to the client) makes the answer a stream: the endpoint attaches a [`Hub`], which receives
//! what was sent meanwhile and then everything up to the reply.

use std::mem;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

use super::stream::{Hub, ends_request};
use crate::server::Outbound;

/// The first thing that happened to a request's answer.
pub(super) enum First {
    /// The reply came first: it is the whole answer.
    Reply(Vec<u8>),
    /// Another message came first: the answer is a stream, starting with it.
    Message(Vec<u8>),
    /// The handler ended its stream (`Context::close_stream`) before sending anything.
    Closed,
}

pub(super) struct Exchange {
    /// The raw id of the request.
    request: String,
    state: Mutex<State>,
}

enum State {
    /// Nothing sent yet.
    Waiting(oneshot::Sender<First>),
    /// The first message was not the reply: what follows waits here for the stream. `ended`:
    /// the request is over (the stream gets nothing more).
    Pending {
        messages: Vec<Vec<u8>>,
        closed: bool,
        ended: bool,
    },
    /// The stream carries the rest.
    Streaming(Arc<Hub>),
    /// Nothing more is due: the reply went first, or the request is over and its stream, if
    /// any, is left to its other holders.
    Done,
}

impl Exchange {
    /// The exchange of the request whose raw id is `request`, and where its first message (or
    /// event) arrives. The receiver fails if the request ends without sending anything (it was
    /// cancelled): when its sinks are all gone.
    pub(super) fn new(request: String) -> (Arc<Exchange>, oneshot::Receiver<First>) {
        let (first, receiver) = oneshot::channel();
        let exchange = Arc::new(Exchange {
            request,
            state: Mutex::new(State::Waiting(first)),
        });
        (exchange, receiver)
    }

    /// The raw id of the request.
    pub(super) fn request(&self) -> &str {
        &self.request
    }

    /// The sink the request's messages go to. With `closable` (the client takes a stream), its
    /// handler may end the stream before the reply.
    pub(super) fn sink(self: &Arc<Self>, trace: bool, closable: bool) -> Outbound {
        let feed = Arc::new(Feed(Arc::clone(self)));
        let sending = Arc::clone(&feed);
        let sink = Outbound::new(trace, move |message| sending.0.deliver(message));
        if !closable {
            return sink;
        }
        sink.with_close(move || feed.0.close())
    }

    /// The stream that carries the rest of the answer, after a [`First::Message`] or
    /// [`First::Closed`]: what was sent since is pushed to it now.
    pub(super) fn attach(&self, hub: &Arc<Hub>) {
        let mut state = self.lock();
        match mem::replace(&mut *state, State::Done) {
            State::Pending {
                messages,
                closed,
                ended,
            } => {
                for message in messages {
                    hub.push(message);
                }
                if closed {
                    hub.close_subscriber();
                }
                if !ended {
                    *state = State::Streaming(Arc::clone(hub));
                }
            }
            other => *state = other,
        }
    }

    fn deliver(&self, message: Vec<u8>) {
        let mut state = self.lock();
        match &mut *state {
            State::Waiting(_) => {
                let reply = ends_request(&self.request, &message);
                let next = if reply {
                    State::Done
                } else {
                    State::Pending {
                        messages: Vec::new(),
                        closed: false,
                        ended: false,
                    }
                };
                if let State::Waiting(first) = mem::replace(&mut *state, next) {
                    drop(state);
                    let _ = first.send(if reply {
                        First::Reply(message)
                    } else {
                        First::Message(message)
                    });
                }
            }
            State::Pending { messages, .. } => messages.push(message),
            State::Streaming(hub) => hub.push(message),
            State::Done => {}
        }
    }

    fn close(&self) {
        let mut state = self.lock();
        match &mut *state {
            State::Waiting(_) => {
                let next = State::Pending {
                    messages: Vec::new(),
                    closed: false,
                    ended: false,
                };
                if let State::Waiting(first) = mem::replace(&mut *state, next) {
                    drop(state);
                    let _ = first.send(First::Closed);
                }
            }
            State::Pending { closed, .. } => *closed = true,
            State::Streaming(hub) => hub.close_subscriber(),
            State::Done => {}
        }
    }

    /// The request is over. If it sent nothing, the receiver of the first message learns it;
    /// a stream it feeds keeps only the holders it has besides this exchange.
    fn end(&self) {
        let mut state = self.lock();
        match &mut *state {
            State::Pending { ended, .. } => *ended = true,
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
