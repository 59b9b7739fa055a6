//! Requests run concurrently, replies are matched by id, and cancellation stops a handler.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::Checked;
use mcp_runtime::Server;
use mcp_runtime::prelude::*;
use serde_json::json;

/// Sleeps, then answers.
#[mcp_tool]
async fn slow(ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("slept {ms}")
}

static FINISHED: AtomicBool = AtomicBool::new(false);

/// Sleeps long and records whether it ever finished.
#[mcp_tool]
async fn cancellable() -> String {
    tokio::time::sleep(Duration::from_millis(800)).await;
    FINISHED.store(true, Ordering::SeqCst);
    "finished".to_owned()
}

static SPINNING: AtomicBool = AtomicBool::new(false);
static SPIN_SAW_CANCEL: AtomicBool = AtomicBool::new(false);

/// A long synchronous computation (a plain function: it runs at once, with no future), which
/// checks now and then whether its request was cancelled, for at most 5 s.
#[mcp_tool]
fn spin(ctx: Context) -> String {
    SPINNING.store(true, Ordering::SeqCst);
    let started = std::time::Instant::now();
    while !ctx.is_cancelled() && started.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(1));
    }
    SPIN_SAW_CANCEL.store(ctx.is_cancelled(), Ordering::SeqCst);
    "stopped".to_owned()
}

fn server() -> Server {
    Server::builder(mcp_runtime::server_info!())
        .tool::<slow>()
        .tool::<cancellable>()
        .tool::<spin>()
        .build()
        .unwrap()
}

fn call_line(id: u32, tool: &str, arguments: serde_json::Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}).to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_tool_does_not_delay_ping_or_other_calls() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    client
        .client
        .send_raw(&call_line(10, "slow", json!({"ms": 1500})));
    client
        .client
        .send_raw(&call_line(11, "slow", json!({"ms": 10})));
    client
        .client
        .send_raw(r#"{"jsonrpc":"2.0","id":12,"method":"ping"}"#);
    let mut order = Vec::new();
    for _ in 0..3 {
        let message = client
            .client
            .next_message(Duration::from_secs(5))
            .await
            .expect("a reply");
        order.push(message["id"].as_u64().unwrap());
        if message["id"] == 10 {
            assert_eq!(message["result"]["content"][0]["text"], "slept 1500");
        }
    }
    assert_eq!(
        order.last(),
        Some(&10),
        "the slow reply came before faster ones: {order:?}"
    );
    client.assert_valid();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_request_gets_no_reply_and_its_handler_stops() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    client
        .client
        .send_raw(&call_line(20, "cancellable", json!({})));
    tokio::time::sleep(Duration::from_millis(100)).await;
    client.client.notify(
        "notifications/cancelled",
        json!({"requestId": 20, "reason": "user"}),
    );
    client
        .client
        .send_raw(r#"{"jsonrpc":"2.0","id":21,"method":"ping"}"#);
    let reply = client.next_message().await.expect("the ping reply");
    assert_eq!(reply["id"], 21);
    assert_eq!(
        client
            .client
            .next_message(Duration::from_millis(1200))
            .await,
        None
    );
    assert!(
        !FINISHED.load(Ordering::SeqCst),
        "the cancelled handler ran to completion"
    );
}

/// A tool that cannot wait runs on the thread that received its request; a cancel arriving
/// meanwhile (here from another thread, as over HTTP) reaches it, and its reply is dropped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_reaches_a_tool_running_at_once_and_its_reply_is_dropped() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let runtime = tokio::runtime::Handle::current();
    std::thread::scope(|scope| {
        let calling = scope.spawn(|| {
            let _runtime = runtime.enter();
            client.client.send_raw(&call_line(30, "spin", json!({})));
        });
        let waited = std::time::Instant::now();
        while !SPINNING.load(Ordering::SeqCst) && waited.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(1));
        }
        client
            .client
            .notify("notifications/cancelled", json!({"requestId": 30}));
        calling.join().expect("the call returns");
    });
    assert!(
        SPIN_SAW_CANCEL.load(Ordering::SeqCst),
        "the tool did not see the cancel"
    );
    client
        .client
        .send_raw(r#"{"jsonrpc":"2.0","id":31,"method":"ping"}"#);
    let reply = client.next_message().await.expect("the ping reply");
    assert_eq!(reply["id"], 31, "the cancelled call was answered: {reply}");
    assert_eq!(
        client.client.next_message(Duration::from_millis(300)).await,
        None
    );
}

