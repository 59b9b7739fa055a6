//! The server the official MCP conformance suite (`@modelcontextprotocol/conformance`) tests:
//! every tool, resource, prompt and completion its server scenarios ask for, with the exact
//! names and contents they expect. `tests/conformance/SCENARIOS.md` lists what each scenario
//! checks; `scripts/conformance` builds this example and runs the suite against it.
//!
//! ```text
//! cargo run --release --example everything                        # stdio
//! cargo run --release --example everything -- --http 127.0.0.1:3001   # Streamable HTTP at /mcp
//! # one instance of several behind a load balancer (README, "Several instances"):
//! cargo run --release --example everything -- --http 127.0.0.1:3001 \
//!     --redis redis://127.0.0.1:6379 --state-keys state-keys --allow-host mcp.example.com:443
//! ```
//!
//! Everything is written with the macros, as a user would; the one tool whose schema is
//! hand-written (`json_schema_2020_12_tool`, served verbatim) is a `DynamicTool`, and the one
//! elicitation form the typed API cannot express (SEP-1330's legacy `enumNames`) is sent with
//! `Context::request`.

use std::time::Duration;

use mcp_runtime::prelude::*;
use mcp_runtime::{BuildError, DynamicTool, Server, ServerBuilder};
use serde_json::{Map, Value, json};

/// A 1×1 red pixel (RGBA PNG).
const RED_PIXEL_PNG: [u8; 70] = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0xfc, 0xcf, 0xc0, 0xf0,
    0x1f, 0x00, 0x05, 0x05, 0x02, 0x00, 0x5f, 0xc8, 0xf1, 0xd2, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// One silent sample: a 16-bit mono 8 kHz WAV file.
const SILENT_WAV: [u8; 46] = [
    0x52, 0x49, 0x46, 0x46, 0x26, 0x00, 0x00, 0x00, 0x57, 0x41, 0x56, 0x45, 0x66, 0x6d, 0x74, 0x20,
    0x10, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x40, 0x1f, 0x00, 0x00, 0x80, 0x3e, 0x00, 0x00,
    0x02, 0x00, 0x10, 0x00, 0x64, 0x61, 0x74, 0x61, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
];

fn red_pixel() -> Content {
    Content::image_bytes(&RED_PIXEL_PNG, "image/png")
}

/// An embedded text resource.
fn embedded(uri: &str, mime_type: &str, text: &str) -> Content {
    Content::embedded_text(uri, mime_type, text)
}

// ===== Tools =====

/// Tests simple text content response.
#[mcp_tool(read_only)]
fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Tests image content response.
#[mcp_tool(read_only)]
fn test_image_content() -> Content {
    red_pixel()
}

/// Tests audio content response.
#[mcp_tool(read_only)]
fn test_audio_content() -> Content {
    Content::audio_bytes(&SILENT_WAV, "audio/wav")
}

/// Tests embedded resource content response.
#[mcp_tool(read_only)]
fn test_embedded_resource() -> Content {
    embedded(
        "test://embedded-resource",
        "text/plain",
        "This is an embedded resource content.",
    )
}

/// Tests response with multiple content types (text, image, resource).
#[mcp_tool(read_only)]
fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        red_pixel(),
        embedded(
            "test://mixed-content-resource",
            "application/json",
            r#"{"test":"data","value":123}"#,
        ),
    ]
}

/// Tests tool that emits log messages during execution.
#[mcp_tool]
async fn test_tool_with_logging(ctx: Context) -> &'static str {
    ctx.info("Tool execution started");
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.info("Tool processing data");
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.info("Tool execution completed");
    "Tool with logging executed successfully"
}

/// Tests tool that reports progress notifications.
#[mcp_tool]
async fn test_tool_with_progress(ctx: Context) -> &'static str {
    for (i, done) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let message = format!("Completed step {done} of 100");
        ctx.report_progress(done, Some(100.0), Some(&message));
    }
    "Tool with progress executed successfully"
}

/// Tests error response handling.
#[mcp_tool]
fn test_error_handling() -> Result<String, String> {
    Err("This tool intentionally returns an error for testing".to_owned())
}

