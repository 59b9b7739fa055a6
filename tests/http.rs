//! The Streamable HTTP transport with a real HTTP client: sessions, JSON and SSE answers,
//! server-to-client requests, the standalone stream, resumption, the security checks, and the
//! limits (sessions, streams, connections, timeouts, replay, subscriptions) each hit.

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

/// Reports progress `count` times, then answers.
#[mcp_tool]
async fn chatter(ctx: Context, count: u32) -> String {
    for i in 1..=count {
        ctx.report_progress(f64::from(i), None, None);
        tokio::task::yield_now().await;
    }
    "said it all".to_owned()
}

/// A note, any name.
#[mcp_resource(uri = "note://{name}")]
fn note(name: String) -> String {
    name
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
        .tool::<chatter>()
        .resource::<note>()
        .max_subscriptions(2)
        .max_uri_bytes(64)
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

/// Whether an error reply's message contains `words`.
fn error_says(reply: &Value, words: &str) -> bool {
    reply["error"]["message"]
        .as_str()
        .is_some_and(|message| message.contains(words))
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
    // An id that is not visible ASCII is sent, so not "missing": no session has it.
    let unreadable = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", "d\u{e9}ad")],
        &call(3, "echo", json!({"text": "x"})),
    )
    .await;
    assert_eq!(unreadable.status, 404);

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

/// A message that is not valid gets its own error without a session, as over stdio, not
/// "send `initialize` first": that would hide what is wrong, and send a 2026-07-28 client
/// (whose revision has no `initialize`) the wrong way.
#[tokio::test]
async fn an_invalid_message_without_a_session_is_told_what_is_wrong() {
    let port = start(HttpOptions::new()).await;
    let cases = [
        (
            r#"{"jsonrpc":"1.0","id":1,"method":"initialize","params":{}}"#,
            Some(1),
            "`jsonrpc` must be exactly \"2.0\"",
        ),
        (
            r#"{"jsonrpc":"2.0","id":5,"method":5}"#,
            Some(5),
            "expected a string",
        ),
        (
            r#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]"#,
            None,
            "JSON-RPC batches (arrays of messages) are not supported here",
        ),
    ];
    for (body, id, words) in cases {
        let response = request(port, "POST", &[ACCEPT], body).await;
        let reply = response.json().await;
        assert_eq!(reply["error"]["code"], -32600, "{body}: {reply}");
        assert_eq!(reply["id"].as_i64(), id, "{body}: {reply}");
        assert!(error_says(&reply, words), "{body}: {reply}");
    }
}

#[tokio::test]
async fn foreign_hosts_and_origins_are_forbidden() {
    let port = start(HttpOptions::new()).await;
    let body = initialize("2025-11-25", json!({}));
    for headers in [
        vec![ACCEPT, ("host", "evil.example")],
        vec![ACCEPT, ("origin", "http://evil.example")],
        vec![ACCEPT, ("host", "localhost:1")],
        // What a sandboxed page or a file sends: refused unless any host is allowed.
        vec![ACCEPT, ("origin", "null")],
    ] {
        let response = request(port, "POST", &headers, &body).await;
        assert_eq!(response.status, 403, "{headers:?}");
    }
    let local_origin = format!("http://localhost:{port}");
    let response = request(port, "POST", &[ACCEPT, ("origin", &local_origin)], &body).await;
    assert_eq!(response.status, 200);
}

/// A body that does not declare its length (chunked) is held to the limit too, counted while
/// it is read (SECURITY.md, "Sizes"): 413, never read to its end.
#[tokio::test]
async fn a_chunked_body_over_the_limit_gets_413_while_it_is_read() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let port = start(HttpOptions::new().max_body_bytes(1024)).await;
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let chunk = "x".repeat(512);
    for _ in 0..4 {
        // The server may answer and close before it has read them all.
        let _ = stream
            .write_all(format!("{:x}\r\n{chunk}\r\n", chunk.len()).as_bytes())
            .await;
    }
    let _ = stream.write_all(b"0\r\n\r\n").await;
    let mut answer = Vec::new();
    while !answer.windows(2).any(|pair| pair == b"\r\n") {
        let mut buffer = [0u8; 1024];
        let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buffer))
            .await
            .expect("an answer within 10 s")
            .unwrap();
        assert!(read > 0, "closed without an answer");
        answer.extend_from_slice(&buffer[..read]);
    }
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
}

/// A client that reads nothing of a response has its connection closed once a write has
/// waited `write_timeout` for it (RELIABILITY.md, "Streamable HTTP"): the server does not
/// keep the connection, and the 24 MB it still had to send, for as long as the client likes.
#[tokio::test]
async fn a_client_that_reads_nothing_is_cut_off_after_the_write_timeout() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let port = start(
        HttpOptions::new()
            .stateless(true)
            .max_body_bytes(64 * 1024 * 1024)
            .write_timeout(Duration::from_secs(1)),
    )
    .await;
    let text = "x".repeat(24 * 1024 * 1024);
    let body = call(9, "echo", json!({ "text": text }));
    // A receive buffer of its own size, so the kernel does not grow it to hold the whole
    // response (`net.ipv4.tcp_rmem` lets it reach 32 MiB on some machines).
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(64 * 1024).unwrap();
    let mut stream = socket
        .connect(std::net::SocketAddr::from(([127, 0, 0, 1], port)))
        .await
        .unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    // Once the response has begun (a debug build takes a while to echo 24 MB), reads nothing
    // for three times the timeout.
    tokio::time::timeout(Duration::from_secs(60), stream.readable())
        .await
        .expect("the response begins within 60 s")
        .unwrap();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut received = 0;
    let mut buffer = vec![0u8; 1 << 16];
    // Until the connection ends, or the whole response came (what happened without a limit).
    while received < text.len() {
        let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buffer))
            .await
            .expect("neither the response nor the connection's end within 10 s");
        match read {
            Ok(0) | Err(_) => break,
            Ok(read) => received += read,
        }
    }
    assert!(
        received < text.len(),
        "{received} bytes received: the whole response waited for the client"
    );
}

