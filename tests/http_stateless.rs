//! Revision 2026-07-28 over Streamable HTTP, with a real HTTP client, on the same endpoint as
//! the session-based revisions: the checks of basic/transports/streamable-http "Server
//! Validation" each with its status and code, stateless answers (no session, no event ids),
//! -32021 as 400, and `subscriptions/listen` as an event stream.

mod common;
#[path = "common/http.rs"]
mod http;

use std::time::Duration;

use http::request;
use mcp_runtime::prelude::*;
use mcp_runtime::{ClientError, HttpOptions, Server};
use serde_json::{Value, json};

/// Echoes.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

/// Needs the client's model.
#[mcp_tool]
async fn needs_sampling(ctx: Context) -> Result<String, ClientError> {
    ctx.ask_model("Say hi.", 10).await
}

/// Reports progress, then needs the client's model.
#[mcp_tool]
async fn progress_then_sampling(ctx: Context) -> Result<String, ClientError> {
    ctx.report_progress(1.0, None, None);
    ctx.ask_model("Say hi.", 10).await
}

/// Reports progress, then answers: its answer is a stream.
#[mcp_tool]
async fn steps(ctx: Context) -> String {
    for i in 1..=2 {
        ctx.report_progress(f64::from(i), Some(2.0), None);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    "done".to_owned()
}

/// Reports progress 100 times at once, then answers.
#[mcp_tool]
fn burst(ctx: Context) -> &'static str {
    for i in 1..=100 {
        ctx.report_progress(f64::from(i), Some(100.0), None);
    }
    "done"
}

/// Waits a little: a task for a client that declares the tasks extension.
#[mcp_tool(task_support = "optional")]
async fn slow() -> String {
    tokio::time::sleep(Duration::from_millis(50)).await;
    "slept".to_owned()
}

/// Added by the listen test.
#[mcp_tool]
fn later() -> &'static str {
    "later"
}

/// A tool mirroring four arguments into headers (`x-mcp-header`), one of them a property of
/// an object argument, written by hand.
fn mirrored() -> mcp_runtime::DynamicTool {
    let schema = json!({
        "type": "object",
        "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "count": {"type": "integer", "x-mcp-header": "Count"},
            "dry": {"type": "boolean", "x-mcp-header": "Dry-Run"},
            "target": {"type": "object", "properties": {
                "zone": {"type": "string", "x-mcp-header": "Zone"},
            }},
        },
    });
    let Value::Object(schema) = schema else {
        unreachable!()
    };
    mcp_runtime::DynamicTool::new("mirrored", "Mirrors its arguments into headers.")
        .input_schema(schema)
        .handler(|_ctx, _arguments| async move { mcp_runtime::CallToolResult::text("ran") })
}

fn server() -> Server {
    Server::builder(mcp_runtime::server_info!())
        .dynamic_tool(mirrored())
        .tool::<echo>()
        .tool::<needs_sampling>()
        .tool::<progress_then_sampling>()
        .tool::<steps>()
        .tool::<burst>()
        .tool::<slow>()
        .max_listeners(1)
        .build()
        .unwrap()
}

async fn start() -> (u16, mcp_runtime::ServerHandle) {
    let server = server();
    let handle = server.handle();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { server.serve_http(listener, HttpOptions::new()).await });
    (port, handle)
}

const ACCEPT: (&str, &str) = ("accept", "application/json, text/event-stream");
const REVISION: &str = "2026-07-28";

fn meta(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": REVISION,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "http-test", "version": "0"},
    })
}

fn message(id: u64, method: &str, mut params: Value) -> String {
    params["_meta"] = meta(json!({}));
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// Posts `body` with the standard headers of a 2026-07-28 request for `method` (and `name`).
async fn post(port: u16, method: &str, name: Option<&str>, body: &str) -> http::Response {
    let mut headers = vec![
        ACCEPT,
        ("mcp-protocol-version", REVISION),
        ("mcp-method", method),
    ];
    if let Some(name) = name {
        headers.push(("mcp-name", name));
    }
    request(port, "POST", &headers, body).await
}

/// A stateless request is answered at once, with no session and a typed result.
#[tokio::test]
async fn a_stateless_call_is_answered_without_a_session() {
    let (port, _) = start().await;
    let body = message(
        1,
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "hi"}}),
    );
    let response = post(port, "tools/call", Some("echo"), &body).await;
    assert_eq!(response.status, 200);
    assert!(response.header("mcp-session-id").is_none());
    let reply = response.json().await;
    assert_eq!(reply["id"], 1);
    assert_eq!(reply["result"]["content"][0]["text"], "hi");
    assert_eq!(reply["result"]["resultType"], "complete");
}

