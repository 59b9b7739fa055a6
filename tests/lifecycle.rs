//! `initialize`, version negotiation, capabilities, `ping` and unknown methods.

mod common;

use common::{Checked, SESSION_REVISIONS, check_message};
use mcp_runtime::Server;
use mcp_runtime::prelude::*;
use serde_json::json;

/// Echoes its input.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

fn server() -> Server {
    Server::builder(mcp_runtime::server_info!())
        .tool::<echo>()
        .instructions("Use echo to hear yourself.")
        .build()
        .unwrap()
}

#[tokio::test]
async fn each_supported_revision_is_echoed() {
    for revision in SESSION_REVISIONS {
        // `Checked::connect` asserts the echo and validates the result against the schema.
        let client = Checked::connect(&server(), revision).await;
        client.assert_valid();
    }
}

#[tokio::test]
async fn an_unknown_revision_is_answered_with_the_latest() {
    for asked in ["2024-11-05", "1999-01-01", "2026-07-28"] {
        // One session each: a session is initialized once.
        let client = Checked::connect_uninitialized(&server(), "2025-11-25");
        let result = client
            .request(
                "initialize",
                json!({"protocolVersion": asked, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}),
            )
            .await
            .unwrap();
        assert_eq!(result["protocolVersion"], "2025-11-25", "asked for {asked}");
    }
}

/// "The initialization phase MUST be the first interaction", and in operation "Both parties
/// MUST respect the negotiated protocol version" (specification 2025-11-25, Lifecycle): a
/// second `initialize` is refused with -32600, and the revision the first one settled stays.
#[tokio::test]
async fn a_second_initialize_is_refused_and_the_revision_stays() {
    let client = Checked::connect(&server(), "2025-03-26").await;
    for asked in ["2025-11-25", "2025-03-26"] {
        let error = client
            .request(
                "initialize",
                json!({"protocolVersion": asked, "capabilities": {}, "clientInfo": {"name": "again", "version": "2"}}),
            )
            .await
            .expect_err("a second initialize is refused");
        assert_eq!(error.code, -32600, "{error}");
        assert!(
            error
                .message
                .contains("already initialized (protocol revision 2025-03-26)"),
            "{error}"
        );
    }
    // Still 2025-03-26, the one revision with batches.
    client
        .client
        .send_raw(r#"[{"jsonrpc":"2.0","id":"b","method":"ping"}]"#);
    let reply = client
        .client
        .next_message(std::time::Duration::from_secs(5))
        .await
        .expect("the batch's reply");
    assert_eq!(reply, json!([{"jsonrpc": "2.0", "id": "b", "result": {}}]));
}

#[tokio::test]
async fn initialize_reports_the_server_and_only_what_it_has() {
    let client = Checked::connect_uninitialized(&server(), "2025-11-25");
    let result = client
        .request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}),
        )
        .await
        .unwrap();
    assert_eq!(result["serverInfo"]["name"], "mcp-examples");
    assert_eq!(result["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(result["instructions"], "Use echo to hear yourself.");
    assert_eq!(
        result["capabilities"],
        json!({"tools": {"listChanged": true}, "logging": {}})
    );

    let empty = Server::builder(mcp_runtime::server_info!())
        .build()
        .unwrap();
    let client = Checked::connect_uninitialized(&empty, "2025-11-25");
    let result = client
        .request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}),
        )
        .await
        .unwrap();
    assert_eq!(result["capabilities"], json!({"logging": {}}));
    assert!(result.get("instructions").is_none());
}

/// A session holds what `initialize` declares for its life, so the params are bounded (64
/// KiB; RELIABILITY.md, "Both transports"): longer ones get -32602 saying so, the session is
/// not initialized by them, and an `initialize` of ordinary size then succeeds.
#[tokio::test]
async fn an_oversized_initialize_is_refused_and_leaves_the_session_uninitialized() {
    let client = Checked::connect_uninitialized(&server(), "2025-11-25");
    let padding: serde_json::Map<String, serde_json::Value> = (0..2000)
        .map(|n| {
            (
                format!("x-experiment-{n}"),
                json!({"enabled": true, "note": "padding"}),
            )
        })
        .collect();
    let error = client
        .request(
            "initialize",
            json!({"protocolVersion": "2025-11-25",
                   "capabilities": {"experimental": padding},
                   "clientInfo": {"name": "big", "version": "1"}}),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
    assert!(
        error.message.contains("limit of 64 KiB"),
        "{}",
        error.message
    );
    let result = client
        .request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "small", "version": "1"}}),
        )
        .await
        .unwrap();
    assert_eq!(result["protocolVersion"], "2025-11-25");
}

#[tokio::test]
async fn initialize_without_its_required_fields_is_invalid_params() {
    let client = Checked::connect_uninitialized(&server(), "2025-11-25");
    let error = client
        .request("initialize", json!({"capabilities": {}}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
    assert!(
        error.message.contains("protocolVersion"),
        "{}",
        error.message
    );
}

#[tokio::test]
async fn ping_returns_an_empty_object() {
    let client = Checked::connect(&server(), "2025-06-18").await;
    assert_eq!(client.request("ping", json!({})).await.unwrap(), json!({}));
    // Before initialize too.
    let fresh = Checked::connect_uninitialized(&server(), "2025-11-25");
    assert_eq!(fresh.request("ping", json!({})).await.unwrap(), json!({}));
}

#[tokio::test]
async fn unknown_methods_are_method_not_found_at_any_time() {
    let client = Checked::connect_uninitialized(&server(), "2025-11-25");
    // The Python client probes this before initialize and waits if nothing answers.
    let error = client
        .request("server/discover", json!({}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32601);
    assert_eq!(error.message, "Method not found: `server/discover`");
    client
        .request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}),
        )
        .await
        .unwrap();
    let error = client.request("tools/lst", json!({})).await.unwrap_err();
    assert_eq!(error.code, -32601);
    assert_eq!(
        error.message,
        "Method not found: `tools/lst`; did you mean `tools/list`?"
    );
    assert_eq!(error.data, Some(json!({"method": "tools/lst"})));
    // A notification sent with an id reads as a request: the error says what to do instead.
    let error = client
        .request("notifications/initialized", json!({}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32601);
    assert_eq!(
        error.message,
        "Method not found: `notifications/initialized` is a notification, not a request: send it without an `id`"
    );
}

#[tokio::test]
async fn the_client_is_known_to_handlers_after_initialize() {
    /// Names the client.
    #[mcp_tool]
    fn client_name(ctx: Context) -> String {
        let client = ctx.client();
        format!(
            "{} {} sampling={}",
            client.name,
            client.version,
            client.has_capability("sampling")
        )
    }
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<client_name>()
        .build()
        .unwrap();
    let client = Checked::connect_with(&server, "2025-06-18", json!({"sampling": {}})).await;
    let result = client.call("client_name", json!({})).await;
    assert_eq!(
        common::first_text(&result),
        "mcp-runtime-test-client 0 sampling=true"
    );
}

#[test]
fn the_schema_check_catches_a_broken_message() {
    // Guards the guard: a result without `content` must fail validation.
    let broken = json!({"jsonrpc": "2.0", "id": 1, "result": {"isError": true}});
    assert!(check_message("2025-11-25", Some("tools/call"), &broken).is_err());
    let broken = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "x"}]}});
    assert!(check_message("2025-06-18", Some("tools/list"), &broken).is_err());
    let fine = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": []}});
    assert!(check_message("2025-03-26", Some("tools/call"), &fine).is_ok());
}