#[tokio::test]
async fn oversized_bodies_get_413_and_bad_versions_400() {
    let port = start(HttpOptions::new().max_body_bytes(1024)).await;
    let big = call(9, "echo", json!({"text": "x".repeat(5000)}));
    let too_big = request(port, "POST", &[ACCEPT], &big).await;
    assert_eq!(too_big.status, 413);
    let message = too_big.json().await["error"]["message"].to_string();
    assert!(
        message.contains("limit of 1024 bytes (HttpOptions::max_body_bytes)"),
        "{message}"
    );
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
    // streamable-http "Protocol Version Header" (2026-07-28): "If the server does not implement
    // the requested protocol version ... it MUST respond with 400 Bad Request and an
    // UnsupportedProtocolVersionError listing its supported versions", for a GET too.
    let error = response.json().await["error"].clone();
    assert_eq!(error["code"], -32022, "{error}");
    assert_eq!(error["data"]["requested"], "1999-01-01", "{error}");
    assert!(
        error["data"]["supported"]
            .as_array()
            .is_some_and(|supported| supported.contains(&json!("2026-07-28"))
                && supported.contains(&json!("2025-03-26"))),
        "{error}"
    );
    let get = request(
        port,
        "GET",
        &[
            ("accept", "text/event-stream"),
            ("mcp-session-id", &id),
            ("mcp-protocol-version", "2099-01-01"),
        ],
        "",
    )
    .await;
    assert_eq!(get.status, 400);
    assert_eq!(get.json().await["error"]["code"], -32022);
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

/// A POST that accepts only JSON has no stream a request to the client could go on: asking
/// fails at once, saying why, instead of waiting `request_timeout` (60 s) for an answer to a
/// question the client never saw.
#[tokio::test]
async fn asking_a_client_whose_post_takes_only_json_fails_at_once() {
    let port = start(HttpOptions::new()).await;
    let id = session(port, "2025-11-25", json!({"elicitation": {}})).await;
    let response = tokio::time::timeout(
        Duration::from_secs(10),
        request(
            port,
            "POST",
            &[("accept", "application/json"), ("mcp-session-id", &id)],
            &call(5, "ask_name", json!({})),
        ),
    )
    .await
    .expect("answered at once");
    assert_eq!(response.header("content-type"), Some("application/json"));
    let reply = response.json().await;
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("the client cannot be asked here")
            && text.contains("accepts only `application/json`"),
        "{text}"
    );
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
    assert_eq!(get.header("allow"), Some("POST"), "RFC 9110 section 15.5.6");
    let delete = request(port, "DELETE", &[("mcp-session-id", "0f")], "").await;
    assert_eq!(delete.status, 405);
    assert_eq!(delete.header("allow"), Some("POST"));
}

/// streamable-http "Earlier Streamable HTTP Revisions" (2026-07-28): GET and DELETE are not
/// part of the revision, and a server of that revision alone answers them with 405. A server
/// of both eras does so for a client naming 2026-07-28 in `MCP-Protocol-Version` (telling it
/// neither to `initialize` nor to send a session id), and keeps both for a session's client.
#[tokio::test]
async fn get_and_delete_of_a_2026_client_are_405_and_a_session_keeps_them() {
    let port = start(HttpOptions::new()).await;
    for method in ["GET", "DELETE"] {
        let response = request(
            port,
            method,
            &[
                ("accept", "text/event-stream"),
                ("mcp-protocol-version", "2026-07-28"),
            ],
            "",
        )
        .await;
        assert_eq!(response.status, 405, "{method}");
        assert_eq!(response.header("allow"), Some("POST"), "{method}");
        let error = response.json().await["error"].clone();
        assert!(
            error["message"]
                .as_str()
                .is_some_and(|m| m.contains("POST each request") && !m.contains("initialize")),
            "{method}: {error}"
        );
    }
    let id = session(port, "2025-11-25", json!({})).await;
    let session_headers = [
        ("mcp-session-id", id.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let delete = request(port, "DELETE", &session_headers, "").await;
    assert_eq!(delete.status, 204);
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
    assert!(
        text.contains("does not support `elicitation.form`"),
        "{text}"
    );
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
    assert!(error_says(&error, "batches"), "{error}");
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

/// A request whose stream is already open (it reported progress) and that the client then
/// cancels: the stream ends, with no reply, instead of sending keep-alives forever.
#[tokio::test]
async fn a_cancelled_request_s_open_stream_ends() {
    let port = start(HttpOptions::new()).await;
    let id = session(port, "2025-11-25", json!({})).await;
    let body = call(31, "wait", json!({"tag": "cancelled-31", "progress": true}));
    let pending = {
        let id = id.clone();
        tokio::spawn(async move {
            let headers = [ACCEPT, ("mcp-session-id", id.as_str())];
            let mut response = request(port, "POST", &headers, &body).await;
            assert_eq!(response.header("content-type"), Some("text/event-stream"));
            let mut events = Vec::new();
            while let Some(event) = response.next_event().await {
                events.push(event);
            }
            events
        })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 31, "reason": "changed my mind"}});
    let cancelled = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        &cancel.to_string(),
    )
    .await;
    assert_eq!(cancelled.status, 202);
    let events = tokio::time::timeout(Duration::from_secs(5), pending)
        .await
        .expect("the stream ends once its request is cancelled")
        .unwrap();
    assert!(was_cancelled("cancelled-31"));
    assert!(
        events
            .iter()
            .any(|(_, data)| data.contains("notifications/progress")),
        "{events:?}"
    );
    assert!(
        !events.iter().any(|(_, data)| data.contains("\"result\"")),
        "no reply for a cancelled request: {events:?}"
    );
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

/// Beside `/mcp`: `/health` and `/ready` answer GET and HEAD with 200 whatever the Host (a
/// balancer's probe names the instance), another method with 405; nothing else is served.
#[tokio::test]
async fn the_probes_answer_beside_mcp() {
    let port = start(HttpOptions::new()).await;
    for path in ["/health", "/ready"] {
        for host in [format!("127.0.0.1:{port}"), "10.0.0.7:8000".to_owned()] {
            let response = request_at(port, "GET", path, &[("host", &host)], "").await;
            assert_eq!(response.status, 200, "{path} {host}");
            assert_eq!(response.header("cache-control"), Some("no-store"));
            let text = response.text().await;
            assert!(text == "ok\n" || text == "ready\n", "{path}: {text:?}");
        }
        let post = request_at(port, "POST", path, &[], "").await;
        assert_eq!(post.status, 405, "{path}");
        assert_eq!(post.header("allow"), Some("GET, HEAD"));
    }
    for path in ["/healthz", "/health/", "/mcp/health", "/", "/sse"] {
        let response = request_at(port, "GET", path, &[], "").await;
        assert_eq!(response.status, 404, "{path}");
        assert!(
            response
                .text()
                .await
                .contains("the MCP endpoint of this server is /mcp"),
            "{path}"
        );
    }
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
            && message.contains("HostPolicy::local().allow(")
            && message.contains("--allow-host HOST:PORT")
            && message.contains("HttpOptions::hosts(HostPolicy::only([...]))"),
        "{message}"
    );
}