/// streamable-http "Server Validation": each standard header that is missing or disagrees
/// with the body, or is sent twice, is 400 with -32020; `Mcp-Name` may be base64-wrapped
/// (decoded strictly), but not `MCP-Protocol-Version` nor `Mcp-Method` ("For headers that
/// permit the Base64 sentinel encoding (`Mcp-Name` and `Mcp-Param-{Name}`)"), which are
/// compared as sent; values are compared exactly, after surrounding whitespace.
#[tokio::test]
async fn headers_that_disagree_with_the_body_are_header_mismatch() {
    let (port, _) = start().await;
    let body = message(
        7,
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "x"}}),
    );
    type Case<'a> = (&'a str, Vec<(&'a str, &'a str)>, u16, Option<i64>);
    let cases: [Case<'_>; 13] = [
        (
            "all agree",
            vec![
                ("mcp-protocol-version", REVISION),
                ("mcp-method", "tools/call"),
                ("mcp-name", "echo"),
            ],
            200,
            None,
        ),
        (
            "whitespace",
            vec![
                ("mcp-protocol-version", REVISION),
                ("mcp-method", " tools/call\t"),
                ("mcp-name", "echo "),
            ],
            200,
            None,
        ),
        (
            "base64 name",
            vec![
                ("mcp-protocol-version", REVISION),
                ("mcp-method", "tools/call"),
                ("mcp-name", "=?base64?ZWNobw==?="),
            ],
            200,
            None,
        ),
        (
            "no version header",
            vec![("mcp-method", "tools/call"), ("mcp-name", "echo")],
            400,
            Some(-32020),
        ),
        (
            "other method",
            vec![
                ("mcp-protocol-version", REVISION),
                ("mcp-method", "TOOLS/CALL"),
                ("mcp-name", "echo"),
            ],
            400,
            Some(-32020),
        ),
        (
            "no name",
            vec![
                ("mcp-protocol-version", REVISION),
                ("mcp-method", "tools/call"),
            ],
            400,
            Some(-32020),
        ),
        (
            "other name",
            vec![
                ("mcp-protocol-version", REVISION),
                ("mcp-method", "tools/call"),
                ("mcp-name", "steps"),
            ],
            400,
            Some(-32020),
        ),
        (
            "bad base64",
            vec![
                ("mcp-protocol-version", REVISION),
                ("mcp-method", "tools/call"),
                ("mcp-name", "=?base64?ZWNobw=?="),
            ],
            400,
            Some(-32020),
        ),
        (
            "base64 method",
            vec![
                ("mcp-protocol-version", REVISION),
                ("mcp-method", "=?base64?dG9vbHMvY2FsbA==?="),
                ("mcp-name", "echo"),
            ],
            400,
            Some(-32020),
        ),
        (
            "base64 version",
            vec![
                ("mcp-protocol-version", "=?base64?MjAyNi0wNy0yOA==?="),
                ("mcp-method", "tools/call"),
                ("mcp-name", "echo"),
            ],
            400,
            Some(-32020),
        ),
        (
            "name twice",
            vec![
                ("mcp-protocol-version", REVISION),
                ("mcp-method", "tools/call"),
                ("mcp-name", "echo"),
                ("mcp-name", "steps"),
            ],
            400,
            Some(-32020),
        ),
        (
            "method twice",
            vec![
                ("mcp-protocol-version", REVISION),
                ("mcp-method", "tools/call"),
                ("mcp-method", "prompts/get"),
                ("mcp-name", "echo"),
            ],
            400,
            Some(-32020),
        ),
        (
            "version twice",
            vec![
                ("mcp-protocol-version", REVISION),
                ("mcp-protocol-version", "2025-11-25"),
                ("mcp-method", "tools/call"),
                ("mcp-name", "echo"),
            ],
            400,
            Some(-32020),
        ),
    ];
    for (label, headers, status, code) in cases {
        let mut all = vec![ACCEPT];
        all.extend(headers);
        let response = request(port, "POST", &all, &body).await;
        assert_eq!(response.status, status, "{label}");
        let reply = response.json().await;
        assert_eq!(reply["id"], 7, "{label}: the error echoes the id");
        assert_eq!(reply["error"]["code"].as_i64(), code, "{label}: {reply}");
    }
}

