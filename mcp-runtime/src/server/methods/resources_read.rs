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

/// What a `resources/read` names, checked before any resource is looked up: the URI, and
/// whether the params carry `_meta`.
fn read_params(request: &Request<'_>, params: Option<&str>) -> Result<(String, bool), RpcError> {
    let members = ParamsObject::of("resources/read", params)?;
    let uri: String = members.required("uri")?;
    request.server().check_uri(&uri)?;
    let has_meta = members.present("_meta")?.is_some();
    Ok((uri, has_meta))
}

/// `resources/read`: reads the resource, or the template that matches the URI.
pub(super) async fn read_resource(
    request: &Request<'_>,
    params: Option<&str>,
) -> Result<Vec<u8>, RpcError> {
    let (uri, has_meta) = read_params(request, params)?;
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

/// `resources/read` of a server that has no resource, whose program never made one (so
/// [`read_resource`] is not in its binary: `linked`): what that answers with none,
/// "Resource not found" once the params are read.
pub(super) fn read_without_resources(
    request: &Request<'_>,
    params: Option<&str>,
) -> Result<Vec<u8>, RpcError> {
    let (uri, _) = read_params(request, params)?;
    Err(not_found(&uri))
}

/// The URI a `resources/subscribe` (`on`) or `resources/unsubscribe` names.
fn subscribe_params(
    request: &Request<'_>,
    params: Option<&str>,
    on: bool,
) -> Result<String, RpcError> {
    let method = if on {
        "resources/subscribe"
    } else {
        "resources/unsubscribe"
    };
    let uri: String = ParamsObject::of(method, params)?.required("uri")?;
    if on {
        request.server().check_uri(&uri)?;
    }
    Ok(uri)
}

/// Records the subscription to `uri` (`on`) or its end, and answers.
fn set_subscription(request: &Request<'_>, uri: String, on: bool) -> Result<Vec<u8>, RpcError> {
    request.session.set_subscription(uri, on)?;
    Ok(encode_result(&request.id, &json!({})))
}

/// `resources/subscribe` (`on`) and `resources/unsubscribe`. Hearing of a resource's changes
/// needs the scopes reading it needs.
pub(super) fn subscribe(
    request: &Request<'_>,
    params: Option<&str>,
    on: bool,
) -> Result<Vec<u8>, RpcError> {
    let server = request.server();
    let uri = subscribe_params(request, params, on)?;
    if on {
        let Some((entry, _)) = server.resources.load().resolve(&uri) else {
            return Err(not_found(&uri));
        };
        let authentication = request.state.sink.authentication();
        if let Some(why) = refused(authentication, "resource", entry.key(), &entry.scopes) {
            return Err(RpcError::new(crate::ErrorCode::InvalidRequest, why));
        }
    }
    set_subscription(request, uri, on)
}

/// [`subscribe`] of a server that has no resource (see [`read_without_resources`]): a
/// subscription names no resource there, and its end is answered as ever.
pub(super) fn subscribe_without_resources(
    request: &Request<'_>,
    params: Option<&str>,
    on: bool,
) -> Result<Vec<u8>, RpcError> {
    let uri = subscribe_params(request, params, on)?;
    if on {
        return Err(not_found(&uri));
    }
    set_subscription(request, uri, on)
}
