//! `GET /health` and `GET /ready` beside `/mcp`, for load balancers and orchestrators, when
//! the server serves HTTP on its own ([`Server::serve_http`](crate::Server::serve_http), `run`
//! with `--http`; a router mounted in an app of its own leaves them to the app).
//!
//! `/health` is 200 while the process serves at all (a liveness probe: restart it otherwise).
//! `/ready` is 200 while the instance takes new requests (a readiness probe, a balancer's
//! health check), 503 once it shuts down (`drain.rs`); its text says whether the bus shared with the other instances
//! (`ServerBuilder::redis`) is connected, but a disconnected bus does not make it 503, since
//! every request is still served, and a Redis down would otherwise take every instance out
//! at once. Both answer any Host: they tell nothing else, and a balancer's probe names the
//! instance's address, not the public one.

use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::handlers::HttpState;

/// The answer to a probe at `path`, or `None` when `path` is not a probe's.
pub(super) fn probe(state: &HttpState, method: &Method, path: &str) -> Option<Response> {
    let (status, text) = match path {
        "/health" => (StatusCode::OK, "ok\n"),
        "/ready" if state.drain.is_draining() => (
            StatusCode::SERVICE_UNAVAILABLE,
            "shutting down: finishing the requests in flight\n",
        ),
        "/ready" if state.server.core.changes.connected() => (StatusCode::OK, "ready\n"),
        "/ready" => (
            StatusCode::OK,
            "ready; the bus shared with the other instances is reconnecting: changes reach this instance's listeners only\n",
        ),
        _ => return None,
    };
    if method != Method::GET && method != Method::HEAD {
        return Some(
            (
                StatusCode::METHOD_NOT_ALLOWED,
                [(header::ALLOW, "GET, HEAD")],
            )
                .into_response(),
        );
    }
    Some(
        (
            status,
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
                (header::CACHE_CONTROL, "no-store"),
            ],
            text,
        )
            .into_response(),
    )
}
