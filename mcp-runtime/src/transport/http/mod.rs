//! Streamable HTTP: one endpoint; POST carries a message, GET opens the stream of
//! server-initiated messages, DELETE ends a session.
//!
//! A POSTed request is answered as `application/json` when its handler sends nothing but the
//! reply, and as an SSE stream (`text/event-stream`) when it sends progress, log messages or
//! requests to the client first: those go on *that request's* stream, followed by the reply.
//! Notifications and responses from the client are answered 202 with no body.
//!
//! Sessions (the 2025 revisions): `initialize` issues an `Mcp-Session-Id` (128 random bits in
//! hex); later requests must carry it, and an unknown or ended session gets 404. In stateless
//! mode ([`HttpOptions::stateless`]) every POST is served on its own, for deployments behind a
//! load balancer. SSE events carry ids, and a client that lost a stream can resume it with a GET
//! carrying `Last-Event-ID`: the events it missed are replayed, on another instance too when
//! the instances share Redis ([`ServerBuilder::redis`](crate::ServerBuilder::redis):
//! `shared_events.rs`, `redis_events.rs`, `resume_elsewhere.rs`). Host and Origin headers are
//! checked against an allow-list (local addresses by default) against DNS rebinding, and request
//! bodies are size-limited.
//!
//! Served on its own ([`Server::serve_http`]), the endpoint has `/health` and `/ready` beside
//! it (`health.rs`), and shuts down gracefully when asked (`drain.rs`,
//! [`Server::serve_http_with_shutdown`]). Behind a load balancer, [`HostPolicy::allow`]
//! accepts its public host.
//!
//! Everything a client can make the server hold is bounded, each limit a setting of
//! [`HttpOptions`] with its default and its answer when hit: sessions (a cap, idle expiry),
//! GET streams per session, what waits for a stream's reader and what is kept to resume it,
//! connections, and the time a request's headers and body may take (`RELIABILITY.md` lists
//! them all).

mod authorize;
mod drain;
mod exchange;
mod finished_streams;
mod guard;
mod handlers;
mod health;
#[cfg(feature = "redis")]
mod redis_events;
mod resume_elsewhere;
mod resume_grace;
mod serve;
mod sessions;
mod shared_events;
mod stateless;
mod stream;
mod write_deadline;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::any;

use crate::error::Error;
use crate::server::Server;

pub use guard::HostPolicy;

/// How the HTTP transport behaves.
#[derive(Clone, Debug)]
pub struct HttpOptions {
    pub(crate) hosts: HostPolicy,
    pub(crate) max_body_bytes: usize,
    pub(crate) stateless: bool,
    pub(crate) retry: Duration,
    pub(crate) replay_events: usize,
    pub(crate) replay_bytes: usize,
    pub(crate) shared_events_ttl: Duration,
    pub(crate) stream_queue: usize,
    pub(crate) resume_grace: Duration,
    pub(crate) max_finished_streams: usize,
    pub(crate) session_idle: Duration,
    pub(crate) keepalive: Duration,
    pub(crate) max_sessions: usize,
    pub(crate) max_sessions_per_caller: usize,
    pub(crate) max_streams_per_session: usize,
    pub(crate) stream_idle: Duration,
    pub(crate) max_connections: usize,
    pub(crate) max_connections_per_peer: usize,
    pub(crate) header_read_timeout: Duration,
    pub(crate) body_read_timeout: Duration,
    pub(crate) write_timeout: Duration,
    #[cfg(feature = "auth")]
    pub(crate) resource_server: Option<Arc<crate::auth::ResourceServer>>,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            hosts: HostPolicy::local(),
            max_body_bytes: 4 * 1024 * 1024,
            stateless: false,
            retry: Duration::from_millis(1000),
            replay_events: 1024,
            replay_bytes: 256 * 1024,
            shared_events_ttl: Duration::from_secs(10 * 60),
            stream_queue: 256,
            resume_grace: Duration::from_secs(30),
            max_finished_streams: 4096,
            session_idle: Duration::from_secs(60 * 60),
            keepalive: Duration::from_secs(15),
            max_sessions: 10_000,
            max_sessions_per_caller: 1_000,
            max_streams_per_session: 8,
            stream_idle: Duration::from_secs(5 * 60),
            max_connections: 512,
            max_connections_per_peer: 256,
            header_read_timeout: Duration::from_secs(30),
            body_read_timeout: Duration::from_secs(60),
            write_timeout: Duration::from_secs(60),
            #[cfg(feature = "auth")]
            resource_server: None,
        }
    }
}