/// A refused header says what to send instead: `MCP-Protocol-Version` and `Mcp-Method` that
/// are not ASCII are not told to use the base64 form (which they may not), a `name` that is
/// not a string is not called missing, a mirrored header without its argument is not said to
/// differ from it, and a session-based request's version that is not ASCII is shown.
#[tokio::test]
async fn a_refused_header_says_what_to_send() {
    let (port, _) = start().await;
    let call = |name: Value, arguments: Value| {
        message(
            8,
            "tools/call",
            json!({"name": name, "arguments": arguments}),
        )
    };
    let echo = call(json!("echo"), json!({"text": "x"}));
    type Case<'a> = (&'a str, String, Vec<(&'a str, &'a str)>, &'a str);
    let cases: [Case<'_>; 5] = [
        (
            "version not ASCII",
            echo.clone(),
            vec![
                ("mcp-protocol-version", "2026-07-28é"),
                ("mcp-method", "tools/call"),
                ("mcp-name", "echo"),
            ],
            "header is not visible ASCII: send the value the body has, as written (this header is never base64-encoded)",
        ),
        (
            "method not ASCII",
            echo,
            vec![
                ("mcp-protocol-version", REVISION),
                ("mcp-method", "tools/callé"),
                ("mcp-name", "echo"),
            ],
            "never base64-encoded",
        ),
        (
            "name not a string",
            call(json!(5), json!({})),
            vec![
                ("mcp-protocol-version", REVISION),
                ("mcp-method", "tools/call"),
                ("mcp-name", "5"),
            ],
            "the body's `name` is missing, or not a string",
        ),
        (
            "mirrored header without its argument",
            call(json!("mirrored"), json!({})),
            vec![
                ("mcp-protocol-version", REVISION),
                ("mcp-method", "tools/call"),
                ("mcp-name", "mirrored"),
                ("mcp-param-region", "eu"),
            ],
            "the mcp-param-region header is sent but the body has no argument `region`",
        ),
        (
            "session-based version not ASCII",
            json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list"}).to_string(),
            vec![("mcp-protocol-version", "2025-11-25é")],
            "unsupported MCP-Protocol-Version `2025-11-25é`",
        ),
    ];
    for (label, body, extra, says) in cases {
        let mut headers = vec![ACCEPT];
        headers.extend(extra);
        let response = request(port, "POST", &headers, &body).await;
        assert_eq!(response.status, 400, "{label}");
        let reply = response.json().await;
        let error = reply["error"]["message"].as_str().unwrap_or_default();
        assert!(error.contains(says), "{label}: {reply}");
        assert!(!error.contains("=?base64?"), "{label}: {reply}");
    }
}

/// basic/versioning and basic/index: the revision checks, with their statuses.
#[tokio::test]
async fn revision_and_meta_errors_have_their_statuses() {
    let (port, _) = start().await;
    // The body names an unknown revision, and so does the header: -32022, 400.
    let mut unknown: Value = serde_json::from_str(&message(2, "tools/list", json!({}))).unwrap();
    unknown["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("v999.0.0");
    let response = request(
        port,
        "POST",
        &[
            ACCEPT,
            ("mcp-protocol-version", "v999.0.0"),
            ("mcp-method", "tools/list"),
        ],
        &unknown.to_string(),
    )
    .await;
    assert_eq!(response.status, 400);
    let reply = response.json().await;
    assert_eq!(reply["error"]["code"], -32022);
    assert_eq!(reply["error"]["data"]["requested"], "v999.0.0");
    // The header says 2026-07-28 and the body v999.0.0: the headers are checked first.
    let response = post(port, "tools/list", None, &unknown.to_string()).await;
    assert_eq!(response.status, 400);
    assert_eq!(response.json().await["error"]["code"], -32020);
    // `_meta` without clientCapabilities: -32602, 400.
    let broken = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": REVISION}}});
    let response = post(port, "tools/list", None, &broken.to_string()).await;
    assert_eq!(response.status, 400);
    assert_eq!(response.json().await["error"]["code"], -32602);
    // The header names 2026-07-28 but the body claims nothing: -32602, 400; and `initialize`
    // under that header: -32020, 400.
    let bare = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list"}).to_string();
    let response = post(port, "tools/list", None, &bare).await;
    assert_eq!(response.status, 400);
    assert_eq!(response.json().await["error"]["code"], -32602);
    let initialize = json!({"jsonrpc": "2.0", "id": 5, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "c", "version": "1"}}})
    .to_string();
    let response = post(port, "initialize", None, &initialize).await;
    assert_eq!(response.status, 400);
    assert_eq!(response.json().await["error"]["code"], -32020);
}

