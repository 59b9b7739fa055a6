//! The request context: progress, logging, cancellation, asking the client, live lists.

mod common;

use std::time::Duration;

use common::{Checked, first_text};
use mcp_runtime::prelude::*;
use mcp_runtime::{
    ClientError, DynamicTool, Elicitation, LoggingLevel, RpcError, SamplingRequest, Server,
};
use serde_json::{Value, json};

/// Counts to `steps`, reporting progress at each step.
#[mcp_tool]
async fn count(ctx: Context, steps: u32) -> String {
    count_with(&ctx, steps)
}

/// What `count` and `count_at_once` do.
fn count_with(ctx: &Context, steps: u32) -> String {
    for step in 1..=steps {
        ctx.report_progress(f64::from(step), Some(f64::from(steps)), Some("counting"));
        // Not increasing: never sent.
        ctx.report_progress(f64::from(step) - 0.5, None, None);
    }
    let late = ctx.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        late.report_progress(1000.0, None, Some("after the reply"));
    });
    format!("counted {steps}")
}

/// [`count`] as a plain function: it runs at once, with no future, and reports the same.
#[mcp_tool]
fn count_at_once(ctx: Context, steps: u32) -> String {
    count_with(&ctx, steps)
}

/// Reports progress up to `upto`, keeping nothing of its context once it returns.
#[mcp_tool]
fn step_at_once(ctx: Context, upto: u32) -> String {
    for step in 1..=upto {
        ctx.report_progress(f64::from(step), None, None);
    }
    format!("stepped to {upto}")
}

/// Logs once at each level.
#[mcp_tool]
fn chatter(ctx: Context) -> String {
    ctx.debug("d");
    ctx.info("i");
    ctx.warning("w");
    ctx.log(LoggingLevel::Error, Some("db"), &json!({"table": "gifts"}));
    "done".to_owned()
}

/// Waits for cancellation, then records it.
#[mcp_tool]
async fn wait_for_cancel(ctx: Context) -> String {
    let watcher = ctx.clone();
    tokio::spawn(async move {
        watcher.cancelled().await;
        assert!(watcher.is_cancelled());
        CANCEL_SEEN.store(true, std::sync::atomic::Ordering::SeqCst);
    });
    tokio::time::sleep(Duration::from_secs(5)).await;
    "not cancelled".to_owned()
}

static CANCEL_SEEN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
static CLEANED_UP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Sleeps, cleaning up if cancelled first.
#[mcp_tool]
async fn tidy(ctx: Context) -> String {
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs(5)) => "slept".to_owned(),
        () = ctx.cancelled() => {
            CLEANED_UP.store(true, std::sync::atomic::Ordering::SeqCst);
            "cancelled".to_owned()
        }
    }
}

/// Asks the client's model.
#[mcp_tool]
async fn ask(ctx: Context, question: String) -> Result<String, ClientError> {
    let answer = ctx
        .sample(
            SamplingRequest::new(100)
                .system_prompt("Be brief.")
                .user(Content::text(question)),
        )
        .await?;
    Ok(format!("{} said: {}", answer.model, answer.text()))
}

#[derive(Deserialize, JsonSchema)]
struct Confirmation {
    /// Go ahead?
    confirmed: bool,
    /// Anything to add.
    note: Option<String>,
}

/// Asks the user to confirm.
#[mcp_tool]
async fn confirm(ctx: Context) -> Result<String, ClientError> {
    Ok(match ctx.elicit::<Confirmation>("Really?").await? {
        Elicitation::Accept(c) => format!("accepted confirmed={} note={:?}", c.confirmed, c.note),
        Elicitation::Decline => "declined".to_owned(),
        Elicitation::Cancel => "cancelled".to_owned(),
    })
}

/// Lists the client's roots.
#[mcp_tool]
async fn roots(ctx: Context) -> Result<String, ClientError> {
    let roots = ctx.list_roots().await?;
    Ok(roots
        .iter()
        .map(|r| r.uri.as_str())
        .collect::<Vec<_>>()
        .join(","))
}

