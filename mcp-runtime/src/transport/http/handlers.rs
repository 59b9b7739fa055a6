//! POST, GET and DELETE on the MCP endpoint.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::HttpOptions;
use super::authorize;
use super::drain::Drain;
use super::exchange::{Exchange, First};
use super::finished_streams::FinishedStreams;
use super::guard::{Accepts, Refused, check_content_type};
use super::resume_elsewhere::{self, Refusal as ElsewhereRefusal};
use super::resume_grace::GraceTimer;
use super::sessions::{AtCap, HttpSession, SessionTable};
use super::shared_events::{Mirror, SharedEvents};
use super::stateless::{self, VERSION_HEADER};
use super::stream::{Hub, Resume, SseBody, SseLimits, Subscription};
use crate::auth::Authentication;
use crate::issued_id;
use crate::jsonrpc::{Incoming, ParamsText, RequestId, RpcError, encode_error, parse_message_with};
use crate::limit_log::LimitLog;
use crate::outbound::Outbound;
use crate::protocol::Revision;
use crate::server::Stateless;
use crate::server::params;
use crate::server::{Server, Session};

const SESSION_HEADER: HeaderName = HeaderName::from_static("mcp-session-id");
const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");

pub(super) struct HttpState {
    pub(super) server: Server,
    options: HttpOptions,
    /// Whether the server shuts down (`drain.rs`).
    pub(super) drain: Arc<Drain>,
    sessions: Arc<SessionTable>,
    /// The sessions' finished request streams kept for a resume (`finished_streams.rs`).
    finished_streams: Arc<FinishedStreams>,
    /// Where messages no one can receive go: a stateless session's own (nothing reaches its
    /// client outside its request), and whatever a POSTed notification or response causes.
    discard: Outbound,
    /// Where the legacy sessions' events are shared with the other instances, if anywhere
    /// (`shared_events.rs`).
    shared: Option<Arc<dyn SharedEvents>>,
}

impl HttpState {
    pub(super) fn new(server: Server, options: HttpOptions) -> HttpState {
        HttpState {
            shared: shared_events(&server, &options),
            sessions: Arc::new(SessionTable::new(
                options.max_sessions,
                options.max_sessions_per_caller,
            )),
            finished_streams: Arc::new(FinishedStreams::new(options.max_finished_streams)),
            server,
            options,
            drain: Arc::default(),
            // Nothing over HTTP runs as the trusted local user, even by mistake.
            discard: Outbound::discard().with_authentication(Authentication::Anonymous),
        }
    }

    /// A session for one POST that belongs to no client session: not in the session table,
    /// not reached by list changes.
    fn unlisted_session(&self) -> Arc<Session> {
        Session::unlisted(Arc::clone(&self.server.core), self.discard.clone())
    }
}

/// The store shared with the other instances: on the Redis of
/// [`ServerBuilder::redis`](crate::ServerBuilder::redis), when there is one.
#[cfg(feature = "redis")]
fn shared_events(server: &Server, options: &HttpOptions) -> Option<Arc<dyn SharedEvents>> {
    let url = server.core.redis.as_deref()?;
    let name = &server.core.info.name;
    let (ttl, most_read) = (options.shared_events_ttl, options.replay_events);
    match super::redis_events::RedisEvents::start(url, name, ttl, most_read) {
        Ok(store) => Some(Arc::new(store)),
        Err(problem) => {
            crate::stderr::line(format_args!(
                "mcp: {problem}: legacy streams are not shared with other instances"
            ));
            None
        }
    }
}

