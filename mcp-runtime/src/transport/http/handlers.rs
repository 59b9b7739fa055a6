//! POST, GET and DELETE on the MCP endpoint.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use tokio::sync::{mpsc, oneshot};

use super::HttpOptions;
use super::exchange::{Exchange, First};
use super::sessions::{HttpSession, SessionTable};
use super::stream::{Frame, Hub, SseBody, ends_request, parse_event_id};
use crate::jsonrpc::{Incoming, RequestId, RpcError, encode_error, parse_message};
use crate::protocol::Revision;
use crate::server::{Outbound, Server, Session};

const SESSION_HEADER: HeaderName = HeaderName::from_static("mcp-session-id");
const VERSION_HEADER: HeaderName = HeaderName::from_static("mcp-protocol-version");
const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");

pub(super) struct HttpState {
    server: Server,
    options: HttpOptions,
    sessions: SessionTable,
    /// Where messages no one can receive go: a stateless session's own (nothing reaches its
    /// client outside its request), and whatever a POSTed notification or response causes.
    discard: Outbound,
}

impl HttpState {
    pub(super) fn new(server: Server, options: HttpOptions) -> HttpState {
        HttpState {
            server,
            options,
            sessions: SessionTable::default(),
            discard: Outbound::new(false, |_| {}),
        }
    }

    /// A session for one POST that belongs to no client session: not in the session table,
    /// not reached by list changes.
    fn unlisted_session(&self) -> Arc<Session> {
        Session::unlisted(Arc::clone(&self.server.core), self.discard.clone())
    }
}

type Shared = State<Arc<HttpState>>;

/// A response that refuses the request; boxed, as responses are large.
type Refusal = Box<Response>;

/// A JSON-RPC error as an HTTP response with `status`.
fn refuse(status: StatusCode, code: crate::ErrorCode, message: impl Into<String>) -> Response {
    let error = RpcError::new(code, message);
    let body = json!({"jsonrpc": "2.0", "error": error});
    json_response(status, body.to_string().into_bytes())
}

/// Host/Origin and `MCP-Protocol-Version` checks shared by every method.
fn check_headers(state: &HttpState, headers: &HeaderMap) -> Result<(), Refusal> {
    if let Err(why) = state.options.hosts.check(headers) {
        return Err(Box::new(refuse(
            StatusCode::FORBIDDEN,
            crate::ErrorCode::InvalidRequest,
            format!("{why} (the server accepts only its allowed hosts, against DNS rebinding)"),
        )));
    }
    if let Some(version) = headers.get(&VERSION_HEADER) {
        let version = version.to_str().unwrap_or("");
        if Revision::parse(version).is_none() {
            return Err(Box::new(refuse(
                StatusCode::BAD_REQUEST,
                crate::ErrorCode::InvalidRequest,
                format!(
                    "unsupported MCP-Protocol-Version `{version}`; supported: {}",
                    Revision::ALL.map(Revision::as_str).join(", ")
                ),
            )));
        }
    }
    Ok(())
}

fn accepts_sse(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.contains("text/event-stream") || v.contains("*/*"))
}

fn session_id(headers: &HeaderMap) -> Option<&str> {
    headers.get(&SESSION_HEADER).and_then(|v| v.to_str().ok())
}

/// The session a request names; 400 without the header, 404 for an unknown or ended one.
fn find_session(state: &HttpState, headers: &HeaderMap) -> Result<Arc<HttpSession>, Refusal> {
    let Some(id) = session_id(headers) else {
        return Err(Box::new(refuse(
            StatusCode::BAD_REQUEST,
            crate::ErrorCode::InvalidRequest,
            "missing Mcp-Session-Id header: send `initialize` first and repeat the id it returned",
        )));
    };
    state.sessions.get(id).ok_or_else(|| {
        Box::new(refuse(
            StatusCode::NOT_FOUND,
            crate::ErrorCode::Other(-32001),
            "session not found: it ended or never existed; start a new one with `initialize`",
        ))
    })
}

/// What a POSTed body holds, for routing.
enum Kind {
    /// A request (or a batch with requests): its raw id, and whether it is `initialize`.
    Request { id: String, initialize: bool },
    /// Notifications and responses only.
    NoReply,
    /// Not a message at all.
    Invalid,
}

/// How a POSTed message is answered. The session's own parse tells a request, a notification
/// and a response apart; a batch, or a message that is not valid, is judged by its `id` and
/// `method` alone (an invalid request still gets its error as a reply).
fn classify(message: &Incoming, body: &[u8]) -> Kind {
    match message {
        Incoming::Request(request) => Kind::Request {
            id: request.id.as_json().to_owned(),
            initialize: request.method == "initialize",
        },
        Incoming::Notification { .. } | Incoming::Response(_) => Kind::NoReply,
        Incoming::Batch(_) | Incoming::Invalid { .. } => peek(body),
    }
}