/// Tests SSE stream disconnection and client reconnection (SEP-1699): over Streamable HTTP
/// the server closes the request's stream mid-call and sends the result after the client
/// reconnects.
#[mcp_tool]
async fn test_reconnection(ctx: Context) -> &'static str {
    // Ends this request's event stream (after its priming event); the client reconnects with
    // `Last-Event-ID` and receives the reply on the resumed stream. On stdio, nothing happens.
    ctx.close_stream();
    tokio::time::sleep(Duration::from_millis(100)).await;
    "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure."
}

/// Tests server-initiated sampling (LLM completion request).
#[mcp_tool]
async fn test_sampling(
    ctx: Context,
    /// The prompt to send to the LLM
    prompt: String,
) -> Result<String, ClientError> {
    let answer = ctx
        .sample(SamplingRequest::new(100).user(Content::text(prompt)))
        .await?;
    Ok(format!("LLM response: {}", answer.text()))
}

/// What `test_elicitation` asks the user.
#[derive(Deserialize, Serialize, JsonSchema)]
struct UserResponse {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// `action=<accept|decline|cancel>, content=<the values as JSON>`.
fn describe<T: Serialize>(answer: &Elicitation<T>) -> String {
    let (action, content) = match answer {
        Elicitation::Accept(values) => ("accept", json!(values)),
        Elicitation::Decline => ("decline", json!({})),
        Elicitation::Cancel => ("cancel", json!({})),
    };
    format!("action={action}, content={content}")
}

/// Tests server-initiated elicitation (user input request).
#[mcp_tool]
async fn test_elicitation(
    ctx: Context,
    /// The message to show the user
    message: String,
) -> Result<String, ClientError> {
    let answer = ctx.elicit::<UserResponse>(&message).await?;
    Ok(format!("User response: {}", describe(&answer)))
}

/// A user's status, for SEP-1034 (an untitled single-select).
#[derive(Deserialize, Serialize, JsonSchema, Default)]
#[serde(rename_all = "lowercase")]
enum Status {
    #[default]
    Active,
    Inactive,
    Pending,
}

/// A form whose every field has a default (SEP-1034).
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(default)]
struct ProfileForm {
    /// User name
    name: String,
    /// User age
    age: i64,
    /// User score
    score: f64,
    /// User status
    status: Status,
    /// Verification status
    verified: bool,
}

impl Default for ProfileForm {
    fn default() -> ProfileForm {
        ProfileForm {
            name: "John Doe".to_owned(),
            age: 30,
            score: 95.5,
            status: Status::Active,
            verified: true,
        }
    }
}

/// Tests elicitation with default values per SEP-1034.
#[mcp_tool]
async fn test_elicitation_sep1034_defaults(ctx: Context) -> Result<String, ClientError> {
    let answer = ctx
        .elicit::<ProfileForm>("Please review and update the form fields with defaults")
        .await?;
    Ok(format!("Elicitation completed: {}", describe(&answer)))
}

/// Tests elicitation with enum schema improvements per SEP-1330.
#[mcp_tool]
async fn test_elicitation_sep1330_enums(ctx: Context) -> Result<String, ClientError> {
    // Written by hand (`elicit_with_schema`): no Rust type yields the deprecated `enumNames`
    // form; the other four fields are what `elicit` generates from enums with and without doc
    // comments.
    let schema = json!({
            "type": "object",
            "properties": {
                "untitledSingle": {
                    "type": "string",
                    "description": "Select one option",
                    "enum": ["option1", "option2", "option3"],
                },
                "titledSingle": {
                    "type": "string",
                    "description": "Select one option with titles",
                    "oneOf": [
                        {"const": "value1", "title": "First Option"},
                        {"const": "value2", "title": "Second Option"},
                        {"const": "value3", "title": "Third Option"},
                    ],
                },
                "legacyEnum": {
                    "type": "string",
                    "description": "Select one option (legacy)",
                    "enum": ["opt1", "opt2", "opt3"],
                    "enumNames": ["Option One", "Option Two", "Option Three"],
                },
                "untitledMulti": {
                    "type": "array",
                    "description": "Select multiple options",
                    "minItems": 1,
                    "maxItems": 3,
                    "items": {"type": "string", "enum": ["option1", "option2", "option3"]},
                },
                "titledMulti": {
                    "type": "array",
                    "description": "Select multiple options with titles",
                    "minItems": 1,
                    "maxItems": 3,
                    "items": {"anyOf": [
                        {"const": "value1", "title": "First Choice"},
                        {"const": "value2", "title": "Second Choice"},
                        {"const": "value3", "title": "Third Choice"},
                    ]},
                },
            },
    });
    let answer = ctx
        .elicit_with_schema("Please select options from the enum fields", schema)
        .await?;
    let (action, content) = match answer {
        Elicitation::Accept(values) => ("accept", Value::Object(values)),
        Elicitation::Decline => ("decline", json!({})),
        Elicitation::Cancel => ("cancel", json!({})),
    };
    Ok(format!(
        "Elicitation completed: action={action}, content={content}"
    ))
}

