//! The Streamable HTTP transport with a real HTTP client: sessions, JSON and SSE answers,
//! server-to-client requests, the standalone stream, resumption, and the security checks.

#[path = "common/http.rs"]
mod http;

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use http::{request, request_at};
use mcp_runtime::prelude::*;
use mcp_runtime::{ClientError, DynamicTool, Elicitation, HttpOptions, Server};
use serde_json::{Value, json};

/// Echoes.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

/// Reports progress three times, then answers.
#[mcp_tool]
async fn steps(ctx: Context) -> String {
    for i in 1..=3 {
        ctx.report_progress(f64::from(i), Some(3.0), None);
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    "done".to_owned()
}

#[derive(Deserialize, JsonSchema)]
struct Name {
    name: String,
}

/// Asks the user for a name.
#[mcp_tool]
async fn ask_name(ctx: Context) -> Result<String, ClientError> {
    Ok(match ctx.elicit::<Name>("Your name?").await? {
        Elicitation::Accept(Name { name }) => format!("hello {name}"),
        _ => "no name".to_owned(),
    })
}

static STOPPED: AtomicBool = AtomicBool::new(false);

/// Sleeps; records being cancelled.
#[mcp_tool]
async fn nap(ctx: Context) -> String {
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs(10)) => "rested".to_owned(),
        () = ctx.cancelled() => {
            STOPPED.store(true, Ordering::SeqCst);
            "stopped".to_owned()
        }
    }
}

/// Adds a tool.
#[mcp_tool]
fn grow(ctx: Context) -> Result<String, mcp_runtime::BuildError> {
    ctx.server()
        .add_dynamic_tool(DynamicTool::new("grown", "A new tool."))?;
    Ok("grown".to_owned())
}

/// The tags of the `wait` calls that were cancelled.
static CANCELLED: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Reports progress first if `progress`, then waits to be cancelled; records `tag` if it is.
#[mcp_tool]
async fn wait(ctx: Context, tag: String, progress: bool) -> String {
    if progress {
        ctx.report_progress(1.0, None, None);
    }
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs(10)) => "waited".to_owned(),
        () = ctx.cancelled() => {
            CANCELLED.lock().unwrap().push(tag);
            "cancelled".to_owned()
        }
    }
}

fn was_cancelled(tag: &str) -> bool {
    CANCELLED.lock().unwrap().iter().any(|t| t == tag)
}

/// Ends its event stream before sending anything, then answers.
#[mcp_tool]
async fn hang_up(ctx: Context) -> String {
    ctx.close_stream();
    tokio::time::sleep(Duration::from_millis(50)).await;
    "after the hang-up".to_owned()
}

fn server() -> Server {
    Server::builder(mcp_runtime::server_info!())
        .tool::<echo>()
        .tool::<steps>()
        .tool::<ask_name>()
        .tool::<nap>()
        .tool::<grow>()
        .tool::<wait>()
        .tool::<hang_up>()
        .build()
        .unwrap()
}

async fn start(options: HttpOptions) -> u16 {
    let server = server();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { server.serve_http(listener, options).await });
    port
}

const ACCEPT: (&str, &str) = ("accept", "application/json, text/event-stream");

fn initialize(version: &str, capabilities: Value) -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": capabilities,
        "clientInfo": {"name": "http-test", "version": "0"}}})
    .to_string()
}

/// Initializes a session; returns its id.
async fn session(port: u16, version: &str, capabilities: Value) -> String {
    let response = request(port, "POST", &[ACCEPT], &initialize(version, capabilities)).await;
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("application/json"));
    let id = response
        .header("mcp-session-id")
        .expect("a session id")
        .to_owned();
    let body = response.json().await;
    assert_eq!(body["result"]["protocolVersion"], version);
    let note = request(
        port,
        "POST",
        &[
            ACCEPT,
            ("mcp-session-id", &id),
            ("mcp-protocol-version", version),
        ],
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    )
    .await;
    assert_eq!(note.status, 202);
    assert_eq!(note.text().await, "");
    id
}

fn call(id: u64, tool: &str, arguments: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments, "_meta": {"progressToken": format!("p{id}")}}}).to_string()
}