/// A host value no request could match (a URL given where a host belongs) stops serving
/// before it starts, naming the value and the method, rather than refusing every client
/// with 403 later.
#[tokio::test]
async fn host_values_no_request_could_match_are_refused_before_serving() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hosts = mcp_runtime::HostPolicy::local()
        .allow("https://mcp.example.com")
        .allow("mcp.example.com:8443");
    let error = server()
        .serve_http(listener, HttpOptions::new().hosts(hosts))
        .await
        .expect_err("a URL is not a host")
        .to_string();
    assert!(
        error.contains(
            "`HostPolicy::allow(\"https://mcp.example.com\")` would match no request's Host"
        ) && error.contains("without a scheme or a path")
            && !error.contains("mcp.example.com:8443"),
        "{error}"
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hosts = mcp_runtime::HostPolicy::only(["example.com:8080", "example.com"]);
    let error = server()
        .serve_http(listener, HttpOptions::new().hosts(hosts).max_connections(0))
        .await
        .expect_err("a port is not a host name")
        .to_string();
    assert!(
        error.starts_with("cannot start the MCP server: 2 problems:")
            && error.contains("`HttpOptions::max_connections` is 0")
            && error.contains("`HostPolicy::only(\"example.com:8080\")` would match no request's Host: give a host name or IP address alone"),
        "{error}"
    );
}

/// "The client **MUST** include an `Accept` header, listing both `application/json` and
/// `text/event-stream` as supported content types" (Streamable HTTP > Sending Messages to the
/// Server, the same in 2025-03-26, 2025-06-18 and 2025-11-25). A client that takes JSON only is
/// still served (it gets the reply alone, see above); one that takes no JSON, or says nothing,
/// gets 406. A body declared as anything but JSON gets 415 (a browser's cross-site "simple"
/// POST is `text/plain` or a form).
#[tokio::test]
async fn a_post_must_be_json_and_take_a_json_answer() {
    let port = start(HttpOptions::new().stateless(true)).await;
    let body = call(1, "echo", json!({"text": "hi"}));
    for content_type in [
        "text/plain",
        "text/plain;charset=UTF-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let response = request(
            port,
            "POST",
            &[ACCEPT, ("content-type", content_type)],
            &body,
        )
        .await;
        assert_eq!(response.status, 415, "{content_type}");
        let error = response.json().await;
        assert!(error.get("id").is_none(), "{error}");
        assert!(
            error_says(&error, "Content-Type: application/json"),
            "{error}"
        );
    }
    for accept in [
        None,
        Some("text/html"),
        Some("text/event-stream"),
        Some("application/json;q=0, text/event-stream"),
    ] {
        let headers: Vec<(&str, &str)> = accept.map(|a| ("accept", a)).into_iter().collect();
        let response = request(port, "POST", &headers, &body).await;
        assert_eq!(response.status, 406, "{accept:?}");
        let error = response.json().await;
        let advice = "Accept: application/json, text/event-stream";
        assert!(error_says(&error, advice), "{error}");
    }
    for headers in [
        vec![ACCEPT, ("content-type", "application/json")],
        vec![ACCEPT, ("content-type", "application/json; charset=utf-8")],
        vec![("accept", "*/*")],
        vec![("accept", "application/*, text/*")],
    ] {
        let response = request(port, "POST", &headers, &body).await;
        assert_eq!(response.status, 200, "{headers:?}");
        assert_eq!(response.json().await["result"]["content"][0]["text"], "hi");
    }
}