fn peek(body: &[u8]) -> Kind {
    #[derive(serde::Deserialize)]
    struct Peek<'a> {
        #[serde(borrow, default)]
        id: Option<&'a serde_json::value::RawValue>,
        #[serde(borrow, default)]
        method: Option<std::borrow::Cow<'a, str>>,
    }
    let start = body.iter().position(|b| !b.is_ascii_whitespace());
    if start.is_some_and(|i| body[i] == b'[') {
        return match serde_json::from_slice::<Vec<Peek<'_>>>(body) {
            Ok(items) if items.iter().any(|p| p.method.is_some() && p.id.is_some()) => {
                Kind::Request {
                    id: String::new(),
                    initialize: false,
                }
            }
            Ok(items) if !items.is_empty() => Kind::NoReply,
            _ => Kind::Invalid,
        };
    }
    match serde_json::from_slice::<Peek<'_>>(body) {
        Ok(Peek {
            id: Some(id),
            method: Some(method),
        }) => Kind::Request {
            id: id.get().to_owned(),
            initialize: method == "initialize",
        },
        Ok(Peek {
            method: Some(_), ..
        })
        | Ok(Peek { id: Some(_), .. }) => Kind::NoReply,
        _ => Kind::Invalid,
    }
}

pub(super) async fn post(State(state): Shared, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let headers = &parts.headers;
    if let Err(refusal) = check_headers(&state, headers) {
        return *refusal;
    }
    let limit = state.options.max_body_bytes;
    let too_large = || {
        refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            crate::ErrorCode::InvalidRequest,
            format!("the request body is larger than the server's limit of {limit} bytes"),
        )
    };
    if headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<usize>().ok())
        .is_some_and(|length| length > limit)
    {
        return too_large();
    }
    let Ok(body) = axum::body::to_bytes(body, limit).await else {
        return too_large();
    };

    let message = parse_message(&body);
    let kind = classify(&message, &body);
    let received = Received {
        body: &body,
        message,
        kind,
    };
    if state.options.stateless {
        return respond(&state, &state.unlisted_session(), None, headers, received).await;
    }
    let (session, new_id) = match &received.kind {
        Kind::Request {
            initialize: true, ..
        } => {
            let session = HttpSession::new(&state.server, state.options.replay_events);
            let id = state
                .sessions
                .insert(Arc::clone(&session), state.options.session_idle);
            (session, Some(id))
        }
        Kind::Invalid => match find_session(&state, headers) {
            Ok(session) => (session, None),
            Err(_) => {
                let session = state.unlisted_session();
                return respond(&state, &session, None, headers, received).await;
            }
        },
        _ => match find_session(&state, headers) {
            Ok(session) => (session, None),
            Err(refusal) => return *refusal,
        },
    };
    let mut response = respond(&state, &session.session, Some(&session), headers, received).await;
    if let Some(id) = new_id
        && let Ok(value) = HeaderValue::from_str(&id)
    {
        response.headers_mut().insert(SESSION_HEADER, value);
    }
    response
}

/// A POSTed body, parsed.
struct Received<'a> {
    body: &'a [u8],
    message: Incoming,
    kind: Kind,
}

/// Answers a POSTed message on `session`; `http_session` is the session it belongs to, if any
/// (without one, a request's stream cannot be resumed).
async fn respond(
    state: &HttpState,
    session: &Arc<Session>,
    http_session: Option<&Arc<HttpSession>>,
    headers: &HeaderMap,
    received: Received<'_>,
) -> Response {
    let Received {
        body,
        message,
        kind,
    } = received;
    match kind {
        Kind::NoReply => {
            session.receive_parsed(body, message, &state.discard);
            StatusCode::ACCEPTED.into_response()
        }
        Kind::Invalid => {
            let (sender, mut receiver) = mpsc::unbounded_channel();
            let sink = Outbound::new(false, move |m| {
                let _ = sender.send(m);
            });
            session.receive_parsed(body, message, &sink);
            let message = receiver.recv().await.unwrap_or_default();
            json_response(StatusCode::BAD_REQUEST, message)
        }
        Kind::Request { id, .. } => {
            let sse = accepts_sse(headers);
            let (exchange, first) = Exchange::new(id);
            // Ending a stream early asks the client to resume it, which only a session allows.
            let closable = sse && http_session.is_some();
            let sink = exchange.sink(state.server.core.trace, closable);
            session.receive_parsed(body, message, &sink);
            // Only the request may hold its sinks: when they are gone, it has ended.
            drop(sink);
            answer_request(state, session, http_session, sse, exchange, first).await
        }
    }
}

