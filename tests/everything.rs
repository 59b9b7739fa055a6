//! The surface of `examples/everything.rs`, the server the official MCP conformance suite
//! runs against, driven in-process with the exact requests the suite's server scenarios send
//! and the exact values they expect (`tests/conformance/SCENARIOS.md`). Every message the
//! server writes is checked against the official schema of the revision.

mod common;

#[allow(dead_code)] // its `main` is the example's, not the test's
#[path = "../examples/everything.rs"]
mod everything;

use std::sync::{Arc, Mutex};

use common::{Checked, SESSION_REVISIONS, first_text};
use serde_json::{Value, json};

/// The revision the suite's client (TypeScript SDK 1.x) negotiates.
const REVISION: &str = "2025-11-25";

/// The 1×1 red PNG, base64.
const RED_PIXEL: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// The one-sample WAV, base64.
const SILENT_WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQIAAAAAAA==";

async fn connect() -> Checked {
    Checked::connect(&everything::server().unwrap(), REVISION).await
}

/// The server's requests to the client: method and params.
type Asked = Arc<Mutex<Vec<(String, Value)>>>;

/// Connects as the suite's client does (declaring `sampling` and `elicitation`), answering
/// every server request with `answer` and recording the requests.
async fn connect_answering(answer: Value) -> (Checked, Asked) {
    let client = Checked::connect_with(
        &everything::server().unwrap(),
        REVISION,
        json!({"sampling": {}, "elicitation": {}}),
    )
    .await;
    let asked = Asked::default();
    let record = Arc::clone(&asked);
    client.client.answer_requests(move |method, params| {
        record
            .lock()
            .unwrap()
            .push((method.to_owned(), params.clone()));
        Ok(answer.clone())
    });
    (client, asked)
}

/// The one request the server sent.
fn only_request(asked: &Asked) -> (String, Value) {
    let asked = asked.lock().unwrap();
    assert_eq!(asked.len(), 1, "{asked:?}");
    asked[0].clone()
}

/// Sends `tools/call` with `params` as raw JSON (so `_meta` can be set) and returns what came
/// before the reply, and the reply's result.
async fn call_raw(client: &Checked, id: u64, params: Value) -> (Vec<Value>, Value) {
    let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
    client.client.send_raw(&call.to_string());
    let mut before = Vec::new();
    loop {
        let message = client.next_message().await.expect("the reply within 5 s");
        if message.get("method").is_none() && message["id"] == json!(id) {
            return (before, message["result"].clone());
        }
        before.push(message);
    }
}

#[tokio::test]
async fn initialize_declares_every_capability_the_suite_uses() {
    // server-initialize
    let client = Checked::connect_uninitialized(&everything::server().unwrap(), REVISION);
    let result = client
        .client
        .initialize_with(REVISION, json!({"sampling": {}, "elicitation": {}}))
        .await
        .unwrap();
    client.assert_valid();
    assert_eq!(result["protocolVersion"], REVISION);
    assert_eq!(result["serverInfo"]["name"], "mcp-conformance-everything");
    let capabilities = &result["capabilities"];
    assert_eq!(capabilities["tools"], json!({"listChanged": true}));
    assert_eq!(
        capabilities["resources"],
        json!({"subscribe": true, "listChanged": true})
    );
    assert_eq!(capabilities["prompts"], json!({"listChanged": true}));
    assert_eq!(capabilities["logging"], json!({}));
    assert_eq!(capabilities["completions"], json!({}));
}

#[tokio::test]
async fn ping_and_logging_set_level_answer_empty_objects() {
    // ping, logging-set-level
    let client = connect().await;
    assert_eq!(client.request("ping", json!({})).await.unwrap(), json!({}));
    assert_eq!(
        client
            .request("logging/setLevel", json!({"level": "info"}))
            .await
            .unwrap(),
        json!({})
    );
}

