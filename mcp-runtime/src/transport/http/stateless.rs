//! POSTs of the stateless revision (2026-07-28): a request whose `_meta` claims it is checked
//! in the order the specification gives (basic/transports/streamable-http "Server
//! Validation", basic/versioning), each refusal with its status: a malformed `_meta` 400 with
//! -32602; a standard header that is missing or disagrees with the body 400 with -32020; a
//! revision not served 400 with -32022; a method removed or of a capability the server lacks
//! 404 with -32601. What passes is served like any request, on a session of its own that
//! nothing outside the request reaches.

use std::borrow::Cow;

use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};

use crate::jsonrpc::{ErrorCode, IncomingRequest, RpcError};
use serde_json::Value;

use crate::protocol::{MirroredArgument, base64_decode};
use crate::server::Stateless;
use crate::server::params::Params;
use crate::server::{ServerCore, stateless_method};

pub(super) const VERSION_HEADER: HeaderName = HeaderName::from_static("mcp-protocol-version");
const METHOD_HEADER: HeaderName = HeaderName::from_static("mcp-method");
const NAME_HEADER: HeaderName = HeaderName::from_static("mcp-name");

/// A refusal: the HTTP status and the JSON-RPC error.
pub(super) type Refusal = (StatusCode, RpcError);

/// Admits a request that claims the stateless era, read in `params`: its checked envelope and
/// the layout of its params, or why not.
pub(super) fn admit(
    server: &ServerCore,
    headers: &HeaderMap,
    request: &IncomingRequest,
    mut params: Params<'_>,
) -> Result<Stateless, Refusal> {
    let bad_request = |error| (StatusCode::BAD_REQUEST, error);
    let claim = params.claim.take().expect("a claim was made");
    let checked = claim
        .check_shape(&server.last_client)
        .map_err(bad_request)?;
    let standard = StandardHeaders::of(headers);
    if let Some(name) = standard.repeated {
        return Err(repeated(name));
    }
    // A served revision's name is plain: equal bytes are enough.
    let (claimed, version_as_is) = match checked.claimed() {
        Ok(revision) => (
            revision.as_str(),
            sent_as_plain(standard.version, revision.as_str()),
        ),
        Err(version) => (version, sent_as_is(standard.version, version)),
    };
    if !version_as_is {
        match plain_header(standard.version, &VERSION_HEADER, AS_IN_THE_BODY)? {
            Some(version) if version == claimed => {}
            Some(version) => {
                return Err(mismatch(format!(
                    "the MCP-Protocol-Version header says `{version}` but `_meta` says `{claimed}`: send the same revision in both{}",
                    encoded_hint(version)
                )));
            }
            None => {
                return Err(mismatch(format!(
                    "missing MCP-Protocol-Version header: a request of revision {claimed} sends it, equal to `_meta`'s `io.modelcontextprotocol/protocolVersion`"
                )));
            }
        }
    }
    // The methods `Mcp-Name` names a field of are plain: `named_by` knows them.
    let named_field = named_by(&request.method);
    let method_as_is = match named_field {
        Some(_) => sent_as_plain(standard.method, &request.method),
        None => sent_as_is(standard.method, &request.method),
    };
    if !method_as_is {
        match plain_header(standard.method, &METHOD_HEADER, AS_IN_THE_BODY)? {
            Some(method) if method == request.method => {}
            Some(method) => {
                return Err(mismatch(format!(
                    "the Mcp-Method header says `{method}` but the body's method is `{}`{}",
                    request.method,
                    encoded_hint(method)
                )));
            }
            None => {
                return Err(mismatch(format!(
                    "missing Mcp-Method header: send `Mcp-Method: {}`",
                    request.method
                )));
            }
        }
    }
    if let Some(field) = named_field {
        let named = params.named(field);
        if !named.is_some_and(|named| sent_as_is(standard.name, named)) {
            match (header(standard.name, &NAME_HEADER)?, named) {
                (Some(name), Some(named)) if name == named => {}
                (Some(name), named) => {
                    return Err(mismatch(format!(
                        "the Mcp-Name header says `{name}` but the body's `{field}` is {}",
                        named.map_or_else(
                            || "missing, or not a string".to_owned(),
                            |n| format!("`{n}`")
                        )
                    )));
                }
                (None, _) => {
                    return Err(mismatch(format!(
                        "missing Mcp-Name header: `{}` requests send their `{field}` in it",
                        request.method
                    )));
                }
            }
        }
    }
    // The tool called is looked up once: for its mirrored arguments here, and for the call.
    let tool = match params.named("name") {
        Some(name) if request.method == "tools/call" => server.tools.load().get(name).cloned(),
        _ => None,
    };
    if let Some(tool) = &tool
        && !tool.details.mirrored.is_empty()
    {
        check_mirrored(headers, &tool.details.mirrored, &params)?;
    }
    let envelope = checked.into_envelope().map_err(bad_request)?;
    // A server with the tool called declares tools: only another request needs the check.
    if tool.is_none() {
        stateless_method(server, &request.method)
            .map_err(|error| (StatusCode::NOT_FOUND, error))?;
    }
    let layout = params.into_layout();
    let layout = match tool {
        Some(tool) => layout.with_tool(tool),
        None => layout,
    };
    Ok(Stateless { envelope, layout })
}

