//! Revision 2026-07-28, stateless, beside the session-based revisions on one connection: each
//! request names its revision and the client's capabilities in `_meta`; every message the
//! server writes is checked against the official schema of the revision it answers.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{STATELESS_REVISION, check_message, first_text};
use mcp_runtime::prelude::*;
use mcp_runtime::testing::TestClient;
use mcp_runtime::{CacheHints, CacheScope, RpcError, Server};
use serde_json::{Value, json};

/// Echoes its input.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

/// Logs at each level it is asked for, then answers.
#[mcp_tool]
fn chatty(ctx: Context) -> String {
    ctx.debug("a debug line");
    ctx.info("an info line");
    ctx.warning("a warning line");
    "done".to_owned()
}

/// The shop's opening hours.
#[mcp_resource(uri = "shop://info/hours")]
fn hours() -> &'static str {
    "Mon-Fri 9:00 to 18:00."
}

fn cities(prefix: &str) -> Vec<&'static str> {
    let _ = prefix;
    vec!["Lisbon", "London", "Lyon"]
}

/// Plans a trip.
#[mcp_prompt]
fn trip(#[complete(cities)] city: String) -> String {
    format!("Plan a trip to {city}.")
}

fn server() -> Server {
    Server::builder(mcp_runtime::server_info!())
        .tool::<echo>()
        .tool::<chatty>()
        .resource::<hours>()
        .prompt::<trip>()
        .instructions("Use echo to hear yourself.")
        .cache_hints(CacheHints::new(Duration::from_secs(60), CacheScope::Public))
        .build()
        .unwrap()
}

/// A client whose every incoming message is checked against the 2026-07-28 schema, or the
/// session-based revision `legacy` for the replies to requests without `_meta`.
struct Client {
    client: TestClient,
    failures: Arc<Mutex<Vec<String>>>,
}

impl Client {
    fn new(server: &Server) -> Client {
        let failures = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&failures);
        let client = TestClient::with_observer(
            server,
            Arc::new(move |answers: Option<&str>, message: &Value| {
                // A stateless result says so; a session-based one never does.
                let revision = if message["result"].get("resultType").is_some()
                    || message.get("result").is_none()
                {
                    STATELESS_REVISION
                } else {
                    "2025-11-25"
                };
                if let Err(failure) = check_message(revision, answers, message) {
                    sink.lock().unwrap().push(failure);
                }
            }),
        );
        Client { client, failures }
    }

    async fn request(&self, method: &str, params: Value) -> Result<Value, RpcError> {
        self.request_with(method, params, json!({})).await
    }

    async fn request_with(
        &self,
        method: &str,
        params: Value,
        capabilities: Value,
    ) -> Result<Value, RpcError> {
        let outcome = self
            .client
            .request_stateless(method, params, capabilities)
            .await;
        self.assert_valid();
        outcome
    }

    fn assert_valid(&self) {
        let failures = self.failures.lock().unwrap();
        assert!(
            failures.is_empty(),
            "the server wrote messages that break the schema:\n{}",
            failures.join("\n\n")
        );
    }
}

fn server_info_of(result: &Value) -> &Value {
    &result["_meta"]["io.modelcontextprotocol/serverInfo"]
}

/// Specification 2026-07-28, server/discover: supported versions, capabilities, instructions,
/// `serverInfo` in `_meta` (not in the body), and the cache hints (server/utilities/caching).
#[tokio::test]
async fn discover_names_every_revision_and_the_capabilities() {
    let client = Client::new(&server());
    let result = client.request("server/discover", json!({})).await.unwrap();
    assert_eq!(
        result["supportedVersions"],
        json!(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"])
    );
    assert_eq!(result["capabilities"]["tools"]["listChanged"], true);
    assert_eq!(result["capabilities"]["prompts"]["listChanged"], true);
    assert!(result["capabilities"]["completions"].is_object());
    assert_eq!(result["instructions"], "Use echo to hear yourself.");
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["ttlMs"], 60_000);
    assert_eq!(result["cacheScope"], "public");
    assert!(server_info_of(&result)["name"].is_string());
    assert!(result.get("serverInfo").is_none());
}