/// A message that is not valid is answered with its error: as a reply when it names a request
/// (the client matches it to its call), else with 400, as the specification asks for input the
/// server "cannot accept" (Streamable HTTP > Sending Messages to the Server).
#[tokio::test]
async fn an_invalid_message_gets_its_error_as_a_reply_or_with_400() {
    let port = start(HttpOptions::new().stateless(true)).await;
    for (body, status, id) in [
        (
            r#"{"jsonrpc":"2.0","id":4,"method":"ping","params":[]}"#,
            200,
            json!(4),
        ),
        (r#"{"jsonrpc":"1.0","id":5,"method":"ping"}"#, 200, json!(5)),
        (
            r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            400,
            Value::Null,
        ),
        (
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":[4]}"#,
            400,
            Value::Null,
        ),
        (
            r#"{"jsonrpc":"1.0","method":"notifications/initialized"}"#,
            400,
            Value::Null,
        ),
    ] {
        let response = request(port, "POST", &[ACCEPT], body).await;
        assert_eq!(response.status, status, "{body}");
        let error = response.json().await;
        assert!(error["error"]["code"].is_i64(), "{body}: {error}");
        assert_eq!(
            error.get("id").cloned().unwrap_or(Value::Null),
            id,
            "{body}: {error}"
        );
    }
}

/// A batch's elements are requests, notifications or responses (JSON-RPC 2.0, section 6), so
/// `[[1]]` is a batch of one invalid element: answered with its error, never a silent 202. A
/// batch of notifications is taken with 202 only where batches are (2025-03-26); elsewhere the
/// server "cannot accept the input" and "**MUST** return an HTTP error status code (e.g., 400
/// Bad Request)" (Streamable HTTP > Sending Messages to the Server).
#[tokio::test]
async fn a_nested_batch_gets_an_error_instead_of_a_silent_202() {
    let port = start(HttpOptions::new()).await;
    let old = session(port, "2025-03-26", json!({})).await;
    let new = session(port, "2025-11-25", json!({})).await;
    let post = |id: String, version: &'static str, body: &'static str| async move {
        request(
            port,
            "POST",
            &[
                ACCEPT,
                ("mcp-session-id", &id),
                ("mcp-protocol-version", version),
            ],
            body,
        )
        .await
    };

    let nested = post(old.clone(), "2025-03-26", "[[1]]").await;
    assert_eq!(nested.status, 200);
    let replies = nested.json().await;
    assert_eq!(replies[0]["error"]["code"], -32600, "{replies}");
    assert!(error_says(&replies[0], "nested"), "{replies}");
    let nested = post(new.clone(), "2025-11-25", "[[1]]").await;
    assert_ne!(nested.status, 202);
    let error = nested.json().await;
    assert_eq!(error["error"]["code"], -32600, "{error}");

    let notes = r#"[{"jsonrpc":"2.0","method":"notifications/initialized"}]"#;
    let taken = post(old, "2025-03-26", notes).await;
    assert_eq!(taken.status, 202);
    let refused = post(new, "2025-11-25", notes).await;
    assert_eq!(refused.status, 400);
    let error = refused.json().await;
    assert!(error.get("id").is_none(), "{error}");
    assert!(error_says(&error, "batches"), "{error}");
}

/// Three forms no browser sends, each written on the socket as a hostile client would (no
/// client library sends them):
/// - two `Host` headers: "A server **MUST** respond with a 400 (Bad Request) status code to any
///   HTTP/1.1 request message that ... contains more than one Host header field line" (RFC
///   9112, section 3.2);
/// - an absolute-form target: "the origin server **MUST** ignore the received Host header
///   field (if any) and instead use the host information of the request-target" (RFC 9112,
///   section 3.2.2), so the target's host is checked, and a `Host` that disagrees is refused;
/// - userinfo in an `Origin`, which a serialized origin never has (RFC 6454, section 6.2):
///   `http://localhost:PORT@evil.example` is evil.example.
#[tokio::test]
async fn host_and_origin_forms_no_browser_sends_are_refused() {
    let port = start(HttpOptions::new()).await;
    let body = initialize("2025-11-25", json!({}));
    let local = format!("127.0.0.1:{port}");
    for hosts in [
        [("host", local.as_str()), ("host", "evil.example")],
        [("host", "evil.example"), ("host", local.as_str())],
        [("host", local.as_str()), ("host", local.as_str())],
    ] {
        let headers = [ACCEPT, hosts[0], hosts[1]];
        let response = request(port, "POST", &headers, &body).await;
        assert_eq!(response.status, 400, "{hosts:?}");
        let message = response.json().await["error"]["message"].to_string();
        assert!(message.contains("more than one Host header"), "{message}");
    }

    let evil_target = "http://evil.example/mcp";
    let response = request_at(port, "POST", evil_target, &[ACCEPT], &body).await;
    assert_eq!(
        response.status, 400,
        "a target naming another host than Host"
    );
    let headers = [ACCEPT, ("host", "evil.example")];
    let response = request_at(port, "POST", evil_target, &headers, &body).await;
    assert_eq!(response.status, 403, "a foreign host named by the target");
    let own_target = format!("http://{local}/mcp");
    let response = request_at(port, "POST", &own_target, &[ACCEPT], &body).await;
    assert_eq!(
        response.status, 200,
        "the absolute form of the server's own address"
    );

    for origin in [
        format!("http://localhost:{port}@evil.example"),
        format!("http://127.0.0.1:{port}@evil.example"),
        format!("http://evil.example#@localhost:{port}"),
        format!("http://localhost:{port}/path"),
    ] {
        let response = request(port, "POST", &[ACCEPT, ("origin", &origin)], &body).await;
        assert_eq!(response.status, 403, "{origin}");
    }
    for method in ["GET", "DELETE"] {
        let origin = format!("http://localhost:{port}@evil.example");
        let response = request(port, method, &[ACCEPT, ("origin", &origin)], "").await;
        assert_eq!(response.status, 403, "{method}");
    }
}

/// "The initialization phase **MUST** be the first interaction", and "Both parties **MUST**
/// respect the negotiated protocol version" (Lifecycle): an `initialize` sent within a session
/// is that session's second, refused there; it neither renegotiates nor opens a new session.
#[tokio::test]
async fn an_initialize_within_a_session_is_refused() {
    let port = start(HttpOptions::new()).await;
    let id = session(port, "2025-03-26", json!({})).await;
    let again = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        &initialize("2025-11-25", json!({})),
    )
    .await;
    assert!(again.header("mcp-session-id").is_none());
    let error = again.json().await;
    assert_eq!(error["id"], 1, "{error}");
    assert_eq!(error["error"]["code"], -32600, "{error}");
    let refusal = "already initialized (protocol revision 2025-03-26)";
    assert!(error_says(&error, refusal), "{error}");
}