/// Answers a request with JSON (nothing but the reply) or, when the client takes `sse`, with
/// a stream (messages first).
async fn answer_request(
    state: &HttpState,
    session: &Arc<Session>,
    http_session: Option<&Arc<HttpSession>>,
    sse: bool,
    exchange: Arc<Exchange>,
    first: oneshot::Receiver<First>,
) -> Response {
    // The first message decides: the reply alone is JSON; anything before it makes a stream.
    let mut cancel_on_drop = CancelOnDrop {
        session: Arc::clone(session),
        exchange: Arc::clone(&exchange),
        armed: true,
    };
    let first = match (first.await, sse) {
        (Ok(First::Reply(reply)), _) => {
            cancel_on_drop.armed = false;
            return json_response(StatusCode::OK, reply);
        }
        // A client that takes only JSON gets the reply alone.
        (Ok(First::Message(_)), false) => {
            return json_reply_after(state, &exchange, cancel_on_drop).await;
        }
        (Ok(First::Message(message)), true) => message,
        (Err(_), _) => {
            cancel_on_drop.armed = false;
            return unanswered(exchange.request(), sse);
        }
        (Ok(First::Closed), _) => {
            // The handler closed the stream before sending anything: a stream that only primes
            // the client to reconnect for the rest.
            cancel_on_drop.armed = false;
            let hub = open_stream(state, session, http_session, exchange.request());
            let subscription = hub.subscribe(None);
            exchange.attach(&hub);
            let priming = priming(state, session, &hub);
            let mut body = SseBody::new(subscription, priming, state.options.keepalive);
            body.end_after_pending();
            return sse_response(Body::from_stream(body));
        }
    };
    cancel_on_drop.armed = false;
    let hub = open_stream(state, session, http_session, exchange.request());
    let subscription = hub.subscribe(None);
    hub.push(first);
    exchange.attach(&hub);
    let priming = priming(state, session, &hub);
    let body = SseBody::new(subscription, priming, state.options.keepalive);
    sse_response(Body::from_stream(body))
}

/// The reply, as JSON, of a request that sent other messages first: they are dropped.
async fn json_reply_after(
    state: &HttpState,
    exchange: &Exchange,
    mut cancel_on_drop: CancelOnDrop,
) -> Response {
    let hub = Hub::new(
        0,
        Some(exchange.request().to_owned()),
        state.options.replay_events,
    );
    let mut subscription = hub.subscribe(None);
    exchange.attach(&hub);
    // The hub is the exchange's now: when the request ends, the subscription ends with it.
    drop(hub);
    let reply = loop {
        match subscription.receiver.recv().await {
            Some(Frame::Event { data, .. }) if ends_request(exchange.request(), &data) => {
                break Some(data.to_vec());
            }
            Some(_) => continue,
            None => break None,
        }
    };
    cancel_on_drop.armed = false;
    match reply {
        Some(reply) => json_response(StatusCode::OK, reply),
        None => unanswered(exchange.request(), false),
    }
}

/// The answer to a request that ended without a reply, as one the client cancelled does: a
/// stream that ends with nothing to resume, or an error saying so.
fn unanswered(request_id: &str, sse: bool) -> Response {
    if sse {
        return sse_response(Body::empty());
    }
    let error = RpcError::internal("the request was cancelled before it was answered");
    json_response(
        StatusCode::OK,
        encode_error(parse_request_id(request_id).as_ref(), &error),
    )
}

/// The stream a request is answered on. A session's streams can be resumed: a client that
/// loses one has `resume_grace` to resume it before the request is cancelled. Without a
/// session nothing can resume it, and a client that leaves it cancels the request at once.
fn open_stream(
    state: &HttpState,
    session: &Arc<Session>,
    http_session: Option<&Arc<HttpSession>>,
    request_id: &str,
) -> Arc<Hub> {
    let Some(http_session) = http_session else {
        let hub = Hub::new(1, Some(request_id.to_owned()), state.options.replay_events);
        let session = Arc::downgrade(session);
        let id = parse_request_id(request_id);
        hub.set_on_abandoned(move || {
            if let (Some(session), Some(id)) = (session.upgrade(), &id) {
                session.cancel(id);
            }
        });
        return hub;
    };
    let hub = http_session.open_stream(request_id.to_owned());
    let stream = hub.stream;
    let runtime_session = Arc::clone(session);
    let http_session = Arc::downgrade(http_session);
    let grace = state.options.resume_grace;
    let raw_id = request_id.to_owned();
    hub.set_on_abandoned(move || {
        // The client lost the stream before the reply: give it time to resume, then cancel.
        let runtime_session = Arc::clone(&runtime_session);
        let http_session = http_session.clone();
        let raw_id = raw_id.clone();
        tokio::spawn(async move {
            tokio::time::sleep(grace).await;
            let Some(http_session) = http_session.upgrade() else {
                return;
            };
            if let Some(hub) = http_session.stream(stream)
                && hub.is_finished()
            {
                return;
            }
            if let Some(hub) = http_session.stream(stream)
                && hub.has_subscriber()
            {
                return; // resumed in time
            }
            if let Some(id) = parse_request_id(&raw_id) {
                runtime_session.cancel(&id);
            }
            http_session.forget_stream(stream);
        });
    });
    hub
}

