//! A client of revision 2026-07-28 on an in-process connection: each request names the
//! revision and the client's capabilities in `_meta`, and every message the server writes is
//! checked against the official schema of the revision it answers.

use std::sync::{Arc, Mutex};

use mcp_runtime::testing::TestClient;
use mcp_runtime::{RpcError, Server};
use serde_json::{Value, json};

use super::{STATELESS_REVISION, check_message};

/// A client whose every incoming message is checked against the 2026-07-28 schema, or the
/// session-based revision `legacy` for the replies to requests without `_meta`.
pub struct Client {
    pub client: TestClient,
    failures: Arc<Mutex<Vec<String>>>,
}

impl Client {
    pub fn new(server: &Server) -> Client {
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

    pub async fn request(&self, method: &str, params: Value) -> Result<Value, RpcError> {
        self.request_with(method, params, json!({})).await
    }

    pub async fn request_with(
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

    /// `tools/call` of `name`, which must answer with a result.
    pub async fn call(&self, name: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": name, "arguments": arguments}))
            .await
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// `resources/read` of `uri`, which must answer with a result.
    pub async fn read(&self, uri: &str) -> Value {
        self.request("resources/read", json!({"uri": uri}))
            .await
            .unwrap_or_else(|e| panic!("{uri}: {e}"))
    }

    pub fn assert_valid(&self) {
        let failures = self.failures.lock().unwrap();
        assert!(
            failures.is_empty(),
            "the server wrote messages that break the schema:\n{}",
            failures.join("\n\n")
        );
    }
}