/// Adds a greeter tool for `name`.
#[mcp_tool]
fn add_greeter(ctx: Context, name: String) -> Result<String, mcp_runtime::BuildError> {
    let greeting = format!("Hello, {name}!");
    ctx.server().add_dynamic_tool(
        DynamicTool::new(format!("greet_{name}"), format!("Greets {name}.")).handler(
            move |_ctx, _args| {
                let greeting = greeting.clone();
                async move { CallToolResult::text(greeting) }
            },
        ),
    )?;
    Ok(format!("added greet_{name}"))
}

/// Removes a tool.
#[mcp_tool]
fn remove_tool(ctx: Context, name: String) -> String {
    ctx.server().remove_tool(&name).to_string()
}

fn server() -> Server {
    Server::builder(mcp_runtime::server_info!())
        .tool::<count>()
        .tool::<count_at_once>()
        .tool::<step_at_once>()
        .tool::<chatter>()
        .tool::<wait_for_cancel>()
        .tool::<tidy>()
        .tool::<ask>()
        .tool::<confirm>()
        .tool::<roots>()
        .tool::<add_greeter>()
        .tool::<remove_tool>()
        .request_timeout(Duration::from_millis(300))
        .build()
        .unwrap()
}

async fn drain(client: &Checked) -> Vec<Value> {
    let mut messages = Vec::new();
    while let Some(message) = client.client.next_message(Duration::from_millis(200)).await {
        messages.push(message);
    }
    client.assert_valid();
    messages
}

#[tokio::test]
async fn progress_echoes_the_token_exactly_goes_up_and_stops_at_the_reply() {
    // A plain function's tool runs at once, an async one's through its future: both alike.
    let tools = ["count", "count_at_once"];
    let cases = tools
        .into_iter()
        .flat_map(|tool| [json!("tok-1"), json!(7), json!(0)].map(|token| (tool, token)));
    for (tool, token) in cases {
        let client = Checked::connect(&server(), "2025-11-25").await;
        let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
            "params": {"name": tool, "arguments": {"steps": 3}, "_meta": {"progressToken": token}}});
        client.client.send_raw(&call.to_string());
        let messages = drain(&client).await;
        let reply_at = messages.iter().position(|m| m["id"] == 5).expect("a reply");
        let progress: Vec<&Value> = messages
            .iter()
            .filter(|m| m["method"] == "notifications/progress")
            .collect();
        assert_eq!(progress.len(), 3, "{messages:?}");
        for (i, note) in progress.iter().enumerate() {
            assert_eq!(note["params"]["progressToken"], token);
            assert_eq!(note["params"]["progress"], json!((i + 1) as f64));
            assert_eq!(note["params"]["total"], json!(3.0));
            assert_eq!(note["params"]["message"], "counting");
        }
        let last_progress = messages
            .iter()
            .rposition(|m| m["method"] == "notifications/progress")
            .unwrap();
        assert!(
            last_progress < reply_at,
            "progress after the reply: {messages:?}"
        );
    }
}

#[tokio::test]
async fn a_request_answered_at_once_starts_afresh_after_another() {
    // Nothing of the first call's state carries over: the second's progress starts from
    // nothing again, under its own token.
    let client = Checked::connect(&server(), "2025-11-25").await;
    for (id, upto, token) in [(1, 3, "first"), (2, 1, "second")] {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "step_at_once", "arguments": {"upto": upto}, "_meta": {"progressToken": token}}});
        client.client.send_raw(&call.to_string());
        let messages = drain(&client).await;
        let progress: Vec<(&Value, &Value)> = messages
            .iter()
            .filter(|m| m["method"] == "notifications/progress")
            .map(|m| (&m["params"]["progressToken"], &m["params"]["progress"]))
            .collect();
        let expected: Vec<(Value, Value)> = (1..=upto)
            .map(|step| (json!(token), json!(f64::from(step))))
            .collect();
        let expected: Vec<(&Value, &Value)> = expected.iter().map(|(t, p)| (t, p)).collect();
        assert_eq!(progress, expected, "{messages:?}");
        assert!(messages.iter().any(|m| m["id"] == id), "{messages:?}");
    }
}