/// The `inputSchema` of `json_schema_2020_12_tool`, served exactly as written (SEP-1613,
/// SEP-2106): `$schema`, `$defs` with an `$anchor`, `$ref`, `allOf`/`anyOf`,
/// `if`/`then`/`else` and `additionalProperties: false`.
fn json_schema_2020_12_input() -> Map<String, Value> {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "addressDef",
                "type": "object",
                "properties": {
                    "street": {"type": "string"},
                    "city": {"type": "string"},
                },
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
        "if": {
            "properties": {"contactMethod": {"const": "phone"}},
            "required": ["contactMethod"],
        },
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false,
    });
    match schema {
        Value::Object(schema) => schema,
        _ => unreachable!("the schema is an object"),
    }
}

/// A tool whose schema is hand-written JSON Schema 2020-12, not derived from Rust types.
fn json_schema_2020_12_tool() -> DynamicTool {
    DynamicTool::new(
        "json_schema_2020_12_tool",
        "Tool with JSON Schema 2020-12 features",
    )
    .input_schema(json_schema_2020_12_input())
    .handler(|_ctx, arguments| async move {
        CallToolResult::text(format!(
            "JSON Schema 2020-12 tool called with: {}",
            Value::Object(arguments)
        ))
    })
}

/// Tool whose region argument travels in an HTTP header too (2026-07-28, `x-mcp-header`).
#[mcp_tool]
fn test_header_tool(
    /// Where to run, mirrored into Mcp-Param-Region
    #[header("Region")]
    region: String,
) -> String {
    format!("Region: {region}")
}

// ===== Resources =====

/// A static text resource for testing.
#[mcp_resource(uri = "test://static-text", title = "Static Text Resource")]
fn static_text() -> &'static str {
    "This is the content of the static text resource."
}

/// A static binary resource (image) for testing.
#[mcp_resource(
    uri = "test://static-binary",
    title = "Static Binary Resource",
    mime_type = "image/png"
)]
fn static_binary() -> Vec<u8> {
    RED_PIXEL_PNG.to_vec()
}

/// A resource clients subscribe to.
#[mcp_resource(uri = "test://watched-resource", title = "Watched Resource")]
fn watched_resource() -> &'static str {
    "Watched resource content"
}

/// What `test://template/{id}/data` holds.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TemplateData {
    id: String,
    template_test: bool,
    data: String,
}

/// A resource template with parameter substitution.
#[mcp_resource(
    uri = "test://template/{id}/data",
    title = "Resource Template",
    mime_type = "application/json"
)]
fn template_data(
    /// Any identifier.
    id: String,
) -> TemplateData {
    TemplateData {
        data: format!("Data for ID: {id}"),
        id,
        template_test: true,
    }
}

// ===== Prompts =====

/// A simple prompt without arguments.
#[mcp_prompt(title = "Simple Test Prompt")]
fn test_simple_prompt() -> &'static str {
    "This is a simple prompt for testing."
}

/// Suggestions for `arg1` of `test_prompt_with_arguments`.
fn arg1_values(_prefix: &str) -> [&'static str; 5] {
    ["paris", "park", "party", "testValue1", "testValue2"]
}

