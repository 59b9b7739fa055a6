//! Classifying one incoming message.
//!
//! Every input gets an answer: valid JSON that is not a request becomes an [`Incoming::Invalid`]
//! carrying the error to send (with the id when one could be read), and bytes that are not
//! JSON at all become a -32700 parse error with a null id.
//!
//! A message is read by the scanner of [`scan`](super::scan), which locates the envelope's
//! members without decoding them; the params of a request that a [`ParamsPass`] wants are
//! read by it in the same step, from the text the scanner found ([`parse_message_with`]), so
//! that they are located once. Anything unusual (text that is not JSON, an envelope member
//! named with escapes or twice, a `method` that is not a string) is read again by
//! serde_json, which classifies it and words its error as it always has.

use std::borrow::Cow;
use std::sync::Arc;

use serde::{Deserialize, Deserializer};
use serde_json::Value;
use serde_json::value::RawValue;

use super::scan::{Members, decoded, only_space};
use super::{ErrorCode, MAX_ID_BYTES, RequestId, RpcError, Text};

/// A request from the client: it gets exactly one reply.
#[derive(Debug)]
pub(crate) struct IncomingRequest {
    pub(crate) id: RequestId,
    pub(crate) method: Cow<'static, str>,
    pub(crate) params: Option<ParamsText>,
}

/// A message's params: a JSON object's text, as received and checked, shared by what reads
/// it later (the method, the arguments, the handler's `_meta`).
#[derive(Debug)]
pub(crate) struct ParamsText(Arc<str>);

impl ParamsText {
    /// The JSON text.
    pub(crate) fn get(&self) -> &str {
        &self.0
    }

    /// The JSON text, shared.
    pub(crate) fn into_shared(self) -> Arc<str> {
        self.0
    }
}

/// The client's answer to a request the server sent.
#[derive(Debug)]
pub(crate) struct IncomingResponse {
    pub(crate) id: RequestId,
    pub(crate) outcome: Result<serde_json::Value, RpcError>,
}

/// One message, classified.
#[derive(Debug)]
pub(crate) enum Incoming {
    Request(IncomingRequest),
    Notification {
        method: Cow<'static, str>,
        params: Option<ParamsText>,
    },
    Response(IncomingResponse),
    /// A JSON array: its elements, each classified (an array inside is invalid: batches do
    /// not nest).
    Batch(Vec<Incoming>),
    /// Not a valid message; the error is the reply.
    Invalid {
        id: Option<RequestId>,
        error: RpcError,
        /// Whether it has an `id` and no `method`: a malformed response, which is also the
        /// answer to the server's request of that id, if one waits (it fails at once rather
        /// than when its wait times out).
        as_response: bool,
    },
}

/// The members of a message, as JSON text (a `null` `error` or `method` counts as absent).
#[derive(Default, Deserialize)]
struct Envelope<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    jsonrpc: Option<&'a str>,
    #[serde(borrow, default, deserialize_with = "present")]
    id: Option<&'a str>,
    /// [`Text`], not `Cow<str>`: serde borrows a `Cow<str>` field, but not one inside an
    /// `Option`, which would cost every message a copy of its method name.
    #[serde(borrow, default)]
    method: Option<Text<'a>>,
    #[serde(borrow, default, deserialize_with = "present")]
    params: Option<&'a str>,
    #[serde(borrow, default, deserialize_with = "present")]
    result: Option<&'a str>,
    /// Read by [`error_object`] when the message is a response.
    #[serde(borrow, default, deserialize_with = "not_null")]
    error: Option<&'a str>,
}

/// Keeps a present field's JSON text even when its value is `null`, so `"id": null` is told
/// from no id (and, in a stateless request's `_meta`, a `null` revision still claims the era).
pub(crate) fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de str>, D::Error> {
    <&RawValue>::deserialize(d).map(|raw| Some(raw.get()))
}

/// A field's JSON text, `None` when it is absent or `null`.
fn not_null<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de str>, D::Error> {
    <Option<&RawValue>>::deserialize(d).map(|raw| raw.map(RawValue::get))
}

/// Classifies the bytes of one message (one line of stdio, one HTTP body).
pub(crate) fn parse_message(bytes: &[u8]) -> Incoming {
    parse_message_with(bytes, &NoPass, &mut None)
}