#[cfg(not(feature = "redis"))]
fn shared_events(_: &Server, _: &HttpOptions) -> Option<Arc<dyn SharedEvents>> {
    None
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

/// `response`, saying the connection closes after it: what is left of the request's body on
/// it cannot be told from the next request.
fn closing(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// A refusal of the checks in [`guard`](super::guard), as a response.
fn refused(refusal: Refused) -> Response {
    let reason = match refusal.status {
        StatusCode::FORBIDDEN => format!(
            "{} (the server accepts only its allowed hosts, against DNS rebinding)",
            refusal.reason
        ),
        _ => refusal.reason,
    };
    refuse(refusal.status, crate::ErrorCode::InvalidRequest, reason)
}

/// The `MCP-Protocol-Version` check shared by every method: a revision the server does not
/// serve is 400 with -32022 listing those it does (streamable-http "Protocol Version Header";
/// a client of any revision reads the 400, one of 2026-07-28 the `supported` list too).
fn check_headers(headers: &HeaderMap) -> Result<(), Refusal> {
    if let Some(version) = headers.get(&VERSION_HEADER) {
        let version = String::from_utf8_lossy(version.as_bytes());
        if Revision::parse(&version).is_none() {
            let error = crate::protocol::envelope::unsupported(
                &version,
                format!(
                    "unsupported MCP-Protocol-Version `{version}`; supported: {}",
                    Revision::ALL.map(Revision::as_str).join(", ")
                ),
            );
            let body = json!({"jsonrpc": "2.0", "error": error});
            return Err(Box::new(json_response(
                StatusCode::BAD_REQUEST,
                body.to_string().into_bytes(),
            )));
        }
    }
    Ok(())
}

/// 405 for a GET or DELETE of a client of revision 2026-07-28 (by its `MCP-Protocol-Version`),
/// which has neither: no session to end, no stream of the server's own (streamable-http
/// "Earlier Streamable HTTP Revisions"). Clients of the session-based revisions keep both.
fn refuse_stateless_method(headers: &HeaderMap, method: &Method) -> Result<(), Refusal> {
    if !names_stateless(headers) {
        return Ok(());
    }
    Err(Box::new(post_only(format!(
        "{method} is not part of revision {}: it has no sessions and no stream of the server's own; POST each request",
        Revision::LATEST
    ))))
}

/// 405 saying why, with the one method left (`Allow: POST`, as RFC 9110 section 15.5.6 asks of
/// a 405).
fn post_only(reason: impl Into<String>) -> Response {
    let mut response = refuse(
        StatusCode::METHOD_NOT_ALLOWED,
        crate::ErrorCode::InvalidRequest,
        reason,
    );
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("POST"));
    response
}

fn session_id(headers: &HeaderMap) -> Option<&str> {
    headers.get(&SESSION_HEADER).and_then(|v| v.to_str().ok())
}

/// The session a request names; 400 without the header, 404 for an unknown or ended one.
/// A session opened by another caller is not found either: its id alone lets no one in.
fn find_session(
    state: &HttpState,
    headers: &HeaderMap,
    authentication: &Authentication,
) -> Result<Arc<HttpSession>, Refusal> {
    let Some(id) = headers.get(&SESSION_HEADER) else {
        return Err(Box::new(refuse(
            StatusCode::BAD_REQUEST,
            crate::ErrorCode::InvalidRequest,
            "missing Mcp-Session-Id header: send `initialize` first and repeat the id it returned",
        )));
    };
    // An id that is not visible ASCII is no session's (the server issues hex): not found.
    let id = id.to_str().unwrap_or_default();
    let session = state
        .sessions
        .get(id)
        .filter(|session| session.belongs_to(authentication));
    session.ok_or_else(|| {
        Box::new(refuse(
            StatusCode::NOT_FOUND,
            crate::ErrorCode::Other(-32001),
            "session not found: it ended or never existed; start a new one with `initialize`",
        ))
    })
}

/// What a POSTed body holds, for routing.
enum Kind {
    /// A request (or a batch with requests or invalid elements): its id (`None` for a
    /// batch), and whether it is `initialize`.
    Request {
        id: Option<RequestId>,
        initialize: bool,
    },
    /// Notifications and responses only.
    NoReply,
    /// Not a valid message, and naming no request: its error is the answer, with 400.
    Invalid,
}

/// How a POSTed message is answered, from the session's own parse: a request is answered, a
/// notification or a response is taken with 202, and a message that is not valid gets its
/// error, as a reply when it names a request, else with 400 (the spec's words for input the
/// server "cannot accept": "it **MUST** return an HTTP error status code (e.g., 400 Bad
/// Request)"). A batch is answered when any element is a request or invalid (a nested batch,
/// say).
fn classify(message: &Incoming) -> Kind {
    match message {
        Incoming::Request(request) => Kind::Request {
            id: Some(request.id.clone()),
            initialize: request.method == "initialize",
        },
        Incoming::Notification { .. } | Incoming::Response(_) => Kind::NoReply,
        Incoming::Batch(items) => {
            let answered = items
                .iter()
                .any(|item| !matches!(item, Incoming::Notification { .. } | Incoming::Response(_)));
            if answered {
                Kind::Request {
                    id: None,
                    initialize: false,
                }
            } else {
                Kind::NoReply
            }
        }
        // An error that names the request is its answer, as a reply would be: the client
        // matches it to its call. A malformed response (to the server's own request) is
        // refused with 400 and an error without an id (streamable-http: input the server
        // cannot accept that is no request "MUST" get an HTTP error status).
        Incoming::Invalid {
            id: Some(id),
            as_response: false,
            ..
        } => Kind::Request {
            id: Some(id.clone()),
            initialize: false,
        },
        Incoming::Invalid { .. } => Kind::Invalid,
    }
}

pub(super) async fn post(
    State(state): Shared,
    request: Request,
    authentication: Authentication,
) -> Response {
    let (parts, body) = request.into_parts();
    let headers = &parts.headers;
    if let Err(refusal) = check_content_type(headers) {
        return refused(refusal);
    }
    let accepts = Accepts::of(headers);
    if let Err(refusal) = accepts.check_post() {
        return refused(refusal);
    }
    let limit = state.options.max_body_bytes;
    let too_large = || {
        refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            crate::ErrorCode::InvalidRequest,
            format!(
                "the request body is larger than the server's limit of {limit} bytes (HttpOptions::max_body_bytes)"
            ),
        )
    };
    if headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<usize>().ok())
        .is_some_and(|length| length > limit)
    {
        return too_large();
    }
    let timeout = state.options.body_read_timeout;
    let body = match tokio::time::timeout(timeout, axum::body::to_bytes(body, limit)).await {
        Ok(Ok(body)) => body,
        Ok(Err(error)) => {
            let error = error.into_inner();
            if error.is::<http_body_util::LengthLimitError>() {
                return too_large();
            }
            return body_unreadable(&*error);
        }
        Err(_) => return body_too_slow(timeout),
    };

    // The params a request's era or method reads member by member are read with the message,
    // in one pass, as over stdio.
    let mut read = None;
    let message = parse_message_with(&body, &params::InMessage, &mut read);
    // The era: a request that claims the stateless revision in `_meta` is checked and served
    // as one; anything else is session-based, unless its header says otherwise.
    let stateless = match era(&state, headers, &message, &mut read) {
        Ok(stateless) => stateless,
        Err(response) => return *response,
    };
    if let Err(refusal) = authorize::check_scopes(
        &state.server.core,
        &state.options,
        &authentication,
        &message,
    ) {
        return *refusal;
    }
    if stateless.is_some()
        && let Incoming::Request(request) = &message
        && request.method == "subscriptions/listen"
        && let Err(refusal) = accepts.check_stream(&request.method)
    {
        return refused(refusal);
    }
    let kind = classify(&message);
    if stateless.is_none() && matches!(kind, Kind::NoReply) && names_stateless(headers) {
        // A stateless client's notification: nothing in 2026-07-28 is one over HTTP.
        return StatusCode::ACCEPTED.into_response();
    }
    let received = Received {
        body: &body,
        message,
        read,
        kind,
        accepts,
        authentication,
        stateless,
    };
    if state.options.stateless || received.stateless.is_some() {
        return respond(&state, &state.unlisted_session(), None, received).await;
    }
    let known = || {
        session_id(headers)
            .and_then(|id| state.sessions.get(id))
            .filter(|session| session.belongs_to(&received.authentication))
    };
    let (session, new_id) = match &received.kind {
        Kind::Request {
            initialize: true, ..
        } => match known() {
            // The session's second `initialize`, which it refuses.
            Some(session) => (session, None),
            None => {
                let owner = received.authentication.owner();
                let limits = state.options.stream_limits();
                let id = issued_id::new();
                let mirror =
                    (state.shared.as_ref()).map(|store| Mirror::new(store, &id, owner.clone()));
                let session = HttpSession::new(&state.server, limits, owner, mirror);
                if let Err(cap) = state.sessions.insert(id.clone(), Arc::clone(&session)) {
                    session.end();
                    return match cap {
                        AtCap::Server => at_session_cap(state.options.max_sessions),
                        AtCap::Caller => at_caller_cap(state.options.max_sessions_per_caller),
                    };
                }
                session.share();
                state.sessions.sweep_every(state.options.session_idle);
                (session, Some(id))
            }
        },
        Kind::Invalid => match find_session(&state, headers, &received.authentication) {
            Ok(session) => (session, None),
            Err(_) => {
                let session = state.unlisted_session();
                return respond(&state, &session, None, received).await;
            }
        },
        _ => match find_session(&state, headers, &received.authentication) {
            Ok(session) => (session, None),
            // A message that is not valid (a batch included, which a session must allow) is
            // answered with what is wrong with it, session or not: "send `initialize` first"
            // would hide that, and tell a 2026-07-28 client to do what its revision removed.
            Err(_)
                if matches!(
                    received.message,
                    Incoming::Invalid { .. } | Incoming::Batch(_)
                ) =>
            {
                let session = state.unlisted_session();
                return respond(&state, &session, None, received).await;
            }
            Err(refusal) => return *refusal,
        },
    };
    let mut response = respond(&state, &session.session, Some(&session), received).await;
    if let Some(id) = new_id {
        // `initialize` ends within its first poll, so its reply is in. A session whose
        // `initialize` failed is none: its id goes only with an `InitializeResult`
        // (streamable-http "Session Management"), and a client told of an error would never
        // use or end it, leaving it to hold a place of `max_sessions` until it idles out.
        if !session.session.is_initialized() {
            if let Some(session) = state.sessions.remove(&id) {
                session.end();
            }
        } else if let Ok(value) = HeaderValue::from_str(&id) {
            response.headers_mut().insert(SESSION_HEADER, value);
        }
    }
    response
}