/// A prompt with required arguments.
#[mcp_prompt(title = "Prompt With Arguments")]
fn test_prompt_with_arguments(
    /// First test argument
    #[complete(arg1_values)]
    arg1: String,
    /// Second test argument
    arg2: String,
) -> String {
    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")
}

/// A prompt that includes an embedded resource.
#[mcp_prompt(title = "Prompt With Embedded Resource")]
#[allow(non_snake_case)] // the argument is named `resourceUri` on the wire
fn test_prompt_with_embedded_resource(
    /// URI of the resource to embed
    resourceUri: String,
) -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(embedded(
            &resourceUri,
            "text/plain",
            "Embedded resource content for testing.",
        )),
        PromptMessage::user("Please process the embedded resource above."),
    ]
}

/// A prompt that includes image content.
#[mcp_prompt(title = "Prompt With Image")]
fn test_prompt_with_image() -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(red_pixel()),
        PromptMessage::user("Please analyze the image above."),
    ]
}

// ===== Revision 2026-07-28: input-required results, capabilities, listen triggers =====
//
// The same `ctx.elicit`, `ctx.sample` and `ctx.list_roots` as above: in a session they send
// requests; in revision 2026-07-28 they become input-required results, keyed by
// `Context::question` with the keys the suite's scenarios name.

/// A name.
#[derive(Deserialize, Serialize, JsonSchema)]
struct UserName {
    /// Your name
    name: String,
}

/// Asks the user's name through an input-required result (SEP-2322).
#[mcp_tool]
async fn test_input_required_result_elicitation(ctx: Context) -> Result<String, ClientError> {
    let answer = ctx
        .question("user_name")
        .elicit::<UserName>("What is your name?")
        .await?;
    Ok(match answer {
        Elicitation::Accept(UserName { name }) => format!("Hello, {name}!"),
        other => format!("No name: {}", describe(&other)),
    })
}

/// Asks the client's model a question through an input-required result (SEP-2322).
#[mcp_tool]
async fn test_input_required_result_sampling(ctx: Context) -> Result<String, ClientError> {
    let answer = ctx
        .question("capital_question")
        .ask_model("What is the capital of France?", 100)
        .await?;
    Ok(format!("The model answered: {answer}"))
}

/// Asks the client's roots through an input-required result (SEP-2322).
#[mcp_tool]
async fn test_input_required_result_list_roots(ctx: Context) -> Result<String, ClientError> {
    let roots = ctx.question("client_roots").list_roots().await?;
    let uris: Vec<String> = roots.into_iter().map(|root| root.uri).collect();
    Ok(format!("The client's roots: {}", uris.join(", ")))
}

/// A yes or no.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Confirmation {
    /// Whether to go on
    ok: bool,
}

/// Asks for a confirmation; the answer is believed only with the sealed `requestState`.
#[mcp_tool]
async fn test_input_required_result_request_state(ctx: Context) -> Result<String, ClientError> {
    let answer = ctx
        .question("confirm")
        .elicit::<Confirmation>("Continue?")
        .await?;
    Ok(format!("state-ok: {}", describe(&answer)))
}

/// Asks the user, the model and the roots at once: one round of three questions.
#[mcp_tool]
async fn test_input_required_result_multiple_inputs(ctx: Context) -> Result<String, ClientError> {
    let (asking_name, asking_greeting, asking_roots) = (
        ctx.question("user_name"),
        ctx.question("greeting"),
        ctx.question("client_roots"),
    );
    let (name, greeting, roots) = tokio::join!(
        asking_name.elicit::<UserName>("What is your name?"),
        asking_greeting.ask_model("Write a one-line greeting.", 50),
        asking_roots.list_roots(),
    );
    Ok(format!(
        "{} / {} / {} roots",
        describe(&name?),
        greeting?,
        roots?.len()
    ))
}

/// A colour.
#[derive(Deserialize, Serialize, JsonSchema)]
struct FavouriteColor {
    /// Your favourite colour
    color: String,
}