/// streamable-http "Protocol Version Header": a method that does not exist in the revision
/// (removed, or unknown) is 404 with -32601.
#[tokio::test]
async fn removed_and_unknown_methods_are_404() {
    let (port, _) = start().await;
    for method in ["ping", "logging/setLevel", "unknown/method"] {
        let response = post(
            port,
            method,
            None,
            &message(8, method, json!({"level": "info"})),
        )
        .await;
        assert_eq!(response.status, 404, "{method}");
        assert_eq!(response.json().await["error"]["code"], -32601, "{method}");
    }
}

/// basic/index "Error Codes": -32021 is sent with 400 even when the handler raises it.
#[tokio::test]
async fn a_missing_client_capability_is_400() {
    let (port, _) = start().await;
    let body = message(
        9,
        "tools/call",
        json!({"name": "needs_sampling", "arguments": {}}),
    );
    let response = post(port, "tools/call", Some("needs_sampling"), &body).await;
    assert_eq!(response.status, 400);
    let reply = response.json().await;
    assert_eq!(reply["error"]["code"], -32021);
    assert_eq!(
        reply["error"]["data"]["requiredCapabilities"],
        json!({"sampling": {}})
    );
}

/// HTTP sends its status first: once a progress notification has made the answer a stream
/// (200), a -32021 that follows is the stream's last event, not a 400.
#[tokio::test]
async fn a_missing_client_capability_after_progress_ends_the_stream() {
    let (port, _) = start().await;
    let mut params = json!({"name": "progress_then_sampling", "arguments": {}});
    params["_meta"] = meta(json!({}));
    params["_meta"]["progressToken"] = json!("p");
    let body =
        json!({"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": params}).to_string();
    let mut response = post(port, "tools/call", Some("progress_then_sampling"), &body).await;
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    let mut events = Vec::new();
    while let Some((_, data)) = response.next_event().await {
        events.push(serde_json::from_str::<Value>(&data).unwrap());
    }
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[0]["method"], "notifications/progress");
    assert_eq!(events[1]["id"], 11);
    assert_eq!(events[1]["error"]["code"], -32021);
    assert_eq!(
        events[1]["error"]["data"]["requiredCapabilities"],
        json!({"sampling": {}})
    );
}

/// Nothing can resume a stateless answer's stream, so a reader that falls `stream_queue` events
/// behind misses progress (a stderr line says so), never the reply: the request is not cut
/// off with its answer lost.
#[tokio::test]
async fn a_slow_reader_of_a_stateless_stream_misses_progress_but_gets_the_reply() {
    let server = server();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        server
            .serve_http(listener, HttpOptions::new().stream_queue(4))
            .await
    });
    let mut params = json!({"name": "burst", "arguments": {}});
    params["_meta"] = meta(json!({}));
    params["_meta"]["progressToken"] = json!("b");
    let body =
        json!({"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": params}).to_string();
    let mut response = post(port, "tools/call", Some("burst"), &body).await;
    assert_eq!(response.status, 200);
    let mut events = Vec::new();
    while let Some((_, data)) = response.next_event().await {
        events.push(serde_json::from_str::<Value>(&data).unwrap());
    }
    let (reply, progress) = events.split_last().expect("events");
    assert_eq!(reply["id"], 12, "{events:?}");
    assert_eq!(reply["result"]["content"][0]["text"], "done");
    assert!(
        !progress.is_empty() && progress.len() < 100,
        "{} progress events",
        progress.len()
    );
    assert!(
        progress
            .iter()
            .all(|event| event["method"] == "notifications/progress")
    );
}