/// The answer to a body that took longer than `timeout` to arrive; the connection is closed,
/// as the rest of the body may still be on its way.
fn body_too_slow(timeout: std::time::Duration) -> Response {
    static LOG: LimitLog = LimitLog::new();
    LOG.hit(|| {
        format!(
            "a request body took longer than {} s to arrive (HttpOptions::body_read_timeout): 408",
            timeout.as_secs_f64()
        )
    });
    closing(refuse(
        StatusCode::REQUEST_TIMEOUT,
        crate::ErrorCode::InvalidRequest,
        format!(
            "the request body did not arrive within the server's limit of {} s",
            timeout.as_secs_f64()
        ),
    ))
}

/// The answer to a body that could not be read whole, for another reason than its size: it
/// ended before its `Content-Length`, or its chunked framing is malformed.
fn body_unreadable(error: &(dyn std::error::Error + 'static)) -> Response {
    // The first cause says it (hyper's layers above it repeat "error reading a body").
    let mut cause = error;
    while let Some(source) = cause.source() {
        cause = source;
    }
    closing(refuse(
        StatusCode::BAD_REQUEST,
        crate::ErrorCode::InvalidRequest,
        format!(
            "the request body could not be read ({cause}): it ended before its Content-Length, or its chunked framing is malformed"
        ),
    ))
}

/// The answer to `initialize` when `max` sessions are live: the server is at capacity (503),
/// which is not this client's doing (429 would say it is).
fn at_session_cap(max: usize) -> Response {
    static LOG: LimitLog = LimitLog::new();
    LOG.hit(|| {
        format!(
            "{max} sessions are live (HttpOptions::max_sessions): `initialize` is refused with 503"
        )
    });
    refuse_for_now(
        StatusCode::SERVICE_UNAVAILABLE,
        format!(
            "the server has as many sessions as it allows ({max}, HttpOptions::max_sessions): retry later"
        ),
    )
}

/// The answer to `initialize` from a caller that holds `max` sessions: its own doing (429).
fn at_caller_cap(max: usize) -> Response {
    static LOG: LimitLog = LimitLog::new();
    LOG.hit(|| {
        format!(
            "a caller holds {max} sessions (HttpOptions::max_sessions_per_caller): its `initialize` is refused with 429"
        )
    });
    refuse_for_now(
        StatusCode::TOO_MANY_REQUESTS,
        format!(
            "you hold as many sessions as one caller may ({max}, HttpOptions::max_sessions_per_caller): end one (DELETE) or let one expire, then retry"
        ),
    )
}

/// A refusal that may pass: -32000 with `message`, and `Retry-After: 1`.
fn refuse_for_now(status: StatusCode, message: impl Into<String>) -> Response {
    let mut response = refuse(status, crate::ErrorCode::Other(-32000), message);
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

/// The era of a POSTed message: a request that claims the stateless revision, admitted, `None` for the session-based era (whose version header is checked here), or the
/// refusal. `read` is what the message's pass read of its params: a claim is taken from it,
/// what a session-based request's method reads is left in it.
fn era(
    state: &HttpState,
    headers: &HeaderMap,
    message: &Incoming,
    read: &mut Option<params::Params<'_>>,
) -> Result<Option<Stateless>, Refusal> {
    let refusal = |id: &RequestId, (status, error): stateless::Refusal| {
        Box::new(json_response(status, encode_error(Some(id), &error)))
    };
    if let Incoming::Request(request) = message {
        let claimed = match read {
            Some(_) => read.take_if(|read| read.claims_era()),
            None => params::claim(request.params.as_ref().map(ParamsText::get)),
        };
        match claimed {
            Some(params) => {
                return stateless::admit(&state.server.core, headers, request, params)
                    .map(Some)
                    .map_err(|refused| refusal(&request.id, refused));
            }
            None => stateless::refuse_unclaimed(headers, &request.method)
                .map_err(|refused| refusal(&request.id, refused))?,
        }
    }
    check_headers(headers)?;
    Ok(None)
}

/// Whether the version header names a stateless revision.
fn names_stateless(headers: &HeaderMap) -> bool {
    headers
        .get(&VERSION_HEADER)
        .and_then(|v| Revision::parse(v.to_str().ok()?.trim()))
        .is_some_and(Revision::is_stateless)
}

/// A POSTed body, parsed.
struct Received<'a> {
    body: &'a [u8],
    message: Incoming,
    /// What the pass that parsed `message` read of a session-based request's params, if it
    /// read them.
    read: Option<params::Params<'a>>,
    kind: Kind,
    accepts: Accepts,
    /// Who sent it: the requests it carries run as them.
    authentication: Authentication,
    /// A request of the stateless revision, admitted; `None` in the session-based era.
    stateless: Option<Stateless>,
}

/// Answers a POSTed message on `session`; `http_session` is the session it belongs to, if any
/// (without one, a request's stream cannot be resumed).
async fn respond(
    state: &HttpState,
    session: &Arc<Session>,
    http_session: Option<&Arc<HttpSession>>,
    received: Received<'_>,
) -> Response {
    let Received {
        body,
        message,
        read,
        kind,
        accepts,
        authentication,
        stateless,
    } = received;
    let stateless_era = stateless.is_some();
    let kind = match kind {
        // A batch the session refuses is answered with that refusal.
        Kind::NoReply if matches!(message, Incoming::Batch(_)) && !session.takes_batches() => {
            Kind::Invalid
        }
        kind => kind,
    };
    let (request, status, sse) = match kind {
        Kind::NoReply => {
            session.receive_parsed(body, message, read, &state.discard);
            return StatusCode::ACCEPTED.into_response();
        }
        // Its error is the whole answer.
        Kind::Invalid => (None, StatusCode::BAD_REQUEST, false),
        Kind::Request { id, .. } => (id, StatusCode::OK, accepts.event_stream),
    };
    let (exchange, first) = Exchange::new(request, sse);
    // Ending a stream early asks the client to resume it, which only a session allows.
    let sink = exchange
        .sink(state.server.core.trace, http_session.is_some())
        .with_authentication(authentication);
    let requests = request_ids(&message);
    match stateless {
        Some(stateless) => session.receive_stateless(body, message, stateless, &sink),
        None => session.receive_parsed(body, message, read, &sink),
    }
    // Only the request may hold its sinks: when they are gone, it has ended.
    drop(sink);

    // The first message decides: the reply alone is JSON; anything before it makes a stream.
    let cancel_on_drop = CancelOnDrop {
        session: Arc::clone(session),
        requests: requests.clone(),
    };
    let first = first.await;
    cancel_on_drop.disarm();
    match first {
        Ok(First::Reply { message, refused }) => {
            let status = if refused {
                StatusCode::BAD_REQUEST
            } else {
                status
            };
            json_response(status, message)
        }
        Ok(First::Stream) => {
            let hub = open_stream(state, session, http_session, requests);
            let subscription = hub.subscribe();
            exchange.attach(&hub);
            // A request's own stream ends with its reply: no idle limit, no GET slot; one
            // that runs until the client ends it (a listen stream) ends when the server
            // drains, with the reply that closes it gracefully. The stateless revision has
            // no resumption, so no event ids and no priming event.
            let closing = exchange.request().and_then(|id| session.closing_reply(id));
            let limits = SseLimits {
                anonymous: stateless_era,
                drain: closing
                    .is_some()
                    .then(|| (state.options.retry, Arc::clone(&state.drain))),
                farewell: closing,
                ..SseLimits::default()
            };
            let fresh = !stateless_era;
            sse_response(state, session, &hub, subscription, fresh, limits)
        }
        Err(_) => unanswered(exchange.request(), sse),
    }
}

/// The answer to a request that ended without a reply, as one the client cancelled does: a
/// stream that ends with nothing to resume, or an error saying so.
fn unanswered(request: Option<&RequestId>, sse: bool) -> Response {
    if sse {
        return event_stream(Body::empty());
    }
    let error = RpcError::internal("the request was cancelled before it was answered");
    json_response(StatusCode::OK, encode_error(request, &error))
}

/// The stream a request is answered on. A session's streams can be resumed: a client that
/// loses one has `resume_grace` to resume it before the request is cancelled, counted from
/// its latest loss, by one timer however often it is lost (`resume_grace.rs`). Without a
/// session nothing can resume it, and a client that leaves it cancels the request at once.
fn open_stream(
    state: &HttpState,
    session: &Arc<Session>,
    http_session: Option<&Arc<HttpSession>>,
    requests: Vec<RequestId>,
) -> Arc<Hub> {
    let Some(http_session) = http_session else {
        let hub = Hub::unresumable(state.options.stream_limits());
        let session = Arc::downgrade(session);
        hub.set_on_abandoned(move || {
            if let Some(session) = session.upgrade() {
                cancel_each(&session, &requests);
            }
        });
        return hub;
    };
    let hub = http_session.open_stream();
    let stream = hub.stream;
    let finished_streams = Arc::clone(&state.finished_streams);
    let finished_session = Arc::downgrade(http_session);
    hub.set_on_finished(move || finished_streams.finished(finished_session, stream));
    let runtime_session = Arc::clone(session);
    let http_session = Arc::downgrade(http_session);
    let timer = Arc::new(GraceTimer::new(state.options.resume_grace));
    hub.set_on_abandoned(move || {
        // The client lost the stream before the reply: give it time to resume, then cancel.
        if !timer.lost() {
            return; // the timer already running waits for this loss too
        }
        let timer = Arc::clone(&timer);
        let runtime_session = Arc::clone(&runtime_session);
        let http_session = http_session.clone();
        let requests = requests.clone();
        tokio::spawn(async move {
            timer.expired().await;
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
            cancel_each(&runtime_session, &requests);
            http_session.forget_stream(stream);
        });
    });
    hub
}

fn json_response(status: StatusCode, body: Vec<u8>) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    *response.headers_mut() = HeaderMap::with_capacity(NEXT_REQUEST_HEADERS);
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// The headers a response's map has room for. Once the response is written, hyper parses the
/// connection's next request into that same map (emptied). The map `insert` makes holds 6, and
/// a request of revision 2026-07-28 (its three MCP headers on top of host, content type and
/// length, accept...) then grows it, twice, on every request of a keep-alive connection; 12 is
/// the size it grows to (room for a bearer token and a user agent as well).
const NEXT_REQUEST_HEADERS: usize = 12;

/// An SSE response carrying `subscription` to `hub`'s events, within `limits`. A new stream
/// (`fresh`, not a resume) starts with a priming event from 2025-11-25 on.
fn sse_response(
    state: &HttpState,
    session: &Session,
    hub: &Hub,
    subscription: Subscription,
    fresh: bool,
    limits: SseLimits,
) -> Response {
    let priming = (fresh && session.revision() >= Revision::V2025_11_25)
        .then(|| (hub.priming_id(), state.options.retry));
    let body = SseBody::new(subscription, priming, state.options.keepalive, limits);
    event_stream(Body::from_stream(body))
}

fn event_stream(body: Body) -> Response {
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        // Asks proxies such as nginx to pass events on as they come (2026-07-28 SHOULD).
        .header("x-accel-buffering", "no")
        .body(body)
        .expect("a valid response")
}

/// Cancels the requests if the client goes away while their first message is awaited.
struct CancelOnDrop {
    session: Arc<Session>,
    requests: Vec<RequestId>,
}

impl CancelOnDrop {
    fn disarm(mut self) {
        self.requests.clear();
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        cancel_each(&self.session, &self.requests);
    }
}

/// Cancels each of `requests` still in flight.
fn cancel_each(session: &Session, requests: &[RequestId]) {
    for id in requests {
        session.cancel(id);
    }
}

/// The ids of the requests a message starts, a batch's included: what to cancel when the
/// client that would receive their replies goes away.
fn request_ids(message: &Incoming) -> Vec<RequestId> {
    match message {
        Incoming::Request(request) => vec![request.id.clone()],
        Incoming::Batch(items) => items
            .iter()
            .filter_map(|item| match item {
                Incoming::Request(request) => Some(request.id.clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// `/mcp` and its three methods, and the probes beside it (`health.rs`): what `serve_http`
/// serves.
pub(super) async fn endpoint(state: Shared, request: Request) -> Response {
    if let Some(metadata) =
        authorize::metadata(&state.options, request.method(), request.uri().path())
    {
        return metadata;
    }
    if request.uri().path() != "/mcp" {
        return super::health::probe(&state, request.method(), request.uri().path())
            .unwrap_or_else(|| {
                (
                    StatusCode::NOT_FOUND,
                    "nothing here: the MCP endpoint of this server is /mcp\n",
                )
                    .into_response()
            });
    }
    route(state, request).await
}

/// The endpoint's three methods, wherever it is mounted. Host and Origin are checked first,
/// whatever the method.
pub(super) async fn route(state: Shared, request: Request) -> Response {
    if let Err(refusal) = state.options.hosts.check(request.uri(), request.headers()) {
        // Said on stderr too: an operator whose clients reach the server by a name it does
        // not know sees only their failures otherwise.
        static LOG: LimitLog = LimitLog::new();
        LOG.hit(|| format!("refused a request ({}): {}", refusal.status, refusal.reason));
        return refused(refusal);
    }
    let authentication =
        match authorize::authenticate(&state.options, request.uri(), request.headers()).await {
            Ok(authentication) => authentication,
            Err(refusal) => return *refusal,
        };
    match *request.method() {
        Method::POST => post(state, request, authentication).await,
        Method::GET => get(state, request.into_parts().0.headers, authentication).await,
        Method::DELETE => delete(state, request.into_parts().0.headers, authentication).await,
        _ => {
            let mut response = StatusCode::METHOD_NOT_ALLOWED.into_response();
            response
                .headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("GET,POST,DELETE"));
            response
        }
    }
}

pub(super) async fn get(
    State(state): Shared,
    headers: HeaderMap,
    authentication: Authentication,
) -> Response {
    if let Err(refusal) =
        check_headers(&headers).and_then(|()| refuse_stateless_method(&headers, &Method::GET))
    {
        return *refusal;
    }
    if state.options.stateless {
        return post_only("this server is stateless: it has no stream of its own to GET");
    }
    if !Accepts::of(&headers).event_stream {
        return refuse(
            StatusCode::NOT_ACCEPTABLE,
            crate::ErrorCode::InvalidRequest,
            "GET opens a `text/event-stream`; send `Accept: text/event-stream`",
        );
    }
    let last_event_id = headers.get(LAST_EVENT_ID).and_then(|v| v.to_str().ok());
    let session = match find_session(&state, &headers, &authentication) {
        Ok(session) => session,
        Err(refusal) => {
            // Another instance may hold the session: the shared store has its events. An id
            // of another form than the instances issue is no session's, and is not looked up.
            if let (Some(store), Some(id), Some(last)) =
                (&state.shared, session_id(&headers), last_event_id)
                && issued_id::has_issued_form(id)
            {
                return resume_elsewhere(&state, &**store, id, last, &authentication).await;
            }
            return *refusal;
        }
    };
    let Some(slot) = session.open_get_stream(state.options.max_streams_per_session) else {
        let max = state.options.max_streams_per_session;
        static LOG: LimitLog = LimitLog::new();
        LOG.hit(|| {
            format!("a session holds {max} GET streams open (HttpOptions::max_streams_per_session): another is refused with 429")
        });
        return refuse(
            StatusCode::TOO_MANY_REQUESTS,
            crate::ErrorCode::InvalidRequest,
            format!(
                "this session already holds {max} streams open (HttpOptions::max_streams_per_session): close one first"
            ),
        );
    };
    let limits = SseLimits {
        idle: Some(state.options.stream_idle),
        slot: Some(slot),
        anonymous: false,
        drain: Some((state.options.retry, Arc::clone(&state.drain))),
        farewell: None,
        retry_at_end: None,
    };
    let resume = last_event_id.and_then(|id| session.parse_event_id(id));
    if resume.is_none() && last_event_id.is_some() && session.is_shared() {
        return not_this_session();
    }
    let Some((stream, after)) = resume else {
        let hub = Arc::clone(&session.standalone);
        let subscription = hub.subscribe();
        return sse_response(&state, &session.session, &hub, subscription, true, limits);
    };
    // 410: the events are gone, the session is not (404 would tell the client to start a new
    // one); an error status is how a client learns that the stream it asked for is not coming.
    let Some(hub) = session.stream(stream) else {
        return refuse(
            StatusCode::GONE,
            crate::ErrorCode::InvalidRequest,
            format!(
                "stream {stream} can no longer be resumed: it ended and its events are no longer kept (HttpOptions::max_finished_streams)"
            ),
        );
    };
    match hub.resume(after) {
        Resume::Subscribed(subscription) => {
            sse_response(&state, &session.session, &hub, subscription, false, limits)
        }
        Resume::Gone { missed } => {
            static LOG: LimitLog = LimitLog::new();
            LOG.hit(|| {
                format!("a resume of SSE stream {stream} after event {after} is refused with 410: at least {missed} event(s) after it are no longer kept (HttpOptions::replay_events, replay_bytes)")
            });
            refuse(
                StatusCode::GONE,
                crate::ErrorCode::InvalidRequest,
                format!(
                    "at least {missed} event(s) of stream {stream} after {stream}-{after} are no longer kept (HttpOptions::replay_events, replay_bytes): they cannot be replayed"
                ),
            )
        }
    }
}

/// A `Last-Event-ID` that is no event id of the session (shared event ids name their session).
fn not_this_session() -> Response {
    refuse(
        StatusCode::BAD_REQUEST,
        crate::ErrorCode::InvalidRequest,
        "Last-Event-ID names no event of this session: it is another session's, or not an event id this server issued; nothing is replayed",
    )
}

/// A resume of a session this instance does not hold, from the shared store
/// (`resume_elsewhere.rs`): the replay, then the end.
async fn resume_elsewhere(
    state: &HttpState,
    store: &dyn SharedEvents,
    session: &str,
    last_event_id: &str,
    authentication: &Authentication,
) -> Response {
    let owner = authentication.owner();
    match resume_elsewhere::replay(store, session, last_event_id, owner).await {
        Ok((frames, finished)) => {
            let limits = SseLimits {
                retry_at_end: (!finished).then_some(state.options.retry),
                ..SseLimits::default()
            };
            let subscription = Subscription::replayed(frames);
            let body = SseBody::new(subscription, None, state.options.keepalive, limits);
            event_stream(Body::from_stream(body))
        }
        Err(ElsewhereRefusal::UnknownSession) => refuse(
            StatusCode::NOT_FOUND,
            crate::ErrorCode::Other(-32001),
            "session not found: it ended or never existed; start a new one with `initialize`",
        ),
        Err(ElsewhereRefusal::NotThisSession) => not_this_session(),
        Err(ElsewhereRefusal::Gone(reason)) => {
            static LOG: LimitLog = LimitLog::new();
            LOG.hit(|| {
                format!("a resume of another instance's stream is refused with 410: {reason}")
            });
            refuse(StatusCode::GONE, crate::ErrorCode::InvalidRequest, reason)
        }
        Err(ElsewhereRefusal::Unavailable) => refuse_for_now(
            StatusCode::SERVICE_UNAVAILABLE,
            "the store shared with the other instances (Redis) does not answer: the stream cannot be resumed here now; retry later",
        ),
    }
}

pub(super) async fn delete(
    State(state): Shared,
    headers: HeaderMap,
    authentication: Authentication,
) -> Response {
    if let Err(refusal) =
        check_headers(&headers).and_then(|()| refuse_stateless_method(&headers, &Method::DELETE))
    {
        return *refusal;
    }
    if state.options.stateless {
        return post_only("this server is stateless: there is no session to end");
    }
    let Some(id) = session_id(&headers) else {
        return refuse(
            StatusCode::BAD_REQUEST,
            crate::ErrorCode::InvalidRequest,
            "missing Mcp-Session-Id header",
        );
    };
    if find_session(&state, &headers, &authentication).is_err() {
        return refuse(
            StatusCode::NOT_FOUND,
            crate::ErrorCode::Other(-32001),
            "session not found",
        );
    }
    match state.sessions.remove(id) {
        Some(session) => {
            session.end();
            StatusCode::NO_CONTENT.into_response()
        }
        None => refuse(
            StatusCode::NOT_FOUND,
            crate::ErrorCode::Other(-32001),
            "session not found",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::shared_events::SessionRecord;
    use super::super::shared_events::in_memory::InMemory;
    use super::*;

    /// SECURITY.md, "Several instances": a GET with a `Last-Event-ID` and an
    /// `Mcp-Session-Id` this instance does not hold asks the shared store only when the id has
    /// the form of one the runtime issues; any other is not found (404), even when the store
    /// holds a record under it (in Redis, `mcp:session:notes:staging:ID` is also the key of
    /// session `ID` of the server named `notes:staging`).
    #[tokio::test]
    async fn a_resume_elsewhere_with_a_session_id_never_issued_is_not_found() {
        let server = Server::builder(crate::server_info!()).build().unwrap();
        let mut state = HttpState::new(server, HttpOptions::default());
        let store = Arc::new(InMemory::default());
        let record = SessionRecord {
            owner: None,
            tag: "t".to_owned(),
        };
        let issued = issued_id::new();
        let hostile = [
            format!("staging:{issued}"),
            "a".repeat(8_000),
            format!("{}-", &issued[1..]),
            issued.to_uppercase(),
        ];
        for session in hostile.iter().chain([&issued]) {
            store.open_session(session, &record);
        }
        state.shared = Some(store);
        let state = Arc::new(state);
        let resume = |session: &str| {
            let mut headers = HeaderMap::new();
            let event_stream = HeaderValue::from_static("text/event-stream");
            headers.insert(header::ACCEPT, event_stream);
            headers.insert(SESSION_HEADER, HeaderValue::from_str(session).unwrap());
            headers.insert(LAST_EVENT_ID, HeaderValue::from_static("t.1-0"));
            get(
                State(Arc::clone(&state)),
                headers,
                Authentication::Anonymous,
            )
        };
        for session in &hostile {
            let status = resume(session).await.status();
            assert_eq!(status, StatusCode::NOT_FOUND, "{session}");
        }
        assert_eq!(resume(&issued).await.status(), StatusCode::OK);
    }

    #[test]
    fn a_json_response_has_room_for_the_next_requests_headers() {
        let response = json_response(StatusCode::OK, b"{}".to_vec());
        assert!(response.headers().capacity() >= NEXT_REQUEST_HEADERS);
        assert_eq!(response.headers().len(), 1);
        assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
    }
}