/// What reads a message's params when the message is read ([`parse_message_with`]), so that
/// they are located once.
pub(crate) trait ParamsPass<'de> {
    /// What the pass makes of the params.
    type Read;

    /// Whether to read the params of a message in the pass: `method` is its method, if it has
    /// one; `text` is the whole message.
    fn wanted(&self, method: Option<&str>, text: &str) -> bool;

    /// Reads the params object's members, `params`, to its end (each is checked as it is
    /// reached). `None` sends the message the ordinary way (serde_json's), without the pass.
    fn read(&self, params: &mut Members<'de>) -> Option<Self::Read>;
}

/// The pass that reads no params.
struct NoPass;

impl ParamsPass<'_> for NoPass {
    type Read = ();

    fn wanted(&self, _: Option<&str>, _: &str) -> bool {
        false
    }

    fn read(&self, _: &mut Members<'_>) -> Option<()> {
        None
    }
}

/// [`parse_message`], reading the params of a request `pass` wants when the message is read:
/// what `pass` read of them is left in `read`, if it did (written in place: it is large, and
/// moving it out through the results would copy it several times).
pub(crate) fn parse_message_with<'de, P: ParamsPass<'de>>(
    bytes: &'de [u8],
    pass: &P,
    read: &mut Option<P::Read>,
) -> Incoming {
    // Read as text once: serde_json then checks no string or raw value for UTF-8 again,
    // which reading bytes does for each (several hundred instructions a request), and the
    // binary holds one reader of serde_json's, not two. JSON is UTF-8 (RFC 8259, section 8.1):
    // other bytes are a parse error.
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => return not_utf8(&error),
    };
    if let Some(message) = scanned(text, pass, read) {
        return message;
    }
    *read = None;
    parse_text(text)
}

/// The message `text`, read by the scanner, and its params by `pass` if it wants them;
/// `None` for anything unusual, which serde_json then reads.
fn scanned<'de, P: ParamsPass<'de>>(
    text: &'de str,
    pass: &P,
    read: &mut Option<P::Read>,
) -> Option<Incoming> {
    let mut members = Members::of(text)?;
    let mut envelope = Envelope::default();
    // Members seen, one bit each: a repeated one is left to serde_json's error.
    let mut seen = 0u8;
    let mut unreadable_method = false;
    while let Some(name) = members.next_name().ok()? {
        if name.escaped {
            return None;
        }
        let bit = match &*name.bytes()? {
            b"jsonrpc" => 1,
            b"id" => 2,
            b"params" => 4,
            b"result" => 8,
            b"error" => 16,
            b"method" => 32,
            _ => 0,
        };
        if seen & bit != 0 {
            return None;
        }
        seen |= bit;
        if bit == 4 {
            // The params, read by the pass if it wants them and the method came first (as
            // clients write it); otherwise skipped here, and read by the pass below if wanted.
            let method = envelope.method.as_ref().map(|Text(m)| &**m);
            if method.is_some()
                && let Some(mut params) = members.nested()
                && pass.wanted(method, text)
            {
                *read = Some(pass.read(&mut params)?);
                envelope.params = Some(members.resume(&params));
                continue;
            }
        }
        let value = members.value().ok()?;
        match bit {
            1 => envelope.jsonrpc = Some(value),
            2 => envelope.id = Some(value),
            4 => envelope.params = Some(value),
            8 => envelope.result = Some(value),
            16 => envelope.error = (value != "null").then_some(value),
            32 => {
                envelope.method = match value {
                    "null" => None,
                    quoted => match decoded(quoted) {
                        Some(method) => Some(Text(method)),
                        // Checked JSON text, so a string that does not decode holds a lone
                        // surrogate: the message is JSON, the request invalid (with its id).
                        None if quoted.starts_with('"') => {
                            unreadable_method = true;
                            None
                        }
                        // Not a string: serde_json's error.
                        None => return None,
                    },
                }
            }
            _ => {}
        }
    }
    if !only_space(&text[members.end()..]) {
        return None;
    }
    if unreadable_method {
        let id = match request_id(envelope.id) {
            Ok(id) => id,
            Err(why) => return Some(invalid(None, why)),
        };
        return Some(invalid(
            id,
            "`method` is not text: a `\\u` escape in it stands for no character (a lone surrogate)",
        ));
    }
    if read.is_none()
        && let Some(params) = envelope.params
        && let Some(mut members) = Members::of(params)
        && pass.wanted(envelope.method.as_ref().map(|Text(m)| &**m), text)
    {
        *read = Some(pass.read(&mut members)?);
    }
    Some(classify(envelope))
}

