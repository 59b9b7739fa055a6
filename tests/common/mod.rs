//! Shared by the integration tests: a client that checks every message the server writes
//! against the official JSON Schema of the negotiated protocol revision.

#![allow(dead_code, unreachable_pub)]

pub mod stateless;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use mcp_runtime::testing::TestClient;
use mcp_runtime::{RpcError, Server};
use serde_json::Value;

/// The folder holding `<revision>/schema.json`: `MCP_SPEC_DIR`, or the repository's own copy
/// in `tests/mcp-spec` (see its README for where it comes from and how to refresh it).
pub fn spec_dir() -> PathBuf {
    match std::env::var_os("MCP_SPEC_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/mcp-spec"),
    }
}

/// The compiled official schemas, one compiler per revision, definitions compiled on demand.
pub struct SpecSchemas {
    schemas: boon::Schemas,
    compiler: boon::Compiler,
    compiled: HashMap<(String, String), boon::SchemaIndex>,
}

impl SpecSchemas {
    fn load() -> SpecSchemas {
        let mut compiler = boon::Compiler::new();
        for revision in ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] {
            let path = spec_dir().join(revision).join("schema.json");
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
                panic!(
                    "cannot read the official MCP schema {} ({e}); set MCP_SPEC_DIR to the folder holding <revision>/schema.json",
                    path.display()
                )
            });
            let json: Value = serde_json::from_str(&text).expect("schema.json is JSON");
            compiler
                .add_resource(&url(revision), json)
                .expect("the official schema loads");
        }
        SpecSchemas {
            schemas: boon::Schemas::new(),
            compiler,
            compiled: HashMap::new(),
        }
    }

    /// Validates `value` against definition `def` of `revision`.
    pub fn validate(&mut self, revision: &str, def: &str, value: &Value) -> Result<(), String> {
        let key = (revision.to_owned(), def.to_owned());
        let index = match self.compiled.get(&key) {
            Some(index) => *index,
            None => {
                let defs = if revision < "2025-11-25" {
                    "definitions"
                } else {
                    "$defs"
                };
                let location = format!("{}#/{defs}/{def}", url(revision));
                let index = self
                    .compiler
                    .compile(&location, &mut self.schemas)
                    .map_err(|e| format!("cannot compile {location}: {e}"))?;
                self.compiled.insert(key, index);
                index
            }
        };
        self.schemas
            .validate(value, index)
            .map_err(|e| format!("{revision} {def}: {e:#}\nin {value}"))
    }
}

fn url(revision: &str) -> String {
    format!("file:///mcp-spec/{revision}/schema.json")
}

thread_local! {
    // The validator is not `Send`: each thread compiles what it uses.
    static SPEC: std::cell::RefCell<Option<SpecSchemas>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with this thread's schema set.
pub fn with_spec<R>(f: impl FnOnce(&mut SpecSchemas) -> R) -> R {
    SPEC.with(|cell| f(cell.borrow_mut().get_or_insert_with(SpecSchemas::load)))
}

/// Validates a JSON Schema *document* produced by the server (an inputSchema/outputSchema)
/// by compiling it, and an instance against it.
pub fn validate_against(schema: &Value, instance: &Value) -> Result<(), String> {
    let mut compiler = boon::Compiler::new();
    let mut schemas = boon::Schemas::new();
    compiler
        .add_resource("file:///generated.json", schema.clone())
        .map_err(|e| format!("schema does not load: {e}"))?;
    let index = compiler
        .compile("file:///generated.json", &mut schemas)
        .map_err(|e| format!("schema does not compile: {e}"))?;
    schemas
        .validate(instance, index)
        .map_err(|e| format!("{e:#}"))
}

/// The definition a method's result must match.
fn result_def(method: &str) -> Option<&'static str> {
    Some(match method {
        "initialize" => "InitializeResult",
        "ping" => "EmptyResult",
        "tools/list" => "ListToolsResult",
        "tools/call" => "CallToolResult",
        "logging/setLevel" | "resources/subscribe" | "resources/unsubscribe" => "EmptyResult",
        "resources/list" => "ListResourcesResult",
        "resources/templates/list" => "ListResourceTemplatesResult",
        "resources/read" => "ReadResourceResult",
        "prompts/list" => "ListPromptsResult",
        "prompts/get" => "GetPromptResult",
        "completion/complete" => "CompleteResult",
        "server/discover" => "DiscoverResult",
        "subscriptions/listen" => "SubscriptionsListenResult",
        // The tasks extension's methods: its types are not in the core schema.
        "tasks/get" | "tasks/update" | "tasks/cancel" => "Result",
        _ => return None,
    })
}

/// Checks one server message; used as a [`TestClient`] observer.
pub fn check_message(revision: &str, answers: Option<&str>, message: &Value) -> Result<(), String> {
    with_spec(|spec| check_with(spec, revision, answers, message))
}