#[tokio::test]
async fn tools_list_has_every_tool_with_a_description_and_a_schema() {
    // tools-list (and tools-name-format)
    let client = connect().await;
    let tools = client.list_tools().await;
    let mut names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "confirm_delete",
            "failing_job",
            "greet",
            "json_schema_2020_12_tool",
            "multi_input",
            "protocol_error_job",
            "slow_compute",
            "test_audio_content",
            "test_elicitation",
            "test_elicitation_sep1034_defaults",
            "test_elicitation_sep1330_enums",
            "test_embedded_resource",
            "test_error_handling",
            "test_header_tool",
            "test_image_content",
            "test_input_required_result_capabilities",
            "test_input_required_result_elicitation",
            "test_input_required_result_list_roots",
            "test_input_required_result_multi_round",
            "test_input_required_result_multiple_inputs",
            "test_input_required_result_request_state",
            "test_input_required_result_sampling",
            "test_input_required_result_tampered_state",
            "test_logging_tool",
            "test_missing_capability",
            "test_multiple_content_types",
            "test_reconnection",
            "test_sampling",
            "test_simple_text",
            "test_streaming_elicitation",
            "test_toggled_tool",
            "test_tool_with_logging",
            "test_tool_with_progress",
            "test_tool_with_task",
            "test_trigger_prompt_change",
            "test_trigger_tool_change",
        ]
    );
    for tool in &tools {
        let name = tool["name"].as_str().unwrap();
        assert!(
            tool["description"].as_str().is_some_and(|d| !d.is_empty()),
            "{tool}"
        );
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
        assert!(
            (1..=128).contains(&name.len())
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c)),
            "{name}"
        );
    }
    let schema =
        |name: &str| tools.iter().find(|t| t["name"] == name).unwrap()["inputSchema"].clone();
    assert_eq!(schema("test_sampling")["required"], json!(["prompt"]));
    assert_eq!(
        schema("test_sampling")["properties"]["prompt"]["type"],
        "string"
    );
    assert_eq!(schema("test_elicitation")["required"], json!(["message"]));
    assert_eq!(schema("test_simple_text")["properties"], json!({}));
}

#[tokio::test]
async fn the_json_schema_2020_12_tool_is_served_verbatim() {
    // json-schema-2020-12: $schema, $defs (with $anchor), additionalProperties, allOf/anyOf,
    // if/then/else, all preserved.
    let client = connect().await;
    let tools = client.list_tools().await;
    let tool = tools
        .iter()
        .find(|t| t["name"] == "json_schema_2020_12_tool")
        .expect("json_schema_2020_12_tool is listed");
    assert_eq!(
        tool["description"],
        "Tool with JSON Schema 2020-12 features"
    );
    assert_eq!(
        tool["inputSchema"],
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "address": {
                    "$anchor": "addressDef",
                    "type": "object",
                    "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
                },
            },
            "properties": {
                "name": {"type": "string"},
                "address": {"$ref": "#/$defs/address"},
                "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                "phone": {"type": "string"},
                "email": {"type": "string"},
            },
            "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
            "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
            "then": {"required": ["phone"]},
            "else": {"required": ["email"]},
            "additionalProperties": false,
        })
    );
    let keys: Vec<&String> = tool["inputSchema"].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "$schema",
            "type",
            "$defs",
            "properties",
            "allOf",
            "if",
            "then",
            "else",
            "additionalProperties"
        ],
        "in the order written"
    );
    let result = client
        .call(
            "json_schema_2020_12_tool",
            json!({"name": "Ana", "email": "a@b.c"}),
        )
        .await;
    assert_eq!(
        first_text(&result),
        r#"JSON Schema 2020-12 tool called with: {"name":"Ana","email":"a@b.c"}"#
    );
}

#[tokio::test]
async fn content_tools_return_exactly_the_expected_blocks() {
    let client = connect().await;
    // tools-call-simple-text (called with no `arguments` at all)
    let result = client
        .request("tools/call", json!({"name": "test_simple_text"}))
        .await
        .unwrap();
    assert_eq!(
        result,
        json!({"content": [{"type": "text", "text": "This is a simple text response for testing."}]})
    );
    // tools-call-image
    assert_eq!(
        client.call("test_image_content", json!({})).await,
        json!({"content": [{"type": "image", "data": RED_PIXEL, "mimeType": "image/png"}]})
    );
    // tools-call-audio
    assert_eq!(
        client.call("test_audio_content", json!({})).await,
        json!({"content": [{"type": "audio", "data": SILENT_WAV, "mimeType": "audio/wav"}]})
    );
    // tools-call-embedded-resource
    assert_eq!(
        client.call("test_embedded_resource", json!({})).await,
        json!({"content": [{"type": "resource", "resource": {
            "uri": "test://embedded-resource",
            "mimeType": "text/plain",
            "text": "This is an embedded resource content.",
        }}]})
    );
    // tools-call-mixed-content
    assert_eq!(
        client.call("test_multiple_content_types", json!({})).await,
        json!({"content": [
            {"type": "text", "text": "Multiple content types test:"},
            {"type": "image", "data": RED_PIXEL, "mimeType": "image/png"},
            {"type": "resource", "resource": {
                "uri": "test://mixed-content-resource",
                "mimeType": "application/json",
                "text": "{\"test\":\"data\",\"value\":123}",
            }},
        ]})
    );
    // tools-call-error: a result with isError, not a JSON-RPC error
    assert_eq!(
        client.call("test_error_handling", json!({})).await,
        json!({"isError": true, "content": [
            {"type": "text", "text": "This tool intentionally returns an error for testing"},
        ]})
    );
    // server-sse-polling's tool: on stdio or in-process it simply answers
    let result = client.call("test_reconnection", json!({})).await;
    assert!(result.get("isError").is_none(), "{result}");
    assert!(first_text(&result).starts_with("Reconnection test completed successfully."));
}