/// [`parse_message`] of text that the scanner found unusual, read by serde_json.
fn parse_text(text: &str) -> Incoming {
    let first = text.bytes().find(|b| !b.is_ascii_whitespace());
    match first {
        Some(b'{') => match serde_json::from_str::<Envelope<'_>>(text) {
            Ok(envelope) => classify(envelope),
            Err(error) => not_an_envelope(text, &error),
        },
        Some(b'[') => match serde_json::from_str::<Vec<&RawValue>>(text) {
            Ok(items) if items.is_empty() => invalid(None, "an empty JSON array is not a batch"),
            Ok(items) => Incoming::Batch(items.into_iter().map(batch_item).collect()),
            Err(error) => parse_error(&error),
        },
        _ => match serde_json::from_str::<serde::de::IgnoredAny>(text) {
            Ok(_) => invalid(None, "a JSON-RPC message must be a JSON object"),
            Err(error) => parse_error(&error),
        },
    }
}

/// The parse error for bytes that are not UTF-8.
fn not_utf8(error: &std::str::Utf8Error) -> Incoming {
    let at = error.valid_up_to();
    Incoming::Invalid {
        id: None,
        error: RpcError::new(
            ErrorCode::ParseError,
            format!("invalid JSON: not UTF-8 (the byte at offset {at})"),
        ),
        as_response: false,
    }
}

/// One element of a batch: a message, or an error if it is an array itself (JSON-RPC 2.0,
/// section 6: the elements are Request objects).
fn batch_item(item: &RawValue) -> Incoming {
    match item.get().as_bytes().first() {
        Some(b'[') => invalid(None, "batches cannot be nested"),
        _ => scanned(item.get(), &NoPass, &mut None).unwrap_or_else(|| parse_text(item.get())),
    }
}

fn not_an_envelope(text: &str, error: &serde_json::Error) -> Incoming {
    if error.is_syntax() || error.is_eof() {
        return parse_error(error);
    }
    // Valid JSON with a field of the wrong type (say `"method": 5`): salvage the id if we can.
    let id = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|value| {
            let raw = serde_json::value::to_raw_value(value.get("id")?).ok()?;
            RequestId::from_json(raw.get())
        });
    invalid(id, format!("not a valid JSON-RPC message: {error}"))
}

fn parse_error(error: &serde_json::Error) -> Incoming {
    Incoming::Invalid {
        id: None,
        error: RpcError::new(ErrorCode::ParseError, format!("invalid JSON: {error}")),
        as_response: false,
    }
}

fn invalid(id: Option<RequestId>, message: impl Into<String>) -> Incoming {
    Incoming::Invalid {
        id,
        error: RpcError::invalid_request(message),
        as_response: false,
    }
}

/// [`invalid`] for a message with an `id` and no `method`: a malformed response.
fn malformed_response(id: RequestId, message: &str) -> Incoming {
    Incoming::Invalid {
        id: Some(id),
        error: RpcError::invalid_request(message),
        as_response: true,
    }
}

/// The message's `id` (its JSON text, if it has one), or why it cannot be one (the message is
/// then refused without an id).
fn request_id(text: Option<&str>) -> Result<Option<RequestId>, String> {
    match text {
        None => Ok(None),
        Some(text) if text.len() > MAX_ID_BYTES => Err(format!(
            "`id` is {} bytes long, over the server's limit of {MAX_ID_BYTES}: an id comes back in the reply and in every notification about the request, so use a shorter string or an integer",
            text.len()
        )),
        Some(text) => RequestId::from_json(text)
            .map(Some)
            .ok_or_else(|| format!("`id` must be a string or an integer, not {text}")),
    }
}