#[tokio::test]
async fn initialize_issues_a_random_visible_session_id_required_afterwards() {
    let port = start(HttpOptions::new()).await;
    let id = session(port, "2025-11-25", json!({})).await;
    assert_eq!(id.len(), 32);
    assert!(id.chars().all(|c| c.is_ascii_hexdigit()));
    assert_ne!(session(port, "2025-11-25", json!({})).await, id);

    let ok = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        &call(2, "echo", json!({"text": "hi"})),
    )
    .await;
    assert_eq!(ok.status, 200);
    assert_eq!(ok.json().await["result"]["content"][0]["text"], "hi");

    let missing = request(
        port,
        "POST",
        &[ACCEPT],
        &call(3, "echo", json!({"text": "hi"})),
    )
    .await;
    assert_eq!(missing.status, 400);
    let unknown = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", "0123")],
        &call(3, "echo", json!({"text": "x"})),
    )
    .await;
    assert_eq!(unknown.status, 404);

    let deleted = request(port, "DELETE", &[("mcp-session-id", &id)], "").await;
    assert_eq!(deleted.status, 204);
    let after = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        &call(4, "echo", json!({"text": "x"})),
    )
    .await;
    assert_eq!(after.status, 404);
}

#[tokio::test]
async fn foreign_hosts_and_origins_are_forbidden() {
    let port = start(HttpOptions::new()).await;
    let body = initialize("2025-11-25", json!({}));
    for headers in [
        vec![ACCEPT, ("host", "evil.example")],
        vec![ACCEPT, ("origin", "http://evil.example")],
        vec![ACCEPT, ("host", "localhost:1")],
    ] {
        let response = request(port, "POST", &headers, &body).await;
        assert_eq!(response.status, 403, "{headers:?}");
    }
    let local_origin = format!("http://localhost:{port}");
    let response = request(port, "POST", &[ACCEPT, ("origin", &local_origin)], &body).await;
    assert_eq!(response.status, 200);
}

#[tokio::test]
async fn oversized_bodies_get_413_and_bad_versions_400() {
    let port = start(HttpOptions::new().max_body_bytes(1024)).await;
    let big = call(9, "echo", json!({"text": "x".repeat(5000)}));
    assert_eq!(request(port, "POST", &[ACCEPT], &big).await.status, 413);
    let id = session(port, "2025-06-18", json!({})).await;
    let response = request(
        port,
        "POST",
        &[
            ACCEPT,
            ("mcp-session-id", &id),
            ("mcp-protocol-version", "1999-01-01"),
        ],
        &call(2, "echo", json!({"text": "hi"})),
    )
    .await;
    assert_eq!(response.status, 400);
    let garbage = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        "{not json",
    )
    .await;
    assert_eq!(garbage.status, 400);
    assert_eq!(garbage.json().await["error"]["code"], -32700);
}

/// A 2025-03-26 batch whose request reports progress: the progress, then the batch's replies
/// as one array, which ends the stream.
#[tokio::test]
async fn a_batch_is_answered_on_a_stream_that_its_array_of_replies_ends() {
    let port = start(HttpOptions::new()).await;
    let id = session(port, "2025-03-26", json!({})).await;
    let batch = format!(
        "[{},{}]",
        call(41, "steps", json!({})),
        json!({"jsonrpc": "2.0", "id": 42, "method": "ping"})
    );
    let mut response = request(
        port,
        "POST",
        &[
            ACCEPT,
            ("mcp-session-id", &id),
            ("mcp-protocol-version", "2025-03-26"),
        ],
        &batch,
    )
    .await;
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    let mut progress = 0;
    let replies = loop {
        let (_, data) = response
            .next_event()
            .await
            .expect("events until the replies");
        let message: Value = serde_json::from_str(&data).unwrap();
        if message["method"] == "notifications/progress" {
            progress += 1;
        } else {
            break message;
        }
    };
    assert_eq!(progress, 3);
    let mut ids: Vec<u64> = replies
        .as_array()
        .expect("the batch's replies as one array")
        .iter()
        .map(|reply| reply["id"].as_u64().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, [41, 42]);
    assert!(
        response.next_event().await.is_none(),
        "the stream ends after the replies"
    );
}