#[tokio::test]
async fn the_logging_tool_sends_three_info_messages_before_its_reply() {
    // tools-call-with-logging: the suite sets `debug` first, then wants at least 3 messages.
    let client = connect().await;
    client
        .request("logging/setLevel", json!({"level": "debug"}))
        .await
        .unwrap();
    let (before, result) = call_raw(
        &client,
        7,
        json!({"name": "test_tool_with_logging", "arguments": {}}),
    )
    .await;
    assert_eq!(
        before,
        [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed"
        ]
        .map(
            |data| json!({"jsonrpc": "2.0", "method": "notifications/message",
            "params": {"level": "info", "data": data}})
        )
    );
    assert_eq!(
        first_text(&result),
        "Tool with logging executed successfully"
    );
}

#[tokio::test]
async fn the_progress_tool_reports_0_50_100_with_the_token_before_its_reply() {
    // tools-call-with-progress: 0.2.0 sends the token `progress-test-1`; 0.1.16 lets the SDK
    // put the request's numeric id there.
    for (id, token) in [(8, json!("progress-test-1")), (9, json!(9))] {
        let client = connect().await;
        let (before, result) = call_raw(
            &client,
            id,
            json!({"name": "test_tool_with_progress", "arguments": {},
                "_meta": {"progressToken": token}}),
        )
        .await;
        assert_eq!(
            before,
            [0, 50, 100].map(
                |done| json!({"jsonrpc": "2.0", "method": "notifications/progress",
                "params": {"progressToken": token, "progress": f64::from(done), "total": 100.0,
                    "message": format!("Completed step {done} of 100")}})
            )
        );
        assert_eq!(
            first_text(&result),
            "Tool with progress executed successfully"
        );
    }
    // Without a token: no notification, same result.
    let client = connect().await;
    let (before, _) = call_raw(&client, 10, json!({"name": "test_tool_with_progress"})).await;
    assert!(before.is_empty(), "{before:?}");
}

#[tokio::test]
async fn sampling_sends_the_prompt_and_returns_the_models_answer() {
    // tools-call-sampling
    let (client, asked) = connect_answering(json!({
        "role": "assistant",
        "content": {"type": "text", "text": "This is a test response from the client"},
        "model": "test-model",
        "stopReason": "endTurn",
    }))
    .await;
    let result = client
        .call(
            "test_sampling",
            json!({"prompt": "Test prompt for sampling"}),
        )
        .await;
    assert_eq!(
        only_request(&asked),
        (
            "sampling/createMessage".to_owned(),
            json!({
                "messages": [{"role": "user",
                    "content": {"type": "text", "text": "Test prompt for sampling"}}],
                "maxTokens": 100,
            })
        )
    );
    assert_eq!(
        result,
        json!({"content": [{"type": "text",
            "text": "LLM response: This is a test response from the client"}]})
    );
}

#[tokio::test]
async fn elicitation_asks_for_username_and_email() {
    // tools-call-elicitation
    let (client, asked) = connect_answering(json!({
        "action": "accept",
        "content": {"username": "testuser", "email": "test@example.com"},
    }))
    .await;
    let result = client
        .call(
            "test_elicitation",
            json!({"message": "Please provide your information"}),
        )
        .await;
    assert_eq!(
        only_request(&asked),
        (
            "elicitation/create".to_owned(),
            json!({
                "mode": "form",
                "message": "Please provide your information",
                "requestedSchema": {
                    "type": "object",
                    "properties": {
                        "username": {"type": "string", "description": "User's response"},
                        "email": {"type": "string", "description": "User's email address"},
                    },
                    "required": ["username", "email"],
                },
            })
        )
    );
    assert_eq!(
        first_text(&result),
        r#"User response: action=accept, content={"username":"testuser","email":"test@example.com"}"#
    );
    // Declined and cancelled answers are reported too.
    for action in ["decline", "cancel"] {
        let (client, _) = connect_answering(json!({"action": action})).await;
        let result = client
            .call("test_elicitation", json!({"message": "?"}))
            .await;
        assert_eq!(
            first_text(&result),
            format!("User response: action={action}, content={{}}")
        );
    }
}

