//! Accepting connections, with limits: hyper's HTTP/1.1 server with a timer, so a request's
//! headers must arrive within [`HttpOptions::header_read_timeout`] (hyper starts that clock
//! whenever it waits for a request, so a kept-alive connection idle between requests is closed
//! by it as well), a cap on open connections ([`HttpOptions::max_connections`]) and one per
//! peer address ([`HttpOptions::max_connections_per_peer`]), so one client cannot take them
//! all; a write that waits [`HttpOptions::write_timeout`] for a client to read closes its
//! connection (`write_deadline.rs`). A connection over the cap is answered `503 Service Unavailable` (over the peer's cap,
//! `429 Too Many Requests`) with `Retry-After` and closed, so the client learns why at once
//! instead of waiting in the listen backlog. Answering takes a
//! moment of its own, so at most [`REFUSING`] connections are being answered at once; past
//! that, a connection over the cap is closed without an answer.
//!
//! When the shutdown future completes, serving drains (`drain.rs`) and returns once every
//! connection has closed, or the grace period has passed.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::State;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

use super::HttpOptions;
use super::handlers::{HttpState, endpoint};
use super::write_deadline::WriteDeadline;
use crate::limit_log::LimitLog;

/// Serves `state`'s endpoint on `listener` until `shutdown` completes, then drains: accepts
/// no more, ends the streams that wait on their client, closes each connection once its
/// request in flight is answered, and returns when all are closed or `grace` has passed
/// (those still open then end with the runtime: at once when `run` exits).
pub(super) async fn serve(
    listener: TcpListener,
    state: Arc<HttpState>,
    options: &HttpOptions,
    shutdown: impl Future<Output = ()>,
    grace: Duration,
) {
    let capacity = options
        .max_connections
        .min(Semaphore::MAX_PERMITS)
        .min(u32::MAX as usize);
    let open = Arc::new(Semaphore::new(capacity));
    let refusing = Arc::new(Semaphore::new(REFUSING));
    let peers = Arc::new(Peers::default());
    static ACCEPT_FAILED: LimitLog = LimitLog::new();
    static AT_CAP: LimitLog = LimitLog::new();
    static AT_PEER_CAP: LimitLog = LimitLog::new();
    // A timeout too long to add to the clock is no timeout (hyper would overflow).
    let header_read_timeout = Some(options.header_read_timeout)
        .filter(|timeout| std::time::Instant::now().checked_add(*timeout).is_some());
    let write_timeout = options.write_timeout;
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let (stream, peer) = match accepted {
            Ok((stream, peer)) => (stream, peer.ip()),
            Err(error) => {
                // Out of file descriptors, most often: the connections in progress go on, and
                // accepting resumes when some close.
                ACCEPT_FAILED.hit(|| format!("accepting a connection failed: {error}"));
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
            let max = options.max_connections;
            AT_CAP.hit(|| {
                format!(
                    "{max} connections are open (HttpOptions::max_connections): a new one is refused with 503"
                )
            });
            if let Ok(permit) = Arc::clone(&refusing).try_acquire_owned() {
                tokio::spawn(async move {
                    refuse(stream, Refusal::Server).await;
                    drop(permit);
                });
            }
            continue;
        };
        let Some(held) = Peers::hold(&peers, peer, options.max_connections_per_peer) else {
            let max = options.max_connections_per_peer;
            AT_PEER_CAP.hit(|| {
                format!(
                    "{peer} has {max} connections open (HttpOptions::max_connections_per_peer): a new one is refused with 429"
                )
            });
            drop(permit);
            if let Ok(permit) = Arc::clone(&refusing).try_acquire_owned() {
                tokio::spawn(async move {
                    refuse(stream, Refusal::Peer).await;
                    drop(permit);
                });
            }
            continue;
        };
        let drain = Arc::clone(&state.drain);
        let state = Arc::clone(&state);
        tokio::spawn(async move {
            let _permit = permit;
            let _held = held;
            let service = hyper::service::service_fn(move |request: hyper::Request<_>| {
                let state = Arc::clone(&state);
                async move {
                    let request = request.map(Body::new);
                    Ok::<_, Infallible>(endpoint(State(state), request).await)
                }
            });
            let mut builder = http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_read_timeout);
            let stream = WriteDeadline::new(stream, write_timeout);
            let connection = builder.serve_connection(TokioIo::new(stream), service);
            tokio::pin!(connection);
            // A connection that fails (a timeout, a reset) concerns that client alone.
            tokio::select! {
                _ = connection.as_mut() => {}
                () = drain.started() => {
                    // The request in flight is answered, then the connection closes.
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
    }
    drop(listener);
    state.drain.start();
    let in_flight = capacity - open.available_permits();
    if in_flight > 0 {
        crate::stderr::line(format_args!(
            "mcp: shutting down: no new connections; waiting up to {} s for {in_flight} connection(s) to finish (ServerBuilder::shutdown_grace)",
            grace.as_secs_f64()
        ));
    }
    // Every connection holds a permit until it closes.
    let all_closed = open.acquire_many(capacity as u32);
    if tokio::time::timeout(grace, all_closed).await.is_err() {
        crate::stderr::line(format_args!(
            "mcp: shutting down: {} connection(s) still open after {} s are left to end with the runtime",
            capacity - open.available_permits(),
            grace.as_secs_f64()
        ));
    }
}

/// The connections each peer address holds open: O(1) to count one in or out.
#[derive(Default)]
struct Peers(Mutex<HashMap<IpAddr, usize>>);

/// One connection counted for its peer, until dropped.
struct PeerConnection {
    peers: Arc<Peers>,
    peer: IpAddr,
}

impl Peers {
    /// Counts a connection for `peer`, unless it holds `max` already.
    fn hold(peers: &Arc<Peers>, peer: IpAddr, max: usize) -> Option<PeerConnection> {
        let mut open = peers.0.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(peer).or_insert(0);
        if *count >= max {
            if *count == 0 {
                open.remove(&peer);
            }
            return None;
        }
        *count += 1;
        Some(PeerConnection {
            peers: Arc::clone(peers),
            peer,
        })
    }
}

impl Drop for PeerConnection {
    fn drop(&mut self) {
        let mut open = self.peers.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&self.peer) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.peer);
            }
        }
    }
}

