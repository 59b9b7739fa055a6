//! Revision 2026-07-28, stateless, beside the session-based revisions on one connection: each
//! request names its revision and the client's capabilities in `_meta`; every message the
//! server writes is checked against the official schema of the revision it answers.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::first_text;
use common::stateless::Client;
use mcp_runtime::prelude::*;
use mcp_runtime::{CacheHints, CacheScope, Elicitation, Server};
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

#[derive(Deserialize, JsonSchema)]
struct Name {
    name: String,
}

#[derive(Deserialize, JsonSchema)]
struct Colour {
    colour: String,
}

/// Greets the user by the name they give.
#[mcp_tool]
async fn greet(ctx: Context, punctuation: Option<String>) -> Result<String, String> {
    let answer = ctx
        .question("user_name")
        .elicit::<Name>("What is your name?")
        .await
        .map_err(|e| e.to_string())?;
    let punctuation = punctuation.unwrap_or_else(|| "!".to_owned());
    Ok(match answer {
        Elicitation::Accept(Name { name }) => format!("Hello, {name}{punctuation}"),
        Elicitation::Decline | Elicitation::Cancel => format!("Hello{punctuation}"),
    })
}

/// How many times `careful_greet` has started, to show when a handler did not run.
static CAREFUL_RUNS: AtomicUsize = AtomicUsize::new(0);

/// Greets like `greet`, counting its runs (one test alone calls it).
#[mcp_tool]
async fn careful_greet(ctx: Context, punctuation: Option<String>) -> Result<String, String> {
    CAREFUL_RUNS.fetch_add(1, Ordering::SeqCst);
    greet(ctx, punctuation).await
}

/// Asks the name, then the favourite colour: two rounds.
#[mcp_tool]
async fn two_steps(ctx: Context) -> Result<String, String> {
    let Elicitation::Accept(Name { name }) = ctx
        .question("name")
        .elicit::<Name>("Your name?")
        .await
        .map_err(|e| e.to_string())?
    else {
        return Err("no name".to_owned());
    };
    let Elicitation::Accept(Colour { colour }) = ctx
        .question("colour")
        .elicit::<Colour>("Your favourite colour?")
        .await
        .map_err(|e| e.to_string())?
    else {
        return Err("no colour".to_owned());
    };
    Ok(format!("{name} likes {colour}"))
}

/// Asks the model and the roots at once, under the default keys.
#[mcp_tool]
async fn survey(ctx: Context) -> Result<String, String> {
    let (answer, roots) = tokio::join!(ctx.ask_model("Capital of France?", 10), ctx.list_roots());
    let answer = answer.map_err(|e| e.to_string())?;
    let roots = roots.map_err(|e| e.to_string())?;
    Ok(format!("{answer} / {}", roots.len()))
}

/// Asks the user to sign in at a page (URL-mode elicitation).
#[mcp_tool]
async fn sign_in(ctx: Context) -> Result<String, String> {
    let answer = ctx
        .question("login")
        .elicit_url("Sign in, please", "https://example.com/login", "login-1")
        .await
        .map_err(|e| e.to_string())?;
    Ok(format!("{answer:?}"))
}

/// A prompt that asks who it is for.
#[mcp_prompt]
async fn letter(ctx: Context) -> Result<String, String> {
    match ctx
        .question("recipient")
        .elicit::<Name>("Who is the letter for?")
        .await
        .map_err(|e| e.to_string())?
    {
        Elicitation::Accept(Name { name }) => Ok(format!("Write a letter to {name}.")),
        _ => Ok("Write a letter.".to_owned()),
    }
}

