//! The Streamable HTTP transport with a real HTTP client: sessions, JSON and SSE answers,
//! server-to-client requests, the standalone stream, resumption, and the security checks.

#[path = "common/http.rs"]
mod http;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use http::request;
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
        .add_tool(DynamicTool::new("grown", "A new tool."))?;
    Ok("grown".to_owned())
}

async fn start(options: HttpOptions) -> u16 {
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<echo>()
        .tool::<steps>()
        .tool::<ask_name>()
        .tool::<nap>()
        .tool::<grow>()
        .build()
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { server.serve_http_listener(listener, options).await });
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