/// basic/index "ResultType" and server/utilities/caching: every result says it is complete,
/// carries `serverInfo`, and the lists and reads carry `ttlMs` and `cacheScope`.
#[tokio::test]
async fn every_result_is_typed_and_the_cacheable_ones_carry_hints() {
    let client = Client::new(&server());
    for method in [
        "tools/list",
        "resources/list",
        "resources/templates/list",
        "prompts/list",
    ] {
        let result = client.request(method, json!({})).await.unwrap();
        assert_eq!(result["resultType"], "complete", "{method}");
        assert_eq!(result["cacheScope"], "public", "{method}");
        assert!(server_info_of(&result).is_object(), "{method}");
    }
    let read = client
        .request("resources/read", json!({"uri": "shop://info/hours"}))
        .await
        .unwrap();
    assert_eq!(read["contents"][0]["text"], "Mon-Fri 9:00 to 18:00.");
    assert_eq!(read["ttlMs"], 60_000);
    let call = client
        .request(
            "tools/call",
            json!({"name": "echo", "arguments": {"text": "hi"}}),
        )
        .await
        .unwrap();
    assert_eq!(first_text(&call), "hi");
    assert_eq!(call["resultType"], "complete");
    assert!(
        call.get("ttlMs").is_none(),
        "a call result is not cacheable"
    );
    let prompt = client
        .request(
            "prompts/get",
            json!({"name": "trip", "arguments": {"city": "Lyon"}}),
        )
        .await
        .unwrap();
    assert_eq!(prompt["resultType"], "complete");
    let completion = client
        .request(
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "trip"}, "argument": {"name": "city", "value": "L"}}),
        )
        .await
        .unwrap();
    assert_eq!(
        completion["completion"]["values"],
        json!(["Lisbon", "London", "Lyon"])
    );
}