#[tokio::test]
async fn no_token_means_no_progress() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    client.call("count", json!({"steps": 2})).await;
    let messages = drain(&client).await;
    assert!(messages.is_empty(), "{messages:?}");
}

#[tokio::test]
async fn log_messages_follow_the_level_the_client_set() {
    let client = Checked::connect(&server(), "2025-06-18").await;
    client.call("chatter", json!({})).await;
    let all = drain(&client).await;
    assert_eq!(all.len(), 4, "every level by default: {all:?}");
    assert_eq!(
        client
            .request("logging/setLevel", json!({"level": "warning"}))
            .await
            .unwrap(),
        json!({})
    );
    client.call("chatter", json!({})).await;
    let filtered = drain(&client).await;
    let levels: Vec<&str> = filtered
        .iter()
        .map(|m| m["params"]["level"].as_str().unwrap())
        .collect();
    assert_eq!(levels, ["warning", "error"]);
    assert_eq!(filtered[1]["params"]["logger"], "db");
    assert_eq!(filtered[1]["params"]["data"], json!({"table": "gifts"}));
    let error = client
        .request("logging/setLevel", json!({"level": "loud"}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancellation_is_visible_to_the_handler() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    client.client.send_raw(r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"wait_for_cancel","arguments":{}}}"#);
    tokio::time::sleep(Duration::from_millis(100)).await;
    client
        .client
        .notify("notifications/cancelled", json!({"requestId": 9}));
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(CANCEL_SEEN.load(std::sync::atomic::Ordering::SeqCst));
    assert_eq!(
        client.client.next_message(Duration::from_millis(300)).await,
        None
    );
}

#[tokio::test]
async fn a_handler_awaiting_cancellation_runs_its_cancel_branch_and_sends_nothing() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    client.client.send_raw(
        r#"{"jsonrpc":"2.0","id":"t","method":"tools/call","params":{"name":"tidy","arguments":{}}}"#,
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    client
        .client
        .notify("notifications/cancelled", json!({"requestId": "t"}));
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(CLEANED_UP.load(std::sync::atomic::Ordering::SeqCst));
    assert_eq!(
        client.client.next_message(Duration::from_millis(300)).await,
        None
    );
}

#[tokio::test]
async fn sampling_goes_to_the_client_and_back() {
    let client = Checked::connect_with(&server(), "2025-11-25", json!({"sampling": {}})).await;
    client.client.answer_requests(|method, params| {
        assert_eq!(method, "sampling/createMessage");
        assert_eq!(params["maxTokens"], 100);
        assert_eq!(params["systemPrompt"], "Be brief.");
        let question = params["messages"][0]["content"]["text"].as_str().unwrap();
        Ok(json!({"role": "assistant", "model": "test-model",
            "content": {"type": "text", "text": format!("echo {question}")}}))
    });
    let result = client.call("ask", json!({"question": "hi?"})).await;
    assert_eq!(first_text(&result), "test-model said: echo hi?");
}

#[tokio::test]
async fn asking_without_the_capability_is_a_clear_tool_error() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let result = client.call("ask", json!({"question": "hi?"})).await;
    assert_eq!(result["isError"], true);
    assert_eq!(
        first_text(&result),
        "the client does not support `sampling` (it did not declare the capability in `initialize`)"
    );
    let result = client.call("confirm", json!({})).await;
    assert!(first_text(&result).contains("`elicitation.form`"));
    let result = client.call("roots", json!({})).await;
    assert!(first_text(&result).contains("`roots`"));
}