#[tokio::test]
async fn sep1034_every_field_has_its_default() {
    // elicitation-sep1034-defaults; 0.2.0 answers without `status`, 0.1.16 with it.
    for (answer, expected) in [
        (
            json!({"name": "Jane Smith", "age": 25, "score": 88, "verified": false}),
            r#"{"name":"Jane Smith","age":25,"score":88.0,"status":"active","verified":false}"#,
        ),
        (
            json!({"name": "Jane Smith", "age": 25, "score": 88, "status": "inactive", "verified": false}),
            r#"{"name":"Jane Smith","age":25,"score":88.0,"status":"inactive","verified":false}"#,
        ),
    ] {
        let (client, asked) =
            connect_answering(json!({"action": "accept", "content": answer})).await;
        let result = client
            .call("test_elicitation_sep1034_defaults", json!({}))
            .await;
        let (method, params) = only_request(&asked);
        assert_eq!(method, "elicitation/create");
        assert_eq!(params["mode"], "form");
        let schema = &params["requestedSchema"];
        assert_eq!(schema["type"], "object");
        assert!(schema.get("required").is_none(), "{schema}");
        assert_eq!(
            schema["properties"],
            json!({
                "name": {"type": "string", "description": "User name", "default": "John Doe"},
                "age": {"type": "integer", "description": "User age", "default": 30},
                "score": {"type": "number", "description": "User score", "default": 95.5},
                "status": {"type": "string", "description": "User status", "default": "active",
                    "enum": ["active", "inactive", "pending"]},
                "verified": {"type": "boolean", "description": "Verification status", "default": true},
            })
        );
        assert_eq!(
            first_text(&result),
            format!("Elicitation completed: action=accept, content={expected}")
        );
    }
}

#[tokio::test]
async fn sep1330_asks_with_all_five_enum_forms() {
    // elicitation-sep1330-enums
    let answer = json!({
        "untitledSingle": "option1",
        "titledSingle": "value1",
        "legacyEnum": "opt1",
        "untitledMulti": ["option1", "option2"],
        "titledMulti": ["value1", "value2"],
    });
    let (client, asked) =
        connect_answering(json!({"action": "accept", "content": answer.clone()})).await;
    let result = client
        .call("test_elicitation_sep1330_enums", json!({}))
        .await;
    let (method, params) = only_request(&asked);
    assert_eq!(method, "elicitation/create");
    assert_eq!(params["mode"], "form");
    let fields = &params["requestedSchema"]["properties"];
    // Untitled single-select: `enum`, no `oneOf`, no `enumNames`.
    assert_eq!(fields["untitledSingle"]["type"], "string");
    assert_eq!(
        fields["untitledSingle"]["enum"],
        json!(["option1", "option2", "option3"])
    );
    assert!(fields["untitledSingle"].get("oneOf").is_none());
    assert!(fields["untitledSingle"].get("enumNames").is_none());
    // Titled single-select: `oneOf` of string `const` + `title`, no `enum`.
    assert_eq!(fields["titledSingle"]["type"], "string");
    assert_eq!(
        fields["titledSingle"]["oneOf"],
        json!([
            {"const": "value1", "title": "First Option"},
            {"const": "value2", "title": "Second Option"},
            {"const": "value3", "title": "Third Option"},
        ])
    );
    assert!(fields["titledSingle"].get("enum").is_none());
    // Legacy titled: `enum` with `enumNames` of the same length.
    assert_eq!(fields["legacyEnum"]["type"], "string");
    assert_eq!(
        fields["legacyEnum"]["enum"],
        json!(["opt1", "opt2", "opt3"])
    );
    assert_eq!(
        fields["legacyEnum"]["enumNames"],
        json!(["Option One", "Option Two", "Option Three"])
    );
    // Untitled multi-select: array of `items.enum`, no `items.anyOf`.
    assert_eq!(fields["untitledMulti"]["type"], "array");
    assert_eq!(
        fields["untitledMulti"]["items"],
        json!({"type": "string", "enum": ["option1", "option2", "option3"]})
    );
    // Titled multi-select: array of `items.anyOf` of `const` + `title`, no `items.enum`.
    assert_eq!(fields["titledMulti"]["type"], "array");
    assert_eq!(
        fields["titledMulti"]["items"],
        json!({"anyOf": [
            {"const": "value1", "title": "First Choice"},
            {"const": "value2", "title": "Second Choice"},
            {"const": "value3", "title": "Third Choice"},
        ]})
    );
    assert_eq!(
        first_text(&result),
        format!("Elicitation completed: action=accept, content={answer}")
    );
}