/// Checks the `Mcp-Param-*` headers of the arguments a tool mirrors (server/tools
/// "x-mcp-header"; streamable-http "Custom Headers from Tool Parameters"): each must be sent
/// exactly when the argument is in the body (and not `null`), and equal it, strings as
/// written (after base64 decoding), numbers by value, booleans as `true` or `false`. -32020
/// otherwise. A nested argument (`target.region`) is read at its path of properties.
fn check_mirrored(
    headers: &HeaderMap,
    mirrored: &[MirroredArgument],
    params: &Params<'_>,
) -> Result<(), Refusal> {
    for mirror in mirrored {
        let name = &mirror.header;
        let (top, nested) = mirror.path.split_first().expect("a property's path");
        let body = params
            .argument(top)
            .and_then(|text| serde_json::from_str::<Value>(text).ok())
            .and_then(|value| {
                nested.iter().try_fold(value, |value, key| match value {
                    Value::Object(mut object) => object.remove(key),
                    _ => None,
                })
            })
            .filter(|value| !value.is_null());
        let mut values = headers.get_all(name).iter();
        let sent = header(values.next(), name)?;
        if values.next().is_some() {
            return Err(repeated(name));
        }
        let argument = mirror.dotted();
        let agrees = match (body.as_ref(), sent.as_deref()) {
            (None, None) => true,
            (Some(Value::String(body)), Some(sent)) => body == sent,
            (Some(Value::Number(body)), Some(sent)) => same_number(body, sent),
            (Some(Value::Bool(body)), Some(sent)) => sent == if *body { "true" } else { "false" },
            (Some(_), None) => {
                return Err(mismatch(format!(
                    "missing {name} header: the tool mirrors argument `{argument}` into it, and the body has the argument"
                )));
            }
            (None, Some(_)) => {
                return Err(mismatch(format!(
                    "the {name} header is sent but the body has no argument `{argument}` (or it is null): send the header only with the argument"
                )));
            }
            _ => false,
        };
        if !agrees {
            return Err(mismatch(format!(
                "the {name} header does not equal argument `{argument}` of the body"
            )));
        }
    }
    Ok(())
}

/// Whether the header `sent` names the number `body`: an integer exactly (as a double, 2^53 + 1
/// would equal 2^53), written in decimal, or as a number a double holds exactly (`3.0`);
/// another number as the double it reads as.
fn same_number(body: &serde_json::Number, sent: &str) -> bool {
    const EXACT_IN_A_DOUBLE: u128 = 1 << 53;
    let integer = body
        .as_i64()
        .map(i128::from)
        .or_else(|| body.as_u64().map(i128::from));
    match integer {
        Some(body) => match sent.parse::<i128>() {
            Ok(sent) => sent == body,
            #[allow(clippy::cast_precision_loss)] // exact below 2^53
            Err(_) => {
                body.unsigned_abs() <= EXACT_IN_A_DOUBLE
                    && sent.parse::<f64>().is_ok_and(|sent| sent == body as f64)
            }
        },
        None => sent
            .parse::<f64>()
            .is_ok_and(|sent| body.as_f64() == Some(sent)),
    }
}