/// A stateless answer that streams carries no event ids (nothing can resume it) and no
/// priming event: the first event is the progress.
#[tokio::test]
async fn a_stateless_stream_has_no_event_ids() {
    let (port, _) = start().await;
    let mut params = json!({"name": "steps", "arguments": {}});
    params["_meta"] = meta(json!({}));
    params["_meta"]["progressToken"] = json!("t");
    let body =
        json!({"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": params}).to_string();
    let mut response = post(port, "tools/call", Some("steps"), &body).await;
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    let mut methods = Vec::new();
    while let Some((id, data)) = response.next_event().await {
        assert_eq!(id, None, "an event id on a stateless stream");
        let event: Value = serde_json::from_str(&data).unwrap();
        methods.push(event["method"].as_str().unwrap_or("reply").to_owned());
    }
    assert_eq!(
        methods,
        ["notifications/progress", "notifications/progress", "reply"]
    );
}

/// The session-based revisions keep working on the same endpoint.
#[tokio::test]
async fn a_session_is_still_served_beside() {
    let (port, _) = start().await;
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "c", "version": "1"}}})
    .to_string();
    let response = request(port, "POST", &[ACCEPT], &initialize).await;
    assert_eq!(response.status, 200);
    let session = response.header("mcp-session-id").unwrap().to_owned();
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string();
    let response = request(
        port,
        "POST",
        &[
            ACCEPT,
            ("mcp-session-id", &session),
            ("mcp-protocol-version", "2025-11-25"),
        ],
        &list,
    )
    .await;
    assert_eq!(response.status, 200);
    let reply = response.json().await;
    assert!(reply["result"]["tools"].is_array());
    assert!(reply["result"].get("resultType").is_none());
}

/// basic/patterns/subscriptions over HTTP: the listen request's answer is an event stream
/// whose first event is the acknowledgement; a change follows, tagged.
#[tokio::test]
async fn listen_is_an_event_stream_of_tagged_changes() {
    let (port, handle) = start().await;
    let body = message(
        11,
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true}}),
    );
    let mut response = post(port, "subscriptions/listen", None, &body).await;
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    let (_, first) = response.next_event().await.expect("the acknowledgement");
    let first: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(first["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        first["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        11
    );
    handle.add_tool::<later>().unwrap();
    let (_, change) = tokio::time::timeout(Duration::from_secs(5), response.next_event())
        .await
        .expect("the change within 5 s")
        .expect("an event");
    let change: Value = serde_json::from_str(&change).unwrap();
    assert_eq!(change["method"], "notifications/tools/list_changed");
    assert_eq!(
        change["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        11
    );
}

/// basic/patterns/cancellation: on HTTP, closing the listen stream ends the subscription, so
/// its place under `max_listeners` (1 here) is free again.
#[tokio::test]
async fn closing_a_listen_stream_ends_it() {
    let (port, _) = start().await;
    let listen = |id: u64| {
        message(
            id,
            "subscriptions/listen",
            json!({"notifications": {"toolsListChanged": true}}),
        )
    };
    let mut first = post(port, "subscriptions/listen", None, &listen(1)).await;
    first.next_event().await.expect("the acknowledgement");
    let refused = post(port, "subscriptions/listen", None, &listen(2))
        .await
        .json()
        .await;
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("max_listeners"),
        "{refused}"
    );
    drop(first);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let mut again = post(port, "subscriptions/listen", None, &listen(3)).await;
        if again.header("content-type") == Some("text/event-stream") {
            let (_, ack) = again.next_event().await.expect("the acknowledgement");
            assert!(ack.contains("notifications/subscriptions/acknowledged"));
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the closed stream still holds its place"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A listen stream can only be answered as an event stream: a client that takes only JSON is
/// told so (406) rather than left waiting for a reply that never comes (found by fuzzing).
#[tokio::test]
async fn listen_without_event_streams_is_not_acceptable() {
    let (port, _) = start().await;
    let body = message(
        12,
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true}}),
    );
    let response = request(
        port,
        "POST",
        &[
            ("accept", "application/json"),
            ("mcp-protocol-version", REVISION),
            ("mcp-method", "subscriptions/listen"),
        ],
        &body,
    )
    .await;
    assert_eq!(response.status, 406);
    let reply = tokio::time::timeout(Duration::from_secs(5), response.json())
        .await
        .expect("an answer, not a wait");
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("text/event-stream"),
        "{reply}"
    );
}