/// The priming event a stream starts with, from 2025-11-25 on.
fn priming(state: &HttpState, session: &Session, hub: &Hub) -> Option<(String, Duration)> {
    (session.revision() >= Revision::V2025_11_25).then(|| (hub.priming_id(), state.options.retry))
}

fn json_response(status: StatusCode, body: Vec<u8>) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

fn sse_response(body: Body) -> Response {
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .body(body)
        .expect("a valid response")
}

fn parse_request_id(raw: &str) -> Option<RequestId> {
    let raw = serde_json::value::RawValue::from_string(raw.to_owned()).ok()?;
    RequestId::from_raw(&raw)
}

/// Cancels the request if the client goes away while its JSON reply is awaited.
struct CancelOnDrop {
    session: Arc<Session>,
    exchange: Arc<Exchange>,
    armed: bool,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if self.armed
            && let Some(id) = parse_request_id(self.exchange.request())
        {
            self.session.cancel(&id);
        }
    }
}

/// `/mcp` and its three methods, without a router: what `serve_http` serves.
pub(super) async fn endpoint(State(state): Shared, request: Request) -> Response {
    if request.uri().path() != "/mcp" {
        return StatusCode::NOT_FOUND.into_response();
    }
    match *request.method() {
        Method::POST => post(State(state), request).await,
        Method::GET => get(State(state), request.into_parts().0.headers).await,
        Method::DELETE => delete(State(state), request.into_parts().0.headers).await,
        _ => {
            let mut response = StatusCode::METHOD_NOT_ALLOWED.into_response();
            response
                .headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("GET,POST,DELETE"));
            response
        }
    }
}

pub(super) async fn get(State(state): Shared, headers: HeaderMap) -> Response {
    if let Err(refusal) = check_headers(&state, &headers) {
        return *refusal;
    }
    if state.options.stateless {
        return refuse(
            StatusCode::METHOD_NOT_ALLOWED,
            crate::ErrorCode::InvalidRequest,
            "this server is stateless: it has no stream of its own to GET",
        );
    }
    if !accepts_sse(&headers) {
        return refuse(
            StatusCode::NOT_ACCEPTABLE,
            crate::ErrorCode::InvalidRequest,
            "GET opens a `text/event-stream`; send `Accept: text/event-stream`",
        );
    }
    let session = match find_session(&state, &headers) {
        Ok(session) => session,
        Err(refusal) => return *refusal,
    };
    let resume = headers
        .get(LAST_EVENT_ID)
        .and_then(|v| v.to_str().ok())
        .and_then(parse_event_id);
    let (hub, after) = match resume {
        Some((stream, seq)) => match session.stream(stream) {
            Some(hub) => (hub, Some(seq)),
            None => {
                return refuse(
                    StatusCode::NOT_FOUND,
                    crate::ErrorCode::InvalidRequest,
                    "that stream can no longer be resumed",
                );
            }
        },
        None => (Arc::clone(&session.standalone), None),
    };
    let subscription = hub.subscribe(after);
    let priming = (session.session.revision() >= Revision::V2025_11_25 && after.is_none())
        .then(|| (hub.priming_id(), state.options.retry));
    sse_response(Body::from_stream(SseBody::new(
        subscription,
        priming,
        state.options.keepalive,
    )))
}

pub(super) async fn delete(State(state): Shared, headers: HeaderMap) -> Response {
    if let Err(refusal) = check_headers(&state, &headers) {
        return *refusal;
    }
    if state.options.stateless {
        return refuse(
            StatusCode::METHOD_NOT_ALLOWED,
            crate::ErrorCode::InvalidRequest,
            "this server is stateless: there is no session to end",
        );
    }
    let Some(id) = session_id(&headers) else {
        return refuse(
            StatusCode::BAD_REQUEST,
            crate::ErrorCode::InvalidRequest,
            "missing Mcp-Session-Id header",
        );
    };
    match state.sessions.remove(id) {
        Some(session) => {
            session.session.close();
            session.standalone.close_subscriber();
            StatusCode::NO_CONTENT.into_response()
        }
        None => refuse(
            StatusCode::NOT_FOUND,
            crate::ErrorCode::Other(-32001),
            "session not found",
        ),
    }
}