/// basic/index "Per-request protocol fields": `protocolVersion` and `clientCapabilities` are
/// required; a request that claims the revision with a broken `_meta` is refused with -32602
/// naming the field, never served as a session-based one.
#[tokio::test]
async fn a_broken_meta_is_invalid_params_naming_the_field() {
    let client = Client::new(&server());
    let claim = "io.modelcontextprotocol/protocolVersion";
    for (meta, field) in [
        (json!({claim: "2026-07-28"}), "clientCapabilities"),
        (
            json!({claim: 2026, "io.modelcontextprotocol/clientCapabilities": {}}),
            "protocolVersion",
        ),
        (
            json!({claim: "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/logLevel": "loud"}),
            "logLevel",
        ),
    ] {
        let error = client
            .client
            .request("server/discover", json!({ "_meta": meta }))
            .await
            .unwrap_err();
        assert_eq!(error.code, -32602, "{error}");
        assert!(error.message.contains(field), "{error}");
    }
    // Without `clientInfo` (a SHOULD), the request is served.
    let served = client
        .client
        .request(
            "server/discover",
            json!({"_meta": {claim: "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}),
        )
        .await;
    assert!(served.is_ok());
}

/// basic/versioning: an unsupported revision is -32022 with `supported` (the same list as
/// `server/discover`'s) and `requested` echoing the claim.
#[tokio::test]
async fn an_unsupported_revision_lists_the_supported_ones() {
    let client = Client::new(&server());
    for version in ["v999.0.0", "2025-11-25"] {
        let error = client
            .request(
                "tools/list",
                json!({"_meta": {"io.modelcontextprotocol/protocolVersion": version}}),
            )
            .await
            .unwrap_err();
        assert_eq!(error.code, -32022);
        let data = error.data.unwrap();
        assert_eq!(data["requested"], version);
        assert_eq!(data["supported"][0], "2026-07-28");
    }
}

/// Methods 2026-07-28 removed, and an unknown one, are -32601 (and the error names what
/// replaced the removed ones).
#[tokio::test]
async fn removed_methods_are_not_found() {
    let client = Client::new(&server());
    for method in [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
        "unknown/method",
    ] {
        let error = client
            .request(method, json!({"uri": "shop://info/hours"}))
            .await
            .unwrap_err();
        assert_eq!(error.code, -32601, "{method}: {error}");
    }
    let error = client.request("ping", json!({})).await.unwrap_err();
    assert!(error.message.contains("2026-07-28"), "{error}");
}

/// A method of a capability the server does not declare is -32601 (server-stateless's
/// "tools/list is consistent with the tools capability").
#[tokio::test]
async fn an_undeclared_capability_s_methods_are_not_found() {
    let server = Server::builder(mcp_runtime::server_info!())
        .prompt::<trip>()
        .build()
        .unwrap();
    let client = Client::new(&server);
    let discovered = client.request("server/discover", json!({})).await.unwrap();
    assert!(discovered["capabilities"].get("tools").is_none());
    let error = client.request("tools/list", json!({})).await.unwrap_err();
    assert_eq!(error.code, -32601);
    client.request("prompts/list", json!({})).await.unwrap();
}

/// server/resources "Error Handling": 2026-07-28 answers an unknown resource with -32602 and
/// the URI; the session-based revisions keep -32002.
#[tokio::test]
async fn an_unknown_resource_s_code_follows_the_revision() {
    let client = Client::new(&server());
    let uri = "test://nonexistent-resource-for-conformance-testing";
    let error = client
        .request("resources/read", json!({ "uri": uri }))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
    assert_eq!(error.data.unwrap()["uri"], uri);
    client.client.initialize().await.unwrap();
    let error = client
        .client
        .request("resources/read", json!({ "uri": uri }))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32002);
}

/// server/utilities/logging: without `logLevel` in `_meta` a request gets no log messages at
/// all; with one, those at or above it, before the result.
#[tokio::test]
async fn log_messages_follow_the_request_s_own_level() {
    let client = Client::new(&server());
    let call = json!({"name": "chatty", "arguments": {}});
    client.request("tools/call", call.clone()).await.unwrap();
    assert!(
        client
            .client
            .next_message(Duration::from_millis(100))
            .await
            .is_none(),
        "a log message was sent without a logLevel"
    );
    let mut with_level = call;
    with_level["_meta"] = json!({"io.modelcontextprotocol/logLevel": "info"});
    client.request("tools/call", with_level).await.unwrap();
    let mut levels = Vec::new();
    while let Some(message) = client.client.next_message(Duration::from_millis(100)).await {
        assert_eq!(message["method"], "notifications/message");
        levels.push(message["params"]["level"].as_str().unwrap().to_owned());
    }
    assert_eq!(levels, ["info", "warning"]);
    client.assert_valid();
}

/// basic/versioning "Backward Compatibility": one connection serves both eras. A session
/// initialized with 2025-06-18 keeps its revision for its own requests, while a request that
/// names 2026-07-28 in `_meta` is served statelessly on the same connection.
#[tokio::test]
async fn one_connection_serves_both_eras() {
    let client = Client::new(&server());
    let initialized = client
        .client
        .initialize_with("2025-06-18", json!({}))
        .await
        .unwrap();
    assert_eq!(initialized["protocolVersion"], "2025-06-18");
    let stateless = client.request("tools/list", json!({})).await.unwrap();
    assert_eq!(stateless["resultType"], "complete");
    let legacy = client
        .client
        .request("tools/list", json!({}))
        .await
        .unwrap();
    assert!(legacy.get("resultType").is_none());
    assert!(legacy.get("ttlMs").is_none());
    client.client.request("ping", json!({})).await.unwrap();
    client.assert_valid();
}