#[tokio::test]
async fn a_cancel_for_an_unknown_or_finished_request_is_ignored() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    client
        .client
        .notify("notifications/cancelled", json!({"requestId": 999}));
    let reply = client.call("slow", json!({"ms": 1})).await;
    assert_eq!(reply["content"][0]["text"], "slept 1");
    client
        .client
        .notify("notifications/cancelled", json!({"requestId": 1}));
    assert_eq!(client.request("ping", json!({})).await.unwrap(), json!({}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_racing_a_finishing_handler_yields_at_most_one_reply() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    for id in 100..150 {
        client
            .client
            .send_raw(&call_line(id, "slow", json!({"ms": 0})));
        client
            .client
            .notify("notifications/cancelled", json!({"requestId": id}));
    }
    let mut seen = std::collections::HashSet::new();
    while let Some(message) = client.client.next_message(Duration::from_millis(300)).await {
        let id = message["id"].as_u64().unwrap();
        assert!(seen.insert(id), "two replies for id {id}");
        assert_eq!(message["result"]["content"][0]["text"], "slept 0");
    }
    client.assert_valid();
}

#[tokio::test]
async fn a_reused_id_in_flight_is_refused() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    client
        .client
        .send_raw(&call_line(30, "slow", json!({"ms": 300})));
    client
        .client
        .send_raw(&call_line(30, "slow", json!({"ms": 1})));
    let first = client.next_message().await.unwrap();
    assert_eq!(first["error"]["code"], -32600);
    assert!(
        first["error"]["message"]
            .as_str()
            .unwrap()
            .contains("already in use")
    );
    let second = client.next_message().await.unwrap();
    assert_eq!(second["result"]["content"][0]["text"], "slept 300");
}

#[tokio::test]
async fn closing_waits_for_requests_in_flight() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    client
        .client
        .send_raw(&call_line(40, "slow", json!({"ms": 200})));
    let started = std::time::Instant::now();
    client.client.close().await;
    assert!(started.elapsed() >= Duration::from_millis(150));
}

/// A session holds at most `max_requests_in_flight` requests (RELIABILITY.md, "Both
/// transports"): one more, even a `ping`, is answered at once with -32603 naming the setting
/// and runs nothing; a request that ends, or is cancelled, frees its place.
#[tokio::test]
async fn a_request_past_the_limit_in_flight_is_refused_until_one_ends() {
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<slow>()
        .max_requests_in_flight(2)
        .build()
        .unwrap();
    let client = Checked::connect(&server, "2025-11-25").await;
    client
        .client
        .send_raw(&call_line(1, "slow", json!({"ms": 10_000})));
    client
        .client
        .send_raw(&call_line(2, "slow", json!({"ms": 300})));
    let refused = client
        .request("ping", json!({}))
        .await
        .expect_err("a third request in flight is refused");
    assert_eq!(refused.code, -32603, "{refused:?}");
    assert!(
        refused.message.contains("limit of 2 requests in flight")
            && refused.message.contains("max_requests_in_flight"),
        "{refused:?}"
    );
    // Request 2 ends, and its place serves the next request.
    let second = client.next_message().await.expect("request 2 is answered");
    assert_eq!(second["id"], 2);
    assert_eq!(second["result"]["content"][0]["text"], "slept 300");
    client
        .client
        .send_raw(&call_line(3, "slow", json!({"ms": 10_000})));
    let refused = client.request("ping", json!({})).await;
    assert_eq!(refused.expect_err("full again").code, -32603);
    // A cancel frees a place too (once the cancelled task has let go of it).
    client
        .client
        .notify("notifications/cancelled", json!({"requestId": 1}));
    let started = std::time::Instant::now();
    while client.request("ping", json!({})).await.is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the cancelled request's place was never freed"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    client.assert_valid();
}

/// All the sessions of a server hold at most `max_requests_in_flight_total` requests together
/// (RELIABILITY.md, "Both transports"): with two sessions each under its own limit, one more
/// request on either is answered at once with -32603 naming the setting, and a request that
/// ends frees a place for any session.
#[tokio::test]
async fn the_sessions_of_a_server_hold_at_most_its_total_in_flight() {
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<slow>()
        .max_requests_in_flight(2)
        .max_requests_in_flight_total(2)
        .build()
        .unwrap();
    let first = Checked::connect(&server, "2025-11-25").await;
    let second = Checked::connect(&server, "2025-11-25").await;
    first
        .client
        .send_raw(&call_line(1, "slow", json!({"ms": 10_000})));
    second
        .client
        .send_raw(&call_line(1, "slow", json!({"ms": 300})));
    // Both have started once the first session's ping is refused: requests run in the order
    // they come, and the first session's call came first.
    tokio::time::sleep(Duration::from_millis(50)).await;
    for client in [&first, &second] {
        let refused = client
            .request("ping", json!({}))
            .await
            .expect_err("a third request in flight on the server is refused");
        assert_eq!(refused.code, -32603, "{refused:?}");
        assert!(
            refused
                .message
                .contains("limit of 2 requests in flight across all")
                && refused.message.contains("max_requests_in_flight_total"),
            "{refused:?}"
        );
    }
    // The second session's call ends, and its place serves the first session.
    let ended = second.next_message().await.expect("its call is answered");
    assert_eq!(ended["result"]["content"][0]["text"], "slept 300");
    let started = std::time::Instant::now();
    while first.request("ping", json!({})).await.is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the ended request's place was never freed"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    first.assert_valid();
    second.assert_valid();
}