fn server() -> Server {
    Server::builder(mcp_runtime::server_info!())
        .tool::<echo>()
        .tool::<chatty>()
        .tool::<greet>()
        .tool::<careful_greet>()
        .tool::<two_steps>()
        .tool::<survey>()
        .tool::<sign_in>()
        .prompt::<letter>()
        .resource::<hours>()
        .prompt::<trip>()
        .instructions("Use echo to hear yourself.")
        .cache_hints(CacheHints::new(Duration::from_secs(60), CacheScope::Public))
        .build()
        .unwrap()
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

/// Sends the client a request of its own, and says what came of it.
#[mcp_tool]
async fn ask_directly(ctx: Context) -> String {
    match ctx.request("roots/list", &json!({})).await {
        Ok(answer) => format!("answered: {answer}"),
        Err(error) => format!("refused: {}", error.message),
    }
}

/// Servers send no requests in 2026-07-28 (basic/patterns/mrtr): `Context::request` fails at
/// once, saying what to use instead (SECURITY.md, "Revision 2026-07-28").
#[tokio::test]
async fn a_handler_s_own_request_to_the_client_fails_at_once() {
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<ask_directly>()
        .build()
        .unwrap();
    let client = Client::new(&server);
    let result = client.call("ask_directly", json!({})).await;
    let text = first_text(&result);
    assert!(
        text.starts_with("refused: ")
            && text.contains("servers send no requests")
            && text.contains("Context::elicit"),
        "{text}"
    );
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

/// `tools/call` of a server without tools is -32601 too, not an unknown tool's -32602: the
/// path that answers a plain function's call at once finds no tool and leaves the request to
/// the method check.
#[tokio::test]
async fn a_tools_call_to_a_server_without_tools_is_not_found() {
    let server = Server::builder(mcp_runtime::server_info!())
        .prompt::<trip>()
        .build()
        .unwrap();
    let client = Client::new(&server);
    let call = json!({ "name": "add", "arguments": { "a": 1, "b": 2 } });
    let error = client.request("tools/call", call).await.unwrap_err();
    assert_eq!(error.code, -32601, "{error}");
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

/// basic/index: a `_meta` that names one of its fields twice, or params that give `_meta`
/// twice, are refused with -32602 naming it, whichever copy claims the revision: which of two
/// values counts is not for the server to guess (it served such a request as a session-based
/// one before, or kept the first of two `_meta`s where it kept the last of two names).
#[tokio::test]
async fn a_meta_given_twice_or_naming_a_field_twice_is_invalid_params() {
    let client = Client::new(&server());
    let meta = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let twice = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let cases = [
        (
            format!(r#"{{"_meta":{twice}}}"#),
            "_meta.io.modelcontextprotocol/protocolVersion",
        ),
        (format!(r#"{{"_meta":{{}},"_meta":{meta}}}"#), "_meta"),
        (format!(r#"{{"_meta":{meta},"_meta":{{}}}}"#), "_meta"),
    ];
    for (id, (params, field)) in cases.into_iter().enumerate() {
        client.client.send_raw(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{params}}}"#
        ));
        let reply = client
            .client
            .next_message(Duration::from_secs(5))
            .await
            .unwrap();
        assert_eq!(reply["id"], id, "{reply}");
        assert_eq!(reply["error"]["code"], -32602, "{params}: {reply}");
        assert_eq!(reply["error"]["data"]["field"], field, "{params}: {reply}");
    }
}

/// RFC 8259 section 8.3: `protocol\u0056ersion` is the name `protocolVersion`, whatever the
/// server's quick looks at the raw text search for. A claim, and the answers of a retry, whose
/// names are written with escapes count as written plainly (the first was served as a
/// session-based request, and the retry ran the handler as a first run, asking again).
#[tokio::test]
async fn names_written_with_escapes_are_the_same_names() {
    let client = Client::new(&server());
    let meta = r#"{"io.modelcontextprotocol/protocol\u0056ersion":"2026-07-28","io.modelcontextprotocol/client\u0043apabilities":{"elicitation":{}}}"#;
    client.client.send_raw(&format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{"_meta":{meta}}}}}"#
    ));
    let discovered = client
        .client
        .next_message(Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(
        discovered["result"]["resultType"], "complete",
        "{discovered}"
    );
    assert!(
        discovered["result"]["supportedVersions"].is_array(),
        "{discovered}"
    );

    // A prompt's retry is told from a first run by the look at its raw text.
    let first = client
        .request_with("prompts/get", json!({"name": "letter"}), caps(ELICITATION))
        .await
        .unwrap();
    let state = first["requestState"].as_str().unwrap();
    let answers = json!({"recipient": accept(json!({"name": "Zoe"}))});
    client.client.send_raw(&format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{{"name":"letter","input\u0052esponses":{answers},"request\u0053tate":"{state}","_meta":{meta}}}}}"#
    ));
    let done = client
        .client
        .next_message(Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    assert_eq!(
        done["result"]["messages"][0]["content"]["text"], "Write a letter to Zoe.",
        "{done}"
    );
    client.assert_valid();
}

/// A prompt whose text is a file that is not there.
#[mcp_prompt]
fn missing_notes() -> Result<String, std::io::Error> {
    std::fs::read_to_string("/nonexistent/notes-for-a-test.md")
}