/// The JSON-RPC error message of a refusal.
async fn error_message(response: http::Response) -> String {
    let body = response.json().await;
    body["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// A GET on the session `id`'s endpoint: its standalone stream, or a resume after `last`.
async fn get_stream(port: u16, id: &str, last: Option<&str>) -> http::Response {
    let mut headers = vec![("accept", "text/event-stream"), ("mcp-session-id", id)];
    headers.extend(last.map(|last| ("last-event-id", last)));
    request(port, "GET", &headers, "").await
}

/// Retries `attempt` every 50 ms for up to 5 s, until it returns true.
async fn eventually(mut attempt: impl AsyncFnMut() -> bool) -> bool {
    for _ in 0..100 {
        if attempt().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// streamable-http "Session Management": the session id goes with the response holding the
/// `InitializeResult`. An `initialize` that fails opens no session: no id is issued, and no
/// place of `max_sessions` is held by an id the client was never given to use or end.
#[tokio::test]
async fn a_failed_initialize_opens_no_session() {
    let port = start(HttpOptions::new().max_sessions(1)).await;
    for body in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5}}"#
            .to_owned(),
    ] {
        let refused = request(port, "POST", &[ACCEPT], &body).await;
        assert_eq!(refused.status, 200, "{body}");
        assert!(refused.header("mcp-session-id").is_none(), "{body}");
        assert_eq!(refused.json().await["error"]["code"], -32602, "{body}");
    }
    // The one place is free.
    session(port, "2025-11-25", json!({})).await;
}

/// A malformed answer to the server's request (here: both `result` and `error`) is input the
/// server cannot accept that is no request: 400, with an error naming no id (streamable-http:
/// "If the server cannot accept the input, it MUST return an HTTP error status code ... The
/// HTTP response body MAY comprise a JSON-RPC error response that has no id"). Its id is the
/// server's own request's, which the client would match to a request of its own.
#[tokio::test]
async fn a_malformed_answer_is_400_with_an_error_naming_no_id() {
    let port = start(HttpOptions::new()).await;
    let id = session(port, "2025-11-25", json!({})).await;
    let response = request(
        port,
        "POST",
        &[
            ACCEPT,
            ("mcp-session-id", &id),
            ("mcp-protocol-version", "2025-11-25"),
        ],
        r#"{"jsonrpc":"2.0","id":0,"result":{},"error":{"code":1,"message":"x"}}"#,
    )
    .await;
    assert_eq!(response.status, 400);
    let error = response.json().await;
    assert_eq!(error["error"]["code"], -32600, "{error}");
    assert_eq!(error.get("id"), None, "{error}");
}

#[tokio::test]
async fn initialize_over_the_session_cap_gets_503_until_a_session_ends() {
    let port = start(HttpOptions::new().max_sessions(2)).await;
    let first = session(port, "2025-11-25", json!({})).await;
    let _second = session(port, "2025-11-25", json!({})).await;
    let refused = request(
        port,
        "POST",
        &[ACCEPT],
        &initialize("2025-11-25", json!({})),
    )
    .await;
    assert_eq!(refused.status, 503);
    assert_eq!(refused.header("retry-after"), Some("1"));
    assert!(refused.header("mcp-session-id").is_none());
    assert!(error_message(refused).await.contains("max_sessions"));

    let deleted = request(port, "DELETE", &[("mcp-session-id", &first)], "").await;
    assert_eq!(deleted.status, 204);
    session(port, "2025-11-25", json!({})).await;
}

#[tokio::test]
async fn an_unused_session_expires_on_a_timer() {
    let port = start(HttpOptions::new().session_idle(Duration::from_millis(200))).await;
    let id = session(port, "2025-11-25", json!({})).await;
    // No other session is made: the timer alone ends it. Each look uses the session, so the
    // next one waits five idle periods first.
    let mut expired = false;
    for _ in 0..5 {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let response = request(
            port,
            "POST",
            &[ACCEPT, ("mcp-session-id", &id)],
            &call(2, "echo", json!({"text": "still there?"})),
        )
        .await;
        if response.status == 404 {
            expired = true;
            break;
        }
    }
    assert!(expired, "the session was not expired");
}

#[tokio::test]
async fn a_session_in_use_does_not_expire() {
    let port = start(HttpOptions::new().session_idle(Duration::from_millis(200))).await;
    let id = session(port, "2025-11-25", json!({})).await;
    let mut stream = get_stream(port, &id, None).await;
    assert_eq!(stream.status, 200);
    let _priming = stream.next_event().await.unwrap();
    tokio::time::sleep(Duration::from_millis(600)).await;
    let response = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        &call(2, "echo", json!({"text": "here"})),
    )
    .await;
    assert_eq!(response.status, 200, "a session with a stream open expired");
}

#[tokio::test]
async fn get_streams_per_session_are_capped_with_429() {
    let port = start(HttpOptions::new().max_streams_per_session(1)).await;
    let id = session(port, "2025-11-25", json!({})).await;
    let get = async || get_stream(port, &id, None).await;
    let open = get().await;
    assert_eq!(open.status, 200);
    let refused = get().await;
    assert_eq!(refused.status, 429);
    assert!(
        error_message(refused)
            .await
            .contains("max_streams_per_session")
    );
    drop(open);
    assert!(
        eventually(async || get().await.status == 200).await,
        "a closed stream's place was not given back"
    );
}