/// The requests in flight hold at most `max_request_bytes_in_flight` bytes of params together
/// (RELIABILITY.md, "Both transports"): a large request while another holds part of the budget
/// is answered at once with -32603 naming the setting; small ones still pass; alone, a request
/// larger than the whole budget runs.
#[tokio::test]
async fn the_requests_in_flight_hold_at_most_the_bytes_budget() {
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<slow>()
        .max_request_bytes_in_flight(1000)
        .build()
        .unwrap();
    let first = Checked::connect(&server, "2025-11-25").await;
    let second = Checked::connect(&server, "2025-11-25").await;
    let padding = "x".repeat(600);
    let large = |id: u32, ms: u64| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": "slow", "arguments": {"ms": ms}, "_meta": {"padding": padding}}})
        .to_string()
    };
    first.client.send_raw(&large(1, 10_000));
    tokio::time::sleep(Duration::from_millis(50)).await;
    second.client.send_raw(&large(1, 0));
    let refused = second.next_message().await.expect("answered at once");
    assert_eq!(refused["error"]["code"], -32603, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("limit of 1000 bytes of params")
            && message.contains("max_request_bytes_in_flight"),
        "{message}"
    );
    // Small requests fit beside the large one.
    second.request("ping", json!({})).await.unwrap();
    // Alone, a request larger than the whole budget runs.
    let alone = Checked::connect(
        &Server::builder(mcp_runtime::server_info!())
            .tool::<slow>()
            .max_request_bytes_in_flight(100)
            .build()
            .unwrap(),
        "2025-11-25",
    )
    .await;
    alone.client.send_raw(&large(7, 0));
    let served = alone.next_message().await.expect("answered");
    assert_eq!(
        served["result"]["content"][0]["text"], "slept 0",
        "{served}"
    );
    first.assert_valid();
}

/// A limit of zero requests in flight could serve nothing: `build` says so.
#[test]
fn a_limit_of_no_requests_in_flight_is_a_build_error() {
    let error = Server::builder(mcp_runtime::server_info!())
        .max_requests_in_flight(0)
        .max_requests_in_flight_total(0)
        .build()
        .err()
        .expect("zero requests in flight is refused");
    let error = error.to_string();
    for setting in ["max_requests_in_flight", "max_requests_in_flight_total"] {
        assert!(
            error.contains(&format!("`ServerBuilder::{setting}` is 0")),
            "{error}"
        );
    }
}

/// Every other limit of zero too, at once: `build` for the server's, `serve_http` (before it
/// serves anything) for the HTTP transport's. Each used to be taken, and everything it bounds
/// refused.
#[tokio::test]
async fn limits_of_zero_are_refused_before_serving() {
    let error = Server::builder(mcp_runtime::server_info!())
        .max_message_bytes(0)
        .max_uri_bytes(0)
        .max_request_bytes_in_flight(0)
        .max_subscriptions(0)
        .max_listeners(0)
        .max_log_backlog(0)
        .task_limits(mcp_runtime::tasks::TaskLimits {
            max_live: 0,
            max_bytes: 0,
            max_bytes_per_caller: 0,
            ..Default::default()
        })
        .build()
        .err()
        .expect("zero limits are refused")
        .to_string();
    for setting in [
        "ServerBuilder::max_message_bytes",
        "ServerBuilder::max_uri_bytes",
        "ServerBuilder::max_request_bytes_in_flight",
        "ServerBuilder::max_subscriptions",
        "ServerBuilder::max_listeners",
        "ServerBuilder::max_log_backlog",
        "TaskLimits::max_live",
        "TaskLimits::max_bytes",
        "TaskLimits::max_bytes_per_caller",
    ] {
        assert!(error.contains(&format!("`{setting}` is 0")), "{error}");
    }
    assert!(!error.contains("max_live_per_caller"), "{error}");
    let server = Server::builder(mcp_runtime::server_info!())
        .build()
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let options = mcp_runtime::HttpOptions::new()
        .max_body_bytes(0)
        .max_connections(0)
        .max_sessions(0);
    let error = server
        .serve_http(listener, options)
        .await
        .expect_err("zero HTTP limits are refused")
        .to_string();
    for setting in ["max_body_bytes", "max_connections", "max_sessions"] {
        assert!(
            error.contains(&format!("`HttpOptions::{setting}` is 0")),
            "{error}"
        );
    }
}
