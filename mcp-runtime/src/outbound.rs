//! Where a session's messages go: the transport's sending half, told what each message is, with
//! optional tracing to stderr.
//!
//! The core knows what it sends (the reply to a request, a notification on behalf of a request,
//! a request to the client, the end of a stream), so it says so with each message: a transport
//! routes by that [`Outgoing`] kind and never parses the bytes the core encoded.
//!
//! A transport that gathers messages in a buffer of its own (stdio's writer) may also take a
//! message as what writes it ([`Outbound::send_written`]): it is then written straight into that
//! buffer, with no buffer of its own to allocate, fill, copy and free.

use std::sync::Arc;

use crate::auth::Authentication;
use crate::jsonrpc::RequestId;

/// What one outgoing message is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outgoing {
    /// The answer to a message the client sent, and the last message sent for it: the reply
    /// to request `id`, or (`None`) a batch's replies or the error about a message whose id
    /// could not be read.
    Reply(Option<RequestId>),
    /// The reply to request `id` (an error), when the request is refused as the client's
    /// doing, which HTTP answers with 400 rather than 200: in revision 2026-07-28 a question
    /// for a capability the client did not declare (-32021).
    Refusal(RequestId),
    /// A notification, sent on behalf of request `related` when it has one (progress, a log
    /// message during a request), or on the session's own (list changes, resource updates).
    Notification { related: Option<RequestId> },
    /// A request to the client, whose answer will carry `id`.
    Request(RequestId),
}

/// How a transport receives what a session sends: one call per complete JSON message.
type Deliver = dyn Fn(Outgoing, Vec<u8>) + Send + Sync;

/// How a transport with a buffer of its own receives a message as what writes it there (it
/// calls `write` once, or not at all if it drops the message).
type Append = dyn Fn(Outgoing, &mut dyn FnMut(&mut Vec<u8>)) + Send + Sync;

/// The sending half of a transport.
#[derive(Clone)]
pub(crate) struct Outbound {
    send: Arc<Deliver>,
    /// What [`send_written`](Self::send_written) uses, if the transport takes messages so.
    append: Option<Arc<Append>>,
    /// Ends the stream this sink feeds, when the transport has such a thing (an HTTP
    /// response's event stream): the client then resumes it with `Last-Event-ID`.
    close: Option<Arc<dyn Fn() + Send + Sync>>,
    /// Who the messages this sink answers came from, as far as the transport knows: the
    /// requests it carries run as them.
    authentication: Authentication,
    /// Whether a request to the client can go out on it (not on the answer to an HTTP POST
    /// that accepts only JSON).
    carries_requests: bool,
    trace: bool,
}

impl Outbound {
    pub(crate) fn new(
        trace: bool,
        send: impl Fn(Outgoing, Vec<u8>) + Send + Sync + 'static,
    ) -> Outbound {
        Outbound {
            send: Arc::new(send),
            append: None,
            close: None,
            authentication: Authentication::Local,
            carries_requests: true,
            trace,
        }
    }

    /// Says no request to the client can go out on this sink: asking fails at once.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn without_requests(mut self) -> Outbound {
        self.carries_requests = false;
        self
    }

    /// Whether a request to the client can go out on this sink.
    pub(crate) fn carries_requests(&self) -> bool {
        self.carries_requests
    }

    /// A sink that drops everything: for messages no one can receive.
    pub(crate) fn discard() -> Outbound {
        Outbound::new(false, |_, _| {})
    }

    /// Adds what [`close_stream`](Self::close_stream) does.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn with_close(mut self, close: impl Fn() + Send + Sync + 'static) -> Outbound {
        self.close = Some(Arc::new(close));
        self
    }

    /// Says who the messages this sink answers came from (by default: [`Authentication::Local`]).
    pub(crate) fn with_authentication(mut self, authentication: Authentication) -> Outbound {
        self.authentication = authentication;
        self
    }

    /// Who the messages this sink answers came from.
    pub(crate) fn authentication(&self) -> &Authentication {
        &self.authentication
    }

    /// Ends the current stream, if the transport has one; true if it did.
    pub(crate) fn close_stream(&self) -> bool {
        match &self.close {
            Some(close) => {
                close();
                true
            }
            None => false,
        }
    }

    /// Sends one message, saying what it is.
    pub(crate) fn send(&self, kind: Outgoing, message: Vec<u8>) {
        if self.trace {
            trace("->", &message);
        }
        (self.send)(kind, message);
    }

    /// The same sink, taking the messages [`send_written`](Self::send_written) sends by
    /// `append`, which writes them into the transport's buffer.
    pub(crate) fn with_append(
        mut self,
        append: impl Fn(Outgoing, &mut dyn FnMut(&mut Vec<u8>)) + Send + Sync + 'static,
    ) -> Outbound {
        self.append = Some(Arc::new(append));
        self
    }

    /// Sends the message `write` writes: straight into the transport's buffer if it takes
    /// messages so (and none is traced), else as one [`send`](Self::send) of its bytes.
    pub(crate) fn send_written(&self, kind: Outgoing, write: &mut dyn FnMut(&mut Vec<u8>)) {
        match &self.append {
            Some(append) if !self.trace => append(kind, write),
            _ => {
                // What writes makes the room it needs, knowing the message's size better.
                let mut message = Vec::new();
                write(&mut message);
                self.send(kind, message);
            }
        }
    }
}

/// Writes one raw message to stderr with its direction, id and method (`MCP_TRACE=1`), through
/// the backlog that never blocks (see [`crate::stderr`]).
pub(crate) fn trace(direction: &str, message: &[u8]) {
    let text = String::from_utf8_lossy(message);
    let parsed: Option<serde_json::Value> = serde_json::from_str(&text).ok();
    let field = |name: &str| {
        parsed
            .as_ref()
            .and_then(|value| value.get(name))
            .map(crate::jsonrpc::compact_text)
    };
    let id = field("id").unwrap_or_else(|| "-".to_owned());
    let method = field("method")
        .map(|m| format!(" {}", m.trim_matches('"')))
        .unwrap_or_default();
    crate::stderr::line(format_args!(
        "[mcp {direction}] id={id}{method} {}",
        text.trim_end()
    ));
}
