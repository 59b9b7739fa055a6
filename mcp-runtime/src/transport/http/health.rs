//! `GET /health` and `GET /ready` beside `/mcp`, for load balancers and orchestrators, when
//! the server serves HTTP on its own ([`Server::serve_http`](crate::Server::serve_http), `run`
//! with `--http`; a router mounted in an app of its own leaves them to the app).
//!
//! `/health` is 200 while the process serves at all (a liveness probe: restart it otherwise).
//! `/ready` is 200 while the instance can serve as one of several: 503 while the bus shared
//! with the other instances (`ServerBuilder::redis`) is disconnected, so that a balancer sends
//! listeners elsewhere until it is back (a readiness probe). Both answer any Host: they tell
//! nothing but that, and a balancer's probe names the instance's address, not the public one.

use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::server::Server;

/// The answer to a probe at `path`, or `None` when `path` is not a probe's.
pub(super) fn probe(server: &Server, method: &Method, path: &str) -> Option<Response> {
    let ready = match path {
        "/health" => true,
        "/ready" => server.core.changes.ready(),
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
    let (status, text) = if ready {
        (StatusCode::OK, "ok\n")
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            "not ready: the bus shared with the other instances is disconnected\n",
        )
    };
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