/// streamable-http "Custom Headers from Tool Parameters": each argument a tool mirrors
/// (`x-mcp-header`) must come in its `Mcp-Param-*` header exactly when it is in the body, and
/// equal it (strings as written or base64-wrapped, numbers by value, integers exactly,
/// booleans as words), a
/// nested one read at its path of properties ("Nested object properties are permitted"); any
/// other case is 400 with -32020 and the tool does not run.
#[tokio::test]
async fn mirrored_arguments_must_agree_with_their_headers() {
    let (port, _) = start().await;
    type Case<'a> = (&'a str, Value, Vec<(&'a str, &'a str)>, u16);
    let cases: [Case<'_>; 16] = [
        (
            "a mirrored header twice",
            json!({"region": "eu"}),
            vec![("mcp-param-region", "eu"), ("mcp-param-region", "us")],
            400,
        ),
        (
            "nested agrees",
            json!({"target": {"zone": "eu-west1"}}),
            vec![("mcp-param-zone", "eu-west1")],
            200,
        ),
        ("nested absent", json!({"target": {}}), vec![], 200),
        (
            "nested missing header",
            json!({"target": {"zone": "eu-west1"}}),
            vec![],
            400,
        ),
        (
            "nested other value",
            json!({"target": {"zone": "eu-west1"}}),
            vec![("mcp-param-zone", "us-east1")],
            400,
        ),
        (
            "all agree",
            json!({"region": "eu", "count": 3, "dry": true}),
            vec![
                ("mcp-param-region", "eu"),
                ("mcp-param-count", "3"),
                ("mcp-param-dry-run", "true"),
            ],
            200,
        ),
        (
            "numbers by value",
            json!({"count": 3}),
            vec![("mcp-param-count", "3.0")],
            200,
        ),
        (
            "integers exactly, past what a double holds",
            json!({"count": 9_007_199_254_740_993_i64}),
            vec![("mcp-param-count", "9007199254740992")],
            400,
        ),
        (
            "a large integer that agrees",
            json!({"count": 9_007_199_254_740_993_i64}),
            vec![("mcp-param-count", "9007199254740993")],
            200,
        ),
        (
            "base64",
            json!({"region": "été"}),
            vec![("mcp-param-region", "=?base64?w6l0w6k=?=")],
            200,
        ),
        ("null needs no header", json!({"region": null}), vec![], 200),
        ("missing header", json!({"region": "eu"}), vec![], 400),
        (
            "header without the argument",
            json!({}),
            vec![("mcp-param-region", "eu")],
            400,
        ),
        (
            "other value",
            json!({"region": "eu"}),
            vec![("mcp-param-region", "us")],
            400,
        ),
        (
            "boolean spelled otherwise",
            json!({"dry": true}),
            vec![("mcp-param-dry-run", "1")],
            400,
        ),
        (
            "bad base64",
            json!({"region": "Hello"}),
            vec![("mcp-param-region", "=?base64?SGVsbG8?=")],
            400,
        ),
    ];
    for (label, arguments, extra, status) in cases {
        let body = message(
            20,
            "tools/call",
            json!({"name": "mirrored", "arguments": arguments}),
        );
        let mut headers = vec![
            ACCEPT,
            ("mcp-protocol-version", REVISION),
            ("mcp-method", "tools/call"),
            ("mcp-name", "mirrored"),
        ];
        headers.extend(extra);
        let response = request(port, "POST", &headers, &body).await;
        assert_eq!(response.status, status, "{label}");
        let reply = response.json().await;
        if status == 200 {
            assert_eq!(
                reply["result"]["content"][0]["text"], "ran",
                "{label}: {reply}"
            );
        } else {
            assert_eq!(reply["error"]["code"], -32020, "{label}: {reply}");
        }
    }
}