#[tokio::test]
async fn a_request_that_reports_progress_is_answered_on_its_own_event_stream() {
    let port = start(HttpOptions::new()).await;
    let id = session(port, "2025-11-25", json!({})).await;
    let mut response = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        &call(7, "steps", json!({})),
    )
    .await;
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    let (priming_id, priming) = response.next_event().await.unwrap();
    assert!(
        priming_id.is_some(),
        "2025-11-25 streams start with a priming event"
    );
    assert_eq!(priming, "");
    let mut progress = Vec::new();
    let reply = loop {
        let (event_id, data) = response.next_event().await.expect("events until the reply");
        assert!(event_id.is_some());
        let message: Value = serde_json::from_str(&data).unwrap();
        if message["method"] == "notifications/progress" {
            assert_eq!(message["params"]["progressToken"], "p7");
            progress.push(message["params"]["progress"].as_f64().unwrap());
        } else {
            break message;
        }
    };
    assert_eq!(progress, [1.0, 2.0, 3.0]);
    assert_eq!(reply["id"], 7);
    assert_eq!(reply["result"]["content"][0]["text"], "done");
    assert!(
        response.next_event().await.is_none(),
        "the stream ends after the reply"
    );
}

#[tokio::test]
async fn a_server_request_goes_on_the_stream_and_the_answer_comes_back_by_post() {
    let port = start(HttpOptions::new()).await;
    let id = session(port, "2025-11-25", json!({"elicitation": {}})).await;
    let mut response = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        &call(5, "ask_name", json!({})),
    )
    .await;
    let _priming = response.next_event().await.unwrap();
    let (_, data) = response.next_event().await.unwrap();
    let ask: Value = serde_json::from_str(&data).unwrap();
    assert_eq!(ask["method"], "elicitation/create");
    let answer = json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "accept", "content": {"name": "Ana"}}});
    let posted = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        &answer.to_string(),
    )
    .await;
    assert_eq!(posted.status, 202);
    let (_, data) = response.next_event().await.unwrap();
    let reply: Value = serde_json::from_str(&data).unwrap();
    assert_eq!(reply["result"]["content"][0]["text"], "hello Ana");
}

#[tokio::test]
async fn the_standalone_stream_carries_list_changes() {
    let port = start(HttpOptions::new()).await;
    let id = session(port, "2025-06-18", json!({})).await;
    let mut stream = request(
        port,
        "GET",
        &[("accept", "text/event-stream"), ("mcp-session-id", &id)],
        "",
    )
    .await;
    assert_eq!(stream.status, 200);
    let grown = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        &call(3, "grow", json!({})),
    )
    .await;
    assert_eq!(grown.json().await["result"]["content"][0]["text"], "grown");
    let (event_id, data) = stream.next_event().await.unwrap();
    assert!(event_id.is_some());
    let note: Value = serde_json::from_str(&data).unwrap();
    assert_eq!(note["method"], "notifications/tools/list_changed");
    let refused = request(
        port,
        "GET",
        &[("accept", "application/json"), ("mcp-session-id", &id)],
        "",
    )
    .await;
    assert_eq!(refused.status, 406);
}

#[tokio::test]
async fn a_lost_stream_is_resumed_with_last_event_id() {
    let port = start(HttpOptions::new()).await;
    let id = session(port, "2025-11-25", json!({})).await;
    let mut response = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        &call(8, "steps", json!({})),
    )
    .await;
    let (primed, _) = response.next_event().await.unwrap();
    let (first_id, first) = response.next_event().await.unwrap();
    assert!(first.contains("notifications/progress"));
    drop(response); // the connection is lost
    let _ = primed;
    let last = first_id.unwrap();
    let mut resumed = request(
        port,
        "GET",
        &[
            ("accept", "text/event-stream"),
            ("mcp-session-id", &id),
            ("last-event-id", &last),
        ],
        "",
    )
    .await;
    assert_eq!(resumed.status, 200);
    let mut rest = Vec::new();
    while let Some((_, data)) = resumed.next_event().await {
        let message: Value = serde_json::from_str(&data).unwrap();
        let done = message.get("result").is_some();
        rest.push(message);
        if done {
            break;
        }
    }
    let progress: Vec<f64> = rest
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .map(|m| m["params"]["progress"].as_f64().unwrap())
        .collect();
    assert_eq!(
        progress,
        [2.0, 3.0],
        "exactly the events after the last one seen: {rest:?}"
    );
    assert_eq!(rest.last().unwrap()["result"]["content"][0]["text"], "done");
}

