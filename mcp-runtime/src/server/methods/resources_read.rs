//! `resources/read`, `resources/subscribe` and `resources/unsubscribe`: the methods that name
//! one resource by its URI, resolved to a static resource or the most specific template.
//! (`resources/list` and `resources/templates/list` are list methods, in `list`.)

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::{Request, parse_params};
use crate::jsonrpc::{ErrorCode, RequestId, RpcError, encode_result};
use crate::protocol::ReadResourceResult;
use crate::server::panic::CatchUnwind;
use crate::server::{ServerCore, Session};

#[derive(Deserialize)]
struct UriParams {
    uri: String,
    #[serde(default, rename = "_meta")]
    meta: Option<Map<String, Value>>,
}

fn not_found(uri: &str) -> RpcError {
    RpcError::new(ErrorCode::ResourceNotFound, "Resource not found")
        .with_data(json!({ "uri": uri }))
}

/// `resources/read`: reads the resource, or the template that matches the URI.
pub(super) async fn read_resource(
    request: &Request<'_>,
    params: Option<&RawValue>,
) -> Result<Vec<u8>, RpcError> {
    let id = &request.id;
    let UriParams { uri, meta } = parse_params("resources/read", params)?;
    let (entry, variables) = request
        .server()
        .resources
        .load()
        .resolve(&uri)
        .ok_or_else(|| not_found(&uri))?;
    let ctx = request.context(meta);
    let read = entry.read(ctx, uri.clone(), variables);
    let contents = match CatchUnwind(read).await {
        Ok(Ok(contents)) => contents,
        Ok(Err(error)) => {
            let mut error = RpcError::from(error);
            if error.code == ErrorCode::ResourceNotFound.code() && error.data.is_none() {
                error.data = Some(json!({ "uri": uri }));
            }
            return Err(error);
        }
        Err(panic) => {
            return Err(RpcError::internal(format!(
                "reading `{uri}` failed unexpectedly: {panic}"
            )));
        }
    };
    Ok(encode_result(id, &ReadResourceResult { contents }))
}

/// `resources/subscribe` (`on`) and `resources/unsubscribe`.
pub(super) fn subscribe(
    server: &ServerCore,
    session: &Session,
    id: &RequestId,
    params: Option<&RawValue>,
    on: bool,
) -> Result<Vec<u8>, RpcError> {
    let method = if on {
        "resources/subscribe"
    } else {
        "resources/unsubscribe"
    };
    let UriParams { uri, .. } = parse_params(method, params)?;
    if on {
        session.check_subscription_uri(&uri)?;
    }
    if on && server.resources.load().resolve(&uri).is_none() {
        return Err(not_found(&uri));
    }
    session.set_subscription(uri, on)?;
    Ok(encode_result(id, &json!({})))
}