/// Whether a request without a claim must be refused because its header names the stateless
/// revision: `initialize` with -32020 (the header contradicts the handshake), any other
/// request with -32602 (its `_meta` lacks what the revision requires). Both 400.
pub(super) fn refuse_unclaimed(headers: &HeaderMap, method: &str) -> Result<(), Refusal> {
    let Ok(Some(version)) = plain_header(headers.get(&VERSION_HEADER), &VERSION_HEADER, "") else {
        return Ok(());
    };
    if !crate::Revision::parse(version).is_some_and(crate::Revision::is_stateless) {
        return Ok(());
    }
    if method == "initialize" {
        return Err(mismatch(format!(
            "`initialize` starts a session-based revision, but the MCP-Protocol-Version header says {version}: send `initialize` without that header, or name {version} in each request's `_meta` instead"
        )));
    }
    Err((
        StatusCode::BAD_REQUEST,
        RpcError::invalid_params(format!(
            "the MCP-Protocol-Version header says {version}, but `params._meta` does not name it: a request of revision {version} carries `io.modelcontextprotocol/protocolVersion` and `io.modelcontextprotocol/clientCapabilities` in `_meta`"
        )),
    ))
}

/// The params field `Mcp-Name` mirrors, for the methods that have one (each a name that
/// [`sent_as_plain`] may compare).
fn named_by(method: &str) -> Option<&'static str> {
    match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        "tasks/get" | "tasks/update" | "tasks/cancel" => Some("taskId"),
        _ => None,
    }
}

/// The first value of each standard header of the stateless revision, found in one pass over
/// the request's headers (three lookups by name would hash each name and probe the map).
struct StandardHeaders<'h> {
    version: Option<&'h HeaderValue>,
    method: Option<&'h HeaderValue>,
    name: Option<&'h HeaderValue>,
    /// One of them sent more than once, if any was.
    repeated: Option<&'h HeaderName>,
}

impl<'h> StandardHeaders<'h> {
    fn of(headers: &'h HeaderMap) -> StandardHeaders<'h> {
        let mut standard = StandardHeaders {
            version: None,
            method: None,
            name: None,
            repeated: None,
        };
        for (name, value) in headers {
            let slot = if *name == VERSION_HEADER {
                &mut standard.version
            } else if *name == METHOD_HEADER {
                &mut standard.method
            } else if *name == NAME_HEADER {
                &mut standard.name
            } else {
                continue;
            };
            if slot.replace(value).is_some() {
                standard.repeated = Some(name);
            }
        }
        standard
    }
}

/// -32020 for a header sent more than once: the server checks one value against the body,
/// and an intermediary that routes on another would act on what nobody checked.
fn repeated(name: impl std::fmt::Display) -> Refusal {
    mismatch(format!(
        "the {name} header is sent more than once: send it once, equal to the body"
    ))
}

/// Whether a header's value is `expected` as sent: plain text (visible ASCII, no spaces, not
/// `=?base64?...?=`) equal to it byte for byte, which [`header`] reads as itself. The usual
/// case, told without reading the value; any other takes [`header`].
fn sent_as_is(value: Option<&HeaderValue>, expected: &str) -> bool {
    sent_as_plain(value, expected) && is_plain(expected)
}

/// [`sent_as_is`] for `expected` known to be plain ([`is_plain`]: a revision's name, a method
/// [`named_by`] knows), which need not be looked at byte by byte.
fn sent_as_plain(value: Option<&HeaderValue>, expected: &str) -> bool {
    value.is_some_and(|value| value.as_bytes() == expected.as_bytes())
}

/// What to do with a `MCP-Protocol-Version` or `Mcp-Method` header that is not text.
const AS_IN_THE_BODY: &str =
    "send the value the body has, as written (this header is never base64-encoded)";

/// Visible ASCII without spaces, not `=?base64?...?=`: what [`header`] reads as itself.
fn is_plain(text: &str) -> bool {
    !text.starts_with("=?") && text.bytes().all(|byte| byte.is_ascii_graphic())
}

/// A header's value (of the header `name`) with surrounding whitespace removed, as sent: how
/// `MCP-Protocol-Version` and `Mcp-Method` are compared with the body, since only `Mcp-Name`
/// and `Mcp-Param-*` may be base64-encoded (streamable-http "Server Validation"); -32020 for a
/// value that is not text, saying `what_to_do`.
fn plain_header<'a>(
    value: Option<&'a HeaderValue>,
    name: impl std::fmt::Display,
    what_to_do: &str,
) -> Result<Option<&'a str>, Refusal> {
    let Some(value) = value else {
        return Ok(None);
    };
    let Ok(text) = value.to_str() else {
        return Err(mismatch(format!(
            "the {name} header is not visible ASCII: {what_to_do}"
        )));
    };
    // Visible ASCII, spaces and tabs only (`to_str`): only spaces and tabs are trimmed.
    Ok(Some(text.trim_ascii()))
}

