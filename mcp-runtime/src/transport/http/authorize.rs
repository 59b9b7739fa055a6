//! Who sent a request, and whether the handlers it would run may run for them: with a
//! [`ResourceServer`](crate::auth::ResourceServer) the access token's verified caller (or the
//! `401` refusing the request), without one an anonymous peer; then, once the body is read,
//! the scopes its `tools/call`, `prompts/get` or `resources/read` needs (`403` when lacking).

use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;

use super::HttpOptions;
use crate::auth::Authentication;
use crate::jsonrpc::{Incoming, RpcError};
use crate::server::ServerCore;
use crate::server::needed_by;

/// Who sent the request `uri` and `headers` belong to, or the answer refusing it.
#[cfg_attr(not(feature = "auth"), allow(clippy::unused_async))]
pub(super) async fn authenticate(
    options: &HttpOptions,
    uri: &Uri,
    headers: &HeaderMap,
) -> Result<Authentication, Box<Response>> {
    #[cfg(feature = "auth")]
    if let Some(server) = &options.resource_server {
        let caller = crate::auth::authenticate(server, uri, headers).await?;
        return Ok(Authentication::Caller(caller));
    }
    let _ = (options, uri, headers);
    Ok(Authentication::Anonymous)
}

/// The answer refusing `message` when a handler it would run needs scopes `authentication`
/// does not have.
pub(super) fn check_scopes(
    server: &ServerCore,
    options: &HttpOptions,
    authentication: &Authentication,
    message: &Incoming,
) -> Result<(), Box<Response>> {
    if matches!(authentication, Authentication::Local) {
        return Ok(());
    }
    let needed = needed_by(server, message);
    if needed.is_empty() {
        return Ok(());
    }
    #[cfg(feature = "auth")]
    if let (Some(resource_server), Authentication::Caller(caller)) =
        (&options.resource_server, authentication)
    {
        return match crate::auth::insufficient_scope(resource_server, caller, &needed) {
            Some(refusal) => Err(refusal),
            None => Ok(()),
        };
    }
    let _ = options;
    let refusals = needed
        .iter()
        .filter_map(|need| authentication.refuses(&need.handler, &need.scopes.to_vec()));
    match refusals.into_iter().next() {
        Some(why) => {
            let error = RpcError::new(crate::ErrorCode::InvalidRequest, why);
            let body = serde_json::json!({"jsonrpc": "2.0", "error": error});
            let mut response = Response::new(axum::body::Body::from(body.to_string()));
            *response.status_mut() = StatusCode::FORBIDDEN;
            response.headers_mut().insert(
                axum::http::header::CONTENT_TYPE,
                axum::http::HeaderValue::from_static("application/json"),
            );
            Err(Box::new(response))
        }
        None => Ok(()),
    }
}

/// The answer at the Protected Resource Metadata's path: the document to a GET (or HEAD), 405
/// to another method; `None` elsewhere.
pub(super) fn metadata(options: &HttpOptions, method: &Method, path: &str) -> Option<Response> {
    #[cfg(feature = "auth")]
    if let Some(server) = &options.resource_server
        && server.serves_metadata_at(path)
    {
        if method != Method::GET && method != Method::HEAD {
            let mut response = Response::new(axum::body::Body::empty());
            *response.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
            let allow = axum::http::HeaderValue::from_static("GET, HEAD");
            response
                .headers_mut()
                .insert(axum::http::header::ALLOW, allow);
            return Some(response);
        }
        return Some(crate::auth::metadata_response(server));
    }
    let _ = (options, method, path);
    None
}