fn classify(envelope: Envelope<'_>) -> Incoming {
    let id = match request_id(envelope.id) {
        Ok(id) => id,
        Err(why) => return invalid(None, why),
    };
    // As written by every client; decoded only otherwise (`"2\u002e0"` is "2.0" as well).
    if envelope.jsonrpc != Some("\"2.0\"")
        && envelope.jsonrpc.and_then(decoded).as_deref() != Some("2.0")
    {
        return invalid(id, "`jsonrpc` must be exactly \"2.0\"");
    }
    match envelope.params.and_then(|p| p.as_bytes().first().copied()) {
        None | Some(b'{') => {}
        // JSON-RPC allows params by position; MCP names them all: "params?: { [key: string]:
        // unknown }" for requests and notifications alike (specification 2025-11-25, Base
        // Protocol > Messages). Valid JSON-RPC, invalid for every MCP method: -32602.
        Some(b'[') if envelope.method.is_some() => {
            return Incoming::Invalid {
                id,
                error: RpcError::invalid_params(
                    "`params` must be an object: MCP passes parameters by name, never by position (a JSON array)",
                ),
                as_response: false,
            };
        }
        Some(_) => return invalid(id, "`params` must be an object"),
    }
    let params = envelope.params.map(|text| ParamsText(Arc::from(text)));
    match (envelope.method, id) {
        (Some(method), Some(id)) => Incoming::Request(IncomingRequest {
            id,
            method: method_name(method.0),
            params,
        }),
        (Some(method), None) => Incoming::Notification {
            method: method_name(method.0),
            params,
        },
        (None, Some(id)) => match (envelope.result, envelope.error) {
            (Some(result), None) => Incoming::Response(IncomingResponse {
                id,
                outcome: Ok(serde_json::from_str(result).unwrap_or_default()),
            }),
            (None, Some(error)) => match error_object(error) {
                Some(error) => Incoming::Response(IncomingResponse {
                    id,
                    outcome: Err(error),
                }),
                None => malformed_response(
                    id,
                    "not a valid JSON-RPC message: `error` must be an object with an integer `code` and a string `message`",
                ),
            },
            _ => malformed_response(
                id,
                "a message with an `id` needs a `method` (a request) or exactly one of `result` and `error` (a response)",
            ),
        },
        (None, None) => invalid(None, "a JSON-RPC message needs a `method`"),
    }
}

/// A response's `error` object (`{code, message, data?}`), read through a `Value`: responses
/// carrying errors are rare, and the binary then holds no reader of its own for them.
fn error_object(text: &str) -> Option<RpcError> {
    let Ok(Value::Object(mut object)) = serde_json::from_str(text) else {
        return None;
    };
    let code = object.get("code")?.as_i64()?;
    let Some(Value::String(message)) = object.remove("message") else {
        return None;
    };
    let data = object.remove("data").filter(|data| !data.is_null());
    Some(RpcError {
        code,
        message,
        data,
    })
}

/// The methods clients send, kept as `'static` names: a message naming one costs no copy.
const KNOWN_METHODS: &[&str] = &[
    "tools/call",
    "tools/list",
    "resources/read",
    "resources/list",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/get",
    "prompts/list",
    "completion/complete",
    "initialize",
    "ping",
    "logging/setLevel",
    "server/discover",
    "subscriptions/listen",
    "notifications/initialized",
    "notifications/cancelled",
    "notifications/progress",
    "notifications/roots/list_changed",
];