/// [`plain_header`] with the `=?base64?...?=` form decoded, for the headers that may carry it
/// (`Mcp-Name`, `Mcp-Param-*`); -32020 for a value that is not valid base64 of UTF-8 text.
/// Borrowed from the request unless it was base64-encoded.
fn header(
    value: Option<&HeaderValue>,
    name: impl std::fmt::Display,
) -> Result<Option<Cow<'_, str>>, Refusal> {
    let Some(text) = plain_header(value, &name, "wrap other text as `=?base64?...?=`")? else {
        return Ok(None);
    };
    let Some(encoded) = text
        .strip_prefix("=?base64?")
        .and_then(|rest| rest.strip_suffix("?="))
    else {
        return Ok(Some(Cow::Borrowed(text)));
    };
    base64_decode(encoded)
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .map(|text| Some(Cow::Owned(text)))
        .ok_or_else(|| {
            mismatch(format!(
                "the {name} header's `=?base64?...?=` value is not valid base64 of UTF-8 text"
            ))
        })
}

/// What a mismatch's message adds when the header was sent base64-encoded where that form is
/// not taken.
fn encoded_hint(sent: &str) -> &'static str {
    if sent.starts_with("=?base64?") {
        " (this header is compared as sent: only Mcp-Name and Mcp-Param-* may be base64-encoded)"
    } else {
        ""
    }
}

fn mismatch(message: String) -> Refusal {
    (
        StatusCode::BAD_REQUEST,
        RpcError::new(ErrorCode::HeaderMismatch, message),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `header` reads of `sent`, as text (or why it refuses it).
    fn read(sent: &HeaderValue) -> Result<Option<String>, String> {
        header(Some(sent), "Mcp-Name")
            .map(|text| text.map(Cow::into_owned))
            .map_err(|(_, error)| error.message)
    }

    #[test]
    fn a_value_sent_as_is_is_what_the_full_read_makes_of_it() {
        for (sent, expected) in [
            (&b"2026-07-28"[..], "2026-07-28"),
            (b"tools/call", "tools/call"),
            (b"add", "add"),
            (b"a\"b", "a\"b"),
        ] {
            let sent = HeaderValue::from_bytes(sent).unwrap();
            assert!(sent_as_is(Some(&sent), expected), "{expected}");
            assert_eq!(read(&sent), Ok(Some(expected.to_owned())));
        }
    }

    #[test]
    fn the_names_compared_as_plain_are_plain() {
        for revision in crate::Revision::ALL {
            assert!(is_plain(revision.as_str()), "{revision}");
        }
        for method in [
            "tools/call",
            "prompts/get",
            "resources/read",
            "tasks/get",
            "tasks/update",
            "tasks/cancel",
        ] {
            assert!(named_by(method).is_some() && is_plain(method), "{method}");
        }
        // The same answer as the full check, for what it is given.
        let sent = HeaderValue::from_static("tools/call");
        assert!(sent_as_plain(Some(&sent), "tools/call"));
        assert!(!sent_as_plain(Some(&sent), "tools/list"));
        assert!(!sent_as_plain(None, "tools/call"));
    }

    #[test]
    fn any_other_value_is_left_to_the_full_read() {
        // Equal bytes, but the full read trims, decodes or refuses them.
        for sent in [
            &b"two words"[..],
            b"tab\there",
            b"=?base64?YWRk?=",
            b"=?base64?!?=",
            "caf\u{e9}".as_bytes(),
        ] {
            let value = HeaderValue::from_bytes(sent).unwrap();
            let as_text = String::from_utf8_lossy(sent);
            assert!(!sent_as_is(Some(&value), &as_text), "{as_text}");
        }
        let add = HeaderValue::from_static("add");
        assert!(!sent_as_is(Some(&add), "ad"));
        assert!(!sent_as_is(None, "add"));
        assert_eq!(
            read(&HeaderValue::from_static("=?base64?YWRk?=")),
            Ok(Some("add".to_owned()))
        );
    }
}