/// Why a connection is refused.
#[derive(Clone, Copy)]
enum Refusal {
    /// The server holds as many connections as it allows.
    Server,
    /// This peer holds as many as one peer may.
    Peer,
}

/// How many connections over the cap may be being answered 503 at once.
const REFUSING: usize = 64;

/// How long a refused connection is given to take its answer.
const REFUSAL_TIME: Duration = Duration::from_secs(1);

/// Answers a connection over a cap (503 for the server's, 429 for the peer's) and closes it,
/// within [`REFUSAL_TIME`] for writing and as long again for the client to finish sending
/// (closing with unread input would reset the connection and lose the answer).
async fn refuse(mut stream: TcpStream, why: Refusal) {
    let (status, body) = match why {
        Refusal::Server => (
            "503 Service Unavailable",
            r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"the server has as many connections open as it allows (HttpOptions::max_connections): retry later"}}"#,
        ),
        Refusal::Peer => (
            "429 Too Many Requests",
            r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"this client has as many connections open as one client may (HttpOptions::max_connections_per_peer): close one, or retry later"}}"#,
        ),
    };
    let response = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\nretry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let written = tokio::time::timeout(REFUSAL_TIME, async {
        stream.write_all(response.as_bytes()).await?;
        stream.shutdown().await
    })
    .await;
    if !matches!(written, Ok(Ok(()))) {
        return;
    }
    let _ = tokio::time::timeout(REFUSAL_TIME, async {
        let mut sink = [0u8; 1024];
        while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {}
    })
    .await;
}