#[tokio::test]
async fn a_get_stream_with_nothing_to_carry_is_ended() {
    let port = start(HttpOptions::new().stream_idle(Duration::from_millis(200))).await;
    let id = session(port, "2025-06-18", json!({})).await;
    let mut stream = get_stream(port, &id, None).await;
    assert_eq!(stream.status, 200);
    assert_eq!(stream.next_event().await, None, "the stream ends");
}

#[tokio::test]
async fn slow_headers_and_idle_connections_are_cut_off_and_a_slow_body_gets_408() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let port = start(
        HttpOptions::new()
            .header_read_timeout(Duration::from_millis(200))
            .body_read_timeout(Duration::from_millis(200)),
    )
    .await;

    // Slowloris: the headers never end.
    let mut slow = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    slow.write_all(format!("POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\n").as_bytes())
        .await
        .unwrap();
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), slow.read_to_end(&mut rest)).await;
    assert!(
        read.is_ok(),
        "a client sending headers slowly was not disconnected"
    );

    // A connection that sends nothing at all.
    let mut idle = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let read = tokio::time::timeout(Duration::from_secs(5), idle.read_to_end(&mut rest)).await;
    assert!(read.is_ok(), "an idle connection was not closed");

    // A kept-alive connection idle after a request.
    let mut kept = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let body = initialize("2025-11-25", json!({}));
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\naccept: application/json, text/event-stream\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    kept.write_all(head.as_bytes()).await.unwrap();
    let mut answered = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), kept.read_to_end(&mut answered)).await;
    assert!(read.is_ok(), "an idle kept-alive connection was not closed");
    assert!(
        answered.starts_with(b"HTTP/1.1 200"),
        "answered before it was closed"
    );

    // A body trickled in: 10 of 100 bytes, then nothing.
    let mut trickle = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\naccept: application/json, text/event-stream\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{{\"jsonrpc\""
    );
    trickle.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), trickle.read_to_end(&mut answer))
        .await
        .expect("a slow body is answered and its connection closed")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.contains("body_read_timeout") || answer.contains("did not arrive"),
        "{answer}"
    );
}

/// A body that ends before its `Content-Length`, or whose chunked framing is malformed, is
/// refused as what it is (400), not as a body over the size limit (413), which it was.
#[tokio::test]
async fn a_body_cut_short_or_badly_framed_gets_400_saying_so() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let port = start(HttpOptions::new()).await;
    let body = initialize("2025-11-25", json!({}));
    let head = |framing: String| {
        format!(
            "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\naccept: application/json, text/event-stream\r\ncontent-type: application/json\r\n{framing}\r\n\r\n"
        )
    };
    let short = format!(
        "{}{body}",
        head(format!("content-length: {}", body.len() + 10))
    );
    let bad_chunk = format!(
        "{}zz\r\n{body}\r\n0\r\n\r\n",
        head("transfer-encoding: chunked".into())
    );
    for (what, request) in [("cut short", short), ("bad chunk size", bad_chunk)] {
        let mut connection = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .unwrap();
        connection.write_all(request.as_bytes()).await.unwrap();
        connection.shutdown().await.unwrap();
        let mut answer = Vec::new();
        tokio::time::timeout(Duration::from_secs(5), connection.read_to_end(&mut answer))
            .await
            .expect("answered")
            .unwrap();
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 400"), "{what}: {answer}");
        assert!(
            answer.contains("could not be read") && !answer.contains("max_body_bytes"),
            "{what}: {answer}"
        );
    }
}

#[tokio::test]
async fn at_the_connection_cap_a_new_connection_gets_503_and_one_closing_lets_the_next_in() {
    let port = start(HttpOptions::new().max_connections(2)).await;
    refused_at_a_cap_until_one_closes(port, 503, "max_connections").await;
}

#[tokio::test]
async fn one_peer_over_its_connection_cap_gets_429_and_one_closing_lets_it_in() {
    let port = start(
        HttpOptions::new()
            .max_connections(16)
            .max_connections_per_peer(2),
    )
    .await;
    refused_at_a_cap_until_one_closes(port, 429, "max_connections_per_peer").await;
}

/// With two idle connections held (the cap), a new one is refused with `status`, `Retry-After`
/// and a message naming `setting`; once the two close, a new one is served.
async fn refused_at_a_cap_until_one_closes(port: u16, status: u16, setting: &str) {
    let held: Vec<_> = futures_connect(port, 2).await;
    let body = initialize("2025-11-25", json!({}));
    let post = async || request(port, "POST", &[ACCEPT], &body).await;
    let refused = eventually(async || {
        let response = post().await;
        response.status == status
            && response.header("retry-after") == Some("1")
            && response
                .text()
                .await
                .contains(&format!("HttpOptions::{setting})"))
    })
    .await;
    assert!(
        refused,
        "a connection over the cap was not refused with {status} naming {setting}"
    );
    drop(held);
    let let_in = eventually(async || post().await.status == 200).await;
    assert!(let_in, "no connection was accepted after the others closed");
}

/// Opens `count` connections that send nothing.
async fn futures_connect(port: u16, count: usize) -> Vec<tokio::net::TcpStream> {
    let mut held = Vec::new();
    for _ in 0..count {
        held.push(
            tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .unwrap(),
        );
    }
    held
}