/// Asks the name, then the favourite colour: two rounds, the state carrying the first answer.
#[mcp_tool]
async fn test_input_required_result_multi_round(ctx: Context) -> Result<String, ClientError> {
    let name = ctx
        .question("step1")
        .elicit::<UserName>("What is your name?")
        .await?;
    let color = ctx
        .question("step2")
        .elicit::<FavouriteColor>("What is your favourite colour?")
        .await?;
    Ok(format!("{} then {}", describe(&name), describe(&color)))
}

/// Like `test_input_required_result_request_state`: the suite tampers with its state.
#[mcp_tool]
async fn test_input_required_result_tampered_state(ctx: Context) -> Result<String, ClientError> {
    test_input_required_result_request_state(ctx).await
}

/// Asks only what the client declared it can answer.
#[mcp_tool]
async fn test_input_required_result_capabilities(ctx: Context) -> Result<String, ClientError> {
    let mut answers = Vec::new();
    if ctx.client().has_capability("elicitation.form") {
        let name = ctx
            .question("user_name")
            .elicit::<UserName>("What is your name?")
            .await?;
        answers.push(describe(&name));
    }
    if ctx.client().has_capability("sampling") {
        let greeting = ctx
            .question("greeting")
            .ask_model("Write a one-line greeting.", 50)
            .await?;
        answers.push(greeting);
    }
    Ok(format!("Answers: {}", answers.join(" / ")))
}

/// Needs the client's model: a client that did not declare `sampling` gets -32021.
#[mcp_tool]
async fn test_missing_capability(ctx: Context) -> Result<String, ClientError> {
    ctx.ask_model("Say hello.", 20).await
}

/// Logs a line, then asks the user: its answer streams what comes before the question.
#[mcp_tool]
async fn test_streaming_elicitation(ctx: Context) -> Result<String, ClientError> {
    ctx.info("About to ask for your name");
    let answer = ctx
        .question("user_name")
        .elicit::<UserName>("What is your name?")
        .await?;
    Ok(format!("Streamed: {}", describe(&answer)))
}

/// Logs at info and debug: a client that set no log level hears nothing.
#[mcp_tool]
async fn test_logging_tool(ctx: Context) -> &'static str {
    ctx.info("test_logging_tool ran");
    ctx.debug("test_logging_tool details");
    "Logged"
}

/// Added and removed by `test_trigger_tool_change`.
#[mcp_tool]
fn test_toggled_tool() -> &'static str {
    "Here for now"
}

/// Removes `test_toggled_tool` if it is listed, else adds it: a tool list change.
#[mcp_tool]
fn test_trigger_tool_change(ctx: Context) -> Result<String, BuildError> {
    let server = ctx.server();
    if server.remove_tool("test_toggled_tool") {
        return Ok("Removed test_toggled_tool".to_owned());
    }
    server.add_tool::<test_toggled_tool>()?;
    Ok("Added test_toggled_tool".to_owned())
}

/// Added and removed by `test_trigger_prompt_change`.
#[mcp_prompt]
fn test_toggled_prompt() -> &'static str {
    "Here for now"
}

/// Removes `test_toggled_prompt` if it is listed, else adds it: a prompt list change.
#[mcp_tool]
fn test_trigger_prompt_change(ctx: Context) -> Result<String, BuildError> {
    let server = ctx.server();
    if server.remove_prompt("test_toggled_prompt") {
        return Ok("Removed test_toggled_prompt".to_owned());
    }
    server.add_prompt::<test_toggled_prompt>()?;
    Ok("Added test_toggled_prompt".to_owned())
}

/// What a prompt asks for its context.
#[derive(Deserialize, Serialize, JsonSchema)]
struct PromptContext {
    /// What the prompt is about
    context: String,
}

/// A prompt that asks the user for context first (SEP-2322 on `prompts/get`).
#[mcp_prompt]
async fn test_input_required_result_prompt(ctx: Context) -> Result<String, ClientError> {
    let answer = ctx
        .question("user_context")
        .elicit::<PromptContext>("What should the prompt be about?")
        .await?;
    Ok(match answer {
        Elicitation::Accept(PromptContext { context }) => format!("Write about: {context}"),
        other => format!("Write about anything ({})", describe(&other)),
    })
}

