//! POST, GET and DELETE on the MCP endpoint.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use tokio::sync::mpsc;

use super::HttpOptions;
use super::sessions::{HttpSession, SessionTable};
use super::stream::{Frame, SseBody, parse_event_id};
use crate::jsonrpc::{RequestId, RpcError};
use crate::protocol::Revision;
use crate::server::{Outbound, Server};

const SESSION_HEADER: &str = "mcp-session-id";
const VERSION_HEADER: &str = "mcp-protocol-version";

pub(super) struct HttpState {
    server: Server,
    options: HttpOptions,
    sessions: SessionTable,
}

impl HttpState {
    pub(super) fn new(server: Server, options: HttpOptions) -> HttpState {
        HttpState {
            server,
            options,
            sessions: SessionTable::default(),
        }
    }
}

type Shared = State<Arc<HttpState>>;

/// A response that refuses the request; boxed, as responses are large.
type Refusal = Box<Response>;

/// A JSON-RPC error as an HTTP response with `status`.
fn refuse(status: StatusCode, code: crate::ErrorCode, message: impl Into<String>) -> Response {
    let error = RpcError::new(code, message);
    let body = json!({"jsonrpc": "2.0", "error": error});
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
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
    if let Some(version) = headers.get(VERSION_HEADER) {
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
    headers.get(SESSION_HEADER).and_then(|v| v.to_str().ok())
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

fn classify(body: &[u8]) -> Kind {
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

pub(super) async fn post(State(state): Shared, headers: HeaderMap, body: Body) -> Response {
    if let Err(refusal) = check_headers(&state, &headers) {
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

    let kind = classify(&body);
    let (session, new_id) = match (&kind, state.options.stateless) {
        (_, true) => (
            HttpSession::new(&state.server, state.options.replay_events),
            None,
        ),
        (
            Kind::Request {
                initialize: true, ..
            },
            false,
        ) => {
            let session = HttpSession::new(&state.server, state.options.replay_events);
            let id = state
                .sessions
                .insert(Arc::clone(&session), state.options.session_idle);
            (session, Some(id))
        }
        (Kind::Invalid, false) => match find_session(&state, &headers) {
            Ok(session) => (session, None),
            Err(_) => (
                HttpSession::new(&state.server, state.options.replay_events),
                None,
            ),
        },
        (_, false) => match find_session(&state, &headers) {
            Ok(session) => (session, None),
            Err(refusal) => return *refusal,
        },
    };

    let mut response = match kind {
        Kind::NoReply => {
            let discard = Outbound::new(false, |_| {});
            session.session.receive_via(&body, &discard);
            StatusCode::ACCEPTED.into_response()
        }
        Kind::Invalid => {
            let (sender, mut receiver) = mpsc::unbounded_channel();
            let sink = Outbound::new(false, move |m| {
                let _ = sender.send(m);
            });
            session.session.receive_via(&body, &sink);
            let message = receiver.recv().await.unwrap_or_default();
            (
                StatusCode::BAD_REQUEST,
                [(header::CONTENT_TYPE, "application/json")],
                message,
            )
                .into_response()
        }
        Kind::Request { id, .. } => answer_request(&state, &session, &headers, &body, id).await,
    };
    if let Some(id) = new_id
        && let Ok(value) = HeaderValue::from_str(&id)
    {
        response.headers_mut().insert(SESSION_HEADER, value);
    }
    response
}

/// Runs a request and answers with JSON (nothing but the reply) or SSE (messages first).
async fn answer_request(
    state: &HttpState,
    session: &Arc<HttpSession>,
    headers: &HeaderMap,
    body: &Bytes,
    request_id: String,
) -> Response {
    let hub = session.open_stream(request_id.clone());
    let stream = hub.stream;
    let runtime_session = Arc::clone(&session.session);
    let http_session = Arc::downgrade(session);
    let grace = state.options.resume_grace;
    let raw_id = request_id.clone();
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
            if let Ok(raw) = serde_json::value::RawValue::from_string(raw_id)
                && let Some(id) = RequestId::from_raw(&raw)
            {
                runtime_session.cancel(&id);
            }
            http_session.forget_stream(stream);
        });
    });
    let mut subscription = hub.subscribe(None);
    let sink_hub = Arc::clone(&hub);
    let mut sink = Outbound::new(state.server.core.trace, move |message| {
        sink_hub.push(message)
    });
    if accepts_sse(headers) {
        let closing_hub = Arc::clone(&hub);
        sink = sink.with_close(move || closing_hub.close_subscriber());
    }
    session.session.receive_via(body, &sink);

    // The first message decides: the reply alone is JSON; anything before it makes a stream.
    let cancel_on_drop = CancelOnDrop {
        session: Arc::clone(&session.session),
        request_id: request_id.clone(),
        armed: true,
    };
    let first = subscription.receiver.recv().await;
    let mut cancel_on_drop = cancel_on_drop;
    let priming = (session.session.revision() >= Revision::V2025_11_25)
        .then(|| (hub.priming_id(), state.options.retry));
    let Some(Frame::Event { id: event_id, data }) = first else {
        // The handler closed the stream before sending anything: a stream that only primes
        // the client to reconnect for the rest.
        cancel_on_drop.armed = false;
        let mut body = SseBody::new(subscription, priming, state.options.keepalive);
        body.end_after_pending();
        return sse_response(body);
    };
    if hub.is_final(&data) || !accepts_sse(headers) {
        let mut data = data;
        if !hub.is_final(&data) {
            // A client that takes only JSON gets the reply alone.
            loop {
                match subscription.receiver.recv().await {
                    Some(Frame::Event { data: next, .. }) if hub.is_final(&next) => {
                        data = next;
                        break;
                    }
                    Some(_) => continue,
                    None => break,
                }
            }
        }
        cancel_on_drop.armed = false;
        session.forget_stream(stream);
        return (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json")],
            data.to_vec(),
        )
            .into_response();
    }
    cancel_on_drop.armed = false;
    let mut body = SseBody::new(subscription, priming, state.options.keepalive);
    body.push_front_event(&event_id, &data);
    sse_response(body)
}

fn sse_response(body: SseBody) -> Response {
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .body(Body::from_stream(body))
        .expect("a valid response")
}

/// Cancels the request if the client goes away while its JSON reply is awaited.
struct CancelOnDrop {
    session: Arc<crate::server::Session>,
    request_id: String,
    armed: bool,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        if let Ok(raw) =
            serde_json::value::RawValue::from_string(std::mem::take(&mut self.request_id))
            && let Some(id) = RequestId::from_raw(&raw)
        {
            self.session.cancel(&id);
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
        .get("last-event-id")
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
    sse_response(SseBody::new(subscription, priming, state.options.keepalive))
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