/// basic "Error Codes": a 2026-07-28 server must not send -32002, whichever handler reports
/// "not found": a prompt's is -32602 too, and stays -32002 in a session.
#[tokio::test]
async fn a_prompt_s_not_found_follows_the_revision() {
    let server = Server::builder(mcp_runtime::server_info!())
        .prompt::<missing_notes>()
        .build()
        .unwrap();
    let client = Client::new(&server);
    let get = json!({ "name": "missing_notes" });
    let error = client
        .request("prompts/get", get.clone())
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602, "{error}");
    client.client.initialize().await.unwrap();
    let error = client.client.request("prompts/get", get).await.unwrap_err();
    assert_eq!(error.code, -32002, "{error}");
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

/// Answers at once, and logs a moment later from a task of its own.
#[mcp_tool]
fn late_logger(ctx: Context) -> String {
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        ctx.info("a line after the answer");
    });
    "answered".to_owned()
}

/// server/utilities/logging: a stateless request's log messages go on its response stream,
/// before the response, "MUST NOT deliver it ... on any stream other than the one carrying the
/// response": one logged after the answer goes nowhere (on stdio it would be a stray line).
#[tokio::test]
async fn a_log_message_after_the_answer_is_not_sent() {
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<late_logger>()
        .build()
        .unwrap();
    let client = Client::new(&server);
    let call = json!({"name": "late_logger", "arguments": {},
                      "_meta": {"io.modelcontextprotocol/logLevel": "debug"}});
    client.request("tools/call", call).await.unwrap();
    let late = client.client.next_message(Duration::from_millis(300)).await;
    assert!(late.is_none(), "sent after the answer: {late:?}");
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

const ELICITATION: &str = r#"{"elicitation": {}}"#;

fn caps(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

/// basic/patterns/mrtr: a handler's question ends the run with an input-required result
/// (`inputRequests` under the handler's key, and a `requestState`); the retry with the answer
/// and the state runs it again to completion.
#[tokio::test]
async fn a_question_is_an_input_required_result_and_the_retry_completes() {
    let client = Client::new(&server());
    let first = client
        .request_with(
            "tools/call",
            json!({"name": "greet", "arguments": {}}),
            caps(ELICITATION),
        )
        .await
        .unwrap();
    assert_eq!(first["resultType"], "input_required");
    let question = &first["inputRequests"]["user_name"];
    assert_eq!(question["method"], "elicitation/create");
    assert_eq!(question["params"]["message"], "What is your name?");
    assert!(question["params"]["requestedSchema"]["properties"]["name"].is_object());
    let state = first["requestState"].as_str().unwrap().to_owned();
    let done = client
        .request_with(
            "tools/call",
            json!({"name": "greet", "arguments": {},
                   "inputResponses": {"user_name": accept(json!({"name": "Alice"}))},
                   "requestState": state}),
            caps(ELICITATION),
        )
        .await
        .unwrap();
    assert_eq!(done["resultType"], "complete");
    assert_eq!(first_text(&done), "Hello, Alice!");
}

/// mrtr "Error Handling": answers the handler never asks for are ignored, and an answer may
/// come without a state when the question's key is known.
#[tokio::test]
async fn unasked_answers_are_ignored() {
    let client = Client::new(&server());
    let done = client
        .request_with(
            "tools/call",
            json!({"name": "greet", "arguments": {},
                   "inputResponses": {"user_name": accept(json!({"name": "Bo"})),
                                      "unknown_extra_key": {"x": 1}}}),
            caps(ELICITATION),
        )
        .await
        .unwrap();
    assert_eq!(first_text(&done), "Hello, Bo!");
}

/// Each round's state carries the earlier answers, so a retry needs only the latest one; the
/// states of two rounds differ.
#[tokio::test]
async fn rounds_accumulate_answers_in_the_state() {
    let client = Client::new(&server());
    let call = |extra: Value| {
        let mut params = json!({"name": "two_steps", "arguments": {}});
        for (key, value) in extra.as_object().unwrap() {
            params[key] = value.clone();
        }
        client.request_with("tools/call", params, caps(ELICITATION))
    };
    let first = call(json!({})).await.unwrap();
    assert!(first["inputRequests"]["name"].is_object());
    let state1 = first["requestState"].as_str().unwrap().to_owned();
    let second = call(
        json!({"inputResponses": {"name": accept(json!({"name": "Ana"}))}, "requestState": state1}),
    )
    .await
    .unwrap();
    assert_eq!(second["resultType"], "input_required");
    assert!(second["inputRequests"]["colour"].is_object());
    assert!(second["inputRequests"].get("name").is_none());
    let state2 = second["requestState"].as_str().unwrap().to_owned();
    assert_ne!(state1, state2);
    let done = call(json!({"inputResponses": {"colour": accept(json!({"colour": "green"}))}, "requestState": state2}))
        .await
        .unwrap();
    assert_eq!(first_text(&done), "Ana likes green");
}

/// Questions asked at once come in one round, under default keys by kind and rank.
#[tokio::test]
async fn concurrent_questions_come_in_one_round() {
    let client = Client::new(&server());
    let both = r#"{"sampling": {}, "roots": {}}"#;
    let first = client
        .request_with(
            "tools/call",
            json!({"name": "survey", "arguments": {}}),
            caps(both),
        )
        .await
        .unwrap();
    let requests = first["inputRequests"].as_object().unwrap();
    assert_eq!(requests["sampling-1"]["method"], "sampling/createMessage");
    assert_eq!(requests["roots-2"]["method"], "roots/list");
    let done = client
        .request_with(
            "tools/call",
            json!({"name": "survey", "arguments": {}, "requestState": first["requestState"],
                   "inputResponses": {
                       "sampling-1": {"role": "assistant", "model": "m", "content": {"type": "text", "text": "Paris"}},
                       "roots-2": {"roots": [{"uri": "file:///test/root"}]}}}),
            caps(both),
        )
        .await
        .unwrap();
    assert_eq!(first_text(&done), "Paris / 1");
}

/// mrtr "Server Requirements": a state that fails verification is refused with -32602 and
/// the handler does not run; so is one sealed for another tool or other arguments, and a
/// state of megabytes.
#[tokio::test]
async fn a_forged_transplanted_or_oversized_state_is_refused_before_the_handler_runs() {
    let client = Client::new(&server());
    let first = client
        .request_with(
            "tools/call",
            json!({"name": "careful_greet", "arguments": {"punctuation": "!"}}),
            caps(ELICITATION),
        )
        .await
        .unwrap();
    let state = first["requestState"].as_str().unwrap().to_owned();
    let answer = json!({"user_name": accept(json!({"name": "Mallory"}))});
    let mut tampered = state.clone().into_bytes();
    let middle = tampered.len() / 2;
    tampered[middle] = if tampered[middle] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    for (label, name, arguments, sent) in [
        (
            "tampered",
            "careful_greet",
            json!({"punctuation": "!"}),
            format!("{state}-TAMPERED"),
        ),
        (
            "flipped",
            "careful_greet",
            json!({"punctuation": "!"}),
            tampered,
        ),
        (
            "other arguments",
            "careful_greet",
            json!({"punctuation": "?"}),
            state.clone(),
        ),
        ("other tool", "greet", json!({}), state.clone()),
        (
            "oversized",
            "careful_greet",
            json!({"punctuation": "!"}),
            "v1.".to_owned() + &"A".repeat(4 << 20),
        ),
    ] {
        let runs = CAREFUL_RUNS.load(Ordering::SeqCst);
        let error = client
            .request_with(
                "tools/call",
                json!({"name": name, "arguments": arguments, "inputResponses": answer, "requestState": sent}),
                caps(ELICITATION),
            )
            .await
            .unwrap_err();
        assert_eq!(error.code, -32602, "{label}: {error}");
        assert_eq!(
            error.data.unwrap()["reason"],
            "invalid_request_state",
            "{label}"
        );
        assert_eq!(
            CAREFUL_RUNS.load(Ordering::SeqCst),
            runs,
            "{label}: the handler ran"
        );
    }
}

/// A state sealed by another server (another key) is refused.
#[tokio::test]
async fn a_state_from_another_server_is_refused() {
    let ours = Client::new(&server());
    let theirs = Client::new(&server());
    let first = theirs
        .request_with(
            "tools/call",
            json!({"name": "greet", "arguments": {}}),
            caps(ELICITATION),
        )
        .await
        .unwrap();
    let error = ours
        .request_with(
            "tools/call",
            json!({"name": "greet", "arguments": {}, "requestState": first["requestState"],
                   "inputResponses": {"user_name": accept(json!({"name": "Eve"}))}}),
            caps(ELICITATION),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602, "{error}");
}

/// mrtr "Error Handling": `inputResponses` that is not an object, or an answer of the wrong
/// shape, is -32602 and never reaches the handler as a value.
#[tokio::test]
async fn malformed_answers_are_invalid_params() {
    let client = Client::new(&server());
    for responses in [json!(null), json!([1]), json!({"user_name": 12345})] {
        let error = client
            .request_with(
                "tools/call",
                json!({"name": "greet", "arguments": {}, "inputResponses": responses}),
                caps(ELICITATION),
            )
            .await
            .unwrap_err();
        assert_eq!(error.code, -32602, "{responses}: {error}");
    }
}

/// basic/index "Error Codes": a question for a capability the request does not declare ends
/// the request with -32021 naming the capability; a form is asked only of a client that
/// declares form mode, a URL only of one that declares URL mode (client/elicitation
/// "Capabilities": servers must not send a mode the client does not support; an
/// `elicitation` naming no mode is form mode).
#[tokio::test]
async fn a_question_without_the_capability_is_missing_capability() {
    let client = Client::new(&server());
    let call = json!({"name": "greet", "arguments": {}});
    let form_only = json!({"elicitation": {"form": {}}});
    for capabilities in [json!({}), json!({"elicitation": {"url": {}}})] {
        let error = client
            .request_with("tools/call", call.clone(), capabilities.clone())
            .await
            .unwrap_err();
        assert_eq!(error.code, -32021, "{capabilities}: {error}");
        assert_eq!(
            error.data.unwrap()["requiredCapabilities"],
            form_only,
            "{capabilities}"
        );
    }
    for capabilities in [json!({"elicitation": {}}), form_only] {
        let asked = client
            .request_with("tools/call", call.clone(), capabilities.clone())
            .await
            .unwrap();
        assert_eq!(asked["resultType"], "input_required", "{capabilities}");
        assert_eq!(
            asked["inputRequests"]["user_name"]["params"]["mode"],
            "form"
        );
    }
    // A URL is asked only of a client that declares URL mode, and the refusal is the same
    // -32021, not an error handed to the handler.
    let sign_in = json!({"name": "sign_in", "arguments": {}});
    let url_mode = json!({"elicitation": {"url": {}}});
    for capabilities in [json!({}), json!({"elicitation": {}})] {
        let error = client
            .request_with("tools/call", sign_in.clone(), capabilities.clone())
            .await
            .unwrap_err();
        assert_eq!(error.code, -32021, "{capabilities}: {error}");
        assert_eq!(
            error.data.unwrap()["requiredCapabilities"],
            url_mode,
            "{capabilities}"
        );
    }
    let asked = client
        .request_with("tools/call", sign_in, url_mode)
        .await
        .unwrap();
    assert_eq!(asked["resultType"], "input_required", "{asked}");
    assert_eq!(asked["inputRequests"]["login"]["params"]["mode"], "url");
}

/// Prompts ask in the same way (mrtr: `prompts/get` may return input-required).
#[tokio::test]
async fn a_prompt_asks_through_an_input_required_result() {
    let client = Client::new(&server());
    let first = client
        .request_with("prompts/get", json!({"name": "letter"}), caps(ELICITATION))
        .await
        .unwrap();
    assert_eq!(
        first["inputRequests"]["recipient"]["method"],
        "elicitation/create"
    );
    let done = client
        .request_with(
            "prompts/get",
            json!({"name": "letter", "requestState": first["requestState"],
                   "inputResponses": {"recipient": accept(json!({"name": "Zoe"}))}}),
            caps(ELICITATION),
        )
        .await
        .unwrap();
    assert_eq!(
        done["messages"][0]["content"]["text"],
        "Write a letter to Zoe."
    );
}

/// The same handler in a session asks the client with a request, as before.
#[tokio::test]
async fn the_same_handler_asks_a_session_s_client_directly() {
    let client = Client::new(&server());
    client.client.answer_requests(|method, _| {
        assert_eq!(method, "elicitation/create");
        Ok(json!({"action": "accept", "content": {"name": "Sam"}}))
    });
    client
        .client
        .initialize_with("2025-11-25", caps(ELICITATION))
        .await
        .unwrap();
    let done = client
        .client
        .request("tools/call", json!({"name": "greet", "arguments": {}}))
        .await
        .unwrap();
    assert_eq!(first_text(&done), "Hello, Sam!");
}

/// A `subscriptions/listen` request, raw (it is answered only when it ends).
fn listen_message(id: u64, filter: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
           "params": {"notifications": filter, "_meta": {
               "io.modelcontextprotocol/protocolVersion": "2026-07-28",
               "io.modelcontextprotocol/clientCapabilities": {}}}})
    .to_string()
}