// ===== The tasks extension (io.modelcontextprotocol/tasks, revision 2026-07-28) =====
//
// A tool with `task_support` answers a client that declares the extension with a task handle
// once it first waits; `tasks/get`, `tasks/update` and `tasks/cancel` follow it.

/// Greets by name, at once: never a task.
#[mcp_tool]
fn greet(
    /// Who to greet
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// Works for `seconds` seconds, then answers: a task unless `seconds` is 0.
#[mcp_tool(task_support = "optional")]
async fn slow_compute(
    /// How long to work, in seconds
    seconds: u64,
    /// A name for this computation
    label: Option<String>,
) -> String {
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    let label = label.unwrap_or_default();
    format!("Computed `{label}` in {seconds}s")
}

/// Fails as a tool after about a second: a completed task whose result is an error. Only as
/// a task.
#[mcp_tool(task_support = "required")]
async fn failing_job() -> CallToolResult {
    tokio::time::sleep(Duration::from_secs(1)).await;
    CallToolResult::error("the job failed, as it always does")
}

/// Panics once it is a task: a failed task carrying a JSON-RPC error.
#[mcp_tool(task_support = "optional")]
async fn protocol_error_job(ctx: Context) -> String {
    ctx.continue_as_task().await;
    panic!("protocol_error_job breaks on purpose")
}

/// Whether to go on, as the tasks scenarios answer.
#[derive(Deserialize, Serialize, JsonSchema)]
struct DeleteConfirmation {
    /// Whether to delete
    confirm: bool,
}

/// Asks, as a task, whether to delete a file: the task waits in `input_required`.
#[mcp_tool(task_support = "optional")]
async fn confirm_delete(
    ctx: Context,
    /// The file to delete
    filename: String,
) -> Result<String, ClientError> {
    ctx.continue_as_task().await;
    let answer = ctx
        .elicit::<DeleteConfirmation>(&format!("Delete {filename}?"))
        .await?;
    Ok(match answer {
        Elicitation::Accept(DeleteConfirmation { confirm: true }) => format!("Deleted {filename}"),
        other => format!("Kept {filename} ({})", describe(&other)),
    })
}

/// One of two answers `multi_input` waits for.
#[derive(Deserialize, Serialize, JsonSchema)]
struct NamedConfirmation {
    /// A name
    name: Option<String>,
    /// Whether to go on
    confirm: Option<bool>,
}

/// Asks two questions at once, as a task: both pending together.
#[mcp_tool(task_support = "optional")]
async fn multi_input(ctx: Context) -> Result<String, ClientError> {
    ctx.continue_as_task().await;
    let (first, second) = tokio::join!(
        ctx.elicit::<NamedConfirmation>("First answer?"),
        ctx.elicit::<NamedConfirmation>("Second answer?"),
    );
    Ok(format!("{} / {}", describe(&first?), describe(&second?)))
}

/// Asks the user's name through an input-required result, then goes on as a task whose
/// result greets them. Only as a task.
#[mcp_tool(task_support = "required")]
async fn test_tool_with_task(ctx: Context) -> Result<String, ClientError> {
    let answer = ctx
        .question("user_name")
        .elicit::<UserName>("What is your name?")
        .await?;
    ctx.continue_as_task().await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    Ok(match answer {
        Elicitation::Accept(UserName { name }) => format!("Hello, {name}, from a task!"),
        other => format!("No name: {}", describe(&other)),
    })
}

// ===== The server =====

/// Every tool, resource and prompt above, plus the hand-written `json_schema_2020_12_tool`.
pub(crate) fn builder() -> ServerBuilder {
    mcp_runtime::server!()
        .name("mcp-conformance-everything")
        .dynamic_tool(json_schema_2020_12_tool())
}

/// The built server, for the tests.
#[allow(dead_code)]
pub(crate) fn server() -> Result<Server, BuildError> {
    builder().build()
}

/// Serves stdio, or Streamable HTTP at `http://ADDR/mcp` with `--http ADDR`.
fn main() -> Result<(), mcp_runtime::Error> {
    builder().run()
}
