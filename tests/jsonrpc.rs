//! JSON-RPC framing through the real dispatch: ids, notifications, malformed input, batches.

mod common;

use std::time::Duration;

use common::Checked;
use mcp_runtime::Server;
use mcp_runtime::prelude::*;
use serde_json::{Value, json};

/// Echoes its input.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

fn server() -> Server {
    Server::builder(mcp_runtime::server_info!())
        .tool::<echo>()
        .build()
        .unwrap()
}

async fn raw_reply(client: &Checked, line: &str) -> Value {
    client.client.send_raw(line);
    client
        .next_message()
        .await
        .unwrap_or_else(|| panic!("no reply to {line}"))
}

#[tokio::test]
async fn ids_come_back_exactly_as_sent() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    for id in [
        "0",
        "\"1\"",
        "1",
        "-5",
        "9007199254740993",
        "123456789012345678901234567890",
        "\"\"",
    ] {
        client
            .client
            .send_raw(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#));
        // Compare the text: a JSON value comparison would hide 1 vs 1.0 or precision loss.
        let (_, text) = client
            .client
            .next_message_with_text(Duration::from_secs(5))
            .await
            .expect("a reply");
        assert!(
            text.contains(&format!(r#""id":{id}"#)),
            "id {id} came back as {text}"
        );
    }
}

/// MCP: "Requests **MUST** include a string or integer ID" (specification 2025-11-25, Base
/// Protocol > Messages > Requests); JSON-RPC 2.0, section 4: numbers "SHOULD NOT contain
/// fractional parts". Such an id is not an id: the reply is -32600 and cannot name it (left
/// out from 2025-11-25 on, `null` before), as for any id that could not be read.
#[tokio::test]
async fn fractional_and_exponent_ids_are_refused_as_invalid_requests() {
    for (revision, ids) in [("2025-11-25", None), ("2025-06-18", Some(Value::Null))] {
        let client = Checked::connect(&server(), revision).await;
        for id in ["1.5", "1e3", "1E3", "2.0", "-0.5"] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
            let reply = raw_reply(&client, &line).await;
            assert_eq!(reply["error"]["code"], -32600, "{line} -> {reply}");
            assert_eq!(reply.get("id").cloned(), ids, "{line} -> {reply}");
            let message = reply["error"]["message"].as_str().unwrap();
            assert!(message.contains("string or an integer"), "{message}");
        }
        client.assert_valid();
    }
}

/// MCP names every parameter: "params?: { [key: string]: unknown }" (specification
/// 2025-11-25, Base Protocol > Messages). JSON-RPC 2.0 allows params by position (an
/// array), so such a request is valid JSON-RPC with params no MCP method takes: -32602 with
/// its id, and the tool never runs.
#[tokio::test]
async fn positional_params_are_refused_with_invalid_params() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let reply = raw_reply(
        &client,
        r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":["echo",{"text":"ran"}]}"#,
    )
    .await;
    assert_eq!(reply["id"], 8, "{reply}");
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    assert!(reply.get("result").is_none(), "the tool ran: {reply}");
    let reply = raw_reply(
        &client,
        r#"{"jsonrpc":"2.0","id":9,"method":"ping","params":[]}"#,
    )
    .await;
    assert_eq!(reply["id"], 9, "{reply}");
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    client.assert_valid();
}