impl HttpOptions {
    /// The defaults: local hosts only, 4 MiB bodies, sessions.
    pub fn new() -> HttpOptions {
        HttpOptions::default()
    }

    /// Which `Host` and `Origin` values are accepted (local forms by default).
    #[must_use]
    pub fn hosts(mut self, hosts: HostPolicy) -> HttpOptions {
        self.hosts = hosts;
        self
    }

    /// The largest request body, in bytes (4 MiB by default); a larger one gets 413.
    #[must_use]
    pub fn max_body_bytes(mut self, bytes: usize) -> HttpOptions {
        self.max_body_bytes = bytes;
        self
    }

    /// The limits set to zero, which would refuse everything they bound, and the host values
    /// no request could match.
    fn problems(&self) -> Option<crate::BuildError> {
        let zero = [
            ("HttpOptions::max_body_bytes", self.max_body_bytes),
            ("HttpOptions::max_connections", self.max_connections),
            (
                "HttpOptions::max_connections_per_peer",
                self.max_connections_per_peer,
            ),
            ("HttpOptions::max_sessions", self.max_sessions),
            (
                "HttpOptions::max_sessions_per_caller",
                self.max_sessions_per_caller,
            ),
            (
                "HttpOptions::max_streams_per_session",
                self.max_streams_per_session,
            ),
        ]
        .into_iter()
        .filter(|(_, value)| *value == 0)
        .map(|(setting, _)| crate::BuildProblem::ZeroLimit { setting });
        let hosts =
            self.hosts
                .unusable()
                .map(|(setting, value)| crate::BuildProblem::UnusableHost {
                    setting,
                    value: value.to_owned(),
                });
        crate::BuildError::of(zero.chain(hosts).collect())
    }

    /// Serves without sessions: no `Mcp-Session-Id`, no GET stream, each POST on its own.
    ///
    /// This is about requests of the 2025 revisions, which would otherwise start a session
    /// with `initialize`: served without one, their handlers cannot ask the client anything
    /// (sampling, elicitation, roots), since its answer would come back on another POST, which
    /// nothing ties to the waiting handler, and no client capabilities are known without
    /// `initialize`, so such calls fail at once with a [`ClientError`](crate::ClientError).
    /// Progress and log messages still reach the client, on the request's own stream. Requests
    /// of revision 2026-07-28 are served the same way with or without this setting: they never
    /// have a session, and their handlers ask through input-required results.
    #[must_use]
    pub fn stateless(mut self, stateless: bool) -> HttpOptions {
        self.stateless = stateless;
        self
    }

    /// How long a client that lost a request's stream has to resume it (GET with
    /// `Last-Event-ID`) before the request is cancelled (30 s by default), counted from its
    /// latest loss: a stream resumed and lost again has the whole grace again.
    #[must_use]
    pub fn resume_grace(mut self, grace: Duration) -> HttpOptions {
        self.resume_grace = grace;
        self
    }

    /// How many finished request streams of the sessions (of the 2025 revisions) are kept, in
    /// all, for a client that resumes one after it lost it before the reply (4096 by default,
    /// as many as [`max_requests_in_flight_total`](crate::ServerBuilder::max_requests_in_flight_total)).
    /// Past it the oldest is forgotten, and a resume of it gets `410 Gone`. A session also
    /// forgets its finished streams when it opens its next one, or ends. 0 keeps none.
    #[must_use]
    pub fn max_finished_streams(mut self, streams: usize) -> HttpOptions {
        self.max_finished_streams = streams;
        self
    }