/// A malformed answer to the server's question fails the question at once, saying so, rather
/// than when the request timeout ends (60 s) as if the client had never answered; the
/// malformed message itself still gets its -32600.
#[tokio::test]
async fn a_malformed_answer_fails_the_question_at_once() {
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<confirm>()
        .build()
        .unwrap();
    let client = std::sync::Arc::new(mcp_runtime::testing::TestClient::new(&server));
    client
        .initialize_with("2025-11-25", json!({"elicitation": {}}))
        .await
        .unwrap();
    let calling = tokio::spawn({
        let client = std::sync::Arc::clone(&client);
        async move { client.call_tool("confirm", json!({})).await }
    });
    let asked = client.next_message(Duration::from_secs(5)).await.unwrap();
    assert_eq!(asked["method"], "elicitation/create");
    let id = asked["id"].to_string();
    client.send_raw(&format!(
        r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":1}}}}"#
    ));
    let result = tokio::time::timeout(Duration::from_secs(5), calling)
        .await
        .expect("the tool ends at once")
        .unwrap()
        .unwrap();
    assert!(result.is_error);
    let text = result.content[0].as_text().unwrap();
    assert!(
        text.starts_with("the client's answer was malformed: "),
        "{text}"
    );
    assert!(text.contains("`error` must be an object"), "{text}");
    // The refusal names no id: the answer's id is the server's own request's, which the
    // client would match to a request of its own with that number.
    let refused = client.next_message(Duration::from_secs(5)).await.unwrap();
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    assert_eq!(refused.get("id"), None, "{refused}");
    // A well-formed response whose result has another shape says what was expected, in the
    // protocol's words rather than a Rust type's name.
    client.answer_requests(|_, _| Ok(json!("yes")));
    let result = client.call_tool("confirm", json!({})).await.unwrap();
    let text = result.content[0].as_text().unwrap();
    assert!(
        text.contains("expected an elicitation result: an object with `action`"),
        "{text}"
    );
}

#[tokio::test]
async fn elicitation_answers_come_back_typed() {
    for (answer, expected) in [
        (
            json!({"action": "accept", "content": {"confirmed": true, "note": "ok"}}),
            "accepted confirmed=true note=Some(\"ok\")",
        ),
        (
            json!({"action": "accept", "content": {"confirmed": false}}),
            "accepted confirmed=false note=None",
        ),
        (json!({"action": "decline"}), "declined"),
        (json!({"action": "cancel"}), "cancelled"),
        // An answer that does not fit names the field.
        (
            json!({"action": "accept", "content": {"confirmed": "yes", "note": null}}),
            "the client's answer was malformed: the form's values do not fit: `confirmed`: expected a boolean, got \"yes\"",
        ),
        (
            json!({"action": "accept", "content": {"note": "ok"}}),
            "the client's answer was malformed: the form's values do not fit: `confirmed` is required, and the answer has none",
        ),
    ] {
        let client =
            Checked::connect_with(&server(), "2025-11-25", json!({"elicitation": {}})).await;
        client.client.answer_requests(move |method, params| {
            assert_eq!(method, "elicitation/create");
            assert_eq!(params["mode"], "form");
            assert_eq!(params["requestedSchema"]["required"], json!(["confirmed"]));
            Ok(answer.clone())
        });
        let result = client.call("confirm", json!({})).await;
        assert_eq!(first_text(&result), expected);
    }
}

#[tokio::test]
async fn a_client_that_never_answers_does_not_hang_the_tool() {
    let client = Checked::connect_with(&server(), "2025-06-18", json!({"elicitation": {}})).await;
    // No handler: the request is queued and never answered.
    let result = client.call("confirm", json!({})).await;
    assert_eq!(result["isError"], true);
    assert_eq!(
        first_text(&result),
        "the client did not answer `elicitation/create` in time"
    );
    let messages = drain(&client).await;
    assert_eq!(messages[0]["method"], "elicitation/create");
    assert_eq!(messages[1]["method"], "notifications/cancelled");
}