/// Added and removed by the listen tests.
#[mcp_tool]
fn extra() -> &'static str {
    "extra"
}

/// basic/patterns/subscriptions: `subscriptionId` "matches the JSON-RPC `id` of the
/// originating `subscriptions/listen` request", so it is echoed as written, as replies echo
/// ids: an integer beyond 64 bits, or `-0`, does not come back as a float.
#[tokio::test]
async fn a_subscription_id_is_the_listen_request_s_id_as_written() {
    let server = server();
    let client = Client::new(&server);
    for id in ["18446744073709551616", "-0"] {
        let listen = listen_message(1, json!({"toolsListChanged": true})).replacen(
            r#""id":1"#,
            &format!(r#""id":{id}"#),
            1,
        );
        client.client.send_raw(&listen);
        let (ack, text) = client
            .client
            .next_message_with_text(Duration::from_secs(5))
            .await
            .expect("an acknowledgement");
        assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
        let tag = format!(r#""io.modelcontextprotocol/subscriptionId":{id}}}"#);
        assert!(text.contains(&tag), "{id}: {text}");
    }
}

/// basic/patterns/subscriptions: the acknowledgement comes first and names what the server
/// honours; each change asked for follows, tagged with the listen request's id; changes not
/// asked for never come; a cancel ends the stream.
#[tokio::test]
async fn listen_acknowledges_then_delivers_only_what_was_asked() {
    let server = server();
    let client = Client::new(&server);
    client.client.send_raw(&listen_message(
        77,
        json!({"toolsListChanged": true, "resourceSubscriptions": ["shop://info/hours"], "bogus": 1}),
    ));
    client
        .client
        .send_raw(&listen_message(78, json!({"promptsListChanged": true})));
    let wait = Duration::from_secs(5);
    let mut acks = Vec::new();
    for _ in 0..2 {
        let ack = client
            .client
            .next_message(wait)
            .await
            .expect("an acknowledgement");
        assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
        acks.push(ack);
    }
    acks.sort_by_key(|ack| {
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"].as_u64()
    });
    assert_eq!(
        acks[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        77
    );
    assert_eq!(
        acks[0]["params"]["notifications"],
        json!({"toolsListChanged": true, "resourceSubscriptions": ["shop://info/hours"]})
    );
    assert_eq!(
        acks[1]["params"]["notifications"],
        json!({"promptsListChanged": true})
    );

    server.handle().add_tool::<extra>().unwrap();
    let change = client
        .client
        .next_message(wait)
        .await
        .expect("the tool change");
    assert_eq!(change["method"], "notifications/tools/list_changed");
    assert_eq!(
        change["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        77
    );
    server.handle().resource_updated("shop://info/hours");
    server.handle().resource_updated("shop://info/other");
    let updated = client.client.next_message(wait).await.expect("the update");
    assert_eq!(updated["method"], "notifications/resources/updated");
    assert_eq!(updated["params"]["uri"], "shop://info/hours");
    assert!(
        client
            .client
            .next_message(Duration::from_millis(200))
            .await
            .is_none(),
        "a change nobody asked for was delivered"
    );

    client
        .client
        .notify("notifications/cancelled", json!({"requestId": 77}));
    tokio::time::sleep(Duration::from_millis(50)).await;
    server.handle().remove_tool("extra");
    assert!(
        client
            .client
            .next_message(Duration::from_millis(200))
            .await
            .is_none(),
        "a cancelled listener still receives changes"
    );
    client.assert_valid();
}

/// Listen streams are bounded: one more than `max_listeners` is refused, naming the setting.
#[tokio::test]
async fn listen_streams_are_capped() {
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<echo>()
        .max_listeners(1)
        .build()
        .unwrap();
    let client = Client::new(&server);
    client
        .client
        .send_raw(&listen_message(1000, json!({"toolsListChanged": true})));
    let ack = client
        .client
        .next_message(Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    let error = client
        .request(
            "subscriptions/listen",
            json!({"notifications": {"toolsListChanged": true}}),
        )
        .await
        .unwrap_err();
    assert!(error.message.contains("max_listeners"), "{error}");
}

/// A gift, an object in structured output.
#[derive(Serialize, JsonSchema)]
struct Gift {
    name: String,
    price: u32,
}

fn catalogue() -> Vec<Gift> {
    vec![
        Gift {
            name: "kite".to_owned(),
            price: 12,
        },
        Gift {
            name: "atlas".to_owned(),
            price: 30,
        },
    ]
}

/// Every gift: a list, which only the 2025 revisions need wrapped.
#[mcp_tool]
fn gifts() -> Vec<Gift> {
    catalogue()
}

/// How many gifts there are: a number.
#[mcp_tool]
fn gift_count() -> i64 {
    2
}

/// The cheapest gift: an object, the same in both eras.
#[mcp_tool]
fn cheapest() -> Gift {
    catalogue().remove(0)
}

/// The gifts under a price; an error for a price of zero.
#[mcp_tool]
fn gifts_under(max: u32) -> Result<Vec<Gift>, String> {
    if max == 0 {
        return Err("nothing is free".to_owned());
    }
    Ok(catalogue().into_iter().filter(|g| g.price < max).collect())
}

/// A server of tools with structured output, one of them built at run time with a list
/// `outputSchema`.
fn structured_server() -> Server {
    let Some(list) = json!({"type": "array", "items": {"type": "string"}})
        .as_object()
        .cloned()
    else {
        unreachable!()
    };
    let colours = mcp_runtime::DynamicTool::new("colours", "The colours in stock.")
        .output_schema(list)
        .handler(|_ctx, _args| async {
            CallToolResult {
                content: vec![Content::text(r#"["red","blue"]"#)],
                structured_content: Some(json!(["red", "blue"])),
                is_error: false,
            }
        });
    Server::builder(mcp_runtime::server_info!())
        .tool::<gifts>()
        .tool::<gift_count>()
        .tool::<cheapest>()
        .tool::<gifts_under>()
        .dynamic_tool(colours)
        .build()
        .unwrap()
}

fn tool_named<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == name)
        .unwrap_or_else(|| panic!("no tool `{name}` in {list}"))
}

/// The structured result of one call, checked against the tool's `outputSchema` as listed for
/// the same revision, with its text block mirroring it.
fn structured_of(list: &Value, name: &str, result: &Value) -> Value {
    let structured = result["structuredContent"].clone();
    let schema = &tool_named(list, name)["outputSchema"];
    common::validate_against(schema, &structured).unwrap();
    let text: Value = serde_json::from_str(first_text(result)).unwrap();
    assert_eq!(text, structured, "the text block mirrors what is sent");
    structured
}

/// Revision 2026-07-28 allows any `outputSchema` and `structuredContent` (schema.json: `Tool`,
/// `CallToolResult`): a list or a number is sent as it is, with its own schema; an object is
/// sent as in every revision; an `Err` has no structured content.
#[tokio::test]
async fn structured_results_are_sent_unwrapped_to_2026_clients() {
    let client = Client::new(&structured_server());
    let list = client.request("tools/list", json!({})).await.unwrap();
    let call = |name, arguments| client.call(name, arguments);
    assert_eq!(tool_named(&list, "gifts")["outputSchema"]["type"], "array");
    let result = call("gifts", json!({})).await;
    assert_eq!(
        structured_of(&list, "gifts", &result),
        json!([{"name": "kite", "price": 12}, {"name": "atlas", "price": 30}])
    );
    assert_eq!(
        tool_named(&list, "gift_count")["outputSchema"]["type"],
        "integer"
    );
    let result = call("gift_count", json!({})).await;
    assert_eq!(structured_of(&list, "gift_count", &result), json!(2));
    assert_eq!(
        tool_named(&list, "cheapest")["outputSchema"]["type"],
        "object"
    );
    let result = call("cheapest", json!({})).await;
    assert_eq!(
        structured_of(&list, "cheapest", &result),
        json!({"name": "kite", "price": 12})
    );
    assert_eq!(
        tool_named(&list, "gifts_under")["outputSchema"]["type"],
        "array"
    );
    let result = call("gifts_under", json!({"max": 20})).await;
    assert_eq!(
        structured_of(&list, "gifts_under", &result),
        json!([{"name": "kite", "price": 12}])
    );
    let result = call("gifts_under", json!({"max": 0})).await;
    assert_eq!(result["isError"], true);
    assert!(result.get("structuredContent").is_none());
    assert_eq!(
        tool_named(&list, "colours")["outputSchema"],
        json!({"type": "array", "items": {"type": "string"}})
    );
    let result = call("colours", json!({})).await;
    assert_eq!(
        structured_of(&list, "colours", &result),
        json!(["red", "blue"])
    );
}

/// The 2025 revisions allow only objects: on the same server and connection, a session's
/// client gets a list or a number wrapped as `{"result": ...}` with a schema that says so, an
/// object unchanged, and a dynamic tool's list wrapped the same way.
#[tokio::test]
async fn structured_results_keep_the_wrapper_for_2025_clients() {
    let client = Client::new(&structured_server());
    client
        .client
        .initialize_with("2025-11-25", json!({}))
        .await
        .unwrap();
    let session = &client.client;
    let list = session.request("tools/list", json!({})).await.unwrap();
    let call = |name: &'static str, arguments: Value| async move {
        session
            .request("tools/call", json!({"name": name, "arguments": arguments}))
            .await
            .unwrap()
    };
    for name in ["gifts", "gift_count", "gifts_under", "colours"] {
        let schema = &tool_named(&list, name)["outputSchema"];
        assert_eq!(schema["type"], "object", "{name}: {schema}");
        assert_eq!(schema["required"], json!(["result"]), "{name}: {schema}");
    }
    let gifts_schema = &tool_named(&list, "gifts")["outputSchema"];
    assert_eq!(gifts_schema["properties"]["result"]["type"], "array");
    let result = call("gifts", json!({})).await;
    assert_eq!(
        structured_of(&list, "gifts", &result),
        json!({"result": [{"name": "kite", "price": 12}, {"name": "atlas", "price": 30}]})
    );
    let result = call("gift_count", json!({})).await;
    assert_eq!(
        structured_of(&list, "gift_count", &result),
        json!({"result": 2})
    );
    let cheapest = &tool_named(&list, "cheapest")["outputSchema"];
    assert!(cheapest["properties"].get("result").is_none(), "{cheapest}");
    let result = call("cheapest", json!({})).await;
    assert_eq!(
        structured_of(&list, "cheapest", &result),
        json!({"name": "kite", "price": 12})
    );
    let result = call("gifts_under", json!({"max": 20})).await;
    assert_eq!(
        structured_of(&list, "gifts_under", &result),
        json!({"result": [{"name": "kite", "price": 12}]})
    );
    let result = call("gifts_under", json!({"max": 0})).await;
    assert_eq!(result["isError"], true);
    assert!(result.get("structuredContent").is_none());
    let result = call("colours", json!({})).await;
    assert_eq!(
        structured_of(&list, "colours", &result),
        json!({"result": ["red", "blue"]})
    );
    client.assert_valid();
}

/// Today's prices: per user, reusable for five seconds.
#[mcp_resource(
    uri = "shop://info/prices",
    cache_ttl_ms = 5_000,
    cache_scope = "private"
)]
fn prices() -> &'static str {
    "Kites 12, atlases 30."
}

/// One shelf of the shop: reusable for a second, shared as the server says.
#[mcp_resource(uri = "shop://shelves/{number}", cache_ttl_ms = 1_000)]
fn shelf(number: u32) -> String {
    format!("Shelf {number}: books")
}

/// server/utilities/caching: a resource's or template's own `ttlMs`/`cacheScope` on its
/// `resources/read`, a part it leaves out the server's; the lists and the other reads keep the
/// server's hints, and a session's read has none.
#[tokio::test]
async fn a_resource_s_own_cache_hints_go_with_its_reads() {
    let server = Server::builder(mcp_runtime::server_info!())
        .resource::<hours>()
        .resource::<prices>()
        .resource::<shelf>()
        .cache_hints(CacheHints::new(Duration::from_secs(60), CacheScope::Public))
        .build()
        .unwrap();
    let client = Client::new(&server);
    let own = client.read("shop://info/prices").await;
    assert_eq!(own["contents"][0]["text"], "Kites 12, atlases 30.");
    assert_eq!(
        (&own["ttlMs"], &own["cacheScope"]),
        (&json!(5_000), &json!("private"))
    );
    let template = client.read("shop://shelves/2").await;
    assert_eq!(template["contents"][0]["text"], "Shelf 2: books");
    assert_eq!(
        (&template["ttlMs"], &template["cacheScope"]),
        (&json!(1_000), &json!("public"))
    );
    let plain = client.read("shop://info/hours").await;
    assert_eq!(
        (&plain["ttlMs"], &plain["cacheScope"]),
        (&json!(60_000), &json!("public"))
    );
    assert!(server_info_of(&own).is_object());
    for method in ["resources/list", "resources/templates/list"] {
        let list = client.request(method, json!({})).await.unwrap();
        assert_eq!(
            (&list["ttlMs"], &list["cacheScope"]),
            (&json!(60_000), &json!("public")),
            "{method}"
        );
    }
    client
        .client
        .initialize_with("2025-11-25", json!({}))
        .await
        .unwrap();
    let legacy = client
        .client
        .request("resources/read", json!({"uri": "shop://info/prices"}))
        .await
        .unwrap();
    assert!(legacy.get("ttlMs").is_none() && legacy.get("cacheScope").is_none());
    client.assert_valid();
}