fn method_name(method: Cow<'_, str>) -> Cow<'static, str> {
    match KNOWN_METHODS.iter().find(|known| **known == method) {
        Some(known) => Cow::Borrowed(known),
        None => Cow::Owned(method.into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classify_text(text: &str) -> Incoming {
        parse_message(text.as_bytes())
    }

    #[test]
    fn requests_notifications_and_responses_are_told_apart() {
        assert!(matches!(
            classify_text(r#"{"jsonrpc":"2.0","id":0,"method":"ping"}"#),
            Incoming::Request(IncomingRequest { ref method, .. }) if method == "ping"
        ));
        assert!(matches!(
            classify_text(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Incoming::Notification { .. }
        ));
        assert!(matches!(
            classify_text(r#"{"jsonrpc":"2.0","id":"s-1","result":{}}"#),
            Incoming::Response(IncomingResponse { outcome: Ok(_), .. })
        ));
        assert!(matches!(
            classify_text(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#),
            Incoming::Batch(ref items) if matches!(items[..], [Incoming::Request(_)])
        ));
    }

    #[test]
    fn broken_input_is_classified_with_the_right_code() {
        let code = |text: &str| match classify_text(text) {
            Incoming::Invalid { error, .. } => error.code,
            other => panic!("{text} was accepted as {other:?}"),
        };
        assert_eq!(code("{not json"), -32700);
        assert_eq!(code(""), -32700);
        assert_eq!(code("42"), -32600);
        assert_eq!(code("[]"), -32600);
        assert_eq!(code(r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#), -32600);
        assert_eq!(code(r#"{"jsonrpc":2.0,"id":1,"method":"ping"}"#), -32600);
        // The same string written with an escape is "2.0" (RFC 8259 section 7).
        assert!(matches!(
            classify_text(r#"{"jsonrpc":"2\u002e0","id":1,"method":"ping"}"#),
            Incoming::Request(_)
        ));
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#),
            -32600
        );
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":1,"method":5}"#), -32600);
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":1,"method":"x","params":3}"#),
            -32600
        );
    }

    /// A `method` whose `\u` escape stands for no character (RFC 8259 section 8.2: the
    /// grammar allows it, the text is no Unicode string) is JSON, so the message is an
    /// invalid request, answered with its id; an id that cannot be one is still refused.
    #[test]
    fn a_method_that_is_not_text_is_an_invalid_request_with_its_id() {
        for text in [
            r#"{"jsonrpc":"2.0","id":7,"method":"\ud800"}"#,
            r#"{"id":7,"method":"tools/\udc00call","jsonrpc":"2.0","params":{}}"#,
        ] {
            let Incoming::Invalid {
                id: Some(id),
                error,
                as_response: false,
            } = classify_text(text)
            else {
                panic!("{text}: {:?}", classify_text(text));
            };
            assert_eq!(id.as_json(), "7", "{text}");
            assert_eq!(error.code, -32600, "{text}");
            assert!(
                error.message.contains("lone surrogate"),
                "{}",
                error.message
            );
        }
        let Incoming::Invalid {
            id: None, error, ..
        } = classify_text(r#"{"jsonrpc":"2.0","id":[1],"method":"\ud800"}"#)
        else {
            panic!("an array id was taken");
        };
        assert!(error.message.contains("`id` must be"), "{}", error.message);
    }

    #[test]
    fn an_error_response_is_read_and_a_broken_one_refused_with_its_id() {
        let response =
            |error: &str| classify_text(&format!(r#"{{"jsonrpc":"2.0","id":4,"error":{error}}}"#));
        match response(r#"{"code":-32601,"message":"no","data":{"a":1},"extra":true}"#) {
            Incoming::Response(IncomingResponse {
                outcome: Err(error),
                ..
            }) => {
                assert_eq!(error.code, -32601);
                assert_eq!(error.message, "no");
                assert_eq!(error.data, Some(serde_json::json!({"a": 1})));
            }
            other => panic!("read as {other:?}"),
        }
        match response(r#"{"code":1,"message":"m","data":null}"#) {
            Incoming::Response(IncomingResponse {
                outcome: Err(error),
                ..
            }) => {
                assert_eq!(error.data, None);
            }
            other => panic!("read as {other:?}"),
        }
        for broken in [
            r#"{"code":"1","message":"m"}"#,
            r#"{"code":1.5,"message":"m"}"#,
            r#"{"message":"m"}"#,
            r#"{"code":1}"#,
            r#"{"code":1,"message":2}"#,
            "[1]",
        ] {
            match response(broken) {
                Incoming::Invalid {
                    id: Some(id),
                    error,
                    ..
                } => {
                    assert_eq!(id.as_json(), "4");
                    assert_eq!(error.code, -32600, "{broken}");
                }
                other => panic!("{broken} was read as {other:?}"),
            }
        }
        // `"error": null` is no error: with no `result` either, not a response.
        assert!(matches!(response("null"), Incoming::Invalid { .. }));
    }

    #[test]
    fn bytes_that_are_not_utf8_are_a_parse_error_wherever_they_are() {
        for bytes in [
            &b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffng\"}"[..],
            b"\xff",
            b"\"\xc3\"",
            b"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"a\":\"\xfe\"}}]",
        ] {
            match parse_message(bytes) {
                Incoming::Invalid {
                    id: None, error, ..
                } => {
                    assert_eq!(error.code, -32700);
                    assert!(error.message.contains("not UTF-8"), "{}", error.message);
                }
                other => panic!("{bytes:?} was accepted as {other:?}"),
            }
        }
    }

    #[test]
    fn fractional_and_exponent_ids_are_invalid_requests_without_an_id() {
        for text in [
            r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1e3,"method":"ping"}"#,
        ] {
            match classify_text(text) {
                Incoming::Invalid {
                    id: None, error, ..
                } => {
                    assert_eq!(error.code, -32600);
                    assert!(error.message.contains("string or an integer"), "{error}");
                }
                other => panic!("{text} was classified as {other:?}"),
            }
        }
    }

    #[test]
    fn positional_params_are_invalid_params_with_the_id() {
        match classify_text(
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":["echo",{}]}"#,
        ) {
            Incoming::Invalid {
                id: Some(id),
                error,
                ..
            } => {
                assert_eq!(id.as_json(), "4");
                assert_eq!(error.code, -32602);
            }
            other => panic!("unexpected {other:?}"),
        }
        assert!(matches!(
            classify_text(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":[4]}"#),
            Incoming::Invalid { id: None, error, .. } if error.code == -32602
        ));
    }

    #[test]
    fn a_nested_batch_is_an_invalid_element() {
        match classify_text("[[1],[]]") {
            Incoming::Batch(items) => {
                assert_eq!(items.len(), 2);
                for item in items {
                    assert!(
                        matches!(&item, Incoming::Invalid { id: None, error, .. } if error.code == -32600 && error.message.contains("nested")),
                        "{item:?}"
                    );
                }
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    /// Reads every params object in the pass, member by member, as a method would.
    struct EveryParams;

    impl ParamsPass<'_> for EveryParams {
        type Read = Value;

        fn wanted(&self, _: Option<&str>, _: &str) -> bool {
            true
        }

        fn read(&self, params: &mut Members<'_>) -> Option<Value> {
            while params.next().ok()?.is_some() {}
            serde_json::from_str(params.object()).ok()
        }
    }

    /// What a message was classified as, with its params' text.
    fn summary(message: &Incoming) -> String {
        let text = |params: &Option<ParamsText>| params.as_ref().map(|p| p.get().to_owned());
        match message {
            Incoming::Request(IncomingRequest { id, method, params }) => {
                format!("request {} {method} {:?}", id.as_json(), text(params))
            }
            Incoming::Notification { method, params } => {
                format!("notification {method} {:?}", text(params))
            }
            Incoming::Invalid { id, error, .. } => {
                format!(
                    "invalid {:?} {error:?}",
                    id.as_ref().map(RequestId::as_json)
                )
            }
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn params_read_with_the_message_are_those_the_ordinary_pass_finds() {
        // Read in the one pass: the params' text is exactly theirs, wherever they are.
        for text in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{}}}"#,
            " { \"params\" :\t{ \"a\" : [1, {\"b\": \"} ,\"}] } ,\n\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"m\" }\r\n",
            r#"{"jsonrpc":"2.0","method":"m","params":{ } }"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"m","params":{"x":"\"}"},"error":null}"#,
        ] {
            let mut read = None;
            let message = parse_message_with(text.as_bytes(), &EveryParams, &mut read);
            assert_eq!(
                summary(&message),
                summary(&parse_message(text.as_bytes())),
                "{text}"
            );
            let params = match &message {
                Incoming::Request(request) => request.params.as_ref(),
                Incoming::Notification { params, .. } => params.as_ref(),
                _ => None,
            };
            let params: Value = serde_json::from_str(params.expect("params").get()).unwrap();
            assert_eq!(read, Some(params), "{text}");
        }
        // Anything unusual is read the ordinary way, with the ordinary errors.
        for text in [
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1},"params":{"a":2}}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"m","params":{"a":1}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","p\u0061rams":{"a":1}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":[1]}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":3}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":5,"params":{"a":1}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1}} x"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1"#,
        ] {
            let mut read = None;
            let message = parse_message_with(text.as_bytes(), &EveryParams, &mut read);
            assert_eq!(
                summary(&message),
                summary(&parse_message(text.as_bytes())),
                "{text}"
            );
            assert!(read.is_none(), "{text}");
        }
    }

    #[test]
    fn the_id_of_an_invalid_request_is_kept_when_readable() {
        match classify_text(r#"{"jsonrpc":"2.0","id":7,"method":5}"#) {
            Incoming::Invalid { id: Some(id), .. } => assert_eq!(id.as_json(), "7"),
            other => panic!("unexpected {other:?}"),
        }
    }
}