#[tokio::test]
async fn asking_a_client_without_the_capability_is_a_tool_error() {
    // "If the client doesn't support sampling/elicitation, return an error."
    let client = connect().await;
    for (tool, arguments) in [
        ("test_sampling", json!({"prompt": "?"})),
        ("test_elicitation", json!({"message": "?"})),
        ("test_elicitation_sep1034_defaults", json!({})),
        ("test_elicitation_sep1330_enums", json!({})),
    ] {
        let result = client.call(tool, arguments).await;
        assert_eq!(result["isError"], true, "{tool}: {result}");
        assert!(
            first_text(&result).contains("does not support"),
            "{tool}: {result}"
        );
    }
}

#[tokio::test]
async fn resources_are_listed_read_and_subscribed() {
    let client = connect().await;
    // resources-list: direct resources only, each with uri and name.
    let list = client.request("resources/list", json!({})).await.unwrap();
    let resources = list["resources"].as_array().unwrap();
    let uris: Vec<&str> = resources
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        [
            "test://static-binary",
            "test://static-text",
            "test://watched-resource"
        ]
    );
    for resource in resources {
        assert!(resource["name"].is_string(), "{resource}");
        assert!(resource["description"].is_string(), "{resource}");
    }
    let templates = client
        .request("resources/templates/list", json!({}))
        .await
        .unwrap();
    assert_eq!(
        templates["resourceTemplates"][0]["uriTemplate"],
        "test://template/{id}/data"
    );
    assert_eq!(
        templates["resourceTemplates"][0]["mimeType"],
        "application/json"
    );
    let read = |uri: &'static str| {
        let client = &client;
        async move {
            client
                .request("resources/read", json!({"uri": uri}))
                .await
                .unwrap_or_else(|e| panic!("{uri}: {e}"))
        }
    };
    // resources-read-text
    assert_eq!(
        read("test://static-text").await,
        json!({"contents": [{"uri": "test://static-text", "mimeType": "text/plain",
            "text": "This is the content of the static text resource."}]})
    );
    // resources-read-binary
    assert_eq!(
        read("test://static-binary").await,
        json!({"contents": [{"uri": "test://static-binary", "mimeType": "image/png",
            "blob": RED_PIXEL}]})
    );
    // resources-templates-read
    assert_eq!(
        read("test://template/123/data").await,
        json!({"contents": [{"uri": "test://template/123/data", "mimeType": "application/json",
            "text": "{\"id\":\"123\",\"templateTest\":true,\"data\":\"Data for ID: 123\"}"}]})
    );
    assert_eq!(
        read("test://watched-resource").await,
        json!({"contents": [{"uri": "test://watched-resource", "mimeType": "text/plain",
            "text": "Watched resource content"}]})
    );
    // resources-subscribe, resources-unsubscribe
    for method in ["resources/subscribe", "resources/unsubscribe"] {
        assert_eq!(
            client
                .request(method, json!({"uri": "test://watched-resource"}))
                .await
                .unwrap(),
            json!({})
        );
    }
    // sep-2164-resource-not-found (2026-07-28 only): an error naming the URI, not empty contents.
    let missing = "test://nonexistent-resource-for-conformance-testing";
    let error = client
        .request("resources/read", json!({"uri": missing}))
        .await
        .unwrap_err();
    assert_eq!(error.data, Some(json!({"uri": missing})));
}