    /// How long an unused session is kept (an hour by default): a session that has had no
    /// request for that long, with none in flight and no GET stream open, is ended by a timer
    /// (a log line on stderr), and its id then gets 404.
    #[must_use]
    pub fn session_idle(mut self, idle: Duration) -> HttpOptions {
        self.session_idle = idle;
        self
    }

    /// How many sessions may live at once (10,000 by default). Over it, `initialize` is
    /// refused with `503 Service Unavailable` and `Retry-After` (a log line on stderr): the
    /// server is at capacity, which no single client caused, so 429 (a client's own rate)
    /// would mislead. Sessions end by DELETE or idle expiry.
    #[must_use]
    pub fn max_sessions(mut self, sessions: usize) -> HttpOptions {
        self.max_sessions = sessions;
        self
    }

    /// How many sessions one caller may hold at once on a protected server (1,000 by default,
    /// a tenth of [`max_sessions`](Self::max_sessions)), the caller being the issuer and
    /// subject of its access token (see `resource_server`, the `auth` feature): so one
    /// caller cannot take the sessions every other caller needs. Over it, that caller's
    /// `initialize` is refused with `429 Too Many Requests` and `Retry-After` (a log line on
    /// stderr) until one of its sessions ends. Sessions without a caller (a server with no
    /// resource server) count against `max_sessions` only.
    #[must_use]
    pub fn max_sessions_per_caller(mut self, sessions: usize) -> HttpOptions {
        self.max_sessions_per_caller = sessions;
        self
    }

    /// How many GET streams (the standalone stream, resumed streams) one session may hold
    /// open (8 by default). Over it, a GET is refused with `429 Too Many Requests`: this
    /// client, not the server, holds too many.
    #[must_use]
    pub fn max_streams_per_session(mut self, streams: usize) -> HttpOptions {
        self.max_streams_per_session = streams;
        self
    }

    /// How long a GET stream may carry no message (keep-alive comments do not count) before it
    /// is ended (5 minutes by default); the client reconnects, with `Last-Event-ID` to resume.
    /// A request's own stream is not limited this way: it ends with the reply.
    #[must_use]
    pub fn stream_idle(mut self, idle: Duration) -> HttpOptions {
        self.stream_idle = idle;
        self
    }

    /// How many connections may be open at once (512 by default, nginx's
    /// `worker_connections`). A connection over the cap is answered 503 with `Retry-After` and
    /// closed (a log line on stderr). Only [`Server::serve_http`] (and `run` with `--http`)
    /// counts connections; with [`Server::http_router`], the app's server does.
    #[must_use]
    pub fn max_connections(mut self, connections: usize) -> HttpOptions {
        self.max_connections = connections;
        self
    }

    /// How many connections one peer address may hold open at once (256 by default: half of
    /// [`max_connections`](Self::max_connections), so one client cannot lock the others out).
    /// A connection over it is answered 429 with `Retry-After` and closed (a log line on
    /// stderr). Behind a reverse proxy or load balancer every connection comes from the proxy's
    /// address: raise this to `max_connections` there, and let the proxy limit its clients.
    /// Counted where [`max_connections`](Self::max_connections) is.
    #[must_use]
    pub fn max_connections_per_peer(mut self, connections: usize) -> HttpOptions {
        self.max_connections_per_peer = connections;
        self
    }

    /// How long a client has to send a request's headers (30 s by default, hyper's): a client
    /// slower than that (slowloris), or a kept-alive connection idle that long between
    /// requests, is disconnected. Applies where [`max_connections`](Self::max_connections)
    /// does.
    #[must_use]
    pub fn header_read_timeout(mut self, timeout: Duration) -> HttpOptions {
        self.header_read_timeout = timeout;
        self
    }

