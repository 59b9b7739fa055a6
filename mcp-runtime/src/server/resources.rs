//! `resources/list`, `resources/templates/list`, `resources/read` and subscriptions.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::Session;
use super::dispatch::parse_params;
use super::panic::CatchUnwind;
use crate::jsonrpc::{ErrorCode, RequestId, RpcError, encode_result};
use crate::protocol::ReadResourceResult;

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

impl Session {
    pub(super) async fn read_resource(
        self: &Arc<Self>,
        id: &RequestId,
        params: Option<&RawValue>,
    ) -> Result<Vec<u8>, RpcError> {
        let UriParams { uri, meta } = parse_params("resources/read", params)?;
        let server = self.server();
        let (entry, variables) = server
            .resources
            .load()
            .resolve(&uri)
            .ok_or_else(|| not_found(&uri))?;
        let ctx = self.request_context(id.clone(), meta);
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

    pub(super) fn subscribe(
        &self,
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
            self.check_subscription_uri(&uri)?;
        }
        if on && self.server().resources.load().resolve(&uri).is_none() {
            return Err(not_found(&uri));
        }
        self.set_subscription(uri, on)?;
        Ok(encode_result(id, &json!({})))
    }
}