/// A handler cancelled while it waits for the client's answer withdraws its question: the
/// server forgets it (rather than keeping it until the connection ends) and tells the client
/// with `notifications/cancelled` (basic/utilities/cancellation), before the request timeout.
#[tokio::test]
async fn a_cancelled_handler_withdraws_its_question_to_the_client() {
    let client = Checked::connect_with(&server(), "2025-06-18", json!({"elicitation": {}})).await;
    client.client.send_raw(
        &json!({"jsonrpc": "2.0", "id": 77, "method": "tools/call",
                "params": {"name": "confirm", "arguments": {}}})
        .to_string(),
    );
    let asked = client.next_message().await.expect("the question");
    assert_eq!(asked["method"], "elicitation/create");
    client
        .client
        .notify("notifications/cancelled", json!({"requestId": 77}));
    let withdrawn = client
        .next_message()
        .await
        .expect("the question is withdrawn");
    assert_eq!(
        withdrawn["method"], "notifications/cancelled",
        "{withdrawn}"
    );
    assert_eq!(withdrawn["params"]["requestId"], asked["id"]);
    assert_eq!(
        withdrawn["params"]["reason"],
        "the request that asked was cancelled"
    );
    // No reply to the cancelled call, and nothing more.
    assert_eq!(
        client
            .client
            .next_message(std::time::Duration::from_millis(500))
            .await,
        None
    );
}

#[tokio::test]
async fn roots_are_listed() {
    let client = Checked::connect_with(
        &server(),
        "2025-11-25",
        json!({"roots": {"listChanged": true}}),
    )
    .await;
    client.client.answer_requests(|_, _| {
        Ok(json!({"roots": [{"uri": "file:///a", "name": "A"}, {"uri": "file:///b"}]}))
    });
    assert_eq!(
        first_text(&client.call("roots", json!({})).await),
        "file:///a,file:///b"
    );
}

#[tokio::test]
async fn a_client_error_answer_reaches_the_tool() {
    let client = Checked::connect_with(&server(), "2025-11-25", json!({"sampling": {}})).await;
    client.client.answer_requests(|_, _| {
        Err(RpcError::new(
            mcp_runtime::ErrorCode::Other(-1),
            "user rejected sampling",
        ))
    });
    let result = client.call("ask", json!({"question": "?"})).await;
    assert!(
        first_text(&result).contains("user rejected sampling"),
        "{result}"
    );
    // The client's error is its refusal whatever it says: words that read like the server's
    // own timeout, a closed connection or a malformed answer are still a refusal.
    for words in [
        "the user did not answer",
        "the client closed the connection",
        "the client's answer was malformed: no",
    ] {
        client.client.answer_requests(move |_, _| {
            Err(RpcError::new(mcp_runtime::ErrorCode::InternalError, words))
        });
        let result = client.call("ask", json!({"question": "?"})).await;
        assert!(
            first_text(&result).starts_with(&format!("the client refused: {words}")),
            "{result}"
        );
    }
}