#[tokio::test]
async fn a_client_that_disconnects_cancels_its_request() {
    let port = start(HttpOptions::new().resume_grace(Duration::from_millis(100))).await;
    let id = session(port, "2025-06-18", json!({})).await;
    let body = json!({"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {"name": "nap", "arguments": {}}}).to_string();
    let stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\naccept: application/json, text/event-stream\r\nmcp-session-id: {id}\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    use tokio::io::AsyncWriteExt;
    let mut stream = stream;
    stream.write_all(head.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    drop(stream);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        STOPPED.load(Ordering::SeqCst),
        "the handler was not cancelled"
    );
}

#[tokio::test]
async fn deleting_a_session_cancels_its_requests() {
    let port = start(HttpOptions::new()).await;
    let id = session(port, "2025-06-18", json!({})).await;
    let headers = |id: &str| {
        [
            ACCEPT,
            ("mcp-session-id", id),
            ("mcp-protocol-version", "2025-06-18"),
        ]
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
    };
    fn as_refs(headers: &[(String, String)]) -> Vec<(&str, &str)> {
        headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect()
    }
    let body = call(21, "wait", json!({"tag": "deleted", "progress": false}));
    let post_headers = headers(&id);
    let waiting = tokio::spawn(async move {
        request(port, "POST", &as_refs(&post_headers), &body)
            .await
            .status
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let deleted = request(port, "DELETE", &as_refs(&headers(&id)), "").await;
    assert_eq!(deleted.status, 204);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(was_cancelled("deleted"), "the handler was not cancelled");
    assert_eq!(waiting.await.unwrap(), 200);
}

#[tokio::test]
async fn stateless_mode_needs_no_session() {
    let port = start(HttpOptions::new().stateless(true)).await;
    let response = request(
        port,
        "POST",
        &[ACCEPT],
        &initialize("2025-11-25", json!({})),
    )
    .await;
    assert_eq!(response.status, 200);
    assert!(response.header("mcp-session-id").is_none());
    let reply = request(
        port,
        "POST",
        &[ACCEPT],
        &call(2, "echo", json!({"text": "hi"})),
    )
    .await;
    assert_eq!(reply.json().await["result"]["content"][0]["text"], "hi");
    let get = request(port, "GET", &[("accept", "text/event-stream")], "").await;
    assert_eq!(get.status, 405);
}

/// A stateless server has no client capabilities and no way back to a waiting handler: asking
/// the client fails at once, as a tool error saying why.
#[tokio::test]
async fn asking_the_client_fails_at_once_in_stateless_mode() {
    let port = start(HttpOptions::new().stateless(true)).await;
    let reply = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        request(port, "POST", &[ACCEPT], &call(3, "ask_name", json!({}))),
    )
    .await
    .expect("an answer at once, not after the request timeout");
    let reply = reply.json().await;
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("does not support `elicitation`"), "{text}");
}

/// The events of an SSE response up to the end of the stream: the priming event's id, then
/// the messages.
async fn events(response: &mut http::Response) -> (Option<String>, Vec<Value>) {
    let (priming_id, priming) = response.next_event().await.expect("a priming event");
    assert_eq!(priming, "", "2025-11-25 streams start with a priming event");
    let mut messages = Vec::new();
    while let Some((event_id, data)) = response.next_event().await {
        assert!(event_id.is_some(), "every event has an id");
        messages.push(serde_json::from_str(&data).unwrap());
    }
    (priming_id, messages)
}

fn progress_of(messages: &[Value]) -> Vec<f64> {
    messages
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .map(|m| m["params"]["progress"].as_f64().unwrap())
        .collect()
}

#[tokio::test]
async fn stateless_requests_are_answered_as_json_or_on_their_own_stream() {
    let port = start(HttpOptions::new().stateless(true)).await;
    let reply = request(
        port,
        "POST",
        &[ACCEPT],
        &call(2, "echo", json!({"text": "hi"})),
    )
    .await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert!(reply.header("mcp-session-id").is_none());
    let reply = reply.json().await;
    assert_eq!(reply["id"], 2);
    assert_eq!(reply["result"]["content"][0]["text"], "hi");

    let mut stream = request(port, "POST", &[ACCEPT], &call(3, "steps", json!({}))).await;
    assert_eq!(stream.status, 200);
    assert_eq!(stream.header("content-type"), Some("text/event-stream"));
    let (_, messages) = events(&mut stream).await;
    assert_eq!(progress_of(&messages), [1.0, 2.0, 3.0]);
    assert!(
        messages
            .iter()
            .all(|m| m["params"]["progressToken"] == "p3" || m["id"] == 3)
    );
    let last = messages.last().unwrap();
    assert_eq!(last["id"], 3);
    assert_eq!(last["result"]["content"][0]["text"], "done");

    // A refused batch is answered at once, as JSON: its error is the whole answer.
    let batch = request(
        port,
        "POST",
        &[ACCEPT],
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
    )
    .await;
    assert_eq!(batch.status, 200);
    assert_eq!(batch.header("content-type"), Some("application/json"));
    let error = batch.json().await;
    assert!(error.get("id").is_none(), "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("batches"),
        "{error}"
    );
}

#[tokio::test]
async fn a_client_that_takes_only_json_gets_the_reply_alone() {
    for stateless in [false, true] {
        let port = start(HttpOptions::new().stateless(stateless)).await;
        let session_id = if stateless {
            String::new()
        } else {
            session(port, "2025-11-25", json!({})).await
        };
        let mut headers = vec![("accept", "application/json")];
        if !stateless {
            headers.push(("mcp-session-id", &session_id));
        }
        let response = request(port, "POST", &headers, &call(4, "steps", json!({}))).await;
        assert_eq!(response.status, 200, "stateless: {stateless}");
        assert_eq!(response.header("content-type"), Some("application/json"));
        let reply = response.json().await;
        assert_eq!(reply["id"], 4);
        assert_eq!(reply["result"]["content"][0]["text"], "done");
    }
}

#[tokio::test]
async fn stateless_mode_keeps_the_checks() {
    let port = start(HttpOptions::new().stateless(true).max_body_bytes(1024)).await;
    let note = request(
        port,
        "POST",
        &[ACCEPT],
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    )
    .await;
    assert_eq!(note.status, 202);
    assert_eq!(note.text().await, "");
    let answer = request(
        port,
        "POST",
        &[ACCEPT],
        r#"{"jsonrpc":"2.0","id":0,"result":{}}"#,
    )
    .await;
    assert_eq!(answer.status, 202);
    let garbage = request(port, "POST", &[ACCEPT], "{not json").await;
    assert_eq!(garbage.status, 400);
    assert_eq!(garbage.json().await["error"]["code"], -32700);
    let big = call(9, "echo", json!({"text": "x".repeat(5000)}));
    assert_eq!(request(port, "POST", &[ACCEPT], &big).await.status, 413);
    let body = call(5, "echo", json!({"text": "hi"}));
    let foreign = request(port, "POST", &[ACCEPT, ("host", "evil.example")], &body).await;
    assert_eq!(foreign.status, 403);
    let version = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-protocol-version", "1999-01-01")],
        &body,
    )
    .await;
    assert_eq!(version.status, 400);
}

#[tokio::test]
async fn a_stateless_client_that_disconnects_cancels_its_request() {
    let port = start(HttpOptions::new().stateless(true)).await;

    // Gone while the reply is awaited, before the handler sent anything.
    let body = call(12, "wait", json!({"tag": "quiet", "progress": false}));
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\naccept: application/json, text/event-stream\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    use tokio::io::AsyncWriteExt;
    stream.write_all(head.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!was_cancelled("quiet"));
    drop(stream);

    // Gone from the request's stream: nothing could resume it, so the request ends at once.
    let body = call(13, "wait", json!({"tag": "streamed", "progress": true}));
    let mut response = request(port, "POST", &[ACCEPT], &body).await;
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    let _priming = response.next_event().await.unwrap();
    let (_, progress) = response.next_event().await.unwrap();
    assert!(progress.contains("notifications/progress"), "{progress}");
    assert!(!was_cancelled("streamed"));
    drop(response);

    for _ in 0..50 {
        if was_cancelled("quiet") && was_cancelled("streamed") {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!(
        "not cancelled: quiet {}, streamed {}",
        was_cancelled("quiet"),
        was_cancelled("streamed")
    );
}

#[tokio::test]
async fn in_stateless_mode_a_stream_is_never_ended_before_the_reply() {
    let port = start(HttpOptions::new().stateless(true)).await;
    let response = request(port, "POST", &[ACCEPT], &call(6, "hang_up", json!({}))).await;
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("application/json"));
    let reply = response.json().await;
    assert_eq!(reply["result"]["content"][0]["text"], "after the hang-up");
}

#[tokio::test]
async fn a_request_the_client_cancels_is_answered_without_a_reply() {
    let port = start(HttpOptions::new()).await;
    let id = session(port, "2025-11-25", json!({})).await;
    for (number, accept) in [(21, "application/json"), (22, ACCEPT.1)] {
        let tag = format!("cancelled-{number}");
        let body = call(number, "wait", json!({"tag": tag, "progress": false}));
        let pending = {
            let id = id.clone();
            tokio::spawn(async move {
                let headers = [("accept", accept), ("mcp-session-id", id.as_str())];
                let mut response = request(port, "POST", &headers, &body).await;
                let kind = response.header("content-type").unwrap_or("").to_owned();
                let events = if kind == "text/event-stream" {
                    let mut events = Vec::new();
                    while let Some(event) = response.next_event().await {
                        events.push(event);
                    }
                    events
                } else {
                    vec![(None, response.text().await)]
                };
                (kind, events)
            })
        };
        tokio::time::sleep(Duration::from_millis(200)).await;
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": number, "reason": "changed my mind"}});
        let cancelled = request(
            port,
            "POST",
            &[ACCEPT, ("mcp-session-id", &id)],
            &cancel.to_string(),
        )
        .await;
        assert_eq!(cancelled.status, 202);
        let (kind, events) = tokio::time::timeout(Duration::from_secs(5), pending)
            .await
            .expect("an answer once the request is cancelled")
            .unwrap();
        assert!(was_cancelled(&tag));
        if accept == "application/json" {
            assert_eq!(kind, "application/json");
            let error: Value = serde_json::from_str(&events[0].1).unwrap();
            assert_eq!(error["id"], number);
            assert!(
                error["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("cancelled")
            );
        } else {
            assert_eq!(kind, "text/event-stream");
            assert!(events.is_empty(), "{events:?}");
        }
    }
}

#[tokio::test]
async fn a_stream_ended_before_anything_is_resumed_for_the_reply() {
    let port = start(HttpOptions::new()).await;
    let id = session(port, "2025-11-25", json!({})).await;
    let mut response = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        &call(6, "hang_up", json!({})),
    )
    .await;
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    let (priming_id, messages) = events(&mut response).await;
    assert!(messages.is_empty(), "{messages:?}");
    let mut resumed = request(
        port,
        "GET",
        &[
            ("accept", "text/event-stream"),
            ("mcp-session-id", &id),
            ("last-event-id", &priming_id.unwrap()),
        ],
        "",
    )
    .await;
    assert_eq!(resumed.status, 200);
    let (_, data) = resumed.next_event().await.expect("the reply");
    let reply: Value = serde_json::from_str(&data).unwrap();
    assert_eq!(reply["id"], 6);
    assert_eq!(reply["result"]["content"][0]["text"], "after the hang-up");
}

#[tokio::test]
async fn serve_http_answers_at_mcp_only() {
    let port = start(HttpOptions::new().stateless(true)).await;
    let body = call(1, "echo", json!({"text": "hi"}));
    for path in ["/", "/mcp/", "/mcpx", "/other/mcp"] {
        let response = request_at(port, "POST", path, &[ACCEPT], &body).await;
        assert_eq!(response.status, 404, "{path}");
    }
    let put = request(port, "PUT", &[ACCEPT], &body).await;
    assert_eq!(put.status, 405);
    assert_eq!(put.header("allow"), Some("GET,POST,DELETE"));
}

#[tokio::test]
async fn the_router_mounted_in_an_app_serves_the_same_endpoint() {
    let app = axum::Router::new().nest("/mcp", server().http_router(HttpOptions::new()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, app).await });

    let id = session(port, "2025-11-25", json!({})).await;
    let headers = [ACCEPT, ("mcp-session-id", id.as_str())];
    let reply = request(
        port,
        "POST",
        &headers,
        &call(2, "echo", json!({"text": "hi"})),
    )
    .await;
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.json().await["result"]["content"][0]["text"], "hi");
    let mut stream = request(port, "POST", &headers, &call(3, "steps", json!({}))).await;
    let (_, messages) = events(&mut stream).await;
    assert_eq!(progress_of(&messages), [1.0, 2.0, 3.0]);
    assert_eq!(
        messages.last().unwrap()["result"]["content"][0]["text"],
        "done"
    );
    let deleted = request(port, "DELETE", &[("mcp-session-id", &id)], "").await;
    assert_eq!(deleted.status, 204);
}

#[tokio::test]
async fn the_403_for_a_foreign_host_names_the_option_that_allows_it() {
    let port = start(HttpOptions::new()).await;
    let body = initialize("2025-11-25", json!({}));
    let response = request(port, "POST", &[ACCEPT, ("host", "evil.example")], &body).await;
    assert_eq!(response.status, 403);
    let message = response.json().await["error"]["message"].to_string();
    assert!(
        message.contains("the Host `evil.example` is not allowed")
            && message.contains("HttpOptions::hosts(HostPolicy::only([...]))"),
        "{message}"
    );
}