#[tokio::test]
async fn prompts_are_listed_and_rendered_exactly() {
    let client = connect().await;
    // prompts-list: each with name and description.
    let list = client.request("prompts/list", json!({})).await.unwrap();
    let prompts = list["prompts"].as_array().unwrap();
    let names: Vec<&str> = prompts
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "test_input_required_result_prompt",
            "test_prompt_with_arguments",
            "test_prompt_with_embedded_resource",
            "test_prompt_with_image",
            "test_simple_prompt",
            "test_toggled_prompt",
        ]
    );
    for prompt in prompts {
        assert!(prompt["description"].is_string(), "{prompt}");
    }
    assert_eq!(
        prompts[1]["arguments"],
        json!([
            {"name": "arg1", "description": "First test argument", "required": true},
            {"name": "arg2", "description": "Second test argument", "required": true},
        ])
    );
    assert_eq!(
        prompts[2]["arguments"],
        json!([{"name": "resourceUri", "description": "URI of the resource to embed", "required": true}])
    );
    let get = |params: Value| {
        let client = &client;
        async move { client.request("prompts/get", params).await.unwrap()["messages"].clone() }
    };
    // prompts-get-simple
    assert_eq!(
        get(json!({"name": "test_simple_prompt"})).await,
        json!([{"role": "user", "content": {"type": "text", "text": "This is a simple prompt for testing."}}])
    );
    // prompts-get-with-args
    assert_eq!(
        get(json!({"name": "test_prompt_with_arguments",
            "arguments": {"arg1": "testValue1", "arg2": "testValue2"}}))
        .await,
        json!([{"role": "user", "content": {"type": "text",
            "text": "Prompt with arguments: arg1='testValue1', arg2='testValue2'"}}])
    );
    // prompts-get-embedded-resource
    assert_eq!(
        get(json!({"name": "test_prompt_with_embedded_resource",
            "arguments": {"resourceUri": "test://example-resource"}}))
        .await,
        json!([
            {"role": "user", "content": {"type": "resource", "resource": {
                "uri": "test://example-resource", "mimeType": "text/plain",
                "text": "Embedded resource content for testing."}}},
            {"role": "user", "content": {"type": "text", "text": "Please process the embedded resource above."}},
        ])
    );
    // prompts-get-with-image
    assert_eq!(
        get(json!({"name": "test_prompt_with_image"})).await,
        json!([
            {"role": "user", "content": {"type": "image", "data": RED_PIXEL, "mimeType": "image/png"}},
            {"role": "user", "content": {"type": "text", "text": "Please analyze the image above."}},
        ])
    );
}

#[tokio::test]
async fn arg1_of_the_prompt_with_arguments_completes() {
    // completion-complete: the suite asks for `arg1` with the value `test`.
    let client = connect().await;
    let complete = |value: &'static str| {
        let client = &client;
        async move {
            client
                .request(
                    "completion/complete",
                    json!({"ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"},
                        "argument": {"name": "arg1", "value": value}}),
                )
                .await
                .unwrap()
        }
    };
    assert_eq!(
        complete("test").await,
        json!({"completion": {"values": ["testValue1", "testValue2"], "total": 2}})
    );
    assert_eq!(
        complete("par").await,
        json!({"completion": {"values": ["paris", "park", "party"], "total": 3}})
    );
}

#[tokio::test]
async fn the_content_tools_resources_and_prompts_are_valid_in_every_revision() {
    // The 2025-06-18 scenarios of 0.1.16 run at whatever the client negotiates; every message
    // must fit each revision's schema (`Checked` validates them).
    for revision in SESSION_REVISIONS {
        let client = Checked::connect(&everything::server().unwrap(), revision).await;
        client.list_tools().await;
        for tool in [
            "test_simple_text",
            "test_image_content",
            "test_audio_content",
            "test_embedded_resource",
            "test_multiple_content_types",
            "test_error_handling",
        ] {
            let result = client.call(tool, json!({})).await;
            assert!(result["content"].as_array().is_some_and(|c| !c.is_empty()));
        }
        for method in ["resources/list", "resources/templates/list", "prompts/list"] {
            client.request(method, json!({})).await.unwrap();
        }
        for uri in [
            "test://static-text",
            "test://static-binary",
            "test://watched-resource",
            "test://template/1/data",
        ] {
            client
                .request("resources/read", json!({"uri": uri}))
                .await
                .unwrap();
        }
        for params in [
            json!({"name": "test_simple_prompt"}),
            json!({"name": "test_prompt_with_arguments", "arguments": {"arg1": "a", "arg2": "b"}}),
            json!({"name": "test_prompt_with_embedded_resource", "arguments": {"resourceUri": "test://x"}}),
            json!({"name": "test_prompt_with_image"}),
        ] {
            client.request("prompts/get", params).await.unwrap();
        }
    }
}
