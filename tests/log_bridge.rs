//! `tracing` events inside a handler reach the client as log messages (feature `tracing`).

mod common;

use common::Checked;
use mcp_runtime::Server;
use mcp_runtime::prelude::*;
use serde_json::json;
use tracing_subscriber::prelude::*;

/// Looks something up, logging through `tracing` as library code does.
#[mcp_tool]
async fn lookup(key: String) -> String {
    look_up(&key)
}

/// [`lookup`] as a plain function: it runs at once, with no future, and logs the same.
#[mcp_tool]
fn lookup_at_once(key: String) -> String {
    look_up(&key)
}

/// What both tools do.
fn look_up(key: &str) -> String {
    tracing::debug!("looking up");
    tracing::warn!(key, attempts = 3, "slow lookup");
    format!("found {key}")
}

#[tokio::test]
async fn tracing_events_in_a_handler_become_log_notifications() {
    tracing_subscriber::registry()
        .with(mcp_runtime::log_bridge::McpLogLayer::new())
        .init();
    tracing::info!("outside any handler: goes nowhere, and does not fail");

    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<lookup>()
        .tool::<lookup_at_once>()
        .build()
        .unwrap();
    let client = Checked::connect(&server, "2025-11-25").await;
    client
        .request("logging/setLevel", json!({"level": "info"}))
        .await
        .unwrap();
    for tool in ["lookup", "lookup_at_once"] {
        let result = client.call(tool, json!({"key": "k1"})).await;
        assert_eq!(result["content"][0]["text"], "found k1");
        let note = client.next_message().await.expect("a log message");
        assert_eq!(
            note,
            json!({
                "jsonrpc": "2.0",
                "method": "notifications/message",
                "params": {
                    "level": "warning",
                    "logger": "log_bridge",
                    "data": {"message": "slow lookup", "key": "k1", "attempts": 3},
                },
            })
        );
        assert_eq!(
            client
                .client
                .next_message(std::time::Duration::from_millis(200))
                .await,
            None,
            "the debug event is below the client's level"
        );
    }
}