/// server/tools "x-mcp-header": a client on Streamable HTTP drops a tool whose annotations
/// break the rules, so such a tool is a build error naming the rule, not a tool that
/// vanishes from the client's list.
#[test]
fn a_tool_with_a_misplaced_or_malformed_header_annotation_is_refused() {
    let refused = [
        (
            json!({"items": {"type": "string", "x-mcp-header": "Item"}, "type": "array"}),
            "not on a property reached from the root",
        ),
        (
            json!({"type": "number", "x-mcp-header": "Ratio"}),
            "not of type integer, string or boolean",
        ),
        (
            json!({"type": "string", "x-mcp-header": "Two Words"}),
            "cannot be in an HTTP header name",
        ),
    ];
    for (property, expected) in refused {
        let Value::Object(schema) = json!({"type": "object", "properties": {"p": property}}) else {
            unreachable!()
        };
        let tool =
            mcp_runtime::DynamicTool::new("bad", "Breaks a header rule.").input_schema(schema);
        let error = Server::builder(mcp_runtime::server_info!())
            .dynamic_tool(tool)
            .build()
            .err()
            .expect("refused");
        let message = error.to_string();
        assert!(message.contains("invalid tool `bad`"), "{message}");
        assert!(message.contains(expected), "{message}");
    }
}

/// basic/patterns/subscriptions "Graceful Closure": a graceful shutdown
/// (`serve_http_with_shutdown`) answers a listen request with a complete result tagged with
/// its `subscriptionId` (the schema's `SubscriptionsListenResult`), then ends the stream with
/// an SSE `retry` hint, so that its client listens again (elsewhere, behind a balancer), and
/// serving returns.
#[tokio::test]
async fn a_graceful_shutdown_closes_a_listen_stream_with_its_result() {
    let server = server();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let options = HttpOptions::new().retry(Duration::from_millis(1500));
    let serving = tokio::spawn(async move {
        server
            .serve_http_with_shutdown(listener, options, async {
                let _ = stopped.await;
            })
            .await
    });
    let body = message(
        3,
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true}}),
    );
    let mut response = post(port, "subscriptions/listen", None, &body).await;
    assert_eq!(response.status, 200);
    let (_, ack) = response.next_event().await.expect("the acknowledgement");
    assert!(
        ack.contains("notifications/subscriptions/acknowledged"),
        "{ack}"
    );
    stop.send(()).unwrap();
    let (id, closing) = tokio::time::timeout(Duration::from_secs(5), response.next_event())
        .await
        .expect("the closing result")
        .expect("an event before the end");
    assert_eq!(id, None, "a stateless stream's events carry no ids");
    let closing: Value = serde_json::from_str(&closing).unwrap();
    assert_eq!(closing["id"], 3, "{closing}");
    assert_eq!(closing["result"]["resultType"], "complete", "{closing}");
    assert_eq!(
        closing["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        3
    );
    let answers = Some("subscriptions/listen");
    common::check_message("2026-07-28", answers, &closing).unwrap();
    let rest = tokio::time::timeout(Duration::from_secs(5), response.text())
        .await
        .expect("the stream ends");
    assert_eq!(rest, "retry: 1500\n\n");
    tokio::time::timeout(Duration::from_secs(5), serving)
        .await
        .expect("serving returns")
        .unwrap()
        .unwrap();
    assert!(
        tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
    );
}

/// The tasks extension over HTTP: a call becomes a task (200, `resultType: "task"`), and
/// `tasks/get` must name the task in `Mcp-Name` (400 with -32020 when it is missing or
/// another), then shows the result once the task completes.
#[tokio::test]
async fn a_task_is_followed_with_its_id_in_mcp_name() {
    let (port, _) = start().await;
    let with_tasks = |id: u64, method: &str, mut params: Value| {
        params["_meta"] = meta(json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}));
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
    };
    let body = with_tasks(1, "tools/call", json!({"name": "slow", "arguments": {}}));
    let response = post(port, "tools/call", Some("slow"), &body).await;
    assert_eq!(response.status, 200);
    let created = response.json().await;
    assert_eq!(created["result"]["resultType"], "task");
    let task = created["result"]["taskId"].as_str().unwrap().to_owned();

    let get = with_tasks(2, "tasks/get", json!({"taskId": task}));
    for name in [None, Some("another-task")] {
        let response = post(port, "tasks/get", name, &get).await;
        assert_eq!(response.status, 400, "{name:?}");
        assert_eq!(response.json().await["error"]["code"], -32020, "{name:?}");
    }
    let mut status = Value::Null;
    for _ in 0..100 {
        let response = post(port, "tasks/get", Some(&task), &get).await;
        assert_eq!(response.status, 200);
        let reply = response.json().await;
        status = reply["result"]["status"].clone();
        if status == "completed" {
            assert_eq!(reply["result"]["result"]["content"][0]["text"], "slept");
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(status, "completed");
}
