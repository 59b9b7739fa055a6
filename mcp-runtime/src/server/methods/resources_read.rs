//! `resources/read`, `resources/subscribe` and `resources/unsubscribe`: the methods that name
//! one resource by its URI, resolved to a static resource or the most specific template.
//! (`resources/list` and `resources/templates/list` are list methods, in `list`.)

use std::sync::Arc;

use serde_json::json;

use super::params_object::ParamsObject;
use super::{Request, input_required};
use crate::auth::refused;
use crate::jsonrpc::{ErrorCode, RpcError, encode_result};
use crate::protocol::ReadResourceResult;
use crate::server::panic::Caught;

/// The error for a URI the server has no resource for, naming it: -32002, which [`route`]
/// words as -32602 for a request of 2026-07-28 on.
///
/// [`route`]: super::route
fn not_found(uri: &str) -> RpcError {
    RpcError::new(ErrorCode::ResourceNotFound, "Resource not found")
        .with_data(json!({ "uri": uri }))
}

/// `resources/read`: reads the resource, or the template that matches the URI.
pub(super) async fn read_resource(
    request: &Request<'_>,
    params: Option<&str>,
) -> Result<Vec<u8>, RpcError> {
    let members = ParamsObject::of("resources/read", params)?;
    let uri: String = members.required("uri")?;
    request.server().check_uri(&uri)?;
    let has_meta = members.present("_meta")?.is_some();
    let (entry, variables) = request
        .server()
        .resources
        .load()
        .resolve(&uri)
        .ok_or_else(|| not_found(&uri))?;
    let shared = request.shared_params(has_meta, || params.map(Arc::from));
    let answers = input_required::may_carry_answers(params);
    let input = input_required::begin(request, "resources/read", &uri, shared.as_ref(), answers)?;
    let ctx = request
        .context(shared)
        .with_input(input.as_ref().map(input_required::Input::round));
    let read = Caught::call(&entry, ctx, (uri.clone(), variables));
    let outcome = match &input {
        None => read.await,
        Some(input) => match input.run(read).await {
            Ok(outcome) => outcome,
            Err(stopped) => return Ok(input.stopped(request, stopped)),
        },
    };
    let contents = match outcome {
        Ok(Ok(contents)) => contents,
        Ok(Err(error)) => {
            let mut error = RpcError::from(error);
            if error.code == ErrorCode::ResourceNotFound.code() {
                error.data = error.data.or_else(|| Some(json!({ "uri": uri })));
            }
            return Err(error);
        }
        Err(panic) => {
            return Err(RpcError::internal(format!(
                "reading `{uri}` failed unexpectedly: {panic}"
            )));
        }
    };
    Ok(request.reply_cacheable_for(&ReadResourceResult { contents }, entry.details.cache))
}

/// `resources/subscribe` (`on`) and `resources/unsubscribe`. Hearing of a resource's changes
/// needs the scopes reading it needs.
pub(super) fn subscribe(
    request: &Request<'_>,
    params: Option<&str>,
    on: bool,
) -> Result<Vec<u8>, RpcError> {
    let server = request.server();
    let method = if on {
        "resources/subscribe"
    } else {
        "resources/unsubscribe"
    };
    let uri: String = ParamsObject::of(method, params)?.required("uri")?;
    if on {
        server.check_uri(&uri)?;
        let Some((entry, _)) = server.resources.load().resolve(&uri) else {
            return Err(not_found(&uri));
        };
        let authentication = request.state.sink.authentication();
        if let Some(why) = refused(authentication, "resource", entry.key(), &entry.scopes) {
            return Err(RpcError::new(crate::ErrorCode::InvalidRequest, why));
        }
    }
    request.session.set_subscription(uri, on)?;
    Ok(encode_result(&request.id, &json!({})))
}