    /// How long a client has to send a whole request body (60 s by default, nginx's
    /// `client_body_timeout`, applied to the whole body rather than between two reads, which a
    /// trickle of bytes would defeat). A slower body gets `408 Request Timeout` and the
    /// connection is closed.
    #[must_use]
    pub fn body_read_timeout(mut self, timeout: Duration) -> HttpOptions {
        self.body_read_timeout = timeout;
        self
    }

    /// How long a write to a client may wait for it to read (60 s by default, nginx's
    /// `send_timeout`): a client that reads nothing of a response (or a stream's events) for
    /// that long, while the server has more to send, has its connection closed. A stream with
    /// nothing to send waits for nothing and is not timed. Served by `serve_http`; with
    /// `http_router`, the app's server writes.
    #[must_use]
    pub fn write_timeout(mut self, timeout: Duration) -> HttpOptions {
        self.write_timeout = timeout;
        self
    }

    /// How many events may wait for a slow reader of one SSE stream (256 by default). A reader
    /// that falls further behind is disconnected: its stream ends (with a log line on stderr),
    /// and it resumes with `Last-Event-ID` from the events kept for replay (see
    /// [`replay_events`](Self::replay_events)). A stream nothing can resume (the answer to a
    /// stateless request, of revision 2026-07-28 or of a [`stateless`](Self::stateless)
    /// server) is not ended: its reader misses the notifications (progress, logs, list
    /// changes) past the limit, with a log line on stderr, and still gets the reply.
    #[must_use]
    pub fn stream_queue(mut self, events: usize) -> HttpOptions {
        self.stream_queue = events;
        self
    }

    /// How many events of each stream are kept for a client that resumes it (the last 1024 by
    /// default), within [`replay_bytes`](Self::replay_bytes). A resume from before the oldest
    /// event kept is refused with `410 Gone`, saying how many events were missed. A stream
    /// without a session (stateless), which nothing can resume, keeps none.
    #[must_use]
    pub fn replay_events(mut self, events: usize) -> HttpOptions {
        self.replay_events = events;
        self
    }

    /// How many bytes of each stream's events are kept for a resume (256 KiB by default; a
    /// request's reply is kept whatever its size, so that a resume can end the stream). The
    /// standalone stream keeps nothing until the client first opens it.
    #[must_use]
    pub fn replay_bytes(mut self, bytes: usize) -> HttpOptions {
        self.replay_bytes = bytes;
        self
    }

    /// How long the events of a session of the 2025 revisions stay in the Redis the instances
    /// share ([`ServerBuilder::redis`](crate::ServerBuilder::redis)) after its last event (10
    /// minutes by default), for a client that resumes a stream on another instance (a GET with
    /// `Last-Event-ID` that the balancer sent elsewhere, or whose instance died). Redis holds
    /// what the instance holds, no more: each stream's last
    /// [`replay_events`](Self::replay_events) within [`replay_bytes`](Self::replay_bytes), a
    /// finished stream until the session's next request stream opens, nothing once the session
    /// ends (DELETE, idle expiry); this bounds what an instance that died leaves behind. A
    /// time beyond a year (`Duration::MAX` for "no end") is taken as a year. Without Redis,
    /// unused.
    #[must_use]
    pub fn shared_events_ttl(mut self, ttl: Duration) -> HttpOptions {
        self.shared_events_ttl = ttl;
        self
    }