#[tokio::test]
async fn a_resume_from_before_what_was_kept_gets_410_saying_events_were_missed() {
    let port = start(HttpOptions::new().replay_events(5)).await;
    let id = session(port, "2025-11-25", json!({})).await;
    let mut response = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        &call(30, "chatter", json!({"count": 50})),
    )
    .await;
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    let (primed, _) = response.next_event().await.unwrap();
    let primed = primed.unwrap();
    // Read the whole stream, then resume from its start: the first events are gone.
    while let Some((_, data)) = response.next_event().await {
        if data.contains("said it all") {
            break;
        }
    }
    drop(response);
    let resume = |last: String| {
        let id = id.clone();
        async move { get_stream(port, &id, Some(&last)).await }
    };
    let gone = resume(primed).await;
    assert_eq!(gone.status, 410);
    let message = error_message(gone).await;
    assert!(message.contains("no longer kept"), "{message}");
    assert!(message.contains("replay_events"), "{message}");
}

#[tokio::test]
async fn resuming_a_finished_stream_ends_it() {
    let port = start(HttpOptions::new()).await;
    let id = session(port, "2025-11-25", json!({})).await;
    let mut response = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        &call(31, "steps", json!({})),
    )
    .await;
    let mut last = None;
    while let Some((event_id, data)) = response.next_event().await {
        last = event_id;
        if data.contains("\"result\"") {
            break;
        }
    }
    let last = last.expect("the reply has an event id");
    let mut resumed = get_stream(port, &id, Some(&last)).await;
    assert_eq!(resumed.status, 200);
    assert_eq!(resumed.next_event().await, None, "a finished stream ends");
}

/// RELIABILITY.md, "Streamable HTTP": the finished request streams kept for a resume are
/// bounded in all the sessions together (`max_finished_streams`), the oldest forgotten first;
/// a session that finished a stream and went quiet kept it until it expired.
#[tokio::test]
async fn finished_streams_kept_for_a_resume_are_bounded_across_sessions() {
    let port = start(HttpOptions::new().max_finished_streams(1)).await;
    // A streamed call run to its reply: the id of its first event.
    let finish_a_stream = async |session: &str, number: u64| {
        let mut response = request(
            port,
            "POST",
            &[ACCEPT, ("mcp-session-id", session)],
            &call(number, "steps", json!({})),
        )
        .await;
        let mut first = None;
        while let Some((event_id, data)) = response.next_event().await {
            first = first.or(event_id);
            if data.contains("\"result\"") {
                break;
            }
        }
        first.expect("the stream's events have ids")
    };
    let quiet = session(port, "2025-11-25", json!({})).await;
    let first = finish_a_stream(&quiet, 1).await;
    let mut resumed = get_stream(port, &quiet, Some(&first)).await;
    assert_eq!(
        resumed.status, 200,
        "a finished stream is kept for a resume"
    );
    let mut replayed = String::new();
    while let Some((_, data)) = resumed.next_event().await {
        replayed.push_str(&data);
    }
    assert!(replayed.contains("\"result\""), "{replayed}");

    // Another session's stream finishes: the quiet session's, the oldest, is forgotten.
    let busy = session(port, "2025-11-25", json!({})).await;
    finish_a_stream(&busy, 2).await;
    let gone = get_stream(port, &quiet, Some(&first)).await;
    assert_eq!(gone.status, 410);
    let message = error_message(gone).await;
    assert!(message.contains("max_finished_streams"), "{message}");
}

#[tokio::test]
async fn subscriptions_are_capped_in_number_and_uri_length() {
    let port = start(HttpOptions::new()).await;
    let id = session(port, "2025-11-25", json!({})).await;
    let subscribe = async |number: u64, uri: &str| {
        let body = json!({"jsonrpc": "2.0", "id": number, "method": "resources/subscribe",
            "params": {"uri": uri}});
        request(
            port,
            "POST",
            &[ACCEPT, ("mcp-session-id", &id)],
            &body.to_string(),
        )
        .await
        .json()
        .await
    };
    assert_eq!(subscribe(1, "note://a").await["result"], json!({}));
    assert_eq!(subscribe(2, "note://b").await["result"], json!({}));
    // Again the same: no new subscription.
    assert_eq!(subscribe(3, "note://b").await["result"], json!({}));
    let third = subscribe(4, "note://c").await;
    assert_eq!(third["error"]["code"], -32602);
    let message = third["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("max_subscriptions") && message.contains('2'),
        "{message}"
    );

    let long = format!("note://{}", "x".repeat(100));
    let too_long = subscribe(5, &long).await;
    assert_eq!(too_long["error"]["code"], -32602);
    let message = too_long["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("max_uri_bytes") && message.contains("64"),
        "{message}"
    );
}

#[tokio::test]
async fn deleting_a_session_whose_client_is_gone_cancels_its_requests() {
    // A resume grace longer than the test: only the DELETE can end the request.
    let port = start(HttpOptions::new().resume_grace(Duration::from_secs(60))).await;
    let id = session(port, "2025-11-25", json!({})).await;
    let mut response = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        &call(
            32,
            "wait",
            json!({"tag": "gone-then-deleted", "progress": true}),
        ),
    )
    .await;
    let _priming = response.next_event().await.unwrap();
    let (_, progress) = response.next_event().await.unwrap();
    assert!(progress.contains("notifications/progress"));
    drop(response); // the client is gone
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!was_cancelled("gone-then-deleted"));
    let deleted = request(port, "DELETE", &[("mcp-session-id", &id)], "").await;
    assert_eq!(deleted.status, 204);
    assert!(
        eventually(async || was_cancelled("gone-then-deleted")).await,
        "the handler was not cancelled"
    );
}