#[tokio::test]
async fn notifications_are_never_answered() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    client
        .client
        .send_raw(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    client
        .client
        .send_raw(r#"{"jsonrpc":"2.0","method":"tools/list"}"#);
    client
        .client
        .send_raw(r#"{"jsonrpc":"2.0","method":"no/such/notification","params":{}}"#);
    assert_eq!(
        client.client.next_message(Duration::from_millis(300)).await,
        None
    );
}

#[tokio::test]
async fn malformed_json_is_a_parse_error_naming_no_request() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let reply = raw_reply(&client, r#"{"jsonrpc":"2.0","id":1,"method":"ping""#).await;
    assert!(
        reply.get("id").is_none(),
        "2025-11-25 leaves the id out: {reply}"
    );
    assert_eq!(reply["error"]["code"], -32700);
    // Earlier revisions follow JSON-RPC 2.0: `"id": null`.
    let client = Checked::connect(&server(), "2025-06-18").await;
    let reply = raw_reply(&client, "not json").await;
    assert_eq!(reply.get("id"), Some(&Value::Null));
    assert_eq!(reply["error"]["code"], -32700);
}

#[tokio::test]
async fn invalid_requests_are_answered_with_invalid_request() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    for (line, id) in [
        // No `method`: a malformed answer, whose id is the server's own request's, so the
        // error names none (the client would match it to a request of its own).
        (r#"{"jsonrpc":"2.0","id":3}"#, Value::Null),
        (r#"{"jsonrpc":"1.0","id":4,"method":"ping"}"#, json!(4)),
        (r#"{"id":5,"method":"ping"}"#, json!(5)),
        (r#"{"jsonrpc":"2.0","id":6,"method":7}"#, json!(6)),
        // JSON by its grammar, but the escape stands for no character (RFC 8259, 8.2).
        (r#"{"jsonrpc":"2.0","id":8,"method":"\ud800"}"#, json!(8)),
        (
            r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
            Value::Null,
        ),
        (r#""just a string""#, Value::Null),
    ] {
        let reply = raw_reply(&client, line).await;
        assert_eq!(reply["error"]["code"], -32600, "{line} -> {reply}");
        assert_eq!(
            reply.get("id").cloned().unwrap_or(Value::Null),
            id,
            "{line} -> {reply}"
        );
    }
}

/// A lone surrogate escape where a method reads text (a tool's name) is -32602 saying so,
/// with no position (it would count within the params, not the message).
#[tokio::test]
async fn params_text_that_is_no_character_is_invalid_params_saying_so() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let reply = raw_reply(
        &client,
        r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"ech\udc00","arguments":{}}}"#,
    )
    .await;
    assert_eq!(reply["id"], 9, "{reply}");
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(message.contains("lone surrogate"), "{message}");
    assert!(!message.contains("column"), "{message}");
}

/// An id comes back in its reply and in every notification about its request, so it is
/// bounded (1024 bytes of JSON text; RELIABILITY.md, "Both transports"): a longer one is
/// -32600 without an id (echoing it is what the limit prevents), one at the limit is served.
#[tokio::test]
async fn an_id_longer_than_the_limit_is_refused_without_echoing_it() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let ping = |id: &str| json!({"jsonrpc": "2.0", "id": id, "method": "ping"}).to_string();
    let at_the_limit = "i".repeat(1022);
    let reply = raw_reply(&client, &ping(&at_the_limit)).await;
    assert_eq!(reply["id"], at_the_limit.as_str());
    assert_eq!(reply["result"], json!({}));
    let reply = raw_reply(&client, &ping(&format!("{at_the_limit}i"))).await;
    assert_eq!(reply["error"]["code"], -32600, "{reply}");
    assert!(reply.get("id").is_none_or(Value::is_null), "{reply}");
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("1025 bytes long") && message.contains("1024"),
        "{message}"
    );
}

#[tokio::test]
async fn batches_are_refused_where_the_revision_removed_them() {
    for revision in ["2025-06-18", "2025-11-25"] {
        let client = Checked::connect(&server(), revision).await;
        let reply = raw_reply(&client, r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#).await;
        assert_eq!(reply["error"]["code"], -32600);
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(message.contains("batches"), "{message}");
        assert!(message.contains(revision), "{message}");
    }
}

/// A batch is handled at once, so it may hold no more messages than a session runs requests at
/// once (`max_requests_in_flight`; RELIABILITY.md, "Both transports"): a longer one gets one
/// -32600 naming the setting, and none of it runs; one at the limit is served.
#[tokio::test]
async fn a_batch_longer_than_the_requests_a_session_runs_at_once_is_refused_whole() {
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<echo>()
        .max_requests_in_flight(3)
        .build()
        .unwrap();
    let client = Checked::connect(&server, "2025-03-26").await;
    let batch = |n: u64| {
        let items: Vec<Value> = (1..=n)
            .map(|id| json!({"jsonrpc": "2.0", "id": id, "method": "ping"}))
            .collect();
        Value::Array(items).to_string()
    };
    let refused = raw_reply(&client, &batch(4)).await;
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("4 messages") && message.contains("max_requests_in_flight"),
        "{message}"
    );
    let served = raw_reply(&client, &batch(3)).await;
    assert_eq!(served.as_array().map(Vec::len), Some(3), "{served}");
}

/// basic/versioning: a request whose `_meta` names revision 2026-07-28 is served statelessly,
/// and that revision has no batches; inside a 2025-03-26 batch it was served as the
/// session's (`server/discover` unknown, no `resultType`). It is refused with its id; the
/// rest of the batch is served.
#[tokio::test]
async fn a_2026_07_28_request_in_a_batch_is_refused_with_its_id() {
    let client = Checked::connect(&server(), "2025-03-26").await;
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let batch = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}},
        {"jsonrpc": "2.0", "id": 2, "method": "ping"},
    ]);
    let reply = raw_reply(&client, &batch.to_string()).await;
    let replies = reply.as_array().expect("a batch reply is an array");
    let by_id = |id: u64| replies.iter().find(|r| r["id"] == id).unwrap();
    assert_eq!(by_id(1)["error"]["code"], -32600, "{reply}");
    let message = by_id(1)["error"]["message"].as_str().unwrap();
    assert!(message.contains("cannot be in a batch"), "{message}");
    assert_eq!(by_id(2)["result"], json!({}), "{reply}");
}

#[tokio::test]
async fn batches_work_in_2025_03_26() {
    let client = Checked::connect(&server(), "2025-03-26").await;
    let reply = raw_reply(
        &client,
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},
            {"jsonrpc":"2.0","method":"notifications/initialized"},
            {"jsonrpc":"2.0","id":"two","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}},
            {"jsonrpc":"2.0","id":3,"method":"nope"}]"#,
    )
    .await;
    let replies = reply.as_array().expect("a batch reply is an array");
    assert_eq!(replies.len(), 3, "{reply}");
    let by_id = |id: Value| replies.iter().find(|r| r["id"] == id).unwrap();
    assert_eq!(by_id(json!(1))["result"], json!({}));
    assert_eq!(by_id(json!("two"))["result"]["content"][0]["text"], "hi");
    assert_eq!(by_id(json!(3))["error"]["code"], -32601);
    // A batch of notifications only gets no reply at all.
    client
        .client
        .send_raw(r#"[{"jsonrpc":"2.0","method":"notifications/initialized"}]"#);
    assert_eq!(
        client.client.next_message(Duration::from_millis(300)).await,
        None
    );
}