    /// Protects the endpoint as an OAuth 2.1 resource server (the MCP authorization
    /// specification): every request needs a valid access token in its `Authorization` header
    /// (`401` with a `WWW-Authenticate` challenge otherwise), a call to a handler declaring
    /// `scopes` needs a token granting them (`403` with `error="insufficient_scope"`), and the
    /// Protected Resource Metadata (RFC 9728) is served at
    /// [`ResourceServer::metadata_url`](crate::auth::ResourceServer::metadata_url) by
    /// [`Server::serve_http`] (with [`Server::http_router`], merge
    /// [`ResourceServer::metadata_router`](crate::auth::ResourceServer::metadata_router) at your
    /// app's root). Handlers read the caller by taking a [`Caller`](crate::Caller). Not set by
    /// default: the endpoint checks no credentials, and a handler declaring `scopes` is refused
    /// (`403`). See [`auth`](crate::auth).
    #[cfg(feature = "auth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
    #[must_use]
    pub fn resource_server(mut self, server: crate::auth::ResourceServer) -> HttpOptions {
        self.resource_server = Some(Arc::new(server));
        self
    }

    /// The reconnection delay suggested to clients in SSE `retry` fields (1 s by default).
    #[must_use]
    pub fn retry(mut self, retry: Duration) -> HttpOptions {
        self.retry = retry;
        self
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
impl Server {
    /// The MCP endpoint as an axum `Router` answering at its root: mount it at any path of an
    /// existing app with `Router::nest("/mcp", ...)`. The app must use axum 0.8, the version
    /// this `Router` is of. Options [`serve_http`](Self::serve_http) would refuse to start
    /// with (a limit of 0, a host value no request could match) are said on stderr here, and
    /// the endpoint is mounted as given.
    ///
    /// ```
    /// use mcp_runtime::HttpOptions;
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Says hello.
    /// #[mcp_tool]
    /// fn hello() -> &'static str {
    ///     "Hello!"
    /// }
    ///
    /// let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).tool::<hello>().build()?;
    /// let app: axum::Router = axum::Router::new().nest("/mcp", server.http_router(HttpOptions::new()));
    /// // then: axum::serve(tokio::net::TcpListener::bind("127.0.0.1:8000").await?, app).await?
    /// # drop(app);
    /// # Ok::<(), mcp_runtime::BuildError>(())
    /// ```
    pub fn http_router(&self, options: HttpOptions) -> Router {
        if let Some(error) = options.problems() {
            // A `Router` cannot fail: what `serve_http` would refuse to start with is said on
            // stderr, and the endpoint is mounted as given.
            crate::stderr::line(format_args!(
                "mcp: the HTTP endpoint is mounted with options that refuse every request: {error}"
            ));
        }
        let state = Arc::new(handlers::HttpState::new(self.clone(), options));
        Router::new()
            .route("/", any(handlers::route))
            .with_state(state)
    }

    /// Serves Streamable HTTP at `/mcp` on a bound listener until the process ends.
    /// (To serve it at a path of an app of your own, mount [`http_router`](Self::http_router).)
    ///
    /// ```no_run
    /// use mcp_runtime::HttpOptions;
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Says hello.
    /// #[mcp_tool]
    /// fn hello() -> &'static str {
    ///     "Hello!"
    /// }
    ///
    /// #[tokio::main]
    /// async fn main() -> Result<(), mcp_runtime::Error> {
    ///     let server = mcp_runtime::server!().build()?;
    ///     let listener = tokio::net::TcpListener::bind("127.0.0.1:8000").await?;
    ///     server.serve_http(listener, HttpOptions::new()).await // http://127.0.0.1:8000/mcp
    /// }
    /// ```
    pub async fn serve_http(
        &self,
        listener: tokio::net::TcpListener,
        options: HttpOptions,
    ) -> Result<(), Error> {
        self.serve_http_with_shutdown(listener, options, std::future::pending())
            .await
    }

    /// [`serve_http`](Self::serve_http) until `shutdown` completes, then shuts down
    /// gracefully and returns: no new connection is accepted and `/ready` answers 503; the
    /// streams that wait on their client (GET streams, `subscriptions/listen` streams) end
    /// with an SSE `retry` hint ([`HttpOptions::retry`]), so that their clients reconnect,
    /// to another instance behind a balancer; each connection closes once its request in
    /// flight is answered; and it returns once all are closed, or after
    /// [`ServerBuilder::shutdown_grace`](crate::ServerBuilder::shutdown_grace), leaving what
    /// is still open to end with the runtime. `run` with `--http` does this on SIGTERM and
    /// Ctrl-C, and exits.
    ///
    /// ```no_run
    /// use mcp_runtime::HttpOptions;
    ///
    /// #[tokio::main]
    /// async fn main() -> Result<(), mcp_runtime::Error> {
    ///     let server = mcp_runtime::server!().build()?;
    ///     let listener = tokio::net::TcpListener::bind("127.0.0.1:8000").await?;
    ///     let ctrl_c = async {
    ///         let _ = tokio::signal::ctrl_c().await;
    ///     };
    ///     server.serve_http_with_shutdown(listener, HttpOptions::new(), ctrl_c).await
    /// }
    /// ```
    pub async fn serve_http_with_shutdown(
        &self,
        listener: tokio::net::TcpListener,
        options: HttpOptions,
        shutdown: impl Future<Output = ()>,
    ) -> Result<(), Error> {
        if let Some(error) = options.problems() {
            return Err(Error::Build(error));
        }
        let local = listener.local_addr()?;
        let options = options.with_port(local.port());
        // One endpoint at one path needs no router, which would cost every request a route
        // lookup, a clone of a boxed service and a boxed future: the endpoint is the service,
        // served by hyper with the connection limits.
        let state = Arc::new(handlers::HttpState::new(self.clone(), options.clone()));
        crate::stderr::line(format_args!(
            "{} {}: MCP over Streamable HTTP at http://{local}/mcp",
            self.core.info.name, self.core.info.version,
        ));
        serve::serve(
            listener,
            state,
            &options,
            shutdown,
            self.core.shutdown_grace,
        )
        .await;
        Ok(())
    }

    /// [`serve_http`](Self::serve_http) at `addr`, on a Tokio runtime of its own, for
    /// [`ServerBuilder::run`](crate::ServerBuilder::run).
    pub(crate) fn run_http(&self, addr: SocketAddr, options: HttpOptions) -> Result<(), Error> {
        tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?
            .block_on(async {
                let listener = tokio::net::TcpListener::bind(addr)
                    .await
                    .map_err(|error| cannot_listen(addr, &error))?;
                self.serve_http_with_shutdown(listener, options, terminated())
                    .await
            })
    }
}

/// Why listening on `addr` failed, with the address and what to do for the usual causes.
fn cannot_listen(addr: SocketAddr, error: &std::io::Error) -> std::io::Error {
    let hint = match error.kind() {
        std::io::ErrorKind::AddrInUse => {
            ": another program listens there; stop it, or give another port (`--http HOST:PORT`)"
        }
        std::io::ErrorKind::PermissionDenied if addr.port() < 1024 => {
            ": a port below 1024 needs privileges; give one of 1024 or above (`--http HOST:PORT`)"
        }
        std::io::ErrorKind::AddrNotAvailable => {
            ": no network interface of this machine has that address; give one it has, such as 127.0.0.1, or 0.0.0.0 for all"
        }
        _ => "",
    };
    std::io::Error::new(
        error.kind(),
        format!("cannot listen on {addr}: {error}{hint}"),
    )
}

/// Completes on SIGTERM (what an orchestrator sends to stop a process) or Ctrl-C.
async fn terminated() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    _ = terminate.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
    crate::stderr::line(format_args!("mcp: asked to stop: shutting down gracefully"));
}

impl HttpOptions {
    fn stream_limits(&self) -> stream::StreamLimits {
        stream::StreamLimits {
            replay_events: self.replay_events,
            replay_bytes: self.replay_bytes,
            queue: self.stream_queue,
        }
    }

    fn with_port(mut self, port: u16) -> HttpOptions {
        self.hosts = self.hosts.with_port(port);
        self
    }
}