fn check_with(
    spec: &mut SpecSchemas,
    revision: &str,
    answers: Option<&str>,
    message: &Value,
) -> Result<(), String> {
    if message.is_array() {
        // Only 2025-03-26 has batches.
        return spec.validate(revision, "JSONRPCBatchResponse", message);
    }
    if revision < "2025-11-25"
        && message.get("id") == Some(&Value::Null)
        && message.get("error").is_some()
    {
        // JSON-RPC 2.0 answers an unreadable request with `"id": null`; the 2025-03-26 and
        // 2025-06-18 schemas cannot express that (2025-11-25 makes the id optional instead).
        // Check everything else about the message.
        let mut attributed = message.clone();
        attributed["id"] = Value::from(0);
        return check_with(spec, revision, answers, &attributed);
    }
    spec.validate(revision, "JSONRPCMessage", message)?;
    if let Some(error) = message.get("error") {
        let def = if revision < "2025-11-25" {
            "JSONRPCError"
        } else {
            "JSONRPCErrorResponse"
        };
        spec.validate(revision, def, message)?;
        // 2026-07-28 types the errors whose `data` carries meaning.
        let typed = match error["code"].as_i64() {
            Some(-32020) => "HeaderMismatchError",
            Some(-32021) => "MissingRequiredClientCapabilityError",
            Some(-32022) => "UnsupportedProtocolVersionError",
            _ => return Ok(()),
        };
        return spec.validate(revision, typed, message);
    }
    if message.get("method").is_some() && message.get("id").is_none() {
        // The tasks extension's notification is beyond the core schema: what every
        // notification is.
        if message["method"] == "notifications/tasks" {
            return spec.validate(revision, "JSONRPCNotification", message);
        }
        return spec.validate(revision, "ServerNotification", message);
    }
    if message.get("method").is_some() {
        return spec.validate(revision, "ServerRequest", message);
    }
    if let (Some(method), Some(result)) = (answers, message.get("result"))
        && let Some(def) = result_def(method)
    {
        let def = match result["resultType"].as_str() {
            Some("input_required") => "InputRequiredResult",
            // The tasks extension's `CreateTaskResult`, beyond the core schema: what every
            // result is.
            Some("task") => "Result",
            _ => def,
        };
        spec.validate(revision, def, result)?;
    }
    Ok(())
}

/// A [`TestClient`] whose every incoming message is checked against the official schema.
pub struct Checked {
    pub client: TestClient,
    pub revision: String,
    failures: Arc<Mutex<Vec<String>>>,
}

impl Checked {
    /// Connects and initializes with `revision`, declaring no capabilities.
    pub async fn connect(server: &Server, revision: &str) -> Checked {
        Checked::connect_with(server, revision, serde_json::json!({})).await
    }

    /// Connects and initializes with `revision`, declaring `capabilities`.
    pub async fn connect_with(server: &Server, revision: &str, capabilities: Value) -> Checked {
        let checked = Checked::connect_uninitialized(server, revision);
        let result = checked
            .client
            .initialize_with(revision, capabilities)
            .await
            .expect("initialize succeeds");
        assert_eq!(result["protocolVersion"], revision);
        checked.assert_valid();
        checked
    }

    /// Connects without initializing; messages are checked against `revision`.
    pub fn connect_uninitialized(server: &Server, revision: &str) -> Checked {
        let failures = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&failures);
        let rev = revision.to_owned();
        let client = TestClient::with_observer(
            server,
            Arc::new(move |answers: Option<&str>, message: &Value| {
                if let Err(failure) = check_message(&rev, answers, message) {
                    sink.lock().unwrap().push(failure);
                }
            }),
        );
        Checked {
            client,
            revision: revision.to_owned(),
            failures,
        }
    }

    /// Panics if any message so far broke the schema.
    pub fn assert_valid(&self) {
        let failures = self.failures.lock().unwrap();
        assert!(
            failures.is_empty(),
            "the server wrote messages that break the {} schema:\n{}",
            self.revision,
            failures.join("\n\n")
        );
    }

    pub async fn request(&self, method: &str, params: Value) -> Result<Value, RpcError> {
        let outcome = self.client.request(method, params).await;
        self.assert_valid();
        outcome
    }

    pub async fn call(&self, name: &str, arguments: Value) -> Value {
        self.request(
            "tools/call",
            serde_json::json!({"name": name, "arguments": arguments}),
        )
        .await
        .unwrap_or_else(|e| panic!("tools/call {name} failed: {e}"))
    }

    pub async fn list_tools(&self) -> Vec<Value> {
        let tools = self.client.list_tools().await.expect("tools/list succeeds");
        self.assert_valid();
        tools
    }

    /// The next message that is not a reply to `request`, within 5 s.
    pub async fn next_message(&self) -> Option<Value> {
        let message = self
            .client
            .next_message(std::time::Duration::from_secs(5))
            .await;
        self.assert_valid();
        message
    }
}

/// The revision that each request names in its `_meta`.
pub const STATELESS_REVISION: &str = "2026-07-28";

/// The revisions that negotiate with `initialize`.
pub const SESSION_REVISIONS: [&str; 3] = ["2025-03-26", "2025-06-18", "2025-11-25"];

/// The text of the first content block of a tool result.
pub fn first_text(result: &Value) -> &str {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text block in {result}"))
}