#[tokio::test]
async fn tools_added_and_removed_at_run_time_are_announced() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    assert_eq!(
        first_text(&client.call("add_greeter", json!({"name": "ana"})).await),
        "added greet_ana"
    );
    let messages = drain(&client).await;
    assert_eq!(
        messages,
        [json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {}})]
    );
    let names: Vec<String> = client
        .list_tools()
        .await
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    assert!(names.contains(&"greet_ana".to_owned()), "{names:?}");
    assert_eq!(
        first_text(&client.call("greet_ana", json!({})).await),
        "Hello, ana!"
    );
    // The same name twice is refused.
    let again = client.call("add_greeter", json!({"name": "ana"})).await;
    assert_eq!(again["isError"], true);
    assert_eq!(
        first_text(
            &client
                .call("remove_tool", json!({"name": "greet_ana"}))
                .await
        ),
        "true"
    );
    assert_eq!(drain(&client).await.len(), 1);
    let error = client
        .request("tools/call", json!({"name": "greet_ana", "arguments": {}}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
}

/// A prompt that reports progress while it renders.
#[mcp_prompt]
async fn slow_prompt(ctx: Context) -> String {
    ctx.report_progress(1.0, Some(2.0), None);
    ctx.report_progress(2.0, Some(2.0), None);
    "rendered".to_owned()
}

/// A resource added at run time.
#[mcp_resource(uri = "live://later")]
fn later() -> String {
    "here now".to_owned()
}

/// Sends the user to a URL.
#[mcp_tool]
async fn sign_in(ctx: Context) -> Result<String, ClientError> {
    let outcome = ctx
        .elicit_url("Sign in please", "https://example.com/login", "login-1")
        .await?;
    Ok(format!("{outcome:?}"))
}

#[tokio::test]
async fn prompts_report_progress_too() {
    let server = Server::builder(mcp_runtime::server_info!())
        .prompt::<slow_prompt>()
        .build()
        .unwrap();
    let client = Checked::connect(&server, "2025-11-25").await;
    let get = json!({"jsonrpc": "2.0", "id": 3, "method": "prompts/get",
        "params": {"name": "slow_prompt", "_meta": {"progressToken": 99}}});
    client.client.send_raw(&get.to_string());
    let messages = drain(&client).await;
    let methods: Vec<&str> = messages
        .iter()
        .map(|m| m["method"].as_str().unwrap_or("reply"))
        .collect();
    assert_eq!(
        methods,
        ["notifications/progress", "notifications/progress", "reply"]
    );
    assert_eq!(messages[0]["params"]["progressToken"], 99);
}

#[tokio::test]
async fn resources_and_prompts_added_at_run_time_are_announced_and_served() {
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<count>()
        .build()
        .unwrap();
    let client = Checked::connect(&server, "2025-11-25").await;
    let handle = server.handle();
    handle.add_resource::<later>().unwrap();
    assert_eq!(
        client.next_message().await.unwrap()["method"],
        "notifications/resources/list_changed"
    );
    let read = client
        .request("resources/read", json!({"uri": "live://later"}))
        .await
        .unwrap();
    assert_eq!(read["contents"][0]["text"], "here now");
    handle.add_prompt::<slow_prompt>().unwrap();
    assert_eq!(
        client.next_message().await.unwrap()["method"],
        "notifications/prompts/list_changed"
    );
    assert!(
        handle.add_prompt::<slow_prompt>().is_err(),
        "a prompt name is taken once"
    );
    assert!(handle.remove_resource("live://later"));
    assert!(!handle.remove_resource("live://later"));
    assert_eq!(
        client.next_message().await.unwrap()["method"],
        "notifications/resources/list_changed"
    );
    let error = client
        .request("resources/read", json!({"uri": "live://later"}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32002);
}

#[tokio::test]
async fn each_elicitation_mode_needs_its_own_capability() {
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<sign_in>()
        .tool::<confirm>()
        .build()
        .unwrap();
    let client =
        Checked::connect_with(&server, "2025-11-25", json!({"elicitation": {"form": {}}})).await;
    let refused = client.call("sign_in", json!({})).await;
    assert_eq!(
        first_text(&refused),
        "the client does not support `elicitation.url` (it did not declare the capability in `initialize`)"
    );
    let client =
        Checked::connect_with(&server, "2025-11-25", json!({"elicitation": {"url": {}}})).await;
    // client/elicitation "Capabilities": no form for a client that declares URL mode alone.
    assert_eq!(
        first_text(&client.call("confirm", json!({})).await),
        "the client does not support `elicitation.form` (it did not declare the capability in `initialize`)"
    );
    client.client.answer_requests(|method, params| {
        assert_eq!(method, "elicitation/create");
        assert_eq!(params["mode"], "url");
        assert_eq!(params["url"], "https://example.com/login");
        assert_eq!(params["elicitationId"], "login-1");
        Ok(json!({"action": "accept"}))
    });
    assert_eq!(
        first_text(&client.call("sign_in", json!({})).await),
        "Accept"
    );
}