/// A 2025-03-26 batch (which only a session can send: batches need `initialize`).
#[tokio::test]
async fn a_batch_whose_client_disconnects_is_cancelled() {
    use tokio::io::AsyncWriteExt;
    let port = start(HttpOptions::new()).await;
    let id = session(port, "2025-03-26", json!({})).await;
    let batch = format!(
        "[{}]",
        call(43, "wait", json!({"tag": "batch-gone", "progress": false}))
    );
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\naccept: application/json, text/event-stream\r\nmcp-protocol-version: 2025-03-26\r\nmcp-session-id: {id}\r\ncontent-length: {}\r\n\r\n{batch}",
        batch.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!was_cancelled("batch-gone"));
    drop(stream);
    assert!(
        eventually(async || was_cancelled("batch-gone")).await,
        "the batch's handler was not cancelled"
    );
}

#[tokio::test]
async fn a_lost_request_stream_not_resumed_within_the_grace_is_cancelled() {
    let port = start(HttpOptions::new().resume_grace(Duration::from_millis(200))).await;
    let id = session(port, "2025-11-25", json!({})).await;
    let mut response = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        &call(33, "wait", json!({"tag": "lost-stream", "progress": true})),
    )
    .await;
    let _priming = response.next_event().await.unwrap();
    let (_, progress) = response.next_event().await.unwrap();
    assert!(progress.contains("notifications/progress"));
    drop(response);
    assert!(
        eventually(async || was_cancelled("lost-stream")).await,
        "the handler was not cancelled after the grace"
    );
}

/// Losing a request's stream starts its resume grace; losing it again after a resume restarts
/// that grace, on the one timer the stream has: a client resuming and dropping a stream in a
/// loop cannot make the server hold a sleeping task per drop (RELIABILITY.md, "Both
/// transports").
#[tokio::test]
async fn a_stream_lost_again_and_again_holds_one_grace_timer() {
    let port = start(HttpOptions::new().resume_grace(Duration::from_secs(60))).await;
    let id = session(port, "2025-11-25", json!({})).await;
    let mut response = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        &call(34, "wait", json!({"tag": "lost-often", "progress": true})),
    )
    .await;
    let (primed, _) = response.next_event().await.unwrap();
    let primed = primed.unwrap();
    drop(response);
    let tasks = || {
        tokio::runtime::Handle::current()
            .metrics()
            .num_alive_tasks()
    };
    let settled = async |most: usize| eventually(async || tasks() <= most).await;
    // The first loss's timer, and the handler, are running now; connections have closed.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let before = tasks();
    for _ in 0..40 {
        let mut resumed = get_stream(port, &id, Some(&primed)).await;
        assert_eq!(resumed.status, 200);
        let (_, event) = resumed.next_event().await.unwrap();
        assert!(event.contains("notifications/progress"), "{event}");
        drop(resumed);
    }
    assert!(
        settled(before).await,
        "{} tasks alive after 40 resumes and losses of one stream, {before} before",
        tasks()
    );
    assert!(!was_cancelled("lost-often"), "cancelled within the grace");
}

/// A request whose stream was lost goes on for `resume_grace`, to be resumed, and keeps its
/// place under `max_requests_in_flight` meanwhile (RELIABILITY.md, "Both transports"): a
/// client that starts requests and drops their streams cannot make a session hold more.
#[tokio::test]
async fn requests_whose_streams_were_dropped_still_count_against_the_limit_in_flight() {
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<wait>()
        .max_requests_in_flight(2)
        .build()
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { server.serve_http(listener, HttpOptions::new()).await });
    let id = session(port, "2025-11-25", json!({})).await;
    let post =
        async |body: String| request(port, "POST", &[ACCEPT, ("mcp-session-id", &id)], &body).await;
    for n in 0..2 {
        let tag = format!("dropped-stream-{n}");
        let mut response = post(call(60 + n, "wait", json!({"tag": tag, "progress": true}))).await;
        let _priming = response.next_event().await.unwrap();
        let (_, progress) = response.next_event().await.unwrap();
        assert!(progress.contains("notifications/progress"), "{progress}");
        drop(response);
    }
    let refused = post(json!({"jsonrpc": "2.0", "id": 62, "method": "ping"}).to_string()).await;
    assert_eq!(refused.status, 200);
    let refused = refused.json().await;
    assert_eq!(refused["id"], 62);
    assert_eq!(refused["error"]["code"], -32603, "{refused}");
    assert!(error_says(&refused, "max_requests_in_flight"), "{refused}");
    assert!(!was_cancelled("dropped-stream-0") && !was_cancelled("dropped-stream-1"));
}

#[tokio::test]
async fn a_request_head_over_hyper_s_limits_gets_431() {
    let port = start(HttpOptions::new()).await;
    let names: Vec<String> = (0..101).map(|n| format!("x-filler-{n}")).collect();
    let headers: Vec<(&str, &str)> = names.iter().map(|name| (name.as_str(), "1")).collect();
    let response = request(port, "POST", &headers, &initialize("2025-11-25", json!({}))).await;
    assert_eq!(response.status, 431);
}

#[tokio::test]
async fn limits_set_to_their_maximum_mean_none() {
    let port = start(
        HttpOptions::new()
            .max_connections(usize::MAX)
            .max_sessions(usize::MAX)
            .max_streams_per_session(usize::MAX)
            .header_read_timeout(Duration::MAX)
            .body_read_timeout(Duration::MAX)
            .write_timeout(Duration::MAX)
            .stream_idle(Duration::MAX)
            .session_idle(Duration::MAX),
    )
    .await;
    let id = session(port, "2025-11-25", json!({})).await;
    let mut stream = get_stream(port, &id, None).await;
    assert_eq!(stream.status, 200);
    let (primed, _) = stream.next_event().await.unwrap();
    assert!(primed.is_some());
    let grown = request(
        port,
        "POST",
        &[ACCEPT, ("mcp-session-id", &id)],
        &call(3, "grow", json!({})),
    )
    .await;
    assert_eq!(grown.status, 200);
    let (_, data) = stream.next_event().await.unwrap();
    assert!(data.contains("list_changed"), "{data}");
}
